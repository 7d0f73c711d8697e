"""Shared base of the RAG axioms that read one spaCy parse per response (and of the request or context)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis, is_analysable
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.text import AspectExtraction, aspects
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, SpacyNeed
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

_ASPECT_NEEDS = {"noun_chunks": ("parse",), "entities": ("ents",)}


def aspect_needs(extraction: AspectExtraction) -> tuple[str, ...]:
    """The spaCy needs of an aspect extraction (noun chunks need the parser, entities the NER)."""
    try:
        return _ASPECT_NEEDS[extraction]
    except KeyError:
        raise ValueError(
            f"aspect_extraction must be one of {sorted(_ASPECT_NEEDS)}, got {extraction!r}"
        ) from None


def response_texts(items: Sequence[Item]) -> list[str]:
    """The unique analysable response texts of a batch, in first-seen order."""
    return list(dict.fromkeys(r.text for _, responses in items for r in responses if is_analysable(r.text)))


@dataclass(frozen=True, repr=False)
class ParsedAxiom(FeatureAxiom):
    """A feature axiom whose value is read off each response's spaCy parse (``value(doc)``)."""

    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline name or path (the offline mirror of en_core_web_sm is found automatically)."""

    response_needs: ClassVar[tuple[str, ...]] = ("parse", "lemmas")
    """What the parse of each response must provide (``lemmas``, ``parse``, ``ents``)."""

    def _response_needs(self) -> tuple[str, ...]:
        return self.response_needs

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """Every analysable response text, with this axiom's response needs."""
        needs = self._response_needs()
        return ((self.spacy_model, text, needs) for text in response_texts(items))

    def prefetch(self, items: Sequence[Item]) -> None:
        """Parse every response text of the batch once."""
        default_analysis().parse(response_texts(items), self.spacy_model, self._response_needs())

    def docs(self, responses: Sequence[GenerationResponse]) -> list[Any]:
        """The memoised parses of the responses (blank ones parse as empty Docs)."""
        texts = [r.text if is_analysable(r.text) else "" for r in responses]
        return default_analysis().parse(texts, self.spacy_model, self._response_needs())

    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """value(doc) for each response's parse."""
        return np.array([self.value(doc) for doc in self.docs(responses)], dtype=np.float64)

    @abstractmethod
    def value(self, doc: Any) -> float:
        """The feature of one parsed response (NaN if undefined)."""


@dataclass(frozen=True, repr=False)
class AspectAxiom(ParsedAxiom):
    """A parsed-response axiom that extracts aspects (noun chunks or entities) and may embed them."""

    aspect_extraction: AspectExtraction = "noun_chunks"
    """``"noun_chunks"`` (spaCy noun chunks, lowercased) or ``"entities"`` (spaCy named entities)."""
    sentence_model: str = DEFAULT_SENTENCE_MODEL
    """sentence-transformers model name or path used for similarities."""

    def __post_init__(self) -> None:
        super().__post_init__()
        aspect_needs(self.aspect_extraction)

    def _response_needs(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*self.response_needs, *aspect_needs(self.aspect_extraction))))

    def aspects_of(self, doc: Any) -> list[str]:
        """The distinct aspects of a parsed text, memoised."""
        key = ("aspects", self.spacy_model, self.aspect_extraction, doc.text)
        return default_analysis().memo(key, lambda: aspects(doc, self.aspect_extraction))

    def embed(self, strings: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings of the strings (each unique string encoded once)."""
        return default_analysis().embed(list(strings), self.sentence_model)
