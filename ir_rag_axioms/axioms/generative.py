"""GEN_* axioms: retrieval axioms applied to generated responses (request text = query, response = document).

One generic adapter, ``Generative(axiom)``; axioms that need collection statistics or retrieval scores (TFC3,
M-TDC, LB1) read them from the request's retrieved context (``ContextStatistics``: idf over the context passages,
BM25 scores of the responses), which the reference does not offer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ir_rag_axioms.axioms.base import ConfigurableAxiom, Item, SpacyNeed
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval import (
    AND, ANTI_REG, DIV, LB1, LEN_AND, LEN_DIV, LEN_M_AND, LEN_M_TDC, LNC1, M_AND, M_TDC, REG, STMC1, STMC2,
    TF_LNC, TFC1, TFC3, aSL,
)
from ir_rag_axioms.axioms.retrieval_argument import QTPArg, ArgUC, QTArg
from ir_rag_axioms.axioms.retrieval_proximity import PROX1, PROX2, PROX3, PROX4, PROX5
from ir_rag_axioms.axioms.retrieval_statistics import ContextStatistics
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


@dataclass(frozen=True, repr=False)
class Generative(ConfigurableAxiom):
    """GEN_X: the retrieval axiom X with the request as query and each response as document."""

    axiom: ConfigurableAxiom

    @property
    def name(self) -> str:  # type: ignore[override]
        """``GEN_`` + the wrapped axiom's short name."""
        return f"GEN_{self.axiom.label}"

    def __call__(self, **changes: Any) -> Generative:
        """Reconfigure the wrapped axiom: ``GEN_TFC1(margin_fraction=0.2)``, or replace it with ``axiom=...``."""
        axiom = changes.pop("axiom", self.axiom)
        return dataclasses.replace(self, axiom=axiom(**changes) if changes else axiom)

    def __repr__(self) -> str:
        inner = repr(self.axiom)
        return "GEN_" + inner

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """The wrapped axiom's texts."""
        return self.axiom.spacy_needs(items)

    def prefetch(self, items: Sequence[Item]) -> None:
        """The wrapped axiom's batched analysis."""
        self.axiom.prefetch(items)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """The wrapped axiom's matrix."""
        return self.axiom.matrix(request, responses)


def _generative(axiom: ConfigurableAxiom) -> Generative:
    if hasattr(axiom, "statistics"):
        axiom = axiom(statistics=ContextStatistics())
    return Generative(axiom)


GEN_TFC1 = _generative(TFC1)
GEN_TFC3 = _generative(TFC3)
GEN_M_TDC = _generative(M_TDC)
GEN_LEN_M_TDC = _generative(LEN_M_TDC)
GEN_LNC1 = _generative(LNC1)
GEN_TF_LNC = _generative(TF_LNC)
GEN_LB1 = _generative(LB1)
GEN_REG = _generative(REG)
GEN_ANTI_REG = _generative(ANTI_REG)
GEN_AND = _generative(AND)
GEN_LEN_AND = _generative(LEN_AND)
GEN_M_AND = _generative(M_AND)
GEN_LEN_M_AND = _generative(LEN_M_AND)
GEN_DIV = _generative(DIV)
GEN_LEN_DIV = _generative(LEN_DIV)
GEN_STMC1 = _generative(STMC1)
GEN_STMC2 = _generative(STMC2)
GEN_PROX1 = _generative(PROX1)
GEN_PROX2 = _generative(PROX2)
GEN_PROX3 = _generative(PROX3)
GEN_PROX4 = _generative(PROX4)
GEN_PROX5 = _generative(PROX5)
GEN_ArgUC = _generative(ArgUC)
GEN_QTArg = _generative(QTArg)
GEN_QTPArg = _generative(QTPArg)
GEN_aSL = _generative(aSL)

GENERATIVE_AXIOMS: dict[str, Generative] = {
    a.name: a for a in (
        GEN_TFC1, GEN_TFC3, GEN_M_TDC, GEN_LEN_M_TDC, GEN_LNC1, GEN_TF_LNC, GEN_LB1, GEN_REG, GEN_ANTI_REG,
        GEN_AND, GEN_LEN_AND, GEN_M_AND, GEN_LEN_M_AND, GEN_DIV, GEN_LEN_DIV, GEN_STMC1, GEN_STMC2, GEN_PROX1,
        GEN_PROX2, GEN_PROX3, GEN_PROX4, GEN_PROX5, GEN_ArgUC, GEN_QTArg, GEN_QTPArg, GEN_aSL,
    )
}
"""Every GEN_ axiom by short name."""

ICTIR2025_GENERATIVE = ("GEN_TFC1", "GEN_LNC1", "GEN_TF_LNC", "GEN_REG", "GEN_AND", "GEN_DIV", "GEN_STMC1",
                        "GEN_STMC2", "GEN_PROX1", "GEN_PROX2", "GEN_PROX3", "GEN_PROX4", "GEN_PROX5", "GEN_aSL")
"""The 14 GEN_ axioms of the ICTIR 2025 study."""

for _axiom in GENERATIVE_AXIOMS.values():
    register(_axiom)
