"""Retrieval axioms on term statistics (Hagen et al. 2016 and Völske et al. 2021 reformulations, ir_axioms defaults).

The query is the request text, a document is a response text; both are spaCy terms (lowercased lemmas without
punctuation and stopwords). tf is relative (count / |d|) where the reference compares with a margin, raw where it
compares counts exactly (TF-LNC, TFC3, M-TDC).

One module per group: ``base`` (``TermAxiom``, ``StatisticsTermAxiom``, helpers), ``term_frequency``, ``length``,
``lower_bound``, ``query_aspects``, ``similarity``, ``sentence_length``, ``argument``, ``proximity``, and
``statistics`` (collection statistics and retrieval scores). Importing this package registers their axioms.
"""

# The section modules are imported in registration order (TFC1 ... aSL, ArgUC, QTArg, QTPArg, PROX1 ... PROX5):
# keep it, ``names()`` lists the axioms in that order (hence no import sorting here).
# isort: off
from ir_rag_axioms.axioms.retrieval.statistics import (
    ContextStatistics,
    FixedStatistics,
    IndexStatistics,
    RetrievalScores,
    StatisticsSource,
    bm25_idf,
    bm25_scores,
)
from ir_rag_axioms.axioms.retrieval.base import (
    StatisticsTermAxiom,
    TermAxiom,
    lengths,
    points_matrix,
    query_terms,
    tf_matrix,
)
from ir_rag_axioms.axioms.retrieval.term_frequency import (
    LEN_M_TDC,
    M_TDC,
    TFC1,
    TFC3,
    LenModifiedTdcAxiom,
    ModifiedTdcAxiom,
    Tfc1Axiom,
    Tfc3Axiom,
)
from ir_rag_axioms.axioms.retrieval.length import LNC1, TF_LNC, Lnc1Axiom, TfLncAxiom
from ir_rag_axioms.axioms.retrieval.lower_bound import LB1, Lb1Axiom
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
    AndAxiom,
    AntiRegAxiom,
    AspectRegAxiom,
    DivAxiom,
    LenAndAxiom,
    LenDivAxiom,
    LenModifiedAndAxiom,
    ModifiedAndAxiom,
    RegAxiom,
)
from ir_rag_axioms.axioms.retrieval.similarity import STMC1, STMC2, Stmc1Axiom, Stmc2Axiom
from ir_rag_axioms.axioms.retrieval.sentence_length import AverageSentenceLengthAxiom, aSL
from ir_rag_axioms.axioms.retrieval.argument import (
    ARGUMENT_AXIOMS,
    ArgUC,
    ArgumentativeUnitsCountAxiom,
    ArgumentFeatures,
    ArgumentTagger,
    FunctionTagger,
    QTArg,
    QTPArg,
    QueryTermOccurrenceInArgumentativeUnitsAxiom,
    QueryTermPositionInArgumentativeUnitsAxiom,
    Span,
)
from ir_rag_axioms.axioms.retrieval.proximity import (
    PROX1,
    PROX2,
    PROX3,
    PROX4,
    PROX5,
    PROXIMITY_AXIOMS,
    Prox1Axiom,
    Prox2Axiom,
    Prox3Axiom,
    Prox4Axiom,
    Prox5Axiom,
    minimal_windows,
    shared_terms_mask,
)
from ir_rag_axioms.axioms.retrieval.roadmap import (
    BEST_SIM,
    CONSENSUS,
    LB2,
    LNC2,
    LOG_TF,
    QLEXRANK,
    QPHRA,
    ROADMAP_AXIOMS,
    SIM_TERMS,
    STMC3,
    TDC,
    BestSimAxiom,
    ConsensusAxiom,
    Lb2Axiom,
    Lnc2Axiom,
    LogTfAxiom,
    QphraAxiom,
    QueryLexRankAxiom,
    SimTermsAxiom,
    Stmc3Axiom,
    TdcAxiom,
    concatenation_factor,
    contains_phrase,
    pagerank,
    quoted_phrases,
)
# isort: on

RETRIEVAL_AXIOMS = [
    TFC1, TFC3, M_TDC, LEN_M_TDC, LNC1, TF_LNC, LB1, REG, ANTI_REG, AND, LEN_AND, M_AND, LEN_M_AND, DIV, LEN_DIV,
    STMC1, STMC2, aSL,
]

__all__ = [
    "AND", "ANTI_REG", "BEST_SIM", "CONSENSUS", "LB2", "LNC2", "LOG_TF", "QLEXRANK", "QPHRA", "ROADMAP_AXIOMS",
    "SIM_TERMS", "STMC3", "TDC", "BestSimAxiom", "ConsensusAxiom", "Lb2Axiom", "Lnc2Axiom", "LogTfAxiom",
    "QphraAxiom", "QueryLexRankAxiom", "SimTermsAxiom", "Stmc3Axiom", "TdcAxiom", "concatenation_factor",
    "contains_phrase", "quoted_phrases", "pagerank", "ARGUMENT_AXIOMS", "ASPECT_REG",
    "AspectRegAxiom", "DIV", "LB1", "LEN_AND", "LEN_DIV", "LEN_M_AND", "LEN_M_TDC", "LNC1",
    "M_AND", "M_TDC", "PROX1", "PROX2", "PROX3", "PROX4", "PROX5", "PROXIMITY_AXIOMS", "REG", "RETRIEVAL_AXIOMS",
    "STMC1", "STMC2", "TFC1", "TFC3", "TF_LNC", "AndAxiom", "AntiRegAxiom", "ArgUC", "ArgumentFeatures",
    "ArgumentTagger", "ArgumentativeUnitsCountAxiom", "AverageSentenceLengthAxiom", "ContextStatistics", "DivAxiom",
    "FixedStatistics", "FunctionTagger",
    "IndexStatistics", "Lb1Axiom", "LenAndAxiom", "LenDivAxiom", "LenModifiedAndAxiom",
    "LenModifiedTdcAxiom", "Lnc1Axiom", "ModifiedAndAxiom", "ModifiedTdcAxiom", "Prox1Axiom", "Prox2Axiom",
    "Prox3Axiom", "Prox4Axiom", "Prox5Axiom", "QTArg", "QTPArg", "QueryTermOccurrenceInArgumentativeUnitsAxiom",
    "QueryTermPositionInArgumentativeUnitsAxiom", "RegAxiom", "RetrievalScores", "Span", "StatisticsSource",
    "StatisticsTermAxiom", "Stmc1Axiom", "Stmc2Axiom", "TermAxiom", "Tfc1Axiom", "Tfc3Axiom", "TfLncAxiom", "aSL",
    "bm25_idf", "bm25_scores", "lengths", "minimal_windows", "points_matrix", "query_terms", "shared_terms_mask",
    "tf_matrix",
]


def __getattr__(name: str) -> object:
    """The deprecated names of renamed roadmap axioms and classes (TFC2, RsimAxiom, ...), with a DeprecationWarning."""
    from ir_rag_axioms.axioms.retrieval import roadmap

    return roadmap.__getattr__(name)
