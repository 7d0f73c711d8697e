"""MkDocs hooks: the axiom catalogue and the API reference are generated from the package when the site is built."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = "<!-- catalogue: generated from the registry (docs/hooks.py) -->"
API = "<!-- api: one section per public module (docs/hooks.py) -->"


def public_modules() -> list[str]:
    """Dotted names of the package's modules whose path has no ``_``-prefixed part (``__init__`` is the package)."""
    names = []
    for path in sorted((ROOT / "ir_rag_axioms").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if not any(p.startswith("_") for p in parts):
            names.append(".".join(parts))
    return names


def catalogue_markdown() -> str:
    """The catalogue tables of every axiom of the package, as ``ir-rag-axioms list --markdown`` prints them."""
    from ir_rag_axioms.axioms.catalogue import markdown

    return markdown()


def api_markdown() -> str:
    """A mkdocstrings section (``::: module``) for each public module."""
    return "\n".join(f"::: {name}\n    options:\n      members_order: source\n" for name in public_modules())


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Put the generated catalogue and API sections where their markers stand."""
    if CATALOGUE in markdown:
        markdown = markdown.replace(CATALOGUE, catalogue_markdown())
    if API in markdown:
        markdown = markdown.replace(API, api_markdown())
    return markdown
