"""E2 omission of charges: a multi-charge judgment keeps one charge; the other charges'
names (and their per-charge penalty clauses, 犯X罪，判处…) leave the judgment part, and list
mentions (X罪、Y罪) leave the reasoning."""

from __future__ import annotations

import random
import re

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.edits import delete_ranges
from buildds.schema.judgments import Judgment

__all__ = ["OmissionOfCharges"]

_CLAUSE_END = re.compile(r"[；。;]|，(?=犯|数罪并罚|决定执行|合并执行)")
_DEFENDANT = re.compile(r"(?:被告人|上诉人|原审被告人)[^，；。：:、]{0,30}$")
_PRIOR = re.compile(r"之前|以前|前罪|原判|没有执行|尚未执行|余刑|撤销")
_LIST = "、和及"
_ITEM = re.compile(r"[一二三四五六七八九十]+、")


class OmissionOfCharges(BaseInjector):
    error_type = "E2"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        charges = list(dict.fromkeys(judgment.charges))
        if len(charges) < 2:
            raise SkipInjection("single_charge", "only one charge: nothing to omit")
        js = judgment.judgment_span
        if js is None:
            raise SkipInjection("no_judgment_part", "no judgment part")
        kept = rng.choice(charges)
        omitted = [c for c in charges if c != kept]
        text = judgment.full_text
        ranges: list[tuple[int, int]] = []
        for ref in judgment.charge_refs:
            if ref.name not in omitted:
                continue
            s, e = ref.span.start, ref.span.end
            line_start = max(text.rfind(c, js.start, s) for c in "；。;，") + 1
            if _PRIOR.search(text[max(js.start, s - 20):s]) or _PRIOR.search(text[e:e + 20].split("；")[0]):
                raise SkipInjection("prior_conviction", f"{ref.name} is named as an earlier conviction")
            if text[e:e + 1] != "罪":
                raise SkipInjection("unsupported_layout", f"{ref.name} not followed by 罪")
            if text[e + 1:e + 2] and text[e + 1] in _LIST:  # X罪、Y罪: drop "X罪、"
                ranges.append((s, e + 2))
            elif text[s - 1] in _LIST:  # …、X罪
                ranges.append((s - 1, e + 1))
            elif text[s - 1] == "犯":
                m = _CLAUSE_END.search(text, e, js.end)
                end = m.start() if m else js.end
                clause = text[s - 1:end]
                if "判处" not in clause and "免予刑事处罚" not in clause:
                    raise SkipInjection("unsupported_layout", f"no penalty clause for {ref.name}")
                prefix = _DEFENDANT.search(text[line_start:s - 1])
                item = max([m.end() for m in _ITEM.finditer(text, js.start, s)] or [js.start])
                first = not any(item <= r.span.start < s for r in judgment.charge_refs)
                if first:
                    # keep 被告人X, drop 犯X罪，判处…; and the separator; a following clause
                    # that repeats the defendant loses its repeat instead
                    nxt = end + 1 if end < js.end and text[end] in "；;，" else end
                    again = re.match(r"(?:被告人|上诉人|原审被告人)[^，；。：:、犯]{0,30}(?=犯)", text[nxt:])
                    ranges.append((s - 1, nxt + (again.end() if again and prefix else 0)))
                else:
                    start = line_start + prefix.start() if prefix else s - 1
                    if text[start - 1] not in "；;，":
                        raise SkipInjection("unsupported_layout", f"cannot isolate the clause of {ref.name}")
                    ranges.append((start - 1, end))
            else:
                raise SkipInjection("unsupported_layout", f"cannot isolate the mention of {ref.name}")
        rs = judgment.reasoning_span
        if rs is not None:
            for name in omitted:
                for m in re.finditer(re.escape(name + "罪"), text[rs.start:rs.end]):
                    s, e = rs.start + m.start(), rs.start + m.end()
                    if text[e:e + 1] and text[e] in _LIST and text[s - 1] in "犯成以、和及":
                        ranges.append((s, e + 1))
                    elif text[s - 1] in _LIST:
                        ranges.append((s - 1, e))
        edits = delete_ranges(text, ranges)
        return Plan(edits, {"charges": charges, "omitted": omitted},
                    {"kept": kept, "omitted": omitted})
