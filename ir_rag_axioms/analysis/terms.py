"""Term statistics per text, computed once and memoised: terms, positions, counts, length, sentence lengths."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, default_analysis, is_analysable
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.text import term_tokens, terms


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
        """Raw frequency tf(t, d)."""
        return self.counts.get(term, 0)

    def first(self, term: str) -> int | None:
        """Position of the first occurrence of ``term`` (``None`` if absent)."""
        pos = self.positions.get(term)
        return int(pos[0]) if pos is not None else None


EMPTY = TermStatistics(())
"""Statistics of an empty (or unanalysable) text: no terms, no sentences."""


def prefetch_terms(texts: Iterable[str], model: str = DEFAULT_SPACY_MODEL, sentences: bool = False,
                   analysis: Analysis | None = None) -> None:
    """Parse every unseen text in one batched spaCy pass (with the parser if sentences are needed)."""
    analysis = analysis or default_analysis()
    needed = [t for t in dict.fromkeys(texts) if is_analysable(t) and not analysis.has(_key(t, model, sentences))]
    if needed:
        analysis.parse(needed, model, ["lemmas", "parse"] if sentences else ["lemmas"])


def term_statistics(texts: Sequence[str], model: str = DEFAULT_SPACY_MODEL, sentences: bool = False,
                    analysis: Analysis | None = None) -> list[TermStatistics]:
    """Term statistics of each text, parsing all unseen texts in one batch; blank texts give ``EMPTY``."""
    analysis = analysis or default_analysis()
    prefetch_terms(texts, model, sentences, analysis)
    out = []
    for text in texts:
        if not is_analysable(text):
            out.append(EMPTY if not sentences else TermStatistics((), ()))
            continue
        out.append(analysis.memo(_key(text, model, sentences), lambda t=text: _compute(t, model, sentences, analysis)))
    return out


def _key(text: str, model: str, sentences: bool) -> tuple:
    return ("term_statistics", model, sentences, text)


def _compute(text: str, model: str, sentences: bool, analysis: Analysis) -> TermStatistics:
    if sentences:
        without = analysis.memo(_key(text, model, False), lambda: _compute(text, model, False, analysis))
        (doc,) = analysis.parse([text], model, ["lemmas", "parse"])
        lengths = tuple(len(term_tokens(sent)) for sent in doc.sents) if len(doc) else ()
        return TermStatistics(without.terms, lengths)
    (doc,) = analysis.parse([text], model, ["lemmas"])
    return TermStatistics(tuple(terms(doc)))
