"""Retrieval axioms on term statistics (Hagen et al. 2016 and Völske et al. 2021 reformulations, ir_axioms defaults).

The query is the request text, a document is a response text; both are spaCy terms (lowercased lemmas without
punctuation and stopwords). tf is relative (count / |d|) where the reference compares with a margin, raw where it
compares counts exactly (TF-LNC, TFC3, M-TDC).
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import is_analysable
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.similarity import TermSimilarity, WordNetTermSimilarity
from ir_rag_axioms.analysis.features import SENTENCE_TERM_COUNTS, TERMS
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms.base import ConfigurableAxiom, Item, Reads, compare, within_margin
from ir_rag_axioms.axioms.preconditions import LEN, Precondition, apply_precondition, as_precondition, check_precondition
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval_statistics import ContextStatistics, RetrievalScores, StatisticsSource
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


def query_terms(query: TermStatistics) -> list[str]:
    """The distinct query terms in order of first occurrence."""
    return list(dict.fromkeys(query.terms))


def tf_matrix(terms: Sequence[str], docs: Sequence[TermStatistics], relative: bool) -> np.ndarray:
    """(n, k) term frequencies of ``terms`` in each document; relative = count / |d| (0 for empty documents)."""
    tf = np.array([[d.tf(t) for t in terms] for d in docs], dtype=np.float64).reshape(len(docs), len(terms))
    if relative:
        lengths = np.array([d.length for d in docs], dtype=np.float64)[:, None]
        tf = np.divide(tf, lengths, out=np.zeros_like(tf), where=lengths > 0)
    return tf


def lengths(docs: Sequence[TermStatistics]) -> np.ndarray:
    """|d| (number of terms) per document."""
    return np.array([d.length for d in docs], dtype=np.float64)


def points_matrix(points: np.ndarray) -> np.ndarray:
    """sign(points[i, j] - points[j, i]) for a matrix of points that i earns against j."""
    return np.sign(points - points.T)


class TermAxiom(ConfigurableAxiom):
    """A retrieval axiom on the term statistics of the query (request text) and documents (response texts).

    The hook: ``core(query, docs, request, responses)``, the (n, n) preferences before the precondition.
    """

    needs_sentences: ClassVar[bool] = False
    """Whether the documents' sentence lengths are read (aSL)."""
    reference_skips_precondition: ClassVar[bool] = False
    """Whether the reference implementation skips this axiom's precondition (a known bug: TFC1, REG, aSL, ArgUC...)."""
    model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline of the term tokenizer."""
    precondition: Precondition | None = None
    """Pairs the axiom may decide (e.g. ``LEN()``: similar length); ``None`` or ``NOP()``: all pairs."""
    reference_preconditions: bool = False
    """Skip the precondition where the reference implementation skips it (no effect on other axioms)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        check_precondition(self.label, self.precondition)

    @abstractmethod
    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest,
             responses: list[GenerationResponse]) -> np.ndarray:
        """The (n, n) preferences before the precondition."""

    def active_precondition(self) -> Precondition | None:
        """The precondition that is applied (none in reference mode for the axioms where the reference skips it)."""
        if self.reference_preconditions and self.reference_skips_precondition:
            return None
        return as_precondition(self.precondition)

    def reads(self) -> tuple[Reads, ...]:
        """Terms of the request and responses (and the responses' sentence lengths if needed)."""
        documents = (TERMS, SENTENCE_TERM_COUNTS) if self.needs_sentences else (TERMS,)
        return (Reads(self.model, request=(TERMS,), responses=documents),)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """core() masked by the precondition; unanalysable (blank) responses abstain."""
        (query,) = term_statistics([request.text], self.model)
        docs = term_statistics([r.text for r in responses], self.model, self.needs_sentences)
        prefs = self.from_statistics(query, docs, request, responses)
        ok = np.array([is_analysable(r.text) for r in responses], dtype=bool)
        return prefs * (ok[:, None] & ok[None, :]) + 0.0

    def from_statistics(self, query: TermStatistics, docs: list[TermStatistics],
                        request: GenerationRequest | None = None,
                        responses: list[GenerationResponse] | None = None) -> np.ndarray:
        """core() masked by the active precondition, zero diagonal (for given term statistics)."""
        prefs = np.asarray(self.core(query, list(docs), request, responses), dtype=np.float64).copy()
        prefs = apply_precondition(prefs, self.active_precondition(), query, docs)
        np.fill_diagonal(prefs, 0.0)
        return prefs + 0.0


class StatisticsTermAxiom(TermAxiom):
    """A term axiom that reads collection statistics or retrieval scores from a ``StatisticsSource``."""

    statistics: StatisticsSource = ContextStatistics()
    """idf and scores: the request's context passages by default; ``FixedStatistics`` for an index's."""

    def reads(self) -> tuple[Reads, ...]:
        """Terms of request and responses, and of the context passages when the statistics come from them."""
        (reads,) = super().reads()
        if isinstance(self.statistics, ContextStatistics):
            reads = dataclasses.replace(reads, context=(TERMS,))
        return (reads,)


# -- term frequency ------------------------------------------------------------------------------------
@register
class Tfc1Axiom(TermAxiom):
    """TFC1: prefer more query term occurrences, sum_t tf(t, d) / |d|, within a relative margin (LEN precondition)."""

    name: ClassVar[str] = "TFC1"
    margin_fraction: float = 0.1
    precondition: Precondition | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True

    def core(self, query, docs, request, responses):
        """compare(sum of relative tf)."""
        values = tf_matrix(query_terms(query), docs, relative=True).sum(axis=1)
        return compare(values, True, self.margin_fraction)


@register
class Tfc3Axiom(StatisticsTermAxiom):
    """TFC3: for query term pairs with idf equal within the margin, d1 earns a point if tf(t1,d2) = tf(t1,d1) + tf(t2,d1), tf(t2,d2) = 0, tf(t1,d1), tf(t2,d1) > 0."""

    name: ClassVar[str] = "TFC3"
    margin_fraction: float = 0.1
    precondition: Precondition | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True

    def core(self, query, docs, request, responses):
        """sign(points_i - points_j) over ordered pairs of query terms with similar idf."""
        terms = query_terms(query)
        n = len(docs)
        if len(terms) < 2:
            return np.zeros((n, n))
        idf = self.statistics.idf(request, responses, terms)
        tf = tf_matrix(terms, docs, relative=False)
        points = np.zeros((n, n))
        for a in range(len(terms)):
            for b in range(len(terms)):
                if a == b or not within_margin(idf[a], idf[b], self.margin_fraction):
                    continue
                holds = ((tf[None, :, a] == tf[:, None, a] + tf[:, None, b]) & (tf[None, :, b] == 0)
                         & (tf[:, None, a] > 0) & (tf[:, None, b] > 0))
                points += holds
        return points_matrix(points)


@register
class ModifiedTdcAxiom(StatisticsTermAxiom):
    """M-TDC: equal total query tf; per query term pair with idf(t1) > idf(t2) (beyond the margin), a point for more t1 occurrences."""

    name: ClassVar[str] = "M_TDC"
    margin_fraction: float = 0.1
    """Relative margin within which two idf values count as equal."""

    def core(self, query, docs, request, responses):
        """sign(points_i - points_j) where sum_t tf(t, d_i) = sum_t tf(t, d_j)."""
        terms = query_terms(query)
        n = len(docs)
        if len(terms) < 2:
            return np.zeros((n, n))
        idf = self.statistics.idf(request, responses, terms)
        tf = tf_matrix(terms, docs, relative=False)
        points = np.zeros((n, n))
        for a in range(len(terms)):
            for b in range(len(terms)):
                if a != b and idf[a] > idf[b] and not within_margin(idf[a], idf[b], self.margin_fraction):
                    points += tf[:, None, a] > tf[None, :, a]
        totals = tf.sum(axis=1)
        return points_matrix(points) * (totals[:, None] == totals[None, :])


@register
class LenModifiedTdcAxiom(ModifiedTdcAxiom):
    """LEN-M-TDC: M-TDC with the LEN precondition."""

    name: ClassVar[str] = "LEN_M_TDC"
    precondition: Precondition | None = LEN()


# -- document length -----------------------------------------------------------------------------------
@register
class Lnc1Axiom(TermAxiom):
    """LNC1: if every query term's relative tf is equal within the margin, prefer the shorter document."""

    name: ClassVar[str] = "LNC1"
    margin_fraction: float = 0.1

    def core(self, query, docs, request, responses):
        """-sign(|d_i| - |d_j|) where all query term tfs tie."""
        tf = tf_matrix(query_terms(query), docs, relative=True)
        same = within_margin(tf[:, None, :], tf[None, :, :], self.margin_fraction).all(axis=2)
        length = lengths(docs)
        return -np.sign(length[:, None] - length[None, :]) * same


@register
class TfLncAxiom(TermAxiom):
    """TF-LNC: per query term t, if |d1| - tf(t,d1) = |d2| - tf(t,d2), the document with more t earns a point."""

    name: ClassVar[str] = "TF_LNC"

    def core(self, query, docs, request, responses):
        """sign(points_i - points_j) with raw counts."""
        tf = tf_matrix(query_terms(query), docs, relative=False)
        rest = lengths(docs)[:, None] - tf
        same = rest[:, None, :] == rest[None, :, :]
        points = (same & (tf[:, None, :] > tf[None, :, :])).sum(axis=2)
        return points_matrix(points.astype(np.float64))


# -- lower bound ---------------------------------------------------------------------------------------
@register
class Lb1Axiom(StatisticsTermAxiom):
    """LB1: if retrieval scores are equal within the margin, prefer the document containing query terms the other lacks."""

    name: ClassVar[str] = "LB1"
    margin_fraction: float = 0.1
    statistics: StatisticsSource = RetrievalScores()
    """Source of the scores: the responses' ``score`` by default; ``ContextStatistics()`` computes BM25."""

    def core(self, query, docs, request, responses):
        """sign(#terms only in d_i - #terms only in d_j) where scores tie."""
        present = tf_matrix(query_terms(query), docs, relative=False) > 0
        only = (present[:, None, :] & ~present[None, :, :]).sum(axis=2).astype(np.float64)
        scores = np.asarray(self.statistics.scores(request, responses), dtype=np.float64)
        with np.errstate(invalid="ignore"):
            tie = within_margin(scores[:, None], scores[None, :], self.margin_fraction)
        return points_matrix(only) * tie


# -- query aspects -------------------------------------------------------------------------------------
@register
class RegAxiom(TermAxiom):
    """REG: prefer more occurrences (relative tf) of the query term(s) least similar on average to all query terms."""

    name: ClassVar[str] = "REG"
    anti: ClassVar[bool] = False
    precondition: Precondition | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True
    similarity: TermSimilarity = WordNetTermSimilarity()

    def prefetch(self, items: Sequence[Item]) -> None:
        """Prepare (e.g. embed) the query terms."""
        self.similarity.prefetch([t for request, _ in items for t in query_terms(term_statistics([request.text], self.model)[0])])

    def aspect_terms(self, query: TermStatistics) -> list[str]:
        """The query terms with minimal (ANTI-REG: maximal) mean similarity to all query terms, itself included."""
        terms = query_terms(query)
        if not terms:
            return []
        mean = self.similarity.matrix(terms, terms).mean(axis=1)
        target = mean.max() if self.anti else mean.min()
        return [t for t, m in zip(terms, mean) if np.isclose(m, target, rtol=1e-9, atol=1e-12)]

    def core(self, query, docs, request, responses):
        """+1 if d_i has a higher tf(t, d) / |d| than d_j for every such term t, -1 if lower for every one, else 0."""
        terms = self.aspect_terms(query)
        n = len(docs)
        if not terms:
            return np.zeros((n, n))
        tf = tf_matrix(terms, docs, relative=True)
        higher = (tf[:, None, :] > tf[None, :, :]).all(axis=2)
        return higher.astype(np.float64) - higher.T


@register
class AntiRegAxiom(RegAxiom):
    """ANTI-REG: as REG, for the query term most similar on average to the query terms."""

    name: ClassVar[str] = "ANTI_REG"
    anti: ClassVar[bool] = True


@register
class AndAxiom(TermAxiom):
    """AND: prefer the document that contains all query terms."""

    name: ClassVar[str] = "AND"

    def core(self, query, docs, request, responses):
        """compare([all query terms in d])."""
        present = tf_matrix(query_terms(query), docs, relative=False) > 0
        return compare(present.all(axis=1).astype(np.float64))


@register
class LenAndAxiom(AndAxiom):
    """LEN-AND: AND with the LEN precondition."""

    name: ClassVar[str] = "LEN_AND"
    precondition: Precondition | None = LEN()


@register
class ModifiedAndAxiom(TermAxiom):
    """M-AND: prefer the document that contains more distinct query terms."""

    name: ClassVar[str] = "M_AND"

    def core(self, query, docs, request, responses):
        """compare(|q & d|)."""
        present = tf_matrix(query_terms(query), docs, relative=False) > 0
        return compare(present.sum(axis=1).astype(np.float64))


@register
class LenModifiedAndAxiom(ModifiedAndAxiom):
    """LEN-M-AND: M-AND with the LEN precondition."""

    name: ClassVar[str] = "LEN_M_AND"
    precondition: Precondition | None = LEN()


@register
class DivAxiom(TermAxiom):
    """DIV: prefer the lower vocabulary overlap with the query, Jaccard |q & d| / |q | d|."""

    name: ClassVar[str] = "DIV"

    def core(self, query, docs, request, responses):
        """compare(jaccard, lower is better)."""
        q = set(query_terms(query))
        values = [len(q & d.vocabulary) / len(q | d.vocabulary) if q | d.vocabulary else 0.0 for d in docs]
        return compare(np.array(values, dtype=np.float64), higher_is_better=False)


@register
class LenDivAxiom(DivAxiom):
    """LEN-DIV: DIV with the LEN precondition."""

    name: ClassVar[str] = "LEN_DIV"
    precondition: Precondition | None = LEN()


# -- term similarity -----------------------------------------------------------------------------------
@register
class Stmc1Axiom(TermAxiom):
    """STMC1: prefer the higher mean similarity sim(t, t') over distinct query terms t and distinct document terms t'."""

    name: ClassVar[str] = "STMC1"
    similarity: TermSimilarity = WordNetTermSimilarity()

    def prefetch(self, items: Sequence[Item]) -> None:
        """Prepare all query and document terms at once."""
        terms: set[str] = set()
        for request, responses in items:
            terms.update(term_statistics([request.text], self.model)[0].terms)
            for d in term_statistics([r.text for r in responses], self.model):
                terms.update(d.vocabulary)
        self.similarity.prefetch(sorted(terms))

    def core(self, query, docs, request, responses):
        """compare(mean similarity)."""
        terms = query_terms(query)
        vocabulary = sorted(set().union(*(d.vocabulary for d in docs))) if docs else []
        index = {t: i for i, t in enumerate(vocabulary)}
        sims = self.similarity.matrix(terms, vocabulary) if terms else np.zeros((0, len(vocabulary)))
        values = []
        for d in docs:
            columns = [index[t] for t in d.vocabulary]
            values.append(float(sims[:, columns].mean()) if terms and columns else 0.0)
        return compare(np.array(values))


@register
class Stmc2Axiom(TermAxiom):
    """STMC2: for the most similar (query term t, non-query term t') pair(s) of both documents, prefer d1 if |d2| / |d1| ~ tf(t', d2) / tf(t, d1) for all."""

    name: ClassVar[str] = "STMC2"
    margin_fraction: float = 0.2
    similarity: TermSimilarity = WordNetTermSimilarity()
    reference_asymmetry: bool = False
    """Return the reference's raw answer per ordered pair (not antisymmetric; diagonal may be 1)."""

    prefetch = Stmc1Axiom.prefetch

    def core(self, query, docs, request, responses):
        """Per pair: the reference's first-applicable rule; antisymmetrised (upper triangle mirrored) unless reference_asymmetry."""
        n = len(docs)
        terms = query_terms(query)
        prefs = np.zeros((n, n))
        if not terms:
            return prefs
        qset = set(terms)
        for i in range(n):
            for j in range(n):
                if i == j or (j < i and not self.reference_asymmetry):
                    continue
                prefs[i, j] = self._pair(terms, qset, docs[i], docs[j])
        if not self.reference_asymmetry:
            prefs = prefs - prefs.T
        return prefs

    def _pair(self, terms: list[str], qset: set[str], d1: TermStatistics, d2: TermStatistics) -> float:
        others = sorted((d1.vocabulary | d2.vocabulary) - qset)
        if not others or not d1.length or not d2.length:
            return 0.0
        sims = self.similarity.matrix(terms, others)
        best = np.flatnonzero(np.isclose(sims.ravel(), sims.max(), rtol=1e-9, atol=1e-12))
        pairs = [(terms[k // len(others)], others[k % len(others)]) for k in best]
        m = self.margin_fraction

        def similar(x: float, y: float) -> bool:
            return bool(within_margin(x, y, m))

        if all(d1.tf(t) and similar(d2.length / d1.length, d2.tf(o) / d1.tf(t)) for t, o in pairs):
            return 1.0
        if all(d2.tf(t) and similar(d1.length / d2.length, d1.tf(o) / d2.tf(t)) for t, o in pairs):
            return -1.0
        return 0.0


# -- sentence length -----------------------------------------------------------------------------------
@register
class AverageSentenceLengthAxiom(TermAxiom):
    """aSL: prefer the document whose mean sentence length (terms per sentence) lies in [min, max] over one outside."""

    name: ClassVar[str] = "aSL"
    needs_sentences: ClassVar[bool] = True
    min_sentence_length: int = 12
    max_sentence_length: int = 20
    precondition: Precondition | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.min_sentence_length > self.max_sentence_length:
            raise ValueError("aSL: min_sentence_length must not exceed max_sentence_length")

    def core(self, query, docs, request, responses):
        """compare([min <= mean sentence length <= max])."""
        values = []
        for d in docs:
            sl = d.sentence_lengths or ()
            mean = float(np.mean(sl)) if sl else 0.0
            values.append(float(self.min_sentence_length <= mean <= self.max_sentence_length))
        return compare(np.array(values))


TFC1 = Tfc1Axiom()
TFC3 = Tfc3Axiom()
M_TDC = ModifiedTdcAxiom()
LEN_M_TDC = LenModifiedTdcAxiom()
LNC1 = Lnc1Axiom()
TF_LNC = TfLncAxiom()
LB1 = Lb1Axiom()
REG = RegAxiom()
ANTI_REG = AntiRegAxiom()
AND = AndAxiom()
LEN_AND = LenAndAxiom()
M_AND = ModifiedAndAxiom()
LEN_M_AND = LenModifiedAndAxiom()
DIV = DivAxiom()
LEN_DIV = LenDivAxiom()
STMC1 = Stmc1Axiom()
STMC2 = Stmc2Axiom()
aSL = AverageSentenceLengthAxiom()
RETRIEVAL_AXIOMS = [TFC1, TFC3, M_TDC, LEN_M_TDC, LNC1, TF_LNC, LB1, REG, ANTI_REG, AND, LEN_AND, M_AND, LEN_M_AND, DIV, LEN_DIV, STMC1, STMC2, aSL]
