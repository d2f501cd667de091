"""The evidence templates (``buildds/review/templates/evidence_<kind>.html``) rendered with a
plain autoescaping jinja2 environment, as the app includes them: item text is untrusted."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader, StrictUndefined

import buildds.review
from buildds.review.sources.base import ReviewItem, detect_source
from buildds.review.sources.contracts import ContractsSource
from tests.review.sources.helpers import (
    SCRIPT,
    make_contract_docx,
    make_judgments_out,
    make_scan_out,
)
from tests.review.sources.test_highbar_source import _fake_run

TEMPLATES = Path(buildds.review.__file__).parent / "templates"


def _render(item: ReviewItem) -> str:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                      undefined=StrictUndefined)
    return env.get_template(f"evidence_{item.kind}.html").render(
        item=item, evidence=item.evidence, file_url=lambda path: f"/file/{path}",
        page_url=lambda path, page: f"/page/{path}/{page}")


def _items(kind: str, tmp_path: Path) -> list[ReviewItem]:
    if kind == "judgment":
        return list(detect_source(make_judgments_out(tmp_path / "j")).items())
    if kind == "highbar":
        return list(detect_source(_fake_run(tmp_path)).items())
    from buildds.jobs.contracts import build_contracts

    tmp_path.mkdir(parents=True, exist_ok=True)
    docx = make_contract_docx(tmp_path / "c.docx")
    build_contracts([docx], out=tmp_path / "out", progress=False)
    return list(ContractsSource(tmp_path / "out", corrections=tmp_path / "corr").items())


@pytest.mark.parametrize("kind", ["judgment", "highbar", "contract"])
def test_script_tags_in_item_text_come_out_escaped(kind: str, tmp_path: Path) -> None:
    items = _items(kind, tmp_path)
    assert items
    html = "".join(_render(i) for i in items)
    assert "<script" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert f'data-kind="{kind}"' in html


def test_redlines_are_del_and_ins_elements(tmp_path: Path) -> None:
    judgment = _render(_items("judgment", tmp_path / "a")[0])
    assert "<del>盗窃</del>" in judgment and "<ins>职务侵占</ins>" in judgment
    assert "数额较大" in judgment  # the statute tier
    contract = _render(_items("contract", tmp_path / "b")[0])
    assert f"<ins>月額{SCRIPT.replace('<', '&lt;').replace('>', '&gt;')}</ins>" in contract
    assert "<del>年額</del>" in contract


def test_highbar_shows_both_judges_blind(tmp_path: Path) -> None:
    sub, form = (_render(i) for i in _items("highbar", tmp_path))
    assert "Judge A" in sub and "Judge B" in sub and "States 30 days." in sub
    assert "acme" not in sub and "judge:alpha" not in sub
    assert "score <strong>1</strong>" in form and "partly" in form


def test_no_template_marks_text_safe() -> None:
    for path in TEMPLATES.glob("evidence_*.html"):
        text = path.read_text("utf-8")
        assert "|safe" not in text.replace(" ", "") and "Markup(" not in text, path.name


def test_a_scanned_clause_shows_its_page(tmp_path: Path) -> None:
    out, _ = make_scan_out(tmp_path)
    (item,) = ContractsSource(out, corrections=tmp_path / "corr").items()
    html = _render(item)
    assert f'src="/page/{tmp_path}/in/scan.pdf/2"' in html
    assert 'data-bbox="10,20,300,40"' in html and "OCR confidence" in html
