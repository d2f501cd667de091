"""LegalRikai clause classification (seed 000): prompt, parser, micro P/R/F1 with the
hallucination count, and the task end to end through ``run_eval`` and ``buildds eval`` on an
export built here from generated .docx contracts and an annotation CSV."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.evaluate.metrics import bootstrap_ci, micro_multilabel
from buildds.evaluate.runner import run_eval
from buildds.evaluate.tasks import get_task
from buildds.evaluate.tasks.rikai.classification import (
    NO_CLAUSES,
    bootstrap_micro,
    build_requests,
    parse_output,
    render_answer,
    score_classification,
)
from buildds.evaluate.tasks.rikai.data import load_rikai_data
from buildds.pipeline import canonical_json
from buildds.schema.evaluation import SampleRecord

#: (heading, body, labels): the article kinds of the generated contracts
ARTICLES = [
    ("目的", "本契約は、甲が乙に委託する業務の内容及び条件について定めることを目的とする。",
     ["目的"]),
    ("再委託・譲渡の禁止", ("乙は、甲の書面による事前の承諾なく、本件業務を第三者に再委託し、"
                          "又は本契約上の地位を第三者に譲渡してはならない。"),
     ["再委託", "地位の譲渡禁止"]),
    ("秘密保持", ("甲及び乙は、相手方の秘密情報を秘密として保持し、"
                "第三者に開示又は漏洩してはならない。"), ["秘密保持"]),
    ("完全合意", "本契約は、当事者間の完全なる合意を構成し、本契約締結前の一切の合意に優先する。",
     ["完全合意"]),
    ("完成後の検査", "乙は、本件工事の完成後速やかにこれを甲に報告し、甲の検査を受けるものとする。",
     ["工事完了時の検査"]),
    ("損害賠償", "甲又は乙は、本契約に違反して相手方に損害を与えたときは、その損害を賠償する。",
     ["損害賠償"]),
    ("準拠法及び管轄", ("本契約は日本法に準拠し、"
                      "東京地方裁判所を第一審の専属的合意管轄裁判所とする。"), ["準拠法", "合意管轄"]),
]
#: the inventory: every label above and one no item carries
INVENTORY = ["目的", "再委託", "地位の譲渡禁止", "秘密保持", "完全合意", "工事完了時の検査", "損害賠償",
             "準拠法", "合意管轄", "反社会的勢力の排除"]
N_DOCS = 12


def make_contract(path: Path, k: int) -> list[tuple[int, list[str]]]:
    """A .docx contract with the articles rotated by ``k``; (article number, labels)."""
    import docx

    d = docx.Document()
    d.add_paragraph(f"業務委託契約書（その{k + 1}）")
    d.add_paragraph("甲と乙は、次のとおり契約を締結する。")
    rows = []
    order = ARTICLES[k % len(ARTICLES):] + ARTICLES[:k % len(ARTICLES)]
    for n, (heading, body, labels) in enumerate(order, start=1):
        d.add_paragraph(f"第{n}条（{heading}）")
        d.add_paragraph(body if k % 2 == 0 else body.replace("本契約", "この契約"))
        rows.append((n, labels))
    d.add_paragraph("以上")
    d.save(str(path))
    return rows


def build_classification_export(root: Path) -> Path:
    """``buildds contracts`` on generated contracts + an annotation CSV → the export."""
    from buildds.jobs.contracts import build_contracts

    inputs = root / "in"
    inputs.mkdir(parents=True)
    lines = ["document_id,number,labels"]
    files = []
    for k in range(N_DOCS):
        path = inputs / f"契約{k}.docx"
        for n, labels in make_contract(path, k):
            lines.append(f"契約{k},{n},{';'.join(labels)}")
        files.append(path)
    ann = root / "labels.csv"
    ann.write_text("\n".join(lines) + "\n", encoding="utf-8")
    inventory = root / "inventory.txt"
    inventory.write_text("\n".join(INVENTORY) + "\n", encoding="utf-8")
    out = root / "export"
    build_contracts(files, out=out, annotations=ann, labels=inventory, seed=0, eval_share=0.3,
                    progress=False)
    return out


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_classification_export(tmp_path_factory.mktemp("clause_cls"))


# --------------------------------------------------------------------------- parser
PARSE_CASES = [
    ("**Legal Clauses:**\n- 完全合意\n- 秘密保持", ("完全合意", "秘密保持")),
    ("**Legal Clauses:**\n\n1. 完全合意\n2) 秘密保持\n", ("完全合意", "秘密保持")),
    ("  **Legal Clauses:**  \n  *   完全合意  \n\n  • 秘密保持\u3000\n", ("完全合意", "秘密保持")),
    ("**Legal Clauses:**\n①再委託\n（2）地位の譲渡禁止", ("再委託", "地位の譲渡禁止")),
    ("**Legal Clauses:**\n- 完全合意\n- 完全合意", ("完全合意",)),
    ("Legal Clauses:\n- **完全合意**\n- 「秘密保持」\n- `準拠法`", ("完全合意", "秘密保持", "準拠法")),
    ("## Legal Clauses\n・再委託\n・地位の譲渡禁止\n\nExplanation: 第三者への委託を禁じる。",
     ("再委託", "地位の譲渡禁止")),
    ("```\n**Legal Clauses:**\n- 完全合意\n```", ("完全合意",)),
    ("**Legal Clauses:**\n完全合意\n株式の譲渡\n\nThese were chosen because …",
     ("完全合意", "株式の譲渡")),
    ("**Legal Clauses:** 完全合意", ("完全合意",)),
    ("- 工事完了時の検査", ("工事完了時の検査",)),
    ("No valid legal clauses found.", ()),
    ("  no valid legal clauses found  ", ()),
    ("**Legal Clauses:**\nNo valid legal clauses found.", ()),
    ("**Legal Clauses:**\n", None),
    ("1", None),
    ("", None),
    (None, None),
    ("The clause is about confidentiality.", None),
    ("完全合意\n秘密保持", None),
]


@pytest.mark.parametrize(("text", "expected"), PARSE_CASES)
def test_parser(text: str | None, expected: tuple[str, ...] | None) -> None:
    answer = parse_output(text)
    assert answer.labels == expected
    assert (answer.error is None) == (expected is not None)
    if expected is None:
        assert answer.error.startswith("unparsed") and answer.predicted == set()


@pytest.mark.parametrize("labels", [[], ["完全合意"], ["再委託", "地位の譲渡禁止"], ["a, b", "c"]])
def test_rendered_answers_parse_back(labels: list[str]) -> None:
    text = render_answer(labels)
    assert parse_output(text).labels == tuple(labels)
    assert (text == NO_CLAUSES) == (not labels)


# --------------------------------------------------------------------------- metrics
def _records(preds: list[list[str] | None]) -> list[SampleRecord]:
    return [SampleRecord(id=str(i), prompt_sha256="0", raw_output="x", parsed=p)
            for i, p in enumerate(preds)]


INV = ["A", "B", "C", "D"]
#: gold sets, predicted sets (None = unparsed), then hand-computed P, R, F1, hallucinations
METRIC_CASES = [
    ([["A"], ["B"]], [["A"], ["B"]], 1.0, 1.0, 1.0, 0),
    # tp 1 (A), fp 2 (B, X), fn 1 (C): P 1/3, R 1/2, F1 0.4; X is outside the inventory
    ([["A", "C"]], [["A", "B", "X"]], 1 / 3, 1 / 2, 0.4, 1),
    # the seed's example: gold 完全合意-like A; predictions A + two extra labels, one unknown
    ([["A"], ["B", "C"], ["D"]], [["A", "Y", "B"], None, []], 1 / 3, 1 / 4, 2 / 7, 1),
    ([["A"]], [None], 0.0, 0.0, 0.0, 0),
    ([["A"], ["B"]], [["X", "Y"], ["X"]], 0.0, 0.0, 0.0, 3),
]


@pytest.mark.parametrize(("gold", "pred", "p", "r", "f1", "hall"), METRIC_CASES)
def test_micro_scores_against_hand_computed(gold: list[list[str]], pred: list, p: float,
                                            r: float, f1: float, hall: int) -> None:
    items = [{"id": str(i), "labels": g} for i, g in enumerate(gold)]
    m = score_classification(items, _records(pred), INV, n_resamples=50)
    assert m["precision"] == pytest.approx(p, abs=1e-6)
    assert m["recall"] == pytest.approx(r, abs=1e-6)
    assert m["f1"] == pytest.approx(f1, abs=1e-6)
    assert m["hallucinations"] == hall
    assert m["unparsed"] == sum(1 for x in pred if x is None)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_micro_scores_match_scikit_learn(seed: int) -> None:
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    rng = random.Random(seed)
    labels = [*INV, "X", "Y"]  # X, Y: hallucinated labels
    gold = [rng.sample(INV, rng.randint(1, 2)) for _ in range(40)]
    pred = [rng.sample(labels, rng.randint(0, 3)) for _ in range(40)]
    items = [{"id": str(i), "labels": g} for i, g in enumerate(gold)]
    m = score_classification(items, _records(pred), INV, n_resamples=50)
    mlb = MultiLabelBinarizer(classes=labels)
    p, r, f, _ = precision_recall_fscore_support(mlb.fit_transform(gold), mlb.transform(pred),
                                                 average="micro", zero_division=0)
    assert (m["precision"], m["recall"], m["f1"]) == pytest.approx((p, r, f), abs=1e-6)
    assert m["hallucinations"] == sum(1 for s in pred for lab in s if lab not in INV)


def test_vectorised_bootstrap_equals_the_generic_one() -> None:
    rng = random.Random(7)
    gold = [rng.sample(INV, 1) for _ in range(30)]
    pred = [rng.sample(INV, rng.randint(0, 2)) for _ in range(30)]
    fast = bootstrap_micro(gold, pred, n_resamples=200, seed=3)
    slow = bootstrap_ci(lambda g, p: micro_multilabel(g, p, INV).f1, gold, pred,
                        n_resamples=200, seed=3)
    assert fast["f1"] == pytest.approx(slow, abs=1e-9)


# --------------------------------------------------------------------------- data & prompt
def test_export_loads_with_the_full_inventory(export: Path) -> None:
    for form in (export, export / "dataset", export / "data" / "evaluation.parquet"):
        data = load_rikai_data(form, "classification")
        assert data.label_inventory == INVENTORY
        assert len(data.evaluation) + len(data.development) == N_DOCS * len(ARTICLES)
        assert {lab for it in data.evaluation for lab in it["labels"]} <= set(INVENTORY)
    items, requests = build_requests(data, 0)
    assert [it["id"] for it in items] == sorted(it["id"] for it in data.evaluation)
    prompt = requests[0].messages[0].content
    assert requests[0].messages[0].role == "user" and len(requests[0].messages) == 1
    assert prompt.startswith("# Clause Detection Task\n")
    assert all(f"- {lab}\n" in prompt for lab in INVENTORY)  # unused labels listed too
    assert prompt.rstrip().endswith(items[0]["text"].rstrip())
    assert requests[0].temperature == 0.0 and requests[0].sample_id == items[0]["id"]


# --------------------------------------------------------------------------- end to end
def _samples(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()]


def test_run_eval_with_baselines_and_mock(export: Path, tmp_path: Path) -> None:
    out = tmp_path / "eval"
    report = run_eval(export, task="clause-classification", models=["tfidf", "majority", "mock"],
                      out=out)
    data = load_rikai_data(export, "classification")
    items_by_id = {it["id"]: it for it in data.evaluation}
    assert {r.model for r in report.runs} == {"tfidf", "majority", "mock"}
    for run in report.runs:
        samples = _samples(run.dir / "samples.jsonl")
        assert [s["id"] for s in samples] == sorted(items_by_id)
        m = json.loads((run.dir / "metrics.json").read_text("utf-8"))
        gold = [items_by_id[s["id"]]["labels"] for s in samples]
        pred = [s["parsed"] or [] for s in samples]
        exp = micro_multilabel(gold, pred, INVENTORY)
        assert (m["precision"], m["recall"], m["f1"]) == pytest.approx(
            (exp.precision, exp.recall, exp.f1), abs=1e-6)
        assert m["ci"]["f1"][0] <= m["f1"] <= m["ci"]["f1"][1]
        assert (run.dir / "label_counts.png").read_bytes()[:4] == b"\x89PNG"
        if run.model == "mock":  # answers "1"/"0": unparsed, counted, no label predicted
            assert m["unparsed"] == m["n"] and m["f1"] == 0.0
            assert all(s["error"].startswith("unparsed") for s in samples)
        else:  # the baselines answer in the prompt's format: always parsed
            assert m["unparsed"] == 0 and m["hallucinations"] == 0
            assert all(s["raw_output"].startswith(("**Legal Clauses:**", NO_CLAUSES))
                       for s in samples)
    tfidf = next(r for r in report.runs if r.model == "tfidf")
    assert tfidf.metrics["f1"] > 0.5  # clauses of one kind share their wording
    assert tfidf.metrics["backend"]["n_train"] == len(data.development)
    # the prompt hash of each sample is the hash of the rendered prompt
    _, requests = build_requests(data, 0)
    first = _samples(tfidf.dir / "samples.jsonl")[0]
    payload = canonical_json([m.model_dump() for m in requests[0].messages]).encode("utf-8")
    assert first["prompt_sha256"] == hashlib.sha256(payload).hexdigest()
    board = (out / "leaderboard.md").read_text("utf-8")
    assert "| Model | F1 | 適合率 (precision) | 再現率 (recall) | ハルシネーション数 (hallucinations) |" \
        in board
    assert board.index("| tfidf |") < board.index("| mock |")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert set(manifest["templates"]) == {"clause_classification.md.j2"}
    assert (out / "clause_classification.png").is_file()
    # the same answers give the same bytes
    first_bytes = (out / "leaderboard.md").read_bytes()
    run_eval(export, task="clause-classification", models=["tfidf", "majority", "mock"], out=out)
    assert (out / "leaderboard.md").read_bytes() == first_bytes


def test_oracle_and_hallucinations_end_to_end(export: Path, tmp_path: Path) -> None:
    from buildds.evaluate.backends import make_backend

    data = load_rikai_data(export, "classification")
    first, second = data.evaluation[0], data.evaluation[1]
    answers = {first["id"]: render_answer([*first["labels"], "株式の譲渡"]),
               second["id"]: "I cannot tell."}

    def factory(spec: str, **options: object) -> object:
        if spec == "mock:zeros":
            return make_backend(spec, answers=answers, **options)
        return make_backend(spec, **options)

    report = run_eval(export, task="clause-classification", models=["oracle", "mock:zeros"],
                      out=tmp_path / "eval", backend_factory=factory)
    by_model = {r.model: r.metrics for r in report.runs}
    assert by_model["oracle"]["f1"] == 1.0 and by_model["oracle"]["unparsed"] == 0
    scripted = by_model["mock:zeros"]
    assert scripted["hallucinations"] == 1 and scripted["top_hallucinations"] == [["株式の譲渡", 1]]
    assert scripted["unparsed"] == len(data.evaluation) - 1  # every "0", and the prose answer
    assert scripted["tp"] == len(first["labels"]) and scripted["fp"] == 1


def test_cli(export: Path, tmp_path: Path) -> None:
    from buildds.commands.eval import eval_cmd

    out = tmp_path / "cli"
    res = CliRunner().invoke(eval_cmd, [str(export), "--task", "clause-classification",
                                        "--model", "tfidf", "--model", "majority",
                                        "--model", "mock", "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("evaluated 3 model(s) × 1 setting(s) on ")
    assert "best F1" in res.output and "(tfidf, 0-shot)" in res.output
    assert sorted(p.name for p in out.iterdir()) == [
        "cache", "clause_classification.png", "leaderboard.json", "leaderboard.md", "majority",
        "manifest.json", "mock", "report.html", "tfidf"]
    res = CliRunner().invoke(eval_cmd, [str(export), "--task", "clause-classification",
                                        "--model", "mock", "--shots", "4", "--out", str(out)])
    assert res.exit_code == 2 and "evaluated with 0 demonstrations; got 4" in res.output


def test_wrong_export_is_refused(tmp_path: Path) -> None:
    from buildds.errors import BuildError

    task = get_task("clause-classification")
    with pytest.raises(BuildError, match="no LegalRikai export"):
        task.load(tmp_path)


def test_real_contracts(tmp_path: Path) -> None:
    """The real contracts in ../shared, labelled by their headings, through the runner."""
    from tests.conftest import shared_path

    folder = shared_path("realdata", "contracts", "jp_spc-jyoho-mamoru")
    from buildds.jobs.contracts import build_contracts

    docx_file = folder / "業務委託契約書.docx"
    out = tmp_path / "clauses"
    build_contracts([docx_file], out=out, progress=False)
    import pandas as pd

    clauses = pd.read_parquet(out / "data" / "clauses.parquet")
    articles = clauses[clauses.kind == "article"]
    ann = tmp_path / "labels.csv"
    rows = [f"{r.document_id},{r.number},{(r.heading or '見出しなし').replace(',', '、')}"
            for r in articles.itertuples()]
    ann.write_text("document_id,number,labels\n" + "\n".join(rows) + "\n", encoding="utf-8")
    export = tmp_path / "export"
    build_contracts([docx_file], out=export, annotations=ann, eval_share=0.3, progress=False)
    report = run_eval(export, task="clause-classification", models=["oracle", "majority"],
                      out=tmp_path / "eval")
    by_model = {r.model: r.metrics for r in report.runs}
    assert by_model["oracle"]["f1"] == 1.0 and by_model["majority"]["unparsed"] == 0


def test_a_run_whose_every_request_fails_has_counts_not_figures(export: Path,
                                                                 tmp_path: Path) -> None:
    """issue 16: nothing answered, nothing scored — the run is in the samples table with its
    counts, not in the figures (no F1 of 0.0 for a model that never answered)."""
    out = tmp_path / "eval"
    report = run_eval(export, task="clause-classification", models=["mock:error", "majority"],
                      out=out)
    failed = next(r for r in report.runs if r.model == "mock:error")
    assert failed.metrics["n"] == 0 and failed.metrics["f1"] is None
    assert failed.metrics["samples"] == {"items": failed.items, "answered": 0,
                                         "failed": failed.items, "refused": 0, "unfaithful": 0}
    assert not (failed.dir / "label_counts.png").exists()
    assert all(s["parsed"] is None and s["score"] is None
               for s in _samples(failed.dir / "samples.jsonl"))
    md = (out / "leaderboard.md").read_text("utf-8")
    main, samples = md.split("## Samples behind the figures")
    assert "| majority |" in main and "mock:error" not in main
    assert f"| mock:error | Zero-shot | {failed.items} | 0 | {failed.items} | 0 | 0 |" in samples
    assert report.nothing_evaluated() == [(f"mock:error 0-shot: all {failed.items} requests "
                                          "failed")]
