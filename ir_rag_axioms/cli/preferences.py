"""``ir-rag-axioms preferences``: the pair table of axiom preferences for JSONL requests (CSV or JSONL)."""

from __future__ import annotations

import argparse

from ir_rag_axioms.cli._common import Subparsers, add_items_options, add_run_options, check_output, items, write

AXIOMS_HELP = "comma-separated specs or presets, e.g. 'COV1(margin_fraction=0.5),CONS2' or ictir2025"


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``preferences`` subcommand's arguments."""
    cmd = sub.add_parser("preferences",
                         help="pairwise preferences of axioms for JSONL requests: a pair table (CSV/JSONL)")
    add_items_options(cmd)
    cmd.add_argument("--format", choices=["csv", "jsonl"], help="default: by the output's suffix, else csv")
    cmd.add_argument("--explain", action="store_true", help="add an explanation (JSON) per pair and axiom")
    cmd.add_argument("--axioms", default="COV1,CONS2,CORR1", help=AXIOMS_HELP)
    cmd.add_argument("--output", "-o", help="output file (default: standard output)")
    add_run_options(cmd, device=True)
    cmd.set_defaults(func=run)
    return cmd


def run(args: argparse.Namespace) -> int:
    """Pairwise preferences of the axioms for every ordered pair of each request's responses: CSV or JSONL.

    Columns: qid, docno_a, docno_b, one per axiom (P_X[a, b]), with --explain ``X_explanation`` (JSON).
    """
    import json

    from ir_rag_axioms.axioms import presets
    from ir_rag_axioms.axioms.execution import preference_stacks
    from ir_rag_axioms.pyterrier.frames import pair_table

    axioms = presets.parse_axioms(args.axioms)
    check_output(args)
    requests = items(args)
    stacks = preference_stacks(list(axioms.values()), requests, workers=args.workers, progress=not args.quiet)
    table = pair_table(axioms, requests, stacks, explain=args.explain).drop(columns="query")
    for column in (f"{c}_explanation" for c in axioms if args.explain):
        table[column] = [json.dumps(e.to_dict()) for e in table[column]]
    out_format = args.format or ("jsonl" if args.output and args.output.endswith((".jsonl", ".json")) else "csv")
    text = table.to_json(orient="records", lines=True) if out_format == "jsonl" else table.to_csv(index=False)
    write(text, args.output)
    return 0
