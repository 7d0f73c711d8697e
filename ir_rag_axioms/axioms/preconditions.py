"""Preconditions of retrieval axioms: a boolean (n, n) mask of the pairs an axiom may decide."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms._compare import within_margin
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

if TYPE_CHECKING:
    from ir_rag_axioms.axioms.base import Axiom


class Precondition(ABC):
    """Which pairs of documents an axiom may compare: ``mask(query, documents)[i, j]`` is True where it holds."""

    @abstractmethod
    def mask(self, query: TermStatistics, documents: Sequence[TermStatistics],
             request: GenerationRequest | None = None,
             responses: Sequence[GenerationResponse] | None = None,
             analysis: Analysis | None = None) -> np.ndarray:
        """The symmetric boolean (n, n) mask (request, responses and analysis: for preconditions that read them)."""


def length_mask(lengths: np.ndarray, margin_fraction: float) -> np.ndarray:
    """M[i, j] = |l_i - l_j| <= margin * max(l_i, l_j) (the one margin test; two zeros are equal)."""
    return within_margin(lengths[:, None], lengths[None, :], margin_fraction)


def check_precondition(owner: str, precondition: object) -> None:
    """Refuse, when an axiom is built, anything that cannot serve as its precondition.

    Accepted: ``LEN()``, ``None`` or ``NOP()``.
    """
    def serves(kind: type) -> bool:  # NOP declares itself "no precondition" (utility imports this module)
        return issubclass(kind, Precondition) or bool(getattr(kind, "no_precondition", False))

    if precondition is None or serves(type(precondition)):
        return
    if isinstance(precondition, type) and serves(precondition):
        hint = f"an instance, {precondition.__name__}()"
    else:
        hint = "LEN(...), None or NOP() (no precondition)"
    raise TypeError(f"{owner}: precondition must be {hint}, got {precondition!r}")


def as_precondition(precondition: object) -> Precondition | None:
    """The precondition to apply: ``NOP()`` and ``None`` mean none."""
    return precondition if isinstance(precondition, Precondition) else None


@dataclass(frozen=True)
class LEN(Precondition):
    """Similar document length: |d_1| and |d_2| (in terms) differ by at most ``margin_fraction`` of the longer."""

    margin_fraction: float = 0.1

    def __post_init__(self) -> None:
        if not (0 <= self.margin_fraction < float("inf")):
            raise ValueError(f"LEN: margin_fraction must be >= 0, got {self.margin_fraction!r}")

    def mask(self, query: TermStatistics, documents: Sequence[TermStatistics],
             request: GenerationRequest | None = None,
             responses: Sequence[GenerationResponse] | None = None,
             analysis: Analysis | None = None) -> np.ndarray:
        """Pairs of similar length."""
        return length_mask(np.array([d.length for d in documents], dtype=np.float64), self.margin_fraction)

    def __repr__(self) -> str:
        return "LEN()" if self.margin_fraction == 0.1 else f"LEN(margin_fraction={self.margin_fraction!r})"


def apply_precondition(matrix: np.ndarray, precondition: Precondition | None, query: TermStatistics,
                       documents: Sequence[TermStatistics], request: GenerationRequest | None = None,
                       responses: Sequence[GenerationResponse] | None = None,
                       analysis: Analysis | None = None) -> np.ndarray:
    """The matrix with every pair outside the precondition set to 0 (unchanged without a precondition)."""
    if precondition is None:
        return matrix
    return matrix * precondition.mask(query, documents, request, responses, analysis)


@dataclass(frozen=True)
class AxiomPrecondition(Precondition):
    """An axiom as a precondition (``axiom.as_precondition()``): it holds where the axiom has no preference."""

    axiom: Axiom

    def __post_init__(self) -> None:
        if not callable(getattr(self.axiom, "preferences", None)):  # an Axiom (base imports this module)
            raise TypeError(f"AxiomPrecondition takes an axiom, got {type(self.axiom).__name__} {self.axiom!r}")

    def mask(self, query: TermStatistics, documents: Sequence[TermStatistics],
             request: GenerationRequest | None = None,
             responses: Sequence[GenerationResponse] | None = None,
             analysis: Analysis | None = None) -> np.ndarray:
        """M[i, j] = (P_axiom[i, j] == 0) for the request's responses."""
        if request is None or responses is None or analysis is None:
            raise ValueError(f"{self!r} reads the request, responses and analysis; it cannot judge term statistics "
                             "alone")
        return np.asarray(self.axiom.matrix(request, list(responses), analysis), dtype=np.float64) == 0

    def __repr__(self) -> str:
        return f"{self.axiom!r}.as_precondition()"
