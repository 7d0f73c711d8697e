"""``ir-rag-axioms dimensions``: the agreement of axioms with every crowd dimension (and Kendall tau on nuggets)."""

from __future__ import annotations

import argparse

from ir_rag_axioms.cli._common import Subparsers, add_run_options, analysis, count, matrices, usable_cache


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``dimensions`` subcommand's arguments."""
    dim = sub.add_parser("dimensions", help="consistency of axioms with every crowd dimension (agreement table), "
                         "Kendall tau against nugget scores")
    dim.add_argument("--data", help="ir-rag-axioms/crowdrag-25 folder (responses.jsonl.gz, ratings.jsonl.gz); "
                     "default: $IR_RAG_AXIOMS_DATA")
    dim.add_argument("--nuggets", help="also: a folder with a nugget assignment file (mean Kendall tau-b per topic)")
    dim.add_argument("--axioms", default="all", help="'all' (every RAG and GEN_ axiom that runs offline) or specs "
                     "as in evaluate")
    dim.add_argument("--out", required=True, help="output folder for agreement.md/.csv and dimensions.csv")
    dim.add_argument("--duplicates", choices=["mean", "last"], default="mean", help="pairs judged twice")
    dim.add_argument("--topics", type=count(0), default=0, help="only the first N judged topics")
    dim.add_argument("--bootstrap", type=count(0), default=0, help="bootstrap samples over topics (95 %% intervals)")
    dim.add_argument("--seed", type=count(0), default=0, help="bootstrap seed")
    dim.add_argument("--cache", help="folder of the persistent analysis cache and the axiom matrices")
    add_run_options(dim)
    dim.set_defaults(func=run)
    return dim


def run(args: argparse.Namespace) -> int:
    """Axioms against every crowd dimension (and Kendall's tau on nugget topics): write the agreement table to OUT."""
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.axioms import presets
    from ir_rag_axioms.evaluation import dimensions as agreement
    from ir_rag_axioms.output import writable_folder

    axioms = agreement.default_axioms() if args.axioms == "all" else presets.parse_axioms(args.axioms)
    evaluation.check_samples(args.bootstrap)
    out = writable_folder(args.out, "agreement table (--out)")
    cache = usable_cache(args.cache)
    result = agreement.crowd_agreement(
        axioms, args.data, nuggets_dir=args.nuggets, duplicates=args.duplicates, topics=args.topics,
        samples=args.bootstrap, seed=args.seed, progress=not args.quiet, cache_dir=matrices(cache),
        workers=args.workers, **analysis(cache, args.workers))
    text = agreement.write_agreement(out, result)
    print(f"{result.axioms} axioms on {result.topics} crowd topics, {len(agreement.CROWD_DIMENSIONS)} dimensions"
          + (f"; nugget tau on {result.nugget_topics} topics" if args.nuggets else ""))
    print(text, end="")
    return 0
