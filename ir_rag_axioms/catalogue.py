"""The axiom catalogue: short name, dimension, rule, default parameters, direction and citation of each axiom."""

from __future__ import annotations

import dataclasses
from typing import Any

from ir_rag_axioms.explanation import citation_of, rule_of

DIMENSIONS = {
    "coherence": "coherence", "coverage": "coverage", "consistency": "consistency", "correctness": "correctness",
    "clarity": "clarity", "generative": "generative (retrieval axiom on responses)", "retrieval": "retrieval",
    "oracles": "oracle", "utility": "utility", "metrics": "metric",
}
"""Module name -> utility dimension shown in the catalogue."""


def dimension_of(axiom: Any) -> str:
    """The dimension of an axiom: the module (file) it is defined in."""
    from ir_rag_axioms.axioms.generative import Generative

    if isinstance(axiom, Generative):
        return DIMENSIONS["generative"]
    parts = type(axiom).__module__.split(".")
    for part in reversed(parts):
        if part in DIMENSIONS:
            return DIMENSIONS[part]
    return "user-defined"


def defaults_of(axiom: Any) -> dict[str, Any]:
    """Parameter name -> default value (as the registered instance is configured)."""
    if not dataclasses.is_dataclass(axiom):
        return {}
    return {f.name: getattr(axiom, f.name) for f in dataclasses.fields(axiom) if f.repr}


def describe(name: str) -> dict[str, Any]:
    """The catalogue entry of a registered axiom: name, dimension, rule, defaults, direction, citation."""
    from ir_rag_axioms.axioms.base import FeatureAxiom
    from ir_rag_axioms.axioms.generative import Generative
    from ir_rag_axioms.axioms.registry import get

    axiom = get(name)
    if isinstance(axiom, Generative):  # the wrapped retrieval axiom's rule, parameters and citation
        entry = describe(axiom.axiom.label)
        return entry | {"name": name, "dimension": dimension_of(axiom),
                        "rule": f"{name}: {entry['rule']} (request = query, response = document)"}
    direction = None
    if isinstance(axiom, FeatureAxiom):
        direction = "higher is better" if axiom.prefers_higher() else "lower is better"
    return {"name": name, "dimension": dimension_of(axiom), "rule": rule_of(axiom),
            "defaults": {k: _plain(v) for k, v in defaults_of(axiom).items()},
            "direction": direction, "citation": citation_of(axiom)}


def catalogue() -> list[dict[str, Any]]:
    """The catalogue entry of every registered axiom, in registration order."""
    from ir_rag_axioms.axioms.registry import names

    return [describe(name) for name in names()]


def _plain(value: Any) -> Any:
    """A JSON-friendly default: numbers, strings, booleans and None as they are, anything else as its repr."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else repr(value)
