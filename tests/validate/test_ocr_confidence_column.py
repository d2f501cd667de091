"""The optional ``ocr_confidence`` column: null for text-layer items, 0–100 for OCR'd ones."""

from __future__ import annotations

import pandas as pd
import pandera as pa
import pytest

from buildds.validate.schemas import JbeItemsModel
from tests.validate.test_validate import frame


def test_all_null_and_numeric_columns_pass() -> None:
    df = frame()
    JbeItemsModel.validate(df, lazy=True)  # every item from a text layer: all None
    df["ocr_confidence"] = [91.5] * len(df)
    JbeItemsModel.validate(df, lazy=True)
    df.loc[0, "ocr_confidence"] = None
    JbeItemsModel.validate(df, lazy=True)


@pytest.mark.parametrize("bad", [101.0, -1.0, "high"])
def test_out_of_range_is_an_error(bad: object) -> None:
    df = frame()
    df["ocr_confidence"] = pd.Series([None] * len(df), dtype=object)
    df.loc[3, "ocr_confidence"] = bad
    with pytest.raises(pa.errors.SchemaErrors) as info:
        JbeItemsModel.validate(df, lazy=True)
    assert "ocr_confidence_0_100" in str(info.value)
