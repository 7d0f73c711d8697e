"""Correctness axiom (ICTIR 2025): prefer responses with more sentences that cite a source (CORR1)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
import regex

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import SENTENCES
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.axioms.base import FeatureAxiom, Reads, feature_values
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

PUBLISHED_CITATION_PATTERN = r"\[[0-9]+\]"
"""The citation form of the paper: ``[1]``."""
LIST_CITATION_PATTERN = r"\[[0-9]+(?:\s*,\s*[0-9]+)*\]"
"""Also matches citation lists such as ``[0,1]`` and ``[1, 2]`` (used by the crowd responses)."""


REGEX_TIMEOUT_S = 1.0
"""Longest time one citation search may take; a pattern that backtracks catastrophically is an error after it."""
MAX_PATTERN_CHARS = 1_000
"""Longest citation pattern accepted."""


@lru_cache(maxsize=64)
def _compiled(pattern: str) -> Any:
    """The pattern compiled by the ``regex`` package (``re``'s syntax; searches can be given a time bound)."""
    return regex.compile(pattern)


def _cites(pattern: str, sentence: str) -> bool:
    """Whether ``sentence`` matches ``pattern``, within ``REGEX_TIMEOUT_S``; ValueError naming the pattern after it."""
    try:
        return _compiled(pattern).search(sentence, timeout=REGEX_TIMEOUT_S) is not None
    except TimeoutError:
        raise ValueError(f"CORR1: citation_pattern {pattern!r} took over {REGEX_TIMEOUT_S:g} s on a sentence of "
                         f"{len(sentence)} characters: it backtracks catastrophically (nested quantifiers such "
                         "as (a+)+); write it without nested repetition") from None


class CitationSentenceCorrectnessAxiom(FeatureAxiom):
    """CORR1: prefer a higher share of sentences containing a citation, |S_ref|/|S| >_10% [Merker et al., 2025]."""

    name: ClassVar[str] = "CORR1"
    dimension: ClassVar[str] = "correctness"
    citation: ClassVar[str] = "Merker et al., 2025"
    margin_fraction: float = 0.1
    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline that splits sentences."""
    citation_pattern: str = PUBLISHED_CITATION_PATTERN
    """Regular expression of a citation; ``LIST_CITATION_PATTERN`` also matches ``[1,2]``."""
    undefined: ClassVar[str] = "no sentences"

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """How many sentences cite, of how many."""
        (found,) = feature_values(self.spacy_model, SENTENCES, [response.text], analysis)
        cited = sum(1 for s in found or () if _cites(self.citation_pattern, s))
        return {"sentences with a citation": f"{cited} of {len(found or ())}"}

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.citation_pattern, str) and len(self.citation_pattern) > MAX_PATTERN_CHARS:
            raise ValueError(f"CORR1: citation_pattern of {len(self.citation_pattern):,} characters is over the "
                             f"limit of {MAX_PATTERN_CHARS:,}")
        try:
            _compiled(self.citation_pattern)
        except (regex.error, ValueError, OverflowError) as error:
            raise ValueError(f"CORR1: invalid citation_pattern {self.citation_pattern!r}: {error}") from error

    def reads(self) -> tuple[Reads, ...]:
        """The sentences of each response."""
        return (Reads(self.spacy_model, responses=(SENTENCES,)),)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Share of sentences that match the citation pattern (NaN without sentences)."""
        out = []
        for found in feature_values(self.spacy_model, SENTENCES, [r.text for r in responses], analysis):
            if not found:  # no sentences (or an unanalysable text): undefined
                out.append(float("nan"))
                continue
            out.append(sum(1 for s in found if _cites(self.citation_pattern, s)) / len(found))
        return np.array(out, dtype=np.float64)


CORR1 = register(CitationSentenceCorrectnessAxiom())
