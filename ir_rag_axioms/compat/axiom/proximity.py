"""PROX4 as the reference counts its groupings (compat's ``PROX4``); ours counts minimal windows."""

from __future__ import annotations

import bisect
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms.retrieval.proximity import Prox4Axiom


def _closest(positions: np.ndarray, target: int) -> int:
    """The position closest to ``target``; of two equally close, the earlier one."""
    at = bisect.bisect_left(positions.tolist(), target)
    if at == 0:
        return int(positions[0])
    if at == len(positions):
        return int(positions[-1])
    before, after = int(positions[at - 1]), int(positions[at])
    return after if after - target < target - before else before


def closest_groupings(doc: TermStatistics, terms: list[str]) -> list[tuple[int, ...]]:
    """One grouping per occurrence of each query term: its position and the closest position of every other term."""
    groups = []
    for term in terms:
        others = [doc.positions[o] for o in terms if o != term and o in doc.positions]
        for position in doc.positions.get(term, ()):
            groups.append((int(position), *(_closest(p, int(position)) for p in others)))
    return groups


class ReferenceProx4Axiom(Prox4Axiom):
    """PROX4 as the reference counts it: one closest grouping per query-term occurrence.

    For each occurrence of a query term, the grouping of it and the closest occurrence of every other query term
    (in either direction; ties: the earlier); its gap is the number of non-query terms inside. Prefer the smaller
    smallest gap, then more groupings with that gap. Both documents contain all query terms [Hagen et al., 2016].
    """

    name: ClassVar[str | None] = None  # type: ignore[assignment]  # not registered: its repr is its class name, apart from our PROX4

    def omega(self, doc: TermStatistics, terms: list[str]) -> tuple[int, int]:
        """(gap, count): the fewest non-query terms inside a closest grouping, and how many groupings have it."""
        wanted = set(terms)
        gaps = [sum(1 for t in doc.terms[min(g) + 1:max(g)] if t not in wanted) for g in closest_groupings(doc, terms)]
        if not gaps:
            return (np.iinfo(np.int64).max, 0)
        gap = min(gaps)
        return gap, gaps.count(gap)


__all__ = ["ReferenceProx4Axiom", "closest_groupings"]
