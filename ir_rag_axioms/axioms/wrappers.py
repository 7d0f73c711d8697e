"""Wrappers around one axiom: ``Cached`` (``axiom.cached(path)``), ``Parallel`` (``axiom.parallel(n_jobs)``).

Both run on the library's own machinery: ``Cached`` keeps whole preference matrices in the persistent SQLite store
(``analysis/store.py``) of its directory, shared by every process that opens it; ``Parallel`` runs the wrapped
axiom's analysis with ``n_jobs`` worker processes (``Analysis(workers=...)``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, axiom_identity, item_key
from ir_rag_axioms.axioms.base import Item, Reads, analyse
from ir_rag_axioms.axioms.combinators import _Unary
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

__all__ = ["Cached", "Parallel", "item_key"]


class Cached(_Unary):
    """Cached(axiom, path): the wrapped axiom's matrices, computed once per item and kept in the store at ``path``.

    Keyed by the one cache key rule: ``analysis.cache.axiom_identity`` of the wrapped axiom (canonical ``repr``,
    judge URL and model, package and tool versions, settings) and ``item_key`` of the item (every field it reads).
    """

    path: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.path, (str, os.PathLike)) or not os.fspath(self.path):
            raise TypeError(f"cached() needs a directory path, got {self.path!r}")
        object.__setattr__(self, "path", os.fspath(self.path))

    def _store(self):  # noqa: ANN202  (a DiskStore, opened once per wrapper and process)
        if "_disk" not in self.__dict__:
            from ir_rag_axioms.analysis.store import DiskStore

            object.__setattr__(self, "_disk", DiskStore(self.path))
        return self.__dict__["_disk"]

    def _namespace(self) -> str:
        return axiom_identity(self.axiom)

    def _memo(self, namespace: str) -> dict[str, np.ndarray]:
        """The matrices held in memory under ``namespace`` (a changed judge or setting starts an empty table)."""
        if "_matrices" not in self.__dict__:
            object.__setattr__(self, "_matrices", {})
        return self.__dict__["_matrices"].setdefault(namespace, {})

    def reads(self) -> tuple[Reads, ...]:
        """None: the wrapped axiom's analysis runs in ``prefetch``, and only for items not in the store."""
        return ()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Load the stored matrices of the items; analyse and compute the missing ones, then store them."""
        namespace = self._namespace()
        memo, keys = self._memo(namespace), {item_key(r, rs): (r, list(rs)) for r, rs in items if len(rs)}
        wanted = [k for k in keys if k not in memo]
        if not wanted:
            return
        memo.update({k: np.asarray(v, dtype=np.float64) for k, v in self._store().get_many(namespace, wanted).items()})
        missing = [keys[k] for k in wanted if k not in memo]
        if not missing:
            return
        analyse([self.axiom], missing, analysis)
        computed = {item_key(r, rs): np.asarray(self.axiom.matrix(r, rs, analysis), dtype=np.float64)
                    for r, rs in missing}
        memo.update(computed)
        self._store().put_many(namespace, computed)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The stored matrix of this item (computed and stored now if ``prefetch`` did not see it)."""
        key, memo = item_key(request, responses), self._memo(self._namespace())
        if key not in memo:
            self.prefetch([(request, responses)], analysis)
        return memo[key].copy()

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_disk", "_matrices")}

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

