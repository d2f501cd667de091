"""``python -m buildds …`` is the ``buildds`` command."""

from buildds.cli import run

if __name__ == "__main__":
    run()
