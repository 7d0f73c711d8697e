"""Benchmark ``preference_stacks`` at scale: streaming vs one chunk (wall time, peak RSS) and Ray vs local.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_scale.py [--sizes 65,150,301] [--workers 2] [--json out.json]

Every run happens in a fresh subprocess, so its peak RSS (``ru_maxrss`` of that process) is its own. Each run
computes the ten RAG axioms of the ICTIR 2025 preset without CLAR1 on the first N crowd topics (20 passages and
6 responses per topic), with one spaCy process and one torch thread (one core, as one Ray actor):
- local, streaming (``chunk_size`` 16, through the process default analysis and its default LRU bound) and
  local, one chunk (everything in one analysis), for each N; their matrices must be identical (``--streaming-only``
  skips the one-chunk runs);
- Ray with ``--workers`` actors on the first N of ``--sizes``; its matrices must equal the local ones.
Times exclude loading the topics and (local runs) the models; the Ray time includes starting the actors and
loading the models in each of them. The projection assumes linear scaling by topic partitioning (each worker
gets whole topics; no shared state) at the measured local streaming throughput per worker, plus nothing for
model loading (a few seconds per worker).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TQDM_DISABLE", "1")
os.environ["IR_RAG_AXIOMS_WORKERS"] = "1"  # one core per run, like one Ray actor
ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
PROJECTED_ANSWERS = 100_000
PROJECTED_WORKERS = (1, 8, 64)


def crowd_topics(count: int) -> list:
    """The first ``count`` crowd topics as (request with 20 passages, 6 responses)."""
    from ir_rag_axioms.datasets import crowd

    return crowd.items(crowd.load_crowd_responses(SHARED / "data" / "trec-rag-24-crowd" / "responses.jsonl.gz"))[:count]


def child(spec: dict) -> dict:
    """One measured run in this (fresh) process: stacks saved to ``spec['out']``, figures returned."""
    import numpy as np
    import psutil

    from ir_rag_axioms.axioms.execution import preference_stacks
    from ir_rag_axioms.axioms.presets import ictir2025

    axioms = [a for name, a in ictir2025(include_clar1=False).items() if not name.startswith("GEN")]
    items = crowd_topics(spec["topics"])
    options = {"backend": spec["backend"], "chunk_size": spec["chunk_size"], "workers": spec.get("workers")}
    setup = warm_up(spec, axioms, items)
    baseline = psutil.Process().memory_info().rss
    cpu, start = cpu_seconds(), time.perf_counter()
    stacks, actors_cpu = [], 0.0
    for stack in preference_stacks(axioms, items, **options):
        stacks.append(stack)
        actors_cpu = max(actors_cpu, actor_cpu_seconds()) if spec["backend"] == "ray" else 0.0
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    np.savez(spec["out"], *stacks)
    return {**spec, **setup, "axioms": len(axioms), "responses": sum(len(r) for _, r in items), "seconds": seconds,
            "cpu_s": cpu + actors_cpu, "load": os.getloadavg()[0], "baseline_mb": baseline / 2**20,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def cpu_seconds() -> float:
    """User + system CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def actor_cpu_seconds() -> float:
    """User + system CPU seconds of the running Ray ``StackWorker`` actor processes (titled ray::StackWorker)."""
    import psutil

    total = 0.0
    for process in psutil.process_iter(["cmdline", "cpu_times"]):
        if process.info["cpu_times"] and "StackWorker" in " ".join(process.info["cmdline"] or []):
            total += process.info["cpu_times"].user + process.info["cpu_times"].system
    return total


def warm_up(spec: dict, axioms: list, items: list) -> dict[str, float]:
    """Warm up the backend before the timed runs.

    Local: load the models (not timed in the run). Ray: start it, and time a run of one topic per actor (startup cost).
    """
    start = time.perf_counter()
    if spec["backend"] == "local":
        from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

        list(load_spacy().pipe(["A warm-up sentence about Paris."] * 8))
        load_sentence_encoder().encode(["warm-up"] * 8)
        return {"setup_s": time.perf_counter() - start}
    import ray

    from ir_rag_axioms.axioms.execution import preference_stacks

    ray.init(num_cpus=spec["workers"], include_dashboard=False, log_to_driver=False)
    setup = time.perf_counter() - start
    start = time.perf_counter()
    list(preference_stacks(axioms, items[: spec["workers"]], backend="ray", chunk_size=1, workers=spec["workers"]))
    return {"setup_s": setup, "startup_s": time.perf_counter() - start}


def run(spec: dict, folder: Path) -> dict:
    """Run ``spec`` in a fresh Python process and return its figures (the stacks stay in ``folder``)."""
    spec = {**spec, "out": str(folder / f"{spec['backend']}-{spec['topics']}-{spec['chunk_size']}.npz")}
    done = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)], cwd=ROOT, check=True,
                          stdout=subprocess.PIPE, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"  {result['backend']:<5} {result['topics']:>4} topics, chunk {result['chunk_size']:>3}: "
          f"{result['seconds']:7.1f} s ({result['cpu_s']:6.1f} CPU s), peak RSS {result['peak_mb']:6.0f} MB, "
          f"load average {result['load']:.1f}", flush=True)
    return result


def assert_identical(first: dict, second: dict) -> None:
    """The two runs' saved stacks are equal (np.array_equal), topic by topic."""
    import numpy as np

    with np.load(first["out"]) as a, np.load(second["out"]) as b:
        assert a.files == b.files, "different numbers of topics"
        for key in a.files:
            assert np.array_equal(a[key], b[key]), f"{key}: {first['backend']} and {second['backend']} differ"


def scaling_table(streaming: list[dict], whole: list[dict]) -> None:
    """Per N: streaming and one-chunk time and peak RSS, and the one-chunk / streaming ratios side by side."""
    print(f"\n{'topics':>6}{'responses':>10} | {'stream s':>9}{'peak MB':>9} | {'1-chunk s':>10}{'peak MB':>9} |"
          f"{'time 1-chunk/stream':>21}{'RSS 1-chunk/stream':>20}")
    for s, w in zip(streaming, whole, strict=True):
        print(f"{s['topics']:>6}{s['responses']:>10} | {s['seconds']:>9.1f}{s['peak_mb']:>9.0f} | "
              f"{w['seconds']:>10.1f}{w['peak_mb']:>9.0f} |{w['seconds'] / s['seconds']:>21.2f}"
              f"{w['peak_mb'] / s['peak_mb']:>20.2f}")
    first, last = streaming[0], streaming[-1]
    print(f"growth {first['topics']} -> {last['topics']} topics: peak RSS x{last['peak_mb'] / first['peak_mb']:.2f} "
          f"streaming, x{whole[-1]['peak_mb'] / whole[0]['peak_mb']:.2f} one chunk; "
          f"seconds per topic {first['seconds'] / first['topics']:.2f} -> "
          f"{last['seconds'] / last['topics']:.2f} streaming")


def ray_table(local: dict, distributed: dict) -> None:
    """Ray vs local on the same topics: speed-up and overhead ratios.

    Wall: Ray s x workers / local s; CPU: Ray CPU s / local CPU s.
    """
    workers, startup = distributed["workers"], distributed["startup_s"]
    overhead = distributed["seconds"] * workers / local["seconds"]
    steady = (distributed["seconds"] - startup) * workers / (local["seconds"] * (1 - workers / local["topics"]))
    print(f"\nRay, {workers} workers, {distributed['topics']} topics (chunk {distributed['chunk_size']}): "
          f"{distributed['seconds']:.1f} s vs local streaming {local['seconds']:.1f} s: matrices identical")
    print(f"{'speed-up':>10}{'wall overhead':>15}{'without startup':>17}{'CPU overhead':>14}{'actor startup s':>17}"
          f"{'ray.init s':>12}{'driver peak MB':>16}")
    print(f"{local['seconds'] / distributed['seconds']:>10.2f}{overhead:>15.2f}{steady:>17.2f}"
          f"{distributed['cpu_s'] / local['cpu_s']:>14.2f}{startup:>17.1f}{distributed['setup_s']:>12.1f}"
          f"{distributed['peak_mb']:>16.0f}")
    print("(wall overhead = Ray s x workers / local s, 1.00 = perfect linear scaling; 'without startup' subtracts "
          "a run of one topic per actor, which starts the actors and loads their models; CPU overhead = CPU s of "
          "the driver and the actors / CPU s of the local run, insensitive to other load on the machine)")


def projection(streaming: dict) -> None:
    """Throughput per worker (one dedicated core: per CPU second) and the time for PROJECTED_ANSWERS answers.

    Projected for 1, 8 and 64 workers.
    """
    shared = streaming["responses"] / streaming["cpu_s"]  # 6 answers share a topic's 20 passages (crowd data)
    own = streaming["topics"] / streaming["cpu_s"]  # an answer with its own 20 passages costs at most one topic
    print(f"\nthroughput per worker ({streaming['topics']} topics, local streaming, {streaming['axioms']} axioms, "
          f"per CPU second; wall: {streaming['responses'] / streaming['seconds']:.2f} responses/s at load average "
          f"{streaming['load']:.1f}): {shared:.2f} responses/s (6 answers per 20-passage context); {own:.2f} answers "
          "with their own 20 passages/s (each costed as a whole topic: an upper bound on the cost)")
    print(f"projection for {PROJECTED_ANSWERS:,} answers with 20 passages each (linear scaling by topic partitioning, "
          "one dedicated core per worker, model loading excluded):")
    print(f"{'workers':>8}{'shared context h':>18}{'own context h':>15}")
    for workers in PROJECTED_WORKERS:
        print(f"{workers:>8}{PROJECTED_ANSWERS / (shared * workers) / 3600:>18.2f}"
              f"{PROJECTED_ANSWERS / (own * workers) / 3600:>15.2f}")


def main(argv: list[str] | None = None) -> int:
    """Run every measurement in its own subprocess, check the matrices agree, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="65,150,301", help="numbers of topics, comma-separated")
    parser.add_argument("--chunk-size", type=int, default=16, help="topics per chunk when streaming")
    parser.add_argument("--workers", type=int, default=2, help="Ray actors (0: skip the Ray run)")
    parser.add_argument("--ray-chunk-size", type=int, default=8, help="topics per chunk on Ray")
    parser.add_argument("--json", type=Path, help="write all figures to this file")
    parser.add_argument("--streaming-only", action="store_true", help="skip the one-chunk runs")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    sizes = [int(n) for n in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        streaming, whole = [], []
        for n in sizes:
            streaming.append(run({"backend": "local", "topics": n, "chunk_size": args.chunk_size}, folder))
            if not args.streaming_only:
                whole.append(run({"backend": "local", "topics": n, "chunk_size": n}, folder))
                assert_identical(streaming[-1], whole[-1])
        results: dict = {"streaming": streaming, "one_chunk": whole}
        if args.workers:
            spec = {"backend": "ray", "topics": sizes[0], "chunk_size": args.ray_chunk_size, "workers": args.workers}
            results["ray"] = run(spec, folder)
            assert_identical(streaming[0], results["ray"])
    if whole:
        scaling_table(streaming, whole)
    else:
        first, last = streaming[0], streaming[-1]
        print(f"growth {first['topics']} -> {last['topics']} topics, streaming: peak RSS "
              f"{first['peak_mb']:.0f} -> {last['peak_mb']:.0f} MB = x{last['peak_mb'] / first['peak_mb']:.2f} "
              "(target: within 20 %)")
    if args.workers:
        ray_table(streaming[0], results["ray"])
    projection(streaming[-1])
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
