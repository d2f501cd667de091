"""Benchmark: requests/s of the OpenAI-compatible backend against a local server.

The test server (tests/evaluate/openai_server.py) runs in its own process and answers every
request after a fixed latency (50 ms). With ``concurrency`` requests in flight the ideal
rate is concurrency / latency (32 / 0.05 = 640 requests/s); the script prints the rate
reached as a share of it (target ≥ 90 %), the client's CPU time and the server's, so that a
CPU-bound client or server, or a machine busy with other work (the load average), shows up
as such. ``--http-client httpx`` measures the backend's httpx client instead of its own.

The same load is then sent in logprob mode (``buildds eval --scoring logprob``: each
request asks for ``logprobs``/``top_logprobs``, the server returns them and the client scores
the allowed answers ``1``/``0`` from them) and its rate printed as ``logprob``.

If inspect_ai (and the openai package it drives) is installed, the same load also goes
through inspect_ai's ``openai/<model>`` provider against the same server, with
``max_connections`` = concurrency, and the script prints both rates and their ratio. Usage:

    python3 benchmarks/bench_eval_throughput.py [-n 2000] [--concurrency 32] [--latency 0.05]
        [--http-client asyncio|httpx] [--no-inspect] [--no-logprob]

(``pip install -e '.[bench]'`` installs inspect_ai and openai.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from buildds.evaluate.backends.openai import HttpClientName, OpenAIBackend
from buildds.evaluate.logprob import logprob_request, scored_result
from buildds.schema.evaluation import ChatMessage, ChatRequest

REPO = Path(__file__).resolve().parent.parent
SYSTEM = "Answer 1 if the statement is correct, 0 otherwise. Output only 1 or 0."


def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def process_cpu_s(pid: int) -> float | None:
    """CPU seconds used so far by process ``pid`` (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(latency: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "tests/evaluate/openai_server.py"), "--latency", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    port = int(proc.stdout.readline().split()[1])
    return proc, f"http://127.0.0.1:{port}/v1"


def run_buildds(
    base_url: str, n: int, concurrency: int, http_client: HttpClientName = "asyncio",
    logprob: bool = False,
) -> tuple[float, float, int]:
    """Elapsed s, client CPU s and errors of ``n`` requests; ``logprob``: asking for the
    answers' log-probabilities, each result scored from them (an error when it cannot be)."""
    backend = OpenAIBackend(
        "bench-model", base_url=base_url, concurrency=concurrency, http_client=http_client
    )
    requests = [
        ChatRequest(
            messages=(
                ChatMessage(role="system", content=SYSTEM),
                ChatMessage(role="user", content=f"statement {i}"),
            )
        )
        for i in range(n)
    ]
    if logprob:
        requests = [logprob_request(r, ("1", "0")) for r in requests]

    async def main() -> tuple[float, float, int]:
        await backend.complete_many(requests[:concurrency])  # warm up: connections open
        cpu0, t0 = cpu_s(), time.perf_counter()
        results = await backend.complete_many(requests)
        if logprob:
            results = [scored_result(r)[0] for r in results]
        elapsed, cpu = time.perf_counter() - t0, cpu_s() - cpu0
        await backend.aclose()
        return elapsed, cpu, sum(r.error is not None for r in results)

    return asyncio.run(main())


def run_inspect(base_url: str, n: int, concurrency: int) -> tuple[float, float, int]:
    os.environ["OPENAI_BASE_URL"] = base_url
    os.environ.setdefault("OPENAI_API_KEY", "not-needed-for-the-local-server")
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model

    config = GenerateConfig(
        max_connections=concurrency, temperature=0, max_tokens=1000, max_retries=6
    )
    # the Chat Completions API (inspect_ai defaults to the Responses API for OpenAI)
    model = get_model("openai/bench-model", config=config, responses_api=False)

    async def one(i: int) -> bool:
        out = await model.generate(
            [ChatMessageSystem(content=SYSTEM), ChatMessageUser(content=f"statement {i}")]
        )
        return out.error is None and out.completion == "1"

    async def main() -> tuple[float, float, int]:
        await asyncio.gather(*(one(-i - 1) for i in range(concurrency)))
        cpu0, t0 = cpu_s(), time.perf_counter()
        ok = await asyncio.gather(*(one(i) for i in range(n)))
        return time.perf_counter() - t0, cpu_s() - cpu0, ok.count(False)

    return asyncio.run(main())


def report(label: str, n: int, elapsed: float, cpu: float, errors: int, ideal: float) -> float:
    rate = n / elapsed
    print(
        f"{label:10s} {n} requests in {elapsed:6.2f} s = {rate:6.1f} req/s "
        f"({rate / ideal:5.1%} of ideal {ideal:.0f}/s), client CPU {cpu:.2f} s "
        f"({cpu / n * 1000:.2f} ms/request), errors {errors}"
    )
    return rate


def measured(proc: subprocess.Popen[str], label: str, n: int, run: Any) -> tuple[float, float, int]:
    """Runs ``run()`` and prints the server's CPU per request during it."""
    before = process_cpu_s(proc.pid)
    out = run()
    after = process_cpu_s(proc.pid)
    if before is not None and after is not None:
        per_request = (after - before) / n * 1000
        print(f"{'':10s} server CPU while {label} ran: {per_request:.2f} ms/request "
              f"(incl. warm-up), load average now {os.getloadavg()[0]:.2f}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--http-client", choices=("asyncio", "httpx"), default="asyncio")
    parser.add_argument("--no-inspect", action="store_true")
    parser.add_argument("--no-logprob", action="store_true")
    args = parser.parse_args()
    ideal = args.concurrency / args.latency
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    proc, base_url = start_server(args.latency)
    try:
        ours = measured(proc, "buildds", args.n,
                        lambda: run_buildds(base_url, args.n, args.concurrency, args.http_client))
        rate = report("buildds", args.n, *ours, ideal)
        if not args.no_logprob:
            lp = measured(proc, "logprob", args.n, lambda: run_buildds(
                base_url, args.n, args.concurrency, args.http_client, logprob=True))
            report("logprob", args.n, *lp, ideal)
        if args.no_inspect:
            return
        try:
            import inspect_ai  # noqa: F401
            import openai  # noqa: F401
        except ImportError as exc:
            print(f"inspect_ai comparison skipped: {exc} (pip install -e '.[bench]')")
            return
        theirs = measured(proc, "inspect_ai", args.n,
                          lambda: run_inspect(base_url, args.n, args.concurrency))
        their_rate = report("inspect_ai", args.n, *theirs, ideal)
        print(f"buildds / inspect_ai throughput ratio: {rate / their_rate:.2f}")
    finally:
        proc.terminate()
        proc.wait(5)


if __name__ == "__main__":
    main()
