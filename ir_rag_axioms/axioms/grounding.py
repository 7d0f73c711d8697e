"""Consistency axioms beyond the paper: factual grounding of entities (CONS4) and of numbers and dates (CONS5).

No opaque model: a response's named entities (spaCy NER) must occur in its context passages (case-insensitive,
whitespace normalised); its numbers, dates, amounts and percentages must have every number they contain in the
context (thousands separators ignored; a mention without digits, "two", "Monday", must occur as words). New in
this library.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.axioms.base import FeatureAxiom, Reads, feature_values
from ir_rag_axioms.axioms.citations import find_citations
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, context_of

NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW",
                         "LANGUAGE"})
"""spaCy entity labels that CONS4 checks."""
NUMBER_LABELS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "CARDINAL"})
"""spaCy entity labels that CONS5 checks."""
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _normal(text: str) -> str:
    text = re.sub(r"\s+", " ", text.lower()).strip()
    return re.sub(r"^(?:the|a|an) ", "", text)


def numbers_in(text: str) -> frozenset[str]:
    """The numbers written in a text, thousands separators removed (``1,200.5`` -> ``1200.5``)."""
    out = set()
    for match in _NUMBER.findall(text):
        number = re.sub(r",(?=\d{3}\b)", "", match)
        out.add(number.rstrip(".,"))
    return frozenset(out)


def entity_mentions(doc: Any, labels: frozenset[str]) -> tuple[str, ...]:
    """Distinct entity mentions with one of ``labels`` (lowercased, leading article left out), in order.

    Mentions inside citation markers (``[1]``, ``(Smith, 2020)``) are left out.
    """
    spans = [(c.start, c.start + len(c.text)) for c in find_citations(doc.text)]
    kept = (e for e in doc.ents
            if e.label_ in labels and not any(a < e.end_char and e.start_char < b for a, b in spans))
    return tuple(dict.fromkeys(m for m in map(_normal, (e.text for e in kept)) if m))


def _names(doc: Any) -> tuple[str, ...]:
    return entity_mentions(doc, NAME_LABELS)


def _numbers(doc: Any) -> tuple[str, ...]:
    return entity_mentions(doc, NUMBER_LABELS)


NAMES = Feature("grounding_names", ("ents",), _names)
"""CONS4's mentions: named entities."""
NUMBERS = Feature("grounding_numbers", ("ents",), _numbers)
"""CONS5's mentions: numbers, dates, amounts, percentages."""


class _Grounding(FeatureAxiom):
    """Share of a response's mentions that its context supports; the hook: ``supported(mention, context)``."""

    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline of the entity recognizer."""
    undefined: ClassVar[str] = "no context or nothing to check"
    mentions: ClassVar[Feature]

    def reads(self) -> tuple[Reads, ...]:
        """The mentions of each response."""
        return (Reads(self.spacy_model, responses=(self.mentions,)),)

    def supported(self, mention: str, context: str, numbers: frozenset[str]) -> bool:
        """Whether the (normalised) context supports the mention."""
        return mention in context

    def _checked(self, request: GenerationRequest, response: GenerationResponse,
                 mentions: Any) -> list[tuple[str, bool]]:
        passages = context_of(request, response)
        if not passages or not mentions:
            return []
        context = _normal(" ".join(passages))
        numbers = numbers_in(context)
        return [(m, self.supported(m, context, numbers)) for m in mentions]

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Supported mentions / mentions (NaN without context or mentions)."""
        found = feature_values(self.spacy_model, self.mentions, [r.text for r in responses], analysis)
        out = []
        for response, mentions in zip(responses, found, strict=True):
            checked = self._checked(request, response, mentions)
            out.append(sum(ok for _, ok in checked) / len(checked) if checked else float("nan"))
        return np.array(out, dtype=np.float64)

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The mentions that the context does not support."""
        (mentions,) = feature_values(self.spacy_model, self.mentions, [response.text], analysis)
        checked = self._checked(request, response, mentions)
        missing = [m for m, ok in checked if not ok]
        return {"supported": f"{len(checked) - len(missing)} of {len(checked)}",
                "unsupported": ", ".join(missing) or "none"}


class EntityGroundingConsistencyAxiom(_Grounding):
    """CONS4: prefer a higher share of named entities found in the context, |E_r in C|/|E_r| (new in this library).

    Entities: spaCy NER names (people, organisations, places, groups, events, works, products, laws, languages),
    matched case-insensitively in the passages; abstains without context or entities.
    """

    name: ClassVar[str] = "CONS4"
    dimension: ClassVar[str] = "consistency"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    mentions: ClassVar[Feature] = NAMES


class NumberGroundingConsistencyAxiom(_Grounding):
    """CONS5: prefer a higher share of numbers and dates found in the context, |N_r in C|/|N_r| (new in this library).

    Mentions: spaCy NER dates, times, percentages, amounts, quantities and cardinals; supported if every number in
    the mention occurs in the passages (a mention without digits: its words); abstains without context or mentions.
    """

    name: ClassVar[str] = "CONS5"
    dimension: ClassVar[str] = "consistency"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    mentions: ClassVar[Feature] = NUMBERS

    def supported(self, mention: str, context: str, numbers: frozenset[str]) -> bool:
        """Every number of the mention in the context's numbers; a mention without digits as words."""
        own = numbers_in(mention)
        if not own:
            return re.search(rf"\b{re.escape(mention)}\b", context) is not None
        return own <= numbers


CONS4 = register(EntityGroundingConsistencyAxiom())
CONS5 = register(NumberGroundingConsistencyAxiom())
