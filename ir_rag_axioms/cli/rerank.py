"""``ir-rag-axioms rerank``: rerank responses (JSONL, or a TREC run with texts) by axioms into a TREC run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ir_rag_axioms.aggregation import AGGREGATIONS
from ir_rag_axioms.cli._common import Subparsers, add_items_options, add_run_options, check_output, count, items
from ir_rag_axioms.cli.preferences import AXIOMS_HELP


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``rerank`` subcommand's arguments."""
    cmd = sub.add_parser("rerank", help="rerank responses (JSONL, or a TREC run plus texts) by axioms: a TREC run")
    add_items_options(cmd)
    cmd.add_argument("--run", help="instead of --input: a TREC run of the candidates ...")
    cmd.add_argument("--texts", help="... with a JSONL file of their texts (qid, query, docno, text)")
    cmd.add_argument("--aggregation", default="borda", choices=AGGREGATIONS)
    cmd.add_argument("--weights", help="comma-separated weight per axiom")
    cmd.add_argument("--seed", type=count(0), default=0, help="seed of KwikSort's pivots")
    cmd.add_argument("--run-name", default="ir_rag_axioms", help="the run's tag column")
    cmd.add_argument("--axioms", default="COV1,CONS2,CORR1", help=AXIOMS_HELP)
    cmd.add_argument("--output", "-o", help="output file (default: standard output)")
    add_run_options(cmd, device=True)
    cmd.set_defaults(func=run)
    return cmd


def run(args: argparse.Namespace) -> int:
    """Rerank each request's responses by aggregated axiom preferences and write a TREC run."""
    import numpy as np
    import pandas as pd

    from ir_rag_axioms.aggregation import scored_ranking
    from ir_rag_axioms.axioms import presets
    from ir_rag_axioms.axioms.execution import preference_stacks
    from ir_rag_axioms.datasets.runs import write_trec_run
    from ir_rag_axioms.pyterrier.transformers import decided_pairs, warn_abstained

    axioms = presets.parse_axioms(args.axioms)
    weights = _weights(args.weights, len(axioms))
    check_output(args)
    requests = items(args)
    rows = []
    stacks = preference_stacks(list(axioms.values()), requests, workers=args.workers, progress=not args.quiet)
    counts = []
    for (request, responses), stack in zip(requests, stacks, strict=True):
        counts.append(decided_pairs(stack))
        order, scores = scored_ranking(stack, args.aggregation, weights, seed=args.seed)
        for place, i in enumerate(order):
            rows.append({"qid": request.id, "docno": responses[i].id, "rank": place, "score": float(scores[i])})
    warn_abstained("", [(request.id, len(responses)) for request, responses in requests], counts)
    frame = pd.DataFrame(rows, columns=["qid", "docno", "rank", "score"])
    frame["score"] = frame["score"].astype(np.float64)
    if args.output and args.output != "-":
        write_trec_run(frame, args.output, args.run_name)
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            sys.stdout.write(write_trec_run(frame, Path(folder) / "run", args.run_name).read_text())
    return 0


def _weights(text: str | None, count: int) -> list[float] | None:
    """--weights: one finite number per axiom; ValueError naming the option otherwise."""
    import math

    if not text:
        return None
    try:
        weights = [float(w) for w in text.split(",")]
    except ValueError:
        raise ValueError(f"--weights {text!r}: give comma-separated numbers, one per axiom") from None
    if len(weights) != count:
        raise ValueError(f"--weights gives {len(weights)} weights for {count} axioms")
    if not all(math.isfinite(w) for w in weights):
        raise ValueError(f"--weights {text!r}: every weight must be a finite number")
    return weights
