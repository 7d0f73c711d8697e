"""Training topics of fitted axioms: find the fitted parts of an axiom, warn where they meet their training data."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

from ir_rag_axioms.axioms.base import Axiom


class InSampleWarning(UserWarning):
    """A learned model is evaluated (or reranks) on topics it was fitted on: figures there are in-sample."""


def learned_parts(axiom: Any) -> list[Any]:
    """Every fitted part of an axiom (one with ``training_topics``: itself, or inside combinators), in tree order."""
    found: list[Any] = []
    todo, seen = [axiom], set()
    while todo:
        node = todo.pop()
        if id(node) in seen or not isinstance(node, Axiom):
            continue
        seen.add(id(node))
        if isinstance(getattr(node, "training_topics", None), tuple):
            found.append(node)
        if dataclasses.is_dataclass(node):
            for f in reversed(dataclasses.fields(node)):
                value = getattr(node, f.name, None)
                todo.extend(value if isinstance(value, (tuple, list)) else (value,))
    return found


def query_fingerprint(text: str) -> str:
    """The first 16 hex digits of SHA-256 of the query text lower-cased with whitespace collapsed (no text is kept)."""
    import hashlib

    return hashlib.sha256(" ".join(str(text).lower().split()).encode("utf-8")).hexdigest()[:16]


def warn_in_sample(axioms: Sequence[Any], topics: Sequence[Any], where: str) -> None:
    """An ``InSampleWarning`` for each fitted model among ``axioms`` whose training topics meet ``topics``.

    ``topics``: topic ids, or requests (``id`` and ``text``), which also meet a training topic by the query's
    content (``query_fingerprint``) when they come under another id.
    """
    ids = [str(getattr(t, "id", t)) for t in topics]
    prints = [query_fingerprint(t.text) if hasattr(t, "text") else None for t in topics]
    for axiom in axioms:
        for model in learned_parts(axiom):
            trained, known = set(model.training_topics), set(getattr(model, "training_queries", ()))
            seen = sorted({i for i, f in zip(ids, prints, strict=True) if i in trained or (f and f in known)})
            if not seen:
                continue
            name = (getattr(model, "info", None) or {}).get("name")
            label = f"LearnedAxiom.pretrained({name!r})" if name else f"a {type(model).__name__}"
            warnings.warn(f"{where}: {label} was fitted on {len(seen)} of these {len(set(ids))} topics (e.g. "
                          f"{seen[0]!r}), matched by id or by query text: figures on them are in-sample (development "
                          "figures, not held-out). Evaluate on other topics: model.held_out(topics) drops its "
                          "training topics", InSampleWarning, stacklevel=3)


__all__ = ["InSampleWarning", "learned_parts", "query_fingerprint", "warn_in_sample"]
