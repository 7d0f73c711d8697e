"""Throughput of the workloads users run, each a cold process (imports and model loading included).

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_workloads.py [--workloads rerank,metrics,evaluate]
        [--rerank-topics 5] [--metrics-topics 50] [--evaluate-topics 15]

Workloads (the caps take the first N topics, so that each finishes on a shared machine; the printout says which):
- ``rerank``: the answers of the 20 TREC RAG 2024 nugget topics (883 answers) reranked with the README's axioms
  (the RAG axioms but CLAR1), then a second and third aggregation in the same process, then ``pt.Experiment`` of
  the three (``bench_reranker.py --cases reuse``);
- ``metrics``: the four seed metrics (offline judge) over the crowd responses (1,806 in 301 topics, six per
  topic; ``bench_metrics.py --part throughput``);
- ``evaluate``: ``ir-rag-axioms evaluate --axioms ictir2025`` on the 65 judged crowd topics (CLAR1 skipped with a
  note when no LanguageTool server answers), no figures.
Prints each workload's wall seconds, its items per second, the load average beside it and, for a capped run, the
full workload's seconds extrapolated linearly from the capped run's items per second (marked "extrapolated").
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
CROWD = SHARED / "data" / "trec-rag-24-crowd"
FULL = {"rerank": (883, "answers", 20), "metrics": (1806, "responses", 301), "evaluate": (65, "topics", 65)}
"""Per workload: the full count of items, their unit, and the full number of topics."""


def command(name: str, topics: int | None, out: str) -> list[str]:
    """The command line of a workload, capped to the first ``topics`` topics (None: all)."""
    cap = [] if topics is None else [str(topics)]
    if name == "rerank":
        return [sys.executable, "bench/bench_reranker.py", "--cases", "reuse", *(["--topics", *cap] if cap else [])]
    if name == "metrics":
        return [sys.executable, "bench/bench_metrics.py", "--part", "throughput", "--data", str(CROWD),
                *(["--limit", *cap] if cap else [])]
    return [sys.executable, "-m", "ir_rag_axioms.cli", "evaluate", "--data", str(CROWD), "--axioms", "ictir2025",
            "--quiet", "--no-figures", *(["--topics", *cap] if cap else []), "--out", out]


def items_done(name: str, topics: int | None, stdout: str) -> int:
    """The number of items the (capped) run handled, read from its output where it prints it."""
    full, _, all_topics = FULL[name]
    if topics is None or topics >= all_topics:
        return full
    pattern = {"rerank": r"answers: (\d+) in", "metrics": r"metrics on (\d+) responses"}.get(name)
    found = re.search(pattern, stdout) if pattern else None
    return int(found.group(1)) if found else topics


def main(argv: list[str] | None = None) -> int:
    """Run the chosen workloads one after the other, each in a fresh process."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workloads", default=",".join(FULL))
    parser.add_argument("--rerank-topics", type=int, default=None, help="only the first N of the 20 nugget topics")
    parser.add_argument("--metrics-topics", type=int, default=None, help="only the first N of the 301 crowd topics")
    parser.add_argument("--evaluate-topics", type=int, default=None, help="only the first N of the 65 judged topics")
    args = parser.parse_args(argv)
    caps = {"rerank": args.rerank_topics, "metrics": args.metrics_topics, "evaluate": args.evaluate_topics}
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TQDM_DISABLE": "1", "TOKENIZERS_PARALLELISM": "false"}
    env.pop("IR_RAG_AXIOMS_CACHE", None)
    for name in args.workloads.split(","):
        full, unit, all_topics = FULL[name]
        topics = caps[name]
        with tempfile.TemporaryDirectory() as out:
            before = os.getloadavg()[0]
            start = time.perf_counter()
            done = subprocess.run(command(name, topics, out), cwd=ROOT, env=env, capture_output=True, text=True,
                                  check=False)
            seconds = time.perf_counter() - start
        count = items_done(name, topics, done.stdout)
        scope = f"{count} of {full} {unit}" + (f" (first {topics} of {all_topics} topics)" if count < full else "")
        print(f"== {name}: {scope}: {seconds:.1f} s cold, {count / seconds:.2f} {unit}/s (exit {done.returncode}; "
              f"load average {before:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
        if count < full:
            print(f"   extrapolated to all {full} {unit}: {seconds * full / count:.0f} s (linear in the items, "
                  f"fixed costs counted once per item too: an upper estimate)")
        print("\n".join(done.stdout.strip().splitlines()[-12:]))
        if done.returncode:
            print(done.stderr[-2000:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
