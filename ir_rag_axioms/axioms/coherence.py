"""Coherence axioms (ICTIR 2025): uniform word length across sentences (COH1), close subjects and verbs (COH2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.text import sentences, terms
from ir_rag_axioms.axioms._parsed import ParsedAxiom
from ir_rag_axioms.axioms.registry import register


def sentence_word_length_deviation(doc: Any) -> float:
    """sigma over sentences of the mean term length (population std); NaN if a sentence has no term."""
    means = []
    for sentence in sentences(doc):
        lengths = [len(term) for term in terms(sentence)]
        if not lengths:
            return float("nan")
        means.append(sum(lengths) / len(lengths))
    return float(np.std(means)) if means else float("nan")


def subject_verb_distance(doc: Any) -> float:
    """Mean over SVO triples of the maximum |pos(subject token) - pos(verb token)|; NaN without triples."""
    from textacy.extract import subject_verb_object_triples

    distances = [
        max(abs(s.i - v.i) for s in triple.subject for v in triple.verb)
        for triple in subject_verb_object_triples(doc)
    ]
    return float(np.mean(distances)) if distances else float("nan")


@dataclass(frozen=True, repr=False)
class WordLengthDeviationCoherence(ParsedAxiom):
    """COH1: prefer less deviation of the average word length across sentences, sigma(SWAWL_r1) < sigma(SWAWL_r2) [Merker et al., 2025]."""

    name: ClassVar[str] = "COH1"
    higher_is_better: ClassVar[bool] = False
    margin_fraction: float = 0.0
    """Relative margin within which two deviations tie."""

    def value(self, doc: Any) -> float:
        """sigma of the per-sentence mean term length."""
        return sentence_word_length_deviation(doc)


@dataclass(frozen=True, repr=False)
class SubjectVerbClosenessCoherence(ParsedAxiom):
    """COH2: prefer subject-verb pairs closer together, avg-SV-dist(r1) <_10% avg-SV-dist(r2) [Merker et al., 2025]."""

    name: ClassVar[str] = "COH2"
    higher_is_better: ClassVar[bool] = False
    response_needs: ClassVar[tuple[str, ...]] = ("parse",)
    margin_fraction: float = 0.1
    """Relative margin within which two average distances tie."""

    def value(self, doc: Any) -> float:
        """Mean subject-verb token distance over SVO triples (textacy)."""
        return subject_verb_distance(doc)


COH1 = register(WordLengthDeviationCoherence())
COH2 = register(SubjectVerbClosenessCoherence())
