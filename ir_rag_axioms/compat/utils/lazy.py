"""``ir_axioms.utils.lazy``: ``lazy_inject(cls)``, a factory that builds ``cls`` from the injector when called."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")


def lazy_inject(cls: type[_T], injector: Any = None) -> Callable[..., _T]:
    """``factory(**changes)``: ``injector.get(cls)`` (default: the compat injector) with ``changes`` replaced."""

    def build(**changes: Any) -> _T:
        from ir_rag_axioms.compat.dependency_injection import injector as default

        made = (default if injector is None else injector).get(cls)
        return dataclasses.replace(made, **changes) if changes else made  # type: ignore[type-var]

    return build


__all__ = ["lazy_inject"]
