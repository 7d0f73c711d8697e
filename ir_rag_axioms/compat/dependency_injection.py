"""``ir_axioms.dependency_injection``: the ``injector`` the reference's tools are bound in (the ``injector`` library).

Bound by default: ``TextContents[Query]`` and ``TextContents[Document]`` (the ``text`` attribute) and
``TermTokenizer`` (our axioms' terms, so that statistics counted with it match what the axioms look up). Not bound
by default: ``IndexStatistics``; bind one (``injector.binder.bind(interface=IndexStatistics, to=...)``) and the compat
axioms that read collection statistics, built after the binding, use it.
"""

from __future__ import annotations

from typing import Any

from injector import Binder, Injector, InstanceProvider, Module

from ir_rag_axioms.compat.model import Document, Query
from ir_rag_axioms.compat.tools import (
    IndexStatistics,
    SimpleTextContents,
    SpacyTermTokenizer,
    TermTokenizer,
    TextContents,
)


class DefaultModule(Module):
    """The default bindings: text contents of queries and documents, and our term tokenizer."""

    def configure(self, binder: Binder) -> None:
        """Bind the defaults."""
        binder.bind(TextContents[Query], to=InstanceProvider(SimpleTextContents()))  # type: ignore[type-abstract]
        binder.bind(TextContents[Document], to=InstanceProvider(SimpleTextContents()))  # type: ignore[type-abstract]
        binder.bind(TermTokenizer, to=InstanceProvider(SpacyTermTokenizer()))  # type: ignore[type-abstract]


injector = Injector(DefaultModule)
"""The default injector (the reference's ``ir_axioms.dependency_injection.injector``)."""


def bound_statistics(of: Injector | None = None) -> Any:
    """The ``IndexStatistics`` bound explicitly in ``of`` (default: ``injector``), built now; None if none is bound."""
    chosen = injector if of is None else of
    if not chosen.binder.has_explicit_binding_for(IndexStatistics):
        return None
    return chosen.get(IndexStatistics)  # type: ignore[type-abstract]


def unbind(interface: Any, of: Injector | None = None) -> bool:
    """Remove the explicit binding of ``interface`` from ``of`` (default: ``injector``); whether there was one.

    The ``injector`` library has no public unbind; this drops the binder's entry (its ``_bindings`` table).
    """
    chosen = injector if of is None else of
    return chosen.binder._bindings.pop(interface, None) is not None


__all__ = ["DefaultModule", "bound_statistics", "injector", "unbind"]
