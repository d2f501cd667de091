"""e-Gov Law XML → :class:`~buildds.schema.laws.LawText`.

Reads both the 法令API v1 ``lawdata`` response (``<DataRoot><Result>…<ApplData><LawId>…
<LawFullText><Law>``) and a bare ``<Law>`` document (API v2 and the bulk download use the
same Law schema). Every ``Article`` of the ``MainProvision`` becomes one article, whatever
Part/Chapter/Section/Subsection/Division holds it; a deleted range (``Num="73:76"``,
第七十三条から第七十六条まで) becomes one article per number. Paragraph sentences join their
``Sentence`` elements (table columns are separated by 「　」); ``Item`` and every
``Subitem1``…``Subitem10`` under it become items, in document order. Ruby readings (``Rt``)
are dropped. Each ``SupplProvision`` becomes a
:class:`~buildds.schema.laws.SupplProvision`: its ``AmendLawNum``, its first article or
paragraph as ``enforcement_clause`` and the whole block as ``full_text`` (both without
whitespace).

Parsed with :func:`buildds.safeio.xml.safe_parser`; a document with a DOCTYPE is refused,
so no entity can be declared, let alone expanded.
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from buildds.errors import ExtractError
from buildds.laws.articles import article_keys, expand_key_range, law_id_from_number, make_article
from buildds.laws.readers.common import counted, read_statute_bytes, source_of
from buildds.safeio.xml import safe_parser
from buildds.schema.laws import LawArticle, LawItem, LawParagraph, LawText, SupplProvision

__all__ = ["parse_egov_xml", "read_egov_xml"]

_WS_RE = re.compile(r"\s+")
_ERAS = {"Meiji": "1", "Taisho": "2", "Showa": "3", "Heisei": "4", "Reiwa": "5"}
_LAW_TYPES = {"Act": "AC", "CabinetOrder": "CO"}
_SUBITEMS = tuple(f"Subitem{n}" for n in range(1, 11))


def read_egov_xml(path: str | Path) -> LawText:
    """One e-Gov XML file (API v1 ``DataRoot`` response or a bare ``Law``) as a LawText."""
    data = read_statute_bytes(path)
    return parse_egov_xml(data, path)


def parse_egov_xml(data: bytes, path: str | Path) -> LawText:
    """The bytes of an e-Gov XML file; ``path`` names it in errors and the source."""
    where = str(path)
    try:
        root = etree.fromstring(data, parser=safe_parser())
    except etree.XMLSyntaxError as exc:
        raise ExtractError(f"not well-formed XML: {exc}", source=where) from None
    if root.getroottree().docinfo.doctype:
        raise ExtractError("XML with a DOCTYPE is refused (entities are never expanded)",
                           source=where)
    law_id = None
    if root.tag == "DataRoot":
        code = (root.findtext("Result/Code") or "").strip()
        if code != "0":
            message = (root.findtext("Result/Message") or "").strip()
            raise ExtractError(f"e-Gov API error response (Code {code or '?'}: {message})",
                               source=where)
        # some responses give a revision id ({law_id}_{YYYYMMDD}_{amending law}) here
        law_id = (root.findtext("ApplData/LawId") or "").strip().split("_")[0] or None
        law = root.find("ApplData/LawFullText/Law")
        if law is None:
            raise ExtractError("DataRoot has no ApplData/LawFullText/Law", source=where)
    elif root.tag == "Law":
        law = root
    else:
        raise ExtractError(f"not e-Gov Law XML (root element <{root.tag}>)", source=where)
    etree.strip_elements(law, "Rt", with_tail=False)
    law_id = law_id or _law_id(law, where)
    title = _text(law.find("LawBody/LawTitle"))
    main = law.find("LawBody/MainProvision")
    if main is None:
        raise ExtractError("Law has no LawBody/MainProvision", source=where)
    articles: list[LawArticle] = []
    for element in counted(main.iter("Article"), where):
        articles.extend(_articles(element, law_id, where))
    suppl = tuple(_suppl(element) for element in law.iterfind("LawBody/SupplProvision"))
    return LawText(law_id=law_id, law_title=title, articles=tuple(articles),
                   suppl_provisions=suppl, source=source_of(path, data))


def _law_id(law: etree._Element, where: str) -> str:
    era, kind = _ERAS.get(law.get("Era", "")), _LAW_TYPES.get(law.get("LawType", ""))
    year, num = law.get("Year", ""), law.get("Num", "")
    if era and kind and year.isdigit() and num.isdigit():
        return f"{era}{int(year):02d}{kind}{int(num):010d}"
    law_id = law_id_from_number(_text(law.find("LawNum")))
    if law_id is None:
        raise ExtractError("cannot tell the law id (no LawId, no act or cabinet-order "
                           "number)", source=where)
    return law_id


def _text(element: etree._Element | None) -> str:
    """The element's text (Rt already stripped), whitespace runs removed at the ends."""
    if element is None:
        return ""
    return "".join(element.itertext()).strip()


def _sentence(element: etree._Element | None) -> str:
    """A ParagraphSentence/ItemSentence: its Sentence texts joined; columns by 「　」."""
    if element is None:
        return ""
    columns = element.findall("Column")
    if columns:
        return "　".join(_sentence(column) for column in columns)
    sentences = element.findall("Sentence")
    if not sentences:
        return _text(element)
    return "".join(_text(sentence) for sentence in sentences)


def _items(paragraph: etree._Element) -> tuple[LawItem, ...]:
    items: list[LawItem] = []
    for element in paragraph.iter("Item", *_SUBITEMS):
        tag = element.tag
        items.append(LawItem(label=_text(element.find(f"{tag}Title")),
                             text=_sentence(element.find(f"{tag}Sentence"))))
    return tuple(items)


def _articles(element: etree._Element, law_id: str, where: str) -> list[LawArticle]:
    title = _text(element.find("ArticleTitle"))
    caption = _text(element.find("ArticleCaption")) or None
    paragraphs = tuple(
        LawParagraph(num=n, sentence=_sentence(p.find("ParagraphSentence")), items=_items(p))
        for n, p in enumerate(element.findall("Paragraph"), start=1))
    try:
        keys = _keys(element.get("Num", ""), title)
    except ValueError as exc:
        raise ExtractError(f"article {title or element.get('Num')!r}: {exc}",
                           source=where) from None
    return [make_article(law_id, key, title, caption, paragraphs) for key in keys]


def _keys(num: str, title: str) -> list[str]:
    """``Num="3_2"`` → [3_2]; ``Num="73:76"`` → 73 … 76; the heading when Num is missing."""
    if re.fullmatch(r"\d+(?:_\d+)*", num):
        return [num]
    if re.fullmatch(r"\d+(?:_\d+)*:\d+(?:_\d+)*", num):
        first, last = num.split(":")
        return expand_key_range(first, last, title)
    return article_keys(title)


def _suppl(element: etree._Element) -> SupplProvision:
    first = next((child for child in element if child.tag in ("Article", "Paragraph")), None)

    def squeeze(el: etree._Element | None) -> str:
        return _WS_RE.sub("", "".join(el.itertext())) if el is not None else ""

    return SupplProvision(amend_law_num=element.get("AmendLawNum") or None,
                          enforcement_clause=squeeze(first), full_text=squeeze(element))
