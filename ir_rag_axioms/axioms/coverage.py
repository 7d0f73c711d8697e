"""Coverage axioms (ICTIR 2025): more aspects (COV1), less redundant aspects (COV2), request aspects covered (COV3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis, is_analysable
from ir_rag_axioms.analysis.text import sentence_texts
from ir_rag_axioms.axioms._parsed import AspectAxiom, aspect_needs, response_texts
from ir_rag_axioms.axioms.base import Item, SpacyNeed
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


@dataclass(frozen=True, repr=False)
class AspectCountCoverage(AspectAxiom):
    """COV1: prefer more distinct aspects, |ASP_r1| > |ASP_r2| [Merker et al., 2025]."""

    name: ClassVar[str] = "COV1"
    response_needs: ClassVar[tuple[str, ...]] = ()
    margin_fraction: float = 0.0
    """Relative margin within which two aspect counts tie."""

    def value(self, doc: Any) -> float:
        """Number of distinct aspects."""
        return float(len(self.aspects_of(doc)))


@dataclass(frozen=True, repr=False)
class AspectRedundancyCoverage(AspectAxiom):
    """COV2: prefer less redundant aspects, mean_{a,a' in ASP_r} sim(a, a') <_20% (self-pairs included) [Merker et al., 2025]."""

    name: ClassVar[str] = "COV2"
    higher_is_better: ClassVar[bool] = False
    response_needs: ClassVar[tuple[str, ...]] = ()
    margin_fraction: float = 0.2
    """Relative margin within which two mean similarities tie."""

    def prefetch(self, items: Sequence[Item]) -> None:
        """Parse all responses, then embed all their aspects in one batch."""
        super().prefetch(items)
        docs = default_analysis().parse(response_texts(items), self.spacy_model, self._response_needs())
        self.embed([a for doc in docs for a in self.aspects_of(doc)])

    def value(self, doc: Any) -> float:
        """Mean pairwise cosine similarity of the aspects, each aspect's self-similarity included (NaN without aspects)."""
        found = self.aspects_of(doc)
        if not found:
            return float("nan")
        vectors = self.embed(found)
        return float(np.mean(vectors @ vectors.T))


@dataclass(frozen=True, repr=False)
class _AspectSentenceSimilarity(AspectAxiom):
    """Shared rule of COV3 and CONS1: (1/|A|) * sum_{a in A} sum_{s in r} sim(a, s) for reference aspects A."""

    response_needs: ClassVar[tuple[str, ...]] = ("parse",)

    def reference_texts(self, request: GenerationRequest) -> list[str]:
        """The texts whose aspects are the reference aspects A (empty: the axiom abstains)."""
        raise NotImplementedError

    def reference_aspects(self, request: GenerationRequest) -> list[str]:
        """Distinct aspects of the reference texts, in order of first mention."""
        texts = [t for t in self.reference_texts(request) if is_analysable(t)]
        docs = default_analysis().parse(texts, self.spacy_model, aspect_needs(self.aspect_extraction))
        return list(dict.fromkeys(a for doc in docs for a in self.aspects_of(doc)))

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """Responses (sentences, aspects) and reference texts (aspects)."""
        yield from super().spacy_needs(items)
        needs = aspect_needs(self.aspect_extraction)
        for request, _ in items:
            for text in self.reference_texts(request):
                if is_analysable(text):
                    yield self.spacy_model, text, needs

    def prefetch(self, items: Sequence[Item]) -> None:
        """Parse responses and reference texts, then embed all sentences and aspects in one batch."""
        super().prefetch(items)
        references = list(dict.fromkeys(
            t for request, _ in items for t in self.reference_texts(request) if is_analysable(t)
        ))
        default_analysis().parse(references, self.spacy_model, aspect_needs(self.aspect_extraction))
        strings = [a for request, _ in items for a in self.reference_aspects(request)]
        docs = default_analysis().parse(response_texts(items), self.spacy_model, self._response_needs())
        strings += [s for doc in docs for s in sentence_texts(doc)]
        self.embed(strings)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """Summed aspect-sentence similarity per response, averaged over the reference aspects."""
        found = self.reference_aspects(request)
        if not found:
            return np.full(len(responses), np.nan)
        aspect_vectors = self.embed(found)
        out = []
        for doc in self.docs(responses):
            texts = sentence_texts(doc)
            if not texts:
                out.append(0.0)
                continue
            similarities = aspect_vectors @ self.embed(texts).T
            out.append(float(similarities.sum() / len(found)))
        return np.array(out)

    def value(self, doc: Any) -> float:  # pragma: no cover - values() is overridden
        raise NotImplementedError


@dataclass(frozen=True, repr=False)
class AspectSimilaritySentenceCountCoverage(_AspectSentenceSimilarity):
    """COV3: prefer more sentences covering request aspects, (1/|ASP_q|) sum_a sum_s sim(a, s) >_50% [Merker et al., 2025]."""

    name: ClassVar[str] = "COV3"
    margin_fraction: float = 0.5
    """Relative margin within which two coverage sums tie."""

    def reference_texts(self, request: GenerationRequest) -> list[str]:
        """The request text."""
        return [request.text]


COV1 = register(AspectCountCoverage())
COV2 = register(AspectRedundancyCoverage())
COV3 = register(AspectSimilaritySentenceCountCoverage())
