"""``python -m buildds.sample [DEST]``: write the sample exam (default: the bundled folder
``buildds/sample/pdf``, whose files are committed and checked by tests/sample)."""

from __future__ import annotations

import sys
from pathlib import Path

from buildds.sample import SAMPLE_DIR, write_sample


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0] in ("-h", "--help")):
        print(__doc__.strip())
        return 0 if args and args[0] in ("-h", "--help") else 2
    dest = Path(args[0]) if args else SAMPLE_DIR
    for path in write_sample(dest):
        print(f"{path}  {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
