"""Statute profiles parsed from the law text: sentencing tiers, conditions and fine rules.

PRC 刑法: :func:`parse_cn_criminal_law` splits the consolidated text into articles
(第X条, 第X条之N) and paragraphs (款), reads each clause ``…的，处…`` into a tier, and
:func:`build_cn_profile` names the charges from the LegalAttack charge table (charge →
刑法第X条[之N][第N款]; JUREX's crime→article map fills the gaps; a provision without a penalty
of its own follows 依照…的规定处罚 references, and a charge defined in one article takes the
tiers of the article that punishes it by name, 对犯X罪的: :func:`charge_tiers`) and adds the
amount thresholds stated in the judicial interpretations (``interp_*.md``). Japan 刑法:
:func:`parse_jp_penal_code` reads ``…に処する`` 法定刑 in both the 拘禁刑 (2025) and the 懲役/禁錮
wording.

Nothing is invented: a threshold the provided interpretations do not state stays None, and a
clause whose penalty words are not all understood yields no tier (it counts against coverage).

Modules (every name below is importable from this package):

- :mod:`.cn_law_text` — the 刑法 markdown as articles and paragraphs;
- :mod:`.cn_penalty_clauses` — 处… penalties, 罚金 rules and tier conditions of a paragraph;
- :mod:`.cn_penalty_references` — a provision's tiers, following 依照…的规定处罚 / 对犯X罪的;
- :mod:`.cn_charge_tiers` — a charge's tiers from the provisions the table places it at;
- :mod:`.cn_thresholds` — the interpretations' 数额较大/巨大/特别巨大 amounts;
- :mod:`.charge_tables` — the LegalAttack / JUREX charge→article and confusable tables;
- :mod:`.cn_profile` — :func:`build_cn_profile`;
- :mod:`.cn_versions` — a profile per version of a law store (:class:`VersionedProfiles`), the
  version a judgment is judged under (judgment date, or PRC art. 12 from the offence date);
- :mod:`.jp_penal_code` — :func:`build_jp_profile`;
- :mod:`.charge_aliases` — the names judgments use for a charge, :func:`resolve_charge`;
- :mod:`.profile_yaml` — a profile written to and read from YAML (imported on its own: it
  needs PyYAML).
"""

from __future__ import annotations

from buildds.inject_errors.statutes.charge_aliases import (
    CN_CHARGE_RENAMES,
    ChargeAliasIndex,
    charge_index,
    charge_key,
    expand_charge_name,
    resolve_charge,
)
from buildds.inject_errors.statutes.charge_tables import (
    load_charge_articles,
    load_confusable,
    single_names,
    symmetric_confusable,
)
from buildds.inject_errors.statutes.cn_charge_tiers import charge_tiers as charge_tiers
from buildds.inject_errors.statutes.cn_charge_tiers import named_paragraph as named_paragraph
from buildds.inject_errors.statutes.cn_law_text import split_cn_articles
from buildds.inject_errors.statutes.cn_penalty_clauses import (
    CN_GENERAL_LIMITS,
    classify_condition,
    parse_cn_clauses,
    parse_cn_fine,
    parse_cn_penalties,
)
from buildds.inject_errors.statutes.cn_penalty_references import Provision as Provision
from buildds.inject_errors.statutes.cn_penalty_references import penalty_refs as penalty_refs
from buildds.inject_errors.statutes.cn_penalty_references import (
    provision_tiers as provision_tiers,
)
from buildds.inject_errors.statutes.cn_penalty_references import (
    punishing_provisions as punishing_provisions,
)
from buildds.inject_errors.statutes.cn_profile import build_cn_profile, parse_cn_criminal_law
from buildds.inject_errors.statutes.cn_thresholds import parse_cn_thresholds
from buildds.inject_errors.statutes.cn_thresholds import with_thresholds as with_thresholds
from buildds.inject_errors.statutes.cn_versions import (
    CN_LAW_ID,
    VersionChoice,
    VersionedProfiles,
    lighter,
    store_law_text,
)
from buildds.inject_errors.statutes.jp_penal_code import JP_FINE_MIN_YEN as JP_FINE_MIN_YEN
from buildds.inject_errors.statutes.jp_penal_code import (
    JP_GENERAL_LIMITS,
    build_jp_profile,
    jp_text_from_html,
    jp_text_from_jsonl,
    parse_jp_penal_code,
    parse_jp_penalties,
)
from buildds.inject_errors.statutes.jp_penal_code import JP_MINOR_FINE_YEN as JP_MINOR_FINE_YEN

__all__ = [
    "CN_CHARGE_RENAMES",
    "CN_GENERAL_LIMITS",
    "CN_LAW_ID",
    "JP_GENERAL_LIMITS",
    "ChargeAliasIndex",
    "VersionChoice",
    "VersionedProfiles",
    "build_cn_profile",
    "build_jp_profile",
    "charge_index",
    "charge_key",
    "classify_condition",
    "expand_charge_name",
    "jp_text_from_html",
    "jp_text_from_jsonl",
    "lighter",
    "load_charge_articles",
    "load_confusable",
    "parse_cn_clauses",
    "parse_cn_criminal_law",
    "parse_cn_fine",
    "parse_cn_penalties",
    "parse_cn_thresholds",
    "parse_jp_penal_code",
    "parse_jp_penalties",
    "resolve_charge",
    "single_names",
    "split_cn_articles",
    "store_law_text",
    "symmetric_confusable",
]
