"""A pytest plugin (entry point ``pytest11``): the ``rag_assert`` fixture and a summary of the metrics it measured.

``def test_answer(rag_assert): rag_assert(RagTestCase(...), [AnswerRelevancy(), Faithfulness()])`` fails like
``assert_test``; after the run, pytest prints each metric's pass count and mean score. Loading the plugin imports
nothing heavy: the metrics load when a test uses the fixture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import pytest

_RESULTS = pytest.StashKey[list[Any]]()


@pytest.fixture()
def rag_assert(request: pytest.FixtureRequest) -> Callable[..., list[Any]]:
    """``assert_test`` that also records every result for the end-of-run summary."""
    from ir_rag_axioms.metrics.assertions import check_test

    store = request.config.stash.setdefault(_RESULTS, [])

    def check(case: Any, metrics: Sequence[Any]) -> list[Any]:
        results, message = check_test(case, metrics)
        store.extend(results)
        if message is not None:
            raise AssertionError(message)
        return results

    return check


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """One line per metric the ``rag_assert`` fixture measured: passed / measured and the mean defined score."""
    results = config.stash.get(_RESULTS, [])
    if not results:
        return
    terminalreporter.section("ir_rag_axioms metrics")
    by_metric: dict[str, list[Any]] = {}
    for result in results:
        by_metric.setdefault(getattr(result, "metric", "answer_relevancy"), []).append(result)
    for name, found in by_metric.items():
        scores = [r.score for r in found if not math.isnan(r.score)]
        mean = f"{sum(scores) / len(scores):.3f}" if scores else "undefined"
        passed = sum(r.passed is True for r in found)
        terminalreporter.write_line(f"{name}: {passed}/{len(found)} passed, mean score {mean}")
