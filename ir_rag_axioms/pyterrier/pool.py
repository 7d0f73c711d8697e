"""Pool the answers of several RAG pipelines into one candidate list per query: ``Pool({...}) >> AxiomaticReranker``."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.pyterrier.equality import ByParameters
from ir_rag_axioms.pyterrier.frames import CONTEXT_COLUMNS, TEXT_COLUMNS, check_answer_columns

SYSTEM_COLUMN = "system"
"""The column that names the pipeline an answer came from (also the docno of a pipeline's only answer)."""
POOL_SCORE = 0.0
"""The score of an answer whose pipeline gives neither score nor rank (evaluation warns: the order is the docnos')."""

DocnoRule = str | Callable[[str, str], str]
"""A docno template over ``{system}`` and ``{qid}``, or a function (qid, system) -> docno."""


def _docno(rule: DocnoRule, qid: str, system: str) -> str:
    """The docno of a pipeline's only answer to a query, by the template or the function; refuses an empty one."""
    docno = rule.format(qid=qid, system=system) if isinstance(rule, str) else rule(qid, system)
    if not isinstance(docno, str) or not docno.strip():
        raise ValueError(f"Pool: the docno rule gave {docno!r} for qid {qid!r} and system {system!r}; it must give a "
                         "non-empty string")
    return docno


POOL_COLUMNS = ("qid", "query", "text", "docno", "context", "qanswer", "qcontext", "score", SYSTEM_COLUMN)
"""The columns of a pool, in order."""


def _check_template(template: str) -> None:
    """ValueError unless the docno template formats with ``{qid}`` and ``{system}`` only (checked at construction)."""
    import string

    try:
        fields = {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}
        template.format(qid="q", system="s")
    except (ValueError, IndexError, KeyError) as error:
        raise ValueError(f"Pool: the docno template {template!r} does not format: {error!r}; it may use {{qid}} "
                         "and {system} only (double a literal brace: '{{')") from None
    unknown = sorted(fields - {"qid", "system"})
    if unknown:
        raise ValueError(f"Pool: the docno template {template!r} names {unknown}; it may use {{qid}} and {{system}} "
                         "only")


def _scores(name: str, frame: pd.DataFrame) -> np.ndarray:
    """The pipeline's own score, else minus its rank (rank 0 best), else POOL_SCORE for every answer."""
    if "score" in frame.columns:
        return pd.to_numeric(frame["score"], errors="coerce").to_numpy(np.float64)
    if "rank" in frame.columns:
        return -pd.to_numeric(frame["rank"], errors="coerce").to_numpy(np.float64)
    return np.full(len(frame), POOL_SCORE)


class NoContextWarning(UserWarning):
    """A pooled pipeline's answers come without the passages they were generated from: context axioms abstain."""


def _stages(pipeline: Any) -> list[Any]:
    """The stages of a ``>>`` pipeline (nested ones flattened), or the pipeline itself."""
    if isinstance(pipeline, pt.Compose):
        return [stage for part in pipeline._transformers for stage in _stages(part)]
    return [pipeline]


def _one_context_per_query(frame: pd.DataFrame) -> pd.Series | None:
    """Qid -> the frame's context (``context``, else ``qcontext``) when each query has one; else None."""
    column = next((c for c in CONTEXT_COLUMNS if c in frame.columns), None)
    if column is None or "qid" not in frame.columns or frame.empty:
        return None
    qids = frame["qid"].astype(str)
    if qids.duplicated().any():
        return None
    return pd.Series(frame[column].to_numpy(), index=qids.to_numpy())


def _passages_by_query(before: pd.DataFrame, after: pd.DataFrame, stage: Any) -> pd.Series | None:
    """Qid -> the passages (texts, best first) a stage joined into one context (pyterrier-rag's ``Concatenator``).

    A stage joins passages when its input has a ``text`` per retrieved row and its output one row per query with a
    ``qcontext``; the texts are ordered by score (else rank, else row order) and cut to its ``max_elements``.
    """
    if "text" not in before.columns or "qid" not in before.columns or _one_context_per_query(after) is None:
        return None
    if "qcontext" not in after.columns or "docno" not in before.columns:
        return None
    frame = before.assign(_qid=before["qid"].astype(str), _row=np.arange(len(before)))
    keys = [k for k in ("score", "rank") if k in frame.columns][:1]
    frame = frame.sort_values(["_qid", *keys, "_row"], ascending=[True, *[k != "score" for k in keys], True],
                              kind="stable")
    limit = getattr(stage, "max_elements", -1)
    limit = limit if isinstance(limit, int) and limit > 0 else None
    return frame.groupby("_qid", sort=False)["text"].apply(lambda t: [str(x) for x in t][:limit])


def run_pipeline(name: str, pipeline: Any,
                 topics: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series | None, pd.Series | None]:
    """Run a pipeline stage by stage: its output, the last per-query context a stage gave, the last joined one.

    A pyterrier-rag ``Reader`` returns ``qid, query_0, prompt, qanswer``: the context that ``Concatenator`` built
    is kept from the stages before, as the list of passages it joined (so that per-passage axioms see each one),
    else as the context a stage gave; the third item is the last per-query context as a stage gave it (qid ->
    e.g. the joined string), or None.
    """
    frame, context, joined = topics, None, None
    for stage in _stages(pipeline):
        before, frame = frame, stage(frame)
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"Pool: a stage of pipeline {name!r} ({stage!r:.80}) returned "
                            f"{type(frame).__name__}, not a DataFrame")
        given = _one_context_per_query(frame)
        joined = given if given is not None else joined
        found = _passages_by_query(before, frame, stage)
        found = found if found is not None else given
        context = found if found is not None else context
    return frame, context, joined


class WithContext(ByParameters, pt.Transformer):
    """Run a RAG pipeline and give each answer the passages it was generated from: ``context`` (a list) and qcontext.

    ``WithContext(retriever % 3 >> Concatenator() >> Reader(...))``: a ``Reader`` drops the context, and
    ``Concatenator`` joins the passages into one string; the passages come from the stage before it (best first),
    so that axioms and metrics that read each passage (CONS1, CONS2, Faithfulness) see them. ``qcontext`` keeps the
    joined string the reader saw. Rows and other columns of the pipeline's output are kept.
    """

    schematic: dict[str, Any] = {"label": "WithContext", "help_url": None}

    def __init__(self, pipeline: Any) -> None:
        """Wrap ``pipeline`` (a transformer, usually ``>>`` stages ending in a reader)."""
        if not isinstance(pipeline, pt.Transformer):
            raise TypeError(f"WithContext wraps a PyTerrier pipeline, got {type(pipeline).__name__}")
        self.pipeline = pipeline

    def __repr__(self) -> str:
        return f"WithContext({self.pipeline!r})"

    def subtransformers(self) -> dict[str, Any]:
        """The wrapped pipeline (for ``pt.inspect`` and schematics)."""
        return {"pipeline": self.pipeline}

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The pipeline's output with ``context`` (passages per row, by qid) and ``qcontext`` (the joined text)."""
        out, context, joined = run_pipeline("WithContext", self.pipeline, inp)
        out = out.copy()
        if context is None or "qid" not in out.columns:
            warnings.warn("WithContext: no stage of the pipeline gave a context (no Concatenator or qcontext); "
                          "context axioms and metrics abstain on its answers", NoContextWarning, stacklevel=2)
            return out
        qids = out["qid"].astype(str)
        if "qcontext" not in out.columns and joined is not None:
            out["qcontext"] = joined.reindex(qids).to_numpy()
        out["context"] = context.reindex(qids).to_numpy()
        return out


def _answers(name: str, frame: pd.DataFrame, docno: DocnoRule, queries: pd.Series,
             context_by_qid: pd.Series | None = None, joined: pd.Series | None = None) -> pd.DataFrame:
    """One pipeline's output as candidates: qid, query, docno, text + qanswer, context + qcontext, score, system.

    ``query`` is the topic's (``queries``: qid -> query), as the pipeline was asked; the context is the output's
    own, else ``context_by_qid`` (what a stage before the reader gave), else None with a ``NoContextWarning``.
    """
    text = next((c for c in TEXT_COLUMNS if c in frame.columns), None)
    missing = [c for c in ("qid",) if c not in frame.columns] + ([] if text else ["qanswer or text"])
    if missing:
        raise ValueError(f"Pool: pipeline {name!r} gave no column(s) {missing}; found {list(frame.columns)} "
                         "(a RAG pipeline returns qid and its answer in qanswer)")
    check_answer_columns(frame, f"Pool: pipeline {name!r}")
    qids = frame["qid"].astype(str)
    unknown = sorted(set(qids) - set(queries.index))
    if unknown:
        raise ValueError(f"Pool: pipeline {name!r} answered qid(s) {unknown[:3]} that are not among the topics")
    context = next((c for c in CONTEXT_COLUMNS if c in frame.columns), None)
    out = pd.DataFrame({"qid": qids.to_numpy(), "query": queries.reindex(qids).to_numpy(),
                        "text": frame[text].to_numpy()})
    several = out["qid"].duplicated(keep=False).to_numpy()
    if several.any() and "docno" not in frame.columns:
        raise ValueError(f"Pool: pipeline {name!r} gave several answers for a query without a docno to tell them "
                         "apart; give each answer a docno, or one answer per query")
    out["docno"] = [f"{name}/{d}" if many else _docno(docno, q, name)
                    for q, d, many in zip(out["qid"], frame.get("docno", [None] * len(frame)), several, strict=True)]
    if context:
        out["context"] = frame[context].to_numpy()
    elif context_by_qid is not None and set(out["qid"]) <= set(context_by_qid.index):
        out["context"] = context_by_qid.reindex(out["qid"]).to_numpy()
    else:
        out["context"] = None
    if context is None and out["context"].isna().all() and len(out):
        warnings.warn(f"Pool: pipeline {name!r} gives its answers without the passages they were generated from "
                      "(no context or qcontext column, in its output or in any stage before it); axioms and "
                      "metrics that read the context (CONS1, CONS2, Faithfulness, ...) abstain on its answers. "
                      "Let its reader keep qcontext, or end the pipeline with a stage that adds it",
                      NoContextWarning, stacklevel=3)
    out["qanswer"] = out["text"]  # pyterrier-rag's names, for its measures and transformers downstream
    out["qcontext"] = out["context"]
    if not context and joined is not None and set(out["qid"]) <= set(joined.index):
        out["qcontext"] = joined.reindex(out["qid"]).to_numpy()  # the joined text the reader saw
    out["score"] = _scores(name, frame)
    out[SYSTEM_COLUMN] = name
    return out


def crowd_response_ids(data: str | os.PathLike[str] | None = None) -> Callable[[str, str], str]:
    """A docno rule for CrowdRAG-25: (topic, kind-style system name such as ``human-bullet``) -> the response id.

    The ids are those of the crowd qrels and docpairs (``irds:ir-rag-axioms/crowdrag-25``); an unknown pair raises.
    """
    from ir_rag_axioms.datasets import crowd

    ids = crowd.aliases(crowd.load_crowd_responses(data))
    names = sorted({name for _, name in ids})

    def response_id(qid: str, system: str) -> str:
        try:
            return ids[(qid, system)]
        except KeyError:
            raise ValueError(f"Pool: CrowdRAG-25 has no response of system {system!r} for topic {qid!r}; name the "
                             f"pipelines by kind-style ({', '.join(names)}) and use the crowd topic ids") from None

    response_id.__name__ = "crowd_response_ids"
    return response_id


def _refuse_duplicate_topics(topics: pd.DataFrame) -> None:
    """ValueError naming a qid listed more than once in the topics (each pipeline would answer it twice)."""
    qids = topics["qid"].astype(str)
    repeated = qids[qids.duplicated(keep=False)]
    if repeated.empty:
        return
    first = repeated.iloc[0]
    rows = np.flatnonzero((qids == first).to_numpy()).tolist()
    texts = topics["query"].iloc[rows].astype(str).unique()
    how = "with the same query" if len(texts) == 1 else f"with {len(texts)} different query texts"
    others = repeated.nunique() - 1
    raise ValueError(f"Pool: the topics list qid {first!r} {len(rows)} times (row positions {rows[:5]}), {how}"
                     + (f"; {others} more qid(s) repeat" if others else "")
                     + "; give each topic once, e.g. topics.drop_duplicates('qid')")


class Pool(ByParameters, pt.Transformer):
    """Run several answer-producing pipelines on the same topics and stack their answers as candidates.

    docno = the pipeline's name, or the ``docno`` rule (``name/docno`` when it gives several answers per query);
    ``query`` the topic's; ``text`` and ``qanswer`` its answer, ``context`` and ``qcontext`` its own passages (both
    names, so that ours and pyterrier-rag's transformers and measures read them; a pyterrier-rag ``Reader`` drops
    ``qcontext``: it is kept from the stages before the reader, ``context`` as the list of passages a
    ``Concatenator`` joined and ``qcontext`` as the joined text, else a ``NoContextWarning``); ``score`` its own
    score, else minus its rank, else POOL_SCORE (0.0: tied, ``check_run`` and our measures warn; the rerankers then
    break ties by docno); ``system`` its name; rows grouped by qid in the topics' order, then the mapping's.
    """

    def __init__(self, pipelines: Mapping[str, Any], docno: DocnoRule = "{system}") -> None:
        """Pool the pipelines of a mapping ``{system name: transformer}`` (at least one).

        ``docno``: a template over ``{system}`` and ``{qid}`` (``"{qid}/{system}"`` matches the nugget dataset's
        docnos) or a function (qid, system) -> docno, e.g. ``crowd_response_ids()`` for CrowdRAG-25's response ids.
        """
        if isinstance(docno, str) and "{system}" not in docno:
            raise ValueError(f"Pool: docno must contain '{{system}}' (two systems' answers need two docnos), "
                             f"got {docno!r}")
        if isinstance(docno, str):
            _check_template(docno)
        if not isinstance(docno, str) and not callable(docno):
            raise TypeError(f"Pool: docno must be a template string or a function (qid, system) -> docno, got "
                            f"{type(docno).__name__}")
        self.docno = docno
        if not isinstance(pipelines, Mapping) or not pipelines:
            raise TypeError("Pool takes a non-empty mapping {system name: pipeline}, "
                            "e.g. Pool({'bm25-gpt': bm25_rag, 'dense-llama': dense_rag})")
        for name in pipelines:
            if not isinstance(name, str) or not name or "/" in name:
                raise ValueError(f"Pool: a system name must be a non-empty string without '/', got {name!r}")
        self.pipelines = dict(pipelines)

    def __repr__(self) -> str:
        names = list(self.pipelines)
        shown = ", ".join(names[:3]) + (f", ... {len(names) - 3} more" if len(names) > 3 else "")
        rule = self.docno if isinstance(self.docno, str) else getattr(self.docno, "__name__", "function")
        extra = "" if rule == "{system}" else f", docno={rule!r}"
        return f"Pool({len(names)} systems: {shown}{extra})"

    def transform_inputs(self) -> list[list[str]]:
        """What ``pt.inspect`` reports as the input: topics (qid, query)."""
        return [["qid", "query"]]

    def transform_outputs(self, input_columns: list[str]) -> list[str]:
        """The output columns ``transform`` gives for topics with ``input_columns`` (without running a pipeline)."""
        pt.validate.query_frame(input_columns, extra_columns=["query"], context=self)
        return list(POOL_COLUMNS)

    def subtransformers(self) -> dict[str, Any]:
        """The pooled pipelines, by system name (for ``pt.inspect`` and schematics)."""
        return {name: pipeline for name, pipeline in self.pipelines.items() if isinstance(pipeline, pt.Transformer)}

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Topics (qid, query) in, one candidate row per pipeline and answer out, grouped by qid in input order.

        The docno rule is checked on every (qid, system) before any pipeline runs.
        """
        pt.validate.query_frame(inp, extra_columns=["query"])
        _refuse_duplicate_topics(inp)
        if not isinstance(self.docno, str):  # a function: every docno it gives must be usable, before the work
            for qid in pd.unique(inp["qid"].astype(str)):
                for name in self.pipelines:
                    _docno(self.docno, qid, name)
        if inp.empty:
            return pd.DataFrame({column: pd.Series(dtype=object) for column in POOL_COLUMNS}).astype({"score": float})
        queries = pd.Series(inp["query"].to_numpy(), index=inp["qid"].astype(str).to_numpy())
        queries = queries[~queries.index.duplicated()]
        parts = []
        for name, pipeline in self.pipelines.items():
            out, context, joined = run_pipeline(name, pipeline, inp)
            parts.append(_answers(name, out, self.docno, queries, context, joined))
        pooled = pd.concat(parts, ignore_index=True)
        order = pd.unique(inp["qid"].astype(str))
        position = pd.Series(np.arange(len(order)), index=order)
        pooled["_q"] = position.reindex(pooled["qid"]).fillna(len(order)).to_numpy()
        return pooled.sort_values("_q", kind="stable").drop(columns="_q").reset_index(drop=True)
