"""Query aspect axioms REG, ANTI-REG, ASPECT-REG, AND, LEN-AND, M-AND, LEN-M-AND, DIV and LEN-DIV."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.similarity import TermSimilarity, WordNetTermSimilarity
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms.base import Item, compare, within_margin
from ir_rag_axioms.axioms.preconditions import LEN, Precondition
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import StatisticsTermAxiom, TermAxiom, query_terms, tf_matrix
from ir_rag_axioms.axioms.utility import NopAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class RegAxiom(TermAxiom):
    """REG: prefer more occurrences (relative tf) of the query term(s) least similar on average to all query terms.

    [Zheng and Fang, 2010]
    """

    name: ClassVar[str] = "REG"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Zheng and Fang, 2010"
    anti: ClassVar[bool] = False
    precondition: Precondition | NopAxiom | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True
    similarity: TermSimilarity = WordNetTermSimilarity()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Prepare (e.g. embed) the query terms."""
        super().prefetch(items, analysis)
        queries = [term_statistics([request.text], self.model, analysis=analysis)[0] for request, _ in items]
        self.similarity.prefetch([t for query in queries for t in query_terms(query)], analysis)

    def aspect_terms(self, query: TermStatistics, analysis: Analysis) -> list[str]:
        """The query terms with minimal (ANTI-REG: maximal) mean similarity to all query terms, itself included."""
        terms = query_terms(query)
        if not terms:
            return []
        mean = self.similarity.matrix(terms, terms, analysis).mean(axis=1)
        target = mean.max() if self.anti else mean.min()
        return [t for t, m in zip(terms, mean, strict=True) if np.isclose(m, target, rtol=1e-9, atol=1e-12)]

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """+1 if d_i has a higher tf(t, d) / |d| than d_j for every such term t, -1 if lower for every one, else 0."""
        terms = self.aspect_terms(query, analysis)
        n = len(docs)
        if not terms:
            return np.zeros((n, n))
        tf = tf_matrix(terms, docs, relative=True)
        higher = (tf[:, None, :] > tf[None, :, :]).all(axis=2)
        return np.asarray(higher.astype(np.float64) - higher.T, dtype=np.float64)


class AntiRegAxiom(RegAxiom):
    """ANTI-REG: as REG, for the query term most similar on average to the query terms [Hagen et al., 2016]."""

    name: ClassVar[str] = "ANTI_REG"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Hagen et al., 2016"
    anti: ClassVar[bool] = True


class AspectRegAxiom(StatisticsTermAxiom):
    """ASPECT_REG: with equally discriminative query terms, prefer the document covering more query aspects.

    Aspects (Zheng and Fang 2010): the connected groups of query terms with similarity >= ``aspect_similarity``;
    applies only if all query term idfs are within ``margin_fraction`` of each other (else no preference)
    [Zheng and Fang, 2010].
    """

    name: ClassVar[str] = "ASPECT_REG"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Zheng and Fang, 2010"
    margin_fraction: float = 0.1
    """Relative margin within which the query terms' idfs count as equal."""
    aspect_similarity: float = 0.5
    """Term similarity from which two query terms belong to the same aspect."""
    similarity: TermSimilarity = WordNetTermSimilarity()
    ranges: ClassVar[dict[str, tuple[float, float]]] = {"margin_fraction": (0.0, float("inf")),
                                                        "aspect_similarity": (0.0, 1.0)}

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Prepare (e.g. embed) the query terms."""
        super().prefetch(items, analysis)
        queries = [term_statistics([request.text], self.model, analysis=analysis)[0] for request, _ in items]
        self.similarity.prefetch([t for query in queries for t in query_terms(query)], analysis)

    def aspects(self, terms: list[str], analysis: Analysis) -> list[list[str]]:
        """The query aspects: connected components of the graph of term pairs with similarity >= the threshold."""
        linked = self.similarity.matrix(terms, terms, analysis) >= self.aspect_similarity
        group = list(range(len(terms)))

        def root(i: int) -> int:
            while group[i] != i:
                i = group[i]
            return i

        for i, j in zip(*np.nonzero(linked), strict=True):
            group[root(int(i))] = root(int(j))
        found: dict[int, list[str]] = {}
        for i, term in enumerate(terms):
            found.setdefault(root(i), []).append(term)
        return list(found.values())

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(number of aspects with a term in d) if the idfs are equal within the margin, else 0."""
        terms = query_terms(query)
        n = len(docs)
        if len(terms) < 2:
            return np.zeros((n, n))
        idf = self.statistics.idf(request, responses, terms, analysis)  # type: ignore[arg-type]  # FixedStatistics reads neither
        if not within_margin(idf.max(), idf.min(), self.margin_fraction):
            return np.zeros((n, n))
        present = tf_matrix(terms, docs, relative=False) > 0
        index = {t: k for k, t in enumerate(terms)}
        aspects = self.aspects(terms, analysis)
        covered = [sum(any(present[d, index[t]] for t in aspect) for aspect in aspects) for d in range(n)]
        return compare(np.array(covered, dtype=np.float64))


class AndAxiom(TermAxiom):
    """AND: prefer the document that contains all query terms [Wu and Fang, 2012]."""

    name: ClassVar[str] = "AND"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Wu and Fang, 2012"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare([all query terms in d])."""
        present = tf_matrix(query_terms(query), docs, relative=False) > 0
        return compare(present.all(axis=1).astype(np.float64))


class LenAndAxiom(AndAxiom):
    """LEN-AND: AND with the LEN precondition [Wu and Fang, 2012]."""

    name: ClassVar[str] = "LEN_AND"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Wu and Fang, 2012"
    precondition: Precondition | NopAxiom | None = LEN()


class ModifiedAndAxiom(TermAxiom):
    """M-AND: prefer the document that contains more distinct query terms [Wu and Fang, 2012]."""

    name: ClassVar[str] = "M_AND"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Wu and Fang, 2012"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(|q & d|)."""
        present = tf_matrix(query_terms(query), docs, relative=False) > 0
        return compare(present.sum(axis=1).astype(np.float64))


class LenModifiedAndAxiom(ModifiedAndAxiom):
    """LEN-M-AND: M-AND with the LEN precondition [Wu and Fang, 2012]."""

    name: ClassVar[str] = "LEN_M_AND"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Wu and Fang, 2012"
    precondition: Precondition | NopAxiom | None = LEN()


class DivAxiom(TermAxiom):
    """DIV: prefer the lower vocabulary overlap with the query, Jaccard |q & d| / |q | d|.

    [Gollapudi and Sharma, 2009]
    """

    name: ClassVar[str] = "DIV"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Gollapudi and Sharma, 2009"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(jaccard, lower is better)."""
        q = set(query_terms(query))
        values = [len(q & d.vocabulary) / len(q | d.vocabulary) if q | d.vocabulary else 0.0 for d in docs]
        return compare(np.array(values, dtype=np.float64), higher_is_better=False)


class LenDivAxiom(DivAxiom):
    """LEN-DIV: DIV with the LEN precondition [Gollapudi and Sharma, 2009]."""

    name: ClassVar[str] = "LEN_DIV"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Gollapudi and Sharma, 2009"
    precondition: Precondition | NopAxiom | None = LEN()


REG = register(RegAxiom())
ANTI_REG = register(AntiRegAxiom())
ASPECT_REG = register(AspectRegAxiom())
AND = register(AndAxiom())
LEN_AND = register(LenAndAxiom())
M_AND = register(ModifiedAndAxiom())
LEN_M_AND = register(LenModifiedAndAxiom())
DIV = register(DivAxiom())
LEN_DIV = register(LenDivAxiom())
