"""``ir_axioms.tools``: the tool objects the specification passes to axioms, as our configuration values.

An axiom built through ``compat.axiom`` turns each tool object into our parameter (``to_parameter()``): aspect
extraction into ``aspect_extraction``, a pivot selection into the reranker's ``pivot`` and ``seed``, a PyTerrier index
into ``IndexStatistics``.
"""

from __future__ import annotations

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


_BOUND_INDEX: list[IndexStatistics] = []


def bind_index(index: Any) -> IndexStatistics:
    """Use this PyTerrier index's statistics in every ``compat.axiom`` axiom that reads collection statistics.

    The stand-in for the reference's dependency-injection binding of ``IndexStatistics`` (TFC3, M_TDC, LEN_M_TDC,
    LB1, ASPECT_REG); ``index`` is a ``PisaIndex``, its folder, or a Terrier-like index. ``None`` unbinds.
    """
    _BOUND_INDEX.clear()
    if index is None:
        return None  # type: ignore[return-value]
    statistics = IndexStatistics.of(index)
    _BOUND_INDEX.append(statistics)
    return statistics


def bound_index() -> IndexStatistics | None:
    """The statistics bound with ``bind_index``, if any."""
    return _BOUND_INDEX[0] if _BOUND_INDEX else None


__all__ = ["IndexStatistics", "MiddlePivotSelection", "RandomPivotSelection", "SpacyEntitiesAspectExtraction",
           "SpacyNounChunksAspectExtraction", "Tool", "bind_index", "bound_index"]
