"""The shortcut audit's text-only classifier on synthetic judgment parts: a surface cue is
found, a cue-free set stays near chance, two runs give the same figures."""

from __future__ import annotations

import random

from buildds.validate.shortcut_classifier import MIN_CLASS_ROWS, cross_validate

CHARGES = ("盗窃", "诈骗", "故意伤害", "危险驾驶", "寻衅滋事", "贩卖毒品", "开设赌场", "抢劫")
NUMS = "一二三四五六七八九"
NAMES = "王李张刘陈杨赵黄周吴"


def _judgment(rng: random.Random) -> str:
    return (f"判决如下： 被告人{rng.choice(NAMES)}某犯{rng.choice(CHARGES)}罪，判处有期徒刑"
            f"{rng.choice(NUMS)}年{rng.choice(NUMS)}个月，并处罚金人民币{rng.choice(NUMS)}千元。")


def _set(n: int, *, cue: bool, seed: int = 1) -> tuple[list[str], list[int], list[str]]:
    rng = random.Random(seed)
    texts, labels = [], []
    for i in range(n):
        label = i % 3 != 0  # 2:1 injected : untouched, as a build has
        text = _judgment(rng)
        if cue and label:  # the injected rows keep a stale note
            text += "（即自2016年11月7日起至2018年7月6日止）"
        elif cue:
            text += "（刑期从判决执行之日起计算）"
        texts.append(text)
        labels.append(int(label))
    return texts, labels, [f"case{i}" for i in range(n)]


def test_a_surface_cue_is_found() -> None:
    figures = cross_validate("all", *_set(300, cue=True))
    assert figures.scored and figures.balanced_accuracy > 0.95
    assert figures.accuracy > figures.chance + 0.2
    assert figures.ci_low > 0.9 and len(figures.folds) == 5


def test_a_cue_free_set_stays_near_chance() -> None:
    figures = cross_validate("all", *_set(300, cue=False))
    assert figures.scored and abs(figures.balanced_accuracy - 0.5) < 0.1
    assert figures.ci_low < 0.5 < figures.ci_high or abs(figures.lift) < 0.1
    assert round(figures.chance, 2) == 0.67


def test_same_rows_same_figures() -> None:
    data = _set(200, cue=False, seed=7)
    assert cross_validate("E3", *data, seed=3) == cross_validate("E3", *data, seed=3)


def test_versions_of_one_judgment_stay_in_one_fold() -> None:
    """Twin rows (same text, opposite labels) of one source: with grouped folds the
    classifier cannot learn the judgment, so it is at chance, not below or above."""
    rng = random.Random(5)
    texts = [_judgment(rng) for _ in range(120)]
    figures = cross_validate("all", texts + texts, [1] * 120 + [0] * 120,
                             [f"c{i}" for i in range(120)] * 2)
    assert figures.balanced_accuracy == 0.5


def test_too_few_rows_are_not_scored() -> None:
    texts, labels, groups = _set(MIN_CLASS_ROWS * 2, cue=True)
    figures = cross_validate("E5", texts, labels, groups)
    assert not figures.scored and figures.lift == 0.0 and "not scored" in figures.note
