"""``ir-rag-axioms judge``: a TREC AutoJudge leaderboard of RAG reports by axioms (autojudge-base's formats)."""

from __future__ import annotations

import argparse

from ir_rag_axioms.cli._common import Subparsers

METHODS = ("default", "win_rate", "bradley_terry")
"""``evaluation.leaderboard.METHODS`` (kept here: the parser imports nothing heavy; a test checks they agree)."""


def packaged_axiom_count() -> int:
    """How many axioms the packaged model reads (its JSON read directly: the parser imports nothing heavy)."""
    from ir_rag_axioms.settings import LEADERBOARD_MODEL_FILE, packaged_json

    return len(packaged_json(LEADERBOARD_MODEL_FILE)["axioms"])


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``judge`` subcommand's arguments."""
    judge = sub.add_parser("judge", help="a system leaderboard of TREC RAG reports by axioms (TREC AutoJudge)")
    judge.add_argument("reports", nargs="+", help="report files (JSONL: TREC RAG 2024/2025/2026, RAGTIME, DRAGUN) "
                       "or folders of them")
    judge.add_argument("--topics", required=True, help="topics JSONL: request_id, title (autojudge-base's Request)")
    judge.add_argument("--out", required=True, help="the leaderboard file (written when complete)")
    judge.add_argument("--format", default="tot", choices=("tot", "jsonl", "ir_measures", "trec_eval"),
                       help="tot: run measure topic value (default); jsonl: autojudge-evaluate's eval.jsonl; "
                       "ir_measures: run topic measure value; trec_eval: measure topic value, one run only (the "
                       "file name is its run id)")
    judge.add_argument("--axioms", help="comma-separated axioms: 'ictir2025', NAME=SPEC or SPEC (default: the "
                       f"packaged model's {packaged_axiom_count()}; given without --method, scored by win_rate)")
    judge.add_argument("--method", choices=METHODS, help="the headline: default (the packaged model, fitted to "
                       "nugget scores; its own axioms only), win_rate (mean of the axioms' win rates), bradley_terry "
                       "(default: 'default', or 'win_rate' with --axioms)")
    judge.add_argument("--by-topic", action="store_true", help="score one topic at a time (bounded memory; "
                       "'all' is then the mean of the run's topics)")
    judge.add_argument("--ray", action="store_true", help="score the topics as Ray tasks (as --by-topic)")
    judge.add_argument("--quiet", action="store_true", help="no progress bars")
    judge.set_defaults(func=run)
    return judge


def run(args: argparse.Namespace) -> int:
    """Judge the reports on the topics and write the leaderboard to --out; print where and how many rows."""
    from ir_rag_axioms.evaluation.autojudge import judge_files

    out = judge_files(args.reports, args.topics, args.out, format=args.format, axioms=args.axioms,
                      method=args.method, by_topic=args.by_topic, ray=args.ray, progress=not args.quiet)
    with open(out, encoding="utf-8") as lines:
        rows = [line for line in lines if line.strip()]
    runs = written_runs(rows, args.format, str(out))
    if len(runs) == 1:
        import warnings

        warnings.warn(f"the leaderboard holds a single run ({runs.pop()!r}): the axioms compare runs with each other, "
                      "so one run cannot be compared and its win rates and headline are NaN; judge several runs "
                      "together", stacklevel=2)
    print(f"wrote {len(rows)} leaderboard lines to {out}")
    return 0


def written_runs(rows: list[str], format: str, out: str) -> set[str]:
    """The run ids of a written leaderboard's lines (``trec_eval`` holds one run: the file's name)."""
    import json
    from pathlib import Path

    if format == "trec_eval":
        return {Path(out).name}
    if format == "jsonl":
        return {str(json.loads(row)["run_id"]) for row in rows}
    return {row.split("\t", 1)[0] for row in rows}
