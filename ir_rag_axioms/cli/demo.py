"""``ir-rag-axioms demo``: a short demonstration; every argument goes to ``ir_rag_axioms.demo.main``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ir_rag_axioms.cli._common import Subparsers


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``demo`` subcommand (no options of its own: ``main`` hands its arguments to the demo)."""
    return sub.add_parser("demo", help="a short demonstration (arguments go to the demo)", add_help=False)


def run(argv: Sequence[str]) -> int:
    """Delegate to ``ir_rag_axioms.demo.main``."""
    from ir_rag_axioms import demo as demo_module

    result = demo_module.main(list(argv))
    return int(result or 0)
