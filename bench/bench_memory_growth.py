"""Process memory (RSS) over rounds of new texts under a bounded analysis: it must stay flat once the bound is reached.

    python bench/bench_memory_growth.py [--rounds 3] [--texts 600] [--axioms COH1,CORR1]

Each round analyses ``--texts`` crowd responses (first 300 characters) never seen before, in requests of six, with
an ``Analysis(store=None, workers=1, max_texts=400, max_mb=4)``; the RSS after each round (after a garbage
collection) and the size of the spaCy vocabulary are printed. Before the memory zones (``analysis.workers.transient``)
every new word stayed in spaCy's vocabulary and lemmatizer cache, and the RSS grew with each round.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("IR_RAG_AXIOMS_ROOT", str(Path(__file__).resolve().parents[1])))


def rss_mb() -> float:
    """This process's resident set size in MB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    """Print the RSS after a warm-up and after each round."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--texts", type=int, default=600)
    parser.add_argument("--axioms", default="COH1,CORR1")
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"
                                              / "trec-rag-24-crowd"))
    args = parser.parse_args()
    import ir_rag_axioms
    from ir_rag_axioms import Analysis, GenerationRequest, GenerationResponse, get
    from ir_rag_axioms.analysis.resources import load_spacy
    from ir_rag_axioms.axioms.execution import preference_stacks
    from ir_rag_axioms.datasets import load_crowd_responses

    texts = [str(t)[:300] for t in load_crowd_responses(args.data)["raw_text"] if isinstance(t, str) and t.strip()]
    axioms = [get(name) for name in args.axioms.split(",")]
    analysis = Analysis(store=None, workers=1, max_texts=400, max_mb=4)

    def items(k: int) -> list:
        chunk = texts[k * args.texts:(k + 1) * args.texts]
        return [(GenerationRequest(f"{k}-{i}", "why do cats sleep"),
                 [GenerationResponse(str(j), t) for j, t in enumerate(chunk[i:i + 6])])
                for i in range(0, len(chunk), 6)]

    list(preference_stacks(axioms, items(args.rounds)[:5], analysis=analysis))  # models loaded, unseen texts
    gc.collect()
    base = rss_mb()
    print(f"{ir_rag_axioms.__file__}: after warm-up {base:.1f} MB", flush=True)
    for k in range(args.rounds):
        start = time.perf_counter()
        for _ in preference_stacks(axioms, items(k), analysis=analysis):
            pass
        gc.collect()
        print(f"round {k + 1} ({args.texts} new texts): RSS {rss_mb():.1f} MB (+{rss_mb() - base:.1f}), "
              f"{time.perf_counter() - start:.0f} s, spaCy strings {len(load_spacy().vocab.strings)}", flush=True)


if __name__ == "__main__":
    main()
