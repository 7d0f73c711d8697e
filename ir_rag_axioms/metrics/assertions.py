"""Metrics in a RAG team's own test suite as DeepEval's: a test case, ``assert_test`` and ``assert_metric``.

``assert_test(case, metrics)`` measures every metric on the case and fails with one ``AssertionError`` that lists
each failing metric with its score, threshold and reason; an undefined score (NaN) fails and says why.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ir_rag_axioms.metrics.contextual import ContextualPrecision, ContextualRecall
from ir_rag_axioms.metrics.dataset import MetricEvaluationResult, check_listed
from ir_rag_axioms.metrics.metrics import AnswerRelevancy, ContextRecall, Faithfulness, RubricAnswerRelevancy
from ir_rag_axioms.metrics.results import AnswerRelevancyResult, ContextualResult, RubricResult

Result = AnswerRelevancyResult | RubricResult | ContextualResult
"""What a metric's ``measure`` returns."""
METRICS = (AnswerRelevancy, Faithfulness, ContextRecall, RubricAnswerRelevancy, ContextualRecall, ContextualPrecision)
"""The metrics a test case can be measured with."""


@dataclass(frozen=True)
class RagTestCase:
    """One observation to test, with DeepEval's field names: the question, the answer, the retrieved passages.

    Positional arguments keep this order (``expected_output`` came last); DeepEval's are best passed by name.
    """

    input: str  # noqa: A003  (DeepEval's field name)
    actual_output: str
    retrieval_context: Sequence[str] | None = None
    """The passages the answer was generated from (Faithfulness; ContextRecall without ``reference``)."""
    reference: str | Sequence[str] | None = None
    """The reference facts ContextRecall looks for in the answer (default: the retrieval context)."""
    name: str | None = None
    """Shown in failure messages."""
    expected_output: str | None = None
    """The reference answer (DeepEval's ``expected_output``): ContextualRecall and ContextualPrecision judge the
    retrieval context by it."""

    def __post_init__(self) -> None:
        for field in ("input", "actual_output", "expected_output"):  # expected_output may be None
            value = getattr(self, field)
            if not isinstance(value, str) and not (field == "expected_output" and value is None):
                raise TypeError(f"RagTestCase: {field} must be a string, got {type(value).__name__}")
        if isinstance(self.retrieval_context, str):
            raise TypeError("RagTestCase: retrieval_context must be a list of passages, not one string")
        if self.retrieval_context is not None:  # a set would be read in hash order
            check_listed(self.retrieval_context, "RagTestCase: retrieval_context must be a list of passages")
        if self.reference is not None and not isinstance(self.reference, str):
            check_listed(self.reference, "RagTestCase: reference must be a text or a list of facts")


def measure(case: RagTestCase, metric: Any) -> Result:
    """The metric's result on the case: each metric reads the fields it needs (ValueError if one is None).

    A field given empty (``retrieval_context=[]``) is read: the metric is undefined (NaN) and the assertion fails.
    """
    if isinstance(metric, AnswerRelevancy | RubricAnswerRelevancy):
        return metric.measure(case.input, case.actual_output)
    if isinstance(metric, Faithfulness):
        if case.retrieval_context is None:  # an empty list is given: undefined (NaN) fails and says why
            raise ValueError(f"{_label(case)}: Faithfulness needs the case's retrieval_context")
        return metric.measure(case.actual_output, list(case.retrieval_context))
    if isinstance(metric, ContextRecall):
        reference = case.reference if case.reference is not None else case.retrieval_context
        if reference is None:
            raise ValueError(f"{_label(case)}: ContextRecall needs the case's reference (or retrieval_context)")
        return metric.measure(case.actual_output, reference if isinstance(reference, str) else list(reference))
    if isinstance(metric, ContextualRecall | ContextualPrecision):
        name = type(metric).__name__
        missing = [f for f, value in (("expected_output", case.expected_output),
                                      ("retrieval_context", case.retrieval_context)) if value is None]
        if missing:
            raise ValueError(f"{_label(case)}: {name} needs the case's {' and '.join(missing)}")
        context = list(case.retrieval_context or ())
        if isinstance(metric, ContextualRecall):
            return metric.measure(case.expected_output or "", context)
        return metric.measure(case.input, case.expected_output or "", context)
    raise TypeError(f"assert_test: {metric!r:.80} is not a metric of ir_rag_axioms.metrics (AnswerRelevancy, "
                    "Faithfulness, ContextRecall, RubricAnswerRelevancy, ContextualRecall, ContextualPrecision)")


def failure(result: Result | MetricEvaluationResult) -> str | None:
    """Why a result fails (score, threshold, reason), or None if it passed.

    ``execute()``'s result is read through its ``signals``, the metric's own result.
    """
    result = result.signals if isinstance(result, MetricEvaluationResult) else result
    if result.passed:
        return None
    name = getattr(result, "metric", "answer_relevancy")
    reason = result.reason or result.explanation
    if math.isnan(result.score):
        return f"{name}: undefined score (NaN) - {reason}"
    if isinstance(result, RubricResult):
        shown = f"{name}: score {result.score:.2f} (level {result.level}/5)"
        if result.negated:  # a negated metric passes below the threshold: it failed by reaching it
            return (f"{shown} at or above threshold {result.threshold:g}, and the metric is negated: it passes only "
                    f"below the threshold (judge {result.judge}) - {reason}")
        return f"{shown} below threshold {result.threshold:g} (judge {result.judge}) - {reason}"
    return f"{name}: score {result.score:.2f} below threshold {result.threshold:g} (judge {result.judge}) - {reason}"


def assert_metric(result: Result | MetricEvaluationResult, name: str | None = None
                  ) -> Result | MetricEvaluationResult:
    """Fail (AssertionError with the score, threshold and reason) unless the result passed; return it.

    ``result``: what ``metric.measure(...)`` returns, or ``await metric.execute(item)``.
    """
    if not hasattr(result, "passed") or not hasattr(result, "score"):
        raise TypeError(f"assert_metric: result must be a metric's result (metric.measure(...) or "
                        f"metric.execute(item)), got {type(result).__name__} {result!r:.60}")
    why = failure(result)
    if why is not None:
        raise AssertionError(f"{name}: {why}" if name else why)
    return result


def check_test(case: RagTestCase, metrics: Sequence[Any] | Any) -> tuple[list[Result], str | None]:
    """Every metric's result on the case, and the failure message listing each failing metric (None if all pass).

    ``metrics``: a list of metrics, or one metric.
    """
    if not isinstance(case, RagTestCase):
        raise TypeError(f"assert_test: case must be a RagTestCase, got {type(case).__name__}")
    if isinstance(metrics, METRICS):  # one metric, as assert_test(case, Faithfulness()) reads
        metrics = [metrics]
    if isinstance(metrics, str) or not isinstance(metrics, Iterable):
        raise TypeError(f"assert_test: metrics must be a metric or a list of metrics, got {type(metrics).__name__}")
    metrics = list(metrics)
    if not metrics:
        raise TypeError("assert_test: metrics must be a metric or a non-empty list of metrics, got an empty list")
    results = [measure(case, metric) for metric in metrics]
    failed = [why for why in map(failure, results) if why is not None]
    message = (f"{_label(case)}: {len(failed)} of {len(results)} metrics failed:\n  " + "\n  ".join(failed)
               if failed else None)
    return results, message


def assert_test(case: RagTestCase, metrics: Sequence[Any] | Any) -> list[Result]:
    """Measure every metric (a list, or one metric) on the case; fail once, listing every failing one; return them."""
    results, message = check_test(case, metrics)
    if message is not None:
        raise AssertionError(message)
    return results


def _label(case: RagTestCase) -> str:
    return case.name or f"case {case.input[:60]!r}"
