"""``ir_axioms.integrations``: the PyTerrier transformers under the specification's names."""

from ir_rag_axioms.compat.integrations.pyterrier import (
    AxiomaticExperiment,
    AxiomaticPreferences,
    AxiomaticReranker,
    EstimatorKwikSortReranker,
    KwikSortReranker,
)

__all__ = ["AxiomaticExperiment", "AxiomaticPreferences", "AxiomaticReranker", "EstimatorKwikSortReranker",
           "KwikSortReranker"]
