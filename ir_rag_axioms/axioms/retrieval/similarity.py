"""Term similarity axioms STMC1 and STMC2."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.similarity import TermSimilarity, WordNetTermSimilarity
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms.base import Item, compare, within_margin
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import TermAxiom, query_terms
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class Stmc1Axiom(TermAxiom):
    """STMC1: prefer the higher mean similarity of query terms and document terms.

    sim(t, t') over distinct query terms t and distinct document terms t' [Fang and Zhai, 2006].
    """

    name: ClassVar[str] = "STMC1"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang and Zhai, 2006"
    similarity: TermSimilarity = WordNetTermSimilarity()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Prepare all query and document terms at once."""
        TermAxiom.prefetch(self, items, analysis)  # not super(): STMC2 borrows this method
        terms: set[str] = set()
        for request, responses in items:
            terms.update(term_statistics([request.text], self.model, analysis=analysis)[0].terms)
            for d in term_statistics([r.text for r in responses], self.model, analysis=analysis):
                terms.update(d.vocabulary)
        self.similarity.prefetch(sorted(terms), analysis)

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(mean similarity)."""
        terms = query_terms(query)
        vocabulary = sorted(set().union(*(d.vocabulary for d in docs))) if docs else []
        index = {t: i for i, t in enumerate(vocabulary)}
        sims = self.similarity.matrix(terms, vocabulary, analysis) if terms else np.zeros((0, len(vocabulary)))
        values = []
        for d in docs:
            columns = [index[t] for t in d.vocabulary]
            values.append(float(sims[:, columns].mean()) if terms and columns else 0.0)
        return compare(np.array(values))


class Stmc2Axiom(TermAxiom):
    """STMC2: prefer the document whose length ratio matches the tf ratio of the most similar term pair.

    For the most similar (query term t, non-query term t') pair(s) of both documents, prefer d1 if |d2| / |d1| ~
    tf(t', d2) / tf(t, d1) for all (equivalently: tf(t', d2) / |d2| ~ tf(t, d1) / |d1|, as documented)
    [Fang and Zhai, 2006].
    """

    name: ClassVar[str] = "STMC2"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Fang and Zhai, 2006"
    margin_fraction: float = 0.2
    similarity: TermSimilarity = WordNetTermSimilarity()
    reference_asymmetry: bool = False
    """Return the reference's raw answer per ordered pair (not antisymmetric; its diagonal may be 1, ours stays 0)."""
    reference_relative_tf: bool = False
    """Compare |d2| / |d1| with the ratio of *relative* frequencies (tf / |d|), as the reference does: it divides by
    the lengths twice, so in effect (|d2| / |d1|)^2 ~ tf(t', d2) / tf(t, d1) (a bug; 100 % of its GEN_STMC2 entries)."""

    prefetch = Stmc1Axiom.prefetch

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """Per pair: the reference's first-applicable rule (reference_asymmetry), else rule(i, j) - rule(j, i).

        The antisymmetric default prefers d1 only where the rule holds for (d1, d2) and not for (d2, d1): two
        responses for which it holds both ways (identical texts, say) tie, whichever comes first.
        """
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
                forward, backward = self._rule(terms, qset, docs[i], docs[j], analysis)
                if self.reference_asymmetry:  # the reference's first applicable rule, per ordered pair
                    prefs[i, j] = 1.0 if forward else -1.0 if backward else 0.0
                else:
                    prefs[i, j] = float(forward) - float(backward)
        if not self.reference_asymmetry:
            prefs = prefs - prefs.T
        return prefs

    def _rule(self, terms: list[str], qset: set[str], d1: TermStatistics, d2: TermStatistics,
              analysis: Analysis) -> tuple[bool, bool]:
        """Whether the rule prefers d1 over d2, and whether it prefers d2 over d1."""
        others = sorted((d1.vocabulary | d2.vocabulary) - qset)
        if not others or not d1.length or not d2.length:
            return False, False
        sims = self.similarity.matrix(terms, others, analysis)
        best = np.flatnonzero(np.isclose(sims.ravel(), sims.max(), rtol=1e-9, atol=1e-12))
        pairs = [(terms[k // len(others)], others[k % len(others)]) for k in best]
        m = self.margin_fraction
        # tf(t', d2) / tf(t, d1) is compared with |d2| / |d1|; the reference divides each tf by its length first.
        scale1, scale2 = (d1.length, d2.length) if self.reference_relative_tf else (1, 1)

        def similar(x: float, y: float) -> bool:
            return bool(within_margin(x, y, m))

        def ratio(tf_other: int, scale_other: int, tf_query: int, scale_query: int) -> float:
            return (tf_other / scale_other) / (tf_query / scale_query)

        forward = all(d1.tf(t) and similar(d2.length / d1.length, ratio(d2.tf(o), scale2, d1.tf(t), scale1))
                      for t, o in pairs)
        backward = all(d2.tf(t) and similar(d1.length / d2.length, ratio(d1.tf(o), scale1, d2.tf(t), scale2))
                       for t, o in pairs)
        return forward, backward


STMC1 = register(Stmc1Axiom())
STMC2 = register(Stmc2Axiom())
