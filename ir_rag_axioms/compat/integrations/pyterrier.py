"""``ir_axioms.integrations.pyterrier``: ``KwikSortReranker`` and the experiment, on our transformers."""

from __future__ import annotations

from typing import Any

from ir_rag_axioms.aggregation import Pivot
from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.compat.tools import MiddlePivotSelection, RandomPivotSelection, Tool
from ir_rag_axioms.evaluation.experiment import AxiomaticExperiment
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomaticReranker


def _pivot(pivot_selection: Tool | None) -> tuple[Pivot, int | None]:
    """Our ``pivot`` and ``seed`` for a pivot-selection tool (default: random, seed 0, as the specification)."""
    pivot = RandomPivotSelection() if pivot_selection is None else pivot_selection
    if not isinstance(pivot, (MiddlePivotSelection, RandomPivotSelection)):
        raise TypeError(f"pivot_selection must be MiddlePivotSelection() or RandomPivotSelection(), got {pivot!r}")
    return ("random" if isinstance(pivot, RandomPivotSelection) else "middle",
            pivot.seed if isinstance(pivot, RandomPivotSelection) else 0)


def KwikSortReranker(  # noqa: N802  (the specification's class name)
    axiom: Axiom, pivot_selection: Tool | None = None, verbose: bool = False, **options: Any,
) -> AxiomaticReranker:
    """KwikSort by one axiom: ``AxiomaticReranker(axiom, aggregation="kwiksort", pivot=...)``.

    The default pivot is the specification's, a random one (seeded per query: ``RandomPivotSelection(seed=0)``).
    """
    chosen, seed = _pivot(pivot_selection)
    return AxiomaticReranker(axiom, aggregation="kwiksort", pivot=chosen, seed=seed, verbose=verbose,
                             **options)


def EstimatorKwikSortReranker(  # noqa: N802  (the specification's class name)
    axioms: Any, estimator: Any = None, pivot_selection: Tool | None = None, verbose: bool = False, **options: Any,
) -> Any:
    """``LearnedReranker(axioms, estimator, aggregation="kwiksort")``: ``fit(topics, qrels)``, then rerank.

    The default pivot is the specification's, a random one (seeded per query: ``RandomPivotSelection(seed=0)``).
    """
    from ir_rag_axioms.pyterrier.learned import LearnedReranker

    chosen, seed = _pivot(pivot_selection)
    return LearnedReranker(list(axioms), estimator, aggregation="kwiksort", pivot=chosen, seed=seed, verbose=verbose,
                           **options)


__all__ = ["AxiomaticExperiment", "AxiomaticPreferences", "AxiomaticReranker", "EstimatorKwikSortReranker",
           "KwikSortReranker"]
