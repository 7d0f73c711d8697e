"""The data model: a generation request (query + retrieved context) and its candidate responses."""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

_SURROGATES = re.compile("[\ud800-\udfff]")


def is_missing(value: object) -> bool:
    """Whether ``value`` is a missing value: None, NaN (any float type) or ``pd.NA``/``pd.NaT``."""
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return bool(np.isnan(value))
    return type(value).__name__ in ("NAType", "NaTType")


def _clean_text(value: object, what: str) -> str:
    """``value`` as a plain ``str`` (any str subclass, e.g. ``np.str_``); missing values become the empty string.

    Lone surrogates (invalid UTF-16 halves) are replaced by U+FFFD, with a warning naming ``what``.
    """
    if is_missing(value):
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__} {value!r:.60}")
    text = str.__str__(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        warnings.warn(f"{what} holds lone surrogates (not valid Unicode); they are replaced by U+FFFD",
                      stacklevel=4)
        text = _SURROGATES.sub("\ufffd", text)
    return text


def _clean_id(value: object, what: str) -> str:
    """An identifier as ``str``; missing values (None, NaN, NA) and blank strings are refused."""
    if is_missing(value) or (isinstance(value, str) and not value.strip()):
        raise ValueError(f"{what} must be a non-empty identifier, got {value!r}")
    if not isinstance(value, (str, int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{what} must be a string or an integer, got {type(value).__name__} {value!r:.60}")
    return _clean_text(value, what) if isinstance(value, str) else str(int(value))


def _clean_number(value: object, what: str, whole: bool) -> float | int | None:
    """A rank (``whole``) or score as int/float; missing values become None; other types are refused."""
    if is_missing(value):
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a number or None, got {type(value).__name__} {value!r:.40}")
    if whole:
        if not float(value).is_integer():
            raise ValueError(f"{what} must be a whole number, got {value!r}")
        return int(value)
    return float(value)


def _clean_context(context: object, owner: str) -> tuple[str, ...] | None:
    """Context passages: a string or a sequence (list, tuple, numpy array, Series) of strings; None if empty."""
    if context is None or is_missing(context):
        return None
    what = f"{owner}: context"
    if isinstance(context, str):
        context = (context,)
    elif isinstance(context, (bytes, Mapping, Set)) or not isinstance(context, (Sequence, np.ndarray, pd.Series)):
        raise TypeError(f"{what} must be a string or a sequence of passage strings, got {type(context).__name__}")
    passages = tuple(_clean_text(p, f"{what} passage") for p in np.asarray(context, dtype=object).ravel())
    return tuple(p for p in passages if p.strip()) or None


@dataclass(frozen=True)
class GenerationRequest:
    """A request to a RAG system: the query text and, optionally, the retrieved context passages."""

    id: str
    """Identifier of the request (the query id, ``qid``)."""
    text: str
    """The request (query) text."""
    context: tuple[str, ...] | None = None
    """Retrieved context passages in rank order; ``None`` if the request has no context."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", _clean_id(self.id, "GenerationRequest.id"))
        object.__setattr__(self, "text", _clean_text(self.text, f"GenerationRequest {self.id!r}: text"))
        object.__setattr__(self, "context", _clean_context(self.context, f"GenerationRequest {self.id!r}"))

    @property
    def context_text(self) -> str:
        """The context passages joined by blank lines (empty if there is no context)."""
        return "\n\n".join(self.context) if self.context else ""


@dataclass(frozen=True)
class GenerationResponse:
    """A generated response (or a retrieved document) to compare with others for the same request."""

    id: str
    """Identifier of the response (the ``docno``), unique within its request."""
    text: str
    """The response text."""
    rank: int | None = field(default=None, compare=False)
    """Original rank (1 = best), used by ORIG; ``None`` if unknown."""
    score: float | None = field(default=None, compare=False)
    """Original retrieval score (higher = better), used by ORIG and LB1; ``None`` if unknown."""
    context: tuple[str, ...] | None = None
    """The passages this response was generated from, when it has its own (``None``: the request's context)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", _clean_id(self.id, "GenerationResponse.id"))
        object.__setattr__(self, "text", _clean_text(self.text, f"GenerationResponse {self.id!r}: text"))
        object.__setattr__(self, "rank", _clean_number(self.rank, f"GenerationResponse {self.id!r}: rank", True))
        object.__setattr__(self, "score", _clean_number(self.score, f"GenerationResponse {self.id!r}: score", False))
        object.__setattr__(self, "context", _clean_context(self.context, f"GenerationResponse {self.id!r}"))


def context_of(request: GenerationRequest, response: GenerationResponse) -> tuple[str, ...] | None:
    """The context a response is judged against: its own when it has one, else the request's."""
    return response.context if response.context is not None else request.context


def all_contexts(request: GenerationRequest, responses: Sequence[GenerationResponse]) -> list[tuple[str, ...]]:
    """The distinct contexts of a request's responses (each response's own, else the request's), in first use."""
    found = (context_of(request, r) for r in responses)
    return list(dict.fromkeys(c for c in found if c))


Query = GenerationRequest
"""Retrieval axioms read a query as a request without context."""
Document = GenerationResponse
"""Retrieval axioms read a document as a response."""


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
