"""Case numbers, procedures and the registry of cases read across inputs."""

from __future__ import annotations

import pytest

from buildds.extract.judgments import CaseRegistry, case_number, procedure_of


@pytest.mark.parametrize(("text", "number"), [
    ("某法院 刑事判决书 （2018）渝0240刑初301号 公诉机关", "2018渝0240刑初301号"),
    ("判决书(2015)浦刑初字第43号：", "2015浦刑初字第43号"),
    ("刑事判决书 〔2017〕 京01刑终5号", "2017京01刑终5号"),
    ("no number here", None),
    ("x" * 500 + "（2018）渝0240刑初301号", None),  # only the header counts
])
def test_case_number_of_the_header(text: str, number: str | None) -> None:
    assert case_number(text) == number


@pytest.mark.parametrize(("title", "number", "kind"), [
    ("甲某盗窃罪一审刑事判决书", None, "first"), ("刑事一审", None, "first"),
    ("甲某盗窃罪二审刑事判决书", "2017京01刑初5号", "appeal"),
    ("王某危险驾驶再审刑事判决书", None, "retrial"),
    ("甲某盗窃罪刑事判决书", "2017京01刑终5号", "appeal"),
    ("甲某盗窃罪刑事判决书", "2019鲁01刑再2号", "retrial"),
    (None, "2018渝0240刑初301号", "first"), (None, None, "unknown"),
])
def test_procedure_from_title_then_case_number(title: str | None, number: str | None,
                                               kind: str) -> None:
    assert procedure_of(title, number) == kind


def test_the_registry_keeps_the_first_reader_of_any_key() -> None:
    cases = CaseRegistry()
    assert cases.claim(["a1", "2018x刑初1号"], "a.json line 1") is None
    assert cases.claim([None, "2018x刑初1号"], "b.json line 4") == ("2018x刑初1号", "a.json line 1")
    assert cases.claim(["b2", None], "b.json line 5") is None
    assert cases.claim(["a1"], "c.json line 1") == ("a1", "a.json line 1")
