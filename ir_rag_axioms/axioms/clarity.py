"""Clarity axioms (ICTIR 2025): fewer grammar errors (CLAR1, LanguageTool), better readability (CLAR2, Flesch)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis, is_analysable
from ir_rag_axioms.analysis.resources import languagetool_url, load_languagetool
from ir_rag_axioms.axioms._parsed import ParsedAxiom
from ir_rag_axioms.axioms.base import FeatureAxiom, Item
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
            start = int(_field(match, "offset"))
            covered[start : start + int(_field(match, "error_length", "errorLength"))] = True
    return float(covered.sum() / len(text)) if len(text) else float("nan")


@dataclass(frozen=True, repr=False)
class LanguageToolGrammarErrorProportionClarity(FeatureAxiom):
    """CLAR1: prefer a lower share of characters in grammar errors, len(ERR_r1)/len(r1) <_10% len(ERR_r2)/len(r2) [Merker et al., 2025]."""

    name: ClassVar[str] = "CLAR1"
    higher_is_better: ClassVar[bool] = False
    margin_fraction: float = 0.1
    """Relative margin within which two error shares tie."""
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
        key = ("languagetool", self.language, languagetool_url(self.languagetool_url), text)
        return default_analysis().memo(key, lambda: grammar_error_share(tool.check(text), text))

    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """Grammar-error character share of each response."""
        tool = self._tool()
        return np.array([self._share(tool, r.text) if is_analysable(r.text) else np.nan for r in responses])


@dataclass(frozen=True, repr=False)
class FleschReadingEaseClarity(ParsedAxiom):
    """CLAR2: prefer the more readable response, Flesch(r1) > Flesch(r2) (the paper's Eq. 11 and the reference invert this) [Merker et al., 2025]."""

    name: ClassVar[str] = "CLAR2"
    response_needs: ClassVar[tuple[str, ...]] = ("parse",)
    margin_fraction: float = 0.0
    """Relative margin within which two Flesch scores tie."""
    higher_is_better: bool = True  # type: ignore[misc]
    """True: prefer higher Flesch reading ease (easier text); False reproduces the paper's Eq. 11 and the reference."""

    def value(self, doc: Any) -> float:
        """Flesch reading ease of the parse (textacy: pyphen syllables, spaCy words and sentences)."""
        from textacy.text_stats.readability import flesch_reading_ease

        if not len(doc):
            return float("nan")
        return float(flesch_reading_ease(doc, lang="en"))


CLAR1 = register(LanguageToolGrammarErrorProportionClarity())
CLAR2 = register(FleschReadingEaseClarity())
