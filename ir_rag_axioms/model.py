"""The data model: a generation request (query + retrieved context) and its candidate responses."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field


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
        context = self.context
        if context is not None:
            if isinstance(context, str):
                context = (context,)
            elif not isinstance(context, Sequence) and not hasattr(context, "__iter__"):
                raise TypeError("GenerationRequest.context must be a sequence of passage strings")
            passages = tuple(_clean_text(p, "a context passage") for p in context)
            passages = tuple(p for p in passages if p.strip())
            context = passages or None
        object.__setattr__(self, "context", context)

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

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", str(self.id))
        object.__setattr__(self, "text", _clean_text(self.text, "GenerationResponse.text"))


Query = GenerationRequest
"""Retrieval axioms read a query as a request without context."""
Document = GenerationResponse
"""Retrieval axioms read a document as a response."""
