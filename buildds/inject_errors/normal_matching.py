"""Untouched rows matched to each error type's injected rows on what a surface reader sees
(issue 13): the comparison population of the shortcut audit, and the dataset's normal rows.

What the detectors read before (measured on the real corpora, seed 0, against the untouched
versions of the type's own judgments; see the README's AR-Bench section): for E4 the held-out numeric detector leans on the **term** (permutation importance
0.50 of balanced accuracy; median 36 months injected vs 14 untouched) and the text classifier
on its numerals (徒刑二年 / 十年 toward injected, 徒刑一年 / 六个月 toward untouched, the end
year of the 刑期 note); for E6 on the **fine's magnitude** (log fine 0.38; median 10,000 vs
3,000 yuan: 万元 toward injected, 一千元 / 二千元 toward untouched). E4 moves the term to
[0.9·max, max] of the tier (the paper's band) and E6 the fine just outside the multiple, so
the injected values are lawful-looking numbers of the *upper* part of the range, while the
untouched versions of the same judgments (mitigated, fined about the base) sit low: a cue
made by the choice of the comparison rows, not by the text.

So the untouched rows are drawn per error type to match the type's injected rows on the
values and style the judgment part shows — :func:`match_bins`: the corpus (each court corpus
writes its own style), the first charge, the penalty kind (with 缓刑 and several charges
marked), the term bin (:data:`TERM_EDGES`: the tier limits 6 / 12 / 24 / 36 / 60 / 84 / 120 /
180 months and 0.9 × each, so E4's band [0.9·max, max] is a bin of its own) and the fine's
half-decade — from every judgment with a judgment part, each judgment at most once
(:func:`select_matched`):

* a type's quota is ``share ×`` its injected rows, split over its bins by their rows
  (largest remainder, ties by a seeded hash: :func:`quota`), so small bins are not all
  rounded away and the type's total is exact;
* within a bin the candidates are taken by a rank from a hash of the seed and the judgment id
  (:func:`rank`), never by order, and handed to the types in rank order, each time to the
  type with the largest share of its quota still open (ties by type name);
* what a bin cannot supply moves to the coarser bin (:data:`LEVELS`: the charge, then its
  刑法 chapter, then none — corpus, kind, term and fine are always matched); what the
  coarsest cannot supply is a **shortfall**, reported per type (``report.json``
  ``normal_matching``, report.md), never filled with unmatched rows;
* and the type's injected rows in a coarsest bin that fell short are cut to ``⌊matched /
  share⌋`` (:func:`unmatched_rows`; the build leaves them out with ``no_matched_untouched_row``):
  a bin holding injected rows and too few untouched ones is what a detector reads — E4's
  tier-top terms are rare in real judgments (the corpus has ~46 judgments at 33–36 months
  for E4's 122 rows there), so E4 loses about half its rows on the real corpora; this is
  the price of a comparison a surface reader cannot tell apart.

The selection reads the candidates once, into a :class:`~buildds.inject_errors.
normal_matching_store.MatchStore` (SQLite: in memory for a whole-corpus run, a scratch file
for a sharded one), and asks it per bin and level for the quota's best-ranked candidates not
chosen yet; the choices and the injected rows left out are kept there too, so a sharded run
holds none of them in memory (issue 18). The whole-corpus run passes its judgments'
candidates, a sharded run streams the candidate files its shards wrote
(:mod:`buildds.jobs.judgments_matched_normals`) — the same function, so both give the same
rows.
"""

from __future__ import annotations

import bisect
import hashlib
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buildds.inject_errors.normal_matching_store import MatchStore
    from buildds.schema.judgments import InjectedJudgment, Judgment
    from buildds.schema.statutes import StatuteProfile

__all__ = ["CHAPTERS", "LEVELS", "TERM_EDGES", "Candidate", "Matching", "candidates_of",
           "chapter_of", "injected_bins", "match_bins", "match_judgments", "matched_rationale",
           "quota", "rank", "select_matched", "unmatched_rows"]

#: the bins from finest to coarsest (each a ``|``-joined key; see :func:`match_bins`); the
#: chapter is the 刑法 chapter (分则 第X章) of the charge's article (:data:`CHAPTERS`)
LEVELS = ("corpus·charge·kind·term·fine", "corpus·chapter·kind·term·fine",
          "corpus·kind·term·fine")
#: the first article of each chapter of the Special Part of the PRC Criminal Law (章 1–10)
CHAPTERS = (102, 114, 140, 232, 263, 277, 368, 382, 397, 420)
#: term bins are (previous edge, edge] in months; beyond the last: one bin
#: — the limits of the tiers (6 拘役, 12, 24, 36, 60, 84, 120, 180 months) and 0.9 × each
#: (E4's band is [0.9·max, max]: the top of a tier is a bin of its own), with steps between
TERM_EDGES = (0, 1, 2, 3, 5, 6, 9, 10, 12, 18, 21, 24, 30, 32, 36, 48, 54, 60, 72, 75, 84,
              96, 108, 120, 150, 162, 180, 240)

#: the bins of one judgment part, finest first (one per level)
Bins = tuple[str, ...]


@dataclass(frozen=True, order=True)
class Candidate:
    """A judgment that can be an untouched row: its rank (the order it is taken in within a
    bin), its id and its bins."""

    rank: str
    id: str
    bins: Bins


@dataclass
class Matching:
    """The selection: ``chosen`` id → (error type, level index); per type its quota, the
    rows drawn at each level and the shortfall."""

    chosen: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    quota: dict[str, int] = field(default_factory=dict)
    drawn: dict[str, list[int]] = field(default_factory=dict)
    shortfall: dict[str, int] = field(default_factory=dict)
    #: (error type, coarsest bin) → (quota, shortfall) where the bin fell short
    short_bins: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    #: injected rows left out per type (:func:`unmatched_rows`)
    left_out: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """``report.json`` ``normal_matching``."""
        return {"levels": list(LEVELS), "term_edges_months": list(TERM_EDGES),
                "by_type": {t: {"quota": self.quota[t], "drawn": sum(self.drawn[t]),
                                "by_level": dict(zip(LEVELS, self.drawn[t], strict=True)),
                                "shortfall": self.shortfall[t],
                                "injected_left_out": self.left_out.get(t, 0)}
                            for t in sorted(self.quota)}}

    def to_markdown(self) -> str:
        """The report.md section: per type its quota, the rows drawn per level, shortfall."""
        about = ("Each error type is compared with untouched rows drawn to match its injected "
                 "rows on corpus, charge, penalty kind, term bin and fine magnitude (the "
                 "charge first, then its 刑法 chapter, then none; each judgment at most "
                 "once). A shortfall is quota the corpus could not supply at the coarsest bin "
                 "(corpus · kind · term · fine); it is not filled: the type's injected rows "
                 "of that bin beyond share × its untouched rows are left out "
                 "(`no_matched_untouched_row` in rejects.jsonl), so no bin holds injected "
                 "rows a reader could tell by their values alone.")
        lines = ["## Untouched rows matched per error type", "", about, "",
                 "| error | quota | " + " | ".join(LEVELS) + " | shortfall | injected left out |",
                 "|---|---:|" + "---:|" * len(LEVELS) + "---:|---:|"]
        for t in sorted(self.quota):
            lines.append(f"| {t} | {self.quota[t]} | "
                         + " | ".join(str(n) for n in self.drawn[t])
                         + f" | {self.shortfall[t]} | {self.left_out.get(t, 0)} |")
        return "\n".join(lines)


def _term_bin(months: int | None) -> str:
    if months is None:
        return "-"
    i = bisect.bisect_left(TERM_EDGES, months)
    return f"≤{TERM_EDGES[i]}" if i < len(TERM_EDGES) else f">{TERM_EDGES[-1]}"


def _fine_bin(fine: int | None) -> str:
    return f"e{math.floor(2 * math.log10(fine)) / 2:g}" if fine else "-"


def chapter_of(profile: StatuteProfile | None) -> Callable[[str], str]:
    """Charge name → the chapter of its article (``章5``; ``-``: unknown charge or no
    profile); memoised."""
    from buildds.inject_errors.statutes import resolve_charge

    memo: dict[str, str] = {}

    def chapter(charge: str) -> str:
        if charge not in memo:
            memo[charge] = "-"
            for name in (charge.removesuffix("罪"), charge):
                try:
                    article = resolve_charge(profile, name).article  # type: ignore[arg-type]
                except (KeyError, AttributeError):
                    continue
                memo[charge] = f"章{bisect.bisect_right(CHAPTERS, article)}"
                break
        return memo[charge]

    return chapter


def match_bins(text: str, chapter: Callable[[str], str] = lambda _: "-", corpus: str = "-"
               ) -> Bins:
    """The bins of a judgment part, finest first (:data:`LEVELS`), read by the parsers the
    build and the audit's detectors use; ``chapter``: :func:`chapter_of` a profile;
    ``corpus``: the judgment's dataset (each court corpus writes its own style: JuDGE's
    张某 vs LeCaRD's full names, its date notes)."""
    from buildds.extract.judgments import parse_charges, parse_sentence

    s = parse_sentence(text)
    charges = list(dict.fromkeys(c.name for c in parse_charges(text)))
    charge = charges[0] if charges else "-"
    kind = ((s.kind or "-") + ("+缓刑" if s.probation_months else "")
            + ("+数罪" if len(charges) > 1 else ""))
    value = f"{kind}|{_term_bin(s.months)}|{_fine_bin(s.fine_yuan)}"
    return (f"{corpus}|{charge}|{value}",
            f"{corpus}|{chapter(charge) if charge != '-' else '-'}|{value}", f"{corpus}|{value}")


def rank(seed: int, source_id: str) -> str:
    """The judgment's place within a bin: a hash of the seed and its id."""
    return hashlib.sha256(f"{seed}:normal:{source_id}".encode()).hexdigest()


def quota(counts: Mapping[str, int], share: float, seed: int, etype: str) -> dict[str, int]:
    """One type's quota per bin from its injected rows per bin: ``share ×`` the type's rows
    in all (half rounded up) split by largest remainder — every bin its whole part, the
    units left to the bins with the largest fractions, ties by a hash of the seed, type and
    bin (so the type's total is exact and no bin is favoured by its name)."""
    total = math.floor(share * sum(counts.values()) + 0.5)
    parts = {k: share * n for k, n in counts.items()}
    out = {k: math.floor(v) for k, v in parts.items()}
    order = sorted(parts, key=lambda k: (-(parts[k] - out[k]), hashlib.sha256(
        f"{seed}:quota:{etype}:{k}".encode()).hexdigest()))
    for k in order[:max(0, total - sum(out.values()))]:
        out[k] += 1
    return out


def _hand_out(picked: list[tuple[str, str]], demand: Mapping[str, int]) -> dict[str, list[str]]:
    """The picked candidates ((rank, id) in rank order), each to the type with the largest
    share of its demand still open (ties by type name)."""
    got: dict[str, list[str]] = {t: [] for t in demand}
    for _, cid in picked:
        open_ = [(len(got[t]) / d, t) for t, d in demand.items() if len(got[t]) < d]
        if not open_:
            break
        got[min(open_)[1]].append(cid)
    return got


# long: the quotas, then one round of picks per level with what falls short carried up
def select_matched(candidates: Callable[[], Iterable[Candidate]],
                   injected: Iterable[tuple[str, Bins]], *, share: float, seed: int,
                   store: MatchStore | None = None) -> Matching:
    """The untouched rows of every error type (see the module docstring): ``candidates()``
    gives every candidate (read once, into ``store``), ``injected`` the (error type, bins)
    of every injected row. ``store``: where the candidates and the choices are kept (a
    sharded run's file; ``matching.chosen`` is then its view); None: in memory, and
    ``matching.chosen`` a dict."""
    from buildds.inject_errors.normal_matching_store import MatchStore

    own = store is None
    db = MatchStore(len(LEVELS)) if store is None else store
    counts: dict[str, Counter[str]] = defaultdict(Counter)  # type → bin → injected rows
    parent: list[dict[str, str]] = [{} for _ in LEVELS]  # each bin's coarser bin
    for etype, bins in injected:
        counts[etype][bins[0]] += 1
        for level in range(len(LEVELS) - 1):
            parent[level][bins[level]] = bins[level + 1]
        parent[-1][bins[0]] = bins[-1]  # the finest bin's coarsest
    demand: dict[str, Counter[str]] = defaultdict(Counter)  # bin → type → rows wanted
    coarse: Counter[tuple[str, str]] = Counter()  # (type, coarsest bin) → quota
    result = Matching()
    for etype in sorted(counts):
        quotas = quota(counts[etype], share, seed, etype)
        result.quota[etype], result.drawn[etype] = sum(quotas.values()), [0] * len(LEVELS)
        for key, q in quotas.items():
            if q:
                demand[key][etype] += q
                coarse[(etype, parent[-1][key])] += q
    db.add_candidates((c.rank, c.id, c.bins) for c in candidates())
    for level in range(len(LEVELS)):
        coarser: dict[str, Counter[str]] = defaultdict(Counter)
        for key in sorted(demand):  # a candidate is in one bin per level: bins apart
            got = _hand_out(db.best(level, key, sum(demand[key].values())), demand[key])
            for etype, wanted in demand[key].items():
                db.choose(got[etype], etype, level)
                result.drawn[etype][level] += len(got[etype])
                if wanted > len(got[etype]) and level + 1 < len(LEVELS):
                    coarser[parent[level][key]][etype] += wanted - len(got[etype])
                elif wanted > len(got[etype]):
                    result.shortfall[etype] = (result.shortfall.get(etype, 0)
                                               + wanted - len(got[etype]))
                    result.short_bins[(etype, key)] = (coarse[(etype, key)],
                                                       wanted - len(got[etype]))
        demand = coarser
    for etype in result.quota:
        result.shortfall.setdefault(etype, 0)
    result.shortfall = dict(sorted(result.shortfall.items()))
    result.chosen = dict(db.chosen.items()) if own else db.chosen
    if own:
        db.close()
    return result


def candidates_of(judgments: Iterable[Judgment], seed: int,
                  profile: StatuteProfile | None = None) -> list[Candidate]:
    """Every judgment with a judgment part as a candidate untouched row."""
    chapter = chapter_of(profile)
    return [Candidate(rank(seed, j.id), j.id, match_bins(j.judgment, chapter, j.dataset))
            for j in judgments if j.judgment.strip()]


def injected_bins(injected: Iterable[InjectedJudgment], profile: StatuteProfile | None = None
                  ) -> list[tuple[str, str, Bins]]:
    """(row id, error type, bins of the injected judgment part) of every injected row."""
    chapter = chapter_of(profile)
    return [(r.id, str(r.error_type), match_bins(r.judgment, chapter, r.original.dataset))
            for r in injected]


def match_judgments(judgments: Iterable[Judgment], injected: Iterable[InjectedJudgment], *,
                    share: float, seed: int, profile: StatuteProfile | None = None
                    ) -> tuple[Matching, list[str]]:
    """:func:`select_matched` and :func:`unmatched_rows` over judgments held in memory (the
    whole-corpus run): the selection and the injected row ids left out."""
    pool, rows = candidates_of(judgments, seed, profile), injected_bins(injected, profile)
    matching = select_matched(lambda: pool, [(t, b) for _, t, b in rows], share=share,
                              seed=seed)
    return matching, list(unmatched_rows(lambda: rows, matching, share=share, seed=seed))


def matched_rationale(etype: str, level: int) -> dict[str, object]:
    """What a matched untouched row records (its ``rationale``): the error type whose
    comparison it was drawn for and the bin it was matched on."""
    return {"matched_for": etype, "matched_on": LEVELS[level]}


def unmatched_rows(injected: Callable[[], Iterable[tuple[str, str, Bins]]],
                   matching: Matching, *, share: float, seed: int,
                   store: MatchStore | None = None) -> Collection[str]:
    """The ids of the injected rows left out where the corpus fell short (``injected()``:
    (row id, error type, bins) of every injected row, read twice): in a coarsest bin whose
    quota ``Q`` got ``Q − s`` untouched rows, a type keeps ``⌊(Q − s) / share⌋`` of its
    ``N`` rows there, those ranked best by a hash of the seed and the row id (the others
    staged in ``store``). ``matching.left_out`` counts them per type. ``store``: a sharded
    run's (the ids are then its view, :attr:`MatchStore.left`); None: in memory, and a
    sorted list."""
    from buildds.inject_errors.normal_matching_store import MatchStore

    counts: Counter[tuple[str, str]] = Counter((t, b[-1]) for _, t, b in injected())
    drop = {key: n - min(n, math.floor((q - short) / share + 1e-9))
            for key, n in counts.items() if key in matching.short_bins
            for q, short in [matching.short_bins[key]]}
    db = MatchStore(len(LEVELS)) if store is None else store
    db.stage((etype, bins[-1],
              hashlib.sha256(f"{seed}:unmatched:{row_id}".encode()).hexdigest(), row_id)
             for row_id, etype, bins in injected() if drop.get((etype, bins[-1]), 0))
    for (etype, key), n in sorted(drop.items()):
        if n:
            db.leave_out(etype, key, n)
    matching.left_out = db.left.per_type()
    if store is not None:
        return db.left
    out = list(db.left)
    db.close()
    return out
