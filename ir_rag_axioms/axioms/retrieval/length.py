"""Document length axioms LNC1 and TF-LNC."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import (
    TermAxiom,
    lengths,
    points_matrix,
    query_terms,
    same_relative_tf,
    tf_matrix,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class Lnc1Axiom(TermAxiom):
    """LNC1: if every query term's relative tf is equal within the margin, prefer the shorter document.

    [Fang et al., 2004]
    """

    name: ClassVar[str] = "LNC1"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2004"
    margin_fraction: float = 0.1

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """-sign(|d_i| - |d_j|) where all query term tfs tie."""
        same = same_relative_tf(query, docs, self.margin_fraction)
        length = lengths(docs)
        return -np.sign(length[:, None] - length[None, :]) * same


class TfLncAxiom(TermAxiom):
    """TF-LNC: per query term t, if |d1| - tf(t,d1) = |d2| - tf(t,d2), the document with more t earns a point.

    [Fang et al., 2004]
    """

    name: ClassVar[str] = "TF_LNC"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2004"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(points_i - points_j) with raw counts."""
        tf = tf_matrix(query_terms(query), docs, relative=False)
        rest = lengths(docs)[:, None] - tf
        same = rest[:, None, :] == rest[None, :, :]
        points = (same & (tf[:, None, :] > tf[None, :, :])).sum(axis=2)
        return points_matrix(points.astype(np.float64))


LNC1 = register(Lnc1Axiom())
TF_LNC = register(TfLncAxiom())
