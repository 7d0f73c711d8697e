"""Clarity axioms (ICTIR 2025): fewer grammar errors (CLAR1, LanguageTool), better readability (CLAR2, Flesch).

CLAR2 computes Flesch reading ease as the reference does (textacy on the spaCy parse); the other readability formulas
(Flesch-Kincaid grade, Gunning fog, SMOG, Coleman-Liau, Dale-Chall) come from textstat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, is_analysable, memo_key
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.resources import check_grammar, languagetool_url, load_languagetool
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, ParsedAxiom
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

GRAMMAR_ISSUE_TYPES = frozenset({"grammar"})
"""LanguageTool issue types that count as grammar errors (spelling, style and typography do not)."""


def _field(match: Any, *names: str) -> Any:
    for name in names:  # language-tool-python 3 uses snake_case, 2.x camelCase
        if hasattr(match, name):
            return getattr(match, name)
    return None


def grammar_error_share(matches: Sequence[Any], text: str) -> float:
    """Characters covered by grammar-error spans / characters of the text (overlapping spans counted once)."""
    covered = np.zeros(len(text), dtype=bool)
    for match in matches:
        issue = str(_field(match, "rule_issue_type", "ruleIssueType") or "").lower()
        category = str(_field(match, "category") or "").upper()
        if issue in GRAMMAR_ISSUE_TYPES or category == "GRAMMAR":
            start = int(_field(match, "offset") or 0)
            end = start + max(0, int(_field(match, "error_length", "errorLength") or 0))
            covered[max(0, start) : max(0, min(len(text), end))] = True  # a span is clipped to the text
    return float(covered.sum() / len(text)) if len(text) else float("nan")


class LanguageToolGrammarErrorProportionClarityAxiom(FeatureAxiom):
    """CLAR1: prefer a lower share of characters in grammar errors.

    len(ERR_r1)/len(r1) <_10% len(ERR_r2)/len(r2) [Merker et al., 2025].
    """

    name: ClassVar[str] = "CLAR1"
    dimension: ClassVar[str] = "clarity"
    citation: ClassVar[str] = "Merker et al., 2025"
    higher_is_better: bool = False
    margin_fraction: float = 0.1
    language: str = "en-US"
    """LanguageTool language code."""
    languagetool_url: str | None = None
    """URL of a LanguageTool server; default: $IR_RAG_AXIOMS_LANGUAGETOOL, else a local LanguageTool."""

    def _tool(self) -> Any:
        return load_languagetool(self.language, languagetool_url(self.languagetool_url))

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Connect to LanguageTool before any work (clear error if none is reachable), then check each text once."""
        tool = self._tool()
        for text in dict.fromkeys(r.text for _, rs in items for r in rs if is_analysable(r.text)):
            self._share(tool, text, analysis)

    def _share(self, tool: Any, text: str, analysis: Analysis) -> float:
        url = languagetool_url(self.languagetool_url)
        key = memo_key("languagetool", self.language, url)
        return analysis.memo(text, key, lambda: grammar_error_share(check_grammar(tool, text, url), text))

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Grammar-error character share of each response."""
        tool = self._tool()
        return np.array([self._share(tool, r.text, analysis) if is_analysable(r.text) else np.nan for r in responses])


def flesch_reading_ease(doc: Any) -> float:
    """Flesch reading ease of a parse (textacy: pyphen syllables, spaCy words and sentences); NaN where undefined."""
    from textacy.text_stats.readability import flesch_reading_ease as flesch

    try:
        return float(flesch(doc, lang="en")) if len(doc) else float("nan")
    except ZeroDivisionError:  # no words or no sentences (e.g. only punctuation): undefined
        return float("nan")


FLESCH_READING_EASE = Feature("flesch_reading_ease", ("parse",), flesch_reading_ease)
"""CLAR2's value: Flesch reading ease."""

ReadabilityFormula = Literal["flesch_reading_ease", "flesch_kincaid_grade", "gunning_fog", "smog_index",
                             "coleman_liau_index", "dale_chall_readability_score"]
READABILITY_FORMULAS: dict[str, tuple[str, bool]] = {
    "flesch_reading_ease": ("Flesch reading ease (textacy on the spaCy parse; 0-100, higher: easier)", True),
    "flesch_kincaid_grade": ("Flesch-Kincaid grade level (textstat; US school grade, lower: easier)", False),
    "gunning_fog": ("Gunning fog index (textstat; years of schooling, lower: easier)", False),
    "smog_index": ("SMOG grade (textstat; years of schooling, lower: easier)", False),
    "coleman_liau_index": ("Coleman-Liau index (textstat; US school grade, lower: easier)", False),
    "dale_chall_readability_score": ("Dale-Chall readability score (textstat; lower: easier)", False),
}
"""Formula name -> (its meaning, whether a higher value means an easier text)."""


def textstat_readability(doc: Any, formula: str) -> float:
    """A textstat readability formula of the parse's text; NaN without words or sentences."""
    import textstat

    text = doc.text
    if not any(token.is_alpha for token in doc):
        return float("nan")
    return float(getattr(textstat, formula)(text))


class FleschReadingEaseClarityAxiom(ParsedAxiom):
    """CLAR2: prefer the more readable response.

    Flesch(r1) > Flesch(r2) (the paper's Eq. 11 and the reference invert this) [Merker et al., 2025]; ``formula``
    selects another readability formula (textstat), compared in its own direction (a lower grade is easier).
    """

    name: ClassVar[str] = "CLAR2"
    dimension: ClassVar[str] = "clarity"
    citation: ClassVar[str] = "Merker et al., 2025"
    higher_is_better: bool = True
    """Prefer the easier response (``False``: the harder one, as the paper and the reference); the value's own
    direction follows the formula (a higher Flesch reading ease, a lower grade level)."""
    formula: ReadabilityFormula = "flesch_reading_ease"
    """Readability formula: Flesch reading ease (textacy, as the reference) or a textstat formula:
    ``flesch_kincaid_grade``, ``gunning_fog``, ``smog_index``, ``coleman_liau_index``,
    ``dale_chall_readability_score``."""
    undefined: ClassVar[str] = "no words or sentences"

    def feature(self) -> Feature:
        """The readability formula's value of each response."""
        if self.formula == "flesch_reading_ease":
            return FLESCH_READING_EASE
        return Feature(f"textstat_{self.formula}", (), textstat_readability, (self.formula,))

    def prefers_higher(self) -> bool:
        """Easier wins (``higher_is_better``): a higher Flesch reading ease, a lower grade or index."""
        return self.higher_is_better == READABILITY_FORMULAS[self.formula][1]

    def meaning(self) -> str:
        """The formula and its scale."""
        return READABILITY_FORMULAS[self.formula][0]


CLAR1 = register(LanguageToolGrammarErrorProportionClarityAxiom())
CLAR2 = register(FleschReadingEaseClarityAxiom())
