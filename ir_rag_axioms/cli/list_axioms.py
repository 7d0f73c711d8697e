"""``ir-rag-axioms list``: the axiom catalogue (name, dimension, rule; -v defaults and citation; JSON; Markdown)."""

from __future__ import annotations

import argparse
import re

from ir_rag_axioms.cli._common import Subparsers


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``list`` subcommand's arguments."""
    ls = sub.add_parser("list", help="the axiom catalogue: name, dimension, rule (-v: defaults, citation)")
    ls.add_argument("-v", "--verbose", action="store_true", help="also the full rule, defaults and citation")
    ls.add_argument("--json", action="store_true", help="the catalogue as JSON")
    ls.add_argument("--markdown", action="store_true", help="the catalogue as Markdown tables (docs/axioms.md)")
    ls.set_defaults(func=run)
    return ls


def run(args: argparse.Namespace) -> int:
    """Print the catalogue: name, dimension, one-line rule, defaults and citation of every axiom (``--json``)."""
    import json

    from ir_rag_axioms.axioms.catalogue import catalogue, markdown

    entries = catalogue()
    if args.markdown:
        print(markdown(entries), end="")
        return 0
    if args.json:
        print(json.dumps(entries, indent=1))
        return 0
    for entry in entries:
        if not args.verbose:
            print(f"{entry['name']:<16} {entry['dimension']:<12} {_one_line(entry['rule'], entry['name'])}")
            continue
        print(f"{entry['name']} ({entry['dimension']}): {entry['rule']}")
        defaults = ", ".join(f"{k}={v!r}" for k, v in entry["defaults"].items())
        print(f"    defaults: {defaults or '(none)'}" + (f"; {entry['direction']}" if entry["direction"] else ""))
        if entry["citation"]:
            print(f"    citation: {entry['citation']}")
    return 0


def _one_line(rule: str, name: str, width: int = 88) -> str:
    """The rule's first sentence without the leading ``NAME:`` and the citation, cut to ``width``."""
    text = re.sub(rf"^{re.escape(name)}\s*:\s*", "", rule)
    text = re.sub(r"\s*\[[^\[\]]*\d{4}[^\[\]]*\]\.?$", "", text)
    return text if len(text) <= width else text[: width - 1] + "…"
