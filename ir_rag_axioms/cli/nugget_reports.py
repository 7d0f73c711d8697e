"""``ir-rag-axioms nugget-reports``: the shared nugget data as TREC RAG 2024 reports and topics, for ``judge``."""

from __future__ import annotations

import argparse

from ir_rag_axioms.cli._common import Subparsers


def add_parser(sub: Subparsers) -> argparse.ArgumentParser:
    """The ``nugget-reports`` subcommand's arguments."""
    conv = sub.add_parser("nugget-reports", help="write the TREC RAG 2024 nugget data's answers as reports + topics")
    conv.add_argument("--data", help="the nugget assignment file or its folder (default: the usual places)")
    conv.add_argument("--out", required=True, help="output folder: reports/<run>.jsonl (replaced as a whole) and "
                      "topics.jsonl")
    conv.add_argument("--quiet", action="store_true", help="no progress bar")
    conv.set_defaults(func=run)
    return conv


def run(args: argparse.Namespace) -> int:
    """Write OUT/reports/<run>.jsonl and OUT/topics.jsonl; print the judge command that reads them."""
    from ir_rag_axioms.evaluation.autojudge import nugget_reports

    reports, topics = nugget_reports(args.out, args.data, progress=not args.quiet)
    count = sum(1 for _ in reports.iterdir())
    print(f"wrote {count} report files to {reports} and the topics to {topics}\n"
          f"judge them: ir-rag-axioms judge {reports} --topics {topics} --out leaderboard.tot")
    return 0
