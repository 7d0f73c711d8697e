"""``ir-rag-axioms evaluate``: decisiveness, consistency and effectiveness of axioms against an oracle."""

from __future__ import annotations

import argparse
import sys

from ir_rag_axioms.cli._common import (
    DEVICE_HELP,
    WORKERS_HELP,
    Subparsers,
    analysis,
    count,
    matrices,
    samples,
    usable_cache,
)

ORACLE_HELP = "crowd:<utility> | nugget:<all|vital|weighted>[-strict] | llm:<model> (default crowd:overall)"
AXIOMS_HELP = ("comma-separated: 'ictir2025' (preset), NAME=SPEC or SPEC, "
               "e.g. 'ictir2025,MY_ASL=GEN_aSL,CORR1(margin_fraction=0.75)'")


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``evaluate`` subcommand's arguments."""
    ev = sub.add_parser("evaluate", help="decisiveness, consistency and effectiveness of axioms against an oracle")
    ev.add_argument("--data", help="folder with the oracle's files (crowd: ir-rag-axioms/crowdrag-25's "
                    "responses.jsonl.gz, ratings.jsonl.gz, e.g. trec-rag-24-crowd/; nugget: "
                    "ir-rag-axioms/trec-rag-2024-nuggets' nugget_assignment*.jsonl.gz); "
                    "default: $IR_RAG_AXIOMS_DATA or download")
    ev.add_argument("--oracle", default="crowd:overall", help=ORACLE_HELP)
    ev.add_argument("--axioms", default="ictir2025", help=AXIOMS_HELP)
    ev.add_argument("--out", required=True, help="output folder for table.csv, table.md and the figures")
    ev.add_argument("--responses",
                    help="crowd responses file/folder (llm oracle: evaluate on the crowd responses with context)")
    ev.add_argument("--duplicates", choices=["mean", "last"], default="mean",
                    help="crowd pairs judged twice: average both (default) or keep the later row (reference)")
    ev.add_argument("--topics", type=count(1), help="evaluate only N judged topics: the first N by topic id "
                    "(sorted as text), whatever the order of the files")
    ev.add_argument("--bootstrap", type=samples, default=0,
                    help="bootstrap samples for 95%% confidence intervals (0: none, else at least 2)")
    ev.add_argument("--seed", type=count(0), default=0, help="bootstrap seed")
    ev.add_argument("--cache", help="folder of the persistent analysis cache (default: $IR_RAG_AXIOMS_CACHE) and of "
                    "each axiom's matrices (keyed by everything they read: ids, texts, contexts, ranks, scores, "
                    "the axiom, its judge, package and tool versions, settings); one that cannot be written is an "
                    "error")
    ev.add_argument("--workers", type=count(1), help=WORKERS_HELP)
    ev.add_argument("--backend", choices=["local", "ray"], default="local",
                    help="where to compute (ray: a Ray cluster)")
    ev.add_argument("--ray-address", help="Ray cluster address (default: $RAY_ADDRESS, else a local Ray)")
    ev.add_argument("--chunk-size", type=count(1), default=16, help="topics analysed together (memory stays bounded)")
    ev.add_argument("--no-figures", dest="figures", action="store_false", help="skip the figures")
    ev.add_argument("--quiet", action="store_true", help="no progress bars")
    ev.add_argument("--report", metavar="HTML", help="also write one self-contained HTML page: table, figures and "
                    "explained example pairs per axiom")
    ev.add_argument("--device", help=DEVICE_HELP)
    ev.set_defaults(func=run)
    return ev


def run(args: argparse.Namespace) -> int:
    """Evaluate axioms against an oracle: print the table and write the report in OUT.

    The report: table.csv/.md, agreement.png, votes.png (+ csv).
    """
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.axioms import presets
    from ir_rag_axioms.axioms.oracles import oracle_from_spec
    from ir_rag_axioms.datasets import judged_items
    from ir_rag_axioms.evaluation import report
    from ir_rag_axioms.output import writable_file, writable_folder

    oracle = oracle_from_spec(args.oracle, args.data, args.duplicates, args.responses)
    axioms = presets.parse_axioms(args.axioms)
    evaluation.check_samples(args.bootstrap)
    out = writable_folder(args.out, "report (--out)")  # before any work: nothing is computed for nothing
    if args.report:
        writable_file(args.report, "HTML report (--report)")
    cache = usable_cache(args.cache)
    items = sorted(judged_items(oracle, args.data, args.responses), key=lambda item: item[0].id)
    if args.topics is not None:
        items = items[: args.topics]
    if not items:
        print("no judged topics found", file=sys.stderr)
        return 1
    truth = oracle.preferences_batch(items)
    execution = {"backend": args.backend, "workers": args.workers, "chunk_size": args.chunk_size,
                 "ray_address": args.ray_address}
    if args.backend == "local":
        execution |= analysis(cache, args.workers)
    preferences = evaluation.compute_preferences(axioms, items, not args.quiet, matrices(cache), **execution)
    table = evaluation.evaluation_table(preferences, truth, samples=args.bootstrap, seed=args.seed)
    text = report.write_report(out, table, preferences, truth, args.oracle, args.figures)
    if args.report:
        report.write_html(args.report, table, preferences, truth, args.oracle, axioms, items)
    print(f"{repr(oracle)} on {len(items)} topics ({sum(len(r) for _, r in items)} responses)")
    print(text, end="")
    return 0
