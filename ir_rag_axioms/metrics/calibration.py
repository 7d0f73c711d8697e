"""Calibration of the offline judge's thresholds on crowd judgments: a grid search for the best effectiveness.

The raw match scores (statement relevance, statement support, fact coverage) are computed once; each candidate
threshold then only re-thresholds them, so the search costs seconds after one analysis pass. A threshold is chosen on
the calibration topics and reported on the held-out ones as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.axioms.base import Item, compare
from ir_rag_axioms.evaluation import scores_from_counts, topic_counts
from ir_rag_axioms.metrics.judges import OfflineJudge, RubricCase, level_from_fraction

GRID = tuple(np.round(np.arange(0.0, 1.01, 0.025), 3))
"""Candidate thresholds of match scores (cosine + weight x overlap)."""


@dataclass(frozen=True)
class RawScores:
    """Per item and response: the match score of every statement (or reference fact)."""

    relevance: list[list[np.ndarray]]
    support: list[list[np.ndarray]]
    coverage: list[list[np.ndarray]]


def raw_scores(items: Sequence[Item], judge: OfflineJudge) -> RawScores:
    """Relevance, support and coverage scores of every response, each step batched over all items."""
    answers = [r.text for _, responses in items for r in responses]
    statements = judge.statements(answers)
    queries = [q.text for q, responses in items for _ in responses]
    relevance = judge.relevance(list(zip(queries, statements, strict=True)))
    cases = [RubricCase(r.text, reference=q.context) for q, responses in items for r in responses]
    support = [_thresholdable(rows) for rows in judge.support(cases)]
    coverage = [_thresholdable(rows) for rows in judge.coverage(cases)]
    sizes = [len(responses) for _, responses in items]
    return RawScores(_split(relevance, sizes), _split(support, sizes), _split(coverage, sizes))


def _thresholdable(rows: list[dict[str, Any]]) -> np.ndarray:
    """Each unit's match score, -inf where a check failed (no threshold makes it supported or covered)."""
    return np.array([-np.inf if r["checks_failed"] else r["score"] for r in rows], dtype=np.float64)


def _split(flat: list[np.ndarray], sizes: list[int]) -> list[list[np.ndarray]]:
    bounds = np.cumsum([0, *sizes])
    return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def fraction_at(scores: list[list[np.ndarray]], threshold: float) -> list[np.ndarray]:
    """Per item, each response's share of scores at or above the threshold (0 without scores)."""
    return [np.array([float((s >= threshold).mean()) if len(s) else 0.0 for s in item]) for item in scores]


def effectiveness(values: list[np.ndarray], oracle: Sequence[np.ndarray], margin_fraction: float) -> dict[str, float]:
    """Decisiveness, consistency and effectiveness of ``compare(values)`` against the oracle matrices."""
    matrices = [compare(v, True, margin_fraction) for v in values]
    return scores_from_counts(topic_counts(matrices, list(oracle)))


def levels(fractions: list[np.ndarray], bands: Sequence[float]) -> list[np.ndarray]:
    """Fractions as rubric scores (level - 1) / 4."""
    return [np.array([(level_from_fraction(f, bands) - 1) / 4 for f in item]) for item in fractions]


def sweep(scores: list[list[np.ndarray]], oracle: Sequence[np.ndarray], rubric: bool, margin_fraction: float,
          grid: Sequence[float] = GRID, bands: Sequence[float] = (0.25, 0.5, 0.75, 1.0)) -> pd.DataFrame:
    """One row per threshold: the measures of the metric axiom against the oracle."""
    rows = []
    for threshold in grid:
        fractions = fraction_at(scores, threshold)
        values = levels(fractions, bands) if rubric else fractions
        rows.append({"threshold": float(threshold), **effectiveness(values, oracle, margin_fraction)})
    return pd.DataFrame(rows)


def choose(calibration: pd.DataFrame, allowed: tuple[float, float] = (-np.inf, np.inf)) -> float:
    """The threshold with the highest effectiveness within ``allowed`` (ties: the smallest threshold)."""
    inside = calibration[(calibration["threshold"] >= allowed[0]) & (calibration["threshold"] <= allowed[1])]
    return float(inside.sort_values(["effectiveness", "threshold"], ascending=[False, True]).iloc[0]["threshold"])


SEED_STATEMENTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "What are the health benefits of green tea?": (
        ("Green tea contains antioxidants that may reduce inflammation.",
         "It also has caffeine which can improve alertness."), ()),
    "What features does this laptop have?": (
        ("The laptop has a 15-inch display.", "It has 16GB RAM."), ("Our company has excellent customer service.",)),
    "How do I reset my password?": (
        ("Password resets can be done via email.",),
        ("Our platform uses industry-standard encryption.", "We were founded in 2015.",
         "We have offices in 3 countries.")),
}
"""The AnswerRelevancy seed's worked examples: query -> (statements judged relevant, statements judged "no")."""


def seed_interval(judge: OfflineJudge) -> tuple[float, float]:
    """The no-thresholds that reproduce the seed's verdicts: above every "no" statement, at most every relevant one."""
    from ir_rag_axioms.metrics.judges import Statement

    cases = [(q, [Statement(s) for s in (*yes, *no)]) for q, (yes, no) in SEED_STATEMENTS.items()]
    relevant, irrelevant = [], []
    for (yes, _), scores in zip(SEED_STATEMENTS.values(), judge.relevance(cases), strict=True):
        relevant += list(scores[: len(yes)])
        irrelevant += list(scores[len(yes):])
    return float(max(irrelevant)) + 1e-9, float(min(relevant))
