"""Metrics: hand-computed tables, cross-checked against scikit-learn when installed."""

from __future__ import annotations

import random

import pytest

from buildds.evaluate.metrics import (
    acc_within,
    accuracy,
    binary_counts,
    binary_prf,
    bootstrap_binary,
    bootstrap_ci,
    faithfulness,
    macro_prf,
    micro_multilabel,
)

T, F = True, False

# gold, pred, (tp, fp, fn, tn), precision, recall, f1, accuracy
BINARY_CASES = [
    # tp=2 fp=1 fn=1 tn=1: P=2/3 R=2/3 F1=2/3 acc=3/5
    ([T, T, T, F, F], [T, T, F, T, F], (2, 1, 1, 1), 2 / 3, 2 / 3, 2 / 3, 3 / 5),
    # all correct
    ([T, F, T, F], [T, F, T, F], (2, 0, 0, 2), 1.0, 1.0, 1.0, 1.0),
    # never predicts positive (the "majority False" baseline): P=R=F1=0
    ([T, F, F, F], [F, F, F, F], (0, 0, 1, 3), 0.0, 0.0, 0.0, 3 / 4),
    # always positive: tp=1 fp=3: P=1/4 R=1 F1=2*(1/4)/(5/4)=2/5
    ([T, F, F, F], [T, T, T, T], (1, 3, 0, 0), 0.25, 1.0, 0.4, 0.25),
    # no gold positives, one false positive
    ([F, F], [T, F], (0, 1, 0, 1), 0.0, 0.0, 0.0, 0.5),
    # tp=1 fp=0 fn=2: P=1 R=1/3 F1=0.5
    ([T, T, T], [T, F, F], (1, 0, 2, 0), 1.0, 1 / 3, 0.5, 1 / 3),
    # empty
    ([], [], (0, 0, 0, 0), 0.0, 0.0, 0.0, 0.0),
]


@pytest.mark.parametrize("gold,pred,counts,p,r,f1,acc", BINARY_CASES)
def test_binary(gold, pred, counts, p, r, f1, acc):
    c = binary_counts(gold, pred)
    assert (c.tp, c.fp, c.fn, c.tn) == counts
    prf = binary_prf(gold, pred)
    assert prf.precision == pytest.approx(p)
    assert prf.recall == pytest.approx(r)
    assert prf.f1 == pytest.approx(f1)
    assert accuracy(gold, pred) == pytest.approx(acc)


@pytest.mark.parametrize("gold,pred,counts,p,r,f1,acc", BINARY_CASES[:-1])
def test_binary_matches_sklearn(gold, pred, counts, p, r, f1, acc):
    skm = pytest.importorskip("sklearn.metrics")
    assert binary_prf(gold, pred).f1 == pytest.approx(
        skm.f1_score(gold, pred, pos_label=True, zero_division=0))
    assert binary_prf(gold, pred).precision == pytest.approx(
        skm.precision_score(gold, pred, pos_label=True, zero_division=0))
    assert binary_prf(gold, pred).recall == pytest.approx(
        skm.recall_score(gold, pred, pos_label=True, zero_division=0))
    assert accuracy(gold, pred) == pytest.approx(skm.accuracy_score(gold, pred))


def test_length_mismatch():
    with pytest.raises(ValueError):
        binary_prf([T], [T, F])


@pytest.mark.parametrize("flags,expected", [([T, T, F, T], 0.75), ([], 0.0), ([F], 0.0),
                                            ([T], 1.0)])
def test_faithfulness(flags, expected):
    assert faithfulness(flags) == expected


MACRO_GOLD = ["a", "a", "b", "b", "c"]
MACRO_PRED = ["a", "b", "b", "c", "c"]


def test_macro_prf():
    prf = macro_prf(MACRO_GOLD, MACRO_PRED)
    # a: tp=1 fp=0 fn=1 -> P=1 R=.5 F=2/3
    # b: tp=1 fp=1 fn=1 -> P=.5 R=.5 F=.5
    # c: tp=1 fp=1 fn=0 -> P=.5 R=1 F=2/3
    assert prf.precision == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert prf.recall == pytest.approx((0.5 + 0.5 + 1) / 3)
    assert prf.f1 == pytest.approx((2 / 3 + 0.5 + 2 / 3) / 3)
    assert macro_prf([], []).f1 == 0.0


def test_macro_matches_sklearn():
    skm = pytest.importorskip("sklearn.metrics")
    rng = random.Random(7)
    gold = [rng.choice("abcd") for _ in range(200)]
    pred = [rng.choice("abce") for _ in range(200)]
    labels = sorted(set(gold) | set(pred))
    prf = macro_prf(gold, pred, labels)
    p, r, f, _ = skm.precision_recall_fscore_support(gold, pred, labels=labels, average="macro",
                                                     zero_division=0)
    assert (prf.precision, prf.recall, prf.f1) == pytest.approx((p, r, f))


def test_micro_multilabel_with_hallucinations():
    inventory = ["x", "y", "z"]
    gold = [{"x"}, {"x", "y"}, set()]
    pred = [{"x", "q"}, {"y"}, {"z", "w"}]
    # tp: x, y = 2; fp: q, z, w = 3; fn: x = 1; hallucinations: q, w
    s = micro_multilabel(gold, pred, inventory)
    assert (s.tp, s.fp, s.fn, s.hallucinations) == (2, 3, 1, 2)
    assert s.precision == pytest.approx(2 / 5)
    assert s.recall == pytest.approx(2 / 3)
    assert s.f1 == pytest.approx(2 * (2 / 5) * (2 / 3) / (2 / 5 + 2 / 3))


def test_micro_matches_sklearn():
    pytest.importorskip("sklearn")
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    inventory = ["a", "b", "c", "d"]
    rng = random.Random(3)
    gold = [set(rng.sample(inventory, rng.randint(0, 3))) for _ in range(60)]
    pred = [set(rng.sample(inventory, rng.randint(0, 3))) for _ in range(60)]
    mlb = MultiLabelBinarizer(classes=inventory)
    p, r, f, _ = precision_recall_fscore_support(mlb.fit_transform(gold), mlb.transform(pred),
                                                 average="micro", zero_division=0)
    s = micro_multilabel(gold, pred, inventory)
    assert (s.precision, s.recall, s.f1) == pytest.approx((p, r, f))
    assert s.hallucinations == 0


@pytest.mark.parametrize("gold,pred,expected", [
    ([100, 100, 100, 100], [110, 90, 111, 89], 0.5),   # ±10% inclusive
    ([0, 0], [0, 0.001], 0.5),                          # gold 0 needs exactly 0
    ([-50], [-45], 1.0),                                # relative to |gold|
    ([10, 10], [None, 10], 0.5),                        # missing prediction is wrong
    ([], [], 0.0),
])
def test_acc_within(gold, pred, expected):
    assert acc_within(gold, pred) == pytest.approx(expected)


def test_bootstrap_is_seeded_and_brackets_the_estimate():
    rng = random.Random(1)
    gold = [rng.random() < 0.5 for _ in range(300)]
    pred = [g if rng.random() < 0.7 else not g for g in gold]
    a = bootstrap_binary(gold, pred, seed=0)
    b = bootstrap_binary(gold, pred, seed=0)
    c = bootstrap_binary(gold, pred, seed=1)
    assert a == b and a != c
    f1 = binary_prf(gold, pred).f1
    lo, hi = a["f1"]
    assert lo < f1 < hi and hi - lo < 0.2
    lo, hi = a["accuracy"]
    assert lo < accuracy(gold, pred) < hi


def test_bootstrap_vectorised_equals_generic():
    rng = random.Random(2)
    gold = [rng.random() < 0.5 for _ in range(80)]
    pred = [rng.random() < 0.5 for _ in range(80)]
    fast = bootstrap_binary(gold, pred, n_resamples=200, seed=5)
    slow_f1 = bootstrap_ci(lambda g, p: binary_prf(g, p).f1, gold, pred, n_resamples=200, seed=5)
    slow_acc = bootstrap_ci(accuracy, gold, pred, n_resamples=200, seed=5)
    assert fast["f1"] == pytest.approx(slow_f1)
    assert fast["accuracy"] == pytest.approx(slow_acc)


def test_bootstrap_constant_and_empty():
    assert bootstrap_ci(accuracy, [T] * 10, [T] * 10) == (1.0, 1.0)
    assert bootstrap_ci(accuracy, [], []) == (0.0, 0.0)
    assert bootstrap_binary([], [])["f1"] == (0.0, 0.0)
