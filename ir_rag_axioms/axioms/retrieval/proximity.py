"""Term proximity axioms PROX1-PROX5 (Hagen et al. 2016), on term positions of the spaCy term sequence."""

from __future__ import annotations

import itertools
from abc import abstractmethod
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms.base import compare
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import TermAxiom, query_terms
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


def shared_terms_mask(terms: list[str], docs: list[TermStatistics], minimum: int) -> np.ndarray:
    """M[i, j]: d_i and d_j contain the same set of query terms, of at least ``minimum`` terms."""
    present = [frozenset(t for t in terms if d.tf(t)) for d in docs]
    return np.array([[a == b and len(a) >= minimum for b in present] for a in present], dtype=bool)


def minimal_windows(doc: TermStatistics, terms: list[str]) -> list[tuple[int, int]]:
    """For each query term occurrence i, the shortest span [i, j] that starts there and contains all ``terms``."""
    wanted = set(terms)
    positions = sorted(int(p) for t in wanted for p in doc.positions.get(t, ()))
    windows = []
    for k, start in enumerate(positions):
        seen: set[str] = set()
        for end in positions[k:]:
            seen.add(doc.terms[end])
            if len(seen) == len(wanted):
                windows.append((start, end))
                break
    return windows


class _PairwiseProximity(TermAxiom):
    """Shared logic: a value per (document, shared query terms), lower is better, where the condition holds."""

    minimum_shared: ClassVar[int] = 2
    all_terms: ClassVar[bool] = False

    @abstractmethod
    def proximity(self, doc: TermStatistics, shared: list[str], query: TermStatistics) -> float:
        """The document's distance value for the query terms it shares (lower is better)."""

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """Lower values are better, where both documents share the same query terms.

        compare(values, lower is better) where both documents share the same query terms (all of them for PROX4/5).
        """
        terms = query_terms(query)
        if self.all_terms:
            mask = shared_terms_mask(terms, docs, max(len(terms), 1)) & np.array(
                [[all(d.tf(t) for t in terms)] * len(docs) for d in docs], dtype=bool)
        else:
            mask = shared_terms_mask(terms, docs, self.minimum_shared)
        values = np.array([self.proximity(d, [t for t in terms if d.tf(t)], query) if d.length else np.inf
                           for d in docs], dtype=np.float64)
        return compare(values, higher_is_better=False) * mask


class Prox1Axiom(_PairwiseProximity):
    """PROX1: same query terms (>= 2) in both; prefer the smaller sum over term pairs of |first(t) - first(t')|.

    [Hagen et al., 2016]
    """

    name: ClassVar[str] = "PROX1"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"

    def proximity(self, doc, shared, query):
        """Sum of first-occurrence distances over pairs of the shared query terms."""
        return float(sum(abs(doc.first(a) - doc.first(b)) for a, b in itertools.combinations(shared, 2)))


class Prox2Axiom(_PairwiseProximity):
    """PROX2: same query terms (>= 2) in both; prefer the smaller sum of first-occurrence positions.

    [Hagen et al., 2016]
    """

    name: ClassVar[str] = "PROX2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"

    def proximity(self, doc, shared, query):
        """sum_t first(t, d)."""
        return float(sum(doc.first(t) for t in shared))


class Prox3Axiom(_PairwiseProximity):
    """PROX3: prefer the earlier first occurrence of the query term sequence as a phrase.

    Both documents contain the same query terms (>= 2) [Hagen et al., 2016].
    """

    name: ClassVar[str] = "PROX3"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"

    def proximity(self, doc, shared, query):
        """First position of the query's terms as consecutive terms (inf if absent)."""
        phrase = list(query.terms)
        k = len(phrase)
        if not k:
            return np.inf
        for start in doc.positions.get(phrase[0], ()):
            if list(doc.terms[start:start + k]) == phrase:
                return float(start)
        return np.inf


class Prox4Axiom(TermAxiom):
    """PROX4: prefer fewer non-query words in the closest grouping, then more such groupings.

    Both documents contain all query terms [Hagen et al., 2016].
    """

    name: ClassVar[str] = "PROX4"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"
    all_terms: ClassVar[bool] = True

    def omega(self, doc: TermStatistics, terms: list[str]) -> tuple[int, int]:
        """(gap, count): the smallest window length minus the number of query terms, and how often it occurs."""
        gaps = [end - start + 1 - len(terms) for start, end in minimal_windows(doc, terms)]
        if not gaps:
            return (np.iinfo(np.int64).max, 0)
        gap = min(gaps)
        return gap, gaps.count(gap)

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """Lexicographic: smaller gap first, then larger count."""
        terms = query_terms(query)
        n = len(docs)
        full = np.array([bool(terms) and d.length > 0 and all(d.tf(t) for t in terms) for d in docs])
        omegas = [self.omega(d, terms) if ok else (0, 0) for d, ok in zip(docs, full, strict=True)]
        gap = np.array([o[0] for o in omegas], dtype=np.float64)
        count = np.array([o[1] for o in omegas], dtype=np.float64)
        prefs = np.where(gap[:, None] != gap[None, :], np.sign(gap[None, :] - gap[:, None]),
                         np.sign(count[:, None] - count[None, :]))
        return prefs * (full[:, None] & full[None, :]) if n else prefs


class Prox5Axiom(_PairwiseProximity):
    """PROX5: prefer the smaller mean span covering all query terms around each query term occurrence.

    Both documents contain all query terms; the mean is over query term occurrences, of the shortest span covering all
    query terms around it [Hagen et al., 2016].
    """

    name: ClassVar[str] = "PROX5"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"
    all_terms: ClassVar[bool] = True

    def proximity(self, doc, shared, query):
        """Mean over occurrences p of min over window starts s <= p of max(p, minimal end(s)) - s + 1."""
        windows = minimal_windows(doc, query_terms(query))
        if not windows:
            return np.inf
        starts = np.array([w[0] for w in windows])
        ends = np.array([w[1] for w in windows])
        positions = sorted(int(p) for t in set(query.terms) for p in doc.positions.get(t, ()))
        best = [float((np.maximum(p, ends[starts <= p]) - starts[starts <= p] + 1).min()) for p in positions]
        return float(np.mean(best))


PROX1 = register(Prox1Axiom())
PROX2 = register(Prox2Axiom())
PROX3 = register(Prox3Axiom())
PROX4 = register(Prox4Axiom())
PROX5 = register(Prox5Axiom())
PROXIMITY_AXIOMS = [PROX1, PROX2, PROX3, PROX4, PROX5]
