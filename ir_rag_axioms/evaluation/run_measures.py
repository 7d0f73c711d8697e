"""Measures for ``pt.Experiment`` and ir_measures: a run's score order against the qrels, and checks of a run.

``measures()`` are the axiom measures (decisiveness, consistency, effectiveness of the run's score order against the
qrels' labels), ``KendallTau`` Kendall's tau-b per query; undefined queries are NaN and left out of the mean
(``DefinedMean``), with a warning. ``check_run`` warns about what would make a run's measures mislead.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.measuring import (
    GOLD_ONLY_DOCNO,
    DefinedMean,
    RunWarning,
    UndefinedMeasureWarning,
    _ir_names,
    checked_byquery,
    run_problems,
    with_defined_mean,
)
from ir_rag_axioms.pair_counts import MEASURES, _measures, topic_counts

__all__ = ["GOLD_ONLY_DOCNO", "DefinedMean", "Experiment", "RunWarning", "UndefinedMeasureWarning", "check_run",
           "checked_byquery", "kendall_tau", "measures", "run_problems", "with_defined_mean",
           "with_gold_answers"]  # and KendallTau, built on first use


def check_run(run: pd.DataFrame, qrels: pd.DataFrame, name: str = "run") -> float:
    """The share of a run's (qid, docno) rows that the qrels judge; warns about what would make its measures lie.

    Warns when a query with qrels shares no docno with them (docno conventions that differ, e.g. ``run_id``
    against ``<qid>/<run_id>``: its measures would be 0), when the qrels have queries the run lacks
    (``ir_measures.calc_aggregate`` scores them 0), and when a query's scores are all equal (measures then order
    its answers by docno). Takes ``qid, docno[, score]`` / ``qid, docno, label`` frames or ir_measures' names.
    """
    run_ir, qrels_ir = _ir_names(run, "run"), _ir_names(qrels, "qrels")
    run_keys = set(zip(run_ir["query_id"].astype(str), run_ir["doc_id"].astype(str), strict=True))
    judged = set(zip(qrels_ir["query_id"].astype(str), qrels_ir["doc_id"].astype(str), strict=True))
    for problem in run_problems(run_ir, qrels_ir):
        warnings.warn(f"{name}: {problem}", RunWarning, stacklevel=2)
    return len(run_keys & judged) / len(run_keys) if run_keys else 0.0


def with_gold_answers(qrels: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """The qrels with pyterrier-rag's ``gold_answer`` column, for its F1 / EM / ROUGE measures in one pt.Experiment.

    ``answers``: ``qid, gold_answer`` (one row per answer, as pyterrier-rag's ``get_answers()``; a list per cell is
    exploded). Each query's k-th qrels row holds its (k mod m)-th of m gold answers, so every gold answer is on a row
    (those measures take the max over a query's rows); a query with fewer qrels rows than gold answers (or none) gets
    rows ``GOLD_ONLY_DOCNO`` with label 0, which no run retrieves (no gain, no judged document of a run). Rows,
    labels and docnos of the qrels are kept. A query of the qrels without a gold answer is refused (those measures
    would fail on it): keep the qrels of the answered queries.
    """
    if not {"qid", "gold_answer"} <= set(answers.columns):
        raise KeyError(f"with_gold_answers: answers need qid and gold_answer columns (pyterrier-rag's "
                       f"get_answers()); found {list(answers.columns)}")
    names = _ir_names(qrels, "qrels")
    qid_column = "qid" if "qid" in qrels.columns else "query_id"
    docno_column = "docno" if "docno" in qrels.columns else "doc_id"
    label_column = "label" if "label" in qrels.columns else "relevance"
    gold = answers[["qid", "gold_answer"]].explode("gold_answer")
    gold = gold[gold["gold_answer"].map(lambda a: isinstance(a, str))].assign(qid=lambda f: f["qid"].astype(str))
    by_qid = {q: list(dict.fromkeys(part["gold_answer"])) for q, part in gold.groupby("qid", sort=False)}
    qids = names["query_id"].astype(str)
    unanswered = sorted(set(qids) - set(by_qid))
    if unanswered:
        raise ValueError(f"with_gold_answers: {len(unanswered)} queries of the qrels have no gold answer (e.g. qid "
                         f"{unanswered[0]!r}); pyterrier-rag's measures would fail on them: keep the qrels of the "
                         "answered queries (qrels[qrels.qid.isin(answers.qid)])")
    out = qrels.copy()
    position = qids.groupby(qids).cumcount().to_numpy()
    out["gold_answer"] = [by_qid[q][k % len(by_qid[q])] for q, k in zip(qids, position, strict=True)]
    rows_per_qid = qids.value_counts()
    extra = [{qid_column: q, docno_column: GOLD_ONLY_DOCNO.format(k=k), label_column: 0, "gold_answer": answer}
             for q, answered in by_qid.items() for k, answer in enumerate(answered)
             if k >= rows_per_qid.get(q, 0)]
    if extra:
        out = pd.concat([out, pd.DataFrame(extra)], ignore_index=True)
    return out


# -- ir_measures measures ------------------------------------------------------------------------
def _named_measures(eval_metrics: Any) -> list[tuple[str, Any]]:
    """(column name, ir_measures measure) as pt.Experiment names them: a string as given, a measure by ``str``."""
    import ir_measures

    out = []
    for metric in eval_metrics:
        if isinstance(metric, str):
            parsed = ir_measures.parse_trec_measure(metric)
            out += [(metric, parsed[0])] if len(parsed) == 1 else [(str(m), m) for m in parsed]
        else:
            out.append((str(metric), metric))
    return out


_PER_QUERY_ONLY = ("baseline", "correction", "correction_alpha", "test", "highlight", "perquery", "dataframe")
"""pt.Experiment options that ``Experiment`` does not take (significance tests, styling, per-query output)."""


def Experiment(retr_systems: Any, topics: pd.DataFrame, qrels: pd.DataFrame, eval_metrics: Any,  # noqa: N802
               names: Any = None, *, round: int | None = None, **options: Any) -> pd.DataFrame:  # noqa: A002
    """pt.Experiment's table with each measure's mean by its ir_measures aggregator: ``calc_aggregate``'s numbers.

    Runs ``pt.Experiment(..., perquery=True)`` once and averages each measure per system with
    ``measure.aggregator()`` over the queries that have qrels: the plain mean for ir_measures' measures (the same
    as pt.Experiment), ``DefinedMean`` for ours (``KendallTau``, ``measures()``, ``metric_measures()``), which leaves
    an undefined (NaN) query out where pt.Experiment's mean turns NaN. Same arguments as pt.Experiment (batch_size,
    filter_by_qrels, ...; ``round`` digits); for significance tests use pt.Experiment.
    """
    import pyterrier as pt

    refused = sorted(set(options) & set(_PER_QUERY_ONLY))
    if refused:
        raise ValueError(f"Experiment gives the mean table only; {refused} are pt.Experiment's: call pt.Experiment "
                         "for significance tests, styling or per-query values (the per-query values are the same)")
    if any(isinstance(m, str) and m == "mrt" for m in eval_metrics):
        raise ValueError("Experiment: 'mrt' is pt.Experiment's timing column, not a measure; call pt.Experiment")
    named = _named_measures(eval_metrics)
    per_query = pt.Experiment(retr_systems, topics, qrels, eval_metrics, names=names, perquery=True, **options)
    judged = set(_ir_names(qrels, "qrels")["query_id"].astype(str))
    per_query = per_query[per_query["qid"].astype(str).isin(judged)]  # pt backfills unjudged topics with NaN
    systems = list(dict.fromkeys(per_query["name"])) if names is None else list(names)
    rows = []
    for system in systems:
        row: dict[str, Any] = {"name": system}
        part = per_query[per_query["name"] == system]
        for column, measure in named:
            aggregator = measure.aggregator()
            for value in part.loc[part["measure"] == column, "value"]:
                aggregator.add(value)
            result = aggregator.result()
            row[column] = result if round is None or result != result else _round_to(result, round)
        rows.append(row)
    return pd.DataFrame(rows, columns=["name", *[c for c, _ in named]])


def _round_to(value: float, digits: int) -> float:
    """Python's ``round`` (shadowed in ``Experiment`` by pt.Experiment's argument name)."""
    return round(value, digits)


def _run_vs_qrels(qrels: pd.DataFrame, run: pd.DataFrame) -> np.ndarray:
    """Counts for one query: the run's score order as P, the qrels' relevance order as O (unjudged documents: O = 0)."""
    relevance = dict(zip(qrels["doc_id"].astype(str), qrels["relevance"].astype(float), strict=True))
    scores = run["score"].to_numpy(float)
    labels = np.array([relevance.get(d, np.nan) for d in run["doc_id"].astype(str)])
    p = np.sign(scores[:, None] - scores[None, :])
    with np.errstate(invalid="ignore"):
        o = np.nan_to_num(np.sign(labels[:, None] - labels[None, :]))
    return topic_counts([p], [o])


_UNDEFINED = {"decisiveness": "a single answer: no pair", "effectiveness": "a single answer: no pair",
              "consistency": "the run's scores decide no pair (all equal)",
              "consistency_strict": "the run's scores decide no pair (all equal)"}


def _measure(name: str):
    def impl(qrels: pd.DataFrame, run: pd.DataFrame) -> float:
        sums = _run_vs_qrels(qrels, run).sum(axis=0)
        if sums[0] == 0:
            return float("nan")
        return float(_measures(sums)[MEASURES.index(name)])
    impl.__name__ = name
    return impl


def measures() -> list[Any]:
    """Measures (ir_measures) for ``pt.Experiment``'s ``eval_metrics``: a run's score order vs. the qrels' labels.

    AxiomDecisiveness, AxiomConsistency, AxiomConsistencyStrict, AxiomEffectiveness, per query of the run, then
    then averaged (consistency is NaN where the scores decide no pair, with a warning naming the reason;
    pt.Experiment's mean is then NaN, ``Experiment`` and ``ir_measures.calc_aggregate`` average the queries where it
    is defined).
    """
    import ir_measures

    return [
        with_defined_mean(ir_measures.define(
            checked_byquery(_measure(name), f"Axiom{name.title().replace('_', '')}", _UNDEFINED[name]),
            name=f"Axiom{name.title().replace('_', '')}", support_cutoff=False,
        ), _UNDEFINED[name])
        for name in MEASURES
    ]


def kendall_tau(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b (``scipy.stats.kendalltau``); NaN (undefined) when either side is constant."""
    from scipy.stats import kendalltau

    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if len(np.unique(x)) < 2 or len(np.unique(y)) < 2:
        return float("nan")
    return float(kendalltau(x, y).statistic)


def _kendall_tau_by_query(qrels: pd.DataFrame, run: pd.DataFrame) -> float:
    merged = run.merge(qrels[["doc_id", "relevance"]], on="doc_id", how="left")
    return kendall_tau(merged["score"].to_numpy(), merged["relevance"].fillna(0).to_numpy())


def _define_kendall_tau() -> Any:
    import ir_measures

    return with_defined_mean(ir_measures.define(
        checked_byquery(_kendall_tau_by_query, "KendallTau", _TAU_UNDEFINED), name="KendallTau", support_cutoff=False,
        pretty_name="Kendall's tau-b", short_desc="Kendall's tau-b between run scores and qrels labels (unjudged = 0)",
    ), _TAU_UNDEFINED)


_TAU_UNDEFINED = "constant run scores or constant labels"


def __getattr__(name: str) -> Any:
    if name == "KendallTau":  # built lazily: ir_measures is an optional dependency
        measure = _define_kendall_tau()
        globals()["KendallTau"] = measure
        return measure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
