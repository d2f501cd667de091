"""Output formats of the appellate-review task (seed 003, AR-Bench): answers and parsers.

Every prompt asks for one strict answer (the prompts are in ``buildds/evaluate/prompts/
appellate_review_*.md.j2``); an output that does not follow it is an *instruction-following
failure* (seed 003, appendix B.3: "if a model's output can be correctly parsed by the
evaluation script, we consider the model to be able to follow the instructions"). A failure
is scored as wrong — nothing is guessed from an explanation.

Before matching, an output is only *cleaned*: white space, a leading ``<think>…</think>``
block (reasoning models), wrapping quotes/backticks/``**``, an ``答案：``/``答：``/``回答：``
prefix and trailing ``。.！!`` are removed. What remains must be, exactly:

* detection — ``是`` (the judgment contains an error) or ``否`` (it does not), or one of the
  unambiguous variants in :data:`DETECTION_ANSWERS` (``存在错误``, ``不存在错误`` …);
* classification — ``罪名`` / ``刑期`` / ``罚金`` or a variant in
  :data:`CLASSIFICATION_ANSWERS` (``罪名错误`` …); ``无错误`` is not one of the three classes
  and is therefore a failure (the seed's models that "under-predict errors");
* correction, by the error class the prompt names:

  - charge — the charges, each ending in 罪, separated by ``；``/``;``/``，``/``,``/new lines
    (``盗窃罪``, ``强奸罪；诈骗罪``), compared as a set without the 罪;
  - prison term — one term (``42个月``, ``三年六个月``, ``3年6个月``, optionally after
    ``有期徒刑``/``拘役``/``管制``/``刑期：``), in months, read with
    :func:`buildds.extract.judgments.parse_months`;
  - fine — one amount in 元 (``5000元``, ``人民币五千元``, ``1.5万元``, ``罚金人民币5,000元``),
    read with :func:`buildds.extract.judgments.parse_money`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from buildds.extract.judgments import MONEY_RE, TERM_RE, parse_money, parse_months

__all__ = [
    "CLASSES",
    "CLASSIFICATION_ANSWERS",
    "CLASS_ANSWER",
    "CLEANING",
    "DETECTION_ANSWERS",
    "TARGETS",
    "Parsed",
    "charge_label",
    "clean_output",
    "correction_answer",
    "correction_gold",
    "parse_charges_answer",
    "parse_classification",
    "parse_correction",
    "parse_detection",
    "parse_fine",
    "parse_term",
]

#: the error classes of the classification subtask (seed 003, Figure 2), in table order
CLASSES: tuple[str, ...] = ("charge", "prison_term", "fine")
#: the correction targets (error classes) and the word the prompts use for them
TARGETS: tuple[str, ...] = CLASSES
#: the answer a model is asked to give for each class
CLASS_ANSWER = {"charge": "罪名", "prison_term": "刑期", "fine": "罚金"}
#: accepted detection answers → 1 (the judgment contains an error) / 0 (it does not)
DETECTION_ANSWERS: dict[str, int] = {
    "是": 1, "有": 1, "存在": 1, "有错误": 1, "存在错误": 1, "判决存在错误": 1,
    "否": 0, "无": 0, "没有": 0, "不存在": 0, "无错误": 0, "没有错误": 0, "不存在错误": 0,
    "判决不存在错误": 0,
}
#: accepted classification answers → class id
CLASSIFICATION_ANSWERS: dict[str, str] = {
    "罪名": "charge", "罪名错误": "charge", "罪名认定错误": "charge", "定罪错误": "charge",
    "刑期": "prison_term", "刑期错误": "prison_term", "刑期裁量错误": "prison_term",
    "刑期认定错误": "prison_term",
    "罚金": "fine", "罚金错误": "fine", "罚金数额错误": "fine",
}

_THINK = re.compile(r"^\s*<think>.*?</think>", re.DOTALL)
_WRAP = ("**", "`", "“", "”", "\"", "'", "「", "」", "『", "』")
_CLOSE = {"“": "”", "「": "」", "『": "』"}
_PREFIX = re.compile(r"^(?:最终)?(?:答案|回答|答)\s*[:：]\s*")
_TRAILING = "。．.！!"
#: what :func:`clean_output` removes, for the peers' task files (buildds.evaluate.peers)
CLEANING: dict[str, Any] = {"think": _THINK.pattern, "wrap": _WRAP, "close": _CLOSE,
                            "prefix": _PREFIX.pattern, "trailing": _TRAILING}
_CHARGE_SEP = re.compile(r"[；;，,\n]+")
_CHARGE_NAME = re.compile(r"[\u4e00-\u9fff、（）()]+罪")
_TERM_PREFIX = re.compile(r"^(?:刑期\s*[:：]\s*)?(?:判处)?(?:有期徒刑|拘役|管制)?")
_FINE_PREFIX = re.compile(r"^(?:罚金(?:数额)?\s*[:：]?\s*)?(?:判处)?(?:并处)?(?:罚金)?(?:人民币)?")


@dataclass(frozen=True)
class Parsed:
    """A parsed answer: ``value`` is None when the output did not follow the format."""

    value: Any

    @property
    def followed(self) -> bool:
        return self.value is not None


def _unwrap(text: str) -> str:
    changed = True
    while changed and text:
        changed = False
        for mark in _WRAP:
            close = _CLOSE.get(mark, mark)
            if len(text) >= 2 * len(mark) and text.startswith(mark) and text.endswith(close) \
                    and len(text) > len(mark) + len(close):
                text = text[len(mark):len(text) - len(close)].strip()
                changed = True
    return text


def clean_output(text: str | None) -> str | None:
    """The output with the formatting a strict answer may carry removed (see the module
    doc); None for no output."""
    if not isinstance(text, str):
        return None
    s = _THINK.sub("", text).strip()
    s = _unwrap(s)
    s = _PREFIX.sub("", s).strip()
    s = _unwrap(s)
    s = s.rstrip(_TRAILING).strip()
    return _unwrap(s) or None


def parse_detection(text: str | None) -> Parsed:
    """``是`` → 1, ``否`` → 0 (and :data:`DETECTION_ANSWERS`); anything else → a failure."""
    s = clean_output(text)
    return Parsed(DETECTION_ANSWERS.get(s) if s is not None else None)


def parse_classification(text: str | None) -> Parsed:
    """``罪名`` / ``刑期`` / ``罚金`` (and :data:`CLASSIFICATION_ANSWERS`) → the class id."""
    s = clean_output(text)
    return Parsed(CLASSIFICATION_ANSWERS.get(s) if s is not None else None)


def parse_charges_answer(text: str | None) -> Parsed:
    """``强奸罪；诈骗罪`` → ``("强奸", "诈骗")`` (sorted, distinct, without 罪). Every part must
    be a charge name ending in 罪, else the whole answer is a failure."""
    s = clean_output(text)
    if s is None:
        return Parsed(None)
    s = re.sub(r"^罪名\s*[:：]\s*", "", s)
    names = []
    for part in _CHARGE_SEP.split(s):
        part = part.strip().rstrip(_TRAILING)
        if not part:
            continue
        if not _CHARGE_NAME.fullmatch(part):
            return Parsed(None)
        names.append(part[:-1])
    return Parsed(tuple(sorted(set(names))) if names else None)


def parse_term(text: str | None) -> Parsed:
    """One term of imprisonment → months (``三年六个月`` → 42, ``42个月`` → 42)."""
    s = clean_output(text)
    if s is None:
        return Parsed(None)
    s = _TERM_PREFIX.sub("", s).strip()
    if not s or not TERM_RE.fullmatch(s):
        return Parsed(None)
    return Parsed(parse_months(s))


def parse_fine(text: str | None) -> Parsed:
    """One amount of money → whole yuan (``人民币五千元`` → 5000, ``1.5万元`` → 15000)."""
    s = clean_output(text)
    if s is None:
        return Parsed(None)
    s = _FINE_PREFIX.sub("", s).strip()
    m = MONEY_RE.fullmatch(s)
    if not s or m is None or m["num"] is None:
        return Parsed(None)
    return Parsed(parse_money(s))


def parse_correction(target: str, text: str | None) -> Parsed:
    """The correction parser for ``target`` (charge / prison_term / fine)."""
    parser = {"charge": parse_charges_answer, "prison_term": parse_term, "fine": parse_fine}
    if target not in parser:
        raise ValueError(f"unknown correction target {target!r}")
    return parser[target](text)


# --------------------------------------------------------------------------- gold
def _names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        return tuple(str(v) for v in value)
    return ()


def correction_gold(target: str, gold: Mapping[str, Any]) -> Any:
    """The gold correction of an export row (its ``gold_correction`` JSON, decoded):
    charge → the sorted charges (E2's ``charges``, E1's ``charge``), prison term → months,
    fine → yuan. None when the row holds no usable gold."""
    if target == "charge":
        names = _names(gold.get("charges")) or _names(gold.get("charge"))
        names = tuple(n.removesuffix("罪") for n in names if n)
        return tuple(sorted(set(names))) or None
    key = {"prison_term": "months", "fine": "fine_yuan"}.get(target)
    if key is None:
        raise ValueError(f"unknown correction target {target!r}")
    value = gold.get(key)
    return int(value) if value is not None else None


def charge_label(names: Iterable[str]) -> str:
    """A set of charges as one class label: ``强奸；诈骗`` (sorted)."""
    return "；".join(sorted(set(names)))


def correction_answer(target: str, gold: Any) -> str:
    """The gold correction as the model is asked to write it: ``强奸罪；诈骗罪``, ``42个月``,
    ``5000元``."""
    if target == "charge":
        return "；".join(f"{n}罪" for n in gold)
    if target == "prison_term":
        return f"{int(gold)}个月"
    if target == "fine":
        return f"{int(gold)}元"
    raise ValueError(f"unknown correction target {target!r}")
