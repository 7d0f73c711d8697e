"""``ir-rag-axioms explain``: an axiom's rule, parameters, direction and citation, or its decision on one pair."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ir_rag_axioms.cli._common import Subparsers


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``explain`` subcommand's arguments."""
    ex = sub.add_parser("explain", help="an axiom's rule, parameters, direction and citation; or its decision on a "
                        "pair (--pair A B --input FILE)")
    ex.add_argument("axiom", help="a name or expression, e.g. COV1 or 'COV1(margin_fraction=0.5) | CONS2'")
    ex.add_argument("--pair", nargs=2, metavar=("A", "B"), help="explain the decision for responses A and B")
    ex.add_argument("--input", help="JSONL requests with responses holding A and B")
    ex.add_argument("--request", help="the request (qid) of the pair, if A and B occur in several")
    ex.add_argument("--json", action="store_true", help="the pair's explanation as JSON")
    ex.add_argument("--quiet", action="store_true", help="no progress bars")
    ex.add_argument("--no-example", dest="example", action="store_false",
                    help="skip the example on the demo sample (which loads the models)")
    ex.set_defaults(func=run)
    return ex


def run(args: argparse.Namespace) -> int:
    """Explain an axiom (rule, parameters, direction, citation, an example), or its decision on one pair of a file."""
    import json

    from ir_rag_axioms.axioms import registry
    from ir_rag_axioms.axioms.base import FeatureAxiom
    from ir_rag_axioms.axioms.catalogue import defaults_of, dimension_of, parameter_docs
    from ir_rag_axioms.axioms.explanation import citation_of, rule_of

    axiom = registry.parse(args.axiom, allow_paths=True)
    if args.pair:
        if not args.input:
            raise ValueError("--pair A B needs --input FILE (JSONL requests with responses) to find A and B in")
        why = _explain_pair(axiom, args.pair, args.input, args.request)
        print(json.dumps(why.to_dict(), indent=1) if args.json else why)
        return 0
    print(f"{axiom!r} ({dimension_of(axiom)})")
    print(f"  rule: {rule_of(axiom)}")
    defaults = defaults_of(axiom)
    if defaults:
        print("  parameters (current values):")
        hints = parameter_docs(axiom)
        for name, value in defaults.items():
            print(f"    {name} = {value!r}" + (f"  -- {hints[name]}" if hints.get(name) else ""))
    if isinstance(axiom, FeatureAxiom):
        print(f"  direction: {'higher' if axiom.prefers_higher() else 'lower'} value is better; "
              f"ties within a relative margin of {axiom.margin_fraction:g}")
    if citation_of(axiom):
        print(f"  citation: {citation_of(axiom)}")
    if args.example:
        _print_example(axiom)
    return 0


def _print_example(axiom: Any) -> None:
    """The axiom's decision on the demo sample's first request, first vs last response, explained."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.datasets.files import DataFileError
    from ir_rag_axioms.demo import load_demo

    request, responses = load_demo()[0]
    print(f"  example (the demo sample, request {request.id!r}: {request.text}):")
    try:
        why = axiom.explain(request, responses[0], responses[-1], responses=responses)
    except (ToolUnavailableError, DataFileError) as error:
        print(f"    (no example: {str(error)[:200]})")
        return
    print("\n".join("    " + line for line in str(why).splitlines()))


def _explain_pair(axiom: Any, pair: Sequence[str], path: str, request_id: str | None) -> Any:
    """The explanation of the pair (A, B) within the request of the file that holds both (--request: that one)."""
    from ir_rag_axioms.datasets.requests import read_requests

    first, second = pair
    found = [(request, responses) for request, responses in read_requests(path)
             if (request_id is None or request.id == request_id)
             and {first, second} <= {r.id for r in responses}]
    if not found:
        where = f"request {request_id!r} does not have" if request_id else "no request has"
        raise ValueError(f"{path}: {where} both responses {first!r} and {second!r}")
    if len(found) > 1:
        raise ValueError(f"{path}: responses {first!r} and {second!r} are in several requests "
                         f"({[r.id for r, _ in found][:5]}); choose one with --request QID")
    request, responses = found[0]
    by_id = {r.id: r for r in responses}
    return axiom.explain(request, by_id[first], by_id[second], responses=responses)
