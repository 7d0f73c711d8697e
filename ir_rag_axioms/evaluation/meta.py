"""Meta-evaluation of a system leaderboard against a truth leaderboard: Kendall's tau, tau_ap, topic bootstrap.

``tau_ap_b`` is the tie-aware AP rank correlation of Urbano & Marrero (2017), symmetrised as autojudge-evaluate
1.1.0 computes it (``tauap_b``: the mean of tau_ap_b(x, y) and tau_ap_b(y, x), ranks from the top = highest);
``kendall`` is tau-b. A bootstrap draws the topics with replacement and recomputes both leaderboards (each run's
mean over the drawn topics) before correlating them; the interval is the percentile interval of the draws. A run
without a score on one side (in a resample without any of its topics) is left out of that correlation.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from scipy import stats


def _paired(x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The entries defined on both sides (a run without a score on one side is left out, as a common run)."""
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"correlation of score vectors of different lengths: {a.shape} vs {b.shape}")
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep]


def kendall(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Kendall's tau-b over the entries defined on both sides; NaN with fewer than 3 of them or a constant side."""
    a, b = _paired(x, y)
    if len(a) < 3 or len(np.unique(a)) < 2 or len(np.unique(b)) < 2:
        return float("nan")
    return float(stats.kendalltau(a, b).statistic)


def spearman(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Spearman's rho (Pearson of the average ranks) over the entries defined on both sides; NaN as ``kendall``."""
    a, b = _paired(x, y)
    if len(a) < 3 or len(np.unique(a)) < 2 or len(np.unique(b)) < 2:
        return float("nan")
    return float(stats.spearmanr(a, b).statistic)


def _tau_ap_b_one_way(x: np.ndarray, y: np.ndarray) -> float:
    """tau_ap_b with ``y``'s ranking as the one whose top matters (Urbano & Marrero 2017, ties in ``y`` grouped)."""
    rx = stats.rankdata(-x)
    ry = stats.rankdata(-y, "ordinal")
    p = stats.rankdata(-y, "min") - 1  # items tied with the top group have p = 0 and are not pivots
    pivots = p > 0
    if not pivots.any():
        return 0.0
    sx = np.sign(rx[:, None] - rx[None, :])
    sy = np.sign(ry[:, None] - ry[None, :])
    above = p[None, :] < p[:, None]  # j strictly above i's tie group
    concordant = ((sx == sy) & above).sum(axis=1)
    return float(2 / pivots.sum() * (concordant[pivots] / p[pivots]).sum() - 1)


def tau_ap_b(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """The mean of the one-way AP correlations with either side as the reference (autojudge-evaluate's ``tauap_b``).

    Over the entries defined on both sides; NaN with fewer than 3.
    """
    a, b = _paired(x, y)
    if len(a) < 3:
        return float("nan")
    return (_tau_ap_b_one_way(a, b) + _tau_ap_b_one_way(b, a)) / 2


CORRELATIONS: dict[str, Callable[[npt.ArrayLike, npt.ArrayLike], float]] = {"kendall": kendall,
                                                                                "spearman": spearman,
                                                                                "tau_ap_b": tau_ap_b}
"""The correlations ``bootstrap_correlation`` reports."""


def topic_means(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Each run's (weighted) mean over topics of a (topics, runs) array, NaN skipped."""
    v = np.asarray(values, dtype=np.float64)
    w = np.ones(len(v)) if weights is None else np.asarray(weights, dtype=np.float64)
    defined = ~np.isnan(v)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.where(defined, v, 0.0) * w[:, None]).sum(axis=0) / (defined * w[:, None]).sum(axis=0)


def bootstrap_correlation(scores: np.ndarray, truth: np.ndarray, method: str = "kendall", samples: int = 1000,
                          seed: int = 0, confidence: float = 0.95,
                          baseline: np.ndarray | None = None) -> dict[str, float]:
    """Correlation of two (topics, runs) leaderboards' run means, with a percentile interval over topic resamples.

    With ``baseline`` (another (topics, runs) judge): also the paired difference corr(scores) - corr(baseline) on
    the same resamples (``difference``, ``difference_low``, ``difference_high``).
    """
    if method not in CORRELATIONS:
        raise ValueError(f"unknown correlation method {method!r}; choose one of {', '.join(CORRELATIONS)}")
    correlate = CORRELATIONS[method]
    scores, truth = np.asarray(scores, dtype=np.float64), np.asarray(truth, dtype=np.float64)
    rng = np.random.default_rng(seed)
    point = correlate(topic_means(scores), topic_means(truth))
    draws, differences = np.empty(samples), np.empty(samples)
    base_point = correlate(topic_means(baseline), topic_means(truth)) if baseline is not None else np.nan
    for k in range(samples):
        weights = np.bincount(rng.integers(len(scores), size=len(scores)), minlength=len(scores)).astype(np.float64)
        t = topic_means(truth, weights)
        draws[k] = correlate(topic_means(scores, weights), t)
        if baseline is not None:
            differences[k] = draws[k] - correlate(topic_means(baseline, weights), t)
    alpha = (1 - confidence) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = {"value": point, "low": float(np.nanquantile(draws, alpha)),
               "high": float(np.nanquantile(draws, 1 - alpha))}
        if baseline is not None:
            out |= {"difference": point - base_point, "difference_low": float(np.nanquantile(differences, alpha)),
                    "difference_high": float(np.nanquantile(differences, 1 - alpha))}
    return out


__all__ = ["CORRELATIONS", "bootstrap_correlation", "kendall", "spearman", "tau_ap_b", "topic_means"]
