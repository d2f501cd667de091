"""The matching kept in SQLite (issue 18) picks what the in-memory heaps picked: the same
untouched rows and the same injected rows left out, for random pools (a reference
implementation of the heaps below), and a file store's views answer as dicts would."""

from __future__ import annotations

import hashlib
import heapq
import math
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from buildds.inject_errors.normal_matching import (
    LEVELS,
    Candidate,
    quota,
    rank,
    select_matched,
    unmatched_rows,
)
from buildds.inject_errors.normal_matching_store import MatchStore


def _keep_largest(heap: list, item: object, n: int) -> None:
    if len(heap) < n:
        heapq.heappush(heap, item)
    elif item > heap[0]:
        heapq.heapreplace(heap, item)


def _reference(pool: list[Candidate], injected: list[tuple[str, tuple[str, ...]]],
               share: float, seed: int) -> tuple[dict, dict, dict]:
    """The selection as bounded heaps over the candidates, one pass per level."""
    counts: dict = defaultdict(Counter)
    parent: list[dict] = [{} for _ in LEVELS]
    for etype, bins in injected:
        counts[etype][bins[0]] += 1
        for level in range(len(LEVELS) - 1):
            parent[level][bins[level]] = bins[level + 1]
        parent[-1][bins[0]] = bins[-1]
    demand: dict = defaultdict(Counter)
    chosen: dict = {}
    drawn: dict = {}
    for etype in sorted(counts):
        drawn[etype] = [0] * len(LEVELS)
        for key, q in quota(counts[etype], share, seed, etype).items():
            if q:
                demand[key][etype] += q
    for level in range(len(LEVELS)):
        need = {k: sum(d.values()) for k, d in demand.items()}
        heaps: dict = defaultdict(list)
        for c in pool:
            n = need.get(c.bins[level], 0)
            if n and c.id not in chosen:
                _keep_largest(heaps[c.bins[level]], (-int(c.rank, 16), c.id), n)
        coarser: dict = defaultdict(Counter)
        for key in sorted(demand):
            picked = sorted((-r, i) for r, i in heaps.get(key, []))
            got: dict = {t: [] for t in demand[key]}
            for _, cid in picked:
                open_ = [(len(got[t]) / d, t) for t, d in demand[key].items() if len(got[t]) < d]
                if not open_:
                    break
                got[min(open_)[1]].append(cid)
            for etype, wanted in demand[key].items():
                for cid in got[etype]:
                    chosen[cid] = (etype, level)
                drawn[etype][level] += len(got[etype])
                if wanted > len(got[etype]) and level + 1 < len(LEVELS):
                    coarser[parent[level][key]][etype] += wanted - len(got[etype])
        demand = coarser
    return chosen, drawn, {}


def _random_case(rng: random.Random, seed: int):
    charges, terms = ["盗窃", "诈骗", "抢劫"], ["≤12", "≤36", "≤120"]
    def bins() -> tuple[str, str, str]:
        c, t = rng.choice(charges), rng.choice(terms)
        ch = "章5" if c != "抢劫" else "章4"
        return (f"j|{c}|{t}", f"j|{ch}|{t}", f"j|{t}")
    pool = [Candidate(rank(seed, f"c{i}"), f"c{i}", bins()) for i in range(rng.randrange(5, 80))]
    # a few rank ties (the heap keeps the larger id): the same rank for two ids
    if len(pool) > 3:
        pool[1] = Candidate(pool[0].rank, pool[1].id, pool[1].bins)
    injected = [(rng.choice(["E1", "E3", "E4"]), bins()) for _ in range(rng.randrange(1, 120))]
    return pool, injected


@pytest.mark.parametrize("case", range(40))
def test_the_store_picks_what_the_heaps_picked(case: int) -> None:
    rng = random.Random(case)
    seed = case % 3
    pool, injected = _random_case(rng, seed)
    share = rng.choice([0.5, 1.0, 0.3])
    m = select_matched(lambda: list(pool), injected, share=share, seed=seed)
    chosen, drawn, _ = _reference(pool, injected, share, seed)
    assert m.chosen == chosen and m.drawn == drawn
    # and the injected rows left out: the n largest (hash, id) of each short bin
    rows = [(f"r{i}", t, b) for i, (t, b) in enumerate(injected)]
    out = unmatched_rows(lambda: rows, m, share=share, seed=seed)
    counts = Counter((t, b[-1]) for _, t, b in rows)
    want: list[str] = []
    for key, (q, short) in m.short_bins.items():
        n = counts[key] - min(counts[key], math.floor((q - short) / share + 1e-9))
        ranked = sorted(((hashlib.sha256(f"{seed}:unmatched:{i}".encode()).hexdigest(), i)
                         for i, t, b in rows if (t, b[-1]) == key), reverse=True)
        want += [i for _, i in ranked[:n]]
    assert out == sorted(want)
    assert sum(m.left_out.values()) == len(want)


def test_a_file_store_gives_views_and_is_removed(tmp_path: Path) -> None:
    rng = random.Random(7)
    pool, injected = _random_case(rng, 0)
    in_memory = select_matched(lambda: pool, injected, share=0.5, seed=0)
    path = tmp_path / "scratch" / "match.sqlite"
    store = MatchStore(len(LEVELS), path)
    on_disk = select_matched(lambda: iter(pool), iter(injected), share=0.5, seed=0, store=store)
    assert path.is_file() and not isinstance(on_disk.chosen, dict)
    assert dict(on_disk.chosen) == in_memory.chosen and len(on_disk.chosen) == len(in_memory.chosen)
    some = next(iter(in_memory.chosen))
    assert some in on_disk.chosen and on_disk.chosen[some] == in_memory.chosen[some]
    assert "nobody" not in on_disk.chosen and 3 not in on_disk.chosen
    with pytest.raises(KeyError):
        on_disk.chosen["nobody"]
    rows = [(f"r{i}", t, b) for i, (t, b) in enumerate(injected)]
    left = unmatched_rows(lambda: rows, on_disk, share=0.5, seed=0, store=store)
    assert list(left) == unmatched_rows(lambda: rows, in_memory, share=0.5, seed=0)
    assert all(i in left for i in left) and len(left) == len(list(left))
    store.add_sources((i, f"src-{i}") for i, _, _ in rows if i in left)
    assert [(r, s) for r, s, _ in store.left.rows()] == [(i, f"src-{i}") for i in left]
    store.close()
    assert not path.exists()
    with pytest.raises(ValueError, match="closed"):
        len(on_disk.chosen)


def test_a_new_store_replaces_an_old_file(tmp_path: Path) -> None:
    path = tmp_path / "match.sqlite"
    path.write_bytes(b"not a database")
    store = MatchStore(len(LEVELS), path)
    assert store.add_candidates([("ab" * 32, "x", ("a", "b", "c"))]) == 1
    assert store.best(0, "a", 5) == [("ab" * 32, "x")]
    store.choose(["x"], "E1", 0)
    assert store.best(0, "a", 5) == [] and dict(store.chosen) == {"x": ("E1", 0)}
    store.close()


def test_a_rank_tie_goes_to_the_larger_id_as_in_the_heaps() -> None:
    b = ("j|盗窃|≤36", "j|章5|≤36", "j|≤36")
    pool = [Candidate("0" * 64, "a", b), Candidate("0" * 64, "b", b), Candidate("f" * 64, "c", b)]
    m = select_matched(lambda: pool, [("E1", b)], share=1.0, seed=0)
    assert m.chosen == _reference(pool, [("E1", b)], 1.0, 0)[0] == {"b": ("E1", 0)}
