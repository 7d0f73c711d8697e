"""The RAG metrics with the heuristic judge on CrowdRAG-25: calibration, agreement, length bias, throughput.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_metrics.py [--data ../shared/data/trec-rag-24-crowd] [--part all]
        [--before ../old-checkout] [--limit N]

``--part calibrate``: the three metric axioms against their crowd dimension on the 65 judged topics, before (match
scores alone) and after (with the checks), at the default thresholds and held out in 5-fold topic cross-validation;
``agreement``: the three metric axioms against the matching crowd dimension and "overall"; ``length``: padding with
irrelevant sentences and repeating content; ``throughput``: all four metrics on the 1,806 crowd responses from an
empty analysis (``--before PATH``: the code of another checkout first, in a subprocess, and both side by side).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared/data/trec-rag-24-crowd"
DIMENSIONS = {"ANSWER_RELEVANCY": "topical correctness", "FAITHFULNESS": "internal consistency",
              "CONTEXT_RECALL": "broad coverage"}
PADDING = ("Our company was founded in 2010.", "We have offices in three countries.",
           "The Eiffel Tower is in Paris.", "Bananas are rich in potassium.")


def judged(data: Path):
    from ir_rag_axioms import CrowdOracle
    from ir_rag_axioms.datasets import judged_items

    return judged_items(CrowdOracle(data_dir=str(data)), data)


def oracle_matrices(data: Path, utility: str, items):
    from ir_rag_axioms import CrowdOracle

    return CrowdOracle(utility=utility, data_dir=str(data)).preferences_batch(items)


def calibrate(data: Path) -> None:
    """Held-out agreement of the three metric axioms before (similarity alone) and after (checks), 5-fold topic CV."""
    from calibration import GRID, cross_validate, raw_scores, seed_interval, threshold_counts  # bench/calibration.py
    from calibration import values_at as at

    from ir_rag_axioms.metrics import HEURISTIC_JUDGE as judge

    items = sorted(judged(data), key=lambda item: item[0].id)
    start = time.perf_counter()
    raw = raw_scores(items, judge)
    print(f"raw match scores and checks of {sum(len(r) for _, r in items)} responses in {len(items)} topics: "
          f"{time.perf_counter() - start:.1f} s")
    seeds = seed_interval(judge)
    print(f"no-thresholds that reproduce the seed's verdicts: ({seeds[0]:.3f}, {seeds[1]:.3f}]")
    bands, cap = judge.level_bands, judge.contradiction_cap
    setups = {
        "ANSWER_RELEVANCY": (0.1, judge.no_threshold, seeds,
                             lambda t: at(raw.relevance, t, False, bands),
                             lambda t: at(raw.relevance_checked, t, False, bands)),
        "FAITHFULNESS": (0.0, judge.support_threshold, (-np.inf, np.inf),
                         lambda t: at(raw.support, t, True, bands),
                         lambda t: at(raw.support_checked, t, True, bands, raw.contradicted, cap, np.nan)),
        "CONTEXT_RECALL": (0.0, judge.recall_threshold, (-np.inf, np.inf),
                           lambda t: at(raw.coverage, t, True, bands),
                           lambda t: at(raw.coverage_checked, t, True, bands)),
    }
    print("\n| axiom | crowd dimension | judge | threshold | consistency (all 65 topics) | held-out (5-fold topic CV): "
          "decisiveness / consistency / effectiveness | thresholds chosen per fold |")
    print("|---|---|---|---|---|---|---|")
    for name, (margin, default, allowed, before, after) in setups.items():
        oracle = oracle_matrices(data, DIMENSIONS[name], items)
        for label, values in (("similarity only (before)", before), ("checks (after)", after)):
            counts = threshold_counts(values, oracle, margin)
            k = int(np.argmin(np.abs(np.asarray(GRID) - default)))
            fixed = scores_from(counts[k].sum(axis=0))
            held, chosen = cross_validate(counts, allowed=allowed)
            print(f"| {name} | {DIMENSIONS[name]} | {label} | {default:g} | {fixed['consistency']:.3f} | "
                  f"{held['decisiveness']:.3f} / {held['consistency']:.3f} / {held['effectiveness']:.3f} | "
                  f"{', '.join(f'{c:g}' for c in chosen)} |")


def scores_from(counts):
    from ir_rag_axioms.evaluation import scores_from_counts

    return scores_from_counts(counts)


def agreement(data: Path) -> None:
    from ir_rag_axioms import ANSWER_RELEVANCY, CONTEXT_RECALL, FAITHFULNESS, evaluation_table
    from ir_rag_axioms.evaluation import compute_preferences
    from ir_rag_axioms.evaluation.report import markdown

    items = judged(data)
    axioms = {"ANSWER_RELEVANCY": ANSWER_RELEVANCY, "FAITHFULNESS": FAITHFULNESS, "CONTEXT_RECALL": CONTEXT_RECALL}
    start = time.perf_counter()
    preferences = compute_preferences(axioms, items)
    print(f"preferences of the three metric axioms on {len(items)} topics: {time.perf_counter() - start:.1f} s")
    for utility in ("overall", *dict.fromkeys(DIMENSIONS.values())):
        table = evaluation_table(preferences, oracle_matrices(data, utility, items), samples=1000)
        print(f"\ncrowd oracle: {utility}")
        print(markdown(table))


def length_bias(data: Path) -> None:
    from ir_rag_axioms.metrics import AnswerRelevancy, Faithfulness, RubricAnswerRelevancy

    items = judged(data)
    pairs = [(q, r.text) for q, responses in items for r in responses]
    padded = [(q, f"{text}\n\n{' '.join(PADDING)}") for q, text in pairs]
    relevancy = AnswerRelevancy()
    before = [r.score for r in relevancy.measure_many([(q.text, t) for q, t in pairs])]
    after = [r.score for r in relevancy.measure_many([(q.text, t) for q, t in padded])]
    report("AnswerRelevancy, padded with 4 irrelevant sentences", before, after)
    faithfulness = Faithfulness()
    before = [r.level for r in faithfulness.measure_many([(t, q.context) for q, t in pairs])]
    after = [r.level for r in faithfulness.measure_many([(t, q.context) for q, t in padded])]
    report("Faithfulness level, padded", before, after)
    rubric = RubricAnswerRelevancy()
    repeated = [(q, f"{text}\n\n{text}") for q, text in pairs]
    for metric, label in ((rubric, "RubricAnswerRelevancy"), (faithfulness, "Faithfulness")):
        args = (lambda q, t: (q.text, t)) if metric is rubric else (lambda q, t: (t, q.context))
        before = [r.level for r in metric.measure_many([args(q, t) for q, t in pairs])]
        after = [r.level for r in metric.measure_many([args(q, t) for q, t in repeated])]
        report(f"{label} level, content said twice", before, after)


def report(label: str, before, after) -> None:
    b, a = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    print(f"{label}: {len(b)} responses; raised {int((a > b).sum())}, unchanged {int((a == b).sum())}, lowered "
          f"{int((a < b).sum())}; mean {b.mean():.3f} -> {a.mean():.3f}")


def throughput(data: Path, limit: int | None = None) -> dict[str, float]:
    """All four metrics on the crowd responses (the first ``limit`` topics), from an empty analysis."""
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.datasets import crowd
    from ir_rag_axioms.metrics import AnswerRelevancy, ContextRecall, Faithfulness, RubricAnswerRelevancy

    items = crowd.items(crowd.load_crowd_responses(data))[:limit]
    pairs = [(q, r.text, r.context or q.context) for q, responses in items for r in responses]
    AnswerRelevancy().measure("warm up", "Models load once. Then they are fast.")
    default_analysis().clear()
    start, total, out = time.perf_counter(), 0.0, {}
    for metric, cases in ((AnswerRelevancy(), [(q.text, t) for q, t, _ in pairs]),
                          (RubricAnswerRelevancy(), [(q.text, t) for q, t, _ in pairs]),
                          (Faithfulness(), [(t, c) for _, t, c in pairs]),
                          (ContextRecall(), [(t, c) for _, t, c in pairs])):
        step = time.perf_counter()
        metric.measure_many(cases)
        seconds = time.perf_counter() - step
        total += seconds
        out[type(metric).__name__] = seconds
        print(f"{type(metric).__name__}: {seconds:.1f} s ({len(cases) / seconds:.1f} responses/s)", flush=True)
    out["all"] = total
    print(f"all four metrics on {len(pairs)} responses in {len(items)} topics: {time.perf_counter() - start:.1f} s, "
          f"{len(pairs) / total:.2f} responses/s (each metric after the ones before it shares their analysis)")
    return out


def compare_throughput(data: Path, before: Path, limit: int | None) -> None:
    """Throughput of the code at ``before`` (a checkout, in a subprocess) and of this one, side by side."""
    import json
    import subprocess
    import sys

    code = ("import json, sys; sys.argv = ['x']; from pathlib import Path; import runpy; "
            f"m = runpy.run_path({str(Path(__file__).resolve())!r}); "
            f"print('RESULT', json.dumps(m['throughput'](Path({str(data)!r}), {limit!r})))")
    env = {**os.environ, "PYTHONPATH": str(before)}
    print(f"== before: {before}", flush=True)
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    print("\n".join(line for line in run.stdout.splitlines() if not line.startswith("RESULT")))
    old = json.loads(next(line for line in run.stdout.splitlines() if line.startswith("RESULT"))[7:])
    print("== after: this checkout", flush=True)
    new = throughput(data, limit)
    print("\n| metric | before | after | after / before (time) |\n|---|---|---|---|")
    for name in new:
        print(f"| {name} | {old.get(name, float('nan')):.1f} s | {new[name]:.1f} s | "
              f"{new[name] / old.get(name, float('nan')):.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--part", default="all", choices=("all", "calibrate", "agreement", "length", "throughput"))
    parser.add_argument("--before", type=Path, default=None,
                        help="throughput: also run the code of this checkout (e.g. a worktree of an older commit) "
                             "in a subprocess and print both side by side")
    parser.add_argument("--limit", type=int, default=None, help="throughput: only the first N topics")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parts = {"calibrate": calibrate, "agreement": agreement, "length": length_bias}
    for name, run in parts.items():
        if args.part in ("all", name):
            print(f"== {name}")
            run(args.data)
    if args.part in ("all", "throughput"):
        print("== throughput")
        if args.before is not None:
            compare_throughput(args.data, args.before, args.limit)
        else:
            throughput(args.data, args.limit)


if __name__ == "__main__":
    main()
