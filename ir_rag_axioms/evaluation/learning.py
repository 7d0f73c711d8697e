"""Honest evaluation of learned axioms: cross-validation by topic, and the human ceiling from pairs judged twice.

Folds come from scikit-learn's ``GroupKFold`` with the topic as the group, so no topic is in both the training and
the test part of a fold; every measure is ``evaluation``'s (micro average over topics, bootstrap over topics).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ir_rag_axioms.axioms.base import compare
from ir_rag_axioms.axioms.learned import LearnedAxiom
from ir_rag_axioms.datasets.crowd import judgment_rows
from ir_rag_axioms.evaluation import evaluate as evaluation


@dataclass(frozen=True)
class Fold:
    """One fold of one repetition: the topics trained on, the topics tested on, and the model fitted."""

    repetition: int
    train_topics: tuple[str, ...]
    test_topics: tuple[str, ...]
    model: LearnedAxiom


@dataclass(frozen=True)
class CrossValidation:
    """Per repetition, each topic's matrix predicted by the model of the fold that held the topic out."""

    predictions: tuple[tuple[np.ndarray, ...], ...]
    """``predictions[r][t]``: repetition r, topic t (input order)."""
    folds: tuple[Fold, ...]
    scores: tuple[tuple[np.ndarray, ...], ...] = ()
    """``scores[r][t]``: the held-out model's score matrix s(a, b) (its confidence: |s|; its decision: above the
    threshold)."""


def topic_folds(topics: Sequence[str], folds: int = 5, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, test) item indices of ``folds`` folds grouped by topic (``GroupKFold``, shuffled by ``seed``).

    Items of the same topic always fall in the same fold; ValueError with fewer topics than folds.
    """
    from sklearn.model_selection import GroupKFold

    groups = np.asarray([str(t) for t in topics])
    if len(set(groups)) < folds or folds < 2:
        raise ValueError(f"{folds} folds need at least 2 folds and that many topics, got {len(set(groups))} topics")
    splitter = GroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    return list(splitter.split(np.zeros(len(groups)), groups=groups))


def cross_validate(
    model: LearnedAxiom, stacks: Sequence[np.ndarray], oracle: Sequence[np.ndarray], topics: Sequence[str], *,
    folds: int = 5, repetitions: int = 1, seed: int = 0, decisiveness: float | None = None,
    regularization: float = 1.0, progress: bool = False,
) -> CrossValidation:
    """Fit ``model`` on the training topics of each fold and predict its test topics' matrices.

    ``stacks``: each topic's (k, n, n) stack of ``model.axioms``; ``oracle``: the target's matrices; repetition r
    splits with seed ``seed + r``. ``decisiveness`` sets each fold's threshold on its training topics only.
    """
    if not len(stacks) == len(oracle) == len(topics):
        raise ValueError(f"{len(stacks)} stacks, {len(oracle)} oracle matrices and {len(topics)} topics differ")
    if isinstance(repetitions, bool) or not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    names = [str(t) for t in topics]
    predictions: list[tuple[np.ndarray, ...]] = []
    all_scores: list[tuple[np.ndarray, ...]] = []
    records: list[Fold] = []
    steps = tqdm(range(repetitions * folds), desc="cross-validation", disable=not progress, leave=False)
    for r in range(repetitions):
        predicted: list[np.ndarray | None] = [None] * len(stacks)
        scored: list[np.ndarray | None] = [None] * len(stacks)
        for train, test in topic_folds(names, folds, seed + r):
            fitted = model.fit_stacks([stacks[i] for i in train], [oracle[i] for i in train],
                                      decisiveness=decisiveness, regularization=regularization, seed=seed + r)
            for i in test:
                scored[i] = fitted.scores(stacks[i])
                predicted[i] = fitted.decide(scored[i])
            records.append(Fold(r, tuple(dict.fromkeys(names[i] for i in train)),
                                tuple(dict.fromkeys(names[i] for i in test)), fitted))
            steps.update()
        predictions.append(tuple(p for p in predicted if p is not None))
        all_scores.append(tuple(s for s in scored if s is not None))
    steps.close()
    return CrossValidation(tuple(predictions), tuple(records), tuple(all_scores))


def repetition_scores(cv: CrossValidation, oracle: Sequence[np.ndarray]) -> pd.DataFrame:
    """One row per repetition: ``evaluation.evaluate_preferences`` of its predictions against the oracle."""
    return pd.DataFrame([{"repetition": r, **evaluation.evaluate_preferences(list(p), oracle)}
                         for r, p in enumerate(cv.predictions)])


def judged_twice(ratings: pd.DataFrame, utility: str = "overall",
                 margin_fraction: float = 0.1) -> dict[tuple[str, str, str], tuple[float, float]]:
    """(topic, a, b) with a < b -> the first two judgments of the pairs judged at least twice, each in {-1, 0, 1}.

    Each judgment is compared as ``CrowdOracle`` compares (P(a better), P(b better)), with the same margin.
    """
    seen: dict[tuple[str, str, str], list[float]] = {}
    for topic, a, b, pa, pb in judgment_rows(ratings, utility):
        seen.setdefault((topic, a, b), []).append(float(compare(np.array([pa, pb]), True, margin_fraction)[0, 1]))
    return {key: (values[0], values[1]) for key, values in seen.items() if len(values) >= 2}


def repeated_judgments(ratings: pd.DataFrame, utility: str = "overall",
                       margin_fraction: float = 0.1) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per topic, the first and the second judgment of its pairs judged twice (``judged_twice``) as two matrices.

    Pairs judged once are 0 in both.
    """
    twice = judged_twice(ratings, utility, margin_fraction)
    first, second = [], []
    for topic in sorted({t for t, _, _ in twice}):
        pairs = [(a, b, v) for (t, a, b), v in twice.items() if t == topic]
        ids = sorted({r for a, b, _ in pairs for r in (a, b)})
        index = {r: k for k, r in enumerate(ids)}
        m1, m2 = np.zeros((len(ids), len(ids))), np.zeros((len(ids), len(ids)))
        for a, b, (v1, v2) in pairs:
            m1[index[a], index[b]], m1[index[b], index[a]] = v1, -v1
            m2[index[a], index[b]], m2[index[b], index[a]] = v2, -v2
        first.append(m1 + 0.0)
        second.append(m2 + 0.0)
    return first, second


def human_ceiling(ratings: pd.DataFrame, utility: str = "overall", margin_fraction: float = 0.1, samples: int = 1000,
                  seed: int = 0) -> dict[str, float]:
    """Consistency of one crowd judgment with the other judgment of the same pair (both directions pooled).

    Over the pairs judged twice, each judgment as "axiom" against the other as oracle, with ``evaluation``'s
    counts and bootstrap over topics (``samples``); also ``pairs`` and ``differ`` (the two judgments differ).
    """
    twice = judged_twice(ratings, utility, margin_fraction)
    first, second = repeated_judgments(ratings, utility, margin_fraction)
    counts = evaluation.topic_counts(first, second) + evaluation.topic_counts(second, first)
    scores = evaluation.scores_from_counts(counts)
    out: dict[str, float] = {"pairs": float(len(twice)), "differ": float(sum(v1 != v2 for v1, v2 in twice.values())),
                             "consistency": scores["consistency"], "consistency_strict": scores["consistency_strict"]}
    if samples:
        intervals = evaluation._bootstrap_counts(counts, evaluation.check_samples(samples), 0.95, seed)
        for measure in ("consistency", "consistency_strict"):
            out[f"{measure}_low"], out[f"{measure}_high"] = intervals[measure]
    return out
