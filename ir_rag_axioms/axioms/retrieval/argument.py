"""Argumentativeness axioms ArgUC, QTArg, QTPArg behind a small argument tagger interface (no tagger: clear error)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, is_analysable, memo_key
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.analysis.text import term_tokens
from ir_rag_axioms.axioms.base import Item, compare
from ir_rag_axioms.axioms.preconditions import LEN, Precondition
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.axioms.retrieval.base import TermAxiom, query_terms
from ir_rag_axioms.axioms.utility import NopAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

Span = tuple[int, int]
"""A character span [start, end) of an argumentative unit (claim or premise)."""


class ArgumentTagger(ABC):
    """Finds argumentative units (claims, premises) in texts, e.g. a TARGER client or a local model."""

    @abstractmethod
    def units(self, texts: Sequence[str]) -> list[list[Span]]:
        """Character spans of the argumentative units of each text (one batch call for all texts)."""


@dataclass(frozen=True)
class FunctionTagger(ArgumentTagger):
    """Wraps a function ``text -> list of (start, end)`` character spans as an ``ArgumentTagger``."""

    function: Callable[[str], Sequence[Span]]

    def units(self, texts: Sequence[str]) -> list[list[Span]]:
        """Apply the function to each text."""
        return [[(int(a), int(b)) for a, b in self.function(text)] for text in texts]


_NO_TAGGER = (
    "{name} needs an argument tagger, and none is configured. Pass one that finds claims and premises, "
    "e.g. {name}(tagger=FunctionTagger(my_function)) where my_function(text) returns (start, end) character "
    "spans, or implement ir_rag_axioms.axioms.retrieval.argument.ArgumentTagger (e.g. a TARGER client)."
)


@dataclass(frozen=True, eq=False)
class ArgumentFeatures:
    """Per text: number of units and, per term, the positions (term indices) of its occurrences inside units."""

    unit_count: int
    positions: dict[str, list[int]]


class _ArgumentAxiom(TermAxiom):
    """Shared: tag all texts once per tagger, map units to term positions; LEN precondition."""

    tagger: ArgumentTagger | None = None
    precondition: Precondition | NopAxiom | None = LEN()
    reference_skips_precondition: ClassVar[bool] = True

    def _require_tagger(self) -> ArgumentTagger:
        if self.tagger is None:
            raise ToolUnavailableError(_NO_TAGGER.format(name=self.label))
        return self.tagger

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Terms in one spaCy pass, then one tagger call for all unseen texts."""
        tagger = self._require_tagger()
        super().prefetch(items, analysis)
        texts = list(dict.fromkeys(r.text for _, rs in items for r in rs if is_analysable(r.text)))
        key = memo_key("argument_units", tagger)
        todo = [t for t in texts if not analysis.has(t, key)]
        if todo:
            for text, spans in zip(todo, tagger.units(todo), strict=True):
                analysis.memo(text, key, partial(tuple, spans))

    def features(self, text: str, analysis: Analysis) -> ArgumentFeatures:
        """Unit count and in-unit term positions of one text (kept in ``analysis``)."""
        tagger = self._require_tagger()
        if not is_analysable(text):
            return ArgumentFeatures(0, {})

        def compute() -> ArgumentFeatures:
            spans = analysis.memo(text, memo_key("argument_units", tagger), lambda: tuple(tagger.units([text])[0]))
            (doc,) = analysis.parse([text], self.model, ["lemmas"])
            positions: dict[str, list[int]] = {}
            for index, token in enumerate(term_tokens(doc)):
                if any(a <= token.idx < b for a, b in spans):
                    positions.setdefault(token.lemma_.lower(), []).append(index)
            return ArgumentFeatures(len(spans), positions)

        return analysis.memo(text, memo_key("argument_features", tagger, self.model), compute)


class ArgumentativeUnitsCountAxiom(_ArgumentAxiom):
    """ArgUC: prefer the document with more argumentative units [Bondarenko et al., 2022]."""

    name: ClassVar[str] = "ArgUC"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Bondarenko et al., 2022"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(#units)."""
        request, responses = self.given(request, responses)
        return compare(np.array([self.features(r.text, analysis).unit_count for r in responses], dtype=np.float64))


class QueryTermOccurrenceInArgumentativeUnitsAxiom(_ArgumentAxiom):
    """QTArg: prefer more occurrences of query terms inside argumentative units [Bondarenko et al., 2022]."""

    name: ClassVar[str] = "QTArg"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Bondarenko et al., 2022"

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """compare(sum_t #occurrences of t in units)."""
        request, responses = self.given(request, responses)
        terms = query_terms(query)
        values = [sum(len(self.features(r.text, analysis).positions.get(t, ())) for t in terms) for r in responses]
        return compare(np.array(values, dtype=np.float64))


class QueryTermPositionInArgumentativeUnitsAxiom(_ArgumentAxiom):
    """QTPArg: prefer the smaller mean over query terms of the first in-unit position (penalty if not in a unit).

    [Bondarenko et al., 2022]
    """

    name: ClassVar[str] = "QTPArg"
    dimension: ClassVar[str] = "retrieval"
    citation: ClassVar[str] = "Bondarenko et al., 2022"
    penalty: float | None = 100000
    """Position of a query term that occurs in no unit; None = the longer document's length in the pair."""

    def core(self, query: TermStatistics, docs: list[TermStatistics], request: GenerationRequest | None,
             responses: list[GenerationResponse] | None, analysis: Analysis) -> np.ndarray:
        """-sign(mean_i - mean_j), with a per-pair penalty when ``penalty`` is None."""
        request, responses = self.given(request, responses)
        terms = query_terms(query)
        n = len(responses)
        if not terms:
            return np.zeros((n, n))
        found_sum = np.zeros(n)
        missing = np.zeros(n)
        for i, r in enumerate(responses):
            positions = self.features(r.text, analysis).positions
            for t in terms:
                if t in positions:
                    found_sum[i] += positions[t][0]
                else:
                    missing[i] += 1
        length = np.array([d.length for d in docs], dtype=np.float64)
        penalty = (np.maximum(length[:, None], length[None, :]) if self.penalty is None
                   else np.full((n, n), float(self.penalty)))
        mean_i = (found_sum[:, None] + missing[:, None] * penalty) / len(terms)
        mean_j = (found_sum[None, :] + missing[None, :] * penalty) / len(terms)
        return np.sign(mean_j - mean_i)


ArgUC = register(ArgumentativeUnitsCountAxiom())
QTArg = register(QueryTermOccurrenceInArgumentativeUnitsAxiom())
QTPArg = register(QueryTermPositionInArgumentativeUnitsAxiom())
ARGUMENT_AXIOMS = [ArgUC, QTArg, QTPArg]
