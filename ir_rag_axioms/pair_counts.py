"""The pairs that preference matrices decide, and how many agree with an oracle's: counts and the four measures.

For preference matrices P (axiom) and O (oracle), normalised to their signs, over the off-diagonal pairs:
decisiveness = #{P != 0} / #pairs; consistency = #{P != 0 and |P - O| <= 1} / #{P != 0} (relaxed: an oracle
tie contradicts nothing); strict consistency = #{P != 0 and P = O} / #{P != 0}; effectiveness = harmonic mean of
decisiveness and (relaxed) consistency. Numpy in, numpy out; the metrics' calibration and the evaluation count with
it (``evaluation.evaluate`` re-exports it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MEASURES = ("decisiveness", "consistency", "consistency_strict", "effectiveness")
"""The columns of an evaluation table, besides ``axiom``."""

Matrices = np.ndarray | Sequence[np.ndarray]
"""A (T, n, n) stack or a list of T square matrices (one per topic, sizes may differ)."""


def _as_list(preferences: Matrices) -> list[np.ndarray]:
    if isinstance(preferences, np.ndarray):
        if preferences.ndim == 2:
            preferences = preferences[None]
        if preferences.ndim != 3 or preferences.shape[1] != preferences.shape[2]:
            raise ValueError(f"expected a (T, n, n) stack of preference matrices, got shape {preferences.shape}")
        return list(preferences)
    out = []
    for matrix in preferences:
        m = np.asarray(matrix, dtype=np.float64)
        if m.ndim != 2 or m.shape[0] != m.shape[1]:
            raise ValueError(f"expected square preference matrices, got shape {m.shape}")
        out.append(m)
    return out


def _counts(p: np.ndarray, o: np.ndarray, on: np.ndarray) -> np.ndarray:
    """[#pairs, #decisive, #consistent (relaxed), #consistent (strict)] of the pairs where ``on`` holds."""
    p, o = np.sign(np.nan_to_num(p[on])), np.sign(np.nan_to_num(o[on]))
    decisive = p != 0
    return np.array([on.sum(), decisive.sum(), (decisive & (np.abs(p - o) <= 1)).sum(), (decisive & (p == o)).sum()])


def topic_counts(preferences: Matrices, oracle: Matrices) -> np.ndarray:
    """Per topic counts over off-diagonal pairs, shape (T, 4).

    Per topic t: [#pairs, #decisive, #consistent (relaxed), #consistent (strict)].
    """
    prefs, truth = _as_list(preferences), _as_list(oracle)
    if len(prefs) != len(truth):
        raise ValueError(f"{len(prefs)} axiom matrices but {len(truth)} oracle matrices")
    counts = np.zeros((len(prefs), 4), dtype=np.int64)
    for t, (p, o) in enumerate(zip(prefs, truth, strict=True)):
        if p.shape != o.shape:
            raise ValueError(f"topic {t}: axiom matrix {p.shape} and oracle matrix {o.shape} differ in shape")
        counts[t] = _counts(p, o, ~np.eye(p.shape[0], dtype=bool))
    return counts


def harmonic_mean(a: float, b: float) -> float:
    """2ab / (a + b), 0 if a + b = 0."""
    return 2 * a * b / (a + b) if a + b > 0 else 0.0


def scores_from_counts(counts: np.ndarray) -> dict[str, float]:
    """The four measures from summed topic counts.

    Consistency (relaxed and strict) is NaN when the axiom decides no pair (0/0: undefined, not 0), and
    effectiveness is then 0 (decisiveness 0).
    """
    sums = np.asarray(counts, dtype=np.float64).reshape(-1, 4).sum(axis=0)
    return {name: float(value) for name, value in zip(MEASURES, _measures(sums), strict=True)}


def _measures(sums: np.ndarray) -> np.ndarray:
    """The four measures (rows) of count sums (..., 4); consistency NaN where nothing is decided."""
    pairs, decisive, consistent, strict = np.moveaxis(np.asarray(sums, dtype=np.float64), -1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(pairs > 0, decisive / pairs, 0.0)
        c = np.where(decisive > 0, consistent / decisive, np.nan)
        s = np.where(decisive > 0, strict / decisive, np.nan)
        e = np.where(d + np.nan_to_num(c) > 0, 2 * d * c / (d + c), 0.0)
    return np.stack([d, c, s, e])
