"""``--executor local|ray`` and ``--ray-address``: where ``buildds jbe``, ``contracts`` and
``judgments`` run their work (:mod:`buildds.executors`).

:func:`executor_options` adds both options to a command (their values kept in
``ctx.meta``, so the command's own signature does not change), :func:`executor_spec` reads
them back as an :class:`~buildds.executors.ExecutorSpec` and :func:`command_executor`
makes the executor for the length of a ``with`` block. Nothing here imports Ray: it is
imported when a Ray executor is made, and a missing Ray is then an error naming
``pip install 'buildds[ray]'``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from buildds.executors import Executor, ExecutorSpec

__all__ = ["command_executor", "executor_options", "executor_spec"]

_KEY = "buildds.executor"
#: ``auto``, ``ray://host:port`` (Ray Client) or ``host:port`` (a head node's GCS)
_ADDRESS = re.compile(r"^(auto|ray://[^\s/:]+:\d{1,5}|[^\s/:]+:\d{1,5})$")


def _keep(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if name == "address" and value is not None and not _ADDRESS.match(value):
            raise click.BadParameter(f"{value!r} is not a Ray address (auto, "
                                     "ray://host:port or host:port)",
                                     param_hint="'--ray-address'")
        ctx.meta.setdefault(_KEY, {})[name] = value
        return value
    return callback


def executor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a click command with ``--executor`` and ``--ray-address``."""
    options = [
        click.option("--executor", type=click.Choice(["local", "ray"]), default="local",
                     show_default=True, expose_value=False, callback=_keep("name"),
                     help="Where the work runs: local (this machine's worker processes) or "
                          "ray (Ray tasks; needs pip install 'buildds[ray]'). The outputs "
                          "are the same bytes either way."),
        click.option("--ray-address", default=None, metavar="ADDRESS", expose_value=False,
                     callback=_keep("address"),
                     help="With --executor ray: the cluster to join — auto (the one "
                          "'ray start --head' started here) or ray://host:port; default: a "
                          "Ray instance started for this run."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def executor_spec(ctx: click.Context, jobs: int | None = None) -> ExecutorSpec:
    """The executor the command line asked for (``jobs``: workers, None for every core);
    a usage error for ``--ray-address`` without ``--executor ray``."""
    from buildds.executors import ExecutorSpec

    given = ctx.meta.get(_KEY, {})
    name, address = given.get("name", "local"), given.get("address")
    if address is not None and name != "ray":
        raise click.UsageError("--ray-address needs --executor ray")
    return ExecutorSpec(name=name, address=address, jobs=jobs)


@contextlib.contextmanager
def command_executor(ctx: click.Context, jobs: int | None = None) -> Iterator[Executor]:
    """The executor of :func:`executor_spec`, closed when the block ends (a Ray instance
    started for the run is shut down). A missing Ray raises
    :class:`~buildds.errors.MissingDependency` (a :class:`~buildds.errors.BuildError`)."""
    executor = executor_spec(ctx, jobs).make()
    try:
        yield executor
    finally:
        executor.close()
