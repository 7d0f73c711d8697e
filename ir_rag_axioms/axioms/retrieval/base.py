"""Shared base of the retrieval axioms: ``TermAxiom``, ``StatisticsTermAxiom`` and term statistics helpers."""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, default_analysis, is_analysable
from ir_rag_axioms.analysis.features import SENTENCE_TERM_COUNTS, TERMS
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms._compare import within_margin
from ir_rag_axioms.axioms.base import Axiom, ConfigurableAxiom, Item, Reads
from ir_rag_axioms.axioms.explanation import Explanation
from ir_rag_axioms.axioms.preconditions import Precondition, apply_precondition, as_precondition, check_precondition
from ir_rag_axioms.axioms.retrieval.statistics import ContextStatistics, StatisticsSource
from ir_rag_axioms.axioms.utility import NopAxiom
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


def same_relative_tf(query: TermStatistics, docs: Sequence[TermStatistics], margin_fraction: float) -> np.ndarray:
    """M[i, j] = every query term's relative tf is equal in d_i and d_j within the margin (LNC1)."""
    tf = tf_matrix(query_terms(query), docs, relative=True)
    return np.asarray(within_margin(tf[:, None, :], tf[None, :, :], margin_fraction).all(axis=2))


def lengths(docs: Sequence[TermStatistics]) -> np.ndarray:
    """|d| (number of terms) per document."""
    return np.array([d.length for d in docs], dtype=np.float64)


def points_matrix(points: np.ndarray) -> np.ndarray:
    """sign(points[i, j] - points[j, i]) for a matrix of points that i earns against j."""
    return np.sign(points - points.T)


class TermAxiom(ConfigurableAxiom):
    """A retrieval axiom on the term statistics of the query (request text) and documents (response texts).

    The hook: ``core(query, docs, request, responses, analysis)``, the (n, n) preferences before the precondition.
    """

    needs_sentences: ClassVar[bool] = False
    """Whether the documents' sentence lengths are read (aSL)."""
    reference_skips_precondition: ClassVar[bool] = False
    """Whether the reference implementation skips this axiom's precondition (a known bug: TFC1, REG, aSL, ArgUC...)."""
    model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline of the term tokenizer."""
    precondition: Precondition | NopAxiom | None = None
    """Pairs the axiom may decide (e.g. ``LEN()``: similar length); ``None`` or ``NOP()``: all pairs."""
    reference_preconditions: bool = False
    """Skip the precondition where the reference implementation skips it (no effect on other axioms)."""

    def __post_init__(self) -> None:
        check_precondition(self.label, self.precondition)  # first: its message names what can serve
        super().__post_init__()

    @abstractmethod
    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """The (n, n) preferences before the precondition (tools read and keep their results in ``analysis``).

        ``request`` and ``responses`` are None when called through ``from_statistics`` without them; axioms that read
        them (scores, context, argument tags) need them given.
        """

    def given(self, request: GenerationRequest | None,
              responses: list[GenerationResponse] | None) -> tuple[GenerationRequest, list[GenerationResponse]]:
        """The request and responses, for a ``core`` that reads them; ValueError where from_statistics lacks them."""
        if request is None or responses is None:
            raise ValueError(f"{self.label} reads the request and responses (context, scores or argument units): "
                             "pass them to from_statistics(query, docs, request, responses)")
        return request, responses

    def active_precondition(self) -> Precondition | None:
        """The precondition that is applied (none in reference mode for the axioms where the reference skips it)."""
        if self.reference_preconditions and self.reference_skips_precondition:
            return None
        return as_precondition(self.precondition)

    def reads(self) -> tuple[Reads, ...]:
        """Terms of the request and responses (and the responses' sentence lengths if needed)."""
        documents = (TERMS, SENTENCE_TERM_COUNTS) if self.needs_sentences else (TERMS,)
        return (Reads(self.model, request=(TERMS,), responses=documents), *self._precondition_axiom().reads())

    def _precondition_axiom(self) -> Axiom:
        """The axiom behind an ``axiom.as_precondition()`` precondition (NOP otherwise), read and prefetched too."""
        from ir_rag_axioms.axioms.preconditions import AxiomPrecondition

        condition = self.active_precondition()
        return condition.axiom if isinstance(condition, AxiomPrecondition) else NopAxiom()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """The precondition axiom's batched work, if any."""
        self._precondition_axiom().prefetch(items, analysis)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """core() masked by the precondition; unanalysable (blank) responses abstain."""
        (query,) = term_statistics([request.text], self.model, analysis=analysis)
        docs = term_statistics([r.text for r in responses], self.model, self.needs_sentences, analysis=analysis)
        prefs = self.from_statistics(query, docs, request, responses, analysis)
        ok = np.array([is_analysable(r.text) for r in responses], dtype=bool)
        return prefs * (ok[:, None] & ok[None, :]) + 0.0

    def from_statistics(self, query: TermStatistics, docs: list[TermStatistics],
                        request: GenerationRequest | None = None,
                        responses: list[GenerationResponse] | None = None,
                        analysis: Analysis | None = None) -> np.ndarray:
        """core() masked by the active precondition, zero diagonal (for given term statistics).

        ``analysis``: where tools (similarities, statistics, taggers) keep their results; default: the process
        default analysis (this is an entry point, like ``preferences``).
        """
        analysis = default_analysis() if analysis is None else analysis
        prefs = np.asarray(self.core(query, list(docs), request, responses, analysis), dtype=np.float64).copy()
        prefs = apply_precondition(prefs, self.active_precondition(), query, docs, request, responses, analysis)
        np.fill_diagonal(prefs, 0.0)
        return prefs + 0.0

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The matrix entry, whether the precondition holds, and the preference before it; blank responses abstain."""
        out = super().explain_pairs(request, responses, pairs, analysis)
        (query,) = term_statistics([request.text], self.model, analysis=analysis)
        docs = term_statistics([r.text for r in responses], self.model, self.needs_sentences, analysis=analysis)
        precondition = self.active_precondition()
        mask = precondition.mask(query, docs, request, responses, analysis) if precondition is not None else None
        core = np.asarray(self.core(query, list(docs), request, responses, analysis), dtype=np.float64)
        terms = query_terms(query)
        explained = []
        for e, (i, j) in zip(out, pairs, strict=True):
            blank = [r.id for r in (responses[i], responses[j]) if not is_analysable(r.text)]
            details = {"terms": (docs[i].length, docs[j].length)}
            explained.append(dataclasses.replace(
                e, precondition=None if mask is None else bool(mask[i, j]),
                abstention="; ".join(f"{rid}: blank or over-long response" for rid in blank) or None,
                details=details,
                note=f"query terms: {', '.join(terms) or '(none)'}; before the precondition "
                     f"{precondition!r}: {core[i, j]:+.0f}" if precondition is not None else
                     f"query terms: {', '.join(terms) or '(none)'}"))
        return explained


class StatisticsTermAxiom(TermAxiom):
    """A term axiom that reads collection statistics or retrieval scores from a ``StatisticsSource``."""

    statistics: StatisticsSource = ContextStatistics()
    """idf and scores: the request's context passages by default; ``FixedStatistics`` for an index's."""

    def reads(self) -> tuple[Reads, ...]:
        """Terms of request and responses, and of the context passages when the statistics come from them."""
        reads, *others = super().reads()
        if isinstance(self.statistics, ContextStatistics):
            reads = dataclasses.replace(reads, context=(TERMS,))
        return (reads, *others)
