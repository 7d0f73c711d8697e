"""Coherence axioms beyond the paper: tense consistency (COH3), sentence-length (COH4) and register (COH5) consistency.

COH3 reads spaCy's morphology (``Tense`` of the finite verb or auxiliary of each sentence's root, ``will`` /
``shall`` as future); COH4 and COH5 read tokens and sentences. All three are new in this library.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.text import sentences
from ir_rag_axioms.axioms.base import ParsedAxiom
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register

_FUTURE = frozenset({"will", "shall", "wo", "'ll"})


def sentence_tense(sentence: Any) -> str | None:
    """The tense of a sentence's main clause: Fut (will/shall), else the first finite Tense of its auxiliaries, root."""
    root = sentence.root
    auxiliaries = [t for t in root.children if t.dep_ in ("aux", "auxpass") and t.i < root.i]
    if any(t.lower_ in _FUTURE for t in auxiliaries):
        return "Fut"
    for token in (*auxiliaries, root):
        tense = token.morph.get("Tense")
        if tense and (token.morph.get("VerbForm") in (["Fin"], []) and token.tag_ in ("VBD", "VBZ", "VBP", "MD")):
            return str(tense[0])
    return None


def tense_switch_share(doc: Any) -> float:
    """Switches of main-clause tense between consecutive sentences with a tense / (those sentences - 1).

    NaN with fewer than two sentences that have a tense.
    """
    tenses = [t for t in (sentence_tense(s) for s in sentences(doc)) if t is not None]
    if len(tenses) < 2:
        return float("nan")
    return sum(a != b for a, b in zip(tenses, tenses[1:], strict=False)) / (len(tenses) - 1)


def _words(sentence: Any) -> int:
    return sum(1 for t in sentence if not (t.is_punct or t.is_space))


def sentence_length_variation(doc: Any) -> float:
    """Coefficient of variation (population std / mean) of words per sentence; NaN with fewer than two sentences."""
    counts = [n for n in (_words(s) for s in sentences(doc)) if n]
    if len(counts) < 2:
        return float("nan")
    return float(np.std(counts) / np.mean(counts))


INFORMAL_TOKENS = frozenset({"n't", "'re", "'ll", "'ve", "'m", "'d", "i", "me", "my", "mine", "we", "us", "our",
                             "ours", "you", "your", "yours", "!", "lol", "hey", "ok", "okay", "gonna", "wanna"})
"""Lowercased tokens that mark a sentence as informal: contractions, first/second person, exclamations, slang."""


def register_mixing(doc: Any) -> float:
    """2 min(p, 1 - p), p = share of sentences with an informal token (0: one register throughout, 1: half-half).

    NaN with fewer than two sentences.
    """
    found = [s for s in sentences(doc) if _words(s)]
    if len(found) < 2:
        return float("nan")
    informal = sum(1 for s in found if any(t.lower_ in INFORMAL_TOKENS for t in s)) / len(found)
    return 2 * min(informal, 1 - informal)


TENSE_SWITCHES = Feature("tense_switch_share", ("lemmas", "parse"), tense_switch_share)
"""COH3's value."""
SENTENCE_LENGTH_VARIATION = Feature("sentence_length_variation", ("parse",), sentence_length_variation)
"""COH4's value."""
REGISTER_MIXING = Feature("register_mixing", ("parse",), register_mixing)
"""COH5's value."""


class TenseConsistencyCoherenceAxiom(ParsedAxiom):
    """COH3: prefer fewer tense switches between consecutive sentences (new in this library).

    switches / (sentences with a tense - 1). The tense of a sentence is its root's (spaCy morphology: Past, Pres;
    Fut for will/shall), sentences without a finite main verb are skipped.
    """

    name: ClassVar[str] = "COH3"
    dimension: ClassVar[str] = "coherence"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    higher_is_better: bool = False
    undefined: ClassVar[str] = "fewer than two sentences with a tense"

    def feature(self) -> Feature:
        """Share of tense switches between consecutive sentences with a tense."""
        return TENSE_SWITCHES


class SentenceLengthConsistencyCoherenceAxiom(ParsedAxiom):
    """COH4: prefer more uniform sentence lengths, std/mean of words per sentence <_10% (new in this library)."""

    name: ClassVar[str] = "COH4"
    dimension: ClassVar[str] = "coherence"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    higher_is_better: bool = False
    margin_fraction: float = 0.1
    undefined: ClassVar[str] = "fewer than two sentences"

    def feature(self) -> Feature:
        """Coefficient of variation of words per sentence."""
        return SENTENCE_LENGTH_VARIATION


class RegisterConsistencyCoherenceAxiom(ParsedAxiom):
    """COH5: prefer one register throughout (new in this library).

    2 min(p, 1 - p) for the share p of informal sentences. A sentence is informal if it has a contraction, a first-
    or second-person pronoun, an exclamation mark or slang.
    """

    name: ClassVar[str] = "COH5"
    dimension: ClassVar[str] = "coherence"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    higher_is_better: bool = False
    undefined: ClassVar[str] = "fewer than two sentences"

    def feature(self) -> Feature:
        """Mixing of formal and informal sentences, 2 min(p, 1 - p)."""
        return REGISTER_MIXING


COH3 = register(TenseConsistencyCoherenceAxiom())
COH4 = register(SentenceLengthConsistencyCoherenceAxiom())
COH5 = register(RegisterConsistencyCoherenceAxiom())
