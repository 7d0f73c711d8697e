"""The axiom catalogue: short name, dimension, rule, default parameters, direction and citation of each axiom."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from ir_rag_axioms.axioms.explanation import citation_of, rule_of

GENERATIVE = "generative (retrieval axiom on responses)"
"""The dimension of the GEN_ axioms (``Generative.dimension``)."""


def dimension_of(axiom: Any) -> str:
    """The axiom's ``dimension`` class attribute (``"user-defined"`` for objects without one)."""
    return str(getattr(type(axiom), "dimension", "") or "user-defined")


def defaults_of(axiom: Any) -> dict[str, Any]:
    """Parameter name -> default value (as the registered instance is configured)."""
    if not dataclasses.is_dataclass(axiom):
        return {}
    return {f.name: getattr(axiom, f.name) for f in dataclasses.fields(axiom) if f.repr}


def parameter_docs(axiom: Any) -> dict[str, str]:
    """Parameter name -> the first line of its attribute docstring in the class sources (best effort, MRO order)."""
    import ast
    import inspect
    import textwrap

    docs: dict[str, str] = {}
    for cls in reversed(type(axiom).__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in zip(body, body[1:], strict=False):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = after.value.value.strip().splitlines()[0]
    return docs


def describe(name: str) -> dict[str, Any]:
    """The catalogue entry of a registered axiom: name, dimension, rule, defaults, direction, citation."""
    from ir_rag_axioms.axioms.base import FeatureAxiom
    from ir_rag_axioms.axioms.generative import Generative
    from ir_rag_axioms.axioms.registry import get

    axiom = get(name)
    if isinstance(axiom, Generative):  # the wrapped retrieval axiom's rule and parameters; the adaptation's citation
        entry = describe(axiom.axiom.label)
        return entry | {"name": name, "dimension": dimension_of(axiom),
                        "rule": f"{name}: {entry['rule']} (request = query, response = document)",
                        "citation": citation_of(axiom)}
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


RAG_DIMENSIONS = ("coherence", "coverage", "consistency", "correctness", "clarity")
"""The utility dimensions of the RAG axioms (Merker et al., ICTIR 2025)."""


def markdown(entries: list[dict[str, Any]] | None = None) -> str:
    """The catalogue as Markdown (the catalogue page's tables, printed by ``ir-rag-axioms list --markdown``).

    Without ``entries``: every axiom of the package (axioms registered outside it are left out). Two tables: the RAG
    axioms with the parameters the ICTIR 2025 preset changes, and every other registered axiom;
    the GEN_ axioms share one row (each is the retrieval axiom of the same name, request = query, response =
    document, with its defaults).
    """
    from ir_rag_axioms.axioms.presets import ICTIR2025

    if entries is None:  # the package's own axioms, not those a session registered
        entries = [e for e in catalogue() if e["dimension"] != "user-defined"]
    rag = sorted((e for e in entries if e["dimension"] in RAG_DIMENSIONS),
                 key=lambda e: RAG_DIMENSIONS.index(e["dimension"]))  # stable: registration order within one
    generative = [e for e in entries if e["dimension"] == GENERATIVE]
    other = [e for e in entries if e not in rag and e not in generative]
    lines = ["| axiom | dimension | rule | defaults | ICTIR 2025 preset | citation |", "|---|---|---|---|---|---|"]
    for entry in rag:
        preset = ICTIR2025.get(entry["name"])
        changed = {} if preset is None else {
            k: _plain(v) for k, v in defaults_of(preset).items() if _plain(v) != entry["defaults"].get(k)}
        lines.append(_row(entry["name"], entry["dimension"], _rule(entry), _arguments(entry["defaults"]),
                          _arguments(changed) if preset is not None else "", entry["citation"]))
    lines += ["", "| axiom | dimension | rule | defaults | citation |", "|---|---|---|---|---|"]
    for entry in other:
        lines.append(_row(entry["name"], entry["dimension"], _rule(entry), _arguments(entry["defaults"]),
                          entry["citation"]))
    if generative:
        names = ", ".join(e["name"] for e in generative)
        lines.append(_row(names, "generative", "the retrieval axiom of the same name on responses (request = query, "
                          "response = document)", "as the retrieval axiom", generative[0]["citation"]))
    return "\n".join(lines) + "\n"


def _rule(entry: dict[str, Any]) -> str:
    """The rule without the leading ``NAME:``, citations in brackets and reST literals."""
    text = re.sub(rf"^{re.escape(entry['name'])}\s*:\s*", "", entry["rule"])
    text = re.sub(r"\s*\[[^\[\]]*\d{4}[^\[\]]*\]", "", text)
    return text.replace("``", "`")


def _arguments(values: dict[str, Any]) -> str:
    """Keyword arguments as they would be written in Python: ``margin_fraction=0.1, spacy_model='en_core_web_sm'``."""
    return ", ".join(f"{k}={v!r}" for k, v in values.items())


def _row(*cells: str) -> str:
    """One Markdown table row; pipes inside a cell are escaped."""
    return "| " + " | ".join(" ".join(str(c).split()).replace("|", "\\|") or " " for c in cells) + " |"
