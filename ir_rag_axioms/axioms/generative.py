"""GEN_* axioms: retrieval axioms applied to generated responses (request text = query, response = document).

One generic adapter, ``Generative(axiom)``; axioms that need collection statistics or retrieval scores (TFC3,
M-TDC, LB1) read them from the request's retrieved context (``ContextStatistics``: idf over the context passages,
BM25 scores of the responses), which the reference does not offer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import ConfigurableAxiom, Item, Reads
from ir_rag_axioms.axioms.explanation import Explanation, renamed
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval import (
    AND,
    ANTI_REG,
    BEST_SIM,
    CONSENSUS,
    DIV,
    LB1,
    LB2,
    LEN_AND,
    LEN_DIV,
    LEN_M_AND,
    LEN_M_TDC,
    LNC1,
    LNC2,
    LOG_TF,
    M_AND,
    M_TDC,
    PROX1,
    PROX2,
    PROX3,
    PROX4,
    PROX5,
    QLEXRANK,
    QPHRA,
    REG,
    SIM_TERMS,
    STMC1,
    STMC2,
    STMC3,
    TDC,
    TF_LNC,
    TFC1,
    TFC3,
    ArgUC,
    ContextStatistics,
    QTArg,
    QTPArg,
    StatisticsTermAxiom,
    aSL,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class Generative(ConfigurableAxiom, kw_only=False):
    """GEN_X: the retrieval axiom X with the request as query and each response as document [Merker et al., 2025]."""

    axiom: ConfigurableAxiom
    dimension: ClassVar[str] = "generative (retrieval axiom on responses)"
    citation: ClassVar[str] = "Merker et al., 2025"

    @property
    def name(self) -> str:  # type: ignore[override]
        """``GEN_`` + the wrapped axiom's short name."""
        return f"GEN_{self.axiom.label}"

    def __call__(self, *args: Any, **changes: Any) -> Generative:
        """Reconfigure the wrapped axiom: ``GEN_TFC1(margin_fraction=0.2)``, or replace it with ``axiom=...``."""
        axiom = changes.pop("axiom", self.axiom)
        return dataclasses.replace(self, axiom=axiom(*args, **changes) if changes or args else axiom)

    def __repr__(self) -> str:
        return "GEN_" + repr(self.axiom)

    def reads(self) -> tuple[Reads, ...]:
        """The wrapped axiom's reads."""
        return self.axiom.reads()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """The wrapped axiom's batched analysis."""
        self.axiom.prefetch(items, analysis)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The wrapped axiom's matrix."""
        return self.axiom.matrix(request, responses, analysis)

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The wrapped axiom's explanations, under this name."""
        return [renamed(e, repr(self)) for e in self.axiom.explain_pairs(request, responses, pairs, analysis)]


def generative(axiom: ConfigurableAxiom) -> Generative:
    """GEN_ of a retrieval axiom; axioms with a statistics source read it from the request's context."""
    if isinstance(axiom, StatisticsTermAxiom):
        axiom = axiom(statistics=ContextStatistics())
    return register(Generative(axiom))


GEN_TFC1 = generative(TFC1)
GEN_TFC3 = generative(TFC3)
GEN_M_TDC = generative(M_TDC)
GEN_LEN_M_TDC = generative(LEN_M_TDC)
GEN_LNC1 = generative(LNC1)
GEN_TF_LNC = generative(TF_LNC)
GEN_LB1 = generative(LB1)
GEN_REG = generative(REG)
GEN_ANTI_REG = generative(ANTI_REG)
GEN_AND = generative(AND)
GEN_LEN_AND = generative(LEN_AND)
GEN_M_AND = generative(M_AND)
GEN_LEN_M_AND = generative(LEN_M_AND)
GEN_DIV = generative(DIV)
GEN_LEN_DIV = generative(LEN_DIV)
GEN_STMC1 = generative(STMC1)
GEN_STMC2 = generative(STMC2)
GEN_aSL = generative(aSL)
GEN_PROX1 = generative(PROX1)
GEN_PROX2 = generative(PROX2)
GEN_PROX3 = generative(PROX3)
GEN_PROX4 = generative(PROX4)
GEN_PROX5 = generative(PROX5)
GEN_ArgUC = generative(ArgUC)
GEN_QTArg = generative(QTArg)
GEN_QTPArg = generative(QTPArg)
GEN_LOG_TF = generative(LOG_TF)
GEN_LNC2 = generative(LNC2)
GEN_LB2 = generative(LB2)
GEN_TDC = generative(TDC)
GEN_STMC3 = generative(STMC3)
GEN_BEST_SIM = generative(BEST_SIM)
GEN_SIM_TERMS = generative(SIM_TERMS)
GEN_QPHRA = generative(QPHRA)
GEN_CONSENSUS = generative(CONSENSUS)
GEN_QLEXRANK = generative(QLEXRANK)

GENERATIVE_AXIOMS: dict[str, Generative] = {g.name: g for g in (
    GEN_TFC1,
    GEN_TFC3,
    GEN_M_TDC,
    GEN_LEN_M_TDC,
    GEN_LNC1,
    GEN_TF_LNC,
    GEN_LB1,
    GEN_REG,
    GEN_ANTI_REG,
    GEN_AND,
    GEN_LEN_AND,
    GEN_M_AND,
    GEN_LEN_M_AND,
    GEN_DIV,
    GEN_LEN_DIV,
    GEN_STMC1,
    GEN_STMC2,
    GEN_aSL,
    GEN_PROX1,
    GEN_PROX2,
    GEN_PROX3,
    GEN_PROX4,
    GEN_PROX5,
    GEN_ArgUC,
    GEN_QTArg,
    GEN_QTPArg,
    GEN_LOG_TF,
    GEN_LNC2,
    GEN_LB2,
    GEN_TDC,
    GEN_STMC3,
    GEN_BEST_SIM,
    GEN_SIM_TERMS,
    GEN_QPHRA,
    GEN_CONSENSUS,
    GEN_QLEXRANK,
)}
"""Every GEN_ axiom by short name (GEN_TFC1, ..., GEN_aSL), each registered."""

ICTIR2025_GENERATIVE = ("GEN_TFC1", "GEN_LNC1", "GEN_TF_LNC", "GEN_REG", "GEN_AND", "GEN_DIV", "GEN_STMC1",
                        "GEN_STMC2", "GEN_PROX1", "GEN_PROX2", "GEN_PROX3", "GEN_PROX4", "GEN_PROX5", "GEN_aSL")
"""The 14 GEN_ axioms of the study."""



def __getattr__(name: str) -> object:
    """The deprecated GEN_ names of renamed axioms (GEN_TFC2, GEN_RSIM, ...): the new one, with a DeprecationWarning."""
    from ir_rag_axioms.axioms.registry import DEPRECATED

    if name in DEPRECATED and DEPRECATED[name] in GENERATIVE_AXIOMS:
        import warnings

        warnings.warn(f"{name} is deprecated: use {DEPRECATED[name]}", DeprecationWarning, stacklevel=2)
        return GENERATIVE_AXIOMS[DEPRECATED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
