"""The data model: a generation request (query + retrieved context) and its candidate responses."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field


def _passages(context: object, what: str) -> tuple[str, ...] | None:
    """Context passages as a tuple of non-blank strings; ``None`` when there are none."""
    if context is None:
        return None
    if isinstance(context, str):
        context = (context,)
    elif not isinstance(context, Sequence) and not hasattr(context, "__iter__"):
        raise TypeError(f"{what} must be a sequence of passage strings")
    passages = tuple(_clean_text(p, "a context passage") for p in context)
    return tuple(p for p in passages if p.strip()) or None


def _clean_text(value: object, what: str) -> str:
    """Return ``value`` as text; ``None`` and NaN become the empty string."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__}")
    return value


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
        object.__setattr__(self, "id", str(self.id))
        object.__setattr__(self, "text", _clean_text(self.text, "GenerationRequest.text"))
        object.__setattr__(self, "context", _passages(self.context, "GenerationRequest.context"))

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
        object.__setattr__(self, "id", str(self.id))
        object.__setattr__(self, "text", _clean_text(self.text, "GenerationResponse.text"))
        object.__setattr__(self, "context", _passages(self.context, "GenerationResponse.context"))


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
