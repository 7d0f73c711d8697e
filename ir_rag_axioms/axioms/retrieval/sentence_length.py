"""Sentence length axiom aSL."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms.base import compare
from ir_rag_axioms.axioms.preconditions import LEN, Precondition
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import TermAxiom
from ir_rag_axioms.axioms.utility import NopAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class AverageSentenceLengthAxiom(TermAxiom):
    """aSL: prefer the document whose mean sentence length (terms per sentence) lies in [min, max] over one outside.

    [Bondarenko et al., 2022]
    """

    name: ClassVar[str] = "aSL"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Bondarenko et al., 2022"
    needs_sentences: ClassVar[bool] = True
    min_sentence_length: int = 12
    max_sentence_length: int = 20
    precondition: Precondition | NopAxiom | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"min_sentence_length": (0, math.inf),
                                                         "max_sentence_length": (0, math.inf)}

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.min_sentence_length > self.max_sentence_length:
            raise ValueError("aSL: min_sentence_length must not exceed max_sentence_length")

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare([min <= mean sentence length <= max])."""
        values = []
        for d in docs:
            sl = d.sentence_lengths or ()
            mean = float(np.mean(sl)) if sl else 0.0
            values.append(float(self.min_sentence_length <= mean <= self.max_sentence_length))
        return compare(np.array(values))


aSL = register(AverageSentenceLengthAxiom())
