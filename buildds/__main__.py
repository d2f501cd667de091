"""``python -m buildds …`` is the ``buildds`` command."""

from buildds.cli import main

if __name__ == "__main__":
    main()
