"""Runs from data: frames of requests and candidate responses, graded nugget qrels, TREC run files.

Frames from JSONL or nugget answers.

Nugget scores are those of ``ir_rag_axioms.datasets.nuggets`` (TREC 2024 RAG AutoNuggetizer; formulas there): an
answer whose score is undefined (``vital`` without vital nuggets) has no qrel, as in the registered dataset.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, read_jsonl
from ir_rag_axioms.datasets.nuggets import GRADES, NUGGET_SCORES, answer_docno, check_nugget_record, nugget_score

__all__ = ["NUGGET_SCORES", "RunWarning", "check_run", "kendall_tau", "nugget_answers", "nugget_qrels", "nugget_score",
           "read_answers", "read_jsonl", "responses_frame", "write_trec_run"]


def responses_frame(
    source: pd.DataFrame | str | os.PathLike[str] | Iterable[Mapping[str, Any]],
    *,
    qid: str = "qid",
    query: str = "query",
    docno: str = "docno",
    text: str = "text",
    context: str | None = None,
) -> pd.DataFrame:
    """Transformer input (qid, query, docno, text[, context], rank, score); rank = input order per qid.

    From a frame, JSONL path or records.
    """
    if isinstance(source, pd.DataFrame):
        records = source
    elif isinstance(source, (str, os.PathLike)):
        records = pd.DataFrame(read_jsonl(source))
    else:
        records = pd.DataFrame(list(source))
    fields = {qid: "qid", query: "query", docno: "docno", text: "text"}
    if context is not None:
        fields[context] = "context"
    missing = [f for f in fields if f not in records.columns]
    if missing:
        raise KeyError(f"responses_frame: missing field(s) {missing}; found {list(records.columns)} "
                       f"(map yours with qid=, query=, docno=, text=, context=)")
    from ir_rag_axioms.model import check_ids

    frame = records[list(fields)].rename(columns=fields).reset_index(drop=True)
    check_ids(frame)
    frame["qid"] = frame["qid"].astype(str)
    frame["docno"] = frame["docno"].astype(str)
    dupes = frame[frame.duplicated(["qid", "docno"], keep=False)]
    if len(dupes):
        pairs = sorted(set(zip(dupes.qid, dupes.docno, strict=True)))
        raise ValueError(f"responses_frame: duplicate docno within a qid: {pairs[:10]}")
    frame["rank"] = frame.groupby("qid", sort=False).cumcount().astype("int64")
    frame["score"] = (-frame["rank"]).astype("float64")
    return frame


def read_answers(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A JSONL(.gz) file of answers as a frame (every field a column; qid as a string)."""
    frame = pd.DataFrame(read_jsonl(path))
    if "qid" in frame.columns:
        frame["qid"] = frame["qid"].astype(str)
    return frame


def nugget_answers(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The nugget file's answers as transformer input.

    Columns: qid, query, docno = ``<qid>/<run_id>`` (as the registered dataset's docs and qrels), text =
    answer_text, rank (file order), score, system = run_id.
    """
    records = [dict(r, docno=answer_docno(r["qid"], r["run_id"]))
               for r in read_jsonl(path, NUGGET_ASSIGNMENTS, ("qid", "query", "run_id", "answer_text"),
                                    unique=("qid", "run_id"))]
    frame = responses_frame(records, text="answer_text")
    frame["system"] = [str(r["run_id"]).removeprefix(f"{r['qid']}/") for r in records]
    return frame


def nugget_qrels(
    path: str | os.PathLike[str], score: str = "vital", strict: bool = False, scale: int = GRADES
) -> pd.DataFrame:
    """Graded qrels (qid, docno, label, nugget_score) with label = round(scale * nugget score), 0..scale.

    docno = ``<qid>/<run_id>``; small integer grades (default 0-4), as trec_eval and learning to rank need, the
    score itself in ``nugget_score``; no qrel where the score is undefined.
    """
    rows = [(str(r["qid"]), answer_docno(r["qid"], r["run_id"]), nugget_score(r["nuggets"], score, strict))
            for r in read_jsonl(path, NUGGET_ASSIGNMENTS, ("qid", "run_id", "nuggets"), check_nugget_record,
                                  unique=("qid", "run_id"))]
    qrels = pd.DataFrame(rows, columns=["qid", "docno", "nugget_score"]).dropna(subset=["nugget_score"])
    qrels["label"] = np.rint(qrels["nugget_score"] * scale).astype("int64")
    return qrels[["qid", "docno", "label", "nugget_score"]].reset_index(drop=True)


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
    judged = set(zip(qrels["query_id"].astype(str), qrels["doc_id"].astype(str), strict=True))
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


def write_trec_run(frame: pd.DataFrame, path: str | os.PathLike[str], run_name: str = "ir_rag_axioms") -> Path:
    """Write ``qid Q0 docno rank score run_name`` lines (``pt.io.write_results``).

    Rank is 1-based by descending score per qid; without a score, the ``rank`` order gives one; tied scores are made
    strictly decreasing in rank order (``aggregation.fold_ties``), so no docno decides a tie in trec_eval.
    """
    import pyterrier as pt

    missing = [c for c in ("qid", "docno") if c not in frame.columns]
    if missing or ("rank" not in frame.columns and "score" not in frame.columns):
        raise KeyError(
            f"write_trec_run needs qid, docno and rank or score columns; missing {missing or ['rank/score']}"
        )
    if any(ch.isspace() for ch in run_name) or not run_name:
        raise ValueError(f"run_name must be a non-empty word without spaces, got {run_name!r}")
    run = frame.assign(qid=frame["qid"].astype(str), docno=frame["docno"].astype(str))
    for column in ("qid", "docno"):  # a run file is whitespace-separated: an id with a space or newline breaks it
        bad = run[column][frame[column].isna().to_numpy() | ~run[column].str.fullmatch(r"\S+").to_numpy(bool)]
        if len(bad):
            raise ValueError(f"write_trec_run: {column}s must be non-empty and without whitespace; found "
                             f"{bad.head(3).tolist()!r}: replace or quote them before writing a TREC run")
    run = _total_order(run)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pt.io.write_results(run, str(path), run_name=run_name)
    return path


def _total_order(run: pd.DataFrame) -> pd.DataFrame:
    """Rows by qid, then descending score (ties: rank order, then row order); score strictly decreasing, rank 1..n.

    Tied scores are folded by ``aggregation.fold_ties``: trec_eval and ir_measures order by score (ties by docno),
    so a tie left in a run file would let the docnos' names decide.
    """
    from ir_rag_axioms.aggregation import fold_ties

    run = run.reset_index(drop=True)
    if "rank" in run.columns:
        run = run.sort_values(["qid", "rank"], kind="stable")
    if "score" not in run.columns:  # n, n - 1, ..., 1 in rank order
        size = run.groupby("qid", sort=False)["qid"].transform("size")
        run["score"] = (size - run.groupby("qid", sort=False).cumcount()).astype("float64")
    score = pd.to_numeric(run["score"], errors="coerce").astype("float64")
    run = run.assign(score=score, _key=-score.fillna(-np.inf)).sort_values(["qid", "_key"], kind="stable")
    folded = [fold_ties(g.to_numpy(), np.arange(len(g))) for _, g in run.groupby("qid", sort=False)["score"]]
    run["score"] = np.concatenate(folded) if folded else run["score"]
    run["rank"] = run.groupby("qid", sort=False).cumcount() + 1
    return run.drop(columns="_key")


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


def checked_byquery(impl: Any, name: str, reason: str) -> Any:
    """An ir_measures ``define`` implementation: ``run_problems`` warned (inside pt.Experiment too), then per query.

    A query where ``impl`` is undefined gives NaN, and one warning names the measure, the count and the ``reason``.
    """

    def measure(qrels: pd.DataFrame, run: pd.DataFrame) -> Iterable[tuple[str, float]]:
        for problem in run_problems(run, qrels):
            warnings.warn(problem, RunWarning, stacklevel=2)
        values = [(str(qid), float(impl(qrels[qrels["query_id"] == qid], part)))
                  for qid, part in run.groupby("query_id", sort=False)]
        undefined = [qid for qid, value in values if np.isnan(value)]
        if undefined:
            from ir_rag_axioms.evaluation import UndefinedMeasureWarning

            warnings.warn(f"{name} is undefined (NaN) for {len(undefined)} of {len(values)} queries (e.g. qid "
                          f"{undefined[0]}: {reason}); pt.Experiment's mean is then NaN, ir_measures.calc_aggregate "
                          "averages the others", UndefinedMeasureWarning, stacklevel=2)
        return values

    return measure


def _define_kendall_tau() -> Any:
    import ir_measures

    from ir_rag_axioms.evaluation import with_defined_mean

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
