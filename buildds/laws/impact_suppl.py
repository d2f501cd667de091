"""The 附則 (supplementary provisions) of an amending law, found among those the law store keeps
for its versions (:meth:`~buildds.laws.store.LawStore.suppl_provisions`, as the consolidated
texts printed them), and the transitional provisions (経過措置) in them that may keep the old
law applicable to an article — for :mod:`buildds.laws.impact`.

The 附則 come from the store only, never from the statute files it was imported from, so the
answer does not depend on the working directory. A store written before it kept them has no
附則 file for a version: :func:`missing_suppl_notes` names those versions (re-import their
files). An amending law is matched by its number: ``平成29年法律第44号`` (the revisions table)
is ``平成二九年六月二日法律第四四号`` (e-Gov's ``AmendLawNum``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from buildds.laws.store import LawStore
from buildds.schema.laws import LawVersion, SupplProvision
from buildds.text import int_to_ja, to_int_number

__all__ = ["TRANSITIONAL_MARKS", "SupplIndex", "article_in_kanji", "law_number_key",
           "missing_suppl_notes", "names_article", "transitional_excerpts"]

#: wording of a transitional provision that keeps the old law applicable
TRANSITIONAL_MARKS = ("なお従前の例による", "なお従前の例によ", "この法律の施行前に", "施行日前に",
                      "なおその効力を有する", "旧法の規定")
_EXCERPT = 160
_LAW_NUM = re.compile(r"(明治|大正|昭和|平成|令和)([元〇一二三四五六七八九十\d]+)年.*?法律第"
                      r"([〇一二三四五六七八九十百千\d]+)号")


def _number(text: str) -> int | None:
    """A year or law number as e-Gov writes it (二九 digit by digit, 四十四, 元, 29)."""
    text = unicodedata.normalize("NFKC", text)
    return 1 if text == "元" else to_int_number(text)


def law_number_key(text: str | None) -> tuple[str, int, int] | None:
    """(era, year, number) of the first 法律第N号 in ``text``: 平成29年法律第44号 and
    平成二九年六月二日法律第四四号 both give ("平成", 29, 44)."""
    if not text:
        return None
    m = _LAW_NUM.search(unicodedata.normalize("NFKC", text).replace(" ", ""))
    if not m:
        return None
    year, num = _number(m.group(2)), _number(m.group(3))
    return (m.group(1), year, num) if year and num else None


def article_in_kanji(key: str) -> str:
    """``"166"`` → 第百六十六条, ``"398_22"`` → 第三百九十八条の二十二 (as statutes print them)."""
    parts = [int(p) for p in key.split("_") if p.isdigit()]
    if not parts:
        return key
    head = f"第{int_to_ja(parts[0])}条"
    return head + "".join(f"の{int_to_ja(p)}" for p in parts[1:])


#: what may stand right before an article of the amended law in its 附則 (新法第九十五条,
#: 「第九十三条、第九十五条」); 附則第二十条 — the 附則's own article — is not one
_BEFORE = r"(?:新法|旧法|民法|刑法|同法|改正後の|改正前の|、|及び|並びに|から)"


def names_article(text: str, key: str) -> bool:
    """Whether ``text`` (a 附則) names article ``key`` of the amended law (新法第九十五条,
    旧法第四百二十八条, a later item of such a list), not an article of its own."""
    name = article_in_kanji(key)
    tail = "(?!の[一二三四五六七八九十])"  # 第九十五条の二 is another article
    return re.search(_BEFORE + re.escape(name) + tail, re.sub(r"\s+", "", text)) is not None


def _sentences(text: str) -> list[str]:
    """Sentences ending in 。 outside brackets (a 。 inside （…） or 「…」 does not end one)."""
    out, depth, start = [], 0, 0
    flat = re.sub(r"\s+", "", text)
    for i, c in enumerate(flat):
        if c in "（「(":
            depth += 1
        elif c in "）」)":
            depth = max(0, depth - 1)
        elif c == "。" and depth == 0:
            out.append(flat[start:i + 1])
            start = i + 1
    if flat[start:]:
        out.append(flat[start:])
    return out


def transitional_excerpts(provision: SupplProvision, article: str, limit: int = 3
                          ) -> tuple[str, ...]:
    """Up to ``limit`` sentences of ``provision`` with transitional wording that name
    ``article`` (:func:`names_article`); when none
    does, the first such sentence of the 附則 only. Each is cut to 160 characters."""
    naming: list[str] = []
    general: list[str] = []
    for s in _sentences(provision.full_text):
        if not any(mark in s for mark in TRANSITIONAL_MARKS):
            continue
        (naming if names_article(s, article) else general).append(s)
    picked = naming[:limit] or general[:1]
    return tuple(s if len(s) <= _EXCERPT else s[:_EXCERPT - 1] + "…" for s in picked)


def _missing_note(version: LawVersion) -> str:
    return (f"附則 not in the store for {version.revision_id}: re-import the file "
            f"({version.source.path})")


def missing_suppl_notes(store: LawStore, law_ids: Iterable[str] | None = None) -> list[str]:
    """One note per version of ``law_ids`` (default: every law of the store) whose 附則 the
    store does not keep (written before it kept them), in law and date order."""
    ids = sorted(set(law_ids)) if law_ids is not None else store.laws()
    return [_missing_note(v) for law_id in ids for v in store.versions(law_id)
            if not store.has_suppl(law_id, v.revision_id)]


class SupplIndex:
    """The 附則 of amending laws, read from the store for a law's held versions (each once);
    ``missing`` notes the versions looked at whose 附則 the store does not keep."""

    def __init__(self, store: LawStore) -> None:
        self.store = store
        self._kept: dict[tuple[str, str], tuple[SupplProvision, ...]] = {}
        self.missing: set[str] = set()

    def _provisions(self, version: LawVersion) -> tuple[SupplProvision, ...]:
        key = (version.law_id, version.revision_id)
        if key not in self._kept:
            if not self.store.has_suppl(*key):
                self.missing.add(_missing_note(version))
            self._kept[key] = self.store.suppl_provisions(*key)
        return self._kept[key]

    def find(self, amended_by: str | None, versions: Sequence[LawVersion]
             ) -> SupplProvision | None:
        """The 附則 of the law ``amended_by`` in the first of ``versions`` that carries it."""
        key = law_number_key(amended_by)
        if key is None:
            return None
        for version in versions:
            for prov in self._provisions(version):
                if law_number_key(prov.amend_law_num) == key:
                    return prov
        return None
