"""The Japanese 刑法 profile of ``buildds judgments --profile jp``, read from a law folder
holding ``penal_code_articles.jsonl`` (the DB4LAW articles as JSON lines, as
../shared/realdata/judgments/jp-penal-code has them): :func:`load_jp_profile` (built by
:func:`~buildds.inject_errors.statutes.build_jp_profile`), :func:`jp_article_texts` (the
article texts the AR-Bench rows quote) and :func:`jp_law_files` (what the build fingerprint
hashes).

The text is the current e-Gov text, with the 拘禁刑 of the 2022 reform (in force 2025-06-01).
Judgments before it impose 懲役 / 禁錮; the reform merged the two into 拘禁刑 without
changing any article's term range, so a 懲役 term is judged against the 拘禁刑 range (the
injectors' rationale names both kinds).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from buildds.errors import ExtractError
from buildds.schema.statutes import StatuteProfile
from buildds.text import int_to_ja

__all__ = ["JP_EFFECTIVE", "JP_LAW_FILE", "JP_VERSION", "jp_article_texts", "jp_law_files",
           "load_jp_profile"]

JP_LAW_FILE = "penal_code_articles.jsonl"
_NUM_RE = re.compile(r"[0-9]+(?:_[0-9]+)?")
_LINK_RE = re.compile(r"\[\[[^\]|]*\|([^\]]*)\]\]")
JP_VERSION = "刑法 e-Gov (拘禁刑, 令和4年法律第67号)"
JP_EFFECTIVE = date(2025, 6, 1)


def jp_law_files(law_dir: str | Path) -> list[Path]:
    """The files of the law folder the profile is read from."""
    return [Path(law_dir) / JP_LAW_FILE]


def load_jp_profile(law_dir: str | Path) -> StatuteProfile:
    """The 刑法 profile from ``law_dir/penal_code_articles.jsonl`` (:class:`ExtractError`
    naming the file when it is missing or unreadable)."""
    from buildds.inject_errors.statutes import build_jp_profile, jp_text_from_jsonl

    path = Path(law_dir) / JP_LAW_FILE
    if not path.is_file():
        raise ExtractError(f"no {JP_LAW_FILE} here (pass --law DIR with the jp-penal-code "
                           "files)", source=str(law_dir))
    return build_jp_profile(jp_text_from_jsonl(path), version=JP_VERSION,
                            effective_date=JP_EFFECTIVE)


def jp_article_texts(law_dir: str | Path) -> dict[tuple[int, int | None], str]:
    """(article, のN) → ``第二百三十五条　`` + its paragraphs (one a line)."""
    from buildds.safeio.files import read_side_file
    from buildds.safeio.json_strict import loads_strict

    path = Path(law_dir) / JP_LAW_FILE
    out: dict[tuple[int, int | None], str] = {}
    for number, line in enumerate(read_side_file(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            art = loads_strict(line)
            if not _NUM_RE.fullmatch(str(art["article_num"])):
                continue  # 削除 ranges (73:76 …)
            main, _, sub = str(art["article_num"]).partition("_")
            key = (int(main), int(sub) if sub else None)
            paras = [_LINK_RE.sub(r"\1", str(p["text"])) for p in art.get("paragraphs", [])]
        except (ValueError, KeyError, TypeError) as exc:
            raise ExtractError(f"line {number}: not an article record ({exc})",
                               source=str(path)) from None
        label = f"第{int_to_ja(key[0])}条" + (f"の{int_to_ja(key[1])}" if key[1] else "")
        out[key] = label + "　" + "\n".join(paras)
    return out
