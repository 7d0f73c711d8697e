"""Command line: ``ir-rag-axioms list | explain | preferences | rerank | evaluate | compare | dimensions | demo``.

One module per command, each with ``add_parser`` (its arguments) and ``run`` (calls the library); ``main`` turns
the library's errors into a message and exit status 2. Specs: ``presets.parse_axioms`` (axioms),
``axioms.oracles.oracle_from_spec`` (oracles).
"""

from __future__ import annotations

from typing import Any

from ir_rag_axioms.cli._common import count
from ir_rag_axioms.cli._main import COMMANDS, build_parser, main


def parse_oracle(spec: str, data: str | None, duplicates: Any = "mean", responses: str | None = None) -> Any:
    """``axioms.oracles.oracle_from_spec`` (kept for the old import path)."""
    from ir_rag_axioms.axioms.oracles import oracle_from_spec

    return oracle_from_spec(spec, data, duplicates, responses)


def parse_axioms(text: str) -> dict[str, Any]:
    """``presets.parse_axioms``: named axioms from comma-separated items (kept for the old import path)."""
    from ir_rag_axioms.axioms.presets import parse_axioms as parse

    return parse(text)


def split_specs(text: str) -> list[str]:
    """``axioms.registry.split_specs``: specs split at top-level commas (kept for the old import path)."""
    from ir_rag_axioms.axioms.registry import split_specs as split

    return split(text)


__all__ = ["COMMANDS", "build_parser", "count", "main", "parse_axioms", "parse_oracle", "split_specs"]
