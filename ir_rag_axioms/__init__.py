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

# Oracles and evaluation (ICTIR 2025 study); their data come from ir_rag_axioms.datasets (ir_datasets registration on register())
from ir_rag_axioms.axioms.oracles import CROWD, LLM_ORIG, NUGGET, CrowdOracle, LlmRatingOracle, NuggetOracle
from ir_rag_axioms import evaluation
from ir_rag_axioms.evaluation import evaluate_axioms, evaluation_table

__all__ += [
    "CROWD", "LLM_ORIG", "NUGGET", "CrowdOracle", "LlmRatingOracle", "NuggetOracle",
    "evaluation", "evaluate_axioms", "evaluation_table",
]

# Retrieval axioms on term statistics, their GEN_ adaptations, combinators and utility axioms (issue 3)
from ir_rag_axioms.axioms.retrieval import (
    AND, ANTI_REG, DIV, LB1, LEN_AND, LEN_DIV, LEN_M_AND, LEN_M_TDC, LNC1, M_AND, M_TDC, REG, STMC1, STMC2, TF_LNC,
    TFC1, TFC3, aSL,
)
from ir_rag_axioms.axioms.retrieval_proximity import PROX1, PROX2, PROX3, PROX4, PROX5
from ir_rag_axioms.axioms.retrieval_argument import ArgUC, ArgumentTagger, FunctionTagger, QTArg, QTPArg
from ir_rag_axioms.axioms.generative import (
    GEN_AND, GEN_ANTI_REG, GEN_ArgUC, GEN_DIV, GEN_LB1, GEN_LEN_AND, GEN_LEN_DIV, GEN_LEN_M_AND, GEN_LEN_M_TDC,
    GEN_LNC1, GEN_M_AND, GEN_M_TDC, GEN_PROX1, GEN_PROX2, GEN_PROX3, GEN_PROX4, GEN_PROX5, GEN_QTArg, GEN_QTPArg,
    GEN_REG, GEN_STMC1, GEN_STMC2, GEN_TF_LNC, GEN_TFC1, GEN_TFC3, GEN_aSL, Generative,
)
from ir_rag_axioms.axioms.preconditions import LEN
from ir_rag_axioms.axioms.combinators import (
    Cascade, Conjunction, MajorityVote, Negated, Normalized, Product, Sum,
)
from ir_rag_axioms.axioms.utility import NOP, ORIG, RANDOM

__all__ += [
    "AND", "ANTI_REG", "DIV", "LB1", "LEN_AND", "LEN_DIV", "LEN_M_AND", "LEN_M_TDC", "LNC1", "M_AND", "M_TDC", "REG",
    "STMC1", "STMC2", "TF_LNC", "TFC1", "TFC3", "aSL", "PROX1", "PROX2", "PROX3", "PROX4", "PROX5",
    "ArgUC", "QTArg", "QTPArg", "ArgumentTagger", "FunctionTagger",
    "GEN_AND", "GEN_ANTI_REG", "GEN_ArgUC", "GEN_DIV", "GEN_LB1", "GEN_LEN_AND", "GEN_LEN_DIV", "GEN_LEN_M_AND",
    "GEN_LEN_M_TDC", "GEN_LNC1", "GEN_M_AND", "GEN_M_TDC", "GEN_PROX1", "GEN_PROX2", "GEN_PROX3", "GEN_PROX4",
    "GEN_PROX5", "GEN_QTArg", "GEN_QTPArg", "GEN_REG", "GEN_STMC1", "GEN_STMC2", "GEN_TF_LNC", "GEN_TFC1",
    "GEN_TFC3", "GEN_aSL", "Generative", "LEN",
    "Cascade", "Conjunction", "MajorityVote", "Negated", "Normalized", "Product", "Sum", "NOP", "ORIG", "RANDOM",
]
