"""Runs from data: frames of requests and candidate responses (JSONL, nugget answers), graded nugget qrels, TREC run files.

Nugget scores follow the TREC 2024 RAG AutoNuggetizer (Pradeep et al., 2024). With s_i = 1 for
``support``, 0.5 for ``partial_support`` (0 in the strict variants) and 0 for ``not_support``:

- ``all``:      A = sum_i s_i / #nuggets
- ``vital``:    V = sum_{i vital} s_i / #vital nuggets (0 if the topic has no vital nugget)
- ``weighted``: W = sum_i w_i s_i / sum_i w_i with w_i = 1 for vital and 0.5 for okay nuggets

``strict=True`` gives A_strict, V_strict (the track's primary score) and W_strict.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

NUGGET_SCORES: tuple[str, ...] = ("all", "vital", "weighted")
"""The AutoNuggetizer scores ``nugget_score`` computes."""


def read_jsonl(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """All objects of a JSON-lines file (gzip if the name ends in ``.gz``)."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def responses_frame(
    source: pd.DataFrame | str | os.PathLike[str] | Iterable[Mapping[str, Any]],
    *,
    qid: str = "qid",
    query: str = "query",
    docno: str = "docno",
    text: str = "text",
    context: str | None = None,
) -> pd.DataFrame:
    """Transformer input (qid, query, docno, text[, context], rank, score) from a frame, JSONL path or records; rank = input order per qid."""
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
    frame = records[list(fields)].rename(columns=fields).reset_index(drop=True)
    frame["qid"] = frame["qid"].astype(str)
    frame["docno"] = frame["docno"].astype(str)
    dupes = frame[frame.duplicated(["qid", "docno"], keep=False)]
    if len(dupes):
        raise ValueError(f"responses_frame: duplicate docno within a qid: {sorted(set(zip(dupes.qid, dupes.docno)))[:10]}")
    frame["rank"] = frame.groupby("qid", sort=False).cumcount().astype("int64")
    frame["score"] = (-frame["rank"]).astype("float64")
    return frame


def nugget_score(nuggets: Iterable[Mapping[str, str]], score: str = "vital", strict: bool = False) -> float:
    """The AutoNuggetizer score of one answer (formulas in the module docstring); 0 where no nugget counts."""
    from ir_rag_axioms.datasets.loaders import nugget_score as score_of

    if score not in NUGGET_SCORES:
        raise ValueError(f"unknown nugget score {score!r}; use one of {NUGGET_SCORES}")
    value = score_of(list(nuggets), score, strict)
    return 0.0 if math.isnan(value) else value


def nugget_answers(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The nugget file's answers as transformer input: qid, query, docno = run_id, text = answer_text, rank (file order), score."""
    return responses_frame(read_jsonl(path), docno="run_id", text="answer_text")


def nugget_qrels(
    path: str | os.PathLike[str], score: str = "vital", strict: bool = False, scale: int = 100
) -> pd.DataFrame:
    """Graded qrels (qid, docno, label) with label = round(scale * nugget score): integer grades, as trec_eval needs."""
    rows = [
        (str(r["qid"]), str(r["run_id"]), nugget_score(r["nuggets"], score, strict)) for r in read_jsonl(path)
    ]
    qrels = pd.DataFrame(rows, columns=["qid", "docno", "nugget_score"])
    qrels["label"] = np.rint(qrels["nugget_score"] * scale).astype("int64")
    return qrels[["qid", "docno", "label"]]


def write_trec_run(frame: pd.DataFrame, path: str | os.PathLike[str], run_name: str = "ir_rag_axioms") -> Path:
    """Write ``qid Q0 docno rank score run_name`` lines, rank 1-based, ordered by qid then rank (or descending score)."""
    missing = [c for c in ("qid", "docno") if c not in frame.columns]
    if missing or ("rank" not in frame.columns and "score" not in frame.columns):
        raise KeyError(f"write_trec_run needs qid, docno and rank or score columns; missing {missing or ['rank/score']}")
    if any(ch.isspace() for ch in run_name) or not run_name:
        raise ValueError(f"run_name must be a non-empty word without spaces, got {run_name!r}")
    run = frame.assign(qid=frame["qid"].astype(str), docno=frame["docno"].astype(str))
    if "rank" in run.columns:
        run = run.sort_values(["qid", "rank"], kind="stable")
    else:
        run = run.sort_values(["qid", "score"], ascending=[True, False], kind="stable")
    rank = run.groupby("qid", sort=False).cumcount() + 1
    n = run.groupby("qid", sort=False)["qid"].transform("size")
    score = run["score"].astype("float64") if "score" in run.columns else (n - rank + 1).astype("float64")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as out:
        for q, d, r, s in zip(run["qid"], run["docno"], rank, score):
            out.write(f"{q} Q0 {d} {r} {s:.6g} {run_name}\n")
    return path


def kendall_tau(x: np.ndarray, y: np.ndarray) -> float:
    """Kendall's tau-b: (C - D) / sqrt((C + D + T_x)(C + D + T_y)); 0 when either side is constant."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    i, j = np.triu_indices(len(x), k=1)
    dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
    concordant_minus_discordant = float((dx * dy).sum())
    untied_x, untied_y = float(np.count_nonzero(dx)), float(np.count_nonzero(dy))
    if untied_x == 0 or untied_y == 0:
        return 0.0
    return concordant_minus_discordant / float(np.sqrt(untied_x * untied_y))


def _kendall_tau_by_query(qrels: pd.DataFrame, run: pd.DataFrame) -> float:
    merged = run.merge(qrels[["doc_id", "relevance"]], on="doc_id", how="left")
    return kendall_tau(merged["score"].to_numpy(), merged["relevance"].fillna(0).to_numpy())


def _define_kendall_tau() -> Any:
    import ir_measures

    return ir_measures.define_byquery(
        _kendall_tau_by_query, name="KendallTau", support_cutoff=False,
        pretty_name="Kendall's tau-b", short_desc="Kendall's tau-b between run scores and qrels labels (unjudged = 0)",
    )


def __getattr__(name: str) -> Any:
    if name == "KendallTau":  # built lazily: ir_measures is an optional dependency
        measure = _define_kendall_tau()
        globals()["KendallTau"] = measure
        return measure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
