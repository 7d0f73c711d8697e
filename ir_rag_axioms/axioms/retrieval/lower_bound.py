"""Lower bound axiom LB1."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms.base import within_margin
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import StatisticsTermAxiom, points_matrix, query_terms, tf_matrix
from ir_rag_axioms.axioms.retrieval.statistics import RetrievalScores, StatisticsSource
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class Lb1Axiom(StatisticsTermAxiom):
    """LB1: prefer the document containing query terms the other lacks.

    Only if retrieval scores are equal within the margin [Lv and Zhai, 2011].
    """

    name: ClassVar[str] = "LB1"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Lv and Zhai, 2011"
    margin_fraction: float = 0.1
    statistics: StatisticsSource = RetrievalScores()
    """Source of the scores: the responses' ``score`` by default; ``ContextStatistics()`` computes BM25."""

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(#terms only in d_i - #terms only in d_j) where scores tie."""
        request, responses = self.given(request, responses)
        present = tf_matrix(query_terms(query), docs, relative=False) > 0
        only = (present[:, None, :] & ~present[None, :, :]).sum(axis=2).astype(np.float64)
        scores = np.asarray(self.statistics.scores(request, responses, analysis), dtype=np.float64)
        with np.errstate(invalid="ignore"):
            tie = within_margin(scores[:, None], scores[None, :], self.margin_fraction)
        return points_matrix(only) * tie


LB1 = register(Lb1Axiom())
