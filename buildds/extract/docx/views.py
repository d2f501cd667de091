"""Accepted and original views of raw paragraphs, and their redline.

A paragraph mark that does not exist in a view (deleted in the accepted view, inserted in the
original one) merges its paragraph with the next: :func:`view_groups` gives each view's
paragraphs as groups of raw paragraphs, :func:`pair_groups` matches the groups of both views
into blocks, :func:`redline_text` renders ``{+ins+}`` / ``[-del-]`` / ``¶`` markup.

Split from :mod:`buildds.extract.docx.reader`.
"""

from __future__ import annotations

from buildds.extract.docx.numbering import join_number
from buildds.extract.docx.units import Para, Seg
from buildds.safeio.archive import View

__all__ = ["number_redline", "pair_groups", "redline_text", "view_groups"]


def view_groups(paras: list[Para], view: View, row_state: str = "") -> list[list[int]]:
    """Paragraphs of one view: a mark that does not exist in the view merges with the next."""
    if row_state == ("del" if view == "accepted" else "ins"):
        return []
    gone = "del" if view == "accepted" else "ins"
    groups: list[list[int]] = []
    cur: list[int] = []
    for i, p in enumerate(paras):
        cur.append(i)
        if p.mark != gone or i == len(paras) - 1:
            groups.append(cur)
            cur = []
    return groups


def pair_groups(paras: list[Para], acc: list[list[int]], orig: list[list[int]]
                ) -> list[tuple[int, int | None, int | None]]:
    """Match accepted and original groups: (anchor paragraph, acc group, orig group)."""
    a_of = {pi: gi for gi, g in enumerate(acc) for pi in g}
    o_of = {pi: gi for gi, g in enumerate(orig) for pi in g}
    pairs: list[tuple[int, int, int]] = []
    for pi, p in enumerate(paras):
        if p.has_unchanged_text() and pi in a_of and pi in o_of:
            ga, go = a_of[pi], o_of[pi]
            if not pairs or (ga > pairs[-1][1] and go > pairs[-1][2]):
                pairs.append((pi, ga, go))
    out: list[tuple[int, int | None, int | None]] = []
    bounds = [(-1, -1)] + [(ga, go) for _, ga, go in pairs] + [(len(acc), len(orig))]
    for k in range(len(bounds) - 1):
        a_gap = list(range(bounds[k][0] + 1, bounds[k + 1][0]))
        o_gap = list(range(bounds[k][1] + 1, bounds[k + 1][1]))
        if len(a_gap) == len(o_gap):
            out += [(min(acc[a][0], orig[o][0]), a, o) for a, o in zip(a_gap, o_gap, strict=True)]
        elif a_gap and o_gap:
            out += [(acc[a][0], a, None) for a in a_gap[:-1]]
            out += [(orig[o][0], None, o) for o in o_gap[:-1]]
            out.append((min(acc[a_gap[-1]][0], orig[o_gap[-1]][0]), a_gap[-1], o_gap[-1]))
        else:
            out += [(acc[a][0], a, None) for a in a_gap]
            out += [(orig[o][0], None, o) for o in o_gap]
        if k < len(pairs):
            out.append(pairs[k])
    out.sort(key=lambda t: (t[0], t[1] is not None and t[2] is not None))
    return out


def redline_text(paras: list[Para], members: list[int], prefix: list[Seg] | None = None
                 ) -> str:
    """The paragraphs ``members`` as one redline: ``{+ins+}``, ``[-del-]``, ``¶`` for a changed
    paragraph mark, ``"\\n"`` between unchanged ones; ``prefix`` segments (a number) first."""
    parts: list[Seg] = list(prefix or [])
    for n, pi in enumerate(members):
        parts += [s for s in paras[pi].segs if s[0] != "gone"]
        if n < len(members) - 1:
            mark = paras[pi].mark
            parts.append((mark, "¶") if mark else ("", "\n"))
    merged: list[list[str]] = []
    for state, text in parts:
        if not text:
            continue
        if merged and merged[-1][0] == state:
            merged[-1][1] += text
        else:
            merged.append([state, text])
    return "".join(f"{{+{t}+}}" if s == "ins" else f"[-{t}-]" if s == "del" else t
                   for s, t in merged)


def number_redline(acc: str | None, orig: str | None) -> list[Seg]:
    """Redline segments for a list number that may differ between the two views."""
    if acc == orig:
        return [("", join_number(acc, ""))]
    return [("del", join_number(orig, "")), ("ins", join_number(acc, ""))]
