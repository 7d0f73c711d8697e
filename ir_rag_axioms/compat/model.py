"""``ir_axioms.model``: the reference's data model, as subclasses of ours (so every axiom of ours reads them).

``Query(id, text=None)`` and ``Document(id, text=None, score=None, rank=None, relevance=None)``: the reference's
positional order (ours is ``GenerationResponse(id, text, rank, score, context)``). The text may be left out (for
axioms that read only ids, scores, ranks or relevance labels); an axiom that reads the text of such a query or
document raises ``MissingTextError`` instead of reading an empty string. ``Document.relevance`` is the relevance
label that ``ORACLE()`` reads when no qrels are given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeVar

import numpy as np

from ir_rag_axioms.model import GenerationRequest, GenerationResponse, _clean_number

Input = TypeVar("Input", contravariant=True)
"""The type of the common input of an axiom (a query, a generation request)."""
Output = TypeVar("Output", contravariant=True)
"""The type of the outputs an axiom compares (documents, generated responses)."""

Preference: TypeAlias = float
"""One pairwise preference: > 0 prefers the first output, < 0 the second, 0 neither."""
PreferenceMatrix: TypeAlias = np.ndarray
"""An (n, n) float matrix of pairwise preferences."""


class MissingTextError(ValueError):
    """Raised when an axiom reads the text of a query or document that was built without one."""


class TokenizedString(str):
    """A string with its tokens (term -> count), the reference's pre-tokenized text."""

    tokens: Mapping[str, int]

    def __new__(cls, value: str, tokens: Mapping[str, int]) -> TokenizedString:
        """The string ``value`` carrying ``tokens``."""
        instance = super().__new__(cls, value)
        instance.tokens = dict(tokens)
        return instance

    def __eq__(self, value: object) -> bool:
        return str(self) == value

    def __hash__(self) -> int:
        return str.__hash__(self)


def _keep_tokens(owner: Any, text: Any) -> None:
    """Keep a ``TokenizedString`` text (with its tokens) where our cleaning left its characters unchanged."""
    if isinstance(text, TokenizedString) and object.__getattribute__(owner, "text") == str(text):
        object.__setattr__(owner, "text", text)


def _text_getter(kind: str) -> Any:
    def __getattribute__(self: Any, name: str) -> Any:  # noqa: N807  (installed as the class's hook)
        if name == "text" and not object.__getattribute__(self, "has_text"):
            identifier = object.__getattribute__(self, "id")
            raise MissingTextError(
                f"{kind} {identifier!r} has no text, and this axiom reads it: give {kind}(id, text) (the reference "
                "fetches missing text from a TextContents bound in its injector; compat refuses instead of reading an "
                "empty string)")
        return object.__getattribute__(self, name)

    return __getattribute__


def _same(self: Any, other: object, names: tuple[str, ...]) -> bool:
    if type(other) is not type(self):
        return NotImplemented
    get = object.__getattribute__
    return all(get(self, n) == get(other, n) for n in names)


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Query(GenerationRequest):
    """The reference's ``Query(id, text=None)``: a request without context; the text may be left out."""

    has_text: bool = field(default=True, compare=False)
    """Whether a text was given (``Query("q1")`` has none: reading ``text`` raises ``MissingTextError``)."""

    def __init__(self, id: str, text: str | None = None, *,  # noqa: A002  (the reference's field name)
                 context: Any = None, has_text: bool | None = None) -> None:
        """``Query(id, text=None)`` (``context=``: our retrieved passages, optional)."""
        text = None if has_text is False else text
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "text", "" if text is None else text)
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "has_text", True)  # while our checks clean the fields
        GenerationRequest.__post_init__(self)
        object.__setattr__(self, "has_text", text is not None)
        _keep_tokens(self, text)

    __getattribute__ = _text_getter("Query")

    def __eq__(self, other: object) -> bool:
        return _same(self, other, ("id", "text", "context", "has_text"))

    def __hash__(self) -> int:
        return hash((self.id, object.__getattribute__(self, "text")))

    def __repr__(self) -> str:
        text = object.__getattribute__(self, "text") if self.has_text else None
        return f"Query(id={self.id!r}, text={text!r})"


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Document(GenerationResponse):
    """The reference's ``Document(id, text=None, score=None, rank=None, relevance=None)``, positionally so."""

    relevance: float | None = field(default=None, compare=False)
    """The relevance label (``ORACLE()`` without qrels reads it)."""
    has_text: bool = field(default=True, compare=False)
    """Whether a text was given (``Document("d1")`` has none: reading ``text`` raises ``MissingTextError``)."""

    def __init__(self, id: str, text: str | None = None,  # noqa: A002  (the reference's field name)
                 score: float | None = None, rank: int | None = None, relevance: float | None = None, *,
                 context: Any = None, has_text: bool | None = None) -> None:
        """The reference's positional order: id, text, score, rank, relevance (``context=``: ours, optional)."""
        text = None if has_text is False else text
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "text", "" if text is None else text)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "has_text", True)  # while our checks clean the fields
        GenerationResponse.__post_init__(self)
        object.__setattr__(self, "has_text", text is not None)
        _keep_tokens(self, text)
        object.__setattr__(self, "relevance",
                           _clean_number(relevance, f"Document {self.id!r}: relevance", False))

    __getattribute__ = _text_getter("Document")

    def __eq__(self, other: object) -> bool:
        return _same(self, other, ("id", "text", "context", "has_text"))

    def __hash__(self) -> int:
        return hash((self.id, object.__getattribute__(self, "text")))

    def __repr__(self) -> str:
        text = object.__getattribute__(self, "text") if self.has_text else None
        return (f"Document(id={self.id!r}, text={text!r}, score={self.score!r}, rank={self.rank!r}, "
                f"relevance={self.relevance!r})")


GenerationInput = GenerationRequest
"""The reference's deprecated name of ``GenerationRequest``."""
GenerationOutput = GenerationResponse
"""The reference's deprecated name of ``GenerationResponse``."""

__all__ = ["Document", "GenerationInput", "GenerationOutput", "GenerationRequest", "GenerationResponse", "Input",
           "MissingTextError", "Output", "Preference", "PreferenceMatrix", "Query", "TokenizedString"]
