"""PyTerrier transformers over axiom preferences: ``pipeline >> AxiomaticReranker([COH1, CONS2])``."""

from ir_rag_axioms.axioms.naming import as_axioms, axiom_columns, named_axioms
from ir_rag_axioms.pyterrier.candidates import Candidates
from ir_rag_axioms.pyterrier.frames import TEXT_COLUMNS, groups, validate
from ir_rag_axioms.pyterrier.learned import LearnedReranker
from ir_rag_axioms.pyterrier.pool import SYSTEM_COLUMN, Pool, WithContext, crowd_response_ids
from ir_rag_axioms.pyterrier.transformers import AxiomaticPreferences, AxiomaticReranker, AxiomFeatures, BestOfN

__all__ = [
    "SYSTEM_COLUMN", "TEXT_COLUMNS", "AxiomFeatures", "AxiomaticPreferences", "AxiomaticReranker", "BestOfN",
    "Candidates", "LearnedReranker", "Pool", "WithContext", "as_axioms", "axiom_columns", "crowd_response_ids",
    "groups", "named_axioms", "validate",
]
