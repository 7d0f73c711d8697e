"""Shared argument types, options and file checks of the commands (private)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Command = Callable[[argparse.Namespace], int]
"""A command: parsed arguments in, exit status out."""
Subparsers = Any
"""The ``add_subparsers`` action of the parser (argparse keeps its type private)."""

DEVICE_HELP = ("sentence encoder device: auto (CUDA when torch sees one, else CPU), cpu, cuda, cuda:N "
               "(default: $IR_RAG_AXIOMS_DEVICE, else auto); spaCy always runs on the CPU")
WORKERS_HELP = "analysis worker processes (default: the free cores)"


def count(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``minimum`` (argparse names the option in its error)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    parse.__name__ = f"whole number >= {minimum}"
    return parse


def samples(text: str) -> int:
    """An argparse type for --bootstrap: 0 (no intervals) or at least 2 resamples (one gives no interval)."""
    value = count(0)(text)
    if value == 1:
        raise argparse.ArgumentTypeError("must be 0 (no intervals) or at least 2: one resample gives no interval")
    return value


samples.__name__ = "bootstrap sample count"


def add_run_options(parser: argparse.ArgumentParser, *, device: bool = False) -> None:
    """``--workers`` and ``--quiet`` (and ``--device`` for the commands that embed), as every command has them."""
    parser.add_argument("--workers", type=count(1), help=WORKERS_HELP)
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    if device:
        parser.add_argument("--device", help=DEVICE_HELP)


def usable_cache(cache: str | None) -> str | None:
    """The cache folder, checked before the work: an explicit --cache that cannot be written is an error."""
    from ir_rag_axioms.output import writable_folder

    if not cache:
        return None
    writable_folder(Path(cache) / "matrices", "cache (--cache)")  # OutputError: the user asked for this cache
    return cache


def matrices(cache: str | None) -> Path | None:
    """The folder of each axiom's matrices inside the cache (None: no cache)."""
    return Path(cache) / "matrices" if cache else None


def analysis(cache: str | None, workers: int | None) -> dict[str, Any]:
    """``analysis=``: the persistent analysis store of the cache, shared by every axiom and configuration."""
    if not cache:
        return {}
    from ir_rag_axioms.analysis.cache import Analysis

    return {"analysis": Analysis(workers=workers, store=cache, max_texts=200_000)}


def check_output(args: argparse.Namespace) -> None:
    """Before the work: -o/--output can be written and is none of the inputs (--input, --run, --texts)."""
    from ir_rag_axioms.output import writable_file

    if args.output and args.output != "-":
        inputs = tuple(getattr(args, name, None) for name in ("input", "run", "texts"))
        writable_file(args.output, "output (-o/--output)", inputs)


def write(text: str, output: str | None) -> None:
    """Write to a file atomically (its folder created) or to standard output."""
    from ir_rag_axioms.output import write_text

    if output and output != "-":
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        write_text(output, text)
    else:
        sys.stdout.write(text)


def add_items_options(parser: argparse.ArgumentParser) -> None:
    """``--input``: the requests with responses of ``preferences`` and ``rerank``."""
    parser.add_argument("--input", help="JSONL(.gz): one request per line with 'responses' [{id, text}], or one "
                        "response per line (qid, query, docno, text[, context])")


def items(args: argparse.Namespace) -> list[Any]:
    """The requests with responses of --input (JSONL), or of --run with --texts."""
    from ir_rag_axioms.datasets.requests import read_requests, read_run_requests

    if getattr(args, "run", None):
        if not args.texts:
            raise ValueError("--run RUN needs --texts FILE (JSONL with qid, query, docno, text)")
        return read_run_requests(args.run, args.texts)
    if not args.input:
        raise ValueError("give --input FILE (JSONL requests with responses)"
                         + (" or --run RUN --texts FILE" if hasattr(args, "run") else ""))
    return read_requests(args.input)
