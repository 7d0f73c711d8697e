"""Frame <-> request/response conversion for the PyTerrier transformers, with input validation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.model import GenerationRequest, GenerationResponse, is_missing

TEXT_COLUMNS: tuple[str, ...] = ("text", "qanswer")
"""Accepted response text columns, in order of preference (``qanswer`` is pyterrier-rag's answer column)."""
CONTEXT_COLUMNS: tuple[str, ...] = ("context", "qcontext")
"""Accepted context columns (a list of passages per row; ``qcontext`` is pyterrier-rag's)."""
REQUIRED: tuple[str, ...] = ("qid", "query", "docno")
"""Columns every input frame needs besides one text column."""


def validate(frame: pd.DataFrame, transformer: Any) -> str:
    """Check the columns with ``pt.validate``; return the text column.

    The error names the transformer and the missing columns.
    """
    import pyterrier as pt

    found = None
    with pt.validate.any(frame, context=transformer) as v:
        for column in TEXT_COLUMNS:
            if v.columns(includes=[*REQUIRED, column], mode=column):
                found = column
                break
    if found is None:  # pragma: no cover - pt.validate raises when no mode matches
        raise AssertionError("unreachable")
    check_ids(frame, transformer)
    return found


def _is_missing(value: Any) -> bool:
    return is_missing(value)


def check_ids(frame: pd.DataFrame, transformer: Any = None, columns: Sequence[str] = ("qid", "docno")) -> None:
    """Refuse missing (None, NaN, NA) or blank ids, naming the column and the first rows; pass otherwise."""
    for column in columns:
        if column not in frame.columns:
            continue
        values = frame[column]
        bad = values.isna().to_numpy() | values.astype(str).str.strip().eq("").to_numpy()
        if bad.any():
            rows = np.flatnonzero(bad)[:5].tolist()
            who = f"{type(transformer).__name__}: " if transformer is not None else ""
            raise ValueError(f"{who}column {column!r} has missing or blank values at row position(s) {rows}; "
                             f"give every row a {column} (e.g. frame.dropna(subset=[{column!r}]))")


def _passages(value: Any) -> tuple[str, ...] | None:
    """A context cell as passages: a string, a list of strings, or a list of dicts with ``text``; NaN/None -> None."""
    if _is_missing(value):
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (Sequence, np.ndarray)):
        out = []
        for passage in value:
            if isinstance(passage, dict):
                passage = passage.get("text", "")
            if not _is_missing(passage):
                out.append(str(passage))
        return tuple(out)
    raise TypeError(f"a context cell must be a list of passages (or NaN), got {type(value).__name__}")


@dataclass(frozen=True)
class Group:
    """One query of a frame: the request, its responses in original order, and their row positions in the frame."""

    request: GenerationRequest
    responses: list[GenerationResponse]
    rows: np.ndarray
    """Positional row indices (``frame.iloc``) of the responses, in the same order."""


def original_order(frame: pd.DataFrame) -> np.ndarray:
    """Positions of the rows in original order: by qid (as strings), then rank, then score (descending), then docno."""
    qid_order = np.unique(frame["qid"].astype(str).to_numpy(), return_inverse=True)[1]
    keys: list[np.ndarray] = [frame["docno"].astype(str).to_numpy()]
    if "score" in frame.columns:
        keys.append(-pd.to_numeric(frame["score"], errors="coerce").fillna(-np.inf).to_numpy())
    if "rank" in frame.columns:
        keys.append(pd.to_numeric(frame["rank"], errors="coerce").fillna(np.inf).to_numpy())
    keys.append(qid_order)
    return np.lexsort(keys)


def groups(frame: pd.DataFrame, text_column: str = "text") -> list[Group]:
    """Split a validated frame by qid into requests and responses in original order.

    Duplicate docnos raise ``ValueError``.
    """
    if frame.empty:
        return []
    check_ids(frame)
    dupes = frame[frame.duplicated(["qid", "docno"], keep=False)]
    if len(dupes):
        named = dupes.groupby("qid", sort=True)["docno"].apply(lambda d: sorted(set(map(str, d)))).to_dict()
        raise ValueError(f"duplicate docno within a query (each response needs its own docno): {named}")
    context_column = next((c for c in CONTEXT_COLUMNS if c in frame.columns), None)
    order = original_order(frame)
    qids = frame["qid"].astype(str).to_numpy()[order]
    cuts = np.flatnonzero(qids[1:] != qids[:-1]) + 1
    out = []
    for rows in np.split(order, cuts):
        sub = frame.iloc[rows]
        first = sub.iloc[0]
        context = None
        if context_column is not None:
            context = next((p for p in map(_passages, sub[context_column]) if p is not None), None)
        request = GenerationRequest(str(first["qid"]), first["query"], context)
        ranks = sub["rank"] if "rank" in sub.columns else [None] * len(sub)
        scores = sub["score"] if "score" in sub.columns else [None] * len(sub)
        responses = [
            GenerationResponse(str(docno), text, rank, score)
            for docno, text, rank, score in zip(sub["docno"], sub[text_column], ranks, scores, strict=True)
        ]
        out.append(Group(request, responses, rows))
    return out
