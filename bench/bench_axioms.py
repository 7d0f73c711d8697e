"""Benchmark the RAG axioms of the ICTIR 2025 preset on the crowd topics against the analysis floor and the reference.

Usage (from the repository root; ``make bench`` runs it)::

    HF_HUB_OFFLINE=1 python bench/bench_axioms.py [--axioms rag|gen|all] [--topics all|judged|N] [--processes 2] [--json out.json]

``--axioms rag``: the ten RAG axioms of the preset (CLAR1 needs LanguageTool); ``gen``: its 14 GEN_ axioms; ``all``: both.

What it prints, all measured in one run on a fresh analysis memo:
- ``ours``: one shared spaCy pass over every text the axioms read (with the union of their needs), then per axiom
  its own work (embeddings, ROUGE, negation, ...) and its matrices; ``total`` is the sum.
- ``floor``: the bare minimum the same axioms need: one ``nlp.pipe`` over the same unique texts with the same
  components, plus one ``encode`` over every unique string they embedded, without any of our code around it.
- ``total / floor`` (target <= 1.3) and, on the 65 judged topics, ``reference / ours`` against the reference
  implementation's timings in ``../shared/reference/ir_axioms-1.2.5/timings.json`` (target >= 20).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TQDM_DISABLE", "1")  # progress bars would only clutter the figures
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", Path(__file__).resolve().parents[2] / "shared"))
REFERENCE = SHARED / "reference" / "ir_axioms-1.2.5"


def load_items(which: str) -> list:
    """Crowd topics as (request with 20 passages, 6 responses): ``all`` 301, ``judged`` the 65 judged, or the first N."""
    from ir_rag_axioms.datasets import crowd

    responses = crowd.load_crowd_responses(SHARED / "data" / "trec-rag-24-crowd" / "responses.jsonl.gz")
    if which == "judged":
        topics = set(json.loads((REFERENCE / "index.json").read_text())["topics_judged"])
        return crowd.items(responses, topics)
    items = crowd.items(responses)
    return items if which == "all" else items[: int(which)]


def reference_seconds(axioms: dict, judged: bool) -> dict[str, float | None]:
    """The reference's wall seconds per axiom (65 judged topics, or all 301), None where not measured."""
    timings = json.loads((REFERENCE / "timings.json").read_text())
    out: dict[str, float | None] = {}
    for name in axioms:
        key = f"ictir:{name}" if f"ictir:{name}" in timings else f"default:{name.replace('_', '-')}"
        entry = timings.get(key) or {}
        judged_seconds, other = entry.get("seconds_65_judged_topics"), entry.get("seconds_other_236_topics")
        if judged_seconds is None or (not judged and other is None):
            out[name] = None
        else:
            out[name] = judged_seconds + (0.0 if judged else other)
    return out


def run_ours(axioms: dict, items: list) -> dict[str, float]:
    """Seconds of the shared spaCy pass and of each axiom's own prefetch + matrices, on a fresh memo."""
    from ir_rag_axioms.analysis.cache import default_analysis

    default_analysis().clear()
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    plan = spacy_plan(axioms, items)
    for (model, needs), texts in plan.items():
        default_analysis().parse(texts, model, needs)
    seconds["shared spaCy pass"] = time.perf_counter() - start
    for name, axiom in axioms.items():
        start = time.perf_counter()
        axiom.prefetch(items)
        for request, responses in items:
            axiom.matrix(request, responses)
        seconds[name] = time.perf_counter() - start
    seconds["total"] = sum(seconds.values())
    return seconds


def spacy_plan(axioms: dict, items: list) -> dict[tuple[str, frozenset], list[str]]:
    """(model, needs) -> unique texts, with each text's needs merged over all axioms (as ``prefetch_all`` does)."""
    merged: dict[tuple[str, str], set[str]] = {}
    for axiom in axioms.values():
        for model, text, needs in axiom.spacy_needs(items):
            merged.setdefault((model, text), set()).update(needs)
    plan: dict[tuple[str, frozenset], list[str]] = {}
    for (model, text), needs in merged.items():
        plan.setdefault((model, frozenset(needs)), []).append(text)
    return plan


def run_floor(axioms: dict, items: list, processes: int) -> dict[str, float]:
    """Bare nlp.pipe over the same texts and components, and one encode over every string our run embedded."""
    from ir_rag_axioms.analysis.cache import _torch_threads, default_analysis, pipes_for
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    strings: dict[str, list[str]] = {}
    for model, string in default_analysis()._vectors:
        strings.setdefault(model, []).append(string)
    start = time.perf_counter()
    for (model, needs), texts in spacy_plan(axioms, items).items():
        nlp = load_spacy(model)
        disable = [p for p in nlp.pipe_names if p not in pipes_for(needs)]
        n_process = processes if len(texts) >= 200 else 1
        for _ in nlp.pipe(texts, disable=disable, batch_size=64, n_process=n_process):
            pass
    spacy_seconds = time.perf_counter() - start
    start = time.perf_counter()
    with _torch_threads():  # the same torch threads as our run
        for model, group in strings.items():
            load_sentence_encoder(model).encode(group, batch_size=32, show_progress_bar=False)
    embed_seconds = time.perf_counter() - start
    return {"spaCy": spacy_seconds, "embeddings": embed_seconds, "total": spacy_seconds + embed_seconds,
            "unique strings embedded": float(sum(len(g) for g in strings.values()))}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table; optionally write the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topics", default="all", help="all (301), judged (65) or a number of topics")
    parser.add_argument("--processes", type=int, default=min(2, os.cpu_count() or 1), help="spaCy processes")
    parser.add_argument("--axioms", choices=("rag", "gen", "all"), default="rag", help="which axioms of the preset")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    os.environ["IR_RAG_AXIOMS_SPACY_PROCESSES"] = str(args.processes)

    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy
    from ir_rag_axioms.presets import ictir2025

    axioms = {k: v for k, v in ictir2025(include_clar1=False).items()
              if args.axioms == "all" or (args.axioms == "gen") == k.startswith("GEN")}
    items = load_items(args.topics)
    # Loading models (and a first call's warm-up) is part of neither measurement.
    list(load_spacy().pipe(["A warm-up sentence about Paris."] * 8))
    load_sentence_encoder().encode(["warm-up"] * 8)
    if args.axioms != "rag":
        from ir_rag_axioms.analysis.similarity import load_wordnet

        load_wordnet().synsets("warm")
    n_responses = sum(len(r) for _, r in items)
    print(f"{len(items)} topics, {n_responses} responses, {len(axioms)} axioms ({', '.join(axioms)}); "
          f"spaCy processes: {args.processes}", flush=True)

    ours = run_ours(axioms, items)
    floor = run_floor(axioms, items, args.processes)
    judged = args.topics == "judged"
    reference = reference_seconds(axioms, judged) if args.topics in ("judged", "all") else None

    print(f"\n{'part':<22}{'ours s':>10}{'reference s':>13}{'speed-up':>10}")
    for name, value in ours.items():
        ref = reference.get(name) if reference else None
        if name == "total" and reference and None not in reference.values():
            ref = sum(reference.values())
        speedup = f"{ref / value:>9.1f}x" if ref and value > 0 else ""
        print(f"{name:<22}{value:>10.1f}{(f'{ref:.1f}' if ref else '-'):>13}{speedup:>10}")
    print(f"\nfloor: spaCy {floor['spaCy']:.1f} s + embeddings {floor['embeddings']:.1f} s "
          f"({floor['unique strings embedded']:.0f} unique strings) = {floor['total']:.1f} s")
    ratio = ours["total"] / floor["total"]
    print(f"ours / floor = {ratio:.2f}  (target <= 1.3)")
    if reference and None not in reference.values():
        total_ref = sum(reference.values())
        print(f"reference implementation: {total_ref:.0f} s; reference / ours = {total_ref / ours['total']:.1f}x "
              "(target >= 20 on the 65 judged topics)")
    print(f"throughput: {n_responses / ours['total']:.1f} responses/s")
    if args.json:
        args.json.write_text(json.dumps({"topics": len(items), "responses": n_responses, "ours": ours,
                                         "floor": floor, "ratio_to_floor": ratio, "reference_seconds": reference},
                                        indent=1))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
