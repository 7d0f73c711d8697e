"""Consistency axioms (ICTIR 2025): context aspects covered (CONS1), overlap with the context (CONS2), no self-contradiction (CONS3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis, is_analysable
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL, load_negex
from ir_rag_axioms.analysis.rouge import rouge_lsum_f
from ir_rag_axioms.axioms._parsed import ParsedAxiom
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, SpacyNeed
from ir_rag_axioms.axioms.coverage import _AspectSentenceSimilarity
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


@dataclass(frozen=True, repr=False)
class AspectSimilaritySentenceCountConsistency(_AspectSentenceSimilarity):
    """CONS1: prefer more sentences covering context aspects, (1/|ASP_C|) sum_a sum_s sim(a, s) >_50%; abstains without context [Merker et al., 2025]."""

    name: ClassVar[str] = "CONS1"
    margin_fraction: float = 0.5
    """Relative margin within which two coverage sums tie."""

    def reference_texts(self, request: GenerationRequest) -> list[str]:
        """The context passages (each parsed on its own; their aspects are pooled)."""
        return list(request.context or ())


@dataclass(frozen=True, repr=False)
class RougeConsistency(FeatureAxiom):
    """CONS2: prefer higher ROUGE-Lsum F1 against the concatenated context, ROUGE-L(r1, c') >_10% ROUGE-L(r2, c'); abstains without context [Merker et al., 2025]."""

    name: ClassVar[str] = "CONS2"
    margin_fraction: float = 0.1
    """Relative margin within which two ROUGE scores tie."""
    use_stemmer: bool = False
    """Porter-stem tokens before matching (rouge-score's option)."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """ROUGE-Lsum F-measure of each response against the passages joined by newlines (NaN without context)."""
        if not request.context:
            return np.full(len(responses), np.nan)
        context = "\n".join(request.context)
        return np.array([
            rouge_lsum_f(context, r.text, self.use_stemmer) if is_analysable(r.text) else np.nan
            for r in responses
        ])


def contradictory_entity_share(doc: Any) -> float:
    """|entities mentioned both negated and not| / |distinct entities| (negspaCy ``_.negex``); NaN without entities."""
    if not doc.ents:
        return float("nan")
    negated: set[str] = set()
    affirmed: set[str] = set()
    for ent in doc.ents:
        (negated if ent._.negex else affirmed).add(ent.text)
    return len(negated & affirmed) / len(negated | affirmed)


@dataclass(frozen=True, repr=False)
class EntityContradictionConsistency(ParsedAxiom):
    """CONS3: prefer a lower share of entities mentioned both negated and non-negated, |ASP^E_r|/|ASP_r| <_20% [Merker et al., 2025]."""

    name: ClassVar[str] = "CONS3"
    higher_is_better: ClassVar[bool] = False
    response_needs: ClassVar[tuple[str, ...]] = ("parse", "ents")
    spacy_model: str = DEFAULT_SPACY_MODEL
    margin_fraction: float = 0.2
    """Relative margin within which two shares tie."""
    negation_termset: str = "en"
    """negspaCy termset of negation cues (``"en"`` general English, ``"en_clinical"`` adds clinical cues)."""
    numeric_entities: bool = False
    """Whether numbers and dates (CARDINAL, DATE, ...; citation markers like ``[5]``) can be negated."""

    def _negated_docs(self, texts: Sequence[str]) -> list[Any]:
        docs = default_analysis().parse(list(texts), self.spacy_model, self.response_needs)
        negex = load_negex(self.spacy_model, self.negation_termset, self.numeric_entities)
        marker = f"ir_rag_axioms_negex_{self.negation_termset}_{self.numeric_entities}"
        for doc in docs:
            if doc.user_data.get("ir_rag_axioms_negex") != marker:
                negex(doc)
                doc.user_data["ir_rag_axioms_negex"] = marker
        return docs

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """Every analysable response text, parsed with entities."""
        texts = dict.fromkeys(r.text for _, rs in items for r in rs if is_analysable(r.text))
        return ((self.spacy_model, text, self.response_needs) for text in texts)

    def prefetch(self, items: Sequence[Item]) -> None:
        """Parse all responses and mark negated entities once."""
        texts = [r.text for _, rs in items for r in rs if is_analysable(r.text)]
        self._negated_docs(list(dict.fromkeys(texts)))

    def docs(self, responses: Sequence[GenerationResponse]) -> list[Any]:
        """Parses with negex flags on their entities."""
        return self._negated_docs([r.text if is_analysable(r.text) else "" for r in responses])

    def value(self, doc: Any) -> float:
        """Share of contradictory entities."""
        return contradictory_entity_share(doc)


CONS1 = register(AspectSimilaritySentenceCountConsistency())
CONS2 = register(RougeConsistency())
CONS3 = register(EntityContradictionConsistency())
