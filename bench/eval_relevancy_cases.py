"""Accuracy of AnswerRelevancy (task mode, pass = score >= 0.5) on the hand-made cases, per split and per kind.

Run: ``PYTHONPATH=$PWD python bench/eval_relevancy_cases.py [--show dev] [--cases FILE]``. The dev split may be looked
at while changing the code; the held-out split (and relevancy_cases_2.json) only reported.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

from ir_rag_axioms.metrics import AnswerRelevancy

CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "relevancy_cases.json"


def main() -> None:
    """Print accuracy per split and kind, the wrong dev cases with --show dev."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--show", default="", help="print the wrong cases of this split")
    parser.add_argument("--cases", type=Path, default=CASES, help="the cases file (relevancy_cases_2.json: held-out)")
    args = parser.parse_args()
    cases = json.loads(args.cases.read_text())["cases"]
    start = time.perf_counter()
    results = AnswerRelevancy().measure_many([(c["query"], c["answer"]) for c in cases])
    took = time.perf_counter() - start
    right: dict[tuple[str, str], list[bool]] = collections.defaultdict(list)
    for case, result in zip(cases, results, strict=True):
        ok = (result.score >= 0.5) == case["relevant"]
        right[case["split"], case["kind"]].append(ok)
        right[case["split"], "ALL"].append(ok)
        if not ok and case["split"] == args.show:
            print(f"WRONG {case['id']}: {case['query']} | {case['answer']} -> {result.score:.2f}",
                  [(s.verdict, s.reason) for s in result.statement_breakdown])
    for (split, kind), oks in sorted(right.items()):
        print(f"{split:9s} {kind:22s} {sum(oks):3d}/{len(oks):3d} = {sum(oks) / len(oks):.2f}")
    print(f"{len(cases)} cases in {took:.1f} s")


if __name__ == "__main__":
    main()
