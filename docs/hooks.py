"""MkDocs hooks: the axiom catalogue and the API reference are generated from the package when the site is built."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = "<!-- catalogue: generated from the registry (docs/hooks.py) -->"
API = "<!-- api: one section per public module (docs/hooks.py) -->"


class _DynamicAll(logging.Filter):
    """Drop griffe's note on the root's ``__all__``, which ends with ``*REGISTRY`` (known at run time only).

    The registered names are documented in the modules that define them.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """False for that one message."""
        return "Unsupported item in ir_rag_axioms.__all__" not in record.getMessage()


for _name in ("griffe", "mkdocs.plugins.griffe", "mkdocs.plugins.mkdocstrings_handlers.python"):
    logging.getLogger(_name).addFilter(_DynamicAll())


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
    from ir_rag_axioms.catalogue import markdown

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
