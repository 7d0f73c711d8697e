"""``python -m ir_rag_axioms.metrics SAMPLES [--outputs FILE]``: judge a sample set's RAG assertions, print JSON.

Each line of the output is one observation with its evidence (raw 1-5 score, reason, threshold); ``--outputs`` is a
JSON object (sampleId -> output) or JSON lines with ``sampleId`` and ``output``. A user error (a missing or malformed
file, an unknown key, a sampleId that is not a text, a duplicate sampleId, a sample without output) is one ``error:``
line on standard error and exit status 2, as argparse reports a bad argument.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ir_rag_axioms.metrics._llm_answers import unique_keys
from ir_rag_axioms.metrics.llm import JudgeError
from ir_rag_axioms.metrics.running import check_unicode
from ir_rag_axioms.metrics.samples import evaluate_samples, read_samples, read_text


class _Pairs(list[tuple[str, Any]]):
    """A JSON object's (key, value) pairs as parsed, in order (so that a key given twice can be named)."""


def _plain(value: Any) -> Any:
    """A parsed JSON value with its objects as dicts again (to show it as written)."""
    if isinstance(value, _Pairs):
        return {key: _plain(item) for key, item in value}
    return [_plain(item) for item in value] if isinstance(value, list) else value


def _json_kind(value: Any) -> str:
    """A parsed JSON value's kind as JSON names it, and its start as written ("an object {...}", "a number 3")."""
    if value is None:
        return "null"
    kind = "an object" if isinstance(value, _Pairs | dict) else "an array" if isinstance(value, list) else \
        "a boolean" if isinstance(value, bool) else "a number" if isinstance(value, int | float) else \
        type(value).__name__
    return f"{kind} {json.dumps(_plain(value), ensure_ascii=False):.40}"


def _output(value: Any, where: str) -> str:
    """An output of --outputs: a text; anything else (null, a number, an object), or a lone surrogate, is an error."""
    if not isinstance(value, str):
        raise ValueError(f"{where}: the output must be a text, got {_json_kind(value)}")
    check_unicode(value, f"{where}: the output")
    return value


def _outputs(path: Path | None) -> dict[str, str]:
    """The outputs of --outputs, sampleId -> text (a JSON object, or JSON lines with sampleId and output)."""
    if path is None:
        return {}
    text = read_text(path)
    try:
        value = json.loads(text, object_pairs_hook=_Pairs)
    except json.JSONDecodeError:
        value = None
    if isinstance(value, _Pairs) and not {"sampleId", "output"} <= {k for k, _ in value}:
        found = unique_keys(value, lambda key, *_: ValueError(f"{path}: sampleId {key!r} appears twice in --outputs"))
        return {str(k): _output(v, f"{path}: sampleId {k!r}") for k, v in found.items()}
    out: dict[str, str] = {}
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
        sample_id = row["sampleId"]
        if not isinstance(sample_id, str):
            raise ValueError(f"{path} line {number}: sampleId must be a text, got "
                             f"{'null' if sample_id is None else f'{type(sample_id).__name__} {sample_id!r:.40}'} "
                             "(quote it, as in the sample set)")
        if sample_id in out:
            raise ValueError(f"{path} line {number}: sampleId {sample_id!r} appears twice in --outputs")
        out[sample_id] = _output(row["output"], f"{path} line {number} (sampleId {sample_id!r})")
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
