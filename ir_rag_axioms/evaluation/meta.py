"""Meta-evaluation of a system leaderboard against a truth leaderboard: the field's correlations, topic bootstrap.

The correlations are those ``auto-judge-evaluate meta-evaluate`` (autojudge-evaluate 1.1.0) computes by default:
``kendall`` (tau-b), ``pearson``, ``spearman``, ``tau_ap_b``, ``tau_gap`` and ``kendall@10``, each called as
``f(judge, truth)``. ``tau_gap`` (Gao & Oard, SIGIR 2015) takes the gaps from the truth and the order from the judge,
ties in the judge's scores broken by position (autojudge-evaluate aligns the runs sorted by id: pass them in that
order for its figures); ``kendall@10`` is tau-b over the 10 runs the truth ranks highest (ties in the truth by
position, as its stable sort). Three levels (``LEVELS``): ``run`` correlates the runs' means over topics (the
leaderboard), ``topic`` averages the per-topic correlations over the topics (each topic's runs), ``pairs``
correlates all defined (topic, run) scores at once (the AutoNuggetizer paper's units).

``tau_ap_b`` is the tie-aware AP rank correlation of Urbano & Marrero (2017), symmetrised as autojudge-evaluate
1.1.0 computes it (``tauap_b``: the mean of tau_ap_b(x, y) and tau_ap_b(y, x), ranks from the top = highest);
``kendall`` is tau-b. A bootstrap draws the topics with replacement and recomputes both leaderboards (each run's
mean over the drawn topics; at the ``topic`` level the mean of the drawn topics' correlations, at ``pairs`` each
drawn topic's pairs as often as it is drawn) before correlating them; the interval is the percentile interval of
the draws. A run without a score on one side (in a resample without any of its topics) is left out of that correlation.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

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


def _defined_or_nan(x: npt.ArrayLike, y: npt.ArrayLike, statistic: Callable[..., Any]) -> float:
    """``statistic(a, b).statistic`` over the entries defined on both sides; NaN with < 3 of them or a constant side."""
    a, b = _paired(x, y)
    if len(a) < 3 or len(np.unique(a)) < 2 or len(np.unique(b)) < 2:
        return float("nan")
    return float(statistic(a, b).statistic)


def kendall(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Kendall's tau-b over the entries defined on both sides; NaN with fewer than 3 of them or a constant side."""
    return _defined_or_nan(x, y, stats.kendalltau)


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


def pearson(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Pearson's r over the entries defined on both sides; NaN with fewer than 3 of them or a constant side."""
    return _defined_or_nan(x, y, stats.pearsonr)


def spearman(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Spearman's rho over the entries defined on both sides; NaN with fewer than 3 of them or a constant side."""
    return _defined_or_nan(x, y, stats.spearmanr)


def tau_gap(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """tau_GAP of the judge's order ``x`` against the truth's scores ``y`` (autojudge-evaluate's ``tau_gap``).

    2 / m * sum_i [sum_{j above i} |CG_ji| / sum_{j above i} |G_ji|] - 1 over the positions i of the judge's list
    (descending, ties by position) whose gaps G (truth differences) are not all 0, m their number; CG_ji = G_ji where
    the truth also ranks j above i, else 0. NaN with fewer than 3 entries or every pair tied in the truth.
    """
    a, b = _paired(x, y)
    if len(a) < 3:
        return float("nan")
    order = np.lexsort((np.arange(len(a)), -a))  # descending judge score, ties by position
    truth = b[order]
    gaps = np.abs(truth[:, None] - truth[None, :])  # [i, j]
    above = np.tril(np.ones((len(a), len(a)), dtype=bool), k=-1)  # j < i: j listed above i
    total = np.where(above, gaps, 0.0).sum(axis=1)
    correct = np.where(above & (truth[None, :] > truth[:, None]), gaps, 0.0).sum(axis=1)
    used = total > 0
    if not used.any():
        return float("nan")
    return float(2.0 / used.sum() * (correct[used] / total[used]).sum() - 1.0)


def kendall_at(k: int) -> Callable[[npt.ArrayLike, npt.ArrayLike], float]:
    """Kendall tau-b over the ``k`` entries the truth (second argument) scores highest (autojudge-evaluate's kendall@k).

    Entries undefined on either side are left out first; ties in the truth at the cut by position.
    """
    if k < 3:
        raise ValueError(f"kendall@k needs k >= 3 (a correlation of fewer runs is undefined), got {k!r}")

    def at_k(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
        a, b = _paired(x, y)
        top = np.lexsort((np.arange(len(b)), -b))[:k]
        return kendall(a[top], b[top])

    at_k.__name__ = f"kendall_at_{k}"
    return at_k


CORRELATIONS: dict[str, Callable[[npt.ArrayLike, npt.ArrayLike], float]] = {
    "kendall": kendall, "pearson": pearson, "spearman": spearman, "tau_ap_b": tau_ap_b, "tau_gap": tau_gap,
    "kendall@10": kendall_at(10)}
"""The correlations ``bootstrap_correlation`` reports (autojudge-evaluate's defaults; its ``tauap_b`` is ours
``tau_ap_b``)."""
LEVELS = ("run", "topic", "pairs")
"""What is correlated: the runs' topic means, each topic's runs (averaged over topics), all (topic, run) pairs."""


def topic_means(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Each run's (weighted) mean over topics of a (topics, runs) array, NaN skipped."""
    v = np.asarray(values, dtype=np.float64)
    w = np.ones(len(v)) if weights is None else np.asarray(weights, dtype=np.float64)
    defined = ~np.isnan(v)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.where(defined, v, 0.0) * w[:, None]).sum(axis=0) / (defined * w[:, None]).sum(axis=0)


def level_correlation(scores: np.ndarray, truth: np.ndarray, method: str = "kendall", level: str = "run",
                      weights: np.ndarray | None = None) -> float:
    """One correlation of two (topics, runs) tables at ``level`` (``LEVELS``), topics weighted by ``weights``.

    ``run``: corr(run means, run means); ``topic``: the weighted mean of the topics' own correlations (NaN ones
    skipped); ``pairs``: corr over every (topic, run) defined on both sides, a topic's pairs repeated ``weights``
    times.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: use one of {LEVELS}")
    if method not in CORRELATIONS:
        raise ValueError(f"unknown correlation {method!r}: use one of {sorted(CORRELATIONS)}")
    correlate = CORRELATIONS[method]
    s, t = np.asarray(scores, dtype=np.float64), np.asarray(truth, dtype=np.float64)
    if s.shape != t.shape or s.ndim != 2:
        raise ValueError(f"correlation of (topics, runs) tables of different shapes: {s.shape} vs {t.shape}")
    w = np.ones(len(s)) if weights is None else np.asarray(weights, dtype=np.float64)
    if level == "run":
        return correlate(topic_means(s, w), topic_means(t, w))
    if level == "topic":
        per_topic = np.array([correlate(s[i], t[i]) if w[i] > 0 else np.nan for i in range(len(s))])
        keep = ~np.isnan(per_topic) & (w > 0)
        return float((per_topic[keep] * w[keep]).sum() / w[keep].sum()) if keep.any() else float("nan")
    times = w.astype(np.int64)
    return correlate(np.repeat(s, times, axis=0).ravel(), np.repeat(t, times, axis=0).ravel())


def bootstrap_correlation(scores: np.ndarray, truth: np.ndarray, method: str = "kendall", samples: int = 1000,
                          seed: int = 0, confidence: float = 0.95,
                          baseline: np.ndarray | None = None, level: str = "run") -> dict[str, float]:
    """Correlation of two (topics, runs) leaderboards at ``level``, with a percentile interval over topic resamples.

    With ``baseline`` (another (topics, runs) judge): also the paired difference corr(scores) - corr(baseline) on
    the same resamples (``difference``, ``difference_low``, ``difference_high``).
    """
    scores, truth = np.asarray(scores, dtype=np.float64), np.asarray(truth, dtype=np.float64)
    rng = np.random.default_rng(seed)
    point = level_correlation(scores, truth, method, level)
    draws, differences = np.empty(samples), np.empty(samples)
    base_point = level_correlation(baseline, truth, method, level) if baseline is not None else np.nan
    for k in range(samples):
        weights = np.bincount(rng.integers(len(scores), size=len(scores)), minlength=len(scores)).astype(np.float64)
        draws[k] = level_correlation(scores, truth, method, level, weights)
        if baseline is not None:
            differences[k] = draws[k] - level_correlation(baseline, truth, method, level, weights)
    alpha = (1 - confidence) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = {"value": point, "low": float(np.nanquantile(draws, alpha)),
               "high": float(np.nanquantile(draws, 1 - alpha))}
        if baseline is not None:
            out |= {"difference": point - base_point, "difference_low": float(np.nanquantile(differences, alpha)),
                    "difference_high": float(np.nanquantile(differences, 1 - alpha))}
    return out


__all__ = ["CORRELATIONS", "LEVELS", "bootstrap_correlation", "kendall", "kendall_at", "level_correlation", "pearson",
           "spearman", "tau_ap_b", "tau_gap", "topic_means"]
