"""README examples that cannot drift (issue 19, point 3).

Convention: in README.md an HTML comment ``<!-- example: sample -->`` right before a
```` ```console ```` block marks an example that runs on the bundled sample
(``buildds/sample/pdf``). In the block, a line ``$ buildds …`` is a command and the lines up
to the next ``$`` are what it prints on stdout. The test runs every command of a block in
order (from the repository root, so ``buildds/sample/pdf`` resolves) and checks that its
printed lines equal the README's, after this normalisation (the documented rule):

* every argument starting with ``build/`` is placed under a fresh temporary folder, and
  that folder's path is removed from the printed lines again (so ``build/sample`` reads
  ``build/sample`` in both);
* a timing ``in 2.2s`` reads ``in <time>`` (the README writes ``in <time>``);
* progress-bar lines (drawn with ``━``) are dropped.

Examples that need the 60 shared PDFs are marked ``<!-- example: shared -->``: the README
states the date of their figures, and the test runs them only when ``../shared`` is present
(skipped otherwise, e.g. in CI)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MARK = "<!-- example: sample -->"
SHARED_MARK = "<!-- example: shared -->"
TIMING = re.compile(r"\bin \d+(?:\.\d+)?s\b")


@dataclass
class Example:
    command: str
    printed: list[str] = field(default_factory=list)


def marked_blocks(text: str, mark: str = MARK) -> list[list[Example]]:
    """Each ``console`` block of ``text`` marked ``mark``, as its commands and their printed
    lines."""
    blocks: list[list[Example]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() != mark:
            continue
        assert lines[i + 1].strip() == "```console", f"README line {i + 2}: expected ```console"
        block: list[Example] = []
        for body in lines[i + 2:]:
            if body.strip() == "```":
                break
            if body.startswith("$ "):
                block.append(Example(body[2:]))
            else:
                assert block, f"README: printed line before any command: {body!r}"
                block[-1].printed.append(body)
        blocks.append(block)
    return blocks


def normalise(output: str, tmp: Path) -> list[str]:
    out = output.replace(f"{tmp}{os.sep}", "")
    return [TIMING.sub("in <time>", ln) for ln in out.splitlines() if "━" not in ln]


def run(command: str, tmp: Path) -> list[str]:
    args = shlex.split(command)
    assert args[0] == "buildds", f"README example must run buildds: {command}"
    args = [str(tmp / a) if a.startswith("build/") else a for a in args[1:]]
    proc = subprocess.run([sys.executable, "-m", "buildds", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, f"{command}\n{proc.stdout}\n{proc.stderr}"
    return normalise(proc.stdout, tmp)


#: README commands on the bundled sample that no marked block runs, and why (a prefix each)
NOT_RUN = {
    "buildds eval buildds/sample/highbar --task highbar": "needs model endpoints and judges "
                                                          "(openai:…), which a test has not",
    "buildds review build/sample": "serves a web app until Ctrl-C; tests/review drives it in "
                                   "a browser (test_browser_jbe.py, test_review_command.py)",
    "buildds review: jbe build build/sample": "not a command: what `buildds review` prints",
}
SAMPLE_PATHS = ("buildds/sample", "build/sample")


def readme_commands(text: str) -> list[str]:
    """Every ``buildds`` command in the README's code blocks: continuation lines joined, a
    console ``$ `` prompt, environment assignments before it and a trailing comment dropped."""
    commands: list[str] = []
    in_block, pending = False, ""
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_block, pending = not in_block, ""
            continue
        if not in_block:
            continue
        line = pending + line.strip()
        if line.endswith("\\"):
            pending = line[:-1]
            continue
        pending = ""
        line = re.sub(r"\s+#\s.*$", "", line.removeprefix("$ "))
        if (at := line.find("buildds ")) >= 0 and (at == 0 or line[at - 1] == " "):
            commands.append(" ".join(line[at:].split()))
    return commands


def test_every_readme_command_on_the_sample_is_run() -> None:
    """A README command on the bundled sample is run by a marked block (so its printed lines
    are checked), or listed in :data:`NOT_RUN` with the reason it cannot be."""
    text = README.read_text(encoding="utf-8")
    marked = {ex.command for block in marked_blocks(text) for ex in block}
    on_sample = [c for c in readme_commands(text) if any(p in c for p in SAMPLE_PATHS)]
    assert len(on_sample) >= 4
    unrun = [c for c in on_sample
             if c not in marked and not any(c.startswith(k) for k in NOT_RUN)]
    assert unrun == [], "README commands on the sample that no marked block runs"


def test_readme_commands_are_collected() -> None:
    text = ("```bash\nbuildds a x \\\n    --b y   # note\nOPENAI_API_KEY=… buildds c\n```\n"
            "buildds outside\n```console\n$ buildds d\nprinted\n```\n")
    assert readme_commands(text) == ["buildds a x --b y", "buildds c", "buildds d"]


def test_the_readme_has_marked_examples() -> None:
    blocks = marked_blocks(README.read_text(encoding="utf-8"))
    commands = [ex.command.split()[1] for block in blocks for ex in block]
    assert {"jbe", "validate", "eval"} <= set(commands)


def test_marked_blocks_are_parsed() -> None:
    text = f"x\n{MARK}\n```console\n$ buildds a b\none\ntwo\n$ buildds c\n```\n"
    (block,) = marked_blocks(text)
    assert [(e.command, e.printed) for e in block] == [("buildds a b", ["one", "two"]),
                                                      ("buildds c", [])]
    assert normalise("x in 3.4s — see /t/build/a\n━━ 3/3\n", Path("/t")) == [
        "x in <time> — see build/a"]


@pytest.mark.parametrize("index", range(len(marked_blocks(README.read_text(encoding="utf-8")))))
def test_readme_example_prints_what_the_readme_says(index: int, tmp_path: Path) -> None:
    block = marked_blocks(README.read_text(encoding="utf-8"))[index]
    for ex in block:
        assert run(ex.command, tmp_path) == ex.printed, ex.command


@pytest.mark.parametrize("index", range(len(marked_blocks(README.read_text(encoding="utf-8"),
                                                          SHARED_MARK))))
def test_readme_shared_example_prints_what_the_readme_says(index: int, tmp_path: Path) -> None:
    shared_path("jbe", "pdf")
    block = marked_blocks(README.read_text(encoding="utf-8"), SHARED_MARK)[index]
    for ex in block:
        assert run(ex.command, tmp_path) == ex.printed, ex.command
