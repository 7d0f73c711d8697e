"""Consistency axioms (ICTIR 2025).

Context aspects covered (CONS1), overlap with the context (CONS2), no self-contradiction (CONS3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, is_analysable
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.resources import load_negex, negation_termsets
from ir_rag_axioms.analysis.rouge import rouge_lsum_f
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, ParsedAxiom
from ir_rag_axioms.axioms.coverage import AspectSentenceSimilarityAxiom
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, context_of


class AspectSimilaritySentenceCountConsistencyAxiom(AspectSentenceSimilarityAxiom):
    """CONS1: prefer more sentences covering context aspects; abstains without context.

    (1/|ASP_C|) sum_a sum_s sim(a, s) >_50% [Merker et al., 2025].
    """

    name: ClassVar[str] = "CONS1"
    dimension: ClassVar[str] = "consistency"
    citation: ClassVar[str] = "Merker et al., 2025"
    reference: ClassVar[str] = "context"
    margin_fraction: float = 0.5


class RougeConsistencyAxiom(FeatureAxiom):
    """CONS2: prefer higher ROUGE-Lsum F1 against the concatenated context; abstains without context.

    ROUGE-L(r1, c') >_10% ROUGE-L(r2, c') [Merker et al., 2025].
    """

    name: ClassVar[str] = "CONS2"
    dimension: ClassVar[str] = "consistency"
    citation: ClassVar[str] = "Merker et al., 2025"
    margin_fraction: float = 0.1
    use_stemmer: bool = False
    """Porter-stem tokens before matching (rouge-score's option)."""
    undefined: ClassVar[str] = "no context"

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Score every (response, context) pair once."""
        for request, responses in items:
            self.values(request, list(responses), analysis)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """ROUGE-Lsum F-measure of each response against its context's passages joined by newlines (NaN without)."""
        contexts = [context_of(request, r) for r in responses]
        return np.array([
            rouge_lsum_f("\n".join(c), r.text, self.use_stemmer, analysis=analysis)
            if c and is_analysable(r.text) else np.nan
            for r, c in zip(responses, contexts, strict=True)
        ], dtype=np.float64)


def contradictory_entity_share(doc: Any, model: str, termset: str, numeric_entities: bool) -> float:
    """Share of entities mentioned both negated and not; NaN without entities.

    |entities mentioned both negated and not| / |distinct entities| (negspaCy on a copy of the parse).
    """
    if not doc.ents:
        return float("nan")
    marked = load_negex(model, termset, numeric_entities)(doc.copy())
    negated: set[str] = set()
    affirmed: set[str] = set()
    for ent in marked.ents:
        (negated if ent._.negex else affirmed).add(ent.text)
    return len(negated & affirmed) / len(negated | affirmed)


class EntityContradictionConsistencyAxiom(ParsedAxiom):
    """CONS3: prefer a lower share of entities mentioned both negated and non-negated.

    |ASP^E_r|/|ASP_r| <_20% [Merker et al., 2025].
    """

    name: ClassVar[str] = "CONS3"
    dimension: ClassVar[str] = "consistency"
    citation: ClassVar[str] = "Merker et al., 2025"
    higher_is_better: bool = False
    margin_fraction: float = 0.2
    undefined: ClassVar[str] = "no entities"
    negation_termset: str = "en"
    """negspaCy termset of negation cues (``"en"`` general English, ``"en_clinical"`` adds clinical cues)."""
    numeric_entities: bool = False
    """Whether numbers and dates (CARDINAL, DATE, ...; citation markers like ``[5]``) can be negated."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.negation_termset not in negation_termsets():
            raise ValueError(f"CONS3: unknown negation_termset {self.negation_termset!r}; "
                             f"use one of {negation_termsets()}")

    def feature(self) -> Feature:
        """The share of contradictory entities (parse and entities, negation cues of the termset)."""
        params = (self.spacy_model, self.negation_termset, self.numeric_entities)
        return Feature("contradictory_entity_share", ("parse", "ents"), contradictory_entity_share, params)


CONS1 = register(AspectSimilaritySentenceCountConsistencyAxiom())
CONS2 = register(RougeConsistencyAxiom())
CONS3 = register(EntityContradictionConsistencyAxiom())
