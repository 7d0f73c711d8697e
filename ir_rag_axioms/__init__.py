"""ir_rag_axioms: transparent axioms that compare generated RAG responses, with PyTerrier transformers.

Every registered axiom is exported under its short name (``COH1``, ``CONS2``, ``GEN_TFC1``, ...), imported from its
module: the exported name is the registered instance (``ir_rag_axioms.COH1 is REGISTRY["COH1"]``).
"""

from typing import Any

from ir_rag_axioms import _moved
from ir_rag_axioms import axioms as _axioms
from ir_rag_axioms._version import __version__
from ir_rag_axioms.aggregation import borda, bradley_terry, copeland, kwiksort, majority_vote
from ir_rag_axioms.analysis.cache import Analysis, default_analysis
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.axioms.base import Axiom, ConfigurableAxiom, FeatureAxiom, ParsedAxiom, Reads, analyse, compare

# -- every registered axiom under its short name (tests/test_exports.py: the same set as REGISTRY) --
from ir_rag_axioms.axioms.citations import (
    CORR2,
    CORR3,
    CORR4,
)
from ir_rag_axioms.axioms.clarity import (
    CLAR1,
    CLAR2,
)
from ir_rag_axioms.axioms.coherence import (
    COH1,
    COH2,
)
from ir_rag_axioms.axioms.combinators import Cascade, Conjunction, MajorityVote, Negated, Normalized, Product, Sum
from ir_rag_axioms.axioms.consensus import (
    AGREE1,
    AGREE2,
    AGREE3,
    AGREE4,
)
from ir_rag_axioms.axioms.consistency import (
    CONS1,
    CONS2,
    CONS3,
)
from ir_rag_axioms.axioms.correctness import (
    CORR1,
)
from ir_rag_axioms.axioms.coverage import (
    COV1,
    COV2,
    COV3,
)
from ir_rag_axioms.axioms.discourse import (
    CLAR3,
    CLAR4,
    CLAR5,
)
from ir_rag_axioms.axioms.facets import (
    COV4,
)
from ir_rag_axioms.axioms.generative import (
    GEN_AND,
    GEN_ANTI_REG,
    GEN_BEST_SIM,
    GEN_CONSENSUS,
    GEN_DIV,
    GEN_LB1,
    GEN_LB2,
    GEN_LEN_AND,
    GEN_LEN_DIV,
    GEN_LEN_M_AND,
    GEN_LEN_M_TDC,
    GEN_LNC1,
    GEN_LNC2,
    GEN_LOG_TF,
    GEN_M_AND,
    GEN_M_TDC,
    GEN_PROX1,
    GEN_PROX2,
    GEN_PROX3,
    GEN_PROX4,
    GEN_PROX5,
    GEN_QLEXRANK,
    GEN_QPHRA,
    GEN_REG,
    GEN_SIM_TERMS,
    GEN_STMC1,
    GEN_STMC2,
    GEN_STMC3,
    GEN_TDC,
    GEN_TF_LNC,
    GEN_TFC1,
    GEN_TFC3,
    GEN_ArgUC,
    GEN_aSL,
    GEN_QTArg,
    GEN_QTPArg,
    Generative,
)
from ir_rag_axioms.axioms.grounding import (
    CONS4,
    CONS5,
)
from ir_rag_axioms.axioms.learned import LearnedAxiom, ResponseLength, ValueDifference
from ir_rag_axioms.axioms.oracles import (
    CROWD,
    LLM_ORIG,
    NUGGET,
    CrowdOracle,
    LlmRatingOracle,
    NuggetOracle,
)
from ir_rag_axioms.axioms.preconditions import LEN
from ir_rag_axioms.axioms.registry import REGISTRY, get, names, parse, register, unregister
from ir_rag_axioms.axioms.retrieval.argument import (
    ArgUC,
    ArgumentTagger,
    FunctionTagger,
    QTArg,
    QTPArg,
)
from ir_rag_axioms.axioms.retrieval.length import (
    LNC1,
    TF_LNC,
)
from ir_rag_axioms.axioms.retrieval.lower_bound import (
    LB1,
)
from ir_rag_axioms.axioms.retrieval.proximity import (
    PROX1,
    PROX2,
    PROX3,
    PROX4,
    PROX5,
)
from ir_rag_axioms.axioms.retrieval.query_aspects import (
    AND,
    ANTI_REG,
    ASPECT_REG,
    DIV,
    LEN_AND,
    LEN_DIV,
    LEN_M_AND,
    M_AND,
    REG,
)
from ir_rag_axioms.axioms.retrieval.roadmap import (
    BEST_SIM,
    CONSENSUS,
    LB2,
    LNC2,
    LOG_TF,
    QLEXRANK,
    QPHRA,
    SIM_TERMS,
    STMC3,
    TDC,
)
from ir_rag_axioms.axioms.retrieval.sentence_length import (
    aSL,
)
from ir_rag_axioms.axioms.retrieval.similarity import (
    STMC1,
    STMC2,
)
from ir_rag_axioms.axioms.retrieval.term_frequency import (
    LEN_M_TDC,
    M_TDC,
    TFC1,
    TFC3,
)
from ir_rag_axioms.axioms.style import (
    COH3,
    COH4,
    COH5,
)
from ir_rag_axioms.axioms.utility import (
    GT,
    LT,
    NOP,
    ORIG,
    RANDOM,
)
from ir_rag_axioms.evaluation import evaluate_axioms, evaluation_table

# importing the metrics registers the metric axioms (FAITHFULNESS, ..., LLM_PAIRWISE): the axioms never import them
from ir_rag_axioms.metrics import (
    AnswerRelevancy,
    ContextRecall,
    ContextualPrecision,
    ContextualRecall,
    Faithfulness,
    LlmJudge,
    OfflineJudge,
    RubricAnswerRelevancy,
)
from ir_rag_axioms.metrics.axioms import (
    ANSWER_RELEVANCY,
    CONS6,
    CONTEXT_RECALL,
    FAITHFULNESS,
)
from ir_rag_axioms.metrics.pairwise import (
    LLM_PAIRWISE,
)
from ir_rag_axioms.model import Document, GenerationRequest, GenerationResponse, Query

_LAZY = {"AxiomaticReranker": "ir_rag_axioms.pyterrier", "AxiomaticPreferences": "ir_rag_axioms.pyterrier",
         "AxiomFeatures": "ir_rag_axioms.pyterrier", "Candidates": "ir_rag_axioms.pyterrier",
         "LearnedReranker": "ir_rag_axioms.pyterrier", "MetricScorer": "ir_rag_axioms.pyterrier.metrics"}


def __getattr__(name: str) -> Any:
    """The PyTerrier transformers, imported on first use (PyTerrier is optional); deprecated axiom names (warning)."""
    from ir_rag_axioms.axioms.registry import DEPRECATED

    if name in DEPRECATED:
        return get(name)
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "REGISTRY", "Analysis", "AnswerRelevancy", "ArgumentTagger", "Axiom", "AxiomFeatures", "AxiomaticPreferences",
    "AxiomaticReranker", "Candidates", "Cascade", "ConfigurableAxiom", "Conjunction", "ContextRecall",
    "ContextualPrecision", "ContextualRecall", "CrowdOracle", "Document", "Faithfulness",
    "Feature", "FeatureAxiom", "FunctionTagger", "GenerationRequest", "GenerationResponse", "Generative", "LEN",
    "LearnedAxiom", "LearnedReranker", "LlmJudge", "LlmRatingOracle", "MajorityVote", "MetricScorer", "Negated",
    "Normalized", "NuggetOracle", "OfflineJudge", "ParsedAxiom", "Product", "Query", "Reads", "ResponseLength",
    "RubricAnswerRelevancy", "Sum", "ValueDifference", "__version__",
    "analyse", "borda", "bradley_terry", "compare", "copeland", "default_analysis", "evaluate_axioms",
    "evaluation_table", "get", "kwiksort", "majority_vote", "names", "parse", "register", "unregister",
    # the registered axioms
    "AGREE1", "AGREE2", "AGREE3", "AGREE4",
    "AND", "ANSWER_RELEVANCY", "ANTI_REG", "ArgUC", "aSL", "ASPECT_REG", "CLAR1", "CLAR2", "CLAR3", "CLAR4",
    "CLAR5", "COH1", "COH2", "COH3", "COH4", "COH5", "CONS1", "CONS2", "CONS3", "CONS4", "CONS5", "CONS6",
    "CONTEXT_RECALL", "CORR1", "CORR2", "CORR3", "CORR4", "COV1", "COV2", "COV3", "COV4", "CROWD", "DIV",
    "FAITHFULNESS", "GEN_AND", "GEN_ANTI_REG", "GEN_ArgUC", "GEN_aSL", "GEN_DIV", "GEN_LB1", "GEN_LB2",
    "GEN_LEN_AND", "GEN_LEN_DIV", "GEN_LEN_M_AND", "GEN_LEN_M_TDC", "GEN_LNC1", "GEN_LNC2", "GEN_M_AND",
    "GEN_M_TDC", "GEN_PROX1", "GEN_PROX2", "GEN_PROX3", "GEN_PROX4", "GEN_PROX5", "GEN_QLEXRANK", "GEN_QPHRA",
    "GEN_QTArg", "GEN_QTPArg", "GEN_REG", "GEN_CONSENSUS", "GEN_STMC1", "GEN_STMC2", "GEN_STMC3", "GEN_TDC", "GEN_TFC1",
    "GEN_LOG_TF", "GEN_TFC3", "GEN_TF_LNC", "GEN_BEST_SIM", "GEN_SIM_TERMS", "GT", "LB1", "LB2", "LEN_AND", "LEN_DIV",
    "LEN_M_AND", "LEN_M_TDC", "LLM_ORIG", "LLM_PAIRWISE", "LNC1", "LNC2", "LT", "M_AND", "M_TDC", "NOP", "NUGGET",
    "ORIG", "PROX1", "PROX2", "PROX3", "PROX4", "PROX5", "QLEXRANK", "QPHRA", "QTArg", "QTPArg", "RANDOM", "REG",
    "CONSENSUS", "STMC1", "STMC2", "STMC3", "TDC", "TFC1", "LOG_TF", "TFC3", "TF_LNC", "BEST_SIM", "SIM_TERMS",
]
del _axioms
_moved.install()
