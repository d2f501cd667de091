"""``buildds judgments`` against bad inputs generated here: every bad record is rejected
alone with its line number and reason, every bad file alone with its name, and the good
judgments of the same run are exported. Needs no ../shared: the statute files are a
two-article excerpt of the Criminal Law written below."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from buildds.commands.judgments import judgments

FACTS = "经审理查明，被告人甲某盗窃手机一部，价值人民币三千元。"
FULL = ("某某区人民法院 刑事判决书 公诉机关某某区人民检察院。 被告人甲某，男。 " + FACTS
        + " 本院认为，被告人甲某盗窃他人财物，数额较大，其行为已构成盗窃罪。被告人甲某到案后如实供述"
        "自己的罪行，可以从轻处罚。依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款之规定，"
        "判决如下： 被告人甲某犯盗窃罪，判处有期徒刑六个月，并处罚金人民币二千元。 如不服本判决，"
        "可在接到判决书的第二日起十日内提出上诉。 审判员乙某")
LAW = """# 中华人民共和国刑法

第二百六十四条　盗窃公私财物，数额较大的，或者多次盗窃、入户盗窃、携带凶器盗窃、扒窃的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；数额巨大或者有其他严重情节的，处三年以上十年以下有期徒刑，并处罚金；数额特别巨大或者有其他特别严重情节的，处十年以上有期徒刑或者无期徒刑，并处罚金或者没收财产。

第二百六十七条　抢夺公私财物，数额较大的，或者多次抢夺的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；数额巨大或者有其他严重情节的，处三年以上十年以下有期徒刑，并处罚金；数额特别巨大或者有其他特别严重情节的，处十年以上有期徒刑或者无期徒刑，并处罚金或者没收财产。
"""
CONFUSABLE = "序号,罪名,法条,相似罪名1\n1,盗窃罪,刑法第264条,抢夺罪\n2,抢夺罪,刑法第267条,盗窃罪\n"
GOOD_IDS = ["g0", "g1", "g2"]


def good(rid: str, **change: object) -> str:
    record: dict[str, object] = {"text_id": rid, "text": FACTS, "la": [264], "fd": FULL}
    record.update(change)
    return json.dumps(record, ensure_ascii=False)


@pytest.fixture(scope="module")
def statutes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("statutes")
    (root / "law").mkdir()
    (root / "law" / "criminal_law_PRC_2023_amendment12.md").write_text(LAW, encoding="utf-8")
    (root / "similar.csv").write_text(CONFUSABLE, encoding="utf-8")
    return root / "law", root / "similar.csv"


def run(statutes: tuple[Path, Path], out: Path, *inputs: Path | str, extra: tuple[str, ...] = ()
        ) -> Result:
    law, confusable = statutes
    return CliRunner().invoke(judgments, [*map(str, inputs), "--out", str(out), "--law", str(law),
                                          "--confusable", str(confusable), "-q", *extra])


def exported_ids(out: Path) -> set[str]:
    import pandas as pd

    return set(pd.read_parquet(out / "data" / "detection.parquet")["source_id"])


def rejects(out: Path, stage: str = "extract") -> list[dict[str, object]]:
    rows = [json.loads(line) for line in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    return [r for r in rows if r["stage"] == stage]


def write_lines(path: Path, lines: list[str | bytes], codec: str = "utf-8") -> Path:
    path.write_bytes(b"".join((x if isinstance(x, bytes) else x.encode(codec)) + b"\n"
                              for x in lines))
    return path


# --------------------------------------------------------------------------- one bad record
GBK_LINE = good("bad", text="被告人乙某盗窃。").encode("gbk")
BAD_RECORDS: list[tuple[str, str | bytes, str, str]] = [
    # (case, the bad line, reason, text of the message)
    ("gbk line in utf-8", GBK_LINE, "encoding", "line 2: not utf-8 text at byte"),
    ("no text", json.dumps({"text_id": "bad", "la": [], "fd": FULL}, ensure_ascii=False),
     "missing_field", "line 2: no facts (text)"),
    ("empty text", good("bad", text="   "), "empty_field", "line 2: text (facts) is empty"),
    ("fd a list", good("bad", fd=["x"]), "wrong_type",
     "line 2: fd (full judgment text) is a list, not a string"),
    ("text_id a number", good("bad", text_id=7), "wrong_type",
     "line 2: text_id is a number, not a string"),
    ("duplicate id", good("g0"), "duplicate_id", "line 2: id g0 is already t.json line 1"),
    ("raw control char", good("bad").replace("经审理", "经\x01审理"), "control_character",
     "line 2: control character U+0001 at column"),
    ("escaped control char", good("bad").replace("经审理", "经\\u0007审理", 1), "control_character",
     "line 2: text holds the control character U+0007 at character 2"),
    ("lone surrogate", good("bad").replace("经审理", "经\\ud800审理", 1), "encoding",
     "line 2: text holds a lone surrogate U+D800"),
    ("bad json", '{"text_id": "bad", "text": ', "malformed_json", "line 2: Expecting value"),
    ("deep nesting", '{"text_id": "bad", "x": ' + "[" * 5000 + "]" * 5000 + "}", "json_limit",
     "line 2: nesting"),
    ("5000-digit number", '{"text_id": "bad", "la": [' + "9" * 5000 + "]}", "json_limit",
     "line 2: a number of 5000 digits exceeds the limit of 100"),
    ("Infinity", '{"text_id": "bad", "la": [Infinity]}', "json_limit",
     "line 2: Infinity is not a JSON number"),
    ("NaN", '{"text_id": "bad", "la": [NaN]}', "json_limit", "line 2: NaN is not a JSON number"),
    ("array of records", "[" + good("a1") + ", " + good("a2") + "]", "not_an_object",
     "line 2: an array of 2 values, not one JSON object"),
    ("a string", '"just text"', "not_an_object", "line 2: a string, not one JSON object"),
]


@pytest.mark.parametrize(("bad", "reason", "message"),
                         [c[1:] for c in BAD_RECORDS], ids=[c[0] for c in BAD_RECORDS])
def test_one_bad_record_is_rejected_and_the_rest_exported(
        statutes: tuple[Path, Path], tmp_path: Path, bad: str | bytes, reason: str,
        message: str) -> None:
    src = write_lines(tmp_path / "t.json", [good("g0"), bad, good("g1"), good("g2")])
    result = run(statutes, tmp_path / "out", src)
    assert result.exit_code == 0, result.output
    assert f"parsed 3 judgments (1 rejected: {reason} 1)" in result.output
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)
    (row,) = rejects(tmp_path / "out")
    assert (row["source"], row["line"], row["reason"]) == ("t.json", 2, reason)
    assert str(row["message"]).startswith(message), row["message"]
    assert "\ufffd" not in (tmp_path / "out" / "rejects.jsonl").read_text("utf-8")
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert report["rejected"] == {reason: 1} and report["exported"]


def test_bad_first_line_does_not_refuse_the_run(statutes: tuple[Path, Path],
                                                tmp_path: Path) -> None:
    src = write_lines(tmp_path / "t.json", ["\x01" + good("x"), GBK_LINE, *map(good, GOOD_IDS)])
    result = run(statutes, tmp_path / "out", src)
    assert result.exit_code == 0, result.output
    assert "(2 rejected: control_character 1, encoding 1)" in result.output
    assert [(r["line"], r["reason"]) for r in rejects(tmp_path / "out")] == [
        (1, "control_character"), (2, "encoding")]
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)


def test_strict_exits_1_on_a_rejected_record_but_still_exports(
        statutes: tuple[Path, Path], tmp_path: Path) -> None:
    src = write_lines(tmp_path / "t.json", [good("g0"), "{", good("g1"), good("g2")])
    result = run(statutes, tmp_path / "out", src, extra=("--strict",))
    assert result.exit_code == 1
    assert "(1 rejected: malformed_json 1)" in result.output
    assert "--strict: 1 defective record(s) rejected (see " in result.output
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)


def test_over_long_line_with_the_option(statutes: tuple[Path, Path], tmp_path: Path) -> None:
    long = good("long", text=FACTS * 100)
    src = write_lines(tmp_path / "t.json", [good("g0"), long, good("g1"), good("g2")])
    result = run(statutes, tmp_path / "out", src, extra=("--max-line-bytes", "5000"))
    assert result.exit_code == 0, result.output
    assert "(1 rejected: line_too_long 1)" in result.output
    (row,) = rejects(tmp_path / "out")
    assert row["line"] == 2 and str(row["message"]).endswith(
        "exceed the limit of 5,000 bytes per line (raise it with --max-line-bytes)")
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)
    # the default limit reads it
    again = run(statutes, tmp_path / "out2", src)
    assert again.exit_code == 0 and "(0 rejected)" in again.output


# --------------------------------------------------------------------------- encodings
@pytest.mark.parametrize(("codec", "bom", "encoding", "found_by"), [
    ("gbk", b"", "gb18030", "content"),
    ("gb18030", b"", "gb18030", "content"),
    ("utf-8", b"\xef\xbb\xbf", "utf-8", "bom"),
    ("utf-16-le", b"\xff\xfe", "utf-16-le", "bom"),
    ("utf-16-be", b"\xfe\xff", "utf-16-be", "bom"),
])
def test_whole_file_encodings(statutes: tuple[Path, Path], tmp_path: Path, codec: str,
                              bom: bytes, encoding: str, found_by: str) -> None:
    import pandas as pd

    src = tmp_path / "t.json"
    src.write_bytes(bom + "\n".join(map(good, GOOD_IDS)).encode(codec))
    result = run(statutes, tmp_path / "out", src)
    assert result.exit_code == 0, result.output
    assert "parsed 3 judgments (0 rejected)" in result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert (report["inputs"][0]["encoding"], report["inputs"][0]["encoding_from"]) == (
        encoding, found_by)
    assert f"| {encoding} ({found_by}) |" in (tmp_path / "out" / "report.md").read_text("utf-8")
    frame = pd.read_parquet(tmp_path / "out" / "data" / "detection.parquet")
    assert set(frame["source_id"]) == set(GOOD_IDS) and set(frame["facts"]) == {FACTS}


def test_named_encoding(statutes: tuple[Path, Path], tmp_path: Path) -> None:
    src = tmp_path / "t.json"
    src.write_bytes("\n".join(map(good, GOOD_IDS)).encode("gbk"))
    result = run(statutes, tmp_path / "out", src, extra=("--encoding", "gbk"))
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert (report["inputs"][0]["encoding"], report["inputs"][0]["encoding_from"]) == (
        "gbk", "option")
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)
    bad = run(statutes, tmp_path / "o2", src, extra=("--encoding", "rot13"))
    assert bad.exit_code == 2 and "'rot13' is not a text encoding" in bad.output


# --------------------------------------------------------------------------- bad files
def test_only_bad_records_exits_1_and_lists_every_reject(statutes: tuple[Path, Path],
                                                         tmp_path: Path) -> None:
    src = write_lines(tmp_path / "t.json", [GBK_LINE, "{", good("x", text="")])
    result = run(statutes, tmp_path / "out", src)
    assert result.exit_code == 1
    assert "no judgment could be read from the inputs" in result.output
    assert "t.json: no usable judgment: all 3 records rejected (empty_field 1, encoding 1, " \
           "malformed_json 1)" in result.output
    assert "exported 0" not in result.output and "Traceback" not in result.output
    assert [(r["source"], r["line"], r["reason"]) for r in rejects(tmp_path / "out")] == [
        ("t.json", 1, "encoding"), ("t.json", 2, "malformed_json"), ("t.json", 3, "empty_field")]
    assert "t.json: no usable judgment" in (tmp_path / "out" / "report.md").read_text("utf-8")


def test_an_input_of_bad_records_beside_a_good_one(statutes: tuple[Path, Path],
                                                   tmp_path: Path) -> None:
    bad = write_lines(tmp_path / "bad.json", [good("x", fd=""), good("y", fd="")])
    result = _with_good(statutes, tmp_path, bad)
    assert result.exit_code == 1, result.output
    assert ("failed: bad.json: no usable judgment: all 2 records rejected (empty_field 2)"
            in result.output)
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)
    again = _with_good(statutes, tmp_path, bad)  # unchanged: same verdict, nothing rebuilt
    assert again.exit_code == 1 and "unchanged" in again.output
    assert "failed: bad.json: no usable judgment" in again.output


def _with_good(statutes: tuple[Path, Path], tmp_path: Path, bad: Path) -> Result:
    src = write_lines(tmp_path / "good.json", list(map(good, GOOD_IDS)))
    return run(statutes, tmp_path / "out", bad, src)


def test_a_fifo_input_fails_alone(statutes: tuple[Path, Path], tmp_path: Path) -> None:
    fifo = tmp_path / "test.json"
    os.mkfifo(fifo)
    holder: dict[str, Result] = {}
    worker = threading.Thread(target=lambda: holder.update(r=_with_good(statutes, tmp_path, fifo)),
                              daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "reading a FIFO hung"
    result = holder["r"]
    assert result.exit_code == 1, result.output
    assert "failed: test.json: is a named pipe (FIFO), not a regular file" in result.output
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)


def test_a_link_to_dev_zero_fails_alone(statutes: tuple[Path, Path], tmp_path: Path) -> None:
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    result = _with_good(statutes, tmp_path, link)
    assert result.exit_code == 1, result.output
    assert "zero.json: is a character device, not a regular file" in result.output
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert [f["path"] for f in report["failed"]] == ["zero.json"]


@pytest.mark.parametrize(("content", "why"), [
    (b"", "empty file: no JSON lines"),
    (b'{"other": 1}\n[1]\n', ("no JuDGE ({text_id, text, fd}), CAIL ({fact, meta}), LeCaRD "
                             "({ajId, qw, pjjg}) or Caseformer ({id, fact, reason, result, "
                             "content}) record: all 2 lines rejected (missing_field 1, "
                             "not_an_object 1")),
])
def test_a_file_of_another_kind_fails_alone(statutes: tuple[Path, Path], tmp_path: Path,
                                            content: bytes, why: str) -> None:
    other = tmp_path / "other.json"
    other.write_bytes(content)
    result = _with_good(statutes, tmp_path, other)
    assert result.exit_code == 1, result.output
    assert f"failed: other.json: {why}" in result.output
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)


def test_an_input_name_that_is_not_utf8(statutes: tuple[Path, Path], tmp_path: Path) -> None:
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/t\xff.json"))
    write_lines(odd, [good("g0"), "{", good("g1"), good("g2")])
    result = run(statutes, tmp_path / "out", odd)
    assert result.exit_code == 0, result.output
    (row,) = rejects(tmp_path / "out")
    assert (row["source"], row["line"]) == ("t\\xff.json", 2)
    assert exported_ids(tmp_path / "out") == set(GOOD_IDS)


def test_duplicate_ids_across_inputs(statutes: tuple[Path, Path], tmp_path: Path) -> None:
    a = write_lines(tmp_path / "a.json", list(map(good, GOOD_IDS)))
    b = write_lines(tmp_path / "b.json", [good("g1"), good("g9")])
    result = run(statutes, tmp_path / "out", a, b)
    assert result.exit_code == 0, result.output
    (row,) = rejects(tmp_path / "out")
    assert (row["source"], row["line"], row["reason"]) == ("b.json", 1, "duplicate_id")
    assert row["message"] == "line 1: id g1 is already a.json line 2 (the first is kept)"
    assert exported_ids(tmp_path / "out") == {*GOOD_IDS, "g9"}


# --------------------------------------------------------------------------- CAIL records
def _cail(**meta: object) -> str:
    base: dict[str, object] = {"relevant_articles": [264], "accusation": ["盗窃"],
                               "punish_of_money": 1000, "criminals": ["甲某"],
                               "term_of_imprisonment": {"death_penalty": False,
                                                        "imprisonment": 6,
                                                        "life_imprisonment": False}}
    base.update(meta)
    return json.dumps({"fact": FACTS, "meta": base}, ensure_ascii=False)


CAIL_IDS = ["fine a string", "negative fine", "huge term", "article true", "criminals a string",
            "meta a list", "empty fact"]


@pytest.mark.parametrize(argnames=("bad", "reason", "message"), ids=CAIL_IDS, argvalues=[
    (_cail(punish_of_money="many"), "wrong_type",
     "line 2: meta.punish_of_money is a string, not a number"),
    (_cail(punish_of_money=-5), "bad_value", "line 2: meta.punish_of_money -5 is outside 0"),
    (_cail(term_of_imprisonment={"imprisonment": 10**20}), "bad_value",
     "line 2: meta.term_of_imprisonment.imprisonment 100000000000000000000 is outside 0"),
    (_cail(relevant_articles=[True]), "wrong_type",
     "line 2: meta.relevant_articles is not a list of article numbers"),
    (_cail(criminals="甲某"), "wrong_type", "line 2: meta.criminals is a string, not a list"),
    (json.dumps({"fact": FACTS, "meta": []}), "wrong_type", "line 2: meta is a list"),
    (json.dumps({"fact": "", "meta": {}}), "empty_field", "line 2: fact (facts) is empty"),
])
def test_cail_bad_meta_is_rejected_alone(statutes: tuple[Path, Path], tmp_path: Path, bad: str,
                                         reason: str, message: str) -> None:
    cail = write_lines(tmp_path / "data_train.json", [_cail(), bad, _cail()])
    judge = write_lines(tmp_path / "test.json", list(map(good, GOOD_IDS)))
    result = run(statutes, tmp_path / "out", judge, cail)
    assert result.exit_code == 0, result.output
    assert f"parsed 5 judgments (1 rejected: {reason} 1)" in result.output
    (row,) = rejects(tmp_path / "out")
    assert (row["source"], row["line"], row["reason"]) == ("data_train.json", 2, reason)
    assert str(row["message"]).startswith(message), row["message"]
    assert exported_ids(tmp_path / "out") >= set(GOOD_IDS)


# --------------------------------------------------------------------------- statute files
STATUTE_DAMAGE: list[tuple[str, Callable[[Path, Path], Path], str]] = [
    ("law not utf-8", lambda law, csv: _write_bytes(
        law / "criminal_law_PRC_2023_amendment12.md", LAW.encode("gbk")),
     "criminal_law_PRC_2023_amendment12.md: is not UTF-8 text"),
    ("interpretation not utf-8 with an odd name", lambda law, csv: _write_bytes(
        Path(os.fsdecode(bytes(law) + b"/interp_\xff.md")), "数额较大".encode("gbk")),
     "interp_\\xff.md: is not UTF-8 text"),
    ("csv not utf-8", lambda law, csv: _write_bytes(csv, CONFUSABLE.encode("gbk")),
     "similar.csv: is not UTF-8 text"),
    ("interpretation is a fifo", lambda law, csv: _mkfifo(law / "interp_x.md"),
     "interp_x.md: is a named pipe (FIFO), not a regular file"),
]


def _write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _mkfifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(("damage", "message"), [c[1:] for c in STATUTE_DAMAGE],
                         ids=[c[0] for c in STATUTE_DAMAGE])
def test_bad_statute_files_are_a_clear_error(tmp_path: Path, damage: Callable[[Path, Path], Path],
                                             message: str) -> None:
    law, csv = tmp_path / "law", tmp_path / "similar.csv"
    law.mkdir()
    (law / "criminal_law_PRC_2023_amendment12.md").write_text(LAW, encoding="utf-8")
    csv.write_text(CONFUSABLE, encoding="utf-8")
    damage(law, csv)
    src = write_lines(tmp_path / "t.json", list(map(good, GOOD_IDS)))
    holder: dict[str, Result] = {}
    worker = threading.Thread(target=lambda: holder.update(r=run((law, csv), tmp_path / "out",
                                                                 src)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "reading a statute file hung"
    result = holder["r"]
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert result.output.startswith("Error: ") and "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                     SystemExit)


# --------------------------------------------------------------------------- validation
def test_a_row_failing_validation_is_left_out_not_blocking(
        statutes: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import buildds.validate.arbench as validate

    real = validate.validate_arbench
    calls: list[int] = []

    def one_row_fails(rows, **kw):  # type: ignore[no-untyped-def]
        report = real(rows, **kw)
        calls.append(len(rows))
        if len(calls) == 1:  # the first check finds one bad row (as a bad record would)
            victim = next(r.id for r in rows if r.source_id == "g1")
            report.errors.append({"check": "E3_inside_range", "column": "", "ids": [victim],
                                  "message": f"{victim}: term inside the tier's range"})
        return report

    monkeypatch.setattr(validate, "validate_arbench", one_row_fails)
    src = write_lines(tmp_path / "t.json", list(map(good, GOOD_IDS)))
    result = run(statutes, tmp_path / "out", src, extra=("--strict",))
    assert result.exit_code == 1  # --strict: a row was left out
    assert "; 1 rows dropped by validation" in result.output and "FAILED" not in result.output
    assert calls[1] == calls[0] - 1
    (row,) = rejects(tmp_path / "out", stage="validate")
    assert row["reason"] == "E3_inside_range" and row["source_id"] == "g1"
    import pandas as pd

    frame = pd.read_parquet(tmp_path / "out" / "data" / "detection.parquet")
    assert row["id"] not in set(frame["id"]) and len(frame) == calls[1]
    report = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert report["exported"] and report["dropped_rows"] == 1 and report["validation"]["ok"]


def test_failing_rows_only_when_every_error_names_rows() -> None:
    from buildds.validate.arbench import ArbenchValidation

    named = ArbenchValidation(errors=[{"check": "E3_inside_range", "ids": ["a", "b"],
                                       "message": "a: inside"}])
    assert named.failing_rows() == {"a": ("E3_inside_range", "a: inside"),
                                    "b": ("E3_inside_range", "a: inside")}
    unnamed = ArbenchValidation(errors=[*named.errors, {"check": "schema:x", "ids": [],
                                                        "message": "row fails x"}])
    assert unnamed.failing_rows() is None
