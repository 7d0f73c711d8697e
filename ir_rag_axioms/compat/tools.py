"""``ir_axioms.tools``: the tool objects the specification passes to axioms, as our configuration values.

An axiom built through ``compat.axiom`` turns each tool object into our parameter (``to_parameter()``): aspect
extraction into ``aspect_extraction``, a pivot selection into the reranker's ``pivot`` and ``seed``, a PyTerrier index
into ``IndexStatistics``, bound by the ``IndexBinding`` that ``bind_index`` returns to the caller.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Any

from ir_rag_axioms.axioms.retrieval.statistics import IndexStatistics


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

    def __init__(self, statistics: IndexStatistics) -> None:
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
    return IndexBinding(IndexStatistics.of(index))


def bound_index() -> IndexStatistics | None:
    """The statistics of the binding in effect in this context, if any."""
    current = in_effect(_BOUND.get())
    return current.statistics if current is not None else None


__all__ = ["IndexBinding", "IndexStatistics", "MiddlePivotSelection", "RandomPivotSelection",
           "SpacyEntitiesAspectExtraction", "SpacyNounChunksAspectExtraction", "Tool", "bind_index", "bound_index"]
