"""Read criminal judgments (AR-Bench, seed 003) from JuDGE, CAIL2018, LeCaRD, Caseformer
or a user's JSON lines, each format a declared field mapping (:mod:`.field_maps`).

- :func:`read_judge` / :func:`read_cail` yield, per source line, a :class:`Judgment` or a
  :class:`JudgmentReject` with its line number and reason: nothing is dropped silently and
  nothing raises on a bad record. A line is read strictly (:mod:`buildds.extract.json_lines`:
  encoding, line length, control characters, JSON and its limits, one object per line);
  then its fields: a required field missing (``missing_field``), empty (``empty_field``),
  of the wrong type (``wrong_type``), out of range (``bad_value``), or an id already used (``duplicate_id``, naming the line that has it; ``seen``
  shares the ids across files); then the case (``multi_defendant``, ``no_defendant``).
- :func:`load_judge` / :func:`load_cail` yield only the judgments and hand each reject to
  ``rejects`` (a list to append to); without one, rejects are logged as warnings.
- :func:`detect_format` reads a file up to its first record that names its format (the
  first built-in mapping whose keys it has, :data:`BUILTIN_MAPS`); :func:`load_input` reads
  it by that mapping (:func:`read_mapped` for LeCaRD, Caseformer and user mappings from YAML,
  :func:`load_field_map`), sharing the ids and the cases read (:class:`CaseRegistry`: a case
  in two corpora is ``duplicate_case``) across the inputs.

Only an unreadable file raises (:class:`~buildds.errors.ExtractError`, naming it: not a
regular file, an unknown ``encoding``, a read error).

Files are streamed line by line. JuDGE (``{text_id, text, la, fd}``, :mod:`.judge`): ``fd``
is the full judgment, split into facts, reasoning and judgment part; CAIL (``{fact, meta}``,
:mod:`.cail`): the fact text plus the structured meta.

Parsing a judgment's text into its fields happens while it is read, so the free-text parsers
live here too, below the readers (every function pure; those returning spans take the text
and its ``offset`` inside ``Judgment.full_text``, so their spans index the full text):

- :mod:`.amounts` — terms (:func:`parse_months`), money (:func:`parse_money`) and the
  amount of the offence (:func:`parse_amount_involved`), numerals read by
  :func:`buildds.text.cn_number`;
- :mod:`.sentence` — the main penalty of the 判决如下 part (:func:`parse_sentence`);
- :mod:`.citations` — 犯…罪 names (:func:`parse_charges`) and cited 刑法 articles
  (:func:`parse_articles`);
- :mod:`.dates` — the judgment date (:func:`parse_judgment_date`) and the offence dates
  (:func:`parse_offence_dates`, :func:`offence_date`);
- :mod:`.factors` — sentencing circumstances (自首, 坦白, 累犯 …, :func:`parse_factors`);
- :mod:`.spans` — the spans they build.

Modules, lowest first (each imports only those before it): :mod:`.spans`, :mod:`.amounts`,
:mod:`.sentence`, :mod:`.citations`, :mod:`.dates`, :mod:`.factors`, :mod:`.reader` (what both formats
share), :mod:`.build` (a judgment from its full text and part ranges), :mod:`.judge`,
:mod:`.cail`, :mod:`.cases`, :mod:`.field_maps`, :mod:`.mapped`, :mod:`.load`,
:mod:`.formats`. Later stages (the
injectors, the AR-Bench rows, validation, the evaluation's answer parser) import the parsers
from here: every import points down.
"""

from __future__ import annotations

from buildds.extract.judgments.amounts import (
    MONEY_RE,
    TERM_RE,
    money_matches,
    parse_amount_involved,
    parse_money,
    parse_months,
)
from buildds.extract.judgments.build import judge_defendants, judgment_from_ranges
from buildds.extract.judgments.cail import read_cail
from buildds.extract.judgments.cases import CaseRegistry, case_number, procedure_of
from buildds.extract.judgments.citations import parse_articles, parse_charges
from buildds.extract.judgments.dates import (
    offence_date,
    parse_judgment_date,
    parse_offence_dates,
)
from buildds.extract.judgments.factors import parse_factors
from buildds.extract.judgments.field_maps import (
    BUILTIN_MAPS,
    field_value,
    load_field_map,
    resolve_field_map,
)
from buildds.extract.judgments.formats import JudgmentInput, detect_format, record_format
from buildds.extract.judgments.judge import read_judge, split_judge_text
from buildds.extract.judgments.load import load_cail, load_input, load_judge
from buildds.extract.judgments.mapped import place_parts, read_mapped
from buildds.extract.judgments.sentence import parse_sentence

__all__ = [
    "BUILTIN_MAPS",
    "MONEY_RE",
    "TERM_RE",
    "CaseRegistry",
    "JudgmentInput",
    "case_number",
    "detect_format",
    "field_value",
    "judge_defendants",
    "judgment_from_ranges",
    "load_cail",
    "load_field_map",
    "load_input",
    "load_judge",
    "money_matches",
    "offence_date",
    "parse_amount_involved",
    "parse_articles",
    "parse_charges",
    "parse_factors",
    "parse_judgment_date",
    "parse_money",
    "parse_months",
    "parse_offence_dates",
    "parse_sentence",
    "place_parts",
    "procedure_of",
    "read_cail",
    "read_judge",
    "read_mapped",
    "record_format",
    "resolve_field_map",
    "split_judge_text",
]
