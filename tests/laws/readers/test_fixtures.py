"""The statute readers on small files written by the tests: each format's structure
(の二 articles, 削除 ranges, items with sub-items, ruby), and bad input — a malformed file,
an XML with a DOCTYPE/entity, an unknown format — as an ExtractError naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.errors import ExtractError
from buildds.laws.readers import (
    read_egov_html,
    read_egov_xml,
    read_law,
    read_oldsystem_text,
    read_prc_markdown,
    sniff_law_format,
)
from buildds.schema.laws import LawText

LAW_XML = """<Law Era="Meiji" Year="40" Num="045" LawType="Act" Lang="ja">
<LawNum>明治四十年法律第四十五号</LawNum>
<LawBody><LawTitle>刑法</LawTitle>
<MainProvision><Part Num="1"><PartTitle>第一編</PartTitle><Chapter Num="1"><ChapterTitle>第一章</ChapterTitle>
<Article Num="3_2"><ArticleCaption>（<Ruby>賭<Rt>と</Rt></Ruby>博）</ArticleCaption>
<ArticleTitle>第三条の二</ArticleTitle>
<Paragraph Num="1"><ParagraphNum/><ParagraphSentence>
  <Sentence Num="1" Function="main">次に掲げる者は、罰する。</Sentence>
  <Sentence Num="2" Function="proviso">ただし、この限りでない。</Sentence>
</ParagraphSentence>
<Item Num="1"><ItemTitle>一</ItemTitle><ItemSentence><Sentence Num="1">甲</Sentence></ItemSentence>
  <Subitem1 Num="1"><Subitem1Title>イ</Subitem1Title><Subitem1Sentence>
    <Column Num="1"><Sentence Num="1">乙</Sentence></Column>
    <Column Num="2"><Sentence Num="1">丙</Sentence></Column></Subitem1Sentence>
    <Subitem2 Num="1"><Subitem2Title>（１）</Subitem2Title><Subitem2Sentence><Sentence Num="1">丁</Sentence></Subitem2Sentence></Subitem2>
  </Subitem1></Item>
<Item Num="2"><ItemTitle>二</ItemTitle><ItemSentence><Sentence Num="1">削除</Sentence></ItemSentence></Item>
</Paragraph>
<Paragraph Num="2"><ParagraphNum>２</ParagraphNum><ParagraphSentence><Sentence Num="1">前項の例による。</Sentence></ParagraphSentence></Paragraph>
</Article></Chapter>
<Chapter Num="2"><ChapterTitle>第二章　削除</ChapterTitle><Section Num="1"><SectionTitle>第一節</SectionTitle>
<Article Num="73:76"><ArticleTitle>第七十三条から第七十六条まで</ArticleTitle>
<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence Num="1">削除</Sentence></ParagraphSentence></Paragraph>
</Article></Section></Chapter></Part></MainProvision>
<SupplProvision><SupplProvisionLabel>附　則</SupplProvisionLabel>
<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence Num="1">この法律は、公布の日から施行する。</Sentence></ParagraphSentence></Paragraph></SupplProvision>
<SupplProvision AmendLawNum="令和四年六月一七日法律第六七号" Extract="true"><SupplProvisionLabel>附　則</SupplProvisionLabel>
<Article Num="1"><ArticleCaption>（施行期日）</ArticleCaption><ArticleTitle>第一条</ArticleTitle>
<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence Num="1">この法律は、政令で定める日から施行する。</Sentence></ParagraphSentence></Paragraph></Article>
<Article Num="2"><ArticleTitle>第二条</ArticleTitle><Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence Num="1">経過措置。</Sentence></ParagraphSentence></Paragraph></Article>
</SupplProvision>
</LawBody></Law>"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _check_structure(law: LawText) -> None:
    keys = [a.article for a in law.articles]
    assert keys == ["3_2", "73", "74", "75", "76"]
    art = law.articles[0]
    assert (art.article_title, art.caption, art.deleted) == ("第三条の二", "（賭博）", False)
    assert art.paragraphs[0].sentence == "次に掲げる者は、罰する。ただし、この限りでない。"
    assert [(i.label, i.text) for i in art.paragraphs[0].items] == [
        ("一", "甲"), ("イ", "乙　丙"), ("（１）", "丁"), ("二", "削除")]
    assert art.flat == "次に掲げる者は、罰する。ただし、この限りでない。甲乙丙丁削除前項の例による。"
    assert art.text.endswith("二　削除\n２　前項の例による。")
    assert all(a.deleted and a.article_title == "第七十三条から第七十六条まで"
               for a in law.articles[1:])


def test_bare_law_xml(tmp_path: Path) -> None:
    law = read_egov_xml(_write(tmp_path, "law.xml", LAW_XML))
    assert (law.law_id, law.law_title) == ("140AC0000000045", "刑法")
    _check_structure(law)
    first, amend = law.suppl_provisions
    assert first.amend_law_num is None and first.full_text.startswith("附則この法律は")
    assert amend.amend_law_num == "令和四年六月一七日法律第六七号"
    assert amend.enforcement_clause == "（施行期日）第一条この法律は、政令で定める日から施行する。"
    assert amend.full_text.endswith("第二条経過措置。")
    assert law.source.path.endswith("law.xml") and len(law.source.sha256) == 64


def test_api_v1_dataroot_xml(tmp_path: Path) -> None:
    wrapped = ('<?xml version="1.0" encoding="UTF-8"?>\n<DataRoot><Result><Code>0</Code>'
               "<Message/></Result><ApplData><LawId>140AC0000000045</LawId><LawFullText>"
               + LAW_XML + "</LawFullText></ApplData></DataRoot>")
    path = _write(tmp_path, "anything.bin", wrapped)
    assert sniff_law_format(path.read_bytes()) == "egov_xml"
    _check_structure(read_law(path))


def test_api_error_response(tmp_path: Path) -> None:
    path = _write(tmp_path, "err.xml", "<DataRoot><Result><Code>1</Code><Message>該当する"
                  "データがありません</Message></Result></DataRoot>")
    with pytest.raises(ExtractError, match=r"err\.xml: e-Gov API error response \(Code 1: 該当"):
        read_law(path)


def test_xml_with_entity_is_refused_not_expanded(tmp_path: Path) -> None:
    secret = _write(tmp_path, "secret.txt", "SECRET")
    doc = (f'<?xml version="1.0"?><!DOCTYPE Law [<!ENTITY x SYSTEM "file://{secret}">'
           '<!ENTITY y "YYYY">]>' + LAW_XML.replace("甲", "&x;&y;"))
    path = _write(tmp_path, "evil.xml", doc)
    with pytest.raises(ExtractError, match=r"evil\.xml: XML with a DOCTYPE is refused"):
        read_law(path)


@pytest.mark.parametrize(("name", "text", "message"), [
    ("broken.xml", "<Law><LawBody>", "not well-formed XML"),
    ("other.xml", "<Document/>", "not a statute file"),
    ("nomain.xml", "<Law><LawNum>明治四十年法律第四十五号</LawNum><LawBody/></Law>",
     "no LawBody/MainProvision"),
    ("noid.xml", "<Law><LawNum>告示</LawNum><LawBody><MainProvision/></LawBody></Law>",
     "cannot tell the law id"),
    ("notes.txt", "just some notes\n", "not a statute file"),
    ("page.html", "<!DOCTYPE html><html><body><p>hello</p></body></html>",
     "not an e-Gov law page"),
])
def test_unreadable_files_name_themselves(tmp_path: Path, name: str, text: str,
                                          message: str) -> None:
    path = _write(tmp_path, name, text)
    with pytest.raises(ExtractError, match=message) as err:
        read_law(path)
    assert name in str(err.value)


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "blob.dat"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ExtractError, match=r"blob\.dat: not UTF-8"):
        read_law(path)


HTML = """<!DOCTYPE html><html><head><title>刑法 | e-Gov法令検索</title></head><body>
<div id="lawTitleNo" class="_shokanBoxParent">明治四十年法律第四十五号<div class="_shokanBox"></div></div>
<div id="lawTitle">刑法</div>
<section class="active Article"><div class="_div_ArticleCaption _shokanBoxParent"><span>（<ruby>賭<rt>と</rt></ruby>博）</span></div>
<div style="" class="_div_ArticleTitle"><span style="font-weight: bold;">第三条の二</span>　次に掲げる者は、罰する。ただし、この限りでない。<div class="_div_ItemSentence"><span style="font-weight: bold;">一</span>　甲</div>
<div class="_div_Subitem1Sentence"><span style="font-weight: bold;">イ</span>　乙　丙</div></div>
<div class="_div_Subitem2Sentence"><span style="font-weight: bold;">（１）</span>　丁<div class="_inyoBox"></div></div>
<div class="_div_ItemSentence"><span style="font-weight: bold;">二</span>　削除</div>
<div class="_div_ParagraphSentence"><span style="font-weight: bold;">２</span>　前項の例による。</div></section>
<section class="active Chapter"><div class="_div_ChapterTitle">第二章　削除</div></section>
<section class="active Article"><div class="_div_ArticleTitle"><span style="font-weight: bold;">第七十三条から第七十六条まで</span>　削除</div></section>
<section class="active SupplProvision"><div class="_div_SupplProvisionLabel SupplProvisionLabel">附　則　（令和四年六月一七日法律第六七号）　抄</div>
<section class="active Article"><div class="_div_ArticleCaption">（施行期日）</div><div class="_div_ArticleTitle"><span style="font-weight: bold;">第一条</span>　この法律は、政令で定める日から施行する。</div></section>
<section class="active Article"><div class="_div_ArticleTitle"><span style="font-weight: bold;">第二条</span>　経過措置。</div></section>
</section></body></html>"""


def test_egov_html(tmp_path: Path) -> None:
    path = _write(tmp_path, "page.html", HTML)
    assert sniff_law_format(path.read_bytes()) == "egov_html"
    law = read_egov_html(path)
    assert (law.law_id, law.law_title) == ("140AC0000000045", "刑法")
    _check_structure(law)
    (suppl,) = law.suppl_provisions
    assert suppl.amend_law_num == "令和四年六月一七日法律第六七号"
    assert suppl.enforcement_clause == "（施行期日）第一条この法律は、政令で定める日から施行する。"


OLD = """

刑法
（明治四十年四月二十四日法律第四十五号）最終改正：平成二五年六月一九日法律第四九号

　　第一章　通則（第三条の二）


　　第一編　総則

　　　第一章　通則


（賭博）
第三条の二

　次に掲げる者は、罰する。ただし、この
限りでない。
一

　甲

イ

　乙　丙

二

　削除

２

　前項の例による。


　　第二編　罪

　　　第一章　削除

第七十三条から第七十六条まで

　削除



　　　附　則　（令和四年六月一七日法律第六七号）　抄

（施行期日）
第一条

　この法律は、政令で定める日から施行する。

（経過措置）
第二条

　経過措置。
"""


def test_oldsystem_text(tmp_path: Path) -> None:
    path = _write(tmp_path, "dump.txt", OLD)
    assert sniff_law_format(path.read_bytes()) == "oldsystem_text"
    law = read_oldsystem_text(path)
    assert (law.law_id, law.law_title) == ("140AC0000000045", "刑法")
    keys = [a.article for a in law.articles]
    assert keys == ["3_2", "73", "74", "75", "76"]
    art = law.articles[0]
    assert art.caption == "（賭博）"
    assert art.paragraphs[0].sentence == "次に掲げる者は、罰する。ただし、この限りでない。"
    assert [(i.label, i.text) for i in art.paragraphs[0].items] == [
        ("一", "甲"), ("イ", "乙　丙"), ("二", "削除")]
    assert art.text.endswith("二　削除\n２　前項の例による。")
    assert all(a.deleted for a in law.articles[1:])
    (suppl,) = law.suppl_provisions
    assert suppl.amend_law_num == "令和四年六月一七日法律第六七号"
    assert suppl.enforcement_clause == "（施行期日）第一条この法律は、政令で定める日から施行する。"
    assert suppl.full_text.endswith("（経過措置）第二条経過措置。")


PRC = """# 中华人民共和国刑法

1997年3月14日 第八届全国人民代表大会第五次会议修订

<!-- INFO END -->

## 第一编 总则

第十七条 已满十六周岁的人犯罪，应当负刑事责任。

第十七条之一 已满七十五周岁的人故意犯罪的，可以从轻或者减轻处罚。

### 第二章 犯罪

第一百三十三条之一 在道路上驾驶机动车，有下列情形之一的，处拘役，并处罚金：

（一）追逐竞驶，情节恶劣的；

（二）醉酒驾驶机动车的。

有前款行为，同时构成其他犯罪的，依照处罚较重的规定定罪处罚。

## 附件一

1．关于禁毒的决定

① 编者注。
"""


def test_prc_markdown(tmp_path: Path) -> None:
    path = _write(tmp_path, "law.md", PRC)
    assert sniff_law_format(path.read_bytes()) == "prc_markdown"
    law = read_prc_markdown(path)
    assert (law.law_id, law.law_title) == ("CN-CRIMINAL-LAW", "中华人民共和国刑法")
    assert [a.article for a in law.articles] == ["17", "17_1", "133_1"]
    art = law.articles[2]
    assert art.article_title == "第一百三十三条之一"
    assert [(i.label, i.text) for i in art.paragraphs[0].items] == [
        ("（一）", "追逐竞驶，情节恶劣的；"), ("（二）", "醉酒驾驶机动车的。")]
    assert [p.num for p in art.paragraphs] == [1, 2]
    assert "禁毒" not in art.flat and "编者注" not in art.flat
    assert art.flat.endswith("依照处罚较重的规定定罪处罚。")


def test_prc_other_law_needs_an_id(tmp_path: Path) -> None:
    path = _write(tmp_path, "civil.md", "# 中华人民共和国民法典\n\n第一条 为了保护民事主体。\n")
    with pytest.raises(ExtractError, match=r"civil\.md: no law id known"):
        read_law(path)
    assert read_prc_markdown(path, law_id="CN-CIVIL-CODE").articles[0].law_id == "CN-CIVIL-CODE"


def test_prc_amendment_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "amend.md", "# 中华人民共和国刑法修正案（十二）\n\n"
                  "一、在刑法第一百六十五条中增加一款作为第二款。\n")
    with pytest.raises(ExtractError, match=r"amend\.md: .*is an amendment, not a consolidated"):
        read_law(path)


def _limit(monkeypatch: pytest.MonkeyPatch, value: int) -> None:
    from dataclasses import replace

    from buildds.safeio import LIMITS

    monkeypatch.setitem(LIMITS, "statute_articles",
                        replace(LIMITS["statute_articles"], default=value))


def test_a_file_with_more_articles_than_the_limit_is_refused(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Counted before the articles are built (a 300,000-article file once took 14 s and 1 GB),
    named with the limit and how to raise it."""
    from buildds.errors import LimitExceeded

    path = _write(tmp_path, "law.xml", LAW_XML)  # two Article elements
    _limit(monkeypatch, 1)
    with pytest.raises(LimitExceeded, match="statute_articles") as err:
        read_egov_xml(path)
    assert err.value.source == str(path)
    _limit(monkeypatch, 2)
    with pytest.raises(ExtractError, match="makes 4 articles, more than the limit of 2"):
        read_egov_xml(path)  # the 削除 range 第七十三条から第七十六条まで counts each
    _limit(monkeypatch, 20_000)
    assert len(read_egov_xml(path).articles) == 5


def test_article_jsonl_lines_are_read_within_the_json_limits(tmp_path: Path) -> None:
    """JSON nested past the json_depth limit is refused, never parsed: on the first line the
    file is not taken for article JSONL at all; on a later one, that line is named."""
    from buildds.laws.readers import read_law

    def line(article: str, paragraphs: str) -> str:
        return ('{"law_id": "140AC0000000045", "article": "' + article + '", "flat": "x", '
                '"text": "x", "article_title": "第' + article + '条", "paragraphs": '
                + paragraphs + "}\n")

    deep = "[" * 1000 + "]" * 1000
    first = _write(tmp_path, "first.jsonl", line("1", deep))
    with pytest.raises(ExtractError, match="not a statute file buildds can read"):
        read_law(first)
    later = _write(tmp_path, "later.jsonl", line("1", "[]") + line("2", deep))
    with pytest.raises(ExtractError, match="line 2") as err:
        read_law(later)
    assert err.value.source == str(later)
