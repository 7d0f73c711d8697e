"""Clarity axioms (ICTIR 2025): fewer grammar errors (CLAR1, LanguageTool), better readability (CLAR2, Flesch)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis, is_analysable, memo_key
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


@register
class LanguageToolGrammarErrorProportionClarityAxiom(FeatureAxiom):
    """CLAR1: prefer a lower share of characters in grammar errors.

    len(ERR_r1)/len(r1) <_10% len(ERR_r2)/len(r2) [Merker et al., 2025].
    """

    name: ClassVar[str] = "CLAR1"
    higher_is_better: bool = False
    margin_fraction: float = 0.1
    language: str = "en-US"
    """LanguageTool language code."""
    languagetool_url: str | None = None
    """URL of a LanguageTool server; default: $IR_RAG_AXIOMS_LANGUAGETOOL, else a local LanguageTool."""

    def _tool(self) -> Any:
        return load_languagetool(self.language, languagetool_url(self.languagetool_url))

    def prefetch(self, items: Sequence[Item]) -> None:
        """Connect to LanguageTool before any work (clear error if none is reachable), then check each text once."""
        tool = self._tool()
        for text in dict.fromkeys(r.text for _, rs in items for r in rs if is_analysable(r.text)):
            self._share(tool, text)

    def _share(self, tool: Any, text: str) -> float:
        url = languagetool_url(self.languagetool_url)
        key = memo_key("languagetool", self.language, url)
        return default_analysis().memo(text, key, lambda: grammar_error_share(check_grammar(tool, text, url), text))

    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """Grammar-error character share of each response."""
        tool = self._tool()
        return np.array([self._share(tool, r.text) if is_analysable(r.text) else np.nan for r in responses])


def flesch_reading_ease(doc: Any) -> float:
    """Flesch reading ease of a parse (textacy: pyphen syllables, spaCy words and sentences); NaN where undefined."""
    from textacy.text_stats.readability import flesch_reading_ease as flesch

    try:
        return float(flesch(doc, lang="en")) if len(doc) else float("nan")
    except ZeroDivisionError:  # no words or no sentences (e.g. only punctuation): undefined
        return float("nan")


FLESCH_READING_EASE = Feature("flesch_reading_ease", ("parse",), flesch_reading_ease)
"""CLAR2's value: Flesch reading ease."""


@register
class FleschReadingEaseClarityAxiom(ParsedAxiom):
    """CLAR2: prefer the more readable response.

    Flesch(r1) > Flesch(r2) (the paper's Eq. 11 and the reference invert this) [Merker et al., 2025].
    """

    name: ClassVar[str] = "CLAR2"

    def feature(self) -> Feature:
        """Flesch reading ease (higher: easier; ``higher_is_better=False`` reproduces the paper and the reference)."""
        return FLESCH_READING_EASE


CLAR1 = LanguageToolGrammarErrorProportionClarityAxiom()
CLAR2 = FleschReadingEaseClarityAxiom()
