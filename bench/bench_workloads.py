"""Throughput of the workloads users run, each a cold process (imports and model loading included).

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_workloads.py [--workloads rerank,metrics,evaluate]

Workloads:
- ``rerank``: the 883 answers of the 20 TREC RAG 2024 nugget topics reranked with the README's axioms (the RAG
  axioms but CLAR1), then a second and third aggregation in the same process (``bench_reranker.py --cases reuse``);
- ``metrics``: the four seed metrics (offline judge) over the 1,806 crowd responses (``bench_metrics.py --part
  throughput``);
- ``evaluate``: ``ir-rag-axioms evaluate --axioms ictir2025`` on the 65 judged crowd topics (CLAR1 skipped with a
  note when no LanguageTool server answers), no figures.
Prints each workload's wall seconds, its items per second and the load average beside it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
WORKLOADS = {
    "rerank": (883, "answers", [sys.executable, "bench/bench_reranker.py", "--cases", "reuse"]),
    "metrics": (1806, "responses", [sys.executable, "bench/bench_metrics.py", "--part", "throughput",
                                    "--data", str(SHARED / "data" / "trec-rag-24-crowd")]),
    "evaluate": (65, "topics", [sys.executable, "-m", "ir_rag_axioms.cli", "evaluate", "--data",
                                str(SHARED / "data" / "trec-rag-24-crowd"), "--axioms", "ictir2025", "--quiet",
                                "--no-figures", "--out"]),
}


def main(argv: list[str] | None = None) -> int:
    """Run the chosen workloads one after the other, each in a fresh process."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TQDM_DISABLE": "1", "TOKENIZERS_PARALLELISM": "false"}
    env.pop("IR_RAG_AXIOMS_CACHE", None)
    with tempfile.TemporaryDirectory() as out:
        for name in args.workloads.split(","):
            count, unit, command = WORKLOADS[name]
            command = [*command, out] if name == "evaluate" else command
            before = os.getloadavg()[0]
            start = time.perf_counter()
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
            seconds = time.perf_counter() - start
            print(f"== {name}: {seconds:.1f} s cold, {count / seconds:.2f} {unit}/s (exit {done.returncode}; load "
                  f"average {before:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)
            print("\n".join(done.stdout.strip().splitlines()[-12:]))
            if done.returncode:
                print(done.stderr[-2000:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
