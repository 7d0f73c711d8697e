"""What the package's ir_measures measures share: the checks of a run, per-query values, the mean of defined ones.

``checked_byquery`` turns a per-query function into an ir_measures ``define`` implementation that warns about what
would make the run's figures mislead (``run_problems``: ``RunWarning``) and about the queries where the measure is
undefined (NaN: ``UndefinedMeasureWarning``); ``with_defined_mean`` aggregates a measure by ``DefinedMean``, the mean
over the defined queries. The evaluation's measures (``evaluation.run_measures``) and the metrics' columns
(``pyterrier.metrics.metric_measures``) are built on them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from contextvars import ContextVar
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["GOLD_ONLY_DOCNO", "DefinedMean", "RunWarning", "UndefinedMeasureWarning", "checked_byquery",
           "run_problems", "with_defined_mean"]

GOLD_ONLY_DOCNO = "_gold_answer_{k}"
"""A qrels row that only holds a gold answer (label 0, in no run): ``evaluation.run_measures.with_gold_answers``."""


class RunWarning(UserWarning):
    """A run and its qrels would give figures that mislead: no shared docno, missing queries, constant scores."""


def _ir_names(frame: pd.DataFrame, what: str) -> pd.DataFrame:
    """The frame with ir_measures' column names (query_id, doc_id, score / relevance)."""
    names = {"qid": "query_id", "docno": "doc_id", "label": "relevance"}
    out = frame.rename(columns={k: v for k, v in names.items() if k in frame.columns and v not in frame.columns})
    missing = [c for c in ("query_id", "doc_id") if c not in out.columns]
    if missing:
        raise KeyError(f"check_run: the {what} need qid and docno columns (or query_id and doc_id); found "
                       f"{list(frame.columns)}")
    return out


def run_problems(run: pd.DataFrame, qrels: pd.DataFrame) -> list[str]:
    """What would make a run's measures mislead (ir_measures column names): one sentence per problem, [] if none."""
    run_keys = set(zip(run["query_id"].astype(str), run["doc_id"].astype(str), strict=True))
    judged = {(q, d) for q, d in zip(qrels["query_id"].astype(str), qrels["doc_id"].astype(str), strict=True)
              if not d.startswith(GOLD_ONLY_DOCNO.split("{")[0])}  # rows that only hold a gold answer
    judged_qids, run_qids = {q for q, _ in judged}, {q for q, _ in run_keys}
    problems = []
    blind = sorted((run_qids & judged_qids) - {q for q, _ in run_keys & judged})
    if blind:
        example = next(d for q, d in sorted(run_keys) if q == blind[0])
        qrel_example = next(d for q, d in sorted(judged) if q == blind[0])
        problems.append(f"{len(blind)} of {len(run_qids)} queries share no docno with the qrels (e.g. qid {blind[0]}: "
                        f"run docno {example!r}, qrels docno {qrel_example!r}); their measures will be 0. Nugget "
                        "answers use docno '<qid>/<run_id>' (datasets.nuggets.answer_docno), CrowdRAG-25 its "
                        "response ids (Pool(..., docno=crowd_response_ids()))")
    absent = sorted(judged_qids - run_qids)
    if absent and run_qids:
        problems.append(f"the qrels have {len(absent)} queries the run lacks (e.g. qid {absent[0]}); "
                        "ir_measures.calc_aggregate scores each of them 0: keep the qrels of the run's queries "
                        "(qrels[qrels.qid.isin(run.qid)]) or use pt.Experiment with the run's topics")
    if "score" in run.columns:
        scores = pd.to_numeric(run["score"], errors="coerce")
        spread = scores.groupby(run["query_id"].astype(str)).agg(["size", "nunique"])
        constant = spread.index[(spread["size"] > 1) & (spread["nunique"] <= 1)].tolist()
        if constant:
            problems.append(f"{len(constant)} of {len(spread)} queries have one score for all their answers (e.g. "
                            f"qid {constant[0]}: e.g. a Pool of pipelines without scores); measures order them by "
                            "docno: rerank them (AxiomaticReranker) or give them scores")
    return problems


class DefinedMean:
    """ir_measures aggregator: the mean over the queries where a measure is defined (the measure warns about the rest).

    An undefined query (NaN) is left out, never counted as 0; no defined query gives NaN. ``ir_measures.calc_aggregate``
    and ``Experiment`` use it; pt.Experiment (PyTerrier 1.1) averages the per-query values by itself, which is why
    ``checked_byquery`` gives an undefined query the defined queries' mean.
    """

    def __init__(self, name: str, reason: str) -> None:
        self.name, self.reason = name, reason
        self.total, self.count, self.undefined = 0.0, 0, 0

    def add(self, value: float) -> None:
        """Add one query's value (NaN: undefined)."""
        if value is None or np.isnan(value):
            self.undefined += 1
        else:
            self.total += float(value)
            self.count += 1

    def result(self) -> float:
        """The sum / count over the defined queries (NaN if none)."""
        return self.total / self.count if self.count else float("nan")


class UndefinedMeasureWarning(UserWarning):
    """A measure is NaN for some queries (constant scores, no decided pair, ...): left out of the mean."""


def with_defined_mean(measure: Any, reason: str) -> Any:
    """The ir_measures measure, aggregated by ``DefinedMean``, and its name in ir_measures' registry (if free).

    The aggregator is the measure class's, so that a measure parsed by name (``ir_measures.parse_measure``) has it.
    """
    import ir_measures

    type(measure).aggregator = lambda self: DefinedMean(str(self), reason)
    if measure.NAME not in ir_measures.measures.registry:
        ir_measures.measures.register(type(measure), name=measure.NAME)
    return measure


_IMPUTE: ContextVar[bool] = ContextVar("ir_rag_axioms_impute_undefined", default=True)
"""Whether an undefined query takes the mean of the defined ones (pt.Experiment's mean); ``Experiment`` turns it off."""


def checked_byquery(impl: Any, name: str, reason: str) -> Any:
    """An ir_measures ``define`` implementation: ``run_problems`` warned (inside pt.Experiment too), then per query.

    Only the queries the qrels judge get a value (as ir_measures' own measures), under the qrels' own id (an int qid
    stays an int: ir_measures scores 0 each qrels id it gets no value for). A query where ``impl`` is undefined
    (NaN) takes the mean of the run's defined queries, so that the mean over all queries, which pt.Experiment takes
    by itself, is the mean over the defined ones, ``ir_measures.calc_aggregate``'s; one ``UndefinedMeasureWarning``
    names the measure, the count and the ``reason``. ``Experiment`` keeps them NaN and counts them.
    """

    def measure(qrels: pd.DataFrame, run: pd.DataFrame) -> Iterable[tuple[Any, float]]:
        for problem in run_problems(run, qrels):
            warnings.warn(problem, RunWarning, stacklevel=2)
        judged: dict[str, Any] = {}  # a query's id as a text -> the qrels' own id (an int stays an int)
        for qid in qrels["query_id"].unique():
            judged.setdefault(str(qid), qid)
        # each value under the qrels' id: ir_measures gives every qrels id it is not handed 0 (a str '1' is not 1)
        values = [(judged[str(qid)], float(impl(qrels[qrels["query_id"].astype(str) == str(qid)], part)))
                  for qid, part in run.groupby("query_id", sort=False) if str(qid) in judged]
        undefined = [qid for qid, value in values if np.isnan(value)]
        defined = [value for _, value in values if not np.isnan(value)]
        if undefined and _IMPUTE.get():
            fill = float(np.mean(defined)) if defined else float("nan")
            warnings.warn(f"{name} is undefined for {len(undefined)} of {len(values)} queries (e.g. qid "
                          f"{undefined[0]}: {reason}); they are left out of the mean: their per-query value is the "
                          f"mean of the {len(defined)} others ({fill:.4g}), so that pt.Experiment's mean is "
                          "ir_measures.calc_aggregate's. Do not test significance on those values: "
                          "ir_rag_axioms.evaluation.Experiment (the same arguments) keeps them NaN, counts them in "
                          f"a column '{name} undefined' and tests the baseline on the defined queries",
                          UndefinedMeasureWarning, stacklevel=2)
            values = [(qid, fill if np.isnan(value) else value) for qid, value in values]
        return values

    return measure


