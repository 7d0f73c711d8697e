"""The ``ir-rag-axioms`` entry point: one subcommand per command module; library errors become exit status 2."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence

from ir_rag_axioms.cli import (
    compare,
    demo,
    dimensions,
    evaluate,
    explain,
    judge,
    list_axioms,
    nugget_reports,
    preferences,
    rerank,
)

COMMANDS = (evaluate, dimensions, compare, judge, nugget_reports, list_axioms, explain, preferences, rerank, demo)
"""The command modules, in the order of ``--help``."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subcommand per module of ``COMMANDS``."""
    from ir_rag_axioms._version import __version__

    parser = argparse.ArgumentParser(prog="ir-rag-axioms", description="Axiomatic preferences for RAG responses.")
    parser.add_argument("--version", action="version", version=f"ir-rag-axioms {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


@contextlib.contextmanager
def _one_line_warnings(command: str) -> Iterator[None]:
    """Warnings shown while a command runs print as one line ``ir-rag-axioms <command>: warning: <message>``.

    Only their format changes (``warnings.formatwarning``), and the package's own DeprecationWarnings (a deprecated
    spelling on the command line) are shown, which Python hides by default; recorders still see every warning.
    """
    def one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 line: str | None = None) -> str:
        return f"ir-rag-axioms {command}: warning: {' '.join(str(message).split())}\n"

    before = warnings.formatwarning
    warnings.formatwarning = one_line
    try:
        with warnings.catch_warnings():  # Python hides DeprecationWarnings outside __main__: a user must see ours
            warnings.filterwarnings("default", category=DeprecationWarning, module=r"ir_rag_axioms(\.|$)")
            yield
    finally:
        warnings.formatwarning = before


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ir-rag-axioms`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if argv and argv[0] == "demo":
        return demo.run(argv[1:])
    args = build_parser().parse_args(argv)
    if getattr(args, "quiet", False):  # every bar, also those of the analysis (spaCy, encoder) and its workers
        os.environ["TQDM_DISABLE"] = "1"
    if getattr(args, "device", None) is not None:  # for every analysis of the run, as the variable would be
        from ir_rag_axioms import settings
        from ir_rag_axioms.analysis.resources import ToolUnavailableError, resolve_device

        try:
            os.environ[settings.DEVICE_ENV] = settings.encoder_device(args.device)
            resolve_device(args.device)  # a device torch does not see (mps off Apple silicon): refused before any work
        except (ValueError, ToolUnavailableError) as error:
            print(f"ir-rag-axioms {args.command}: error: --device: {error}", file=sys.stderr)
            return 2
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.datasets.files import DataFileError

    try:
        with _one_line_warnings(args.command):
            return int(args.func(args))
    except BrokenPipeError:  # output piped into a reader that stopped (e.g. `| head`): not an error
        sys.stderr.close()
        return 0
    except (DataFileError, ValueError, TypeError, KeyError, OSError, ToolUnavailableError) as error:
        # bad files, specs or arguments, an unwritable output: a message, no traceback
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"ir-rag-axioms {args.command}: error: {message}", file=sys.stderr)
        return 2
