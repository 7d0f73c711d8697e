"""A pointwise PyTerrier transformer: metric score and pass columns for every answer of a frame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.metrics.evaluate import named_metrics
from ir_rag_axioms.metrics.judges import RubricCase
from ir_rag_axioms.metrics.metrics import (
    AnswerRelevancy,
    ContextRecall,
    Faithfulness,
    RubricAnswerRelevancy,
    RubricMetric,
    as_reference,
)
from ir_rag_axioms.model import GenerationRequest
from ir_rag_axioms.pyterrier import frames

Metric = AnswerRelevancy | RubricMetric
"""Any of the four metrics."""


def default_metrics() -> tuple[Metric, ...]:
    """The four metrics with their defaults (and the default judge)."""
    return AnswerRelevancy(), Faithfulness(), ContextRecall(), RubricAnswerRelevancy()


class MetricScorer(pt.Transformer):
    """Add ``<metric>_score``, ``<metric>_pass`` and the evidence to each answer row.

    Evidence columns: ``<metric>_reason`` (the judge's explanation) and ``<metric>_threshold``; rubric metrics also
    ``<metric>_level`` (the raw 1-5 score) and ``<metric>_confidence``. Faithfulness reads each row's own ``context``
    (a list of passages; else the query's), ContextRecall the ``reference`` column if present, else the context;
    without one their columns are NaN / NA. Rows and their order are kept.
    """

    schematic: dict[str, Any] = {"label": "MetricScorer", "help_url": None}

    def __init__(self, metrics: Sequence[Metric] | Mapping[str, Metric] | None = None) -> None:
        """Score with these metrics (default: all four with their defaults); a mapping names each one's columns.

        Two metrics that would write the same columns (two of one class in a list) are refused with the fix: a
        mapping ``{"faithfulness": Faithfulness(), "faithfulness_t4": Faithfulness(threshold=4)}``.
        """
        if metrics is None:
            metrics = default_metrics()
        named = named_metrics(metrics, "MetricScorer")
        other = [m for _, m in named if not isinstance(m, AnswerRelevancy | RubricMetric)]
        if other:
            raise TypeError(f"MetricScorer scores answers (AnswerRelevancy, Faithfulness, ContextRecall, "
                            f"RubricAnswerRelevancy); {type(other[0]).__name__} judges the retrieval context against a "
                            "reference answer: use ir_rag_axioms.metrics.evaluate(cases, metrics)")
        self.metrics: tuple[Metric, ...] | dict[str, Metric] = dict(metrics) if isinstance(metrics, Mapping) \
            else tuple(metrics)
        self._named: tuple[tuple[str, Metric], ...] = tuple(named)

    def __repr__(self) -> str:
        metrics = self.metrics if isinstance(self.metrics, dict) else list(self.metrics)
        return f"MetricScorer({metrics!r})"

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The input rows with the metric columns added; each row is scored alone (pointwise), with its own context.

        Any frame with qid, query and an answer (``text`` or ``qanswer``): a single system's output (no docno), a
        pool, a reranked run; the context is the row's ``context`` or ``qcontext`` (a list of passages or a text).
        """
        text_column, query_column = _answer_column(inp, self)
        out = inp.copy()
        context_column = next((c for c in frames.CONTEXT_COLUMNS if c in inp.columns), None)
        contexts = [frames._passages(c) for c in inp[context_column]] if context_column else [None] * len(inp)
        requests: list[GenerationRequest] = [
            GenerationRequest(str(qid), query, context)
            for qid, query, context in zip(inp["qid"], inp[query_column], contexts, strict=True)]
        texts = [str(t) if isinstance(t, str) else "" for t in inp[text_column]]
        references = list(inp["reference"]) if "reference" in inp.columns else [None] * len(inp)
        for name, metric in self._named:
            out = out.assign(**self._columns(name, metric, requests, texts, references, contexts))
        return out

    def transform_inputs(self) -> list[list[str]]:
        """What ``pt.inspect`` reports as the input: qid, a query (``query`` or ``query_0``) and an answer."""
        return [["qid", query, column] for query in frames.QUERY_COLUMNS for column in frames.TEXT_COLUMNS]

    def transform_outputs(self, input_columns: list[str]) -> list[str]:
        """The input columns, then each metric's columns (as ``transform`` adds them), without judging anything."""
        with pt.validate.any(input_columns, context=self) as v:
            for query in frames.QUERY_COLUMNS:
                for column in frames.TEXT_COLUMNS:
                    v.columns(includes=["qid", query, column], mode=f"{query}+{column}")
        added = [c for name, metric in self._named for c in _column_names(name, metric)]
        return [c for c in input_columns if c not in added] + added

    def measures(self) -> list[Any]:
        """ir_measures measures of this scorer's columns (``metric_measures``), for ``pt.Experiment``."""
        return metric_measures(dict(self._named))

    def _columns(self, name: str, metric: Metric, requests: list[Any], texts: list[str], references: list[Any],
                 contexts: list[Any]) -> dict[str, Any]:
        """The new columns of one metric."""
        if isinstance(metric, (AnswerRelevancy, RubricAnswerRelevancy)):
            rows = list(range(len(texts)))
            results: list[Any] = metric.measure_many([(requests[i].text, texts[i]) for i in rows])
        else:
            sources = [references[i] if isinstance(metric, ContextRecall) and _given(references[i])
                       else contexts[i] for i in range(len(texts))]
            rows = [i for i, source in enumerate(sources) if source]
            if len(rows) < len(texts):
                import warnings

                warnings.warn(f"MetricScorer: {metric.name} has no context (or reference) for {len(texts) - len(rows)} "
                              f"of {len(texts)} answers: their {metric.name}_score is NaN. A pyterrier-rag Reader "
                              "drops qcontext: score a Pool of the pipelines (it keeps the context), or keep "
                              "qcontext in the frame", UserWarning, stacklevel=4)
            results = metric.measure_cases([RubricCase(texts[i], reference=as_reference(sources[i])) for i in rows])
        score, passed = np.full(len(texts), np.nan), pd.array([pd.NA] * len(texts), dtype="boolean")
        level, confidence = np.full(len(texts), np.nan), np.full(len(texts), np.nan)
        reason: list[str | None] = [None] * len(texts)
        for i, result in zip(rows, results, strict=True):
            score[i], reason[i] = result.score, result.explanation
            passed[i] = pd.NA if result.passed is None else result.passed
            level[i] = np.nan if getattr(result, "level", None) is None else result.level
            confidence[i] = np.nan if getattr(result, "confidence", None) is None else result.confidence
        columns = {f"{name}_score": score, f"{name}_pass": passed,
                   f"{name}_reason": pd.array(reason, dtype="string"),
                   f"{name}_threshold": np.full(len(texts), float(metric.effective_threshold))}
        if isinstance(metric, RubricMetric):
            columns[f"{name}_level"] = level
            columns[f"{name}_confidence"] = confidence
        return columns


def _column_names(name: str, metric: Metric) -> list[str]:
    """The columns ``MetricScorer`` adds for one metric named ``name``, in order."""
    names = [f"{name}_{part}" for part in ("score", "pass", "reason", "threshold")]
    return names + ([f"{name}_level", f"{name}_confidence"] if isinstance(metric, RubricMetric) else [])


def _answer_column(frame: pd.DataFrame, transformer: Any) -> tuple[str, str]:
    """The answer column (``text``, else ``qanswer``) and the query's (``query``, else pyterrier-rag's ``query_0``).

    ValueError naming what is missing.
    """
    text = next((c for c in frames.TEXT_COLUMNS if c in frame.columns), None)
    query = next((c for c in frames.QUERY_COLUMNS if c in frame.columns), None)
    missing = ([] if "qid" in frame.columns else ["qid"]) + ([] if query else ["query (or query_0)"]) + (
        [] if text else ["text or qanswer"])
    if missing:
        raise ValueError(f"{type(transformer).__name__} needs the columns qid, query and an answer (text or "
                         f"qanswer); missing {missing}, found {list(frame.columns)}")
    return str(text), str(query)


def _top_value(column: str) -> Any:
    def impl(qrels: pd.DataFrame, run: pd.DataFrame) -> float:
        if column not in run.columns:
            raise KeyError(f"the run has no column {column!r}: put MetricScorer([...]) at the end of the pipeline")
        return float(run[column].iloc[0])  # ir_measures sorts the run by descending score: the top answer
    return impl


def metric_measures(metrics: Sequence[Metric] | Mapping[str, Metric] | None = None) -> list[Any]:
    """One ir_measures measure per metric, named ``<metric>_score``: that column of each query's top answer.

    The top answer is the run's highest-scored (pyterrier-rag's measures read the same row); NaN where undefined
    (e.g. Faithfulness without context), with a warning. A mapping names the columns as ``MetricScorer`` does.
    """
    import ir_measures

    from ir_rag_axioms.evaluation import with_defined_mean
    from ir_rag_axioms.evaluation.run_measures import checked_byquery

    if metrics is None:
        metrics = default_metrics()
    names = list(metrics) if isinstance(metrics, Mapping) else [m.name for m in metrics]
    out = []
    for name in names:
        column = f"{name}_score"
        reason = "no context or reference for the top answer"
        out.append(with_defined_mean(ir_measures.define(
            checked_byquery(_top_value(column), column, reason), name=column, support_cutoff=False,
            run_inputs=["query_id", column],
        ), reason))
    return out


def _given(value: Any) -> bool:
    """Whether a reference cell holds a text or a non-empty list."""
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, (list, tuple, np.ndarray)) and len(value) > 0
