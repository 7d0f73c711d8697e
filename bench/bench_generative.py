"""Benchmark the 14 GEN_ axioms of the ICTIR 2025 study on the 301 crowd topics against the reference timings.

Usage (from the repository root)::

    PYTHONPATH=. IR_RAG_AXIOMS_SPACY_PROCESSES=1 HF_HUB_OFFLINE=1 python bench/bench_generative.py [--topics N] [--json out.json]

Term statistics are computed once per text for all axioms together (one batched spaCy pass, with the parser
because GEN_aSL needs sentences); that shared pass is reported separately, then each axiom's own work
(e.g. WordNet similarities for GEN_REG/GEN_STMC1/GEN_STMC2) and matrices. The reference's seconds are
``seconds_65_judged_topics + seconds_other_236_topics`` from its timings.json (each axiom parsed on its own).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
from pathlib import Path

SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", Path(__file__).resolve().parents[2] / "shared"))
RESPONSES = SHARED / "data" / "trec-rag-24-crowd" / "responses.jsonl.gz"
TIMINGS = SHARED / "reference" / "ir_axioms-1.2.5" / "timings.json"


def crowd_items(path: Path = RESPONSES, topics: int | None = None) -> list:
    """(request, 6 responses) per crowd topic, in file order; request = query + its 20 reference passages."""
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    by_topic: dict[str, dict[str, dict]] = {}
    with gzip.open(path, "rt") as lines:
        for line in lines:
            row = json.loads(line)
            by_topic.setdefault(row["topic"], {})[f"{row['kind']}-{row['style']}"] = row
    items = []
    for topic, rows in list(by_topic.items())[:topics]:
        first = next(iter(rows.values()))
        request = GenerationRequest(topic, first["query"], first["references_texts"])
        items.append((request, [GenerationResponse(name, rows[name]["raw_text"]) for name in sorted(rows)]))
    return items


def reference_seconds(path: Path = TIMINGS) -> dict[str, float]:
    """Reference wall seconds on all 301 topics per GEN_ axiom (65 judged + 236 other topics)."""
    timings = json.loads(path.read_text())
    out = {}
    for key, entry in timings.items():
        if key.startswith("default:GEN-") and entry.get("error") is None:
            out[key.split(":", 1)[1].replace("-", "_")] = entry["seconds_65_judged_topics"] + entry["seconds_other_236_topics"]
    return out


def bench_generative(items: list, names: tuple[str, ...] | None = None) -> dict[str, float]:
    """Seconds: ``shared analysis`` (one spaCy pass for all), then each axiom's own prefetch + matrices, and ``total``."""
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.axioms.generative import GENERATIVE_AXIOMS, ICTIR2025_GENERATIVE
    from ir_rag_axioms.axioms.retrieval import prefetch_term_axioms

    axioms = {name: GENERATIVE_AXIOMS[name] for name in (names or ICTIR2025_GENERATIVE)}
    default_analysis().clear()
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    prefetch_term_axioms(list(axioms.values()), items)
    seconds["shared analysis"] = time.perf_counter() - start
    for name, axiom in axioms.items():
        t = time.perf_counter()
        axiom.preferences_batch(items)
        seconds[name] = time.perf_counter() - t
    seconds["total"] = time.perf_counter() - start
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=None, help="only the first N topics (default: all 301)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    from ir_rag_axioms.axioms.generative import GENERATIVE_AXIOMS
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    items = crowd_items(topics=args.topics)
    warm = [(GenerationRequest("w", "warm up"), [GenerationResponse("a", "Models load once."),
                                                  GenerationResponse("b", "Then they are fast.")])]
    for axiom in GENERATIVE_AXIOMS.values():  # load spaCy and WordNet outside the timing
        if "Arg" not in axiom.name:
            axiom.preferences_batch(warm)

    seconds = bench_generative(items)
    reference = reference_seconds()
    scale = len(items) / 301
    print(f"{len(items)} topics, {sum(len(r) for _, r in items)} responses")
    print(f"{'axiom':<18}{'ours s':>10}{'reference s':>13}{'speed-up':>10}")
    for name, value in seconds.items():
        ref = reference.get(name)
        if name == "total":
            ref = sum(reference.values())
        ref = ref * scale if ref is not None else None
        ratio = f"{ref / value:>9.1f}x" if ref and value > 0 else ""
        print(f"{name:<18}{value:>10.1f}{(f'{ref:.1f}' if ref is not None else '-'):>13}{ratio:>10}")
    if args.json:
        args.json.write_text(json.dumps({"topics": len(items), "seconds": seconds,
                                         "reference_seconds": {k: v * scale for k, v in reference.items()}}, indent=2))


if __name__ == "__main__":
    main()
