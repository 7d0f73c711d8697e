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

# Aggregation and PyTerrier transformers (issue 4); the transformers import pyterrier lazily, on first use.
from ir_rag_axioms.aggregation import borda, bradley_terry, copeland, kwiksort, majority_vote

_LAZY = {"AxiomaticReranker": "ir_rag_axioms.pyterrier", "AxiomaticPreferences": "ir_rag_axioms.pyterrier",
         "AxiomFeatures": "ir_rag_axioms.pyterrier"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ += ["AxiomFeatures", "AxiomaticPreferences", "AxiomaticReranker",
            "borda", "bradley_terry", "copeland", "kwiksort", "majority_vote"]

# Oracles and evaluation (ICTIR 2025 study); ir_rag_axioms.datasets (ir_datasets registration) is imported on demand
from ir_rag_axioms.axioms.oracles import CROWD, LLM_ORIG, NUGGET, CrowdOracle, LlmRatingOracle, NuggetOracle
from ir_rag_axioms import evaluation
from ir_rag_axioms.evaluation import evaluate_axioms, evaluation_table

__all__ += [
    "CROWD", "LLM_ORIG", "NUGGET", "CrowdOracle", "LlmRatingOracle", "NuggetOracle",
    "evaluation", "evaluate_axioms", "evaluation_table",
]
