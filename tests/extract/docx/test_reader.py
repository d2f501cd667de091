"""extract/docx/reader.py: generated .docx fixtures with raw OOXML revisions, comments and numbering,
and the real tracked-change files in ../shared (pandoc's accept/reject outputs as oracle)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from buildds.extract.docx import extract_docx, format_number
from tests.conftest import shared_path

docx = pytest.importorskip("docx")

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
AUTH = 'w:author="Ann" w:date="2024-01-02T03:04:05Z"'

NUMBERING = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="{W_NS}">
 <w:abstractNum w:abstractNumId="0">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimalFullWidth"/><w:lvlText w:val="第%1条"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimalFullWidth"/><w:lvlText w:val="（%2）"/></w:lvl>
 </w:abstractNum>
 <w:abstractNum w:abstractNumId="1">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
 </w:abstractNum>
 <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
 <w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>"""

STYLE = ('<w:style w:type="paragraph" w:styleId="ArticleHeading"><w:name w:val="Article Heading"/>'
         '<w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style>')

COMMENTS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:comments xmlns:w="{W_NS}"><w:comment w:id="0" w:author="Reviewer" w:date="2024-02-03T00:00:00Z">
<w:p><w:r><w:t>Check this.</w:t></w:r></w:p></w:comment></w:comments>"""


def r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def dr(text: str) -> str:
    return f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r>'


def num(num_id: int, ilvl: int) -> str:
    return f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'


BODY = "".join([
    f"<w:p><w:pPr>{num(1, 0)}</w:pPr>{r('（目的）')}</w:p>",
    f"<w:p><w:pPr>{num(1, 1)}</w:pPr>{r('甲は乙に委託する。')}</w:p>",
    # a whole numbered paragraph deleted (content and mark)
    (f'<w:p><w:pPr>{num(1, 1)}<w:rPr><w:del w:id="1" {AUTH}/></w:rPr></w:pPr>'
     f'<w:del w:id="2" {AUTH}>{dr("削除される項目")}</w:del></w:p>'),
    f"<w:p><w:pPr>{num(1, 1)}</w:pPr>{r('最後の項目')}</w:p>",
    f"<w:p><w:pPr>{num(1, 0)}</w:pPr>{r('（報酬）')}</w:p>",
    (f'<w:p><w:pPr>{num(1, 1)}</w:pPr>{r("報酬は")}<w:ins w:id="3" {AUTH}>{r("月額")}</w:ins>'
     f'<w:del w:id="4" {AUTH}>{dr("年額")}</w:del>{r("とする。")}</w:p>'),
    # numbering linked from the paragraph style
    f'<w:p><w:pPr><w:pStyle w:val="ArticleHeading"/></w:pPr>{r("Definitions")}</w:p>',
    f'<w:p><w:pPr><w:pStyle w:val="ArticleHeading"/></w:pPr>{r("Term")}</w:p>',
    # a deleted paragraph mark: merges with the next paragraph in the accepted view
    f'<w:p><w:pPr><w:rPr><w:del w:id="5" {AUTH}/></w:rPr></w:pPr>{r("First half ")}</w:p>',
    f"<w:p>{r('second half.')}</w:p>",
    # a moved paragraph: old place
    (f'<w:p><w:pPr><w:rPr><w:moveFrom w:id="6" {AUTH}/></w:rPr></w:pPr>'
     f'<w:moveFrom w:id="7" {AUTH}>{r("Moved text.")}</w:moveFrom></w:p>'),
    '<w:p><w:commentRangeStart w:id="0"/>' + r("Anchor") + '<w:commentRangeEnd w:id="0"/>'
    '<w:r><w:commentReference w:id="0"/></w:r>' + r(" paragraph.") + "</w:p>",
    # … new place
    (f'<w:p><w:pPr><w:rPr><w:moveTo w:id="8" {AUTH}/></w:rPr></w:pPr>'
     f'<w:moveTo w:id="9" {AUTH}>{r("Moved text.")}</w:moveTo></w:p>'),
    # a table with an inserted row
    "<w:tbl><w:tr><w:tc><w:p>" + r("A") + "</w:p></w:tc><w:tc><w:p>" + r("B") + "</w:p></w:tc></w:tr>"
    f'<w:tr><w:trPr><w:ins w:id="10" {AUTH}/></w:trPr>'
    f'<w:tc><w:p><w:ins w:id="11" {AUTH}>{r("C")}</w:ins></w:p></w:tc>'
    f'<w:tc><w:p><w:ins w:id="12" {AUTH}>{r("D")}</w:ins></w:p></w:tc></w:tr></w:tbl>',
    # fields (displayed result only), tab, break, symbol, formatting change
    '<w:p><w:pPr><w:pPrChange w:id="13" w:author="Bob"><w:pPr/></w:pPrChange></w:pPr>'
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r>' + r("7") +
    '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    '<w:fldSimple w:instr=" DATE ">' + r("X") + "</w:fldSimple>"
    '<w:r><w:tab/><w:t>a</w:t><w:br/><w:t>b\u00ad\u200bc</w:t><w:sym w:font="Wingdings" w:char="F0FC"/></w:r>'
    "</w:p>",
])


def make_docx(path: Path, body: str = BODY, *, comments: bool = True, header: str | None = "HDR",
              prolog: str = "") -> Path:
    """A python-docx document whose document.xml body is replaced by raw OOXML; numbering,
    a numbered paragraph style and comments are injected."""
    d = docx.Document()
    d.add_paragraph("placeholder")
    if header:
        d.sections[0].header.paragraphs[0].text = header
    tmp = path.with_suffix(".base.docx")
    d.save(str(tmp))
    with zipfile.ZipFile(tmp) as zin:
        parts = {i.filename: zin.read(i.filename) for i in zin.infolist()}
    tmp.unlink()
    doc = parts["word/document.xml"].decode()
    sect = re.search(r"<w:sectPr.*</w:sectPr>", doc, re.DOTALL)
    head = doc[: doc.index("<w:body>")]
    head = head.replace("<?xml version='1.0' encoding='UTF-8' standalone='yes'?>", "")
    parts["word/document.xml"] = (f'<?xml version="1.0" encoding="UTF-8"?>{prolog}' + head
                                  + "<w:body>" + body + (sect[0] if sect else "")
                                  + "</w:body></w:document>").encode()
    parts["word/numbering.xml"] = NUMBERING.encode()
    parts["word/styles.xml"] = parts["word/styles.xml"].replace(
        b"</w:styles>", STYLE.encode() + b"</w:styles>")
    if comments:
        parts["word/comments.xml"] = COMMENTS.encode()
        rels = parts["word/_rels/document.xml.rels"].decode().replace(
            "</Relationships>",
            f'<Relationship Id="rId99" Type="{R_NS}/comments" Target="comments.xml"/></Relationships>')
        parts["word/_rels/document.xml.rels"] = rels.encode()
        ct = parts["[Content_Types].xml"].decode().replace(
            "</Types>", '<Override PartName="/word/comments.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/></Types>')
        parts["[Content_Types].xml"] = ct.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in parts.items():
            zout.writestr(name, data)
    return path


@pytest.fixture
def fixture_doc(tmp_path: Path):
    return extract_docx(make_docx(tmp_path / "contract.docx"), source_path="raw/contract.docx")


def test_accepted_view(fixture_doc) -> None:
    assert fixture_doc.view_text("accepted") == [
        "第１条（目的）", "（１）甲は乙に委託する。", "（２）最後の項目", "第２条（報酬）",
        "（１）報酬は月額とする。", "1. Definitions", "2. Term", "First half second half.",
        "Anchor paragraph.", "Moved text.", "A | B", "C | D", "7X\ta\nb\u00ad\u200bc",
    ]


def test_original_view(fixture_doc) -> None:
    assert fixture_doc.view_text("original") == [
        "第１条（目的）", "（１）甲は乙に委託する。", "（２）削除される項目", "（３）最後の項目",
        "第２条（報酬）", "（１）報酬は年額とする。", "1. Definitions", "2. Term", "First half ",
        "second half.", "Moved text.", "Anchor paragraph.", "A | B", "7X\ta\nb\u00ad\u200bc",
    ]


def test_blocks_redline_and_revisions(fixture_doc) -> None:
    blocks = {(b.text, b.exists_in): b for b in fixture_doc.blocks}
    deleted = blocks[("（２）削除される項目", "original")]
    assert deleted.redline == "[-（２）削除される項目-]"
    assert [r.kind for r in deleted.revisions] == ["paragraph_mark_deleted", "deletion"]
    assert deleted.revisions[1].author == "Ann" and deleted.revisions[1].id == "2"
    last = blocks[("（２）最後の項目", "both")]
    assert last.original == "（３）最後の項目" and last.number_text == "（２）"
    assert last.redline == "[-（３）-]{+（２）+}最後の項目"
    pay = blocks[("（１）報酬は月額とする。", "both")]
    assert pay.original == "（１）報酬は年額とする。"
    assert pay.redline == "（１）報酬は{+月額+}[-年額-]とする。"
    assert [(r.kind, r.text, r.date) for r in pay.revisions] == [
        ("insertion", "月額", "2024-01-02T03:04:05Z"), ("deletion", "年額", "2024-01-02T03:04:05Z")]
    assert pay.kind == "list_item" and pay.level == 2
    art = blocks[("第１条（目的）", "both")]
    assert art.number_text == "第１条" and art.original is None and art.redline is None
    assert blocks[("1. Definitions", "both")].number_text == "1."
    merged = blocks[("First half second half.", "both")]
    assert merged.original == "First half "
    assert merged.redline == "First half [-¶-]second half."
    assert blocks[("second half.", "original")].revisions == ()
    moved_from = blocks[("Moved text.", "original")]
    moved_to = blocks[("Moved text.", "accepted")]
    assert moved_from.index < moved_to.index
    assert "move_from" in [r.kind for r in moved_from.revisions]
    assert "move_to" in [r.kind for r in moved_to.revisions]
    row = blocks[("C | D", "accepted")]
    assert row.kind == "table_row" and row.revisions[0].kind == "row_inserted"
    assert row.redline == "{+C | D+}"
    field = blocks[("7X\ta\nb\u00ad\u200bc", "both")]
    assert [r.kind for r in field.revisions] == ["formatting"] and field.redline is None
    assert [b.source_index for b in fixture_doc.blocks[:3]] == [0, 1, 2]


def test_header_comment_problems_source(fixture_doc) -> None:
    headers = [b for b in fixture_doc.blocks if b.part == "header"]
    assert [h.text for h in headers] == ["HDR"]
    assert fixture_doc.blocks[-1].part == "header"
    (comment,) = fixture_doc.comments
    assert (comment.id, comment.author, comment.text, comment.anchor) == (
        "0", "Reviewer", "Check this.", "Anchor")
    assert fixture_doc.blocks[comment.block].text == "Anchor paragraph."
    assert [p.code for p in fixture_doc.problems] == ["docx_symbol_skipped"]
    assert fixture_doc.problems[0].severity == "warning"
    assert fixture_doc.source.path == "raw/contract.docx" and len(fixture_doc.source.sha256) == 64
    assert fixture_doc.revision_count == sum(len(b.revisions) for b in fixture_doc.blocks)


def test_external_entity_is_never_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-MARKER")
    prolog = f'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file://{secret}">]>'
    path = make_docx(tmp_path / "xxe.docx", body="<w:p><w:r><w:t>a&xxe;b</w:t></w:r></w:p>",
                     prolog=prolog, comments=False, header=None)
    doc = extract_docx(path)
    assert "TOPSECRET" not in doc.model_dump_json()


@pytest.mark.parametrize("n,fmt,out", [
    (1, "decimalFullWidth", "１"), (12, "decimalFullWidth", "１２"), (3, "japaneseCounting", "三"),
    (21, "japaneseCounting", "二十一"), (10, "japaneseCounting", "十"), (2, "aiueoFullWidth", "イ"),
    (3, "iroha", "ﾊ"), (3, "irohaFullWidth", "ハ"), (4, "decimalEnclosedCircle", "④"),
    (25, "decimalEnclosedCircle", "㉕"), (4, "upperRoman", "IV"), (14, "lowerRoman", "xiv"),
    (2, "lowerLetter", "b"), (27, "upperLetter", "AA"), (2, "ideographTraditional", "乙"),
    (7, "decimal", "7"), (7, "somethingNew", "7"),
])
def test_format_number(n: int, fmt: str, out: str) -> None:
    assert format_number(n, fmt) == out


# --------------------------------------------------------------------------- real files
CONTRACTS = ("realdata", "contracts")


def _native_paragraphs(text: str) -> list[str]:
    """Paragraph texts from pandoc's native AST (Haskell ``show``): Str/Space tokens."""
    paras: list[list[str]] = []
    token = re.compile(r'\b(?:Para|Plain) \[|Str "((?:[^"\\]|\\.)*)"|\b(Space|SoftBreak|LineBreak)\b')
    for m in token.finditer(text):
        if m[0].endswith("["):
            paras.append([])
        elif m[1] is not None:
            s = re.sub(r"\\(\d+)", lambda d: chr(int(d[1])), m[1]).replace("\\&", "")
            paras[-1].append(s.replace('\\"', '"').replace("\\\\", "\\"))
        else:
            paras[-1].append(" ")
    return ["".join(p) for p in paras]


def _squash(texts: list[str]) -> list[str]:
    return [re.sub(r"\s+", "", t) for t in texts if t.strip()]


PANDOC = ["track_changes_insertion", "track_changes_deletion", "track_changes_move",
          "paragraph_insertion_deletion"]


@pytest.mark.parametrize("name", PANDOC)
@pytest.mark.parametrize("view,suffix", [("accepted", "accept"), ("original", "reject")])
def test_pandoc_accept_reject(name: str, view: str, suffix: str) -> None:
    folder = shared_path(*CONTRACTS, "tc_pandoc")
    doc = extract_docx(folder / f"{name}.docx")
    expected = _native_paragraphs((folder / f"{name}_{suffix}.native").read_text("utf-8"))
    assert _squash(doc.view_text(view)) == _squash(expected)  # type: ignore[arg-type]


def test_pandoc_comments() -> None:
    folder = shared_path(*CONTRACTS, "tc_pandoc")
    doc = extract_docx(folder / "comments.docx")
    native = (folder / "comments.native").read_text("utf-8")
    expected = re.findall(r'\("id","(\d+)"\),\("author","([^"]*)"\)', native)
    assert [(c.id, c.author) for c in doc.comments] == expected
    assert doc.comments[0].text == "I left a comment."
    assert doc.comments[2].text == "This one has multiple paragraphs.\nSee?"
    assert doc.comments[0].anchor == "some text to have a comment"
    assert all(c.block is not None for c in doc.comments)
    assert _squash(doc.view_text("accepted")) == _squash([
        "I want some text to have a comment on it.", "This is a new paragraph.",
        "And so is this.", "One more. And this is one with a comment in a comment."])


def _rows(doc, view: str) -> list[str]:
    return [b.in_view(view) for b in doc.blocks if b.kind == "table_row"
            and b.in_view(view) is not None]


def test_openxml_inserted_and_deleted_rows() -> None:
    folder = shared_path(*CONTRACTS, "tc_openxml-powertools")
    ins = extract_docx(folder / "RP012-Multiple-Inserted-Rows.docx")
    assert _rows(ins, "original") == ["1 | 2 | 3", "A | B | C"]
    assert len(_rows(ins, "accepted")) == 6
    assert all(any(r.kind == "row_inserted" for r in b.revisions)
               for b in ins.blocks if b.exists_in == "accepted")
    dele = extract_docx(folder / "RP011-Multiple-Deleted-Rows.docx")
    assert _rows(dele, "accepted") == ["1 | 2 | 3", "M | N | O"]
    assert len(_rows(dele, "original")) == 8


@pytest.mark.parametrize("path", [("tc_openxml-powertools", "014-MovedParagraph.docx"),
                                  ("tc_openxml-powertools", "RP015-MoveFrom-MoveTo.docx"),
                                  ("tc_pandoc", "track_changes_move.docx")])
def test_moves_once_per_view(path: tuple[str, str]) -> None:
    doc = extract_docx(shared_path(*CONTRACTS, *path))
    moved = [b for b in doc.blocks if any(r.kind == "move_to" for r in b.revisions)]
    assert moved
    text = moved[0].text
    acc, orig = doc.view_text("accepted"), doc.view_text("original")
    assert acc.count(text) == 1 and orig.count(text) == 1
    assert acc.index(text) != orig.index(text)
    # everything else keeps its order
    assert [t for t in acc if t != text] == [t for t in orig if t != text]


def test_deleted_paragraph_marks_merge() -> None:
    folder = shared_path(*CONTRACTS, "tc_openxml-powertools")
    doc = extract_docx(folder / "RP042-Deleted-Para-Mark-at-End.docx")
    assert len(doc.view_text("accepted")) < len(doc.view_text("original"))
    doc = extract_docx(folder / "RP052-Deleted-Para-Mark.docx")
    (block,) = [b for b in doc.blocks if any(r.kind == "paragraph_mark_deleted"
                                                for r in b.revisions)]
    assert block.text == "5.0 Supplier obligations"
    doc = extract_docx(shared_path(*CONTRACTS, "tc_pandoc", "paragraph_insertion_deletion.docx"))
    assert doc.blocks[0].redline == "This is a{+¶+} split"


def _all_docx() -> list[Path]:
    root = shared_path(*CONTRACTS)
    return sorted(root.rglob("*.docx"))


def test_every_real_docx_opens() -> None:
    files = _all_docx()
    assert len(files) >= 30
    for f in files:
        doc = extract_docx(f)
        assert doc.blocks, f
        for b in doc.blocks:
            assert b.exists_in != "both" or b.text is not None
        assert [b.index for b in doc.blocks] == list(range(len(doc.blocks)))


def test_tracked_counts_sg() -> None:
    doc = extract_docx(shared_path(*CONTRACTS, "en_superdoc-redlines", "SG.docx"))
    kinds = [r.kind for b in doc.blocks for r in b.revisions]
    assert kinds.count("insertion") == 206 and kinds.count("deletion") == 213
    assert not any("PAGEREF" in b.text for b in doc.blocks)


@pytest.mark.parametrize("name", ["業務委託基本契約書.docx", "秘密保持契約書.docx"])
def test_japanese_article_numbers_from_numbering(name: str) -> None:
    doc = extract_docx(shared_path(*CONTRACTS, "jp_moriyoshi-freelance-kit", name))
    numbers = [b.number_text for b in doc.blocks
               if b.number_text and re.fullmatch(r"第[0-9０-９]+条", b.number_text)]
    assert len(numbers) >= 5
    values = [int(n[1:-1].translate(str.maketrans("０１２３４５６７８９", "0123456789")))
              for n in numbers]
    assert values == list(range(1, len(values) + 1))
    for b in doc.blocks:
        if b.number_text:
            assert b.text.startswith(b.number_text)
