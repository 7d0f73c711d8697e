"""Human judgments saved at 90 % correct preferences on CrowdRAG-25 (the ICTIR 2025 figure, ours beside it).

Usage:
    python examples/effort_study.py [--data ../shared/data] [--cache DIR] [--repetitions 5] [--figure docs/effort.png]

An automatic judge decides the crowd judgments where it is most confident, the crowd judges the rest
(``evaluation.effort``); the unit is one of the 1,352 judgments, the truth its gold label (``quality_overall_gold``:
a or b). Judges: the vote of the RAG axioms in the ICTIR 2025 preset (CLAR1 left out: it needs LanguageTool), the
vote of all axioms of the learned model's pool, the learned combination under 5-fold topic cross-validation (each
topic's scores from the model fitted on the other folds; repeated with seeds 0..repetitions-1), "prefer the longer"
(confidence: the relative length difference) and a coin. Beside the share saved: consistency against
``CrowdOracle`` (the project's measure) and Krippendorff's alpha against the gold (nominal: a, no preference, b).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import pandas as pd

from ir_rag_axioms import REGISTRY, CrowdOracle, evaluation
from ir_rag_axioms.axioms import presets
from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.axioms.learned import LearnedAxiom, ResponseLength, ValueDifference
from ir_rag_axioms.datasets import crowd
from ir_rag_axioms.evaluation import effort, report
from ir_rag_axioms.evaluation.learning import cross_validate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learned_study import POOLS  # noqa: E402  (the learned model's pool of axioms, as published)

RAG = ["COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2"]
"""The RAG axioms of the ICTIR 2025 preset that run offline (CLAR1 needs a LanguageTool server)."""
TARGET = 0.9
"""The share of correct preferences the saving is read at."""


def judge_row(name: str, decisions: list[np.ndarray], confidence: list[np.ndarray], judgments: pd.DataFrame,
              oracle: list[np.ndarray]) -> tuple[dict, pd.DataFrame]:
    """The judge's table row and its curve: decided share, accuracy, consistency, alpha, share saved at 90 %."""
    d, c = effort.on_judgments(judgments, decisions), effort.on_judgments(judgments, confidence)
    curve = effort.effort_curve(d, c, judgments["gold"])
    scores = evaluation.evaluate_preferences(decisions, oracle)
    return {"judge": name, "decided": curve["automatic"].iloc[-1], "judge correct": curve["judge_correct"].iloc[-1],
            "consistency (CrowdOracle)": scores["consistency"],
            "alpha (gold, nominal)": effort.agreement_with_gold(d, judgments["gold"]),
            "saved at 90 %": effort.saved_at(curve, TARGET)}, curve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--cache", default=None, help="matrix cache folder (reused across runs)")
    parser.add_argument("--repetitions", type=int, default=5, help="cross-validation repetitions (seeds 0..n-1)")
    parser.add_argument("--figure", default=None, help="write the figure here (e.g. docs/effort.png)")
    parser.add_argument("--pool", choices=["published", "all"], default="published",
                        help="the learned model's axioms: those of the published study (34), or with the new ones (56)")
    args = parser.parse_args(argv)
    if args.repetitions < 1:  # before 25 minutes of analysis
        parser.error(f"--repetitions must be at least 1, got {args.repetitions}")
    folder = Path(args.data) / "trec-rag-24-crowd"
    ratings = crowd.load_crowd_ratings(folder)
    oracle_axiom = CrowdOracle(utility="overall", data_dir=str(folder))
    items = crowd.items(crowd.load_crowd_responses(folder), oracle_axiom.topics)
    judgments = effort.gold_judgments(ratings, items)
    oracle = oracle_axiom.preferences_batch(items)
    topics = [request.id for request, _ in items]

    ictir = {name: presets.ICTIR2025[name] for name in RAG}
    pool = {name: REGISTRY[name] for name in POOLS[args.pool]} | {"LENGTH": ResponseLength()}
    differences = {f"{n}~": ValueDifference(axiom=a) for n, a in pool.items() if isinstance(a, FeatureAxiom)}
    matrices = evaluation.compute_preferences(ictir, items, progress=True, cache_dir=args.cache)
    matrices |= {f"pool:{n}": m for n, m in evaluation.compute_preferences(
        pool | differences, items, progress=True, cache_dir=args.cache).items()}

    def voted(names: list[str]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        pairs = [effort.vote(np.stack([matrices[n][t] for n in names])) for t in range(len(items))]
        return [d for d, _ in pairs], [c for _, c in pairs]

    rows, curves = [], {}
    judges = {"ICTIR 2025 vote (RAG axioms)": voted(RAG),
              f"vote of all {len(pool)} axioms": voted([f"pool:{n}" for n in pool]),
              "LENGTH (prefer the longer)": (matrices["pool:LENGTH"],
                                             [np.abs(m) for m in matrices["pool:LENGTH~"]])}
    every = list(pool | differences)
    model = LearnedAxiom(axioms=tuple((pool | differences).values()))
    stacks = [np.stack([matrices[f"pool:{n}"][t] for n in every]) for t in range(len(items))]
    cv = cross_validate(model, stacks, oracle, topics, folds=5, repetitions=args.repetitions, seed=0, progress=True)
    spread, learned = [], f"learned, {len(pool)} axioms + {len(differences)} value differences (5-fold topic CV)"
    for r, scores in enumerate(cv.scores):
        row, curve = judge_row("learned", [np.sign(s) for s in scores], [np.abs(s) for s in scores], judgments,
                               oracle)
        spread.append(row["saved at 90 %"])
        if r == 0:
            judges[learned] = ([np.sign(s) for s in scores], [np.abs(s) for s in scores])
    for name, (decisions, confidence) in judges.items():
        row, curves[name] = judge_row(name, decisions, confidence, judgments, oracle)
        rows.append(row)
    curves["coin"] = effort.coin_curve()
    rows.append({"judge": "coin", "decided": 1.0, "judge correct": 0.5, "consistency (CrowdOracle)": np.nan,
                 "alpha (gold, nominal)": 0.0, "saved at 90 %": effort.saved_at(curves["coin"], TARGET)})
    table = pd.DataFrame(rows)
    print(f"# {len(judgments)} judgments on {len(items)} topics; target {TARGET:.0%} correct\n")
    print(table.to_markdown(index=False, floatfmt=".3f"))
    print(f"\nlearned, saved at 90 % over {len(spread)} repetitions: min {min(spread):.3f}, mean "
          f"{np.mean(spread):.3f}, max {max(spread):.3f}")
    if args.figure:
        report.plot_effort(curves, args.figure, "CrowdRAG-25, 1,352 judgments (learned: 5-fold topic CV, held-out "
                           "topics)", TARGET)
        print(f"wrote {args.figure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
