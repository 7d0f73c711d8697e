"""The one margin test and the one comparison rule that turn per-response values into a preference matrix."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def within_margin(a: Any, b: Any, margin_fraction: float) -> np.ndarray:
    """The one margin test: |a - b| <= m * max(|a|, |b|) element-wise (symmetric, like ``math.isclose(rel_tol=m)``)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.abs(a - b) <= margin_fraction * np.maximum(np.abs(a), np.abs(b))


def compare(values: npt.ArrayLike, higher_is_better: bool = True, margin_fraction: float = 0.0) -> np.ndarray:
    """P[i, j] = sign(v_i - v_j) (negated if lower is better), 0 within the margin or where a value is NaN."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"compare() needs one value per response, got shape {v.shape}")
    a, b = v[:, None], v[None, :]
    with np.errstate(invalid="ignore"):
        diff = a - b
        prefs = np.where(within_margin(a, b, margin_fraction) | np.isnan(diff), 0.0, np.sign(diff))
    return (prefs if higher_is_better else -prefs) + 0.0  # + 0.0 turns -0.0 into 0.0


__all__ = ["compare", "within_margin"]
