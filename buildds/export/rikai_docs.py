"""What the LegalRikai-style card says about how its splits were drawn
(:func:`split_layout`): a share (``--eval-share``) or a published dataset's layout by name
(``--split-like legalrikai``, :func:`buildds.transform.rikai.split_like`); and the clause
table's identity and span columns (:func:`span_features`, :data:`SPAN_FIELD_DOCS`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from buildds.transform.rikai import SPLIT_PRESETS

__all__ = ["SPAN_FIELD_DOCS", "span_features", "split_layout"]

#: the card's words for the clause table's identity and span columns
SPAN_FIELD_DOCS = {
    "path": "the input file's path relative to the inputs' common folder",
    "char_start": ("first character of the clause in the document's text (its body "
                   "paragraphs / lines in the view, normalised, joined with newlines)"),
    "char_end": "one past the clause's last character in the document's text",
    "items": "the clause's items (号: 一, ①, （１）, (a) …), wrapped lines re-joined",
    "item_starts": ("first character of each item in the document's text (empty when an "
                    "item could not be located)"),
    "item_ends": "one past each item's last character in the document's text",
}


def span_features(datasets: Any) -> dict[str, Any]:
    """The identity and span columns of the clause table (after ``sha256``)."""
    V = datasets.Value
    return {"path": V("string"), "char_start": V("int32"), "char_end": V("int32"),
            "items": datasets.Sequence(V("string")),
            "item_starts": datasets.Sequence(V("int32")),
            "item_ends": datasets.Sequence(V("int32"))}


def split_layout(options: Mapping[str, Any], task: str) -> str:
    """One paragraph for the card's Splits section ('' for the unlabelled clause table)."""
    if task not in ("classification", "revision"):
        return ""
    seed = options.get("seed", 0)
    like = options.get("split_like")
    if like:
        preset = SPLIT_PRESETS[like]
        if task in preset.development_count:
            how = (f"`development` holds {preset.development_count[task]} items (half of "
                   "the items when there are fewer than "
                   f"{2 * preset.development_count[task]}), every other item is in "
                   "`evaluation`")
        else:
            how = f"{preset.eval_share[task]:.2%} of the items are in `evaluation`"
        return (f"Split like **{like}** (`--split-like {like}`): {preset.about}. Here "
                f"{how}, drawn with seed {seed} from the items in id order.")
    share = options.get("eval_share")
    if share is None:
        return ""
    return (f"Split by share (`--eval-share {share}`): {round(100 * float(share), 2)}% of the "
            f"items in `evaluation`, drawn with seed {seed} from the items in id order. "
            "`--split-like legalrikai` reproduces LegalRikai's layout instead (revision: 8 "
            "development items, the few-shot examples; 378/8 of 386).")
