"""The fitted claim verifier: two logistic regressions over the claim features, read from a small JSON file.

P(supported) = sigmoid(w_s . z + b_s) and P(contradicted) = (1 - P(supported)) * sigmoid(w_c . z + b_c), with z the
features standardised by the fitted mean and scale; both are 0 for a claim worded unlike the context (``min_overlap``).
The packaged model (``ir_rag_axioms/data/verifier.json``) is
written by ``bench/fit_verifier.py``; its ``metadata`` names the training sets, their licences and the held-out
(leave-one-dataset-out) figures.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ir_rag_axioms.metrics.verifier.signals import FEATURES
from ir_rag_axioms.settings import packaged_json

PACKAGED = "verifier.json"


@dataclass(frozen=True)
class Verifier:
    """Standardisation, the two regressions and the decision thresholds of a fitted verifier."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    supported: np.ndarray
    """Coefficients of P(supported), the intercept last."""
    contradicted: np.ndarray
    """Coefficients of P(contradicted | not supported), the intercept last."""
    threshold: float
    """A claim is supported from this P(supported) on (chosen on the training sets for balanced accuracy)."""
    contradiction_threshold: float
    """A claim is contradicted from this P(contradicted) on."""
    metadata: dict[str, Any]
    min_overlap: float = 0.0
    """P(supported) and P(contradicted) are 0 where at most this share of the claim's content words is in the context
    (chosen on the training sets: a claim that adds as much as it repeats is unsupported, whatever else it matches)."""

    def probabilities(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(P(supported), P(contradicted)) of each row of features (n, len(features))."""
        rows = np.asarray(rows, dtype=float).reshape(-1, len(self.features))
        z = (rows - self.mean) / self.scale
        supported = _sigmoid(z @ self.supported[:-1] + self.supported[-1])
        contradicted = (1 - supported) * _sigmoid(z @ self.contradicted[:-1] + self.contradicted[-1])
        if self.min_overlap > 0:  # worded unlike the context: unsupported, neither supported nor contradicted
            guarded = rows[:, self.features.index("overlap_context")] <= self.min_overlap
            supported, contradicted = np.where(guarded, 0.0, supported), np.where(guarded, 0.0, contradicted)
        return supported, contradicted

    def to_json(self) -> dict[str, Any]:
        """The verifier as plain JSON (lists of floats)."""
        return {"features": list(self.features), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "supported": self.supported.tolist(), "contradicted": self.contradicted.tolist(),
                "threshold": self.threshold, "contradiction_threshold": self.contradiction_threshold,
                "min_overlap": self.min_overlap, "metadata": self.metadata}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verifier:
        """Read ``to_json``'s form; the features must be this version's ``FEATURES``."""
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"verifier: the model was fitted on features {data['features']}, this version computes "
                             f"{list(FEATURES)}; refit it with bench/fit_verifier.py")
        arrays = {k: np.asarray(data[k], dtype=float) for k in ("mean", "scale", "supported", "contradicted")}
        return cls(FEATURES, threshold=float(data["threshold"]),
                   contradiction_threshold=float(data["contradiction_threshold"]),
                   metadata=dict(data.get("metadata", {})), min_overlap=float(data.get("min_overlap", 0.0)),
                   **arrays)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x, -50, 50)))


@functools.cache
def load_verifier(path: str | None = None) -> Verifier:
    """The verifier in ``path`` (None: the packaged one)."""
    return Verifier.from_json(json.loads(Path(path).read_text()) if path is not None else packaged_json(PACKAGED))
