"""``ir_axioms.integrations``: the reference's PyTerrier transformers and experiment."""

from ir_rag_axioms.compat.integrations.pyterrier import (
    AggregatedAxiomaticPreferences,
    AxiomaticExperiment,
    AxiomaticPreferences,
    AxiomaticReranker,
    EstimatorKwikSortReranker,
    KwikSortReranker,
    inject_pyterrier,
)

__all__ = ["AggregatedAxiomaticPreferences", "AxiomaticExperiment", "AxiomaticPreferences", "AxiomaticReranker",
           "EstimatorKwikSortReranker", "KwikSortReranker", "inject_pyterrier"]
