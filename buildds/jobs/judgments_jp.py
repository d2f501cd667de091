"""``buildds judgments --profile jp``: the steps that differ for Japanese precedents
(courts.go.jp JSON, :mod:`buildds.extract.judgments.jp_precedent`) and the Japanese 刑法
profile (:mod:`buildds.inject_errors.jp_profile`); :mod:`buildds.jobs.judgments` calls
them in place of its Chinese steps and shares the rest (validation, export, report).

- :func:`check_jp_options`: the options a jp run needs (the law folder with
  ``penal_code_articles.jsonl``; no confusable table is used);
- :func:`read_jp_inputs`: step "read" — each input a precedent file or a folder of them,
  each file told by content; a folder is one input (its files in name order);
- :func:`parse_jp`: step "parse" — a judgment or a reject per file;
- :func:`jp_rows`: the AR-Bench rows with Japanese headings and 刑法 article texts;
- :data:`JP_NOTES`: what the card says about the jp profile.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import BuildError
from buildds.inject_errors import ALL_ERRORS
from buildds.inject_errors.jp_profile import jp_law_files
from buildds.schema.judgments_report import ExtractReject, FailedInput, InputEntry

if TYPE_CHECKING:
    from buildds.jobs.judgments_inputs import JudgmentsRun
    from buildds.schema.arbench import ArbenchRow
    from buildds.schema.judgments import InjectedJudgment, Judgment
    from buildds.schema.statutes import StatuteProfile

__all__ = ["DEFAULT_JP_LAW_DIR", "JP_NOTES", "JpInput", "check_jp_options", "jp_law_files",
           "jp_rows", "parse_jp", "read_jp_inputs"]

DEFAULT_JP_LAW_DIR = Path("data_raw/judgments/jp-penal-code")
FORMAT = "jp_precedent"
JP_NOTES = (
    ("Profile jp: Japanese criminal judgments (courts.go.jp precedents) against the 刑法 "
    "(e-Gov text with the 拘禁刑 of the 2022 reform; a 懲役/禁錮 term is judged against the "
    "拘禁刑 range of the same article, which the reform left unchanged; amendments of single "
    "articles after a judgment's date are not taken into account)."),
    ("jp: only E3 (term outside the 法定刑 of the applied 刑法 article) and E5 (罰金 outside "
    "the article's maximum or the 1万円 minimum of 刑法15条) are made, and only for a "
    "judgment whose 罰条 apply one 刑法 Book II article and no other law (else skipped: "
    "law_not_in_profile, multi_charge, no_applied_article) and cite no article that moves "
    "the range (自首, 未遂, 併合罪, 再犯, 従犯, 酌量減軽 …: sentencing_factor). A suspended "
    "sentence's new term stays within 3 years (刑法25条)."),
    ("jp: E1, E2, E4 and E6 are not made (skip reason not_applicable_jp): there is no "
    "Japanese confusable-charge table (E1), omitting a charge would need the 併合罪 "
    "sentence recomputed (E2), Japanese sentencing factors are not parsed (E4), and the "
    "刑法 has no proportional fines (E6). Sentencing factors are not parsed, so every jp "
    "row's factor group is none."),
)
_HEADINGS = {"facts": "【罪となるべき事実】", "reasoning": "【法令の適用・量刑の理由】",
             "judgment": "【主文】", "articles": "【関係条文】"}


@dataclass
class JpInput:
    """One input argument: its printable name and the precedent files it holds."""

    name: str
    files: list[Path]


def check_jp_options(profile: str, errors: Sequence[str], inputs: Sequence[Path],
                     law_dir: Path | None, confusable: Path | None = None) -> None:
    """:class:`BuildError` for options no jp run can be made with."""
    from buildds.inject_errors.jp_profile import JP_LAW_FILE

    unknown = [e for e in errors if e not in ALL_ERRORS]
    if unknown or not errors:
        raise BuildError(f"unknown error types {unknown} (choose from {', '.join(ALL_ERRORS)})")
    if not inputs:
        raise BuildError("no input files")
    if law_dir is None or not (Path(law_dir) / JP_LAW_FILE).is_file():
        raise BuildError(f"the law folder has no {JP_LAW_FILE} (pass --law DIR: the "
                         "jp-penal-code files)", source=str(law_dir))


def read_jp_inputs(run: JudgmentsRun, inputs: Sequence[Path]) -> list[JpInput]:
    """Step "read": every input's precedent files (a file not in the format makes its input
    failed when it is given by itself; inside a folder it is a reject)."""
    from buildds.extract.judgments.jp_precedent import jp_precedent_files, probe_jp_precedent
    from buildds.jobs.judgments_inputs import sha256_regular
    from buildds.safeio.hashing import sha256_bytes
    from buildds.safeio.names import printable_name

    found: list[JpInput] = []
    for path in map(Path, inputs):
        name = printable_name(path.name)
        files, hashes = [], []
        for file in jp_precedent_files(path):
            why = probe_jp_precedent(file, max_bytes=run.max_line_bytes)
            if why is None:
                files.append(file)
                hashes.append(f"{printable_name(file.name)}:{sha256_regular(file)}")
            elif path.is_dir():
                run.reject(ExtractReject(reason="missing_field" if "precedent" in why else
                                         why.split(":", 1)[0], message=why,
                                         source=printable_name(file.name), id=None, line=1,
                                         dataset="jp"))
        if not files:
            run.report.failed.append(FailedInput(path=name, error=(
                why if not path.is_dir() and why else "no courts.go.jp precedent file (*.json "
                "objects with contents and case_number)")))
            continue
        digest = (sha256_regular(path) if not path.is_dir()
                  else sha256_bytes("\n".join(hashes).encode()))
        found.append(JpInput(name=name, files=files))
        run.report.inputs.append(InputEntry(path=name, format=FORMAT, sha256=digest,
                                            encoding="utf-8", encoding_from="json"))
    return found


def parse_jp(run: JudgmentsRun, probed: Sequence[JpInput], advance: Callable[[int], Any]
             ) -> list[Judgment]:
    """Step "parse": the judgments of every input (the first ``limit`` files of each), their
    rejects, and the counts and coverage per input."""
    from buildds.extract.judgments.jp_precedent import read_jp_precedents
    from buildds.jobs.judgments_inputs import take_records
    from buildds.schema.judgments import Judgment, JudgmentReject

    report, seen = run.report, dict[str, str]()
    judgments: list[Judgment] = []
    for found in probed:
        mine: list[Judgment] = []
        got: list[JudgmentReject] = []
        for record in read_jp_precedents(list(itertools.islice(found.files, run.limit)),
                                         seen=seen, max_bytes=run.max_line_bytes):
            (mine if isinstance(record, Judgment) else got).append(record)  # type: ignore[arg-type]
        take_records(run, found.name, mine, got, judgments)
        advance(len(mine))
    report.rejected = dict(sorted(Counter(r["reason"] for r in run.rejects.rows).items()))
    return judgments


def _row(j: Judgment, rec: InjectedJudgment | None, texts: dict[tuple[int, int | None], str],
         seed: int) -> ArbenchRow:
    from buildds.inject_errors.arbench_rows import factor_group
    from buildds.schema.arbench import ArbenchRow
    from buildds.text import int_to_ja

    keys = list(dict.fromkeys((r.number, None) for r in j.article_refs))
    labels = tuple(f"第{int_to_ja(n)}条" for n, _ in keys)
    arts = "\n\n".join(texts.get(k, f"{label}（条文なし）") for k, label in zip(keys, labels,
                                                                             strict=True))
    facts = rec.facts if rec else j.facts
    reasoning = rec.reasoning if rec else j.reasoning
    text = rec.judgment if rec else j.judgment
    block = {k: f"{h}\n" for k, h in _HEADINGS.items()}
    f, r, t, a = (block["facts"] + facts.strip(), block["reasoning"] + reasoning.strip(),
                  block["judgment"] + text.strip(), block["articles"] + arts)
    r0 = block["reasoning"] + j.reasoning.strip()
    return ArbenchRow(
        id=rec.id if rec else f"{j.id}-none", source_id=j.id, dataset="jp",
        error_type=rec.error_type if rec else "none",
        error_class=rec.error_class if rec else "none", label=1 if rec else 0,
        factor=factor_group(j), charges=tuple(j.charges), facts=facts, judgment=text,
        original_judgment=j.judgment, reasoning=j.reasoning, anomalous_reasoning=reasoning,
        cited_articles=labels, anomalous_cited_articles=labels, articles_text=arts,
        anomalous_articles_text=arts, gold_correction=dict(rec.gold_correction) if rec else {},
        rationale=dict(rec.rationale) if rec else {}, edits=rec.edits if rec else (),
        seed=rec.seed if rec else seed, input_s1=f"{f}\n\n{t}", input_s2=f"{f}\n\n{r0}\n\n{t}",
        input_s3=f"{f}\n\n{r0}\n\n{t}\n\n{a}", input_s4=f"{f}\n\n{r}\n\n{t}",
        input_s5=f"{f}\n\n{r}\n\n{t}\n\n{a}")


def jp_rows(run: JudgmentsRun, judgments: Sequence[Judgment], done: Sequence[InjectedJudgment],
            statutes: StatuteProfile, law_dir: Path) -> list[ArbenchRow]:
    """Normal rows (a seeded share, as for the Chinese rows) and one row per injection, in id
    order; the parts under Japanese headings, the cited 刑法 articles' text from the law
    folder (the jp injectors edit only the 主文, so the cited articles do not change)."""
    from buildds.inject_errors.arbench_rows import select_normals
    from buildds.inject_errors.jp_profile import jp_article_texts

    texts = jp_article_texts(law_dir)
    rows = [_row(j, None, texts, run.seed)
            for j in select_normals(judgments, run.normal_share, run.seed, done)]
    rows += [_row(rec.original, rec, texts, run.seed) for rec in done]
    return sorted(rows, key=lambda r: r.id)
