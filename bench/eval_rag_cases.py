"""Faithfulness (heuristic judge) on realistic RAG answers written blind from CrowdRAG-25 passages, at the answer level.

Run: ``PYTHONPATH=$PWD python bench/eval_rag_cases.py tests/data/rag_answers_A.json [--context used] [--show]``.
Each case names its topic; the context is that topic's 20 retrieved passages (``--context all``, as a RAG system sees
them) or only the passages the answer was written from (``--context used``), read from
``../shared/data/trec-rag-24-crowd/responses.jsonl.gz``. Faithful = level 5 (what the rubric calls faithful); also
level >= 4. Prints balanced accuracy, the faithful answers flagged, the unfaithful caught (and caught on the wrong
statement), mean levels, P(faithful level > unfaithful level) with ties counted half, per kind, beside the
longer-answer baseline (shorter = faithful, the threshold chosen on the batch itself: an upper bound).
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path

import numpy as np

from ir_rag_axioms.datasets import topic_passages
from ir_rag_axioms.metrics import Faithfulness

RESPONSES = Path(__file__).resolve().parents[2] / "shared/data/trec-rag-24-crowd/responses.jsonl.gz"


def balanced(truth: np.ndarray, said: np.ndarray) -> float:
    """Mean recall of both classes."""
    return float((said[truth].mean() + (~said[~truth]).mean()) / 2)


def separation(good: np.ndarray, bad: np.ndarray) -> float:
    """P(a faithful answer's value > an unfaithful one's), ties half."""
    diff = good[:, None] - bad[None, :]
    return float(((diff > 0) + 0.5 * (diff == 0)).mean())


def caught_on_statement(case: dict, result) -> bool:
    """The claim holding the wrong statement is not supported."""
    wrong = case["wrong_statement"] or ""
    rows = [r for r in result.breakdown if r["statement"][:30] in wrong or wrong[:30] in r["statement"]]
    return any(r["verdict"] != "supported" for r in rows)


def report(cases: list[dict], results: list, show: bool) -> None:
    """Print the answer-level figures, overall and per kind."""
    truth = np.array([c["faithful"] for c in cases])
    level = np.array([r.level or 0 for r in results], dtype=float)
    length = np.array([len(c["answer"].split()) for c in cases], dtype=float)
    for name, said in (("level 5", level >= 5), ("level >= 4", level >= 4)):
        print(f"{name:10s}: balanced accuracy {balanced(truth, said):.3f}; faithful flagged "
              f"{int((~said[truth]).sum())}/{int(truth.sum())}; unfaithful caught {int((~said[~truth]).sum())}/"
              f"{int((~truth).sum())}")
    best = max(balanced(truth, length <= t) for t in np.unique(length))
    print(f"length baseline (shorter = faithful, best threshold on this batch): {best:.3f}")
    print(f"mean level: faithful {level[truth].mean():.2f}, unfaithful {level[~truth].mean():.2f}; "
          f"P(faithful level > unfaithful) {separation(level[truth], level[~truth]):.3f}")
    on = [caught_on_statement(c, r) for c, r in zip(cases, results, strict=True) if not c["faithful"]]
    print(f"unfaithful caught on the wrong statement: {sum(on)}/{len(on)}")
    kinds: dict[str, list[bool]] = collections.defaultdict(list)
    for case, value in zip(cases, level, strict=True):
        name = ("faithful " if case["faithful"] else "unfaithful ") + case["kind"]
        kinds[name].append((value >= 5) == case["faithful"])
    for kind, oks in sorted(kinds.items()):
        print(f"  {kind:34s} {sum(oks):2d}/{len(oks):2d}")
    for case, result in zip(cases, results, strict=True):
        if show and (result.level is not None and result.level >= 5) != case["faithful"]:
            print(f"WRONG {case['id']} {case['kind']} level {result.level}: {case['answer']}")
            for row in result.breakdown:
                print(f"    {row['verdict']:13s} p={row.get('p_supported', float('nan')):.2f} {row['statement']}"
                      f"  <- {row.get('evidence', '')}")


def main() -> None:
    """Judge every case of the files and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", type=Path, nargs="+")
    parser.add_argument("--context", choices=("all", "used"), default="all")
    parser.add_argument("--show", action="store_true", help="print the answers judged wrongly, claim by claim")
    args = parser.parse_args()
    cases = [c for path in args.cases for c in json.loads(path.read_text())["cases"]]
    by_topic = topic_passages(RESPONSES)
    contexts = [by_topic[c["topic"]] if args.context == "all" else [by_topic[c["topic"]][k] for k in c["passages_used"]]
                for c in cases]
    start = time.perf_counter()
    results = Faithfulness().measure_many([(c["answer"], ctx) for c, ctx in zip(cases, contexts, strict=True)])
    print(f"{len(cases)} answers, context: {args.context} passages, {time.perf_counter() - start:.0f} s")
    report(cases, results, args.show)


if __name__ == "__main__":
    main()
