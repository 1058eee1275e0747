"""Lighthouse on the feed as a phone sees it: mobile preset, simulated slow 4G, Debian's Chromium.

Starts the embedded server (as `make run`: SQLite, embedded index, demo content) on a free port, runs
Lighthouse (bench/lighthouse/package.json pins it; `npm --prefix bench/lighthouse ci` installs it)
several times against each route and prints the median of each figure: performance score, first
contentful paint, largest contentful paint, total blocking time, bytes transferred (all, and scripts).

    npm --prefix bench/lighthouse ci                     # once
    .venv/bin/python -m bench.bench_lighthouse [--runs 3] [--routes /] [--dist frontend/dist]
    .venv/bin/python -m bench.bench_lighthouse --base http://127.0.0.1:8000   # a server already running

The data directory (data/bench/lighthouse by default) is kept, so the demo content is loaded once.
`--dist` serves another build (e.g. main's, for a before/after comparison).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.servers import ROOT, embedded_server
from tests.e2e.conftest import CHROMIUM_ARGS

LIGHTHOUSE = ROOT / "bench" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = " ".join(CHROMIUM_ARGS)  # the e2e tests' flags: this machine's closed network needs them


@dataclass(frozen=True)
class LighthouseRun:
    performance: float
    first_contentful_paint_ms: float
    largest_contentful_paint_ms: float
    total_blocking_time_ms: float
    transferred_kib: float
    script_kib: float
    accessibility: float

    @classmethod
    def from_report(cls, report: dict[str, object]) -> LighthouseRun:
        audits: dict[str, dict[str, object]] = report["audits"]  # type: ignore[assignment]
        categories: dict[str, dict[str, object]] = report["categories"]  # type: ignore[assignment]

        def numeric(audit: str) -> float:
            return float(audits[audit]["numericValue"])  # type: ignore[arg-type]

        summary = audits["resource-summary"]["details"]["items"]  # type: ignore[index]
        script_bytes = next(item["transferSize"] for item in summary if item["resourceType"] == "script")
        return cls(
            performance=float(categories["performance"]["score"]),  # type: ignore[arg-type]
            first_contentful_paint_ms=numeric("first-contentful-paint"),
            largest_contentful_paint_ms=numeric("largest-contentful-paint"),
            total_blocking_time_ms=numeric("total-blocking-time"),
            transferred_kib=numeric("total-byte-weight") / 1024,
            script_kib=script_bytes / 1024,
            accessibility=float(categories["accessibility"]["score"]),  # type: ignore[arg-type]
        )


def run_lighthouse(url: str, report_path: Path) -> LighthouseRun:
    """One Lighthouse run. Its defaults are the mobile preset (Moto G Power screen) with simulated
    throttling of a slow 4G link (150 ms RTT, 1.6 Mbit/s) and a CPU 4 times slower: stated explicitly."""
    command = [
        str(LIGHTHOUSE),
        url,
        f"--chrome-flags={CHROME_FLAGS}",
        "--form-factor=mobile",
        "--screenEmulation.mobile",
        "--throttling-method=simulate",
        "--throttling.rttMs=150",
        "--throttling.throughputKbps=1638.4",
        "--throttling.cpuSlowdownMultiplier=4",
        "--output=json",
        f"--output-path={report_path}",
        "--quiet",
    ]
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300)
    return LighthouseRun.from_report(json.loads(report_path.read_text()))


def median_run(runs: list[LighthouseRun]) -> LighthouseRun:
    return LighthouseRun(
        performance=statistics.median(run.performance for run in runs),
        first_contentful_paint_ms=statistics.median(run.first_contentful_paint_ms for run in runs),
        largest_contentful_paint_ms=statistics.median(run.largest_contentful_paint_ms for run in runs),
        total_blocking_time_ms=statistics.median(run.total_blocking_time_ms for run in runs),
        transferred_kib=statistics.median(run.transferred_kib for run in runs),
        script_kib=statistics.median(run.script_kib for run in runs),
        accessibility=statistics.median(run.accessibility for run in runs),
    )


def measure(base: str, routes: list[str], runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as reports:
        for route in routes:
            # One unmeasured visit first: the server's first feed answer warms its caches.
            httpx.get(base + route, timeout=30)
            results = [run_lighthouse(base + route, Path(reports) / f"run{index}.json") for index in range(runs)]
            median = median_run(results)
            print(
                f"RESULT route={route} runs={runs} performance={median.performance:.2f} "
                f"fcp_s={median.first_contentful_paint_ms / 1000:.2f} "
                f"lcp_s={median.largest_contentful_paint_ms / 1000:.2f} "
                f"tbt_ms={median.total_blocking_time_ms:.0f} transferred_kib={median.transferred_kib:.0f} "
                f"script_kib={median.script_kib:.0f} accessibility={median.accessibility:.2f}"
            )
            for index, result in enumerate(results):
                print(f"    run {index + 1}: {result}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per route (the median is reported)")
    parser.add_argument("--routes", nargs="*", default=["/"], help="paths to audit; / is the feed")
    parser.add_argument("--base", help="audit this running server instead of starting one")
    parser.add_argument("--dist", type=Path, help="the built front end to serve (default: frontend/dist)")
    parser.add_argument("--data-dir", type=Path, default=ROOT / "data" / "bench" / "lighthouse")
    parser.add_argument("--demo-tours", type=int, default=2000)
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit("Lighthouse is not installed: npm --prefix bench/lighthouse ci")
    if args.base:
        measure(args.base.rstrip("/"), args.routes, args.runs)
        return
    with embedded_server(args.data_dir, args.dist, args.demo_tours) as (base, _pid):
        measure(base, args.routes, args.runs)


if __name__ == "__main__":
    main()
