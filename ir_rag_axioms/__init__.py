"""ir_rag_axioms: transparent axioms that compare generated RAG responses, with PyTerrier transformers.

Every registered axiom is exported under its short name (``COH1``, ``CONS2``, ``GEN_TFC1``, ...) from the registry.
"""

from typing import Any

from ir_rag_axioms import _moved
from ir_rag_axioms import axioms as _axioms
from ir_rag_axioms._version import __version__
from ir_rag_axioms.aggregation import borda, bradley_terry, copeland, kwiksort, majority_vote
from ir_rag_axioms.analysis.cache import Analysis, default_analysis
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.axioms.base import Axiom, FeatureAxiom, ParsedAxiom, Reads, analyse, compare
from ir_rag_axioms.axioms.combinators import Cascade, Conjunction, MajorityVote, Negated, Normalized, Product, Sum
from ir_rag_axioms.axioms.generative import Generative
from ir_rag_axioms.axioms.learned import LearnedAxiom, ResponseLength, ValueDifference
from ir_rag_axioms.axioms.oracles import CrowdOracle, LlmRatingOracle, NuggetOracle
from ir_rag_axioms.axioms.preconditions import LEN
from ir_rag_axioms.axioms.registry import REGISTRY, get, names, parse, register
from ir_rag_axioms.axioms.retrieval.argument import ArgumentTagger, FunctionTagger
from ir_rag_axioms.evaluation import evaluate_axioms, evaluation_table
from ir_rag_axioms.metrics import (
    AnswerRelevancy,
    ContextRecall,
    Faithfulness,
    LlmJudge,
    OfflineJudge,
    RubricAnswerRelevancy,
)
from ir_rag_axioms.model import Document, GenerationRequest, GenerationResponse, Query

globals().update(REGISTRY)

_LAZY = {"AxiomaticReranker": "ir_rag_axioms.pyterrier", "AxiomaticPreferences": "ir_rag_axioms.pyterrier",
         "AxiomFeatures": "ir_rag_axioms.pyterrier",
         "LearnedReranker": "ir_rag_axioms.pyterrier", "MetricScorer": "ir_rag_axioms.pyterrier.metrics"}


def __getattr__(name: str) -> Any:
    """The PyTerrier transformers, imported on first use (PyTerrier is optional)."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "REGISTRY", "Analysis", "AnswerRelevancy", "ArgumentTagger", "Axiom", "AxiomFeatures", "AxiomaticPreferences",
    "AxiomaticReranker", "Cascade", "Conjunction", "ContextRecall", "CrowdOracle", "Document", "Faithfulness",
    "Feature", "FeatureAxiom", "FunctionTagger", "GenerationRequest", "GenerationResponse", "Generative", "LEN",
    "LearnedAxiom", "LearnedReranker", "LlmJudge", "LlmRatingOracle", "MajorityVote", "MetricScorer", "Negated",
    "Normalized", "NuggetOracle", "OfflineJudge", "ParsedAxiom", "Product", "Query", "Reads", "ResponseLength",
    "RubricAnswerRelevancy", "Sum", "ValueDifference", "__version__",
    "analyse", "borda", "bradley_terry", "compare", "copeland", "default_analysis", "evaluate_axioms",
    "evaluation_table", "get", "kwiksort", "majority_vote", "names", "parse", "register", *REGISTRY,
]
del _axioms
_moved.install()
