"""Measure a Faithfulness judge on the contradiction batches: detected negatives and flagged supported answers.

    python examples/faithfulness_batches.py                                   # the heuristic judge
    python examples/faithfulness_batches.py --nli-model models/nli-deberta-v3-base   # EntailmentJudge

Each batch (``tests/data/contradictions_heldout*.json`` by default) holds cases of one answer, one passage and the
expected faithfulness (true: supported; false: contradicted or unsupported). An answer is *flagged* when any of its
claims is judged contradicted or unsupported (as ``tests/test_contradictions.py`` counts). Prints one line per batch
and the total; ``--misses`` also prints each wrong case with the judge's explanation.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ir_rag_axioms.metrics import EntailmentJudge, Faithfulness, HeuristicJudge

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def flagged(result) -> bool:
    """Whether any claim of a Faithfulness result is contradicted or unsupported."""
    return any(row["verdict"] in ("contradicted", "unsupported") for row in result.breakdown or ())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batches", nargs="*", type=Path, help="batch files (default: the held-out batches)")
    parser.add_argument("--nli-model", help="an NLI CrossEncoder directory: judge with EntailmentJudge")
    parser.add_argument("--misses", action="store_true", help="print every wrong case")
    args = parser.parse_args()
    batches = args.batches or sorted(DATA.glob("contradictions_heldout*.json"),
                                     key=lambda p: int(p.stem.removeprefix("contradictions_heldout") or 1))
    judge = EntailmentJudge(nli_model=args.nli_model) if args.nli_model else HeuristicJudge()
    print(f"judge: {judge.name}")
    total = [0, 0, 0, 0]
    for path in batches:
        cases = [c for c in json.loads(path.read_text(encoding="utf-8"))["cases"]
                 if "faithfulness" in c.get("expected", {})]
        results = Faithfulness(judge=judge).measure_many([(c["answer"], [c["context"]]) for c in cases])
        negatives = [flagged(r) for c, r in zip(cases, results, strict=True) if not c["expected"]["faithfulness"]]
        supported = [flagged(r) for c, r in zip(cases, results, strict=True) if c["expected"]["faithfulness"]]
        counts = [sum(negatives), len(negatives), sum(supported), len(supported)]
        total = [t + n for t, n in zip(total, counts, strict=True)]
        print(f"{path.name}: detected {counts[0]}/{counts[1]}, flagged {counts[2]}/{counts[3]}")
        for case, result in zip(cases, results, strict=True):
            if args.misses and flagged(result) == case["expected"]["faithfulness"]:
                print(f"  {case['kind']}: {case['answer']!r}\n    {result.explanation}")
    if total[1] and total[3]:
        print(f"all: detected {total[0]}/{total[1]} ({total[0] / total[1]:.1%}), flagged {total[2]}/{total[3]} "
              f"({total[2] / total[3]:.1%})")


if __name__ == "__main__":
    main()
