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
    dim.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    dim.add_argument("--cache", help="folder of the persistent analysis cache and the axiom matrices")
    add_run_options(dim)
    dim.set_defaults(func=run)
    return dim


def run(args: argparse.Namespace) -> int:
    """Axioms against every crowd dimension (and Kendall's tau on nugget topics): write the agreement table to OUT."""
    from ir_rag_axioms import dimensions as agreement
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.axioms import presets
    from ir_rag_axioms.axioms.oracles import CrowdOracle, NuggetOracle
    from ir_rag_axioms.datasets import judged_items
    from ir_rag_axioms.output import writable_folder

    axioms = agreement.default_axioms() if args.axioms == "all" else presets.parse_axioms(args.axioms)
    evaluation.check_samples(args.bootstrap)
    out = writable_folder(args.out, "agreement table (--out)")
    cache = usable_cache(args.cache)
    execution = {"workers": args.workers} | analysis(cache, args.workers)
    oracles = {d: CrowdOracle(utility=d, duplicates=args.duplicates, data_dir=args.data)
               for d in agreement.CROWD_DIMENSIONS}
    items = judged_items(oracles["overall"], args.data)[: args.topics or None]
    preferences = evaluation.compute_preferences(axioms, items, not args.quiet, matrices(cache), **execution)
    truths = {d: oracle.preferences_batch(items) for d, oracle in oracles.items()}
    long = agreement.dimension_table(preferences, truths, samples=args.bootstrap, seed=args.seed)
    tau = None
    if args.nuggets:
        nugget = NuggetOracle(score_type="vital", data_dir=args.nuggets)
        nugget_items = judged_items(nugget, args.nuggets)
        nugget_preferences = evaluation.compute_preferences(axioms, nugget_items, not args.quiet, matrices(cache),
                                                            **execution)
        scores = nugget.load()
        tau = agreement.nugget_tau(nugget_preferences, [scores.values(r, list(rs)) for r, rs in nugget_items])
    table = agreement.agreement_table(long, tau)
    long.to_csv(out / "dimensions.csv", index=False)
    table.to_csv(out / "agreement.csv", index=False)
    text = agreement.markdown(table)
    (out / "agreement.md").write_text(text, encoding="utf-8")
    print(f"{len(preferences)} axioms on {len(items)} crowd topics, {len(truths)} dimensions"
          + (f"; nugget tau on {len(nugget_items)} topics" if args.nuggets else ""))
    print(text, end="")
    return 0
