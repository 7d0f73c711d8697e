"""Old import paths of modules that moved into subpackages: they still import, with a ``DeprecationWarning``.

``import ir_rag_axioms.runs`` gives a module that forwards every name to where it lives now
(``ir_rag_axioms.datasets.runs`` and ``ir_rag_axioms.evaluation.run_measures``); the root package installs the
finder, so nothing else needs to know the old names. Removed in the release after next.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from typing import Any

MOVED: dict[str, tuple[str, ...]] = {
    "ir_rag_axioms.experiment": ("ir_rag_axioms.evaluation.experiment",),
    "ir_rag_axioms.learning": ("ir_rag_axioms.evaluation.learning",),
    "ir_rag_axioms.systems": ("ir_rag_axioms.evaluation.systems",),
    "ir_rag_axioms.report": ("ir_rag_axioms.evaluation.report",),
    "ir_rag_axioms.runs": ("ir_rag_axioms.datasets.runs", "ir_rag_axioms.evaluation.run_measures"),
    "ir_rag_axioms.metrics.transformer": ("ir_rag_axioms.pyterrier.metrics",),
    "ir_rag_axioms.presets": ("ir_rag_axioms.axioms.presets",),
    "ir_rag_axioms.catalogue": ("ir_rag_axioms.axioms.catalogue",),
    "ir_rag_axioms.explanation": ("ir_rag_axioms.axioms.explanation",),
    "ir_rag_axioms.execution": ("ir_rag_axioms.axioms.execution",),
    "ir_rag_axioms.dimensions": ("ir_rag_axioms.evaluation.dimensions",),
}
"""Old module path -> the modules that hold its names now (looked up in this order)."""


class _Forward(types.ModuleType):
    """A module under an old path whose names are those of the modules it moved to."""

    __targets__: tuple[str, ...] = ()

    def __getattr__(self, name: str) -> Any:
        for target in self.__targets__:
            module = importlib.import_module(target)
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"module {self.__name__!r} (moved to {', '.join(self.__targets__)}) has no "
                             f"attribute {name!r}")

    def __dir__(self) -> list[str]:
        return sorted({n for t in self.__targets__ for n in dir(importlib.import_module(t))})


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths in ``MOVED`` and loads them as forwarding modules, with a warning."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        """A spec for an old path, None for every other module."""
        return importlib.machinery.ModuleSpec(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        """The forwarding module."""
        module = _Forward(spec.name)
        module.__targets__ = MOVED[spec.name]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Warn once, where the old path is imported."""
        new = " and ".join(MOVED[module.__name__])
        warnings.warn(f"{module.__name__} moved to {new}; import from there (the old path goes in a later release)",
                      DeprecationWarning, stacklevel=2)


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _MovedFinder())
