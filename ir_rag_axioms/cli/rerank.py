"""``ir-rag-axioms rerank``: rerank responses (JSONL, or a TREC run with texts) by axioms into a TREC run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

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
    requests = input_order(items(args))
    _check_ids(args.run or args.input, requests, lines=not args.run)
    _warn_sizes(requests)
    requests = [(request, responses) for request, responses in requests if responses]
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


SHOWN_IDS = 3
"""Bad ids named per kind in the message of ``_check_ids``; the rest are counted."""


def _number(value: Any, missing: float) -> float:
    """A rank or score as a float for sorting; ``missing`` where it is absent or not a finite number."""
    import math

    try:
        number = float(value)
    except (TypeError, ValueError):
        return missing
    return number if math.isfinite(number) else missing


def input_order(requests: list[Any]) -> list[Any]:
    """Requests by qid, each one's responses by rank, else score (descending), else docno: never by line position.

    The order that ties of the aggregation keep (the ``AxiomaticReranker``'s ``frames.original_order``), so that
    shuffling the input's lines changes no rank and no score.
    """
    inf = float("inf")
    return [(request, sorted(responses, key=lambda r: (_number(r.rank, inf), -_number(r.score, -inf), r.id)))
            for request, responses in sorted(requests, key=lambda item: item[0].id)]


def _warn_sizes(requests: list[Any]) -> None:
    """A warning counting and naming the requests without responses (left out) and with one (nothing to compare)."""
    import warnings

    for size, what in ((0, "no responses: they are left out of the run"),
                       (1, "a single response, which nothing can be compared with: it is written with rank 1")):
        ids = [request.id for request, responses in requests if len(responses) == size]
        if ids:
            warnings.warn(f"{len(ids)} of {len(requests)} requests have {what} (id {_listed(ids)})", stacklevel=3)


def _unwritable(value: str) -> bool:
    """Whether a TREC run cannot hold the id: empty, or with whitespace (its fields are whitespace-separated)."""
    return not value or any(c.isspace() for c in value)


def _check_ids(source: str, requests: list[Any], lines: bool = True) -> None:
    """Before scoring: ValueError naming the file, the line of the first id a TREC run cannot hold, and the ids.

    The distinct bad qids and docnos are named sorted, at most ``SHOWN_IDS`` of each, then "and N more".
    """
    bad = {"qid": sorted({r.id for r, _ in requests if _unwritable(r.id)}),
           "docno": sorted({x.id for _, responses in requests for x in responses if _unwritable(x.id)})}
    if not bad["qid"] and not bad["docno"]:
        return
    line = _first_line(source, set(bad["qid"]), set(bad["docno"])) if lines else None
    found = "; ".join(f"{kind}s {_listed(ids)}" for kind, ids in bad.items() if ids)
    raise ValueError(f"{source}{f' line {line}' if line else ''}: a TREC run's fields are separated by whitespace, "
                     f"so its qids and docnos must be non-empty and without whitespace; found {found}: rename them")


def _listed(ids: list[str]) -> str:
    """The first ``SHOWN_IDS`` ids (repr) and how many more."""
    more = len(ids) - SHOWN_IDS
    return ", ".join(map(repr, ids[:SHOWN_IDS])) + (f" and {more} more" if more > 0 else "")


def _row_ids(row: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A JSONL record's qids and docnos as ``read_requests`` takes them (nested or flat)."""
    def first(record: Any, names: tuple[str, ...]) -> list[str]:
        return [str(record[n]) for n in names if isinstance(record, dict) and n in record][:1]

    if "responses" in row:
        responses = row["responses"] if isinstance(row["responses"], list) else []
        return first(row, ("id", "qid")), [i for r in responses for i in first(r, ("id", "docno"))]
    return first(row, ("qid", "id")), first(row, ("docno",))


def _first_line(path: str, qids: set[str], docnos: set[str]) -> int | None:
    """The number of the first line of a JSONL(.gz) file with one of the qids or docnos (None: none found)."""
    import gzip
    import json

    opener: Any = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            row = json.loads(line) if line.strip() else {}
            row_qids, row_docnos = _row_ids(row) if isinstance(row, dict) else ([], [])
            if qids.intersection(row_qids) or docnos.intersection(row_docnos):
                return number
    return None


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
