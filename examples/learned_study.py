"""The learned axiom on CrowdRAG-25 and the TREC RAG 2024 nugget topics: the study behind the README section.

Usage:
    python examples/learned_study.py [--data ../shared/data] [--cache DIR] [--repetitions 10] [--samples 1000]
                                     [--pool all|published|consensus] [--write-model FILE]

``--write-model ir_rag_axioms/data/learned-crowd-overall.json`` replaces the shipped model.

1. Topic-cross-validated consistency with the crowd's "overall" judgments (5 folds, repeated with seeds), beside
   every single axiom, the majority vote, the LLM raters, the learned length baseline and the human ceiling.
2. The same fitted on each crowd dimension.
3. Transfer: the model fitted on all crowd judgments reranks the answers of the nugget topics that are none of its
   training topics (19 of 20; KwikSort); nDCG@10 and
   Kendall's tau against the nugget scores, beside Borda over the same axioms and the best single axiom; and the
   model fitted on nugget preferences with topic cross-validation.
``--pool consensus`` adds the consensus axioms AGREE1-4 (and their value differences) to ``all`` and reports the
``all`` pool's models beside them, fitted in the same run on the same folds.
The axiom matrices are computed once and kept in ``--cache`` (``compute_preferences(cache_dir=...)``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import pandas as pd

from ir_rag_axioms import REGISTRY, CrowdOracle, LlmRatingOracle, NuggetOracle, evaluation
from ir_rag_axioms.aggregation import borda, kwiksort
from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.axioms.learned import LearnedAxiom, ResponseLength, ValueDifference
from ir_rag_axioms.axioms.retrieval import ROADMAP_AXIOMS
from ir_rag_axioms.datasets import crowd, nuggets
from ir_rag_axioms.evaluation import report
from ir_rag_axioms.evaluation.learning import cross_validate, human_ceiling, repetition_scores

RAG = ["COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2"]
"""The RAG axioms at their defaults (CLAR1 needs LanguageTool, which is unavailable offline)."""
NEW_RAG = ["CORR2", "CORR3", "CORR4", "COH3", "COH4", "COH5", "CLAR3", "CLAR4", "CLAR5", "COV4", "CONS4", "CONS5"]
"""The RAG axioms beyond the paper (``--pool all``)."""
NEW_GENERATIVE = [f"GEN_{a.name}" for a in ROADMAP_AXIOMS]
"""The GEN_ variants of the roadmap's retrieval axioms (``--pool all``)."""
GENERATIVE = [n for n in REGISTRY if n.startswith("GEN_") and "Arg" not in n and n not in NEW_GENERATIVE]
"""The published GEN_ axioms (the argument axioms need an argument tagger)."""
CONSENSUS = ["AGREE1", "AGREE2", "AGREE3", "AGREE4"]
"""The consensus axioms (agreement with the other responses of the candidate set: a topic's 6 crowd responses)."""
POOLS = {"published": RAG + GENERATIVE, "all": RAG + GENERATIVE + NEW_RAG + NEW_GENERATIVE,
         "consensus": RAG + GENERATIVE + NEW_RAG + NEW_GENERATIVE + CONSENSUS}
"""``--pool``: the axioms of the published study, with the new ones too, or with the consensus axioms too."""
POOL = {name: REGISTRY[name] for name in POOLS["published"]} | {"LENGTH": ResponseLength()}
DIMENSIONS = ("overall", "logical coherence", "stylistic coherence", "internal consistency", "topical correctness",
              "broad coverage", "deep coverage")
LLMS = ("HuggingFaceTB-SmolLM-135M-Instruct", "Qwen-Qwen2.5-0.5B-Instruct")


def stacks_of(axioms: dict, matrices: dict[str, list[np.ndarray]], topics: int) -> list[np.ndarray]:
    """Each topic's (k, n, n) stack of the named axioms' matrices."""
    return [np.stack([matrices[name][t] for name in axioms]) for t in range(topics)]


def fmt(value: float, low: float | None = None, high: float | None = None) -> str:
    return f"{value:.3f}" if low is None else f"{value:.3f} [{low:.3f}, {high:.3f}]"


def cv_row(name: str, model: LearnedAxiom, stacks, oracle, topics, args, decisiveness) -> tuple[dict, pd.DataFrame]:
    """Repetition 0's predictions as a table row (bootstrap intervals), and every repetition's scores."""
    cv = cross_validate(model, stacks, oracle, topics, folds=args.folds, repetitions=args.repetitions, seed=0,
                        decisiveness=decisiveness, progress=True)
    per_repetition = repetition_scores(cv, oracle)
    return {name: list(cv.predictions[0])}, per_repetition


def run_nuggets(ranked: dict[str, list[np.ndarray]], items, qrels: pd.DataFrame) -> pd.DataFrame:
    """nDCG@10 and Kendall's tau-b (per query, averaged) of rankings (one index array per topic) against qrels."""
    import ir_measures
    from ir_measures import nDCG

    from ir_rag_axioms.evaluation.run_measures import KendallTau

    rows = []
    for name, orders in ranked.items():
        run = []
        for (request, responses), order in zip(items, orders, strict=True):
            for position, index in enumerate(order):
                run.append((request.id, nuggets.answer_docno(request.id, responses[index].id),
                            float(len(order) - position)))
        frame = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
        judged = qrels[qrels["query_id"].isin(set(frame["query_id"]))]  # a topic left out is no 0 in the mean
        values = ir_measures.calc_aggregate([nDCG @ 10, KendallTau], judged, frame)
        rows.append({"system": name, "nDCG@10": values[nDCG @ 10], "tau": values[KendallTau]})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--cache", default=None, help="matrix cache folder (reused across runs)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap samples over topics")
    parser.add_argument("--no-nuggets", action="store_true", help="only the crowd parts")
    parser.add_argument("--write-model", default=None, help="save the model fitted on all crowd judgments here")
    parser.add_argument("--pool", choices=sorted(POOLS), default="all",
                        help="the axioms: those of the published study, or all (with the new ones; default)")
    args = parser.parse_args(argv)
    global POOL
    POOL = {name: REGISTRY[name] for name in POOLS[args.pool]} | {"LENGTH": ResponseLength()}
    data = Path(args.data)
    crowd_dir, nugget_dir = data / "trec-rag-24-crowd", data / "trec-rag-24-nuggets"

    # -- crowd: matrices once ------------------------------------------------------------------------------
    oracle_axiom = CrowdOracle(utility="overall", data_dir=str(crowd_dir))
    responses = crowd.load_crowd_responses(crowd_dir)
    items = crowd.items(responses, oracle_axiom.topics)
    topics = [request.id for request, _ in items]
    differences = {f"{name}~": ValueDifference(axiom=a) for name, a in POOL.items() if isinstance(a, FeatureAxiom)}
    every = POOL | differences
    matrices = evaluation.compute_preferences(every, items, progress=True, cache_dir=args.cache)
    oracle = oracle_axiom.preferences_batch(items)
    print(f"# {len(items)} judged topics, {sum(len(r) for _, r in items)} responses; "
          f"{len(POOL)} axioms + {len(differences)} value differences\n")

    models = {
        "LEARNED (preferences)": POOL,
        "LEARNED (preferences + value differences)": every,
        "LEARNED length (LENGTH, its value difference)": {"LENGTH": POOL["LENGTH"], "LENGTH~": differences["LENGTH~"]},
    }
    if args.pool == "consensus":  # the `all` pool beside it, on the same folds (its matrices are the same)
        models = {f"{label} + AGREE1-4" if label.startswith("LEARNED (") else label: axioms
                  for label, axioms in models.items()}
        base = {name: a for name, a in every.items() if name.removesuffix("~") not in CONSENSUS}
        models["LEARNED `all` pool (preferences)"] = {name: base[name] for name in base if name in POOL}
        models["LEARNED `all` pool (preferences + value differences)"] = base
    rows: dict[str, list[np.ndarray]] = {}
    spread = []
    for decisiveness in (None, 0.9):
        for label, axioms in models.items():
            model = LearnedAxiom(axioms=tuple(axioms.values()))
            name = label + ("" if decisiveness is None else ", threshold for decisiveness 0.9")
            row, per_repetition = cv_row(name, model, stacks_of(axioms, matrices, len(items)), oracle, topics,
                                         args, decisiveness)
            rows |= row
            spread.append({"model": name, **{f"{m} mean": per_repetition[m].mean() for m in
                                              ("decisiveness", "consistency", "consistency_strict")},
                           "consistency min": per_repetition["consistency"].min(),
                           "consistency max": per_repetition["consistency"].max()})
    rows["majority vote of all axioms (minimum votes 0.5)"] = evaluation.majority_vote_preferences(
        [matrices[n] for n in POOL], 0.5)
    rows["majority vote of all axioms (relative majority)"] = evaluation.majority_vote_preferences(
        [matrices[n] for n in POOL], 0.0)
    for model_name in LLMS:
        llm = LlmRatingOracle(model=model_name, data_dir=str(data / "trec-rag-24-llm-ratings"),
                              responses_path=str(crowd_dir))
        rows[f"LLM rating {model_name}"] = llm.preferences_batch(items)
    rows |= {name: matrices[name] for name in POOL}
    table = evaluation.evaluation_table(rows, oracle, samples=args.samples, seed=0)
    print(f"## Crowd overall, {args.folds}-fold topic cross-validation (repetition 0; 95 % bootstrap over topics)\n")
    print(report.markdown(table.head(20)))
    print(f"\n## Spread over {args.repetitions} repetitions (seeds 0..{args.repetitions - 1})\n")
    print(pd.DataFrame(spread).to_markdown(index=False, floatfmt=".3f"))
    ratings = crowd.load_crowd_ratings(crowd_dir)
    ceiling = human_ceiling(ratings, samples=args.samples)
    print(f"\nHuman ceiling (one judgment against the other, {int(ceiling['pairs'])} pairs judged twice, "
          f"{int(ceiling['differ'])} differ): consistency "
          f"{fmt(ceiling['consistency'], ceiling['consistency_low'], ceiling['consistency_high'])}, strict "
          + fmt(ceiling["consistency_strict"], ceiling["consistency_strict_low"], ceiling["consistency_strict_high"]))

    # -- the shipped model: all crowd judgments ----------------------------------------------------------------
    final = LearnedAxiom(axioms=tuple(every.values())).fit_stacks(stacks_of(every, matrices, len(items)), oracle,
                                                                  decisiveness=0.9, topics=topics)
    final = LearnedAxiom(axioms=final.axioms, weights=final.weights, threshold=final.threshold,
                         info={**(final.info or {}), "target": "CrowdOracle(utility='overall')",
                               "data": "CrowdRAG-25 (TREC RAG 2024 crowd judgments), 65 judged topics",
                               "model": "logistic regression, no intercept, C=1, both orientations of each pair"})
    print(f"\n## Weights of the model fitted on all 65 topics (threshold {final.threshold:.4f}; largest |weight| "
          "first)\n")
    weights = final.weights_table()
    print(weights.head(20).to_markdown(index=False, floatfmt=".3f"))
    if args.write_model:
        print(f"\nsaved {final.save(args.write_model)}")

    # -- each crowd dimension ------------------------------------------------------------------------------------
    print("\n## Each crowd dimension (5-fold topic CV, repetition 0; threshold for decisiveness 0.9 on training)\n")
    dimension_rows = []
    for utility in DIMENSIONS:
        truth = CrowdOracle(utility=utility, data_dir=str(crowd_dir)).preferences_batch(items)
        cv = cross_validate(LearnedAxiom(axioms=tuple(every.values())), stacks_of(every, matrices, len(items)),
                            truth, topics, folds=args.folds, repetitions=1, decisiveness=0.9)
        scores = evaluation.evaluate_preferences(list(cv.predictions[0]), truth)
        interval = evaluation.bootstrap(list(cv.predictions[0]), truth, samples=args.samples)["consistency"]
        singles = evaluation.evaluation_table({n: matrices[n] for n in POOL}, truth)
        decisive = singles[singles["decisiveness"] >= 0.9].sort_values("consistency", ascending=False)
        best = singles.iloc[0]
        dimension_rows.append({
            "dimension": utility, "learned decisiveness": f"{scores['decisiveness']:.3f}",
            "learned consistency": fmt(scores["consistency"], *interval),
            "best single (effectiveness)": f"{best['axiom']} {best['decisiveness']:.3f} / {best['consistency']:.3f}",
            "best single deciding >= 0.9": (f"{decisive.iloc[0]['axiom']} {decisive.iloc[0]['consistency']:.3f}"
                                             if len(decisive) else "-"),
            "human ceiling": fmt(human_ceiling(ratings, utility, samples=0)["consistency"]),
        })
    print(pd.DataFrame(dimension_rows).to_markdown(index=False))

    if args.no_nuggets:
        return 0
    # -- nuggets -----------------------------------------------------------------------------------------------
    from ir_rag_axioms.datasets.runs import nugget_qrels

    nugget_file = next(nugget_dir.glob("nugget_assignment*.jsonl*"))
    nugget_items = nuggets.items(nuggets.load_nugget_assignments(nugget_dir))
    in_sample = [request.id for request, _ in nugget_items if request.id in set(final.training_topics)]
    nugget_items = [item for item in nugget_items if item[0].id not in set(final.training_topics)]
    print(f"\n(nugget topics that are crowd training topics, left out: {in_sample})")
    nugget_matrices = evaluation.compute_preferences(every, nugget_items, progress=True, cache_dir=args.cache)
    nugget_stacks = stacks_of(every, nugget_matrices, len(nugget_items))
    nugget_truth = NuggetOracle(score_type="vital", data_dir=str(nugget_dir)).preferences_batch(nugget_items)
    qrels = nugget_qrels(nugget_file, "vital", scale=100).rename(
        columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    preference_only = [k for k, name in enumerate(every) if name in POOL]
    ranked = {
        "identity (file order)": [np.arange(len(r)) for _, r in nugget_items],
        "LEARNED on crowd, KwikSort": [kwiksort(final.decide(final.scores(s)), pivot="middle") for s in nugget_stacks],
        "LEARNED on crowd, Borda of its preferences": [
            np.argsort(-borda(final.decide(final.scores(s))), kind="stable") for s in nugget_stacks],
        "Borda over the same axioms": [np.argsort(-borda(s[preference_only]), kind="stable") for s in nugget_stacks],
    }
    for single in ("GEN_DIV", "COV1"):  # best in the ICTIR 2025 table; best here (at its default configuration)
        ranked[f"single axiom {single}, Borda"] = [
            np.argsort(-borda(nugget_matrices[single][t]), kind="stable") for t in range(len(nugget_items))]
    nugget_topics = [request.id for request, _ in nugget_items]
    cv = cross_validate(LearnedAxiom(axioms=tuple(every.values())), nugget_stacks, nugget_truth, nugget_topics,
                        folds=args.folds, repetitions=1)
    ranked["LEARNED on nugget preferences (5-fold topic CV), KwikSort"] = [
        kwiksort(p, pivot="middle") for p in cv.predictions[0]]
    if args.pool == "consensus":  # the `all` pool's models on the same topics, for comparison
        base_final = LearnedAxiom(axioms=tuple(base.values())).fit_stacks(stacks_of(base, matrices, len(items)),
                                                                          oracle, decisiveness=0.9, topics=topics)
        base_stacks = stacks_of(base, nugget_matrices, len(nugget_items))
        ranked["LEARNED `all` pool on crowd, KwikSort"] = [
            kwiksort(base_final.decide(base_final.scores(s)), pivot="middle") for s in base_stacks]
        ranked["LEARNED `all` pool on crowd, Borda of its preferences"] = [
            np.argsort(-borda(base_final.decide(base_final.scores(s))), kind="stable") for s in base_stacks]
        base_cv = cross_validate(LearnedAxiom(axioms=tuple(base.values())), base_stacks, nugget_truth, nugget_topics,
                                 folds=args.folds, repetitions=1)
        ranked["LEARNED `all` pool on nugget preferences (5-fold topic CV), KwikSort"] = [
            kwiksort(p, pivot="middle") for p in base_cv.predictions[0]]
    print(f"\n## Nugget topics: {len(nugget_items)} topics, {sum(len(r) for _, r in nugget_items)} answers "
          "(vital nugget scores; nDCG@10 with gains round(100 x score); Kendall tau-b per topic, averaged)\n")
    print(run_nuggets(ranked, nugget_items, qrels).to_markdown(index=False, floatfmt=".3f"))
    transfer = {"LEARNED on crowd": [final.decide(final.scores(s)) for s in nugget_stacks],
                "LEARNED on nugget preferences (CV)": list(cv.predictions[0]),
                "GEN_DIV": nugget_matrices["GEN_DIV"], "COV1": nugget_matrices["COV1"]}
    if args.pool == "consensus":
        transfer["LEARNED `all` pool on crowd"] = [base_final.decide(base_final.scores(s)) for s in base_stacks]
        transfer["LEARNED `all` pool on nugget preferences (CV)"] = list(base_cv.predictions[0])
    print("\nConsistency with the nugget preferences (vital):\n")
    print(report.markdown(evaluation.evaluation_table(transfer, nugget_truth, samples=args.samples)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
