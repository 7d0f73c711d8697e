"""Coverage axiom beyond the paper: the request's facets addressed (COV4), an EXAM/RUBRIC-like view of the query.

The request is broken into facets: its noun chunks without wh-words and pronouns, and its main verbs (the root and
verbs conjoined with it: "compare and explain"); each facet is the set of its terms. A response addresses a facet
if it contains at least ``min_overlap`` of the facet's terms. New in this library.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import TERMS, Feature
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.text import term_tokens
from ir_rag_axioms.axioms.base import FeatureAxiom, Reads, feature_values
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})


def _facet_terms(tokens: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.lemma_.lower() for t in term_tokens(tokens)
                               if t.tag_ not in _WH_TAGS and t.pos_ != "PRON"))


def request_facets(doc: Any) -> tuple[tuple[str, ...], ...]:
    """Distinct facets of a request: terms of each noun chunk, and each main verb (root or conjoined with it)."""
    found = [_facet_terms(chunk) for chunk in doc.noun_chunks]
    for token in doc:
        main = token.dep_ == "ROOT" or (token.dep_ == "conj" and token.head.dep_ == "ROOT")
        if main and token.pos_ == "VERB":
            found.append(_facet_terms([token]))
    return tuple(dict.fromkeys(f for f in found if f))


FACETS = Feature("request_facets", ("lemmas", "parse"), request_facets)
"""COV4's facets of the request."""


class QueryFacetCoverageAxiom(FeatureAxiom):
    """COV4: prefer addressing more of the request's facets, |F_r|/|F_q| >_10% (new in this library).

    Facets: the request's noun chunks (wh-words and pronouns left out) and main verbs; a response addresses a facet
    if it has at least ``min_overlap`` of its terms; abstains for requests without facets.
    """

    name: ClassVar[str] = "COV4"
    dimension: ClassVar[str] = "coverage"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline of the request's parse and the responses' terms."""
    min_overlap: float = 0.5
    """Share of a facet's terms that a response must contain to address it."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"min_overlap": (0.0, 1.0)}
    undefined: ClassVar[str] = "the request has no facets"

    def reads(self) -> tuple[Reads, ...]:
        """The request's facets, the responses' terms."""
        return (Reads(self.spacy_model, request=(FACETS,), responses=(TERMS,)),)

    def _addressed(self, facets: Any, terms: Any) -> list[bool]:
        vocabulary = set(terms or ())
        return [sum(t in vocabulary for t in f) >= self.min_overlap * len(f) for f in facets]

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Share of the request's facets that each response addresses (NaN without facets)."""
        (facets,) = feature_values(self.spacy_model, FACETS, [request.text], analysis)
        found = feature_values(self.spacy_model, TERMS, [r.text for r in responses], analysis)
        if not facets:
            return np.full(len(responses), np.nan)
        return np.array([float(np.mean(self._addressed(facets, terms))) for terms in found], dtype=np.float64)

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The facets addressed and missed."""
        (facets,) = feature_values(self.spacy_model, FACETS, [request.text], analysis)
        (terms,) = feature_values(self.spacy_model, TERMS, [response.text], analysis)
        done = self._addressed(facets or (), terms)
        return {"addressed": ", ".join(" ".join(f) for f, ok in zip(facets or (), done, strict=True) if ok) or "none",
                "missed": ", ".join(" ".join(f) for f, ok in zip(facets or (), done, strict=True) if not ok) or "none"}


COV4 = register(QueryFacetCoverageAxiom())
