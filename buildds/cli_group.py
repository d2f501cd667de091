"""The ``buildds`` group: how every command fails and stops, in one place.

* An :class:`OSError` that reaches the command line — an output that cannot be written
  (read-only folder, disk full, quota, a file where a folder should be), an input that
  cannot be opened — becomes one line naming the path and the reason, exit 1, no
  traceback: ``build/jbe/xml/2019: cannot write: No space left on device``.
* Ctrl-C stops the worker processes at once (:func:`buildds.workers.stop_all_pools`),
  prints ``interrupted`` and exits 130 (128 + SIGINT, what shells expect). Staged outputs
  are discarded, so the previous outputs stay as they were; the next run starts over from
  the cache. A Ctrl-C that a library turns into an error of its own on its way up (pydantic
  building a model while it came reports a ``SchemaError``) is still a Ctrl-C: while a
  command runs, SIGINT is noted before it raises, and an error that ends the command after
  it counts as the interrupt.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
from typing import Any, Self

import click

__all__ = ["EXIT_INTERRUPTED", "MainGroup", "os_error_message"]

EXIT_INTERRUPTED = 130


def _name(value: Any) -> str:
    from buildds.safeio.names import printable_name

    try:
        return printable_name(os.fsdecode(value))
    except TypeError:
        return str(value)


def os_error_message(exc: OSError) -> str:
    """``<path>: <reason>`` (``<path> → <other path>: <reason>`` for a rename)."""
    reason = exc.strerror or str(exc)
    if exc.filename is not None and exc.filename2 is not None:
        return f"{_name(exc.filename)} → {_name(exc.filename2)}: {reason}"
    if exc.filename is not None:
        return f"{_name(exc.filename)}: {reason}"
    return reason


class _SigintNoted:
    """While active: Python's own Ctrl-C behaviour (KeyboardInterrupt), and a note that it
    came. Only where that behaviour is in force (the main thread, SIGINT not ignored — a
    background job keeps ignoring it); the previous handler is put back after."""

    def __init__(self) -> None:
        self.came = False
        self._previous: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        self.came = True
        raise KeyboardInterrupt

    def __enter__(self) -> Self:
        with contextlib.suppress(ValueError):  # not the main thread
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGINT, self._previous)


class MainGroup(click.Group):
    """A click group mapping OSError to a one-line error and Ctrl-C to exit 130."""

    def invoke(self, ctx: click.Context) -> Any:
        from buildds.safeio.limits import ENV_VAR, OVERRIDE_ERRORS

        if OVERRIDE_ERRORS and ctx.protected_args:  # not for --help/--version alone
            raise click.UsageError(f"{ENV_VAR}: " + "; ".join(OVERRIDE_ERRORS))
        sigint = _SigintNoted()
        try:
            with sigint:
                return super().invoke(ctx)
        except KeyboardInterrupt:
            self._interrupted()
        except Exception as exc:
            if sigint.came:  # the Ctrl-C, turned into another error on its way up
                self._interrupted()
            if isinstance(exc, OSError):
                if exc.errno == errno.EPIPE:  # stdout closed (| head): click handles it
                    raise
                raise click.ClickException(os_error_message(exc)) from exc
            raise

    @staticmethod
    def _interrupted() -> None:
        """Stop the workers, say "interrupted", exit 130."""
        # a second Ctrl-C must not break off the clean-up half-way (only the main
        # thread may set handlers; elsewhere there is no Ctrl-C to ignore); the handler
        # is put back after, for a caller that goes on (a test, a notebook): processes
        # it starts later would otherwise inherit SIGINT ignored
        previous: Any = None
        with contextlib.suppress(ValueError):
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            from buildds.workers import stop_all_pools

            stop_all_pools()
            click.echo("interrupted", err=True)
        finally:
            if previous is not None:
                with contextlib.suppress(ValueError):
                    signal.signal(signal.SIGINT, previous)
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
