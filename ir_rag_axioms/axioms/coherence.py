"""Coherence axioms (ICTIR 2025): uniform word length across sentences (COH1), close subjects and verbs (COH2)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.text import sentences, terms
from ir_rag_axioms.axioms.base import ParsedAxiom
from ir_rag_axioms.axioms.registry import register


def sentence_word_length_deviation(doc: Any) -> float:
    """Sigma (population std) over sentences of the mean term length; NaN if a sentence has no term."""
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


WORD_LENGTH_DEVIATION = Feature("word_length_deviation", ("parse", "lemmas"), sentence_word_length_deviation)
"""COH1's value: sigma of the per-sentence mean term length."""
SUBJECT_VERB_DISTANCE = Feature("subject_verb_distance", ("parse",), subject_verb_distance)
"""COH2's value: mean subject-verb token distance over SVO triples (textacy)."""


class WordLengthDeviationCoherenceAxiom(ParsedAxiom):
    """COH1: prefer less deviation of the average word length across sentences.

    sigma(SWAWL_r1) < sigma(SWAWL_r2) [Merker et al., 2025].
    """

    name: ClassVar[str] = "COH1"
    dimension: ClassVar[str] = "coherence"
    citation: ClassVar[str] = "Merker et al., 2025"
    higher_is_better: bool = False
    undefined: ClassVar[str] = "a sentence without terms"

    def feature(self) -> Feature:
        """Sigma (population std) of the per-sentence mean term length."""
        return WORD_LENGTH_DEVIATION


class SubjectVerbClosenessCoherenceAxiom(ParsedAxiom):
    """COH2: prefer subject-verb pairs closer together, avg-SV-dist(r1) <_10% avg-SV-dist(r2) [Merker et al., 2025]."""

    name: ClassVar[str] = "COH2"
    dimension: ClassVar[str] = "coherence"
    citation: ClassVar[str] = "Merker et al., 2025"
    higher_is_better: bool = False
    margin_fraction: float = 0.1
    undefined: ClassVar[str] = "no subject-verb-object triples"

    def feature(self) -> Feature:
        """Mean subject-verb token distance over SVO triples."""
        return SUBJECT_VERB_DISTANCE


COH1 = register(WordLengthDeviationCoherenceAxiom())
COH2 = register(SubjectVerbClosenessCoherenceAxiom())
