"""Wrappers around one axiom: ``Cached`` (``axiom.cached(path)``), ``Parallel`` (``axiom.parallel(n_jobs)``).

Both run on the library's own machinery: ``Cached`` keeps whole preference matrices in the one matrix cache
(``analysis/matrices.py``: the persistent SQLite store of its directory, shared by every process that opens it);
``Parallel`` runs the wrapped axiom's analysis with ``n_jobs`` worker processes (``Analysis(workers=...)``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, axiom_identity, item_key
from ir_rag_axioms.analysis.matrices import MatrixCache
from ir_rag_axioms.axioms.base import Item, Reads, analyse
from ir_rag_axioms.axioms.combinators import _Unary
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

__all__ = ["Cached", "Parallel", "item_key"]


class Cached(_Unary):
    """Cached(axiom, path): the wrapped axiom's matrices, computed once per item and kept in the store at ``path``.

    The one matrix cache (``analysis.matrices.MatrixCache``), keyed by the one cache key rule:
    ``analysis.cache.axiom_identity`` of the wrapped axiom (canonical ``repr``, judge URL and model, package and tool
    versions, settings) and ``item_key`` of the item (every field it reads); ``evaluate_axioms(cache_dir=)`` shares it.
    """

    path: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.path, (str, os.PathLike)) or not os.fspath(self.path):
            raise TypeError(f"cached() needs a directory path, got {self.path!r}")
        object.__setattr__(self, "path", os.fspath(self.path))

    @functools.cached_property
    def _cache(self) -> MatrixCache:
        """The matrix cache of ``path``, opened once per wrapper and process."""
        return MatrixCache(self.path)

    @functools.cached_property
    def _matrices(self) -> dict[str, dict[str, np.ndarray]]:
        """Axiom identity -> item key -> matrix: what this wrapper loaded or computed in this process."""
        return {}

    def _memo(self, identity: str) -> dict[str, np.ndarray]:
        """The matrices held in memory under ``identity`` (a changed judge or setting starts an empty table)."""
        return self._matrices.setdefault(identity, {})

    def reads(self) -> tuple[Reads, ...]:
        """None: the wrapped axiom's analysis runs in ``prefetch``, and only for items not in the store."""
        return ()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Load the stored matrices of the items; analyse and compute the missing ones, then store them."""
        identity = axiom_identity(self.axiom)
        memo, keys = self._memo(identity), {item_key(r, rs): (r, list(rs)) for r, rs in items if len(rs)}
        wanted = [k for k in keys if k not in memo]
        if not wanted:
            return
        stored = self._cache.load(self.axiom, [keys[k] for k in wanted], identity=identity, keys=wanted)
        memo.update({k: m for k, m in zip(wanted, stored, strict=True) if m is not None})
        missing = [k for k in wanted if k not in memo]
        if not missing:
            return
        analyse([self.axiom], [keys[k] for k in missing], analysis)
        computed = [np.asarray(self.axiom.matrix(*keys[k], analysis), dtype=np.float64) for k in missing]
        memo.update(zip(missing, computed, strict=True))
        self._cache.save(self.axiom, [keys[k] for k in missing], computed, identity=identity, keys=missing)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The stored matrix of this item (computed and stored now if ``prefetch`` did not see it)."""
        key, memo = item_key(request, responses), self._memo(axiom_identity(self.axiom))
        if key not in memo:
            self.prefetch([(request, responses)], analysis)
        return memo[key].copy()

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_cache", "_matrices")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return f"{self.axiom!r}.cached({self.path!r})"


class Parallel(_Unary):
    """Parallel(axiom, n_jobs): the wrapped axiom, its texts analysed by ``n_jobs`` worker processes."""

    n_jobs: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.n_jobs is not None and (isinstance(self.n_jobs, bool) or not isinstance(self.n_jobs, int)
                                        or self.n_jobs < 1):
            raise ValueError(f"parallel(): n_jobs must be an integer >= 1 or None (all free cores), "
                             f"got {self.n_jobs!r}")

    def reads(self) -> tuple[Reads, ...]:
        """None: the wrapped axiom's analysis runs in ``prefetch``, with the worker processes."""
        return ()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Analyse the items for the wrapped axiom with ``n_jobs`` workers, in ``analysis``."""
        before = analysis.workers
        analysis.workers = self.n_jobs
        try:
            analyse([self.axiom], items, analysis)
        finally:
            analysis.workers = before

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The wrapped axiom's matrix."""
        return self.axiom.matrix(request, responses, analysis)

    def __repr__(self) -> str:
        return f"{self.axiom!r}.parallel({self.n_jobs!r})"

