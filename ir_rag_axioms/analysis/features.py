"""Per-text features: a value read off one spaCy parse, declared as data so that one planner computes them all.

A ``Feature`` names what it computes, the spaCy components it needs and a module-level function ``doc -> value``
(JSON-compatible: numbers, strings, lists and tuples of them), so that its values can be computed in worker
processes and kept in the persistent store. Axioms declare the features they read (``Axiom.reads``); the planner
parses each text once with the union of the needs of all features requested for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ir_rag_axioms.analysis.text import AspectExtraction, aspects, sentences, terms

NEEDS = ("lemmas", "parse", "ents")
"""What a feature may need from spaCy: lemmas (terms), parse (sentences, dependencies, noun chunks), ents."""


@dataclass(frozen=True)
class Feature:
    """A per-text value ``function(doc, *params)`` computed from a parse with at least the ``needs`` components."""

    name: str
    """Unique name; with ``params`` the key of the value in the analysis and the persistent store."""
    needs: tuple[str, ...]
    """spaCy needs (``lemmas``, ``parse``, ``ents``)."""
    function: Callable[..., Any]
    """Module-level function ``(doc, *params) -> JSON-compatible value`` (picklable for worker processes)."""
    params: tuple[Any, ...] = ()
    """Parameters that change the value (part of the key)."""

    def __post_init__(self) -> None:
        unknown = set(self.needs) - set(NEEDS)
        if unknown:
            raise ValueError(f"feature {self.name!r}: unknown spaCy needs {sorted(unknown)}; use {NEEDS}")

    @property
    def key(self) -> tuple[Any, ...]:
        """(name, *params): identifies the value for one text and model."""
        return (self.name, *self.params)

    def __call__(self, doc: Any) -> Any:
        """The value for one parse."""
        return self.function(doc, *self.params)


def _terms(doc: Any) -> tuple[str, ...]:
    return tuple(terms(doc))


def _sentence_term_counts(doc: Any) -> tuple[int, ...]:
    return tuple(len(terms(sentence)) for sentence in sentences(doc))


def _sentences(doc: Any) -> tuple[str, ...]:
    return tuple(sentence.text for sentence in sentences(doc))


def _aspects(doc: Any, extraction: AspectExtraction) -> tuple[str, ...]:
    return tuple(aspects(doc, extraction))


TERMS = Feature("terms", ("lemmas",), _terms)
"""Lowercased lemmas without punctuation and stopwords, in text order."""
SENTENCE_TERM_COUNTS = Feature("sentence_term_counts", ("lemmas", "parse"), _sentence_term_counts)
"""Number of terms per sentence."""
SENTENCES = Feature("sentences", ("parse",), _sentences)
"""The text of every sentence (blank ones included)."""

_ASPECT_NEEDS: dict[str, tuple[str, ...]] = {"noun_chunks": ("parse",), "entities": ("ents",)}


def aspect_feature(extraction: AspectExtraction) -> Feature:
    """Distinct aspects in order of first mention: lowercased noun chunks (needs the parser) or entities (NER)."""
    try:
        needs = _ASPECT_NEEDS[extraction]
    except KeyError:
        raise ValueError(
            f"aspect_extraction must be one of {sorted(_ASPECT_NEEDS)}, got {extraction!r}"
        ) from None
    return Feature("aspects", needs, _aspects, (extraction,))
