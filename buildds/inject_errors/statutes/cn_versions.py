"""PRC 刑法 profiles per version, from a law store, and the version a judgment is judged under.

:class:`VersionedProfiles` reads the versions of ``CN-CRIMINAL-LAW`` in a
:class:`~buildds.laws.store.LawStore` and builds one profile per revision id
(:func:`~buildds.inject_errors.statutes.build_cn_profile` on the version's articles, rendered
back to the Markdown shape by :func:`store_law_text`; the interpretations' thresholds and the
charge tables are the same for every version), cached per process.

:meth:`VersionedProfiles.choose` picks a judgment's version (:class:`VersionChoice`, with the
``basis`` it was chosen on):

- ``judgment_date``: the version in force on the judgment date;
- ``latest_no_date``: no judgment date in the data → the latest version;
- ``earliest_before_store``: the date is before the store's first version (the law in force
  then is not in the store) → the earliest version, so recorded;
- with ``date_rule="offence"`` (PRC art. 12, 从旧兼从轻): the law in force at the offence date
  (``offence_date``) unless the law at the judgment date is lighter for the judgment's
  charges (``lighter_later_law``); without an offence date the judgment date decides
  (``judgment_date_no_offence_date``).

"Lighter" (:func:`lighter`) compares each charge's statutory range as the profile holds it:
the heaviest penalty (死刑 > 无期徒刑 > fixed-term maximum in months), then the lowest minimum
term. Limits: it compares the charge's whole range, not the tier the conduct falls in (the
1997 SPC interpretation of art. 12 compares the 法定刑幅度 that applies); a later law is taken
only when it is lighter for some charge and heavier for none; a charge one version lacks keeps
the law at the offence date; thresholds from the interpretations are not versioned; the
offence date is the first date the facts name (:func:`buildds.extract.judgments.offence_date`).

The law after Amendment X (2017-11-04) is read from ``legalattack_criminal_law_articles.json``
(:mod:`buildds.laws.readers.legalattack_json`): its 之N articles split back out exactly, but its
款 are inferred from sentences (431 of the 458 articles Amendment XI left alone match the XI
text's paragraphs), so a charge defined by a 款 of a long multi-sentence article may sit under
another paragraph number in the X profile than in XI — its penalty range is the same.
Judgments before the store's first version are recorded as ``earliest_before_store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from buildds.errors import BuildError
from buildds.inject_errors.statutes.charge_aliases import resolve_charge
from buildds.inject_errors.statutes.cn_profile import build_cn_profile
from buildds.laws.store import LawStore
from buildds.schema.judgments import Judgment
from buildds.schema.laws import LawArticle, LawVersion
from buildds.schema.statutes import ChargeProfile, StatuteProfile

__all__ = ["CN_LAW_ID", "DateRule", "VersionChoice", "VersionedProfiles", "lighter",
           "store_law_text"]

CN_LAW_ID = "CN-CRIMINAL-LAW"
DateRule = Literal["judgment", "offence"]
_RANK = {"管制": 1, "拘役": 2, "有期徒刑": 3, "无期徒刑": 4, "死刑": 5}
_CACHE: dict[tuple[str, ...], StatuteProfile] = {}


@dataclass(frozen=True)
class VersionChoice:
    """The version a judgment is judged under, and on what basis it was chosen."""

    revision_id: str
    basis: str


def store_law_text(articles: Sequence[LawArticle]) -> str:
    """The articles as the 刑法 Markdown reads: ``第X条　`` + the first paragraph, one line per
    further paragraph, items ``（一）…`` on lines of their own."""
    lines: list[str] = []
    for a in articles:
        if a.deleted:
            continue
        for i, para in enumerate(a.paragraphs):
            lines.append((a.article_title + "\u3000" if i == 0 else "") + para.sentence)
            lines.extend(item.label + item.text for item in para.items)
    return "\n".join(lines) + "\n"


def _severity(charge: ChargeProfile) -> tuple[int, int, int]:
    """(heaviest kind, its longest term, minus the lowest minimum): larger is heavier."""
    kinds = [p for t in charge.tiers for p in t.penalties if p.kind in _RANK]
    top = max((_RANK[p.kind] for p in kinds), default=0)
    longest = max((p.max_months or 0 for p in kinds if _RANK[p.kind] == top), default=0)
    lows = [t.min_months for t in charge.tiers if t.min_months is not None]
    return top, longest, -(min(lows) if lows else 0)


def lighter(new: StatuteProfile, old: StatuteProfile, charges: Sequence[str]) -> bool:
    """Whether ``new`` is lighter than ``old`` for ``charges``: lighter for one, heavier for
    none (a charge either profile lacks: not lighter)."""
    better = False
    for name in charges:
        try:
            a, b = _severity(resolve_charge(new, name)), _severity(resolve_charge(old, name))
        except KeyError:
            return False
        if a > b:
            return False
        better = better or a < b
    return better


class VersionedProfiles:
    """The PRC versions of one law store, their profiles and the choice per judgment.
    ``law_dir`` gives the interpretations (``interp_*.md``), ``confusable`` the charge table."""

    def __init__(self, store: str | Path, law_dir: Path, confusable: Path,
                 law_id: str = CN_LAW_ID):
        self.store = LawStore(store)
        self.law_dir, self.confusable, self.law_id = Path(law_dir), Path(confusable), law_id
        self.versions: list[LawVersion] = self.store.versions(law_id)
        if not self.versions:
            raise BuildError(f"the law store has no versions of {law_id}; import them with: "
                             f"buildds laws import FILE --store {self.store.root}",
                             source=str(self.store.root))

    def articles(self, revision_id: str) -> list[LawArticle]:
        return self.store.articles(self.law_id, revision_id)

    def text(self, revision_id: str) -> str:
        """The version's text in the Markdown shape (:func:`store_law_text`)."""
        return store_law_text(self.articles(revision_id))

    def profile(self, revision_id: str) -> StatuteProfile:
        """The profile of one version (cached per process, by store, version, law folder and
        table)."""
        version = next((v for v in self.versions if v.revision_id == revision_id), None)
        if version is None:
            raise BuildError(f"law {self.law_id}: no version {revision_id} in the store",
                             source=str(self.store.root))
        key = (str(self.store.root.resolve()), revision_id, version.source.sha256 or "",
               str(self.law_dir.resolve()), str(self.confusable.resolve()))
        if key not in _CACHE:
            _CACHE[key] = build_cn_profile(
                self.law_dir, self.confusable, effective_date=version.valid_from,
                version=revision_id, text=self.text(revision_id))
        return _CACHE[key]

    def at(self, day: date | None, basis: str = "judgment_date") -> VersionChoice:
        """The version in force on ``day`` (see the module docstring for the bases)."""
        if day is None:
            return VersionChoice(self.versions[-1].revision_id, "latest_no_date")
        before = [v for v in self.versions if v.valid_from <= day]
        if not before:
            return VersionChoice(self.versions[0].revision_id, "earliest_before_store")
        return VersionChoice(before[-1].revision_id, basis)

    def choose(self, judgment: Judgment, rule: DateRule = "judgment") -> VersionChoice:
        """The version ``judgment`` is judged under, by the judgment date or (``offence``)
        PRC art. 12."""
        judged = self.at(judgment.judgment_date)
        if rule == "judgment":
            return judged
        if judgment.offence_date is None:
            if judged.basis == "judgment_date":
                return VersionChoice(judged.revision_id, "judgment_date_no_offence_date")
            return judged
        done = self.at(judgment.offence_date, "offence_date")
        if done.revision_id == judged.revision_id or done.basis != "offence_date":
            return done
        if lighter(self.profile(judged.revision_id), self.profile(done.revision_id),
                   judgment.charges):
            return VersionChoice(judged.revision_id, "lighter_later_law")
        return done
