"""``python -m ir_rag_axioms.metrics SAMPLES [--outputs FILE]``: judge a sample set's RAG assertions, print JSON.

Each line of the output is one observation with its evidence (raw 1-5 score, reason, threshold); ``--outputs`` is a
JSON object (sampleId -> output) or JSON lines with ``sampleId`` and ``output``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

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
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return {str(r["sampleId"]): str(r["output"]) for r in rows}


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, judge the samples, print one JSON object per observation."""
    parser = argparse.ArgumentParser(prog="python -m ir_rag_axioms.metrics", description=__doc__.splitlines()[0])
    parser.add_argument("samples", type=Path, help="sample set (YAML, or .json)")
    parser.add_argument("--outputs", type=Path, default=None, help="sampleId -> output (JSON object or JSON lines)")
    args = parser.parse_args(argv)
    for row in evaluate_samples(read_samples(args.samples), _outputs(args.outputs)):
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
