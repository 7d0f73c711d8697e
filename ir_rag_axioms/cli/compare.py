"""``ir-rag-axioms compare``: rank systems by axioms (win rates, Bradley-Terry strengths), tau with a reference."""

from __future__ import annotations

import argparse
from typing import Any

from ir_rag_axioms.cli._common import (
    DEVICE_HELP,
    WORKERS_HELP,
    Subparsers,
    count,
    matrices,
    samples,
    usable_cache,
)

REFERENCE_SPEC = "nugget:<all|vital|weighted>[-strict]"
"""The spelling of ``--reference``."""


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``compare`` subcommand's arguments."""
    cmp = sub.add_parser("compare", help="which system is better: win rates and Bradley-Terry strengths by axioms")
    cmp.add_argument("--answers", help="JSONL(.gz) of answers: qid, query, text (or qanswer), system[, context]")
    cmp.add_argument("--data", help="instead: a folder with the nugget assignment file of "
                     "ir-rag-axioms/trec-rag-2024-nuggets (system = run_id)")
    cmp.add_argument("--system-column", default="system", help="the answers' field naming the system")
    cmp.add_argument("--axioms", default="COH1,COH2,COV1,COV2,COV3,CONS1,CONS2,CONS3,CORR1,CLAR2",
                     help="comma-separated: 'ictir2025', NAME=SPEC or SPEC (default: the RAG axioms but CLAR1)")
    cmp.add_argument("--reference", help=f"also Kendall's tau with official scores: {REFERENCE_SPEC}")
    cmp.add_argument("--out", required=True, help="output folder for systems.csv, systems.md and systems.png")
    cmp.add_argument("--bootstrap", type=samples, default=1000,
                     help="bootstrap samples over topics (0: no intervals, else 2 to 100,000)")
    cmp.add_argument("--seed", type=count(0), default=0, help="bootstrap seed")
    cmp.add_argument("--cache", help="folder for each axiom's matrices (reused across runs)")
    cmp.add_argument("--workers", type=count(1), help=WORKERS_HELP)
    cmp.add_argument("--no-figures", dest="figures", action="store_false", help="skip the figure")
    cmp.add_argument("--quiet", action="store_true", help="no progress bars")
    cmp.add_argument("--device", help=DEVICE_HELP)
    cmp.set_defaults(func=run)
    return cmp


def run(args: argparse.Namespace) -> int:
    """Compare systems by axioms: print the overall ranking and write systems.csv/.md/.png in OUT."""
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.axioms import presets
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments, system_scores
    from ir_rag_axioms.evaluation import report, systems
    from ir_rag_axioms.output import writable_folder

    if not args.answers and not args.data:
        raise ValueError("give --answers FILE (JSONL with qid, query, text, system) or --data NUGGET_FOLDER")
    axioms = presets.parse_axioms(args.axioms)  # specs, reference, samples, outputs first: nothing computed for nothing
    reference = _reference(args.reference) if args.reference else None
    evaluation.check_samples(args.bootstrap)
    writable_folder(args.out, "report (--out)")
    cache = usable_cache(args.cache)
    answers = _answers(args)
    reference_scores = system_scores(load_nugget_assignments(args.data), *reference) if reference else None
    table = systems.compare_systems(axioms, answers, samples=args.bootstrap, seed=args.seed,
                                    cache_dir=matrices(cache), progress=not args.quiet, workers=args.workers)
    correlations = systems.rank_correlation(table, reference_scores) if reference_scores is not None else None
    print(report.write_systems(args.out, table, correlations, args.figures), end="")
    return 0


def _reference(spec: str) -> tuple[str, bool]:
    """The (score, strict) of ``--reference nugget:<score>[-strict]``; ValueError naming the option otherwise."""
    from ir_rag_axioms.datasets.nuggets import parse_nugget_score

    kind, _, option = spec.partition(":")
    try:
        if kind.strip().lower() != "nugget":
            raise ValueError(kind)
        return parse_nugget_score(option)
    except ValueError:
        raise ValueError(f"unknown --reference {spec!r}: use {REFERENCE_SPEC}") from None


def _answers(args: argparse.Namespace) -> Any:
    """The answers to compare: a JSONL file with a system field, or the nugget file's answers (system = run_id)."""
    from ir_rag_axioms.datasets import runs
    from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, resolve

    if args.answers:
        frame = _read_answers(args.answers)
        if args.system_column not in frame.columns:
            raise KeyError(f"{args.answers}: no field {args.system_column!r} naming each answer's system "
                           f"(fields: {list(frame.columns)}; choose one with --system-column)")
        return frame.rename(columns={args.system_column: "system"})
    return runs.nugget_answers(resolve(NUGGET_ASSIGNMENTS, args.data))  # system = run_id


def _answer_text(row: dict[str, Any]) -> str | None:
    """What is wrong with an answer record's text (``text``, else ``qanswer``): missing or not a string; None: fine."""
    from ir_rag_axioms.pyterrier.frames import TEXT_COLUMNS

    field = next((name for name in TEXT_COLUMNS if name in row), None)
    if field is None:
        return f"no answer text: give the field {' or '.join(map(repr, TEXT_COLUMNS))} (fields: {sorted(row)})"
    if not isinstance(row[field], str):
        return (f"the answer text {field!r} is {type(row[field]).__name__} {row[field]!r:.40}, not a string (an "
                "empty answer is \"\")")
    return None


def _read_answers(path: str) -> Any:
    """The answers of a JSONL(.gz) file as a frame (qid as a string); a record without a text string is refused."""
    import pandas as pd

    from ir_rag_axioms.datasets.files import read_jsonl

    frame = pd.DataFrame(read_jsonl(path, check=_answer_text))
    if "qid" in frame.columns:
        frame["qid"] = frame["qid"].astype(str)
    return frame
