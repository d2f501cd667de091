"""The validate stage: pandera model, artefact/balance/exclusion checks, report, CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import ValidationFailed
from buildds.schema import JbeItem
from buildds.text import year_of_era
from buildds.validate import JbeItemsModel, validate_jbe, write_report
from buildds.validate.checks import (
    bad_characters,
    page_number_line,
    slot_marker,
    text_findings,
    unbalanced_brackets,
    unfinished_statement,
)
from buildds.validate.load import load_export
from buildds.validate.schemas import id_sort_key

SHA = "ab" * 32
SUBJECTS = [("Constitution", "憲法"), ("Civil Code", "民法"), ("Penal Code", "刑法")]
YEARS = ["令和元年", "令和６年"]


def item(year: str = "令和６年", subject: tuple[str, str] = ("Civil Code", "民法"),
         q: int = 1, s: int = 1, answer: bool = True, **kw: Any) -> dict[str, Any]:
    """One valid item as JbeItem(...).model_dump(); overrides go through the model too."""
    en, jp = subject
    fields: dict[str, Any] = {
        "id": f"{year}-{jp}-{q}-{s}", "year": year, "subject": en, "subject_jp": jp,
        "instruction": "判例の趣旨に照らし記述が正しいか",
        "question": f"{year}{jp}第{q}問の記述{s}は、判例の趣旨に照らし正しい（参照：第{s}条）。",
        "label": "Y" if answer else "N", "answer": answer, "theme": "意思表示",
        "question_type": "combination", "points": 2, "source": f"2024/{en}-mondai.pdf",
        "sha256": SHA, "page": q + 1}
    fields.update(kw)
    return JbeItem(**fields).model_dump()


def frame() -> pd.DataFrame:
    """2 years × 3 subjects × 2 questions × 2 statements, one true and one false each."""
    rows = [item(year, subject, q, s, answer=(s == 1))
            for year in YEARS for subject in SUBJECTS for q in (1, 2) for s in (1, 2)]
    rows[0]["lead_in"] = "【事例】\n甲は、乙に対し、「金を返せ。」と言った。"
    rows[1]["remark"] = "（損害及び執行費用は考慮しない。）"
    return pd.DataFrame(rows)


FIRST = "令和元年-憲法-1-1"  # frame().id[0]
SECOND = "令和元年-憲法-1-2"


def set_cell(df: pd.DataFrame, row: int, column: str, value: Any) -> pd.DataFrame:
    df = df.copy()
    try:
        df.at[row, column] = value
    except (TypeError, ValueError):  # e.g. a str into pandas' str dtype refuses a list
        df[column] = df[column].astype(object)
        df.at[row, column] = value
    return df


# --------------------------------------------------------------------------- valid data
def test_valid_frame_passes_cleanly() -> None:
    df = frame()
    JbeItemsModel.validate(df, lazy=True)
    report = validate_jbe(df)
    assert report.ok, report.error_lines()
    assert report.errors == [] and report.flags == []
    c = report.counts
    assert c["total"] == 24 and c["true"] == 12 and c["true_share"] == 0.5
    assert list(c["per_subject"]) == ["Constitution", "Civil Code", "Penal Code"]
    assert c["per_subject"]["Civil Code"] == {"items": 8, "true": 4, "false": 4, "true_share": 0.5}
    assert c["per_year_subject"]["令和元年"]["Penal Code"]["items"] == 4
    assert report.summary_line() == "validated 24 items: 0 errors, 0 flags"


def test_extra_columns_and_narrow_ints_are_accepted() -> None:
    df = frame()
    df["is_fewshot"] = False
    df["page"] = df["page"].astype("int32")  # what an HF Value("int32") feature reads back as
    df["points"] = df["points"].astype("Int64")
    df = df.drop(columns=["corrections"])  # optional
    assert validate_jbe(df).ok


# --------------------------------------------------------------------------- schema errors
Mutation = Callable[[pd.DataFrame], pd.DataFrame]
BROKEN: dict[str, tuple[Mutation, str, str, list[str]]] = {
    # name: (mutation, check, column, offending ids)
    "duplicate id": (lambda d: set_cell(d, 1, "id", FIRST), "unique", "id", [FIRST]),
    "empty question": (lambda d: set_cell(d, 1, "question", " \n　"),
                       "non_empty_text", "question", [SECOND]),
    "missing question": (lambda d: set_cell(d, 1, "question", None),
                         "not_null", "question", [SECOND]),
    "empty instruction": (lambda d: set_cell(d, 0, "instruction", ""),
                          "non_empty_text", "instruction", [FIRST]),
    "label/answer mismatch": (lambda d: set_cell(d, 1, "label", "Y"),
                              "label_answer_consistent", "label/answer", [SECOND]),
    "label not Y/N": (lambda d: set_cell(d, 1, "label", "T"), "allowed_values", "label", [SECOND]),
    "bad id format": (lambda d: set_cell(d, 1, "id", "令和1年-憲法-1-2"),
                      "pattern", "id", ["令和1年-憲法-1-2"]),
    "id without statement number": (lambda d: set_cell(d, 1, "id", "令和元年-憲法-1"),
                                    "pattern", "id", ["令和元年-憲法-1"]),
    "year differs from id": (lambda d: set_cell(d, 1, "year", "令和２年"),
                             "year_matches_id", "year/id", [SECOND]),
    "bad year": (lambda d: set_cell(d, 1, "year", "2019"), "pattern", "year", [SECOND]),
    "subject_jp differs from id": (lambda d: set_cell(d, 1, "subject_jp", "民法"),
                                   "subject_jp_matches_id", "subject_jp/id", [SECOND]),
    "subject differs from subject_jp": (lambda d: set_cell(d, 1, "subject", "Penal Code"),
                                        "subject_matches_subject_jp", "subject/subject_jp",
                                        [SECOND]),
    "unknown subject": (lambda d: set_cell(d, 1, "subject", "Commercial Code"),
                        "allowed_values", "subject", [SECOND]),
    "bad sha256": (lambda d: set_cell(d, 1, "sha256", "ab" * 31), "pattern", "sha256", [SECOND]),
    "upper-case sha256": (lambda d: set_cell(d, 1, "sha256", "AB" * 32),
                          "pattern", "sha256", [SECOND]),
    "page 0": (lambda d: set_cell(d, 1, "page", 0), "min_value", "page", [SECOND]),
    "negative points": (lambda d: set_cell(d, 1, "points", -2), "min_value", "points", [SECOND]),
    "unknown question type": (lambda d: set_cell(d, 1, "question_type", "essay"),
                              "allowed_values", "question_type", [SECOND]),
    "empty source": (lambda d: set_cell(d, 1, "source", ""), "non_empty_text", "source", [SECOND]),
    "corrections not a list": (lambda d: set_cell(d, 1, "corrections", "fix-1"),
                               "list_of_strings", "corrections", [SECOND]),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_variant_fails_naming_the_ids(name: str) -> None:
    mutate, check, column, ids = BROKEN[name]
    report = validate_jbe(mutate(frame()))
    assert not report.ok
    found = [e for e in report.errors if e["check"] == check and e["column"] == column]
    assert found, f"no {check} error on {column}: {report.errors}"
    assert found[0]["ids"] == ids
    # every way a person sees the failure names the ids
    lines = "\n".join(report.error_lines())
    md = report.to_markdown()
    for id_ in ids:
        assert id_ in lines and id_ in md
    with pytest.raises(ValidationFailed) as exc_info:
        report.raise_for_errors()
    assert all(id_ in str(exc_info.value) for id_ in ids)


def test_one_broken_row_is_reported_once_per_problem() -> None:
    df = set_cell(frame(), 1, "label", "Y")  # answer stays False
    report = validate_jbe(df)
    assert [(e["check"], e["ids"]) for e in report.errors] == [
        ("label_answer_consistent", [SECOND])]
    assert report.error_count == 1


def test_lazy_validation_collects_every_failure() -> None:
    df = frame()
    df = set_cell(df, 0, "page", 0)
    df = set_cell(df, 5, "sha256", "nope")
    df = set_cell(df, 7, "question", "")
    report = validate_jbe(df)
    assert {e["check"] for e in report.errors} == {"min_value", "pattern", "non_empty_text"}
    assert report.error_ids() == sorted(df["id"].iloc[[0, 5, 7]], key=id_sort_key)


def test_missing_column_and_wrong_dtype_are_column_wide_errors() -> None:
    df = frame().drop(columns=["sha256"])
    df["answer"] = df["answer"].map({True: "True", False: "False"})
    report = validate_jbe(df)
    by_check = {e["check"]: e for e in report.errors}
    assert by_check["missing_column"]["column"] == "sha256"
    assert by_check["missing_column"]["ids"] == []
    assert by_check["dtype"]["column"] == "answer" and "bool" in by_check["dtype"]["message"]
    assert "whole column" in report.to_markdown()


def test_ids_map_back_through_a_non_default_index() -> None:
    df = frame().set_index("id", drop=False).iloc[::-1]
    df = set_cell(df.reset_index(drop=True), 3, "page", 0).set_index("id", drop=False)
    report = validate_jbe(df)
    assert report.errors[0]["ids"] == [df["id"].iloc[3]]


def test_empty_dataset_is_an_error() -> None:
    report = validate_jbe(frame().iloc[0:0])
    assert [e["check"] for e in report.errors] == ["no_items"]


# --------------------------------------------------------------------------- artefacts
ARTEFACTS = [
    # (column, text, check)
    ("question", "甲は乙を殴った［No.３］。", "slot_marker"),
    ("question", "甲は乙を殴った[No.3]。", "slot_marker"),
    ("lead_in", "【事例】\n甲は（解答欄は、［No.１２］）乙に言った。", "slot_marker"),
    ("question", "甲は乙を殴った。\n- 12 -\n乙は死亡した。", "page_number"),
    ("question", "甲は乙を殴った。－ １２ －乙は死亡した。", "page_number"),
    ("question", "甲は乙を(cid:123)殴った。", "cid_glyph"),
    ("question", "甲は（乙の承諾を得て乙を殴った。", "unbalanced_brackets"),
    ("question", "甲は「乙の物』を盗んだ。", "unbalanced_brackets"),
    ("question", "甲は乙の物を盗んだ】。", "unbalanced_brackets"),
    ("remark", "〔損害は考慮しない。", "unbalanced_brackets"),
    ("question", "甲は乙の物を盗ん", "unfinished_statement"),
    ("question", "甲は乙の物を盗んだ｡", "unfinished_statement"),  # half-width ｡
    ("question", "甲は乙の物を盗んだ。（参照条文）民法第７０８条（略）。", "reference_block"),
    ("question", "甲は乙の 物を盗んだ。", "space_in_japanese"),
    ("question", "甲は乙の\u200b物を盗んだ。", "invisible_character"),
    ("question", "甲は乙の\ue000を盗んだ。", "invisible_character"),
]


@pytest.mark.parametrize(("column", "text", "check"), ARTEFACTS,
                         ids=[f"{c}-{t[:12]}" for c, t, _ in ARTEFACTS])
def test_artefact_is_flagged_on_the_right_item(column: str, text: str, check: str) -> None:
    errors, flags = text_findings(set_cell(frame(), 1, column, text))
    assert errors == []  # flags, not errors
    assert [(f["check"], f["id"]) for f in flags] == [(check, SECOND)]
    assert flags[0]["message"].startswith(f"{column}: ")


def test_artefact_flags_reach_the_report() -> None:
    df = set_cell(frame(), 1, "question", "甲は乙を殴った［No.３］")
    report = validate_jbe(df)
    assert report.ok
    assert [(f["check"], f["id"]) for f in report.flags] == [
        ("slot_marker", SECOND), ("unfinished_statement", SECOND)]
    assert f"`{SECOND}` — question: leftover slot marker '[No.3]'" in report.to_markdown()


@pytest.mark.parametrize("text", [
    "甲は「乙の物を盗んだ。」",
    "甲は乙の物を盗んだ（窃盗罪）。",
    "Ａは、Ｂに対し、甲土地を売却した。\nａ．Ａの見解。\nｂ．Ｂの見解。",
    "民法第９４条第２項の「第三者」に当たる。",
    "甲は乙に「（借りた）金を返せ。」と言った。",
])
def test_clean_statements_are_not_flagged(text: str) -> None:
    assert text_findings(set_cell(frame(), 1, "question", text)) == ([], [])


@pytest.mark.parametrize(("char", "code"), [("\ufffd", "U+FFFD"), ("\x07", "U+0007"),
                                            ("\r", "U+000D")])
def test_replacement_and_control_characters_are_errors(char: str, code: str) -> None:
    report = validate_jbe(set_cell(frame(), 1, "question", f"甲は乙の{char}物を盗んだ。"))
    assert not report.ok
    (error,) = report.errors
    assert error["check"] == "bad_character" and error["ids"] == [SECOND]
    assert code in error["message"]


def test_text_check_functions() -> None:
    assert slot_marker("（解答欄は、［Ｎｏ．５］）") is not None
    assert slot_marker("No.5 と Notes") is None
    assert page_number_line("２－１－３") is None  # a section number, not a page number
    assert unbalanced_brackets("（「」）【】〔〕『』") is None
    assert unbalanced_brackets("(全角と半角）") is None
    assert unfinished_statement("…である。」）") is None
    assert bad_characters("改行\nとタブ\tは良い") is None


def test_duplicate_statements_flag_both_ids_within_a_subject_only() -> None:
    df = frame()
    text = "甲は、乙の財布を盗んだ。"
    df = set_cell(df, 0, "question", text)          # 令和元年-憲法-1-1
    df = set_cell(df, 2, "question", " 甲は、乙の財布を\n盗んだ。")  # 令和元年-憲法-2-1
    df = set_cell(df, 8, "question", text)          # 令和元年-刑法-1-1: other subject
    report = validate_jbe(df)
    assert report.flagged_ids("duplicate_statement") == ["令和元年-憲法-1-1", "令和元年-憲法-2-1"]
    messages = {f["id"]: f["message"] for f in report.flags}
    assert "令和元年-憲法-2-1" in messages["令和元年-憲法-1-1"]


# --------------------------------------------------------------------------- balance
def skewed() -> pd.DataFrame:
    """令和６年 Civil Code: 4 of 4 true; Civil Code 6 of 8 (75%); overall 14 of 24."""
    df = frame()
    rows = df.index[(df.year == "令和６年") & (df.subject == "Civil Code")]
    df.loc[rows, "answer"] = True
    df.loc[rows, "label"] = "Y"
    return df


def test_balance_outside_the_bound_is_flagged() -> None:
    report = validate_jbe(skewed())
    assert report.ok
    assert report.flagged_ids("label_balance") == ["令和６年/Civil Code"]
    (flag,) = report.flags
    assert "1.00 (4/4)" in flag["message"] and "[0.25, 0.75]" in flag["message"]
    assert "100.0% (4/4) ⚠" in report.to_markdown()


def test_balance_bound_is_configurable() -> None:
    assert validate_jbe(skewed(), balance_bounds=(0.0, 1.0)).flags == []
    strict = validate_jbe(skewed(), balance_bounds=(0.45, 0.55))
    # Civil Code overall is 6/8 = 0.75; the whole set 14/24 = 0.58
    assert strict.flagged_ids("label_balance") == ["令和６年/Civil Code", "Civil Code", "overall"]
    assert validate_jbe(frame(), balance_bounds=(0.5, 0.5)).flags == []  # bounds are inclusive
    with pytest.raises(ValueError):
        validate_jbe(frame(), balance_bounds=(0.8, 0.2))


# --------------------------------------------------------------------------- exclusions
def exclusion(id_: str = "令和６年-刑法-16", reason: Any = "fill_in",
              message: Any = "fill-in-the-blank question") -> dict[str, Any]:
    return {"id": id_, "subject": "Penal Code", "reason": reason, "message": message,
            "source": "2024/keiho-mondai.pdf", "page": 12}


def test_exclusions_are_counted_by_reason() -> None:
    exclusions = [exclusion(), exclusion("令和６年-刑法-2", "counting"),
                  exclusion("令和元年-刑法-5")]
    report = validate_jbe(frame(), exclusions)
    assert report.ok
    assert report.exclusions_by_reason == {"counting": 1, "fill_in": 2}
    assert report.exclusion_ids_by_reason["fill_in"] == ["令和元年-刑法-5", "令和６年-刑法-16"]
    assert "| fill_in | 2 | 令和元年-刑法-5, 令和６年-刑法-16 |" in report.to_markdown()
    # a DataFrame works as well
    assert validate_jbe(frame(), pd.DataFrame(exclusions)).to_json() == report.to_json()


@pytest.mark.parametrize("reason", [None, "", "  "])
def test_exclusion_without_reason_is_an_error(reason: Any) -> None:
    report = validate_jbe(frame(), [exclusion(), exclusion("令和６年-刑法-3", reason=reason)])
    assert not report.ok
    (error,) = report.errors
    assert error["check"] == "exclusion_reason" and error["ids"] == ["令和６年-刑法-3"]
    assert "令和６年-刑法-3" in "\n".join(report.error_lines())


def test_exclusion_without_message_is_an_error() -> None:
    report = validate_jbe(frame(), pd.DataFrame([exclusion(message=float("nan"))]))
    assert [(e["check"], e["ids"]) for e in report.errors] == [
        ("exclusion_message", ["令和６年-刑法-16"])]


def test_excluded_question_that_still_has_items_is_flagged() -> None:
    report = validate_jbe(frame(), [exclusion("令和６年-民法-2")])
    assert report.flagged_ids("excluded_but_present") == ["令和６年-民法-2"]


# --------------------------------------------------------------------------- report
def broken_with_flags() -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    df = set_cell(skewed(), 1, "question", "甲は（乙の物を盗んだ。")
    df = set_cell(df, 2, "page", 0)
    return df, [exclusion(), exclusion("令和６年-刑法-3", reason="")]


def test_report_json_is_byte_identical_across_runs_and_row_orders(tmp_path: Path) -> None:
    df, exclusions = broken_with_flags()
    json_a, md_a = write_report(validate_jbe(df, exclusions), tmp_path / "a")
    shuffled = df.sample(frac=1, random_state=7)
    json_b, md_b = write_report(validate_jbe(shuffled, exclusions[::-1]), tmp_path / "b")
    assert json_a.read_bytes() == json_b.read_bytes()
    assert md_a.read_bytes() == md_b.read_bytes()
    data = json.loads(json_a.read_text("utf-8"))
    assert data["ok"] is False
    assert data["summary"] == {
        "items": 24, "errors": 2, "flags": 2,
        "errors_by_check": {"exclusion_reason": 1, "min_value": 1},
        "flags_by_check": {"label_balance": 1, "unbalanced_brackets": 1}}
    assert "timestamp" not in json_a.read_text("utf-8")


def test_report_markdown_is_readable(tmp_path: Path) -> None:
    df, exclusions = broken_with_flags()
    md = validate_jbe(df, exclusions).to_markdown()
    assert md.startswith("# JBE-QA validation report\n\n**FAILED** — 24 items, 2 errors, 2 flags.")
    assert "| Civil Code | 8 | 6 | 2 | 75.0% |" in md  # the bound is inclusive
    assert "| **all** | **24** | 14 | 10 | 58.3% |" in md
    assert "| 令和元年 (2019) | 50.0% (2/4) | 50.0% (2/4) | 50.0% (2/4) |" in md
    assert "## Exclusions (2)" in md and "| (missing) | 1 | 令和６年-刑法-3 |" in md
    assert "- **min_value** `page`: must be ≥ 1 (1 row): 0 — 令和元年-憲法-2-1" in md
    assert "### unbalanced_brackets (1)" in md and f"- `{SECOND}` — question: unclosed" in md
    assert "### label_balance (1)" in md and "`令和６年/Civil Code`" in md


def test_markdown_can_be_embedded_one_level_down() -> None:
    md = validate_jbe(skewed()).to_markdown(level=2)
    assert md.startswith("## JBE-QA validation report\n")
    assert "\n### Counts\n" in md and "\n#### label_balance (1)\n" in md


def test_markdown_caps_each_flag_group_at_20_ids() -> None:
    df = frame()
    for r in range(len(df)):
        df.at[r, "question"] = df.at[r, "question"].rstrip("。")
    md = validate_jbe(df).to_markdown()
    assert "### unfinished_statement (24)" in md
    assert "- … and 4 more (all in report.json)" in md


def test_era_years() -> None:
    assert year_of_era("令和元年") == 2019
    assert year_of_era("令和６年") == 2024
    assert year_of_era("平成２７年") == 2015
    assert year_of_era("2019") is None
    assert sorted(["令和６年-民法-10-1", "平成３０年-民法-2-1", "令和６年-民法-2-1"],
                  key=id_sort_key) == ["平成３０年-民法-2-1", "令和６年-民法-2-1", "令和６年-民法-10-1"]


# --------------------------------------------------------------------------- CLI
def test_cli_on_a_good_parquet_file(tmp_path: Path) -> None:
    path = tmp_path / "items.parquet"
    frame().to_parquet(path)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "validation"
    assert result.output.strip() == (f"validated 24 items: 0 errors, 0 flags — see "
                                     f"{out / 'report.md'}")
    assert json.loads((out / "report.json").read_text("utf-8"))["ok"] is True
    assert (out / "report.md").read_text("utf-8").startswith("# JBE-QA validation report")


def test_cli_on_broken_data_exits_1_and_names_the_ids(tmp_path: Path) -> None:
    df = set_cell(set_cell(frame(), 1, "label", "Y"), 3, "sha256", "")
    df.to_parquet(tmp_path / "items.parquet")
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "items.parquet"),
                                       "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert SECOND in result.output and "令和元年-憲法-2-2" in result.output
    assert "validated 24 items: 2 errors, 0 flags" in result.output
    assert SECOND in (out / "report.md").read_text("utf-8")


def test_cli_balance_option(tmp_path: Path) -> None:
    skewed().to_parquet(tmp_path / "items.parquet")
    args = ["validate", str(tmp_path / "items.parquet"), "--out", str(tmp_path)]
    assert "1 flag —" in CliRunner().invoke(main, args).output
    result = CliRunner().invoke(main, [*args, "--balance", "0,1"])
    assert result.exit_code == 0 and "0 flags" in result.output
    for bad in ("0.5", "a,b", "0.8,0.2", "0,1.5"):
        result = CliRunner().invoke(main, [*args, "--balance", bad])
        assert result.exit_code == 2 and "--balance" in result.output


def test_cli_on_an_export_folder_reads_rejects(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    frame().to_parquet(tmp_path / "data" / "test.parquet")
    rows = [exclusion(), exclusion("令和６年-刑法-3", reason="")]
    (tmp_path / "rejects.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    (tmp_path / "report.json").write_text("{\"the build's own\": 1}", "utf-8")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "exclusion_reason" in result.output and "令和６年-刑法-3" in result.output
    report = json.loads((tmp_path / "validation" / "report.json").read_text("utf-8"))
    assert report["exclusions"]["by_reason"] == {"(missing)": 1, "fill_in": 1}
    assert (tmp_path / "report.json").read_text("utf-8") == "{\"the build's own\": 1}"


def test_cli_on_a_saved_dataset(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    df = frame()
    df["is_fewshot"] = False
    train = datasets.Dataset.from_pandas(df.iloc[:4], preserve_index=False)
    test = datasets.Dataset.from_pandas(df, preserve_index=False)
    datasets.DatasetDict({"train": train, "test": test}).save_to_disk(str(tmp_path / "dataset"))
    loaded = load_export(tmp_path / "dataset")
    assert loaded.kind == "dataset" and len(loaded.items) == 24
    assert loaded.default_out == tmp_path / "validation"
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "validated 24 items: 0 errors, 0 flags" in result.output


def test_cli_on_something_that_is_not_an_export(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "not an export" in result.output
    (tmp_path / "x.csv").write_text("id\n", "utf-8")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "x.csv")])
    assert result.exit_code == 1 and "expected a .parquet file" in result.output
