"""``buildds judgments --law-store``: each judgment judged under the PRC version in force.

:func:`plan_versions` chooses every judgment's version
(:meth:`buildds.inject_errors.statutes.VersionedProfiles.choose`: the judgment date, or
``--law-date offence`` for PRC art. 12); :func:`inject_by_version` injects each group of
judgments against its version's profile (the E1 donors stay all judgments) and records
``statute_version`` (the revision id) and ``statute_version_basis`` in every injected row's
rationale; :func:`rows_by_version` makes the rows with the article texts of each version;
:meth:`VersionPlan.jsonl` lists the choice per judgment (``statute_versions.jsonl``).

The version is carried in the rationale (exported as JSON text), not in a new column: the
AR-Bench columns stay those of the default build, and a build without ``--law-store`` is
unchanged.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buildds.inject_errors.statutes import VersionChoice, VersionedProfiles
    from buildds.schema.arbench import ArbenchRow
    from buildds.schema.judgments import InjectedJudgment, InjectionSkip, Judgment
    from buildds.schema.statutes import StatuteProfile

__all__ = ["VersionPlan", "inject_by_version", "plan_versions", "rows_by_version"]


@dataclass
class VersionPlan:
    """The versions of the store and the one each judgment (by id) is judged under."""

    versions: VersionedProfiles
    rule: str
    chosen: dict[str, VersionChoice]

    def groups(self, judgments: Sequence[Judgment]) -> dict[str, list[Judgment]]:
        """Judgments per revision id (oldest version first), in input order."""
        order = [v.revision_id for v in self.versions.versions]
        out: dict[str, list[Judgment]] = {r: [] for r in order}
        for j in judgments:
            out[self.chosen[j.id].revision_id].append(j)
        return {r: js for r, js in out.items() if js}

    def profiles(self) -> dict[str, StatuteProfile]:
        """The profile of every version some judgment is judged under."""
        used = sorted({c.revision_id for c in self.chosen.values()})
        return {r: self.versions.profile(r) for r in used}

    def latest(self) -> StatuteProfile:
        return self.versions.profile(self.versions.versions[-1].revision_id)

    def counts(self) -> dict[str, dict[str, int]]:
        """Judgments per revision id and basis."""
        out: dict[str, Counter[str]] = {}
        for c in self.chosen.values():
            out.setdefault(c.revision_id, Counter())[c.basis] += 1
        return {r: dict(sorted(n.items())) for r, n in sorted(out.items())}

    def jsonl(self, judgments: Sequence[Judgment]) -> str:
        """One line per judgment: id, dates, the version and its basis."""
        lines = []
        for j in judgments:
            c = self.chosen[j.id]
            lines.append(json.dumps({
                "id": j.id, "judgment_date": j.judgment_date and j.judgment_date.isoformat(),
                "offence_date": j.offence_date and j.offence_date.isoformat(),
                "statute_version": c.revision_id, "statute_version_basis": c.basis,
                "date_rule": self.rule}, ensure_ascii=False, sort_keys=True))
        return "".join(line + "\n" for line in lines)


def plan_versions(judgments: Sequence[Judgment], *, store: Path, law_dir: Path,
                  confusable: Path, rule: str) -> VersionPlan:
    """Every judgment's version in the law store ``store``."""
    from buildds.inject_errors.statutes import VersionedProfiles

    versions = VersionedProfiles(store, law_dir, confusable)
    chosen = {j.id: versions.choose(j, "offence" if rule == "offence" else "judgment")
              for j in judgments}
    return VersionPlan(versions=versions, rule=rule, chosen=chosen)


def inject_by_version(plan: VersionPlan, judgments: Sequence[Judgment], *,
                      errors: Sequence[str], seed: int
                      ) -> tuple[list[InjectedJudgment], list[InjectionSkip]]:
    """Every injection against the judgment's version (in input order, as
    :func:`~buildds.inject_errors.inject_all` gives them), its rationale naming the version."""
    from buildds.inject_errors import inject_all

    index = {j.id: i for i, j in enumerate(judgments)}
    done: list[InjectedJudgment] = []
    skipped: list[InjectionSkip] = []
    for revision, group in plan.groups(judgments).items():
        d, s = inject_all(group, errors=list(errors), profile=plan.versions.profile(revision),
                          seed=seed, corpus=list(judgments))
        done += [r.model_copy(update={"rationale": {
            **r.rationale, "statute_version": revision,
            "statute_version_basis": plan.chosen[r.source_id].basis}}) for r in d]
        skipped += s
    etype = {e: i for i, e in enumerate(errors)}
    done.sort(key=lambda r: (index[r.source_id], etype[r.error_type]))
    skipped.sort(key=lambda s: (index[s.source_id], etype[s.error_type]))
    return done, skipped


def rows_by_version(plan: VersionPlan, judgments: Sequence[Judgment],
                    done: Sequence[InjectedJudgment], *, seed: int,
                    normals: Mapping[str, tuple[str, int]]) -> list[ArbenchRow]:
    """The AR-Bench rows of each version's judgments, with that version's article texts;
    ``normals``: the untouched rows matched over the whole corpus."""
    from buildds.inject_errors.arbench_rows import arbench_rows, article_texts

    rows: list[Any] = []
    for revision, group in plan.groups(judgments).items():
        ids = {j.id for j in group}
        rows += arbench_rows(group, [r for r in done if r.source_id in ids],
                             texts=article_texts(plan.versions.text(revision)),
                             profile=plan.versions.profile(revision), seed=seed,
                             normals={i: normals[i] for i in ids if i in normals})
    return sorted(rows, key=lambda r: r.id)
