"""What the LegalRikai-style card says about how its splits were drawn
(:func:`split_layout`): a share (``--eval-share``) or a published dataset's layout by name
(``--split-like legalrikai``, :func:`buildds.transform.rikai.split_like`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from buildds.transform.rikai import SPLIT_PRESETS

__all__ = ["split_layout"]


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
