"""The one matrix cache: axioms' preference matrices per item, kept in the persistent store of a directory.

``MatrixCache(directory)`` keeps each matrix in the ``DiskStore`` of the directory under the one cache key rule:
namespace ``cache.axiom_identity(axiom)`` (canonical ``repr``, judge URL and model, package and tool versions,
settings), key ``cache.item_key(request, responses)`` (every field an axiom reads). ``axiom.cached(path)`` and
``compute_preferences`` / ``evaluate_axioms(..., cache_dir=...)`` both use it, so either reuses what the other stored.
A stored matrix of the wrong shape is reported and recomputed; damaged rows are the store's (``StoreWarning``).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ir_rag_axioms.analysis.cache import axiom_identity, item_key
from ir_rag_axioms.analysis.store import DiskStore, StoreWarning

Item = tuple[Any, Sequence[Any]]
"""(request, responses): anything with the fields ``item_key`` reads."""


class MatrixCache:
    """Preference matrices by (axiom identity, item key) in the ``DiskStore`` of a directory (or a given store)."""

    def __init__(self, where: str | os.PathLike[str] | DiskStore) -> None:
        """Open the store in directory ``where`` (created if missing), or use the ``DiskStore`` given."""
        if isinstance(where, DiskStore):
            self.store = where
        elif isinstance(where, (str, os.PathLike)) and os.fspath(where):
            self.store = DiskStore(where)
        else:
            raise TypeError(f"a matrix cache needs a directory path or a DiskStore, got {where!r}")

    def __repr__(self) -> str:
        """``MatrixCache('<directory>')``."""
        return f"MatrixCache({str(self.store.directory)!r})"

    def __reduce__(self) -> tuple[type[MatrixCache], tuple[DiskStore]]:
        """Pickle as its store (which reopens by path)."""
        return (MatrixCache, (self.store,))

    def load(self, axiom: Any, items: Sequence[Item], *, identity: str | None = None,
             keys: Sequence[str] | None = None) -> list[np.ndarray | None]:
        """The stored matrix of each item (float64, n x n for n responses); None where missing or of the wrong shape.

        ``identity`` and ``keys`` are ``axiom_identity(axiom)`` and the items' ``item_key``, if already computed.
        """
        identity = axiom_identity(axiom) if identity is None else identity
        keys = _keys(items, keys)
        found = self.store.get_many(identity, list(dict.fromkeys(keys)))
        out: list[np.ndarray | None] = []
        for key, (_, responses) in zip(keys, items, strict=True):
            value = found.get(key)
            expected = (len(responses), len(responses))
            if value is not None and (not isinstance(value, np.ndarray) or value.shape != expected):
                shape = getattr(value, "shape", type(value).__name__)
                warnings.warn(f"the cached matrix of {axiom!r} for an item in {self.store.file} is {shape}, not "
                              f"{expected}; it is recomputed", StoreWarning, stacklevel=2)
                value = None
            out.append(None if value is None else np.asarray(value, dtype=np.float64))
        return out

    def save(self, axiom: Any, items: Sequence[Item], matrices: Sequence[np.ndarray], *, identity: str | None = None,
             keys: Sequence[str] | None = None) -> None:
        """Store one matrix per item, in one transaction (a store that cannot write warns and keeps nothing)."""
        identity = axiom_identity(axiom) if identity is None else identity
        keys = _keys(items, keys)
        if len(matrices) != len(keys):
            raise ValueError(f"{len(matrices)} matrices for {len(keys)} items")
        self.store.put_many(identity, {k: np.asarray(m, dtype=np.float64) for k, m in zip(keys, matrices, strict=True)})


def _keys(items: Sequence[Item], keys: Sequence[str] | None) -> list[str]:
    """The items' ``item_key`` (those given, checked to be one per item)."""
    if keys is None:
        return [item_key(request, responses) for request, responses in items]
    if len(keys) != len(items):
        raise ValueError(f"{len(keys)} keys for {len(items)} items")
    return list(keys)
