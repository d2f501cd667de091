"""Write the sample exam: booklets, answer keys and a manifest, in the raw-folder layout
``<dest>/<year>/<subject>-<mondai|seito>.pdf`` that ``buildds jbe --raw`` reads."""

from __future__ import annotations

import json
from pathlib import Path

from buildds.safeio.hashing import sha256_file
from buildds.sample.content import QUESTIONS, SUBJECT_CODES, YEAR, full_marks
from buildds.sample.truth import PAGE_BREAKS, answer_rows
from buildds.schema import SUBJECTS
from buildds.text import era_of

__all__ = ["MANIFEST_DESCRIPTION", "write_sample"]

MANIFEST_DESCRIPTION = (
    "buildds sample exam: original questions written for buildds in the style of the "
    "司法試験 短答式 (憲法/民法/刑法), typeset like the official booklets and answer keys. "
    "Not an official Ministry of Justice exam. Regenerate with `python -m buildds.sample`."
)


def write_sample(dest: str | Path) -> list[Path]:
    """Typeset the sample into ``dest``: ``<dest>/2025/<subject>-mondai.pdf`` and
    ``-seito.pdf`` for 憲法, 民法 and 刑法, and ``<dest>/manifest.json``. Returns the paths
    written (booklet and key per subject, then the manifest). Deterministic: the same
    code, reportlab and font give the same bytes."""
    from buildds.sample.typeset_booklet import typeset_booklet
    from buildds.sample.typeset_key import typeset_answer_key

    dest = Path(dest)
    era = era_of(YEAR)
    folder = dest / str(YEAR)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    entries: list[dict[str, object]] = []
    for code in SUBJECT_CODES:
        subject = SUBJECTS[code]
        mondai = folder / f"{code}-mondai.pdf"
        seito = folder / f"{code}-seito.pdf"
        layout = typeset_booklet(mondai, subject_jp=subject.jp, questions=QUESTIONS[code],
                                 page_breaks=PAGE_BREAKS, year_label=era)
        typeset_answer_key(seito, subject_jp=subject.jp, full_marks=full_marks(code),
                           rows=answer_rows(code))
        for kind, kind_jp, path, pages in (
            ("mondai", "短答式試験問題集", mondai, layout.page_count),
            ("seito", "正解及び配点", seito, 1),
        ):
            entries.append({
                "year": YEAR,
                "era": era,
                "subject": code,
                "subject_jp": subject.jp,
                "subject_en": subject.en,
                "kind": kind,
                "kind_jp": kind_jp,
                "path": path.relative_to(dest).as_posix(),
                "sha256": sha256_file(path),
                "pages": pages,
                "sample": True,
            })
            written.append(path)
    manifest = dest / "manifest.json"
    manifest.write_text(json.dumps({
        "description": MANIFEST_DESCRIPTION,
        "layout": "<year>/<subject>-<kind>.pdf",
        "sample": True,
        "files": entries,
    }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    written.append(manifest)
    return written
