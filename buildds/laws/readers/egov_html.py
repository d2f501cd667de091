"""e-Gov 法令検索 HTML page → :class:`~buildds.schema.laws.LawText`.

The page's statute is a run of ``div`` blocks classed by the Law XML element they render:
``_div_ArticleCaption`` (見出し), ``_div_ArticleTitle`` (第N条 and the first paragraph),
``_div_ParagraphSentence`` (２　…), ``_div_ItemSentence`` (一　…) and
``_div_Subitem1Sentence``… (イ　…). They are read in document order — not by the
``section`` that holds them, because edited pages leave some articles outside their section
(民法 art. 1 in ``min.html``) — up to the first ``SupplProvision`` section; each of those
becomes a :class:`~buildds.schema.laws.SupplProvision`. The printed label (a bold ``span``)
is taken apart from the text; ruby readings (``rt``) and e-Gov's empty citation boxes are
dropped. The law id comes from the law number (``lawTitleNo``).

Parsed with lxml's HTML parser without network access; HTML's own character references
are the only entities it knows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree, html

from buildds.errors import ExtractError
from buildds.laws.articles import article_keys, law_id_from_number, make_article
from buildds.laws.readers.common import counted, read_statute_bytes, source_of
from buildds.schema.laws import LawArticle, LawItem, LawParagraph, LawText, SupplProvision

__all__ = ["parse_egov_html", "read_egov_html"]

_WS_RE = re.compile(r"\s+")
_ITEM_RE = re.compile(r"^_div_(?:Item|Subitem\d+)Sentence$")
_SUPPL_NUM_RE = re.compile(r"（([^（）]*号)）")


@dataclass
class _Draft:
    title: str
    caption: str | None
    paragraphs: list[LawParagraph] = field(default_factory=list)


def read_egov_html(path: str | Path) -> LawText:
    """One e-Gov 法令検索 page (saved HTML) as a LawText."""
    data = read_statute_bytes(path)
    return parse_egov_html(data, path)


def parse_egov_html(data: bytes, path: str | Path) -> LawText:
    """The bytes of an e-Gov page; ``path`` names it in errors and the source."""
    where = str(path)
    parser = html.HTMLParser(encoding="utf-8", no_network=True, remove_comments=True,
                             remove_pis=True)
    try:
        doc = html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractError(f"not readable as HTML: {exc}", source=where) from None
    etree.strip_elements(doc, "rt", "rp", "script", "style", with_tail=False)
    for box in doc.xpath("//div[@class]"):
        if {"_shokanBox", "_inyoBox"} & set(_classes(box)):
            box.drop_tree()
    number_el = doc.get_element_by_id("lawTitleNo", None)
    law_num = _clean(number_el.text_content()) if number_el is not None else ""
    law_id = law_id_from_number(law_num)
    if law_id is None:
        raise ExtractError("not an e-Gov law page (no readable law number in #lawTitleNo, "
                           f"found {law_num!r})", source=where)
    title_el = doc.get_element_by_id("lawTitle", None)
    title = _clean(title_el.text_content()) if title_el is not None else ""
    drafts, suppl = _walk(doc)
    if not drafts:
        raise ExtractError("e-Gov page without articles", source=where)
    articles: list[LawArticle] = []
    for draft in counted(drafts, where):
        try:
            keys = article_keys(draft.title)
        except ValueError as exc:
            raise ExtractError(f"article {draft.title!r}: {exc}", source=where) from None
        articles.extend(make_article(law_id, key, draft.title, draft.caption, draft.paragraphs)
                        for key in keys)
    return LawText(law_id=law_id, law_title=title, articles=tuple(articles),
                   suppl_provisions=tuple(suppl), source=source_of(path, data))


def _clean(text: str) -> str:
    return text.strip()


def _classes(element: etree._Element) -> list[str]:
    return (element.get("class") or "").split()


def _own_text(div: etree._Element) -> str:
    """The text of ``div`` without the blocks nested in it (some pages put a paragraph's
    items inside the paragraph's ``div``)."""
    parts = [div.text or ""]
    for child in div:
        if not (child.tag == "div" and any(c.startswith("_div_") for c in _classes(child))):
            parts.append(child.text_content())
        parts.append(child.tail or "")
    return "".join(parts)


def _label_and_text(div: etree._Element) -> tuple[str, str]:
    """The bold label span (第一条, ２, 一, イ) and the text after it."""
    first = next(iter(div), None)
    label = ""
    if (first is not None and first.tag == "span" and not (div.text or "").strip()
            and "bold" in (first.get("style") or "")):
        label = _clean(first.text_content())
    content = _clean(_own_text(div))
    if label and content.startswith(label):
        content = content[len(label):]
    return label, content.strip("\u3000 \n\t")


def _walk(doc: etree._Element) -> tuple[list[_Draft], list[SupplProvision]]:
    drafts: list[_Draft] = []
    suppl_sections: list[etree._Element] = []
    caption: str | None = None
    for element in doc.iter("div", "section"):
        classes = _classes(element)
        if element.tag == "section":
            if "SupplProvision" in classes:
                suppl_sections.append(element)
            continue
        if suppl_sections:
            continue
        if "_div_ArticleCaption" in classes:
            caption = _clean(element.text_content()) or None
        elif "_div_ArticleTitle" in classes:
            title, sentence = _label_and_text(element)
            drafts.append(_Draft(title, caption, [LawParagraph(num=1, sentence=sentence)]))
            caption = None
        elif "_div_ParagraphSentence" in classes and drafts:
            _, sentence = _label_and_text(element)
            paragraphs = drafts[-1].paragraphs
            paragraphs.append(LawParagraph(num=len(paragraphs) + 1, sentence=sentence))
        elif any(_ITEM_RE.match(c) for c in classes) and drafts:
            label, text = _label_and_text(element)
            last = drafts[-1].paragraphs[-1]
            drafts[-1].paragraphs[-1] = last.model_copy(
                update={"items": (*last.items, LawItem(label=label, text=text))})
    return drafts, [_suppl(section) for section in suppl_sections]


def _suppl(section: etree._Element) -> SupplProvision:
    label = section.find('div[@class]')
    label_text = _clean(label.text_content()) if label is not None else ""
    m = _SUPPL_NUM_RE.search(label_text)
    first = next((child for child in section
                  if child.tag == "section" and {"Article", "Paragraph"} & set(_classes(child))),
                 None)

    def squeeze(el: etree._Element | None) -> str:
        return _WS_RE.sub("", el.text_content()) if el is not None else ""

    return SupplProvision(amend_law_num=m.group(1) if m else None,
                          enforcement_clause=squeeze(first), full_text=squeeze(section))
