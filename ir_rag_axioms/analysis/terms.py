"""Term statistics per text, from the analysis' term features: terms, positions, counts, length, sentence lengths."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, is_analysable, memo_key
from ir_rag_axioms.analysis.features import SENTENCE_TERM_COUNTS, TERMS
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL


@dataclass(frozen=True, eq=False)
class TermStatistics:
    """The term sequence of one text (lowercased lemmas, no punctuation or stopwords) and what follows from it."""

    terms: tuple[str, ...]
    """The terms in text order (whitespace tokens count, as in the reference)."""
    sentence_lengths: tuple[int, ...] | None = None
    """Number of terms per sentence (``None`` if sentences were not requested)."""
    counts: Counter = field(init=False, repr=False)
    """Term -> number of occurrences."""
    positions: dict[str, np.ndarray] = field(init=False, repr=False)
    """Term -> sorted positions (indices into ``terms``)."""

    def __post_init__(self) -> None:
        counts = Counter(self.terms)
        positions: dict[str, list[int]] = {}
        for i, term in enumerate(self.terms):
            positions.setdefault(term, []).append(i)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "positions", {t: np.asarray(p, dtype=np.int64) for t, p in positions.items()})

    @property
    def length(self) -> int:
        """Number of terms |d|."""
        return len(self.terms)

    @property
    def vocabulary(self) -> frozenset[str]:
        """The set of distinct terms."""
        return frozenset(self.counts)

    def tf(self, term: str) -> int:
        """Raw frequency of ``term`` in the document.

        In the axioms' notation: tf(t, d).
        """
        return self.counts.get(term, 0)

    def first(self, term: str) -> int | None:
        """Position of the first occurrence of ``term`` (``None`` if absent)."""
        pos = self.positions.get(term)
        return int(pos[0]) if pos is not None else None


EMPTY = TermStatistics(())
"""Statistics of an empty (or unanalysable) text: no terms, no sentences."""


def _term_statistics(terms: Any, lengths: Any, sentences: bool) -> TermStatistics:
    """TermStatistics from the TERMS (and, with ``sentences``, SENTENCE_TERM_COUNTS) feature values of one text."""
    return TermStatistics(tuple(terms), tuple(lengths) if sentences else None)


def term_statistics(texts: Sequence[str], model: str = DEFAULT_SPACY_MODEL, sentences: bool = False, *,
                    analysis: Analysis) -> list[TermStatistics]:
    """Term statistics of each text from ``analysis``' TERMS (and SENTENCE_TERM_COUNTS) features; blank texts: empty."""
    found = analysis.features(model, TERMS, texts)
    counts = analysis.features(model, SENTENCE_TERM_COUNTS, texts) if sentences else [None] * len(texts)
    out = []
    for text, terms, lengths in zip(texts, found, counts, strict=True):
        if not is_analysable(text):
            out.append(TermStatistics((), ()) if sentences else EMPTY)
            continue
        key = memo_key("term_statistics", model, sentences)
        out.append(analysis.memo(text, key, partial(_term_statistics, terms, lengths, sentences)))
    return out
