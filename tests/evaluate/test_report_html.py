"""report.html rendered from data: escaping of hostile text, the leaderboard's tables, the
plots inline, the script allowed by its hash only, the same bytes for the same run."""

from __future__ import annotations

import base64
import hashlib
import re

from buildds.evaluate.report_html import json_for_script, markdown_html, render_report_html
from buildds.evaluate.report_samples import RunSamples, page_data
from tests.evaluate.report_helpers import HOSTILE, page_json

LEADERBOARD = """# JBE-QA leaderboard

Dataset: key `abc`

## F1 and faithfulness

| Model | F1 Zero-shot |
|---|---|
| m<script>window.__pwned=1</script> | 0.500 |
| a\\|b | 0.250 |
"""

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))


def _page(**kw):
    recs = [{"id": f"s{i}", "raw_output": HOSTILE[i % 2], "parsed": None, "gold": True,
             "score": 0.0, "error": None if i % 3 else HOSTILE[1]} for i in range(6)]
    data = page_data([RunSamples("m</title><b>", 0, recs, {"s0": (("user", HOSTILE[0]),)},
                                 {"s0": "<i>Civil</i>"})], group_title="Subject")
    args = {"title": "Evaluation report: jbe <b>", "leaderboard_md": LEADERBOARD,
            "plots": [("subject_f1.png <x>", PNG)], "data": data, "notes": ["<u>note</u>"],
            **kw}
    return render_report_html(**args), data


def test_hostile_text_is_escaped_everywhere():
    html, data = _page()
    body = html.split('<script type="application/json"', 1)[0]
    for bad in ("<script>window", "<img src=x", "<i>", "<u>", "<b>", "<x>"):
        assert bad not in body
    assert "&lt;img src=x onerror" not in body     # the samples are in the data block only
    assert "&lt;u&gt;note&lt;/u&gt;" in body and "subject_f1.png &lt;x&gt;" in body
    assert "m&lt;script&gt;window.__pwned=1&lt;/script&gt;" in body   # leaderboard cell
    block = html.split('id="report-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in block and ">" not in block and "&" not in block
    assert page_json(html) == data                   # and it reads back whole
    # exactly two script elements: the data block and the page's own script
    assert len(re.findall(r"<script\b", html, re.IGNORECASE)) == 2


def test_the_csp_allows_the_page_script_by_its_hash_and_nothing_from_the_network():
    html, _ = _page()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
    assert "default-src 'none'" in csp and "img-src data:" in csp
    script = re.search(r"<script>(.*?)</script>", html, re.DOTALL).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_leaderboard_tables_and_plots_are_on_the_page():
    html, _ = _page()
    assert "<th>Model</th>" in html and "<th>F1 Zero-shot</th>" in html
    assert "<td>0.500</td>" in html and "<td>a|b</td>" in html
    assert "data:image/png;base64," + base64.b64encode(PNG).decode() in html
    assert '<span id="count-total">6</span>' in html
    assert "<td>m&lt;/title&gt;&lt;b&gt; — Zero-shot</td><td>6</td>" in html


def test_same_inputs_same_bytes():
    assert _page()[0] == _page()[0]


def test_json_for_script_escapes_what_could_end_the_block():
    text = json_for_script({"a": "</script><!-- & \u2028"})
    assert text == '{"a":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028"}'


def test_markdown_html_turns_raw_html_into_text():
    out = markdown_html('<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))')
    assert "<img" not in out and 'href="javascript' not in out
