"""Calibration of the heuristic judge's thresholds on crowd judgments, with topic-level cross-validation.

The raw match scores (statement relevance, statement support, fact coverage) and the outcome of the checks are
computed once; each candidate threshold then only re-thresholds them, so the search costs seconds after one analysis
pass. ``cross_validate`` chooses a threshold on the training topics of each fold and reports the held-out topics'
decisiveness, consistency and effectiveness (counts pooled over the folds). "Before" scores the same match scores
without the checks (similarity alone, as the judge did before it checked anything).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.axioms.base import Item, compare
from ir_rag_axioms.metrics import checks
from ir_rag_axioms.metrics.interface import RubricCase
from ir_rag_axioms.metrics.judges import HeuristicJudge, level_from_fraction
from ir_rag_axioms.model import context_of
from ir_rag_axioms.pair_counts import scores_from_counts, topic_counts

GRID = tuple(np.round(np.arange(0.0, 1.301, 0.025), 3))
"""Candidate thresholds of match scores (cosine + weight x overlap, up to 1 + weight)."""


@dataclass(frozen=True)
class RawScores:
    """Per item and response: the match score of every statement (or reference fact), with and without checks.

    ``*_checked`` arrays hold -inf where a check failed (no threshold makes that unit count); ``contradicted`` marks
    responses with a contradicted statement (their faithfulness level is capped); ``claims`` is False for a response
    without claims (faithfulness undefined: it abstains).
    """

    relevance: list[list[np.ndarray]]
    relevance_checked: list[list[np.ndarray]]
    support: list[list[np.ndarray]]
    support_checked: list[list[np.ndarray]]
    coverage: list[list[np.ndarray]]
    coverage_checked: list[list[np.ndarray]]
    contradicted: list[np.ndarray]


def raw_scores(items: Sequence[Item], judge: HeuristicJudge) -> RawScores:
    """Relevance, support and coverage scores of every response (each against its own context), batched."""
    responses = [(q, r) for q, rs in items for r in rs]
    statements = judge.statements([r.text for _, r in responses])
    relevance = judge.relevance([(q.text, s) for (q, _), s in zip(responses, statements, strict=True)])
    refused = [np.array([checks.refusal(s.text) is not None for s in found], dtype=bool) for found in statements]
    relevance_checked = [np.where(r, -np.inf, v) for v, r in zip(relevance, refused, strict=True)]
    cases = [RubricCase(r.text, reference=context_of(q, r)) for q, r in responses]
    support_rows, coverage_rows = judge.support(cases), judge.coverage(cases)
    sizes = [len(rs) for _, rs in items]
    contradicted = [any(r["verdict"] == "contradicted" for r in rows) for rows in support_rows]
    return RawScores(_split(relevance, sizes), _split(relevance_checked, sizes),
                     _split([_plain(rows) for rows in support_rows], sizes),
                     _split([_thresholdable(rows) for rows in support_rows], sizes),
                     _split([_plain(rows) for rows in coverage_rows], sizes),
                     _split([_thresholdable(rows) for rows in coverage_rows], sizes),
                     [np.array(c, dtype=bool) for c in _split(contradicted, sizes)])


def _plain(rows: list[dict[str, Any]]) -> np.ndarray:
    return np.array([r["score"] for r in rows], dtype=np.float64)


def _thresholdable(rows: list[dict[str, Any]]) -> np.ndarray:
    """Each unit's match score, -inf where a check failed (no threshold makes it supported or covered)."""
    return np.array([-np.inf if r["checks_failed"] else r["score"] for r in rows], dtype=np.float64)


def _split(flat: list[Any], sizes: list[int]) -> list[list[Any]]:
    bounds = np.cumsum([0, *sizes])
    return [flat[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def fraction_at(scores: list[list[np.ndarray]], threshold: float, empty: float = 0.0) -> list[np.ndarray]:
    """Per item, each response's share of scores at or above the threshold (``empty`` without scores)."""
    return [np.array([float((s >= threshold).mean()) if len(s) else empty for s in item]) for item in scores]


def effectiveness(values: list[np.ndarray], oracle: Sequence[np.ndarray], margin_fraction: float) -> dict[str, float]:
    """Decisiveness, consistency and effectiveness of ``compare(values)`` against the oracle matrices."""
    matrices = [compare(v, True, margin_fraction) for v in values]
    return scores_from_counts(topic_counts(matrices, list(oracle)))


def levels(fractions: list[np.ndarray], bands: Sequence[float], capped: list[np.ndarray] | None = None,
           cap: int = 5) -> list[np.ndarray]:
    """Fractions as rubric scores (level - 1) / 4 (NaN stays NaN; capped responses at most ``cap``)."""
    out = []
    for k, item in enumerate(fractions):
        level = np.array([np.nan if np.isnan(f) else level_from_fraction(f, bands) for f in item], dtype=float)
        if capped is not None:
            level = np.where(capped[k], np.minimum(level, cap), level)
        out.append((level - 1) / 4)
    return out


def values_at(scores: list[list[np.ndarray]], threshold: float, rubric: bool, bands: Sequence[float],
              capped: list[np.ndarray] | None = None, cap: int = 5, empty: float = 0.0) -> list[np.ndarray]:
    """The metric axiom's values at one threshold: shares, or levels for a rubric metric."""
    fractions = fraction_at(scores, threshold, empty)
    return levels(fractions, bands, capped, cap) if rubric else fractions


def sweep(scores: list[list[np.ndarray]], oracle: Sequence[np.ndarray], rubric: bool, margin_fraction: float,
          grid: Sequence[float] = GRID, bands: Sequence[float] = (0.25, 0.5, 0.75, 1.0)) -> pd.DataFrame:
    """One row per threshold: the measures of the metric axiom against the oracle."""
    rows = []
    for threshold in grid:
        values = values_at(scores, threshold, rubric, bands)
        rows.append({"threshold": float(threshold), **effectiveness(values, oracle, margin_fraction)})
    return pd.DataFrame(rows)


def choose(calibration: pd.DataFrame, allowed: tuple[float, float] = (-np.inf, np.inf)) -> float:
    """The threshold with the highest effectiveness within ``allowed`` (ties: the smallest threshold)."""
    inside = calibration[(calibration["threshold"] >= allowed[0]) & (calibration["threshold"] <= allowed[1])]
    return float(inside.sort_values(["effectiveness", "threshold"], ascending=[False, True]).iloc[0]["threshold"])


def threshold_counts(values: Any, oracle: Sequence[np.ndarray], margin_fraction: float,
                     grid: Sequence[float] = GRID) -> np.ndarray:
    """Topic counts (thresholds, topics, 4) of the metric axiom at every threshold; ``values(threshold)``."""
    return np.stack([topic_counts([compare(v, True, margin_fraction) for v in values(t)], list(oracle))
                     for t in grid])


def cross_validate(counts: np.ndarray, folds: int = 5, seed: int = 0, grid: Sequence[float] = GRID,
                   allowed: tuple[float, float] = (-np.inf, np.inf)) -> tuple[dict[str, float], list[float]]:
    """Topic-level K-fold: the threshold best on the training topics of each fold, scored on its held-out topics.

    Returns the measures of the held-out counts pooled over the folds, and the threshold chosen in each fold.
    """
    topics = counts.shape[1]
    order = np.random.default_rng(seed).permutation(topics)
    grid_array = np.asarray(grid)
    inside = np.flatnonzero((grid_array >= allowed[0]) & (grid_array <= allowed[1]))
    held_out, chosen = np.zeros(4, dtype=np.int64), []
    for fold in np.array_split(order, folds):
        train = np.setdiff1d(order, fold)
        best = max(inside, key=lambda k: (scores_from_counts(counts[k, train].sum(axis=0))["effectiveness"], -k))
        chosen.append(float(grid_array[best]))
        held_out += counts[best, fold].sum(axis=0)
    return scores_from_counts(held_out), chosen


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


def seed_interval(judge: HeuristicJudge) -> tuple[float, float]:
    """The no-thresholds that reproduce the seed's verdicts: above every "no" statement, at most every relevant one.

    The statements are parsed as the answers the seed gives (so "It has 16GB RAM" reads "the laptop").
    """
    relevant, irrelevant = [], []
    for query, (yes, no) in SEED_STATEMENTS.items():
        found = judge.statements([" ".join((*yes, *no))])[0]
        (scores,) = judge.relevance([(query, found)])
        relevant += list(scores[: len(yes)])
        irrelevant += list(scores[len(yes):])
    return float(max(irrelevant)) + 1e-9, float(min(relevant))
