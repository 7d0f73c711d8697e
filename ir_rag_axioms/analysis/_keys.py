"""Keys of the analysis and of axiom results: text digests, memo keys, item and axiom identities, tool versions.

A persistent result is keyed by everything it depends on: the item (``item_key``) and the axiom (``axiom_identity``:
package and tool versions, settings, canonical ``repr``, ``cache_identity()`` and model versions of every part).
Re-exported by ``analysis.cache``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Hashable, Sequence
from typing import Any

from ir_rag_axioms import settings
from ir_rag_axioms.analysis import workers as _workers
from ir_rag_axioms.analysis._hashing import content_hash


def digest(text: str) -> str:
    """A short content address of a text (blake2b, 128 bits, hex): stands for a long text inside keys."""
    return content_hash(text, size=16)


def memo_key(kind: str, *config: Hashable) -> tuple[Hashable, ...]:
    """The one place memo keys are made: (kind, *configuration); the text is the entry the key lives under."""
    return (kind, *config)


TOOL_DISTRIBUTIONS = ("numpy", "scipy", "spacy", "sentence-transformers", "transformers", "torch", "rouge-score",
                      "textstat", "negspacy", "scikit-learn", "nltk")
"""The packages whose versions are part of every persistent result key (a new version computes anew)."""


@functools.cache
def tool_versions() -> tuple[tuple[str, str], ...]:
    """(distribution, version) of each of ``TOOL_DISTRIBUTIONS`` ("-" when not installed), read once per process."""
    from importlib import metadata

    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "-"

    return tuple((name, version(name)) for name in TOOL_DISTRIBUTIONS)


def item_key(request: Any, responses: Sequence[Any]) -> str:
    """Content address of one (request, responses) item: every field an axiom reads.

    Request id, text and context; each response's id, text, context, rank and score (hex BLAKE2b-256).
    """
    return content_hash("".join([repr((request.id, request.text, request.context)),
                                 *(repr((r.id, r.text, r.context, r.rank, r.score)) for r in responses)]))


def axiom_identity(axiom: Any) -> str:
    """The one cache key rule for an axiom: everything its results depend on besides the item.

    The package and tool versions, the environment settings (``settings.fingerprint()``), the canonical ``repr`` and,
    for the axiom and every part of it, its ``cache_identity()`` (e.g. an LLM judge's URL and model) and the versions
    of the spaCy pipelines and encoders it reads. A JSON string (a store namespace).
    """
    from ir_rag_axioms.analysis.store import namespace

    return namespace("matrix", settings.package_version(), [list(v) for v in tool_versions()],
                     settings.fingerprint(), repr(axiom), _identities(axiom))


def matrices_key(axiom: Any, items: Sequence[tuple[Any, Sequence[Any]]]) -> str:
    """The key of an axiom's matrices on a list of items: BLAKE2b-256 of ``axiom_identity`` and each ``item_key``."""
    return content_hash(axiom_identity(axiom), *(item_key(request, responses) for request, responses in items))


def _identities(axiom: Any) -> list[Any]:
    """``cache_identity()`` and the model versions of the axiom and of every configurable part, in tree order."""
    found: list[Any] = []
    todo, seen = [axiom], set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        identity = getattr(node, "cache_identity", None)
        if callable(identity) and (value := identity()) is not None:
            found.append([type(node).__name__, value])
        reads = getattr(node, "reads", None)
        for read in reads() if callable(reads) and hasattr(node, "matrix") else ():
            found.append(["spacy", _model_version(read.model)])
            if read.encoder:
                found.append(["encoder", read.encoder, _encoder_version()])
        if dataclasses.is_dataclass(node) and not isinstance(node, type):
            for field in reversed(dataclasses.fields(node)):
                value = getattr(node, field.name, None)
                parts = value if isinstance(value, (tuple, list)) else (value,)
                todo.extend(p for p in reversed(parts) if dataclasses.is_dataclass(p) and not isinstance(p, type))
    return found


@functools.lru_cache(maxsize=64)
def _model_version(model: str) -> str:
    """``workers.spacy_version(model)``, or the model's name when it cannot be resolved (its axiom fails later)."""
    try:
        return _workers.spacy_version(model)
    except Exception:  # noqa: BLE001 - an unavailable model is reported where it is loaded, not in a key
        return f"{model} (unresolved)"


def _encoder_version() -> str:
    """``workers.encoder_version()``, or "-" without sentence-transformers."""
    try:
        return _workers.encoder_version()
    except Exception:  # noqa: BLE001 - as for a spaCy model
        return "-"
