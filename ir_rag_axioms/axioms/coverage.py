"""Coverage axioms (ICTIR 2025): more aspects (COV1), less redundant aspects (COV2), request aspects covered (COV3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import SENTENCES, Feature, aspect_feature
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.text import AspectExtraction
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, Reads, feature_values
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, context_of


class AspectAxiom(FeatureAxiom):
    """A feature axiom on aspects (noun chunks or entities) of the texts it reads, which it may embed."""

    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline name or path (the offline mirror of en_core_web_sm is found automatically)."""
    aspect_extraction: AspectExtraction = "noun_chunks"
    """``"noun_chunks"`` (spaCy noun chunks, lowercased) or ``"entities"`` (spaCy named entities)."""
    sentence_model: str = DEFAULT_SENTENCE_MODEL
    """sentence-transformers model name or path used for similarities."""

    def __post_init__(self) -> None:
        super().__post_init__()
        aspect_feature(self.aspect_extraction)

    @property
    def aspects(self) -> Feature:
        """The aspect feature of this configuration."""
        return aspect_feature(self.aspect_extraction)

    def aspects_of(self, texts: Sequence[str], analysis: Analysis) -> list[tuple[str, ...]]:
        """The distinct aspects of each text (empty for unanalysable texts)."""
        return [tuple(found or ()) for found in feature_values(self.spacy_model, self.aspects, texts, analysis)]

    def embed(self, strings: Sequence[str], analysis: Analysis) -> np.ndarray:
        """Unit-length embeddings of the strings (each unique string encoded once, kept in ``analysis``)."""
        return analysis.embed(list(strings), self.sentence_model)


class AspectCountCoverageAxiom(AspectAxiom):
    """COV1: prefer more distinct aspects, |ASP_r1| > |ASP_r2| [Merker et al., 2025]."""

    name: ClassVar[str] = "COV1"
    dimension: ClassVar[str] = "coverage"
    citation: ClassVar[str] = "Merker et al., 2025"

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The distinct aspects counted."""
        return {"aspects": self.aspects_of([response.text], analysis)[0]}

    def reads(self) -> tuple[Reads, ...]:
        """The aspects of each response."""
        return (Reads(self.spacy_model, responses=(self.aspects,)),)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Number of distinct aspects."""
        found = self.aspects_of([r.text for r in responses], analysis)
        return np.array([len(aspects) for aspects in found], dtype=np.float64)


class AspectRedundancyCoverageAxiom(AspectAxiom):
    """COV2: prefer less redundant aspects.

    mean_{a,a' in ASP_r} sim(a, a') <_20% (self-pairs included) [Merker et al., 2025].
    """

    name: ClassVar[str] = "COV2"
    dimension: ClassVar[str] = "coverage"
    citation: ClassVar[str] = "Merker et al., 2025"
    higher_is_better: bool = False
    margin_fraction: float = 0.2
    undefined: ClassVar[str] = "no aspects"

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The aspects whose similarities are averaged."""
        return {"aspects": self.aspects_of([response.text], analysis)[0]}

    def reads(self) -> tuple[Reads, ...]:
        """The aspects of each response (embedded afterwards)."""
        return (Reads(self.spacy_model, responses=(self.aspects,), encoder=self.sentence_model),)

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Embed the aspects of all responses in one batch."""
        texts = [r.text for _, responses in items for r in responses]
        self.embed([a for found in self.aspects_of(texts, analysis) for a in found], analysis)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Mean pairwise cosine similarity of the aspects (NaN without aspects).

        Each aspect's self-similarity is included.
        """
        out = []
        for found in self.aspects_of([r.text for r in responses], analysis):
            vectors = self.embed(found, analysis) if found else None
            out.append(float(np.mean(vectors @ vectors.T)) if vectors is not None else float("nan"))
        return np.array(out, dtype=np.float64)


class AspectSentenceSimilarityAxiom(AspectAxiom):
    """Shared rule of COV3 and CONS1: (1/|A|) * sum_{a in A} sum_{s in r} sim(a, s) for reference aspects A."""

    reference: ClassVar[str] = "request"
    """Whose aspects are the reference aspects A: the ``"request"`` text or the ``"context"`` passages (pooled)."""

    def reads(self) -> tuple[Reads, ...]:
        """The reference texts' aspects and the responses' sentences."""
        return (Reads(self.spacy_model, responses=(SENTENCES,), encoder=self.sentence_model,
                      **{self.reference: (self.aspects,)}),)

    def reference_aspects(self, request: GenerationRequest, response: GenerationResponse | None,
                          analysis: Analysis) -> list[str]:
        """Distinct aspects of the reference texts, in order of first mention (empty: the axiom abstains).

        The request's text, or the context passages: the response's own when it has one, else the request's.
        """
        if self.reference == "request":
            texts = [request.text]
        else:
            texts = list((context_of(request, response) if response is not None else request.context) or ())
        return list(dict.fromkeys(a for found in self.aspects_of(texts, analysis) for a in found))

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Embed, in one batch, the reference aspects and the sentences of responses that have any."""
        strings: list[str] = []
        for request, responses in items:
            for response in responses:
                found = self.reference_aspects(request, response, analysis)
                if found:  # without reference aspects the axiom abstains: no sentence needs embedding
                    strings += found
                    strings += self.sentences_of(response.text, analysis)
        self.embed(list(dict.fromkeys(strings)), analysis)

    def sentences_of(self, text: str, analysis: Analysis) -> list[str]:
        """The non-blank sentences of a response."""
        (found,) = feature_values(self.spacy_model, SENTENCES, [text], analysis)
        return [s for s in found or () if s.strip()]

    def abstention(self, request: GenerationRequest, response: GenerationResponse, value: float) -> str | None:
        """Blank or over-long, no context (for context aspects), or no reference aspects."""
        reason = super().abstention(request, response, value)
        if reason and self.reference == "context" and not context_of(request, response):
            return "no context"
        return reason

    @property
    def undefined(self) -> str:  # type: ignore[override]
        """No aspects in the reference texts."""
        return f"no {self.reference} aspects"

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The best-matching sentence of the response per reference aspect, with its similarity."""
        found = self.reference_aspects(request, response, analysis)
        texts = self.sentences_of(response.text, analysis)
        if not found or not texts:
            return {}
        similarity = self.embed(found, analysis) @ self.embed(texts, analysis).T
        best = similarity.argmax(axis=1)
        return {f"best-matching sentence per {self.reference} aspect": [
            f"{aspect!r} ~ {float(similarity[k, best[k]]):.2f}: {texts[best[k]]}" for k, aspect in enumerate(found)]}

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Summed aspect-sentence similarity per response, averaged over its reference aspects (NaN without any).

        sum_a sum_s cos(a, s) = (sum_a e_a) . (sum_s e_s) for unit vectors e: one dot product per response.
        """
        out = []
        aspect_sums: dict[tuple[str, ...], np.ndarray] = {}
        for response in responses:
            found = tuple(self.reference_aspects(request, response, analysis))
            if not found:
                out.append(float("nan"))
                continue
            if found not in aspect_sums:
                aspect_sums[found] = self.embed(found, analysis).sum(axis=0, dtype=np.float64)
            texts = self.sentences_of(response.text, analysis)
            total = float(aspect_sums[found] @ self.embed(texts, analysis).sum(axis=0, dtype=np.float64)) \
                if texts else 0.0
            out.append(total / len(found))
        return np.array(out, dtype=np.float64)


class AspectSimilaritySentenceCountCoverageAxiom(AspectSentenceSimilarityAxiom):
    """COV3: prefer more sentences covering request aspects.

    (1/|ASP_q|) sum_a sum_s sim(a, s) >_50% [Merker et al., 2025].
    """

    name: ClassVar[str] = "COV3"
    dimension: ClassVar[str] = "coverage"
    citation: ClassVar[str] = "Merker et al., 2025"
    margin_fraction: float = 0.5


COV1 = register(AspectCountCoverageAxiom())
COV2 = register(AspectRedundancyCoverageAxiom())
COV3 = register(AspectSimilaritySentenceCountCoverageAxiom())
