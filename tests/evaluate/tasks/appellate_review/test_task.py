"""The appellate-review task (seed 003, AR-Bench): parsers, metrics, prompts, and end-to-end
runs on a tiny synthetic export (always) and on the real JuDGE export (needs ../shared)."""

from __future__ import annotations

import inspect
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.errors import BuildError
from buildds.evaluate.metrics import bootstrap_ci
from buildds.evaluate.runner import run_eval
from buildds.evaluate.tasks import get_task
from buildds.evaluate.tasks.appellate_review.metrics import (
    FINE_BINS,
    TERM_BINS,
    bin_label,
    bootstrap_macro,
    classification_block,
    impscore,
    macro_scores,
    numeric_block,
)
from buildds.evaluate.tasks.appellate_review.parse import (
    correction_answer,
    correction_gold,
    parse_charges_answer,
    parse_classification,
    parse_correction,
    parse_detection,
    parse_fine,
    parse_term,
)
from buildds.evaluate.tasks.appellate_review.task import (
    AppellateReviewTask,
    Variant,
    build_items,
    load_rows,
    parse_answer,
    parse_variant,
    render_prompt_for,
)
from buildds.schema.arbench import ArbenchRow
from buildds.schema.evaluation import ChatRequest, ChatResult
from tests.conftest import shared_path

datasets = pytest.importorskip("datasets")
pytest.importorskip("sklearn")


# --------------------------------------------------------------------------- parsers
@pytest.mark.parametrize(("text", "value"), [
    ("是", 1), ("否", 0), (" 是\n", 1), ("否。", 0), ("**是**", 1), ("“否”", 0), ("`是`", 1),
    ("答案：是", 1), ("答：否", 0), ("存在错误", 1), ("不存在错误", 0), ("无错误", 0),
    ("有错误", 1), ("没有错误", 0), ("<think>先看罪名……</think>\n否", 0),
    ("是。因为判决遗漏了自首情节", None), ("是，判决刑期过重", None), ("1", None), ("true", None),
    ("错误", None), ("是否", None), ("", None), ("   ", None), (None, None),
])
def test_parse_detection(text: str | None, value: int | None) -> None:
    assert parse_detection(text).value == value
    assert parse_detection(text).followed == (value is not None)


@pytest.mark.parametrize(("text", "value"), [
    ("罪名", "charge"), ("刑期", "prison_term"), ("罚金", "fine"), ("罪名错误", "charge"),
    ("刑期裁量错误", "prison_term"), ("罚金数额错误。", "fine"), ("答案：刑期", "prison_term"),
    ("**罚金**", "fine"), ("无错误", None), ("罪名和刑期", None), ("charge", None),
    ("刑期。理由：未考虑自首", None), ("", None), (None, None),
])
def test_parse_classification(text: str | None, value: str | None) -> None:
    assert parse_classification(text).value == value


@pytest.mark.parametrize(("text", "value"), [
    ("盗窃罪", ("盗窃",)), ("诈骗罪；强奸罪", ("强奸", "诈骗")), ("强奸罪，诈骗罪", ("强奸", "诈骗")),
    ("强奸罪;诈骗罪。", ("强奸", "诈骗")), ("罪名：伪造国家机关证件、印章罪",
                                      ("伪造国家机关证件、印章",)),
    ("盗窃罪\n盗窃罪", ("盗窃",)), ("盗窃", None), ("盗窃罪。被告人以非法占有为目的", None),
    ("应认定为盗窃罪，理由如下", None), ("", None),
])
def test_parse_charges(text: str, value: tuple[str, ...] | None) -> None:
    assert parse_charges_answer(text).value == value


@pytest.mark.parametrize(("text", "months"), [
    ("42个月", 42), ("三年六个月", 42), ("3年6个月", 42), ("有期徒刑三年六个月", 42),
    ("刑期：42个月", 42), ("一年零六个月", 18), ("十一个月", 11), ("三年", 36), ("拘役五个月", 5),
    ("有期徒刑三年六个月。", 42), ("４２个月", 42), ("42", None), ("三年六个月，并处罚金五千元", None),
    ("应判处有期徒刑三年六个月，因为", None), ("无期徒刑", None), ("", None),
])
def test_parse_term(text: str, months: int | None) -> None:
    assert parse_term(text).value == months
    assert parse_correction("prison_term", text).value == months


@pytest.mark.parametrize(("text", "yuan"), [
    ("5000元", 5000), ("人民币五千元", 5000), ("1.5万元", 15000), ("罚金人民币5,000元", 5000),
    ("人民币3,000元", 3000), ("并处罚金人民币二万元", 20000), ("罚金：10000元", 10000),
    ("5000", None), ("五千", None), ("罚金5000元，刑期三年", None), ("约5000元左右", None),
    ("", None),
])
def test_parse_fine(text: str, yuan: int | None) -> None:
    assert parse_fine(text).value == yuan
    assert parse_correction("fine", text).value == yuan


def test_parse_correction_rejects_unknown_target() -> None:
    with pytest.raises(ValueError):
        parse_correction("death", "死刑")


@pytest.mark.parametrize(("target", "gold", "value", "answer"), [
    ("charge", {"charge": "挪用公款"}, ("挪用公款",), "挪用公款罪"),
    ("charge", {"charge": "强奸", "months": 46}, ("强奸",), "强奸罪"),
    ("charge", {"charges": ["诈骗", "强奸"], "omitted": ["强奸"]}, ("强奸", "诈骗"),
     "强奸罪；诈骗罪"),
    ("prison_term", {"months": 42, "factor": "自首"}, 42, "42个月"),
    ("fine", {"fine_yuan": 20000}, 20000, "20000元"),
    ("fine", {"fine_yuan": None}, None, None),
])
def test_gold_and_reference_answer_round_trip(target: str, gold: dict[str, Any], value: Any,
                                              answer: str | None) -> None:
    assert correction_gold(target, gold) == value
    if answer is not None:
        assert correction_answer(target, value) == answer
        assert parse_correction(target, answer).value == value


# --------------------------------------------------------------------------- metrics
@pytest.mark.parametrize(("gold", "pred", "score"), [
    (12, 12, 1.0),     # v = 0
    (12, 15, 0.8),     # v = ln(16/13) = 0.208
    (12, 18, 0.8),     # v = ln(19/13) = 0.379
    (12, 20, 0.6),     # v = ln(21/13) = 0.480
    (12, 9, 0.8),      # v = ln(13/10) = 0.262
    (12, 25, 0.4),     # v = ln(26/13) = 0.693
    (12, 30, 0.2),     # v = ln(31/13) = 0.869
    (12, 40, 0.0),     # v = ln(41/13) = 1.149
    (0, 0, 1.0), (0, 1, 0.4),  # v = ln 2 = 0.693
    (5000, 5500, 1.0),  # v = 0.095
    (12, None, 0.0), (12, -1, 0.0),
])
def test_impscore(gold: float, pred: float | None, score: float) -> None:
    assert impscore(gold, pred) == score


def test_impscore_boundaries() -> None:
    g = 12
    for v, score in ((0.2, 1.0), (0.4, 0.8), (0.6, 0.6), (0.8, 0.4), (1.0, 0.2)):
        pred = math.exp(math.log(g + 1) + v) - 1
        assert impscore(g, pred) == score
        assert impscore(g, pred + 1e-6) == round(score - 0.2, 1)


@pytest.mark.parametrize(("value", "bins", "label"), [
    (0, TERM_BINS, "0"), (6, TERM_BINS, "1-6"), (7, TERM_BINS, "7-9"), (12, TERM_BINS, "10-12"),
    (42, TERM_BINS, "37-60"), (121, TERM_BINS, ">120"), (None, TERM_BINS, None),
    (1000, FINE_BINS, "<=1k"), (5000, FINE_BINS, "3k-5k"), (5001, FINE_BINS, "5k-10k"),
    (10**6, FINE_BINS, ">500k"),
])
def test_bins(value: float | None, bins: Any, label: str | None) -> None:
    assert bin_label(value, bins) == label


@pytest.mark.parametrize(("gold", "pred", "labels", "expected"), [
    # all right
    ([1, 0, 1], [1, 0, 1], [1, 0], (1.0, 1.0, 1.0, 1.0)),
    # class 1: tp 1 fp 1 fn 1 → P .5 R .5 F .5; class 0: tp 1 fp 1 fn 1 → same
    ([1, 1, 0, 0], [1, 0, 1, 0], [1, 0], (0.5, 0.5, 0.5, 0.5)),
    # an invalid output: class 1 tp 1 fn 1 (P 1, R .5, F 2/3); class 0 tp 1 (P R F 1)
    ([1, 1, 0], [1, None, 0], [1, 0], (2 / 3, 1.0, 0.75, (2 / 3 + 1) / 2)),
    # all invalid: nothing predicted
    (["a", "b"], [None, None], ["a", "b"], (0.0, 0.0, 0.0, 0.0)),
    # open label set: a hallucinated label "x" joins the macro average (as scikit-learn):
    # a P 1 R .5 F 2/3; b P R F 1; x P R F 0
    (["a", "a", "b"], ["a", "x", "b"], None, (2 / 3, 2 / 3, 0.5, (2 / 3 + 1 + 0) / 3)),
])
def test_macro_scores_hand_computed(gold: list[Any], pred: list[Any], labels: list[Any] | None,
                                    expected: tuple[float, float, float, float]) -> None:
    m = macro_scores(gold, pred, labels)
    got = (m["accuracy"], m["macro_precision"], m["macro_recall"], m["macro_f1"])
    assert got == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(6))
def test_macro_scores_match_sklearn(seed: int) -> None:
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    rng = random.Random(seed)
    classes = ["charge", "prison_term", "fine"]
    gold = [rng.choice(classes) for _ in range(40)]
    pred = [rng.choice([*classes, None, "x"] if seed % 2 else [*classes, None])
            for _ in range(40)]
    fixed = classes if seed < 3 else None
    m = macro_scores(gold, pred, fixed)
    labels = fixed or sorted({*gold, *(p for p in pred if p is not None)})
    y_pred = [p if p is not None else "<invalid>" for p in pred]
    p, r, f, _ = precision_recall_fscore_support(gold, y_pred, labels=labels, average="macro",
                                                 zero_division=0)
    assert (m["macro_precision"], m["macro_recall"], m["macro_f1"]) == pytest.approx((p, r, f))
    assert m["accuracy"] == pytest.approx(accuracy_score(gold, y_pred))


@pytest.mark.parametrize("labels", [None, ["a", "b", "c"]])
def test_bootstrap_macro_matches_generic_bootstrap(labels: list[str] | None) -> None:
    rng = random.Random(3)
    gold = [rng.choice("abc") for _ in range(50)]
    pred = [rng.choice(["a", "b", "c", "d", None]) for _ in range(50)]
    fast = bootstrap_macro(gold, pred, labels=labels, n_resamples=200, seed=5)
    for key in ("macro_precision", "macro_recall", "macro_f1"):
        slow = bootstrap_ci(lambda g, p, k=key: macro_scores(g, p, labels)[k], gold, pred,
                            n_resamples=200, seed=5)
        assert fast[key] == pytest.approx(list(slow), abs=1e-6)


def test_classification_block_if_rate_and_followed_only() -> None:
    block = classification_block(["charge", "fine", "fine", "prison_term"],
                                 ["charge", None, "fine", "fine"],
                                 labels=["charge", "prison_term", "fine"])
    assert block["n"] == 4 and block["accuracy"] == 0.5 and block["if_rate"] == 0.75
    assert block["followed_only"]["n"] == 3
    assert block["followed_only"]["accuracy"] == pytest.approx(0.666667)
    assert set(block["ci"]) == {"accuracy", "if_rate", "macro_precision", "macro_recall",
                                "macro_f1"}


def test_numeric_block_hand_values() -> None:
    gold = [42, 12, 100, 8]
    pred = [42, 13, None, 20]  # exact; within 10% (|1| ≤ 1.2); IF failure; far off
    block = numeric_block(gold, pred, TERM_BINS)
    assert block["exact"] == 0.25 and block["acc_at_0_1"] == 0.5
    # ImpScore: 1.0; ln(14/13) = .074 → 1.0; 0; ln(21/9) = .847 → 0.2
    assert block["impscore"] == pytest.approx((1.0 + 1.0 + 0.0 + 0.2) / 4)
    # intervals: 37-60 ✓, 10-12 vs 13-24 ✗, invalid ✗, 7-9 vs 13-24 ✗
    assert block["accuracy"] == 0.25 and block["if_rate"] == 0.75
    assert set(block["ci"]) >= {"impscore", "acc_at_0_1"}


# --------------------------------------------------------------------------- variants/prompts
@pytest.mark.parametrize(("variant", "expected", "name"), [
    (None, Variant("detection", ("S4",)), "appellate-review:detection:s4"),
    ("detection", Variant("detection", ("S4",)), "appellate-review:detection:s4"),
    ("classification:s1", Variant("classification", ("S1",)),
     "appellate-review:classification:s1"),
    ("s3/detection/s1", Variant("detection", ("S1", "S3")), "appellate-review:detection:s1+s3"),
    ("correction:all", Variant("correction", ("S1", "S2", "S3", "S4", "S5")),
     "appellate-review:correction:all"),
    ("correction:term:fine:s2", Variant("correction", ("S2",), ("prison_term", "fine")),
     "appellate-review:correction:s2:prison_term+fine"),
])
def test_parse_variant(variant: str | None, expected: Variant, name: str) -> None:
    assert parse_variant(variant) == expected
    assert parse_variant(variant).name == name


@pytest.mark.parametrize("bad", ["detection:s6", "detection:term", "detection:classification",
                                 "review"])
def test_parse_variant_rejects(bad: str) -> None:
    with pytest.raises(BuildError):
        parse_variant(bad)


def test_get_task_passes_the_variant() -> None:
    task = get_task("appellate-review:Correction:S1")
    assert isinstance(task, AppellateReviewTask)
    assert task.variant == Variant("correction", ("S1",)) and task.baseline_stratum is not None
    assert get_task("appellate_review").name == "appellate-review:detection:s4"
    assert get_task("appellate-review").baseline_stratum is None


@pytest.mark.parametrize(("subtask", "target", "tail"), [
    ("detection", None, "“是”（判决存在错误）或“否”（判决不存在错误）"),
    ("classification", None, "“罪名”、“刑期”或“罚金”"),
    ("correction", "charge", "用“；”分隔"),
    ("correction", "prison_term", "“N个月”"),
    ("correction", "fine", "“N元”"),
])
def test_prompts_render_sandboxed(subtask: str, target: str | None, tail: str) -> None:
    doc = "【案件事实】\n被告人{{ 7 * 7 }}窃取财物。{% raw %}"
    text = render_prompt_for(subtask, doc, target)
    assert doc in text  # a document is data: never evaluated as a template
    assert tail in text and "不要输出任何解释" in text


# --------------------------------------------------------------------------- synthetic export
def _synthetic_rows() -> list[ArbenchRow]:
    from buildds.inject_errors.arbench_rows import arbench_rows
    from buildds.schema.judgments import InjectedJudgment
    from tests.inject_errors.test_injectors import FACTS, PROFILE, make_judgment, run, theft

    terms = ["八个月", "一年", "一年六个月", "二年"]
    # E3 takes only judgments without sentencing factors (j2, j3)
    judgments = [theft(rid=f"j{i}", amount=str(2000 + 37 * i), term=terms[i % 4],
                       **({"factor": "", "extra": ""} if i in (2, 3) else {}))
                 for i in range(8)]
    judgments += [theft(charge="信用卡诈骗", article="一百九十六", fine="，并处罚金人民币五万元",
                        rid=f"c{i}", amount=str(3000 + i)) for i in range(2)]
    judgments.append(make_judgment(  # E6 needs the base its article names (销售金额)
        "经审理查明：被告人张三销售伪劣产品，销售金额共计人民币100000元。",
        "本院认为，被告人张三构成生产、销售伪劣产品罪。依照《中华人民共和国刑法》第一百四十条之规定，",
        "判决如下：被告人张三犯生产、销售伪劣产品罪，判处有期徒刑八个月，并处罚金人民币100000元。", "p0"))
    judgments.append(make_judgment(
        FACTS.format(amount=5000), "本院认为，被告人张三构成盗窃罪、抢夺罪，应数罪并罚。",
        "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑六个月，"
        "决定执行有期徒刑一年。", "m0"))
    by_id = {j.id: j for j in judgments}
    plan = [("E1", "j0"), ("E1", "j1"), ("E3", "j2"), ("E3", "j3"), ("E4", "j4"), ("E4", "j5"),
            ("E5", "c0"), ("E5", "c1"), ("E6", "p0"), ("E2", "m0")]
    injected = [run(et, by_id[rid]) for et, rid in plan]
    assert all(isinstance(x, InjectedJudgment) for x in injected), injected
    # every injected judgment's original is an untouched row (named, not matched: the
    # matching of issue 13 is tested in tests/inject_errors/test_normal_matching.py)
    return arbench_rows(judgments, injected, texts={}, profile=PROFILE, seed=0,  # type: ignore[arg-type]
                        normals={rid: (et, 0) for et, rid in plan})


@pytest.fixture(scope="module")
def synthetic_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 judgments and 10 injections, one of each error type; the 10 injected judgments
    are all kept as normal rows (j6 and j7 carry no injection: never a normal row)."""
    from buildds.export.arbench import export_arbench

    out = tmp_path_factory.mktemp("arbench") / "export"
    export_arbench(_synthetic_rows(), out=out, fingerprint="a" * 32, provenance={}, seed=0)
    return out


def test_items_of_each_subtask(synthetic_export: Path) -> None:
    rows, fp = load_rows(synthetic_export, "detection")
    assert len(rows) == 20 and fp["kind"] == "export" and len(fp["test_sha256"]) == 64
    det, _ = build_items(rows, parse_variant("detection"))
    assert sum(it["gold"] for it in det) == 10 and {it["answer"] for it in det} == {"是", "否"}
    assert det[0]["input"] == rows[0]["input_s4"]
    cls_rows, _ = load_rows(synthetic_export / "dataset", "classification")
    cls, _ = build_items(cls_rows, parse_variant("classification:s1:s5"))
    assert len(cls) == 20 and {it["id"].rsplit("@", 1)[1] for it in cls} == {"S1", "S5"}
    cor_rows, _ = load_rows(synthetic_export, "correction")
    cor, skipped = build_items(cor_rows, parse_variant("correction"))
    assert skipped == {} and len(cor) == 10
    by_type = {it["error_type"]: it for it in cor}
    assert by_type["E2"]["gold"] == ("抢夺", "盗窃") and by_type["E2"]["answer"] == "抢夺罪；盗窃罪"
    assert by_type["E5"]["answer"] == "50000元" and by_type["E6"]["label"] == "fine:50k-100k"
    terms, _ = build_items(cor_rows, parse_variant("correction:term"))
    assert {it["target"] for it in terms} == {"prison_term"} and len(terms) == 4
    for subtask, items in (("detection", det), ("classification", cls), ("correction", cor)):
        for it in items:  # the reference answer parses back to the gold value
            assert parse_answer(it, it["answer"], subtask).value == it["gold"]


def test_run_eval_detection_end_to_end(synthetic_export: Path, tmp_path: Path) -> None:
    models = ["majority", "random:0", "tfidf", "oracle"]
    report = run_eval(synthetic_export, task="appellate-review:detection", models=models,
                      out=tmp_path / "a", use_cache=False)
    metrics = {r.model: r.metrics for r in report.runs}
    oracle = metrics["oracle"]
    for key in ("accuracy", "macro_precision", "macro_recall", "macro_f1", "if_rate"):
        assert oracle[key] == 1.0, key
    assert oracle["confusion_matrix"]["matrix"] == [[10, 0, 0], [0, 10, 0]]
    assert oracle["task"] == "appellate-review:detection:s4" and oracle["n"] == 20
    majority = metrics["majority"]
    assert majority["if_rate"] == 1.0 and majority["backend"]["cross_fit"]["group"] == "source_id"
    assert set(majority["ci"]) >= {"accuracy", "macro_f1", "if_rate"}
    assert all(m["if_rate"] == 1.0 for m in metrics.values())
    run_dir = tmp_path / "a" / "tfidf" / "0shot"
    assert (run_dir / "confusion.png").read_bytes().startswith(b"\x89PNG")
    samples = [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 20 and {s["raw_output"] for s in samples} <= {"是", "否"}
    md = report.leaderboard_md.read_text("utf-8")
    assert "## Error Detection (Table 3 layout)" in md and "| oracle | 20 | 100.00 |" in md
    assert "S4 (case facts + anomalous reasoning + anomalous judgment)" in md
    manifest = json.loads(report.manifest.read_text("utf-8"))
    assert list(manifest["templates"]) == ["appellate_review_detection.md.j2"]
    # deterministic: the same run elsewhere gives the same bytes
    again = run_eval(synthetic_export, task="appellate-review:detection", models=models,
                     out=tmp_path / "b", use_cache=False)
    for name in ("leaderboard.md", "leaderboard.json", "macro_f1.png", "tfidf/0shot/metrics.json",
                 "random_0/0shot/samples.jsonl", "majority/0shot/confusion.png"):
        assert (tmp_path / "a" / name).read_bytes() == (again.out / name).read_bytes(), name


def test_cli_eval_detection(synthetic_export: Path, tmp_path: Path) -> None:
    from buildds.cli import main

    out = tmp_path / "cli"
    result = CliRunner().invoke(main, ["eval", str(synthetic_export), "--task",
                                       "appellate-review:detection", "--model", "majority",
                                       "--model", "tfidf", "--model", "oracle", "--out", str(out),
                                       "-q"])
    assert result.exit_code == 0, result.output
    assert "best macro_f1 1.000 (oracle" in result.output
    board = json.loads((out / "leaderboard.json").read_text("utf-8"))
    assert board["task"] == "appellate-review:detection:s4"
    assert sorted(r["model"] for r in board["runs"]) == ["majority", "oracle", "tfidf"]
    assert next(r for r in board["runs"] if r["model"] == "oracle")["macro_f1"] == 1.0


class ScriptedBackend:
    """Answers each sample id from a script (None: the reference answer)."""

    cacheable = False

    def __init__(self, spec: str, script: dict[str, str], items: dict[str, Any]):
        self.name = spec
        self.script, self.items = script, items

    def settings(self) -> dict[str, Any]:
        return {"backend": "scripted"}

    async def complete(self, request: ChatRequest) -> ChatResult:
        sid = request.sample_id or ""
        return ChatResult(text=self.script.get(sid, self.items[sid]["answer"]))

    async def complete_many(self, requests: list[ChatRequest], on_result: Any = None
                            ) -> list[ChatResult]:
        out = []
        for i, r in enumerate(requests):
            res = await self.complete(r)
            if on_result is not None:
                ret = on_result(i, res)
                if inspect.isawaitable(ret):
                    await ret
            out.append(res)
        return out


def test_correction_scored_per_target(synthetic_export: Path, tmp_path: Path) -> None:
    task = AppellateReviewTask("correction")
    items = task.load(synthetic_export).items_by_id
    ids = {it["error_type"] + it["row_id"][:2]: sid for sid, it in items.items()}
    terms = sorted(sid for sid, it in items.items() if it["target"] == "prison_term")
    golds = [items[s]["gold"] for s in terms]
    script = {
        ids["E1j0"]: "抢劫罪",                      # wrong charge (follows the format)
        ids["E2m0"]: "盗窃罪，抢夺罪",              # right set, other order and separator
        terms[0]: f"{golds[0]}个月。理由：……",       # explanation → IF failure
        terms[1]: f"{golds[1] + 1}个月",             # off by one month
        ids["E5c0"]: "人民币五万元",                 # right, in Chinese numerals
        ids["E5c1"]: "5.5万元",                      # within 10%
        ids["E6p0"]: "1.5万元",                      # far off
    }
    report = run_eval(synthetic_export, task="appellate-review:correction", models=["scripted"],
                      out=tmp_path / "c", use_cache=False,
                      backend_factory=lambda spec, **kw: ScriptedBackend(spec, script, items))
    m = report.runs[0].metrics
    assert m["n"] == 10 and m["if_rate"] == 0.9
    charge, term, fine = (m["per_target"][t] for t in ("charge", "prison_term", "fine"))
    assert (charge["n"], charge["accuracy"], charge["if_rate"]) == (3, pytest.approx(0.666667), 1.0)
    assert term["n"] == 4 and term["if_rate"] == 0.75 and term["exact"] == 0.5
    one_off = impscore(golds[1], golds[1] + 1)
    assert term["impscore"] == pytest.approx((0 + one_off + 1 + 1) / 4, abs=1e-6)
    within = 1 if abs(1) <= 0.1 * golds[1] else 0
    assert term["acc_at_0_1"] == pytest.approx((within + 2) / 4)
    assert fine["n"] == 3 and fine["exact"] == pytest.approx(0.333333)
    assert fine["acc_at_0_1"] == pytest.approx(0.666667)
    # 55000 vs 50000: ln(55001/50001) = .095 → 1.0; 15000 vs 100000: ln(100001/15001) = 1.9 → 0
    assert fine["impscore"] == pytest.approx(0.666667)
    assert m["per_error_type"]["E2"]["accuracy"] == 1.0
    assert m["per_error_type"]["E1"]["accuracy"] == 0.5
    samples = {json.loads(line)["id"]: json.loads(line)
               for line in (report.runs[0].dir / "samples.jsonl").read_text().splitlines()}
    assert samples[ids["E2m0"]]["parsed"] == ["抢夺", "盗窃"] and samples[ids["E2m0"]]["score"] == 1
    assert samples[terms[0]]["parsed"] is None and samples[terms[0]]["score"] == 0
    md = report.leaderboard_md.read_text("utf-8")
    assert "## Correction per target" in md and "Term ImpScore" in md


def test_multi_setting_classification_and_stratified_baselines(synthetic_export: Path,
                                                               tmp_path: Path) -> None:
    report = run_eval(synthetic_export, task="appellate-review:classification:s1:s4",
                      models=["oracle", "majority"], out=tmp_path / "m", use_cache=False)
    oracle = next(r.metrics for r in report.runs if r.model == "oracle")
    assert oracle["n"] == 20 and set(oracle["per_setting"]) == {"S1", "S4"}
    assert oracle["per_setting"]["S1"]["macro_f1"] == 1.0
    md = report.leaderboard_md.read_text("utf-8")
    assert "## Input settings (Table 5 layout)" in md and "S1 MaF1" in md
    cor = run_eval(synthetic_export, task="appellate-review:correction",
                   models=["majority", "random:1"], out=tmp_path / "s", use_cache=False)
    for run in cor.runs:  # one baseline per target: every answer has the target's format
        assert run.metrics["if_rate"] == 1.0, run.model
        assert "strata" in run.metrics["backend"]


# --------------------------------------------------------------------------- real data
@pytest.fixture(scope="module")
def judge_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``buildds judgments`` on the whole JuDGE test set (seed 0, E1–E6)."""
    from buildds.commands.judgments import judgments

    shared = shared_path("realdata", "judgments")
    out = tmp_path_factory.mktemp("judge") / "export"
    args = [str(shared / "judge-benchmark" / "test.json"), "--out", str(out), "--law",
            str(shared / "cn-criminal-law"), "--confusable",
            str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
            "--profile", "cn", "--errors", "E1,E2,E3,E4,E5,E6", "--seed", "0", "-q"]
    result = CliRunner().invoke(judgments, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("subtask", ["detection", "classification", "correction"])
def test_real_judge_export(judge_export: Path, tmp_path: Path, subtask: str) -> None:
    """Baselines and the oracle on the real export (tfidf on the first 150 rows: it is the
    slow one; the full-size figures are in the task's report)."""
    full = run_eval(judge_export, task=f"appellate-review:{subtask}",
                    models=["majority", "random:0", "oracle"], out=tmp_path / "full",
                    use_cache=False)
    by_model = {r.model: r.metrics for r in full.runs}
    assert by_model["oracle"]["macro_f1"] == 1.0 and by_model["oracle"]["accuracy"] == 1.0
    assert all(m["if_rate"] == 1.0 for m in by_model.values())
    # E3 only without sentencing factors; E1's charges balanced over the corpus, injected rows
    # without a matched untouched row left out (issue 13): JuDGE alone gives ~260 anomalous
    assert by_model["majority"]["n"] > (300 if subtask == "detection" else 200)
    if subtask == "correction":
        assert set(by_model["oracle"]["per_target"]) == {"charge", "prison_term", "fine"}
        assert by_model["oracle"]["per_target"]["prison_term"]["impscore"] == 1.0
    limited = run_eval(judge_export, task=f"appellate-review:{subtask}", models=["tfidf"],
                       limit=150, out=tmp_path / "tfidf", use_cache=False)
    # tfidf answers from training rows of the same error type only; E5/E6 have a handful of
    # rows in JuDGE alone, so a row of them may have none: every other row is answered
    samples = [json.loads(line) for line in (tmp_path / "tfidf" / "tfidf" / "0shot"
                                             / "samples.jsonl").read_text("utf-8").splitlines()]
    unanswered = [s for s in samples if s["parsed"] is None]
    assert all(str(s["error"]).startswith("no training items like") for s in unanswered)
    assert len(unanswered) <= 2 and limited.runs[0].metrics["if_rate"] >= 0.98
    for model, m in {**by_model, "tfidf (150 rows)": limited.runs[0].metrics}.items():
        print(f"{subtask} {model}: n={m['n']} acc={m['accuracy']:.4f} "
              f"macro_f1={m['macro_f1']:.4f} if={m['if_rate']:.4f}")


def test_a_run_whose_every_request_fails_has_counts_not_figures(synthetic_export, tmp_path):
    """issue 16: a failed request is not the answer 否 (or anything else): with every
    request failed there are counts and no figures."""
    out = tmp_path / "eval"
    report = run_eval(synthetic_export, task="appellate-review:detection",
                      models=["mock:error"], out=out)
    (run,) = report.runs
    assert run.metrics["n"] == 0 and run.metrics["samples"]["failed"] == run.items > 0
    assert not (run.dir / "confusion.png").exists()
    md = (out / "leaderboard.md").read_text("utf-8")
    assert f"| mock:error | Zero-shot | {run.items} | 0 | {run.items} | 0 | 0 |" in md
