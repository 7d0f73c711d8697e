"""Measures for ``pt.Experiment`` and ir_measures: a run's score order against the qrels, and checks of a run.

``measures()`` are the axiom measures (decisiveness, consistency, effectiveness of the run's score order against the
qrels' labels), ``KendallTau`` Kendall's tau-b per query, each also by name (``register_measures``); a query where
one is undefined is left out of the mean (its per-query value is the defined queries' mean, so that pt.Experiment's
own mean is ``ir_measures.calc_aggregate``'s), with a warning; ``Experiment`` counts those queries. ``check_run``
warns about what would make a run's measures mislead.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.measuring import (  # noqa: F401 (re-exported)
    _IMPUTE,
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

__all__ = ["GOLD_ONLY_DOCNO", "DefinedMean", "RunWarning", "UndefinedMeasureWarning", "check_run",
           "checked_byquery", "kendall_tau", "measures", "named_measures", "register_measures", "run_problems",
           "with_defined_mean", "with_gold_answers"]  # and KendallTau, built on first use


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
def named_measures(eval_metrics: Any) -> list[tuple[str, Any]]:
    """(column name, ir_measures measure) as pt.Experiment names them: a string as given, a measure by ``str``.

    A string is a TREC name (``"ndcg_cut_10"``, ``"map"``) or a name of ir_measures' registry, which holds ours
    (``"KendallTau"``, ``"AxiomConsistency"``, ...: ``register_measures``) and any ``"nDCG@10"``-style name.
    """
    import ir_measures

    out = []
    for metric in [eval_metrics] if isinstance(eval_metrics, str) else eval_metrics:
        if not isinstance(metric, str):
            out.append((str(metric), metric))
            continue
        try:
            parsed = ir_measures.parse_trec_measure(metric)
        except ValueError:
            register_measures()
            try:
                parsed = [ir_measures.parse_measure(metric)]
            except (NameError, ValueError):
                raise ValueError(f"unknown measure {metric!r}: neither a TREC name ('map', 'ndcg_cut_10') nor one "
                                 f"of ir_measures' names ({', '.join(OUR_MEASURES)}, 'nDCG@10', ...)") from None
        out += [(metric, parsed[0])] if len(parsed) == 1 else [(str(m), m) for m in parsed]
    return out


def register_measures() -> list[Any]:
    """Our measures (``KendallTau``, ``measures()``), registered by name for ``ir_measures.parse_measure``."""
    return [__getattr__("KendallTau"), *measures()]  # with_defined_mean registers each name once


OUR_MEASURES = ("KendallTau", "AxiomDecisiveness", "AxiomConsistency", "AxiomConsistencyStrict",
                "AxiomEffectiveness")
"""The names ``register_measures`` adds to ir_measures' registry."""


def _scores(run: pd.DataFrame, measure: str) -> np.ndarray:
    """The run's ``score`` column as floats; ValueError naming the measure when the run has none."""
    if "score" not in run.columns:
        raise ValueError(f"{measure} compares the run's scores with the qrels' labels, but the run has no score "
                         f"column (columns: {[c for c in run.columns]}); rank the answers first (e.g. "
                         ">> AxiomaticReranker(...)) or give them a score")
    return pd.to_numeric(run["score"], errors="coerce").to_numpy(float)


def _labels(qrels: pd.DataFrame, run: pd.DataFrame, measure: str) -> np.ndarray:
    """The qrels' label of each run row (NaN: unjudged); a (qid, docno) judged twice is a ValueError naming it.

    One label per judged answer, as the data files refuse an id twice: two rows (two assessors' qrels concatenated)
    would leave the measure to pick one, and which one would change its value.
    """
    docnos = qrels["doc_id"].astype(str)
    twice = docnos.duplicated(keep=False).to_numpy()
    if twice.any():
        first, more = docnos[twice].iloc[0], docnos[twice].nunique() - 1
        rows = qrels[docnos == first]
        raise ValueError(f"{measure}: the qrels judge (qid {rows['query_id'].iloc[0]!r}, docno {first!r}) "
                         f"{len(rows)} times, labels {rows['relevance'].tolist()}"
                         + (f" (and {more} more docno(s) of this query)" if more else "")
                         + "; one label per (qid, docno). Keep one row of each, e.g. "
                         "qrels.drop_duplicates(['qid', 'docno'], keep='last'), or average them "
                         "(qrels.groupby(['qid', 'docno'], as_index=False)['label'].mean())")
    relevance = dict(zip(docnos, qrels["relevance"].astype(float), strict=True))
    return np.array([relevance.get(d, np.nan) for d in run["doc_id"].astype(str)], dtype=np.float64)


def _run_vs_qrels(qrels: pd.DataFrame, run: pd.DataFrame, measure: str = "the measure") -> np.ndarray:
    """Counts for one query: the run's score order as P, the qrels' relevance order as O (unjudged documents: O = 0).

    A pair with a missing (NaN) score is undecided (P = 0), as an undefined value abstains.
    """
    scores = _scores(run, measure)
    labels = _labels(qrels, run, measure)
    p = np.sign(scores[:, None] - scores[None, :])
    with np.errstate(invalid="ignore"):
        o = np.nan_to_num(np.sign(labels[:, None] - labels[None, :]))
    return topic_counts([p], [o])


_UNDEFINED = {"decisiveness": "a single answer: no pair", "effectiveness": "a single answer: no pair",
              "consistency": "the run's scores decide no pair (all equal)",
              "consistency_strict": "the run's scores decide no pair (all equal)"}


def _measure(name: str):
    def impl(qrels: pd.DataFrame, run: pd.DataFrame) -> float:
        sums = _run_vs_qrels(qrels, run, f"Axiom{name.title().replace('_', '')}").sum(axis=0)
        if sums[0] == 0:
            return float("nan")
        return float(_measures(sums)[MEASURES.index(name)])
    impl.__name__ = name
    return impl


def measures() -> list[Any]:
    """Measures (ir_measures) for ``pt.Experiment``'s ``eval_metrics``: a run's score order vs. the qrels' labels.

    AxiomDecisiveness, AxiomConsistency, AxiomConsistencyStrict, AxiomEffectiveness, per judged query of the run,
    then averaged over the queries where each is defined (consistency is undefined where the scores decide no pair,
    with a warning naming the reason): pt.Experiment, ``Experiment`` and ``ir_measures.calc_aggregate`` agree.
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
    """Tau-b of one query over its answers with a score (a missing score, NaN, abstains: left out); unjudged: 0."""
    scores = _scores(run, "KendallTau")
    labels = np.nan_to_num(_labels(qrels, run, "KendallTau"), nan=0.0)
    scored = ~np.isnan(scores)
    return kendall_tau(scores[scored], labels[scored])


def _define_kendall_tau() -> Any:
    import ir_measures

    return with_defined_mean(ir_measures.define(
        checked_byquery(_kendall_tau_by_query, "KendallTau", _TAU_UNDEFINED), name="KendallTau", support_cutoff=False,
        pretty_name="Kendall's tau-b", short_desc="Kendall's tau-b between run scores and qrels labels (unjudged = 0)",
    ), _TAU_UNDEFINED)


_TAU_UNDEFINED = ("fewer than two answers with a score, or constant run scores or constant labels over the "
                  "answers with a score")


def __getattr__(name: str) -> Any:
    if name == "KendallTau":  # built lazily: ir_measures is an optional dependency
        measure = _define_kendall_tau()
        globals()["KendallTau"] = measure
        return measure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
