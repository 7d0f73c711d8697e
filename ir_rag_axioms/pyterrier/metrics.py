"""A pointwise PyTerrier transformer: metric score and pass columns for every answer of a frame."""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.measuring import RunWarning
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
from ir_rag_axioms.metrics.statements import has_statement_text
from ir_rag_axioms.pyterrier import frames
from ir_rag_axioms.pyterrier.equality import ByParameters

Metric = AnswerRelevancy | RubricMetric
"""Any of the four metrics."""


def default_metrics() -> tuple[Metric, ...]:
    """The four metrics with their defaults (and the default judge)."""
    return AnswerRelevancy(), Faithfulness(), ContextRecall(), RubricAnswerRelevancy()


class MetricScorer(ByParameters, pt.Transformer):
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
        rows = _row_names(inp)
        contexts = _cell_sources(inp, context_column, rows) if context_column else [None] * len(inp)
        texts = [_cell_text(t, text_column, row) for row, t in zip(rows, inp[text_column], strict=True)]
        queries = [_cell_text(q, query_column, row) for row, q in zip(rows, inp[query_column], strict=True)]
        references = _cell_sources(inp, "reference", rows) if "reference" in inp.columns else None
        for name, metric in self._named:
            out = out.assign(**self._columns(name, metric, queries, texts, references, contexts))
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

    def _columns(self, name: str, metric: Metric, queries: list[str | None], texts: list[str | None],
                 references: list[Any] | None, contexts: list[Any]) -> dict[str, Any]:
        """The new columns of one metric; a row without what the metric reads is NaN with the reason."""
        relevancy = isinstance(metric, (AnswerRelevancy, RubricAnswerRelevancy))
        by_reference = isinstance(metric, ContextRecall) and references is not None
        sources = [None] * len(texts) if relevancy else list(references) if by_reference and references is not None \
            else list(contexts)
        needs = getattr(metric, "needs_reference", "")
        why = _undefined_reasons(queries, texts, sources, relevancy, by_reference, needs)
        rows = [i for i, w in enumerate(why) if w is None]
        if isinstance(metric, AnswerRelevancy | RubricAnswerRelevancy):
            results: list[Any] = metric.measure_many([(queries[i] or "", texts[i] or "") for i in rows])
        else:
            results = metric.measure_cases([RubricCase(texts[i] or "", reference=as_reference(sources[i]))
                                            for i in rows])
        score, passed = np.full(len(texts), np.nan), pd.array([pd.NA] * len(texts), dtype="boolean")
        level, confidence = np.full(len(texts), np.nan), np.full(len(texts), np.nan)
        reason: list[str | None] = list(why)
        for i, result in zip(rows, results, strict=True):
            _fill_row(i, result, score, passed, level, confidence, reason)
        _warn_undefined(name, [str(r) for r, s in zip(reason, score, strict=True) if np.isnan(s)], len(texts))
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

    ValueError naming what is missing, or the first row where ``text`` and ``qanswer`` differ.
    """
    text = next((c for c in frames.TEXT_COLUMNS if c in frame.columns), None)
    query = next((c for c in frames.QUERY_COLUMNS if c in frame.columns), None)
    missing = ([] if "qid" in frame.columns else ["qid"]) + ([] if query else ["query (or query_0)"]) + (
        [] if text else ["text or qanswer"])
    if missing:
        raise ValueError(f"{type(transformer).__name__} needs the columns qid, query and an answer (text or "
                         f"qanswer); missing {missing}, found {list(frame.columns)}")
    frames.check_answer_columns(frame, transformer)
    return str(text), str(query)


def _ranked(run: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A query's rows, top answer first: positions, scores and doc_ids (texts), by score descending then doc_id.

    A missing score ranks last; the doc_id (ascending, as a text) settles a tie, so the top answer never depends on
    the order of the rows.
    """
    scores = pd.to_numeric(run["score"], errors="coerce").fillna(-np.inf).to_numpy(dtype=float) \
        if "score" in run.columns else np.zeros(len(run))
    docnos = run["doc_id"].astype(str).to_numpy() if "doc_id" in run.columns else np.full(len(run), "")
    order = np.lexsort((np.unique(docnos, return_inverse=True)[1], -scores))
    return order, scores[order], docnos[order]


def _tied_top(run: pd.DataFrame) -> list[str]:
    """The doc_ids (ascending) that share a query's top score, when two or more do; else []."""
    _, scores, docnos = _ranked(run)
    tied = docnos[scores == scores[0]] if len(run) else docnos
    return [str(d) for d in tied] if len(tied) > 1 else []


def _top_value(column: str) -> Any:
    def impl(qrels: pd.DataFrame, run: pd.DataFrame) -> float:
        if column not in run.columns:
            raise KeyError(f"the run has no column {column!r}: put MetricScorer([...]) at the end of the pipeline")
        return float(run[column].iloc[_ranked(run)[0][0]])  # the highest score; a tie goes to the smallest doc_id
    return impl


def _warning_ties(measure: Any, column: str) -> Any:
    """The ``define`` implementation ``measure``, after one warning that counts the judged queries with a tied top."""

    def checked(qrels: pd.DataFrame, run: pd.DataFrame) -> Any:
        judged = set(qrels["query_id"].astype(str))
        parts = [(str(q), _tied_top(part)) for q, part in run.groupby("query_id", sort=True) if str(q) in judged]
        tied = [(q, docnos) for q, docnos in parts if docnos]
        if tied:
            qid, docnos = tied[0]
            more = " ..." if len(docnos) > 3 else ""
            warnings.warn(f"{column}: {len(tied)} of {len(parts)} queries have a tie for the top score (e.g. qid "
                          f"{qid}: doc_ids {docnos[:3]}{more}); the top answer is the tied one with the smallest "
                          "doc_id (as a text): give the answers distinct scores (rerank them) for a top answer that "
                          "means something", RunWarning, stacklevel=2)
        return measure(qrels, run)

    return checked


def metric_measures(metrics: Sequence[Metric] | Mapping[str, Metric] | None = None) -> list[Any]:
    """One ir_measures measure per metric, named ``<metric>_score``: that column of each query's top answer.

    The top answer is the run's highest-scored (pyterrier-rag's measures read the same row; a tie goes to the
    smallest doc_id, as a text, whatever the row order, with a ``RunWarning`` counting such queries); NaN where
    undefined (e.g. Faithfulness without context), with a warning. A mapping names the columns as ``MetricScorer`` does.
    """
    import ir_measures

    from ir_rag_axioms.measuring import checked_byquery, with_defined_mean

    if metrics is None:
        metrics = default_metrics()
    names = list(metrics) if isinstance(metrics, Mapping) else [m.name for m in metrics]
    out = []
    for name in names:
        column = f"{name}_score"
        reason = "no context or reference for the top answer"
        out.append(with_defined_mean(ir_measures.define(
            _warning_ties(checked_byquery(_top_value(column), column, reason), column), name=column,
            support_cutoff=False,
            run_inputs=["query_id", column],
        ), reason))
    return out


def _row_names(frame: pd.DataFrame) -> list[str]:
    """How errors name each row of a frame: its position, its qid and (when the frame has them) its docno."""
    docnos = frame["docno"] if "docno" in frame.columns else [None] * len(frame)
    return [f"MetricScorer: row {k} (qid {qid!r}" + ("" if docno is None else f", docno {docno!r}") + ")"
            for k, (qid, docno) in enumerate(zip(frame["qid"], docnos, strict=True))]


def _cell_sources(frame: pd.DataFrame, column: str, rows: list[str]) -> list[str | tuple[str, ...] | None]:
    """A context or reference column as passages per row (a reference text stays whole: the judge splits it).

    A list's missing items are dropped; bytes, a number or a dict without ``text``, as a cell or an item of one,
    is a TypeError naming the row, the column and the item (``frames._passages``).
    """
    keep_text = column == "reference"
    return [value if keep_text and isinstance(value, str) else frames._passages(value, row, column)
            for row, value in zip(rows, frame[column], strict=True)]


def _cell_text(value: Any, column: str, row: str) -> str | None:
    """A frame cell as a text: None for a missing cell (NaN, None), TypeError naming the row for another type."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return None
    raise TypeError(f"{row} has {type(value).__name__} {value!r:.40} in column {column!r}: answers and queries must "
                    "be texts (NaN or None for a missing one)")


def _has_text(value: Any) -> bool:
    """Whether a context or reference cell holds a text with a letter or digit (itself or one of its passages)."""
    if isinstance(value, str):
        return has_statement_text(value)
    return value is not None and any(has_statement_text(p) for p in value)


def _warn_undefined(name: str, reasons: list[str], answers: int) -> None:
    """One warning for a metric's NaN rows, counting them by reason (a reason's figures, e.g. a share, left out)."""
    counts: dict[str, int] = {}
    for reason in reasons:
        key = re.sub(r"\s*\([^()]*\d[^()]*\)", "", reason.removeprefix("undefined: ")).rstrip(". ")
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return
    hint = (" A pyterrier-rag Reader drops qcontext: score a Pool of the pipelines (it keeps the context), or keep "
            "qcontext in the frame." if any("no context" in w for w in counts) else "")
    warnings.warn(f"MetricScorer: {name}_score is NaN for " + "; ".join(
        f"{n} of {answers} answers ({w})" for w, n in counts.items()) + "." + hint, UserWarning, stacklevel=5)


def _undefined_reasons(queries: list[str | None], texts: list[str | None], sources: list[Any], relevancy: bool,
                       by_reference: bool, needs: str) -> list[str | None]:
    """Per row, why the metric is undefined on it (a missing answer, query, reference or context), else None."""
    why: list[str | None] = []
    for query, text, source in zip(queries, texts, sources, strict=True):
        why.append("undefined: the row has no answer, a missing cell" if text is None else
                   "undefined: the row has no query, a missing cell" if relevancy and query is None else
                   "undefined: the row's reference cell is empty; the frame has a reference column, so the "
                   "context is not used in its place" if by_reference and not _has_text(source) else
                   f"undefined: no {needs} to judge against" if not relevancy and not _has_text(source)
                   else None)
    return why


def _fill_row(i: int, result: Any, score: np.ndarray, passed: Any, level: np.ndarray, confidence: np.ndarray,
              reason: list[str | None]) -> None:
    """Write one metric result into row ``i`` of the column arrays (None -> NA / NaN)."""
    score[i], reason[i] = result.score, result.explanation
    passed[i] = pd.NA if result.passed is None else result.passed
    level[i] = np.nan if getattr(result, "level", None) is None else result.level
    confidence[i] = np.nan if getattr(result, "confidence", None) is None else result.confidence
