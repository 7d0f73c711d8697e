"""``python -m ir_rag_axioms.metrics SAMPLES [--outputs FILE]``: judge a sample set's RAG assertions, print JSON.

Each line of the output is one observation with its evidence (raw 1-5 score, reason, threshold); ``--outputs`` is a
JSON object (sampleId -> output) or JSON lines with ``sampleId`` and ``output``. A user error (a missing or malformed
file, a duplicate sampleId, a sample without output) is one ``error:`` line on standard error and exit status 2, as
argparse reports a bad argument.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ir_rag_axioms.metrics.llm import JudgeError
from ir_rag_axioms.metrics.samples import evaluate_samples, read_samples


def _outputs(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    text = path.read_text(encoding="utf-8")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if isinstance(value, dict) and not {"sampleId", "output"} <= set(value):
        return {str(k): str(v) for k, v in value.items()}
    out = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} line {number}: not JSON ({error}); --outputs is a JSON object (sampleId -> "
                             "output) or JSON lines with sampleId and output") from None
        if not isinstance(row, dict) or not {"sampleId", "output"} <= set(row):
            raise ValueError(f"{path} line {number}: a JSON line of --outputs needs the keys sampleId and output, "
                             f"got {line.strip()[:80]!r}")
        out[str(row["sampleId"])] = str(row["output"])
    return out


def _input_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean bad input: a file missing or unreadable, malformed JSON or YAML, invalid content."""
    errors: tuple[type[BaseException], ...] = (ValueError, KeyError, OSError)
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML comes with the pyterrier extra
        return errors
    return (*errors, yaml.YAMLError)


def _one_line(error: BaseException) -> str:
    """The error's message on one line (a KeyError's key without the quotes repr adds)."""
    message: Any = error.args[0] if isinstance(error, KeyError) and error.args else error
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip()) or type(error).__name__


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, judge the samples, print one JSON object per observation."""
    parser = argparse.ArgumentParser(prog="python -m ir_rag_axioms.metrics", description=__doc__.splitlines()[0])
    parser.add_argument("samples", type=Path, help="sample set (YAML, or .json)")
    parser.add_argument("--outputs", type=Path, default=None, help="sampleId -> output (JSON object or JSON lines)")
    args = parser.parse_args(argv)
    try:
        rows = evaluate_samples(read_samples(args.samples), _outputs(args.outputs))
    except JudgeError:  # the judge's fault (a malformed answer, a refused request), not the input's: as raised
        raise
    except _input_errors() as error:
        print(f"{parser.prog}: error: {_one_line(error)}", file=sys.stderr)
        raise SystemExit(2) from None
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
