"""Term frequency axioms TFC1, TFC3, M-TDC and LEN-M-TDC."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms.base import compare, within_margin
from ir_rag_axioms.axioms.preconditions import LEN, Precondition
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import StatisticsTermAxiom, TermAxiom, points_matrix, query_terms, tf_matrix
from ir_rag_axioms.axioms.utility import NopAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class Tfc1Axiom(TermAxiom):
    """TFC1: prefer more query term occurrences, sum_t tf(t, d) / |d|, within a relative margin (LEN precondition).

    [Fang et al., 2004]
    """

    name: ClassVar[str] = "TFC1"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2004"
    margin_fraction: float = 0.1
    precondition: Precondition | NopAxiom | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(sum of relative tf)."""
        values = tf_matrix(query_terms(query), docs, relative=True).sum(axis=1)
        return compare(values, True, self.margin_fraction)


def _idf_and_tf(axiom: StatisticsTermAxiom, query: TermStatistics, docs: list[TermStatistics],
                request: Any, responses: Any, analysis: Analysis) -> tuple[np.ndarray, np.ndarray] | None:
    """Idf of the distinct query terms and their raw tf per document; None with fewer than two query terms."""
    terms = query_terms(query)
    if len(terms) < 2:
        return None
    return axiom.statistics.idf(request, responses, terms, analysis), tf_matrix(terms, docs, relative=False)


class Tfc3Axiom(StatisticsTermAxiom):
    """TFC3: prefer the document covering more distinct query terms of equal idf at equal total tf.

    For query term pairs with idf equal within the margin, d1 earns a point if tf(t1,d2) = tf(t1,d1) + tf(t2,d1),
    tf(t2,d2) = 0, tf(t1,d1), tf(t2,d1) > 0 [Fang et al., 2011].
    """

    name: ClassVar[str] = "TFC3"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2011"
    margin_fraction: float = 0.1
    precondition: Precondition | NopAxiom | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(points_i - points_j) over ordered pairs of query terms with similar idf."""
        n = len(docs)
        found = _idf_and_tf(self, query, docs, request, responses, analysis)
        if found is None:
            return np.zeros((n, n))
        idf, tf = found
        points = np.zeros((n, n))
        for a in range(len(idf)):
            for b in range(len(idf)):
                if a == b or not within_margin(idf[a], idf[b], self.margin_fraction):
                    continue
                holds = ((tf[None, :, a] == tf[:, None, a] + tf[:, None, b]) & (tf[None, :, b] == 0)
                         & (tf[:, None, a] > 0) & (tf[:, None, b] > 0))
                points += holds
        return points_matrix(points)


class ModifiedTdcAxiom(StatisticsTermAxiom):
    """M-TDC: at equal total query tf, prefer more occurrences of the rarer query term.

    Per query term pair with idf(t1) > idf(t2) (beyond the margin), a point for more t1 occurrences [Shi et al., 2005].
    """

    name: ClassVar[str] = "M_TDC"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Shi et al., 2005"
    margin_fraction: float = 0.1
    """Relative margin within which two idf values count as equal."""

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(points_i - points_j) where sum_t tf(t, d_i) = sum_t tf(t, d_j)."""
        n = len(docs)
        found = _idf_and_tf(self, query, docs, request, responses, analysis)
        if found is None:
            return np.zeros((n, n))
        idf, tf = found
        points = np.zeros((n, n))
        for a in range(len(idf)):
            for b in range(len(idf)):
                if a != b and idf[a] > idf[b] and not within_margin(idf[a], idf[b], self.margin_fraction):
                    points += tf[:, None, a] > tf[None, :, a]
        totals = tf.sum(axis=1)
        return points_matrix(points) * (totals[:, None] == totals[None, :])


class LenModifiedTdcAxiom(ModifiedTdcAxiom):
    """LEN-M-TDC: M-TDC with the LEN precondition [Shi et al., 2005]."""

    name: ClassVar[str] = "LEN_M_TDC"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Shi et al., 2005"
    precondition: Precondition | NopAxiom | None = LEN()


TFC1 = register(Tfc1Axiom())
TFC3 = register(Tfc3Axiom())
M_TDC = register(ModifiedTdcAxiom())
LEN_M_TDC = register(LenModifiedTdcAxiom())
