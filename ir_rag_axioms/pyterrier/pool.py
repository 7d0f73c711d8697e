"""Pool the answers of several RAG pipelines into one candidate list per query: ``Pool({...}) >> AxiomaticReranker``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.pyterrier.frames import CONTEXT_COLUMNS, TEXT_COLUMNS

SYSTEM_COLUMN = "system"
"""The column that names the pipeline an answer came from (also the docno of a pipeline's only answer)."""


def _answers(name: str, frame: pd.DataFrame, docno: str) -> pd.DataFrame:
    """One pipeline's output as candidates: qid, query, docno, text, context, score, system."""
    text = next((c for c in TEXT_COLUMNS if c in frame.columns), None)
    missing = [c for c in ("qid", "query") if c not in frame.columns] + ([] if text else ["qanswer or text"])
    if missing:
        raise ValueError(f"Pool: pipeline {name!r} gave no column(s) {missing}; found {list(frame.columns)} "
                         "(a RAG pipeline returns qid, query and its answer in qanswer)")
    context = next((c for c in CONTEXT_COLUMNS if c in frame.columns), None)
    out = pd.DataFrame({"qid": frame["qid"].astype(str).to_numpy(), "query": frame["query"].to_numpy(),
                        "text": frame[text].to_numpy()})
    several = out["qid"].duplicated(keep=False).to_numpy()
    if several.any() and "docno" not in frame.columns:
        raise ValueError(f"Pool: pipeline {name!r} gave several answers for a query without a docno to tell them "
                         "apart; give each answer a docno, or one answer per query")
    out["docno"] = [f"{name}/{d}" if many else docno.format(qid=q, system=name)
                    for q, d, many in zip(out["qid"], frame.get("docno", [None] * len(frame)), several, strict=True)]
    out["context"] = frame[context].to_numpy() if context else None
    out["score"] = pd.to_numeric(frame["score"], errors="coerce").to_numpy() if "score" in frame else np.nan
    out[SYSTEM_COLUMN] = name
    return out


class Pool(pt.Transformer):
    """Run several answer-producing pipelines on the same topics and stack their answers as candidates.

    docno = the pipeline's name (``name/docno`` when it gives several answers per query), ``text`` its answer
    (``qanswer``), ``context`` its own passages (``qcontext``), ``score`` its original score (NaN without one) and
    ``system`` its name; row order = the mapping's order, which breaks ties downstream.
    """

    def __init__(self, pipelines: Mapping[str, Any], docno: str = "{system}") -> None:
        """Pool the pipelines of a mapping ``{system name: transformer}`` (at least one).

        ``docno``: the format of a pipeline's only answer's docno, from ``{system}`` and ``{qid}`` (``"{qid}/{system}"``
        matches the registered nugget dataset's docnos).
        """
        if "{system}" not in docno:
            raise ValueError(f"Pool: docno must contain '{{system}}' (two systems' answers need two docnos), "
                             f"got {docno!r}")
        self.docno = docno
        if not isinstance(pipelines, Mapping) or not pipelines:
            raise TypeError("Pool takes a non-empty mapping {system name: pipeline}, "
                            "e.g. Pool({'bm25-gpt': bm25_rag, 'dense-llama': dense_rag})")
        for name in pipelines:
            if not isinstance(name, str) or not name or "/" in name:
                raise ValueError(f"Pool: a system name must be a non-empty string without '/', got {name!r}")
        self.pipelines = dict(pipelines)

    def __repr__(self) -> str:
        extra = "" if self.docno == "{system}" else f", docno={self.docno!r}"
        return f"Pool({list(self.pipelines)!r}{extra})"

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Topics (qid, query) in, one candidate row per pipeline and answer out, grouped by qid in input order."""
        pt.validate.query_frame(inp, extra_columns=["query"])
        parts = [_answers(name, pipeline(inp), self.docno) for name, pipeline in self.pipelines.items()]
        pooled = pd.concat(parts, ignore_index=True)
        order = pd.unique(inp["qid"].astype(str))
        position = pd.Series(np.arange(len(order)), index=order)
        pooled["_q"] = position.reindex(pooled["qid"]).fillna(len(order)).to_numpy()
        return pooled.sort_values("_q", kind="stable").drop(columns="_q").reset_index(drop=True)
