"""The RAG metrics with the offline judge on CrowdRAG-25: calibration, agreement, length bias, throughput.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_metrics.py [--data ../shared/data/trec-rag-24-crowd] [--part all]

``--part calibrate``: grid search of the offline judge's thresholds on the even-numbered judged topics (sorted ids),
reported on the odd ones too; ``agreement``: the three metric axioms against the matching crowd dimension and
"overall" on the 65 judged topics; ``length``: padding with irrelevant sentences and repeating content; ``throughput``:
all four metrics on the 1,806 crowd responses from an empty analysis.
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
    from ir_rag_axioms.metrics import OFFLINE_JUDGE
    from ir_rag_axioms.metrics.calibration import choose, raw_scores, seed_interval, sweep

    items = sorted(judged(data), key=lambda item: item[0].id)
    start = time.perf_counter()
    raw = raw_scores(items, OFFLINE_JUDGE)
    print(f"raw match scores of {sum(len(r) for _, r in items)} responses: {time.perf_counter() - start:.1f} s")
    halves = {"calibration": slice(0, None, 2), "held-out": slice(1, None, 2)}
    seeds = seed_interval(OFFLINE_JUDGE)
    print(f"no-thresholds that reproduce the seed's verdicts: ({seeds[0]:.3f}, {seeds[1]:.3f}]")
    for name, scores, rubric, margin in (("ANSWER_RELEVANCY", raw.relevance, False, 0.1),
                                         ("FAITHFULNESS", raw.support, True, 0.0),
                                         ("CONTEXT_RECALL", raw.coverage, True, 0.0)):
        oracle = oracle_matrices(data, DIMENSIONS[name], items)
        tables = {h: sweep(scores[s], oracle[s], rubric, margin) for h, s in halves.items()}
        print(f"\n{name} vs {DIMENSIONS[name]}: best threshold {choose(tables['calibration']):.3f}", end="")
        print(f"; within the seed interval {choose(tables['calibration'], seeds):.3f}" if not rubric else "")
        merged = tables["calibration"].merge(tables["held-out"], on="threshold", suffixes=("", "_held_out"))
        columns = ["threshold", "decisiveness", "consistency", "effectiveness", "decisiveness_held_out",
                   "consistency_held_out", "effectiveness_held_out"]
        print(merged[columns].to_string(index=False, float_format="%.3f"))


def agreement(data: Path) -> None:
    from ir_rag_axioms import ANSWER_RELEVANCY, CONTEXT_RECALL, FAITHFULNESS, evaluation_table
    from ir_rag_axioms.evaluation import compute_preferences
    from ir_rag_axioms.report import markdown

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


def throughput(data: Path) -> None:
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.datasets import crowd
    from ir_rag_axioms.metrics import AnswerRelevancy, ContextRecall, Faithfulness, RubricAnswerRelevancy

    items = crowd.items(crowd.load_crowd_responses(data))
    pairs = [(q, r.text) for q, responses in items for r in responses]
    AnswerRelevancy().measure("warm up", "Models load once. Then they are fast.")
    default_analysis().clear()
    start, total = time.perf_counter(), 0.0
    for metric, cases in ((AnswerRelevancy(), [(q.text, t) for q, t in pairs]),
                          (RubricAnswerRelevancy(), [(q.text, t) for q, t in pairs]),
                          (Faithfulness(), [(t, q.context) for q, t in pairs]),
                          (ContextRecall(), [(t, q.context) for q, t in pairs])):
        step = time.perf_counter()
        metric.measure_many(cases)
        seconds = time.perf_counter() - step
        total += seconds
        print(f"{type(metric).__name__}: {seconds:.1f} s ({len(cases) / seconds:.1f} responses/s)")
    print(f"all four metrics on {len(pairs)} responses in {len(items)} topics: {time.perf_counter() - start:.1f} s, "
          f"{len(pairs) / total:.2f} responses/s (each metric after the ones before it shares their analysis)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--part", default="all", choices=("all", "calibrate", "agreement", "length", "throughput"))
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parts = {"calibrate": calibrate, "agreement": agreement, "length": length_bias, "throughput": throughput}
    for name, run in parts.items():
        if args.part in ("all", name):
            print(f"== {name}")
            run(args.data)


if __name__ == "__main__":
    main()
