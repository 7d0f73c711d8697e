"""Runs from data: frames of requests and responses (from JSONL or nugget answers), nugget qrels, TREC run files.

Checks and measures of a run against qrels (``check_run``, ``KendallTau``) are in
``ir_rag_axioms.evaluation.run_measures``.

Nugget scores are those of ``ir_rag_axioms.datasets.nuggets`` (TREC 2024 RAG AutoNuggetizer; formulas there): an
answer whose score is undefined (``vital`` without vital nuggets) has no qrel, as in the registered dataset.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, read_jsonl
from ir_rag_axioms.datasets.nuggets import GRADES, NUGGET_SCORES, answer_docno, check_nugget_record, nugget_score

__all__ = ["NUGGET_SCORES", "nugget_answers", "nugget_qrels", "nugget_score", "read_answers", "read_jsonl",
           "responses_frame", "write_trec_run"]


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
        _refuse_unencodable(run[column], column)
    run = _total_order(run)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pt.io.write_results(run, str(path), run_name=run_name)
    return path


def _refuse_unencodable(values: pd.Series, column: str) -> None:
    """ValueError naming the first row whose id UTF-8 cannot encode (a lone surrogate), before any file is written."""
    for position, value in enumerate(values):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError(f"write_trec_run: {column} {value!r} at row position {position} is not valid Unicode "
                             f"(a lone surrogate {value[error.start]!r} at character {error.start}, e.g. half an "
                             "emoji); a run file is UTF-8: fix or replace the id before writing the run") from None


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


