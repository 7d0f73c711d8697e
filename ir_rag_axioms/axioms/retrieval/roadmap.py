"""The roadmap's missing retrieval axioms, pairwise: TFC2, LNC2, LB2, TDC, STMC3, TSSC1-2, QPHRA, RSIM, P-RANK.

The original constraints (Fang et al. 2004, 2011; Fang and Zhai 2006; Lv and Zhai 2011) compare artificial
documents (concatenations, added terms, three documents); Hagen et al. (2016) proposed QPHRA, RSIM and P-RANK for
axiomatic re-ranking. The pairwise reformulations here are new in this library; each docstring says which idea
it keeps. Collection statistics (TDC) come from a ``StatisticsSource`` (the context passages by default, as for
GEN_TFC3); RSIM and P-RANK read the other candidates (and the context passages) as the result list.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import TERMS
from ir_rag_axioms.analysis.similarity import TermSimilarity, WordNetTermSimilarity
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms.base import Reads, compare, within_margin
from ir_rag_axioms.axioms.preconditions import LEN, Precondition
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import (
    StatisticsTermAxiom,
    TermAxiom,
    lengths,
    points_matrix,
    query_terms,
    same_relative_tf,
    tf_matrix,
)
from ir_rag_axioms.axioms.retrieval.proximity import shared_terms_mask
from ir_rag_axioms.axioms.retrieval.similarity import Stmc1Axiom
from ir_rag_axioms.axioms.utility import NopAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, all_contexts


class Tfc2Axiom(TermAxiom):
    """TFC2: prefer more query term occurrences with diminishing returns, sum_t ln(1 + tf(t, d)) (LEN precondition).

    Additional occurrences of a term add less than the first ones (the idea of Fang et al., 2011), so spreading
    occurrences over the query terms beats repeating one; pairwise form new in this library [Fang et al., 2011].
    """

    name: ClassVar[str] = "TFC2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2011"
    margin_fraction: float = 0.1
    precondition: Precondition | NopAxiom | None = LEN()

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(sum_t ln(1 + tf(t, d)))."""
        values = np.log1p(tf_matrix(query_terms(query), docs, relative=False)).sum(axis=1)
        return compare(values, True, self.margin_fraction)


class Lnc2Axiom(TermAxiom):
    """LNC2: at the same matched ratio of every query term (relative tf within the margin, some tf > 0), prefer longer.

    A c-fold concatenation keeps every term's ratio and should not lose to the original (Fang et al., 2004): the
    longer document with the same ratios wins; pairwise form new in this library [Fang et al., 2004].
    """

    name: ClassVar[str] = "LNC2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2004"
    margin_fraction: float = 0.1

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(|d_i| - |d_j|) where all relative query tfs tie and both documents match a query term."""
        same = same_relative_tf(query, docs, self.margin_fraction)
        matched = tf_matrix(query_terms(query), docs, relative=False).sum(axis=1) > 0
        length = lengths(docs)
        return np.sign(length[:, None] - length[None, :]) * same * (matched[:, None] & matched[None, :])


class Lb2Axiom(TermAxiom):
    """LB2: at equal total query term frequency (within the margin), prefer more distinct query terms.

    The first occurrence of a query term counts more than a repeated one (Lv and Zhai, 2011); pairwise form new in
    this library [Lv and Zhai, 2011].
    """

    name: ClassVar[str] = "LB2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Lv and Zhai, 2011"
    margin_fraction: float = 0.1

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(|q & d_i| - |q & d_j|) where sum_t tf(t, d) ties."""
        tf = tf_matrix(query_terms(query), docs, relative=False)
        totals = tf.sum(axis=1)
        distinct = (tf > 0).sum(axis=1).astype(np.float64)
        tie = within_margin(totals[:, None], totals[None, :], self.margin_fraction) & (totals[:, None] > 0)
        return np.sign(distinct[:, None] - distinct[None, :]) * tie


class TdcAxiom(StatisticsTermAxiom):
    """TDC: prefer the document with the more discriminative of two query terms where each has one of them.

    Per query term pair with idf(t1) > idf(t2) beyond the margin, d1 earns a point if t1 in d1, t2 not in d1, t1 not
    in d2, t2 in d2 (the original TDC, Fang et al., 2004, over all term pairs; LEN precondition) [Fang et al., 2004].
    """

    name: ClassVar[str] = "TDC"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2004"
    margin_fraction: float = 0.1
    """Relative margin within which two idf values count as equal."""
    precondition: Precondition | NopAxiom | None = LEN()

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(points_i - points_j) over query term pairs of different idf."""
        n, terms = len(docs), query_terms(query)
        if len(terms) < 2:
            return np.zeros((n, n))
        idf = self.statistics.idf(request, responses, terms, analysis)  # type: ignore[arg-type]  # FixedStatistics reads neither
        present = tf_matrix(terms, docs, relative=False) > 0
        points = np.zeros((n, n))
        for a, b in itertools.permutations(range(len(terms)), 2):
            if idf[a] > idf[b] and not within_margin(idf[a], idf[b], self.margin_fraction):
                only_a, only_b = present[:, a] & ~present[:, b], present[:, b] & ~present[:, a]
                points += only_a[:, None] & only_b[None, :]
        return points_matrix(points)


class _SimilarityTermAxiom(TermAxiom):
    """Shared by STMC3, TSSC1, TSSC2: a term similarity, prepared for every query and document term at once."""

    similarity: TermSimilarity = WordNetTermSimilarity()
    prefetch = Stmc1Axiom.prefetch

    def _similar(self, terms: list[str], docs: list[TermStatistics],
                 analysis: Analysis) -> tuple[list[str], np.ndarray]:
        """The documents' vocabulary and sim(query term, document term), exact matches 1."""
        vocabulary = sorted(set().union(*(d.vocabulary for d in docs))) if docs else []
        sims = self.similarity.matrix(terms, vocabulary, analysis) if terms and vocabulary else np.zeros(
            (len(terms), len(vocabulary)))
        sims = np.array(sims, dtype=np.float64)
        for i, t in enumerate(terms):
            if t in vocabulary:
                sims[i, vocabulary.index(t)] = 1.0
        return vocabulary, sims

    def _per_document(self, terms: list[str], docs: list[TermStatistics],
                      analysis: Analysis) -> list[np.ndarray | None]:
        """Per document, sim(query term, its term) as a (query terms x its terms) matrix; None if either is empty."""
        vocabulary, sims = self._similar(terms, docs, analysis)
        index = {t: k for k, t in enumerate(vocabulary)}
        return [sims[:, [index[t] for t in d.vocabulary]] if d.vocabulary and terms else None for d in docs]


class Stmc3Axiom(_SimilarityTermAxiom):
    """STMC3: prefer the document matching more query terms, exactly or by a similar term (LEN precondition).

    A term counts if the document has it or a term with sim >= ``min_similarity`` (Fang and Zhai, 2006: covering
    more query terms semantically beats repeating one); pairwise form new in this library [Fang and Zhai, 2006].
    """

    name: ClassVar[str] = "STMC3"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang and Zhai, 2006"
    precondition: Precondition | NopAxiom | None = LEN()
    min_similarity: float = 0.9
    """Similarity from which a document term stands for a query term."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"min_similarity": (0.0, 1.0)}

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(number of query terms matched exactly or semantically)."""
        values = [0.0 if m is None else float((m >= self.min_similarity).any(axis=1).sum())
                  for m in self._per_document(query_terms(query), docs, analysis)]
        return compare(np.array(values))


class Tssc1Axiom(_SimilarityTermAxiom):
    """TSSC1: prefer the higher mean over query terms of the best similarity to a document term (exact match: 1).

    The closest semantic match per query term, sim(t, t) = 1 (the term similarity constraints of Fang and Zhai,
    2006, as a pairwise rule new in this library) [Fang and Zhai, 2006].
    """

    name: ClassVar[str] = "TSSC1"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang and Zhai, 2006"
    margin_fraction: float = 0.1

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(mean_t max_t' sim(t, t'))."""
        values = [0.0 if m is None else float(m.max(axis=1).mean())
                  for m in self._per_document(query_terms(query), docs, analysis)]
        return compare(np.array(values), True, self.margin_fraction)


class Tssc2Axiom(_SimilarityTermAxiom):
    """TSSC2: with the same query terms matched exactly, prefer more distinct similar non-query terms (LEN).

    Non-query document terms with sim >= ``min_similarity`` to a query term add evidence only beyond exact matches
    (the term similarity constraints of Fang and Zhai, 2006, as a pairwise rule new in this library)
    [Fang and Zhai, 2006].
    """

    name: ClassVar[str] = "TSSC2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang and Zhai, 2006"
    precondition: Precondition | NopAxiom | None = LEN()
    min_similarity: float = 0.9
    """Similarity from which a non-query term counts as similar."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"min_similarity": (0.0, 1.0)}

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(similar non-query terms) where both documents contain the same query terms."""
        terms = query_terms(query)
        vocabulary, sims = self._similar(terms, docs, analysis)
        similar = {t for k, t in enumerate(vocabulary)
                   if t not in terms and terms and sims[:, k].max() >= self.min_similarity}
        values = np.array([float(len(d.vocabulary & similar)) for d in docs])
        return compare(values) * shared_terms_mask(terms, docs, 0)


def _phrases(terms: Sequence[str]) -> list[tuple[str, str]]:
    """The query's phrases: its adjacent term pairs, in order (distinct)."""
    return list(dict.fromkeys(zip(terms, terms[1:], strict=False)))


class QphraAxiom(TermAxiom):
    """QPHRA: prefer more occurrences of the query's phrases (adjacent query term pairs, in order) (LEN).

    Hagen et al. (2016) find phrases with n-gram statistics; here every adjacent pair of query terms is a phrase,
    counted where the document has the two terms adjacent in its term sequence [Hagen et al., 2016].
    """

    name: ClassVar[str] = "QPHRA"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"
    precondition: Precondition | NopAxiom | None = LEN()

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(phrase occurrences)."""
        phrases = set(_phrases(query.terms))
        values = np.array([float(sum(pair in phrases for pair in zip(d.terms, d.terms[1:], strict=False)))
                           for d in docs])
        return compare(values) if phrases else np.zeros((len(docs), len(docs)))


def _vectors(docs: Sequence[TermStatistics]) -> np.ndarray:
    """Unit tf vectors over the documents' joint vocabulary (zero rows for empty documents)."""
    vocabulary = sorted(set().union(*(d.vocabulary for d in docs))) if docs else []
    tf = tf_matrix(vocabulary, docs, relative=False)
    norms = np.linalg.norm(tf, axis=1, keepdims=True)
    return np.divide(tf, norms, out=np.zeros_like(tf), where=norms > 0)


class RsimAxiom(TermAxiom):
    """RSIM: prefer the document more similar to the other results, mean cosine of tf vectors >_10%.

    Similar results should be ranked alike (Hagen et al., 2016): a document close to the rest of the result list
    (here: the other candidates) is preferred; with two candidates the values tie [Hagen et al., 2016].
    """

    name: ClassVar[str] = "RSIM"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"
    margin_fraction: float = 0.1

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(mean_{j != i} cos(d_i, d_j))."""
        n = len(docs)
        if n < 2:
            return np.zeros((n, n))
        vectors = _vectors(docs)
        cos = vectors @ vectors.T
        values = np.round((cos.sum(axis=1) - np.diag(cos)) / (n - 1), 12)
        return compare(values, True, self.margin_fraction)


class PRankAxiom(TermAxiom):
    """P-RANK: prefer the higher PageRank in the cosine-similarity graph of the candidates and context passages >_10%.

    Hagen et al. (2016) use the web graph's PageRank; without links, the graph's edges are tf cosine similarities
    (as LexRank), damping ``damping``, the context passages (if any) as further nodes [Hagen et al., 2016].
    """

    name: ClassVar[str] = "P_RANK"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"
    margin_fraction: float = 0.1
    damping: float = 0.85
    """The PageRank damping factor."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"damping": (0.0, 1.0)}

    def reads(self) -> tuple[Reads, ...]:
        """Terms of request, responses and context passages."""
        reads, *others = super().reads()
        return (dataclasses.replace(reads, context=(TERMS,)), *others)

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(PageRank of each candidate)."""
        n = len(docs)
        passages = ([p for c in all_contexts(request, responses) for p in c]
                    if request is not None and responses is not None else [])
        nodes = [*docs, *term_statistics(sorted(set(passages)), self.model, analysis=analysis)]
        ranks = pagerank(_vectors(nodes), self.damping)[:n]
        return compare(np.round(ranks, 12), True, self.margin_fraction)


def pagerank(vectors: np.ndarray, damping: float, tolerance: float = 1e-13) -> np.ndarray:
    """PageRank of the graph with edge weights cos(v_i, v_j), i != j (a node without edges links to all)."""
    n = len(vectors)
    if n == 0:
        return np.zeros(0)
    weights = np.clip(vectors @ vectors.T, 0.0, None)
    np.fill_diagonal(weights, 0.0)
    sums = weights.sum(axis=1, keepdims=True)
    transition = np.where(sums > 0, np.divide(weights, sums, out=np.zeros_like(weights), where=sums > 0), 1.0 / n)
    rank = np.full(n, 1.0 / n)
    for _ in range(1000):
        updated = (1 - damping) / n + damping * rank @ transition
        if np.abs(updated - rank).sum() < tolerance:
            return updated
        rank = updated
    return rank


TFC2 = register(Tfc2Axiom())
LNC2 = register(Lnc2Axiom())
LB2 = register(Lb2Axiom())
TDC = register(TdcAxiom())
STMC3 = register(Stmc3Axiom())
TSSC1 = register(Tssc1Axiom())
TSSC2 = register(Tssc2Axiom())
QPHRA = register(QphraAxiom())
RSIM = register(RsimAxiom())
P_RANK = register(PRankAxiom())
ROADMAP_AXIOMS = [TFC2, LNC2, LB2, TDC, STMC3, TSSC1, TSSC2, QPHRA, RSIM, P_RANK]
"""The roadmap's retrieval axioms, in registration order (each also as GEN_)."""
