"""Correctness axiom (ICTIR 2025): prefer responses with more sentences that cite a source (CORR1)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from ir_rag_axioms.analysis.text import sentences
from ir_rag_axioms.axioms._parsed import ParsedAxiom
from ir_rag_axioms.axioms.registry import register

PUBLISHED_CITATION_PATTERN = r"\[[0-9]+\]"
"""The citation form of the paper: ``[1]``."""
LIST_CITATION_PATTERN = r"\[[0-9]+(?:\s*,\s*[0-9]+)*\]"
"""Also matches citation lists such as ``[0,1]`` and ``[1, 2]`` (used by the crowd responses)."""


@lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@dataclass(frozen=True, repr=False)
class CitationSentenceCorrectness(ParsedAxiom):
    """CORR1: prefer a higher share of sentences containing a citation, |S_ref|/|S| >_10% [Merker et al., 2025]."""

    name: ClassVar[str] = "CORR1"
    response_needs: ClassVar[tuple[str, ...]] = ("parse",)
    margin_fraction: float = 0.1
    """Relative margin within which two citation shares tie."""
    citation_pattern: str = PUBLISHED_CITATION_PATTERN
    """Regular expression of a citation; ``LIST_CITATION_PATTERN`` also matches ``[1,2]``."""
    higher_is_better: bool = True  # type: ignore[misc]
    """True: prefer more citing sentences (the stated intuition); False reproduces the reference code."""

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            _compiled(self.citation_pattern)
        except re.error as error:
            raise ValueError(f"CORR1: invalid citation_pattern {self.citation_pattern!r}: {error}") from error

    def _higher_is_better(self) -> bool:
        return self.higher_is_better

    def value(self, doc: Any) -> float:
        """Share of sentences that match the citation pattern (NaN without sentences)."""
        found = sentences(doc)
        if not found:
            return float("nan")
        pattern = _compiled(self.citation_pattern)
        return sum(1 for s in found if pattern.search(s.text)) / len(found)


CORR1 = register(CitationSentenceCorrectness())
