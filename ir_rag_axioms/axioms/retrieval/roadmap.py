"""The roadmap's retrieval axioms, pairwise: LNC2, LB2, TDC, STMC3, QPHRA, and ours: LOG_TF, BEST_SIM, SIM_TERMS, ...

The original constraints (Fang et al. 2004, 2011; Fang and Zhai 2006; Lv and Zhai 2011) compare artificial
documents (concatenations, replaced terms); LNC2, LB2, TDC and STMC3 decide exactly the pairs of documents that
form such an instance (each docstring states the paper's condition and the pairwise rule derived from it), QPHRA
is Hagen et al.'s (2016) quoted-phrase constraint. Where no locatable definition exists or no pairwise form
follows (TFC2, TSSC1-2, RSIM, P-RANK) the axioms are ours under their own names: LOG_TF, BEST_SIM, SIM_TERMS,
CONSENSUS and QLEXRANK (query-biased LexRank); the old names still resolve, with a DeprecationWarning.
Collection statistics (TDC, LB2) come from a ``StatisticsSource`` (the context passages by default, as for
GEN_TFC3); CONSENSUS and QLEXRANK read the other candidates (and the context passages) as the result list.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import warnings
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import TERMS
from ir_rag_axioms.analysis.similarity import TermSimilarity, WordNetTermSimilarity
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms.base import Reads, compare, within_margin
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.preconditions import LEN, Precondition
from ir_rag_axioms.axioms.registry import deprecate, register
from ir_rag_axioms.axioms.retrieval.base import (
    StatisticsTermAxiom,
    TermAxiom,
    points_matrix,
    query_terms,
    tf_matrix,
)
from ir_rag_axioms.axioms.retrieval.proximity import shared_terms_mask
from ir_rag_axioms.axioms.retrieval.similarity import Stmc1Axiom
from ir_rag_axioms.axioms.utility import NopAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, all_contexts


class _LiteratureRule:
    """Axioms whose rule changed in issue 28 (now the paper's constraint): their matrix cache keys changed with it."""

    def cache_identity(self) -> dict[str, str] | None:
        """The rule's version, part of the matrix cache key (matrices cached under the old rule are not reused)."""
        return {"rule": "literature (issue 28)"}


class LogTfAxiom(TermAxiom):
    """LOG_TF: prefer more query term occurrences with diminishing returns, sum_t ln(1 + tf(t, d)) (LEN precondition).

    Ours, not Fang et al.'s TFC2 (a condition on score differences over three documents, no pairwise
    preference): on a one-term query it orders as TFC1 (ln(1 + tf) is monotone); on longer queries spreading
    occurrences over the query terms beats repeating one. Formerly registered as TFC2 (deprecated name).
    """

    name: ClassVar[str] = "LOG_TF"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    precondition: Precondition | NopAxiom | None = LEN()

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(sum_t ln(1 + tf(t, d)))."""
        values = np.log1p(tf_matrix(query_terms(query), docs, relative=False)).sum(axis=1)
        return compare(values, True, self.margin_fraction)


def concatenation_factor(longer: TermStatistics, shorter: TermStatistics, tolerance: float) -> int:
    """The k >= 2 for which ``longer`` is a k-fold concatenation of ``shorter`` within the tolerance, else 0.

    k = round(|longer| / |shorter|); the condition: sum_w |tf(w, longer) - k tf(w, shorter)| <= tolerance k |shorter|
    over every term w (this bounds the length difference too, as |d| = sum_w tf(w, d)).
    """
    if shorter.length == 0 or longer.length < shorter.length:
        return 0
    k = int(round(longer.length / shorter.length))
    if k < 2:
        return 0
    terms = longer.vocabulary | shorter.vocabulary
    distance = sum(abs(longer.tf(w) - k * shorter.tf(w)) for w in terms)
    return k if distance <= tolerance * k * shorter.length else 0


class Lnc2Axiom(_LiteratureRule, TermAxiom):
    """LNC2: if d_i is a k-fold concatenation of d_j (k >= 2, within ``tolerance``), prefer d_i [Fang et al., 2004].

    Fang et al. (2004, 2011): for k > 1, |d1| = k |d2| and c(w, d1) = k c(w, d2) for every term w imply
    S(q, d1) >= S(q, d2) (the concatenation is not penalised). Pairwise rule derived here: +1 for the concatenation.
    A preference can only say >, < or nothing; nothing leaves the order to the other axioms, and the only order
    that satisfies ">=" whatever the scores is the concatenation first. Every other pair: 0 (it decides no pair
    that is not a concatenation; where it decides, LNC1, which prefers the shorter document at the same relative
    query tf, prefers the other one: the two constraints conflict exactly there).
    """

    name: ClassVar[str] = "LNC2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang et al., 2004"
    tolerance: float = 0.1
    """Share of k |d_j| term occurrences by which d_i may differ from k copies of d_j (0: exact)."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"tolerance": (0.0, 1.0)}

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """+1 for (i, j) where d_i is a k-fold concatenation of d_j, -1 for the converse, else 0."""
        n = len(docs)
        prefs = np.zeros((n, n))
        for i, j in itertools.permutations(range(n), 2):
            if concatenation_factor(docs[i], docs[j], self.tolerance):
                prefs[i, j], prefs[j, i] = 1.0, -1.0
        return prefs


class Lb2Axiom(_LiteratureRule, StatisticsTermAxiom):
    """LB2: the first occurrence of a query term outweighs a repeated one (Lv and Zhai, 2011; LEN precondition).

    Lv and Zhai (2011): for q1, q2 with td(q1) = td(q2), D1' = D + {q1} - {t1} (q1 already in D) scores below
    D2' = D + {q2} - {t2} (q2 not in D), t1, t2 non-query terms. The pairwise instance from one D: d_j is preferred
    to d_i where, for two query terms of equal idf (within ``margin_fraction``), tf(q1, d_i) = tf(q1, d_j) + 1
    with tf(q1, d_j) >= 1, tf(q2, d_i) = 0, tf(q2, d_j) = 1, and every other query term occurs equally often;
    |D1'| = |D2'| as the LEN precondition (within 10 %). idf from the ``statistics`` source [Lv and Zhai, 2011].
    """

    name: ClassVar[str] = "LB2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Lv and Zhai, 2011"
    margin_fraction: float = 0.1
    """Relative margin within which two idf values count as equal (the paper's td(q1) = td(q2))."""
    precondition: Precondition | NopAxiom | None = LEN()

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """+1 for (j, i) where d_j has the first q2 where d_i repeats q1 (all else equal), -1 for (i, j)."""
        n, terms = len(docs), query_terms(query)
        prefs = np.zeros((n, n))
        if len(terms) < 2 or n < 2:
            return prefs
        idf = self.statistics.idf(request, responses, terms, analysis)  # type: ignore[arg-type]  # FixedStatistics reads neither
        tf = tf_matrix(terms, docs, relative=False)
        for i, j in itertools.permutations(range(n), 2):
            differ = np.flatnonzero(tf[i] != tf[j])
            if len(differ) != 2:
                continue
            for q1, q2 in itertools.permutations(differ, 2):
                if (tf[i, q1] == tf[j, q1] + 1 and tf[j, q1] >= 1 and tf[i, q2] == 0 and tf[j, q2] == 1
                        and within_margin(idf[q1], idf[q2], self.margin_fraction)):
                    prefs[j, i], prefs[i, j] = 1.0, -1.0
        return prefs


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


class Stmc3Axiom(_LiteratureRule, _SimilarityTermAxiom):
    """STMC3: a term similar to an unmatched query term beats one more repeat of a matched one (LEN precondition).

    Fang and Zhai (2006): for q = {q1, q2} and a non-query term w with s(q2, w) > 0, |D1| = |D2| > 1,
    c(q1, D1) = |D1|, c(q1, D2) = |D2| - 1 and c(w, D2) = 1 imply S(q, D1) <= S(q, D2). Pairwise form: d_i is
    preferred to d_j where, for query terms q1 != q2, tf(q1, d_j) = tf(q1, d_i) + 1 with tf(q1, d_i) >= 1, q2
    occurs in neither, every other query term occurs equally often, and d_i has more occurrences of non-query
    terms w with sim(q2, w) > ``threshold``; |D1| = |D2| as LEN (10 %); +1 for D2 as in LNC2 (">=" holds with
    D2 first). Where it decides, TFC1 prefers D1 (one more query term occurrence): semantic coverage of another
    query term against one more repeat is what the constraint settles [Fang and Zhai, 2006].
    """

    name: ClassVar[str] = "STMC3"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang and Zhai, 2006"
    precondition: Precondition | NopAxiom | None = LEN()
    threshold: float = 0.0
    """A non-query term w stands for q2 where sim(q2, w) > threshold (the paper: s(q2, w) > 0)."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"threshold": (0.0, 1.0)}

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """+1 for (i, j) where d_i trades one q1 of d_j for a term similar to the unmatched q2, -1 for (j, i)."""
        n, terms = len(docs), query_terms(query)
        prefs = np.zeros((n, n))
        if len(terms) < 2 or n < 2:
            return prefs
        vocabulary, sims = self._similar(terms, docs, analysis)
        others = [k for k, w in enumerate(vocabulary) if w not in terms]
        # similar[d, t]: occurrences in d of non-query terms w with sim(t, w) > threshold
        counts = tf_matrix([vocabulary[k] for k in others], docs, relative=False)
        similar = counts @ (sims[:, others] > self.threshold).T.astype(np.float64) if others else np.zeros(
            (n, len(terms)))
        tf = tf_matrix(terms, docs, relative=False)
        for i, j in itertools.permutations(range(n), 2):
            differ = np.flatnonzero(tf[i] != tf[j])
            if len(differ) != 1:
                continue
            q1 = differ[0]
            if not (tf[j, q1] == tf[i, q1] + 1 and tf[i, q1] >= 1):
                continue
            if any(q2 != q1 and tf[i, q2] == 0 and tf[j, q2] == 0 and similar[i, q2] > similar[j, q2]
                   for q2 in range(len(terms))):
                prefs[i, j], prefs[j, i] = 1.0, -1.0
        return prefs


class BestSimAxiom(_SimilarityTermAxiom):
    """BEST_SIM: prefer the higher mean over query terms of the best similarity to a document term (exact match: 1).

    Ours (formerly registered as TSSC1, a name of the literature whose definition we could not locate): the
    closest semantic match per query term, sim(t, t) = 1, mean_t max_t' sim(t, t'), margin 10 %.
    """

    name: ClassVar[str] = "BEST_SIM"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(mean_t max_t' sim(t, t'))."""
        values = [0.0 if m is None else float(m.max(axis=1).mean())
                  for m in self._per_document(query_terms(query), docs, analysis)]
        return compare(np.array(values), True, self.margin_fraction)


class SimTermsAxiom(_SimilarityTermAxiom):
    """SIM_TERMS: with the same query terms matched exactly, prefer more distinct similar non-query terms (LEN).

    Ours (formerly registered as TSSC2): non-query document terms with sim >= ``min_similarity`` to a query term
    add evidence only beyond exact matches.
    """

    name: ClassVar[str] = "SIM_TERMS"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
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


_QUOTED = re.compile(r'"([^"]+)"|\u201c([^\u201c\u201d]+)\u201d|\u201e([^\u201c\u201d\u201e]+)[\u201c\u201d]')
"""A phrase in double quotes: "...", \u201c...\u201d or \u201e...\u201c."""


def quoted_phrases(text: str) -> list[str]:
    """The query's phrases: the texts in double quotes, in order (straight, curly or low-high quotes)."""
    return [next(g for g in match.groups() if g is not None).strip() for match in _QUOTED.finditer(text)]


def contains_phrase(document: Sequence[str], phrase: Sequence[str]) -> bool:
    """Whether the term sequence ``phrase`` occurs contiguously in the term sequence ``document``."""
    k = len(phrase)
    return k > 0 and any(tuple(document[i:i + k]) == tuple(phrase) for i in range(len(document) - k + 1))


class QphraAxiom(_LiteratureRule, TermAxiom):
    """QPHRA: prefer the document containing all quoted query phrases over one that does not [Hagen et al., 2016].

    For queries with highlighted phrases (in double quotes), documents containing all of them (each as a
    contiguous term sequence, the same terms as everywhere: lemmas without stopwords) are preferred to those
    that do not (the constraint as Hagen et al., 2016 state it). A query without quotes (or whose quotes hold
    only stopwords): no preference. Needs the request text (the quotes): from_statistics without the request
    raises ValueError.
    """

    name: ClassVar[str] = "QPHRA"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """sign(all_i - all_j), all_d = every quoted phrase occurs in d; 0 without quoted phrases."""
        request, _ = self.given(request, responses)
        texts = quoted_phrases(request.text)
        phrases = [p.terms for p in term_statistics(texts, self.model, analysis=analysis) if p.terms] if texts else []
        if not phrases:
            return np.zeros((len(docs), len(docs)))
        values = np.array([float(all(contains_phrase(d.terms, p) for p in phrases)) for d in docs])
        return compare(values)


def _vectors(docs: Sequence[TermStatistics]) -> np.ndarray:
    """Unit tf vectors over the documents' joint vocabulary (zero rows for empty documents)."""
    vocabulary = sorted(set().union(*(d.vocabulary for d in docs))) if docs else []
    tf = tf_matrix(vocabulary, docs, relative=False)
    norms = np.linalg.norm(tf, axis=1, keepdims=True)
    return np.divide(tf, norms, out=np.zeros_like(tf), where=norms > 0)


class ConsensusAxiom(TermAxiom):
    """CONSENSUS: prefer the document more similar to the other candidates, mean cosine of tf vectors >_10%.

    Ours (formerly registered as RSIM, a name of Hagen et al. 2016 whose definition we could not locate):
    value(d_i) = mean_{j != i} cos(tf(d_i), tf(d_j)), query-independent; with two candidates the values tie.
    """

    name: ClassVar[str] = "CONSENSUS"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
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


class QueryLexRankAxiom(_LiteratureRule, TermAxiom):
    """QLEXRANK: prefer the higher query-biased LexRank in the tf-cosine graph of the candidates and passages >_10%.

    Biased LexRank (Otterbacher et al., 2005) as an axiom, ours: p = (1 - damping) b + damping p T with
    T[u, v] = cos(u, v) / sum_v' cos(u, v') (u != v) and the bias b(u) = cos(q, u) / sum_u' cos(q, u') (nodes
    without edges jump by b); nodes: the candidates and (if any) the context passages. No node shares a term
    with the query: no preference (the walk would be query-independent). Replaces P_RANK (web PageRank in Hagen
    et al., 2016, which a text graph does not give; it had CONSENSUS's sign on nearly every pair).
    """

    name: ClassVar[str] = "QLEXRANK"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Otterbacher et al., 2005"
    margin_fraction: float = 0.1
    damping: float = 0.85
    """Share of the walk that follows the similarity edges (1 - damping: the jump to the query bias)."""
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"damping": (0.0, 1.0)}

    def reads(self) -> tuple[Reads, ...]:
        """Terms of request, responses and context passages."""
        reads, *others = super().reads()
        return (dataclasses.replace(reads, context=(TERMS,)), *others)

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(biased LexRank of each candidate); 0 where no node matches a query term."""
        n = len(docs)
        passages = ([p for c in all_contexts(request, responses) for p in c]
                    if request is not None and responses is not None else [])
        nodes = [*docs, *term_statistics(sorted(set(passages)), self.model, analysis=analysis)]
        vectors = _vectors([query, *nodes])
        bias = np.clip(vectors[1:] @ vectors[0], 0.0, None)
        if n == 0 or bias.sum() == 0:
            return np.zeros((n, n))
        ranks = pagerank(vectors[1:], self.damping, bias=bias)[:n]
        return compare(np.round(ranks, 12), True, self.margin_fraction)


def pagerank(vectors: np.ndarray, damping: float, tolerance: float = 1e-13,
             bias: np.ndarray | None = None) -> np.ndarray:
    """PageRank of the graph with edge weights cos(v_i, v_j), i != j, jumping by ``bias`` (uniform if None).

    p = (1 - damping) b + damping p T, b = bias / sum(bias); a node without edges jumps by b.
    """
    n = len(vectors)
    if n == 0:
        return np.zeros(0)
    jump = np.full(n, 1.0 / n) if bias is None else np.asarray(bias, dtype=np.float64) / np.sum(bias)
    weights = np.clip(vectors @ vectors.T, 0.0, None)
    np.fill_diagonal(weights, 0.0)
    sums = weights.sum(axis=1, keepdims=True)
    transition = np.where(sums > 0, np.divide(weights, sums, out=np.zeros_like(weights), where=sums > 0),
                          jump[None, :])
    rank = jump.copy()
    for _ in range(1000):
        updated = (1 - damping) * jump + damping * rank @ transition
        if np.abs(updated - rank).sum() < tolerance:
            return updated
        rank = updated
    return rank


LOG_TF = register(LogTfAxiom())
LNC2 = register(Lnc2Axiom())
LB2 = register(Lb2Axiom())
TDC = register(TdcAxiom())
STMC3 = register(Stmc3Axiom())
BEST_SIM = register(BestSimAxiom())
SIM_TERMS = register(SimTermsAxiom())
QPHRA = register(QphraAxiom())
CONSENSUS = register(ConsensusAxiom())
QLEXRANK = register(QueryLexRankAxiom())
ROADMAP_AXIOMS = [LOG_TF, LNC2, LB2, TDC, STMC3, BEST_SIM, SIM_TERMS, QPHRA, CONSENSUS, QLEXRANK]
"""The roadmap's retrieval axioms and ours beside them, in registration order (each also as GEN_)."""

RENAMED = {"TFC2": "LOG_TF", "TSSC1": "BEST_SIM", "TSSC2": "SIM_TERMS", "RSIM": "CONSENSUS", "P_RANK": "QLEXRANK"}
"""Deprecated short names of the axioms renamed in issue 28 (old -> new); ``get(old)`` warns and returns the new."""

_RENAMED_CLASSES = {"Tfc2Axiom": "LogTfAxiom", "Tssc1Axiom": "BestSimAxiom", "Tssc2Axiom": "SimTermsAxiom",
                    "RsimAxiom": "ConsensusAxiom", "PRankAxiom": "QueryLexRankAxiom"}

for _old, _new in RENAMED.items():
    deprecate(_old, _new)
    deprecate(f"GEN_{_old}", f"GEN_{_new}")


def __getattr__(name: str) -> object:
    """The deprecated module names (TFC2, Tfc2Axiom, ...): the renamed axiom or class, with a DeprecationWarning."""
    new = RENAMED.get(name) or _RENAMED_CLASSES.get(name)
    if new is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"{name} is deprecated: use {new} (renamed: not the literature's constraint)", DeprecationWarning,
                  stacklevel=2)
    return globals()[new]
