"""What every judged metric shares, as DeepEval users expect: ``include_reason``, ``strict_mode``, async measuring.

``a_measure`` / ``a_measure_many`` run ``measure`` / ``measure_many`` in a worker thread; the LLM judge's
``max_concurrency`` bounds the requests in flight however many are awaited at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ir_rag_axioms.metrics.interface import Judge
from ir_rag_axioms.metrics.llm import metered
from ir_rag_axioms.metrics.results import Usage


@dataclass(frozen=True, kw_only=True)
class JudgedMetric:
    """Options of every judged metric: a written reason, a binary strict mode; async forms of the measure methods."""

    include_reason: bool = True
    """Keep a written reason in the result (AnswerRelevancy with the LLM judge asks for it: one more request)."""
    strict_mode: bool = False
    """DeepEval's strict mode: pass only on a perfect score (threshold 1, or level 5), score 1 or 0."""

    def __post_init__(self) -> None:
        for name in ("include_reason", "strict_mode"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{type(self).__name__}: {name} must be True or False, got "
                                f"{getattr(self, name)!r:.40}")

    def measure(self, *args: Any, **kwargs: Any) -> Any:
        """Score one observation (each metric defines its arguments)."""
        raise NotImplementedError

    def measure_many(self, cases: Sequence[Any]) -> list[Any]:
        """Score many observations with batched judge calls."""
        raise NotImplementedError

    async def a_measure(self, *args: Any, **kwargs: Any) -> Any:
        """``measure`` awaited: runs in a worker thread (the judge's concurrency limit holds across calls)."""
        return await asyncio.to_thread(self.measure, *args, **kwargs)

    async def a_measure_many(self, cases: Sequence[Any]) -> list[Any]:
        """``measure_many`` awaited: one batched pass in a worker thread."""
        return await asyncio.to_thread(self.measure_many, cases)


def with_usage(judge: Judge, cases: int, run: Callable[[], list[Any]]) -> tuple[list[Any], list[Usage | None]]:
    """``run()`` and the LLM judge's usage per case (None for judges that report none, e.g. the offline judge)."""
    with metered(cases) as meter:
        out = run()
    reported = judge.reports_usage
    return out, [usage if reported else None for usage in meter]


def check_text(owner: str, **values: Any) -> None:
    """TypeError naming the argument unless each value is a string."""
    for name, value in values.items():
        if not isinstance(value, str):
            raise TypeError(f"{owner}: {name} must be a string, got {type(value).__name__} {value!r:.60}")
