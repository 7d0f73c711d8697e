"""``ir_axioms.tools``: the tool objects the specification passes to axioms, as our configuration values.

An axiom built through ``compat.axiom`` turns each tool object into our parameter (``to_parameter()``): aspect
extraction into ``aspect_extraction``, a pivot selection into the reranker's ``pivot`` and ``seed``, a PyTerrier index
into ``IndexStatistics``, bound by the ``IndexBinding`` that ``bind_index`` returns to the caller.
"""

from __future__ import annotations

import contextvars
import itertools
import math
import os
from collections.abc import Collection, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, default_analysis
from ir_rag_axioms.analysis.features import TERMS
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.terms import term_statistics
from ir_rag_axioms.axioms.retrieval.statistics import IndexStatistics as _OurIndexStatistics
from ir_rag_axioms.axioms.retrieval.statistics import StatisticsSource, _given_scores
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

_T = TypeVar("_T", contravariant=True)


@runtime_checkable
class IndexStatistics(Protocol):
    """The reference's collection statistics: ``document_count``, ``document_frequency(term)`` and idf.

    Bind an implementation in ``compat.dependency_injection.injector`` (``injector.binder.bind(interface=
    IndexStatistics, to=...)``) and the compat axioms that read collection statistics (TFC3, M_TDC, LEN_M_TDC, TDC,
    LB1, ASPECT_REG) use it; ``bind_index(index)`` binds a PyTerrier index instead.
    """

    @property
    def document_count(self) -> int:
        """N, the number of documents of the collection."""
        ...

    def document_frequency(self, term: str) -> int:
        """df(t), the number of documents containing ``term``."""
        ...

    def inverse_document_frequency(self, term: str) -> float:
        """idf(t) = ln(N / df(t)); 0 where df(t) = 0 (the reference's rule)."""
        df = self.document_frequency(term)
        return 0.0 if df == 0 else math.log(self.document_count / df)


@runtime_checkable
class TextContents(Generic[_T], Protocol):
    """The text of an input or output: ``contents(input)``."""

    def contents(self, input: _T) -> str:  # noqa: A002  (the reference's keyword)
        """The text of ``input``."""
        ...


@runtime_checkable
class TermTokenizer(Protocol):
    """Terms of a text: ``terms(text)``, ``terms_unordered(text)``, ``unique_terms(text)``."""

    def terms(self, text: str) -> Sequence[str]:
        """The terms of ``text`` in order."""
        ...

    def terms_unordered(self, text: str) -> Collection[str]:
        """The terms of ``text`` (any order)."""
        return self.terms(text)

    def unique_terms(self, text: str) -> Set[str]:
        """The distinct terms of ``text``."""
        return set(self.terms(text))


class SimpleTextContents(TextContents[Any]):
    """The ``text`` attribute of a query or document (``MissingTextError`` if it was built without one)."""

    def contents(self, input: Any) -> str:  # noqa: A002  (the reference's keyword)
        """``input.text``."""
        return str(input.text)


@dataclass(frozen=True)
class SpacyTermTokenizer(TermTokenizer):
    """Our axioms' terms (lowercased lemmas without punctuation or stopwords, spaCy ``model``).

    What their statistics are looked up with, so an ``IndexStatistics`` counting these terms matches the axioms' terms.
    """

    model: str = DEFAULT_SPACY_MODEL

    def terms(self, text: str) -> Sequence[str]:
        """The terms of ``text`` in order."""
        analysis = default_analysis()
        with analysis:
            analysis.compute_features([(self.model, TERMS, text)])
            return list(term_statistics([text], self.model, analysis=analysis)[0].terms)


_SERIAL = itertools.count()


@dataclass(frozen=True)
class InjectedStatistics(StatisticsSource):
    """Our ``StatisticsSource`` over a bound reference-style ``IndexStatistics`` (idf as the bound object computes it).

    ``location`` names the binding (one per resolution): two bindings never share memoized values.
    """

    location: str
    statistics: Any = field(compare=False, repr=False, default=None)

    @classmethod
    def of(cls, statistics: Any) -> InjectedStatistics:
        """Wrap a bound ``IndexStatistics``."""
        for name in ("document_count", "document_frequency"):
            if not hasattr(statistics, name):
                raise TypeError(f"the bound IndexStatistics {type(statistics).__name__} has no {name}: it needs "
                                "document_count and document_frequency(term)")
        return cls(f"{type(statistics).__name__}#{next(_SERIAL)}", statistics)

    def idf(self, request: GenerationRequest, responses: Sequence[GenerationResponse], terms: Sequence[str],
            analysis: Analysis) -> np.ndarray:
        """The bound statistics' idf of each term (``inverse_document_frequency``, else ln(N / df), 0 where df = 0)."""
        stats = self.statistics
        if hasattr(stats, "inverse_document_frequency"):
            return np.array([float(stats.inverse_document_frequency(t)) for t in terms], dtype=np.float64)
        count = stats.document_count() if callable(stats.document_count) else stats.document_count
        dfs = [stats.document_frequency(t) for t in terms]
        return np.array([0.0 if df == 0 else math.log(count / df) for df in dfs], dtype=np.float64)

    def scores(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
               analysis: Analysis) -> np.ndarray:
        """``score`` per document (NaN where missing)."""
        return _given_scores(responses)


class Tool:
    """A tool object of the specification; ``to_parameter()`` is the value our axioms take instead."""

    parameter: str = ""
    """The keyword of our axioms that this tool configures."""

    def to_parameter(self) -> Any:
        """Our value for ``parameter``."""
        raise NotImplementedError


@dataclass(frozen=True)
class SpacyNounChunksAspectExtraction(Tool):
    """Aspects are spaCy noun chunks (lowercased): ``aspect_extraction="noun_chunks"``."""

    parameter = "aspect_extraction"

    def to_parameter(self) -> str:
        """``"noun_chunks"``."""
        return "noun_chunks"


@dataclass(frozen=True)
class SpacyEntitiesAspectExtraction(Tool):
    """Aspects are spaCy named entities: ``aspect_extraction="entities"``."""

    parameter = "aspect_extraction"

    def to_parameter(self) -> str:
        """``"entities"``."""
        return "entities"


@dataclass(frozen=True)
class MiddlePivotSelection(Tool):
    """KwikSort pivot: the middle item (deterministic): ``pivot="middle"``."""

    parameter = "pivot"

    def to_parameter(self) -> str:
        """``"middle"``."""
        return "middle"


@dataclass(frozen=True)
class RandomPivotSelection(Tool):
    """KwikSort pivot: a random item, seeded per query by ``seed``: ``pivot="random"``."""

    parameter = "pivot"
    seed: int | None = 0

    def to_parameter(self) -> str:
        """``"random"``."""
        return "random"


class IndexBinding:
    """The index statistics that ``compat.axiom`` axioms read, bound until ``close()`` (or the end of a ``with``).

    The stand-in for the reference's dependency-injection binding of ``IndexStatistics`` (TFC3, M_TDC, LEN_M_TDC,
    LB1, ASPECT_REG). The caller holds the binding: ``with bind_index(index): ...`` binds for the block; bindings
    nest (closing one restores the one before) and are per thread and per ``asyncio`` task (a context variable).
    """

    def __init__(self, statistics: _OurIndexStatistics) -> None:
        """Bind ``statistics`` in the current context now (the binding in effect before is kept to fall back to)."""
        self.statistics = statistics
        self._previous: IndexBinding | None = _BOUND.get()
        self._open = True
        _BOUND.set(self)

    @property
    def bound(self) -> bool:
        """Whether this binding is still in effect (not closed)."""
        return self._open

    def close(self) -> None:
        """Unbind: the nearest open binding made before this one (or none) is in effect again; twice does nothing.

        A closed binding is never in effect: closed out of order (the outer one first), in another thread or task,
        it is skipped wherever it is still the context's value (``in_effect``).
        """
        self._open = False
        if _BOUND.get() is self:
            _BOUND.set(in_effect(self._previous))

    def __enter__(self) -> IndexBinding:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"IndexBinding({self.statistics!r}{'' if self.bound else ', closed'})"


_BOUND: contextvars.ContextVar[IndexBinding | None] = contextvars.ContextVar("ir_rag_axioms_bound_index",
                                                                             default=None)


def in_effect(binding: IndexBinding | None) -> IndexBinding | None:
    """The binding itself if open, else the nearest open binding made before it (None if none)."""
    while binding is not None and not binding.bound:
        binding = binding._previous
    return binding


def bind_index(index: Any) -> IndexBinding | None:
    """Bind this PyTerrier index's statistics for the ``compat.axiom`` axioms that read collection statistics.

    ``index`` is a ``PisaIndex``, its folder, or a Terrier-like index; returns the ``IndexBinding`` the caller holds
    (``with bind_index(index): ...``, or ``close()`` it; ``.statistics`` is what it binds). ``None`` unbinds.
    """
    if index is None:
        current = in_effect(_BOUND.get())
        if current is not None:
            current.close()
        _BOUND.set(None)
        return None
    if isinstance(index, (str, os.PathLike)):
        folder = Path(index)
        if not folder.exists():
            raise FileNotFoundError(f"bind_index: no index at {str(folder)!r} (the path does not exist); give a "
                                    "built PISA index's folder, a PisaIndex, or a Terrier-like index")
        if not (folder / "inv.docs").is_file():
            raise ValueError(f"bind_index: {str(folder)!r} is not a built PISA index (no inv.docs in it); build it "
                             "first (PisaIndex(path).index(docs)) or give a Terrier-like index")
    return IndexBinding(_OurIndexStatistics.of(index))


def bound_index() -> _OurIndexStatistics | None:
    """The statistics of the binding in effect in this context, if any."""
    current = in_effect(_BOUND.get())
    return current.statistics if current is not None else None


TextStatistics = TextContents
"""The reference's per-text statistics tool; compat's axioms compute term statistics themselves (a name only)."""

__all__ = ["IndexBinding", "IndexStatistics", "InjectedStatistics", "MiddlePivotSelection", "RandomPivotSelection",
           "SimpleTextContents", "SpacyEntitiesAspectExtraction", "SpacyNounChunksAspectExtraction",
           "SpacyTermTokenizer", "TermTokenizer", "TextContents", "TextStatistics", "Tool", "bind_index",
           "bound_index"]
