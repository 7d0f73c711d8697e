"""Names of axioms: one axiom, a list or ``{name: axiom}`` as a named list, the same strings in frames and tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ir_rag_axioms.axioms.base import Axiom

AxiomSpec = Axiom | str
"""An axiom instance, or a spec string that ``ir_rag_axioms.parse`` understands (``"COV1(margin_fraction=0.5)"``)."""


Axioms = AxiomSpec | Sequence[AxiomSpec] | Mapping[str, AxiomSpec]
"""One axiom, a sequence of axioms, or a mapping ``{name: axiom}`` (the names become the columns)."""


def as_axioms(axioms: Axioms) -> list[Axiom]:
    """One axiom, a sequence or a mapping's values (instances or spec strings) as a non-empty list of instances."""
    from ir_rag_axioms.axioms.registry import parse

    if isinstance(axioms, Mapping):
        axioms = list(axioms.values())
    items = [axioms] if isinstance(axioms, (Axiom, str)) else list(axioms)
    out = []
    for item in items:
        if isinstance(item, str):
            item = parse(item)
        if not isinstance(item, Axiom):
            raise TypeError(f"expected an Axiom or an axiom spec string, got {type(item).__name__}: {item!r}")
        out.append(item)
    if not out:
        raise ValueError("need at least one axiom")
    return out


def axiom_columns(axioms: Sequence[Axiom]) -> list[str]:
    """Column names for axioms, made unique.

    The repr without an empty ``()`` (``COH1``, ``COV1(margin_fraction=0.5)``).
    """
    names: list[str] = []
    for axiom in axioms:
        name = repr(axiom)
        name = name[:-2] if name.endswith("()") else name
        base, k = name, 2
        while name in names:
            name, k = f"{base}#{k}", k + 1
        names.append(name)
    return names


def named_axioms(axioms: Axioms, axiom_names: Sequence[str] | None = None) -> dict[str, Axiom]:
    """``{name: axiom}``: a mapping's own names, else ``axiom_names``, else ``axiom_columns`` (repr-based)."""
    instances = as_axioms(axioms)
    if isinstance(axioms, Mapping):
        if axiom_names is not None:
            raise ValueError("give names either as the mapping's keys or as axiom_names=, not both")
        names = [str(k) for k in axioms]
    elif axiom_names is not None:
        names = [str(n) for n in ([axiom_names] if isinstance(axiom_names, str) else axiom_names)]
        if len(names) != len(instances):
            raise ValueError(f"got {len(names)} axiom_names for {len(instances)} axioms")
    else:
        names = axiom_columns(instances)
    if len(set(names)) != len(names):
        raise ValueError(f"axiom names must be unique, got {names}")
    return dict(zip(names, instances, strict=True))


__all__ = ["AxiomSpec", "Axioms", "as_axioms", "axiom_columns", "named_axioms"]
