"""ir_rag_axioms: transparent axioms that compare generated RAG responses, with PyTerrier transformers."""

from ir_rag_axioms.model import Document, GenerationRequest, GenerationResponse, Query
from ir_rag_axioms.axioms.base import Axiom, FeatureAxiom, compare
from ir_rag_axioms.axioms.registry import REGISTRY, get, names, parse

# RAG axioms (ICTIR 2025)
from ir_rag_axioms.axioms.coherence import COH1, COH2
from ir_rag_axioms.axioms.coverage import COV1, COV2, COV3
from ir_rag_axioms.axioms.consistency import CONS1, CONS2, CONS3
from ir_rag_axioms.axioms.correctness import CORR1
from ir_rag_axioms.axioms.clarity import CLAR1, CLAR2

__version__ = "0.1.0"

__all__ = [
    "REGISTRY", "Axiom", "Document", "FeatureAxiom", "GenerationRequest", "GenerationResponse",
    "Query", "__version__", "compare", "get", "names", "parse",
    "COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR1", "CLAR2",
]
