"""Per-stage throughput on the encoder's device (a GPU when torch sees one, else the CPU), and half-precision agreement.

Usage (from the repository root; under five minutes on one GPU)::

    HF_HUB_OFFLINE=1 python bench/bench_gpu.py [--device auto] [--topics 10] [--agreement-topics 65] [--json out.json]

Prints, in one process:
- spaCy docs/s: the full pipeline over the texts of the first ``--topics`` judged crowd topics (queries, passages,
  responses), in this process on the CPU (spaCy never runs on the GPU here);
- encoder strings/s: the unique sentences and noun chunks of those texts, float32 and half precision (float16 on
  CUDA, bfloat16 on the CPU), in the batch size of the device;
- ROUGE-Lsum pairs/s: every response against every passage of its topic;
- the 10-topic per-request figure: the ten ICTIR 2025 RAG axioms (CLAR1 aside) through ``axiom.preferences`` on
  ``--topics`` topics from an empty analysis (models loaded), seconds in all and per request;
- agreement: for the axioms that read the encoder, the share of off-diagonal entries of their ICTIR 2025 matrices
  on ``--agreement-topics`` judged topics identical to the reference's (``prefs_ictir.npz``), float32 vs half
  precision (0: skipped; default 65 on CUDA, 0 on the CPU, where it takes minutes).
Without CUDA it says so and measures the CPU. The device check on a GPU machine, in one go::

    python -m pytest -q tests/test_device.py && python bench/bench_gpu.py --json gpu.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TQDM_DISABLE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
MODEL = "all-MiniLM-L6-v2"


def texts_of(items: list) -> list[str]:
    """Unique queries, passages and responses of the items, in order."""
    texts = [t for request, responses in items for t in (request.text, *(request.context or ()),
                                                         *(r.text for r in responses))]
    return list(dict.fromkeys(texts))


def spacy_stage(texts: list[str]) -> tuple[dict, list]:
    """Docs/s of the full spaCy pipeline (one process, CPU); the Docs for the encoder's strings."""
    from ir_rag_axioms.analysis.resources import load_spacy

    nlp = load_spacy()
    list(nlp.pipe(texts[:4]))  # warm-up
    start = time.perf_counter()
    docs = list(nlp.pipe(texts, batch_size=64))
    seconds = time.perf_counter() - start
    return {"docs": len(texts), "seconds": seconds, "docs_per_s": len(texts) / seconds}, docs


def encoder_stage(docs: list, device: str, precisions: list[str], workers: int) -> dict:
    """Strings/s of the encoder over the docs' unique sentences and noun chunks, per precision."""
    from ir_rag_axioms.analysis import workers as pool
    from ir_rag_axioms.analysis.resources import encoder_batch_size

    strings = list(dict.fromkeys(s for doc in docs for s in (*(x.text for x in doc.sents),
                                                              *(c.text for c in doc.noun_chunks))))
    batch = encoder_batch_size(device)
    out: dict = {"strings": len(strings), "batch": batch}
    vectors = {}
    for precision in precisions:
        pool.encode(MODEL, strings[:batch], batch, workers, device, precision)  # load and warm up
        start = time.perf_counter()
        vectors[precision] = pool.encode(MODEL, strings, batch, workers, device, precision)
        seconds = time.perf_counter() - start
        out[precision] = {"seconds": seconds, "strings_per_s": len(strings) / seconds}
    if len(precisions) == 2:
        import numpy as np

        full, half = (np.stack(vectors[p]) for p in precisions)
        out["min_cosine_half_vs_float32"] = float(np.min(np.sum(full * half, axis=1)))
    return out


def rouge_stage(items: list) -> dict:
    """ROUGE-Lsum pairs/s: every response against every passage of its topic, from an empty analysis."""
    from ir_rag_axioms.analysis.cache import Analysis
    from ir_rag_axioms.analysis.rouge import rouge_lsum_f

    pairs = [(p, r.text) for request, responses in items for r in responses for p in (request.context or ())]
    with Analysis(store=None) as analysis:
        rouge_lsum_f(*pairs[0], analysis=analysis)  # warm-up (imports)
    with Analysis(store=None) as analysis:
        start = time.perf_counter()
        for passage, response in pairs:
            rouge_lsum_f(passage, response, analysis=analysis)
        seconds = time.perf_counter() - start
    return {"pairs": len(pairs), "seconds": seconds, "pairs_per_s": len(pairs) / seconds}


def rag_axioms() -> dict:
    """The ten ICTIR 2025 RAG axioms (CLAR1 aside)."""
    from ir_rag_axioms.axioms.presets import ictir2025

    return {k: v for k, v in ictir2025(include_clar1=False).items() if not k.startswith("GEN")}


def per_request(items: list, device: str, precision: str) -> dict:
    """The per-request API on the items from an empty analysis: seconds in all and per request."""
    from ir_rag_axioms.analysis.cache import Analysis

    axioms = rag_axioms()
    with Analysis(store=None, device=device, precision=precision):
        start = time.perf_counter()
        for axiom in axioms.values():
            for request, responses in items:
                axiom.preferences(request, responses)
        seconds = time.perf_counter() - start
    return {"topics": len(items), "seconds": seconds, "per_request_s": seconds / len(items)}


def agreement(topics: int, device: str, precisions: list[str]) -> dict:
    """Share of off-diagonal entries identical to the reference's ICTIR matrices, per precision, encoder axioms only."""
    import numpy as np
    from bench_axioms import REFERENCE, load_items

    from ir_rag_axioms import GenerationRequest, GenerationResponse
    from ir_rag_axioms.analysis.cache import Analysis

    items = load_items(topics, GenerationRequest, GenerationResponse)
    axioms = {n: a for n, a in rag_axioms().items() if any(r.encoder for r in a.reads())}
    golden = np.load(REFERENCE / "prefs_ictir.npz")
    off = ~np.eye(6, dtype=bool)
    analysis = Analysis(store=None, device=device)  # one analysis: the spaCy features serve every precision
    out: dict = {"topics": len(items), "axioms": sorted(axioms)}
    for precision in precisions:
        analysis.precision = precision
        start = time.perf_counter()
        shares = {}
        for name, axiom in axioms.items():
            ours = np.stack(axiom.preferences_batch(items, analysis=analysis))
            shares[name] = float((ours[:, off] == golden[name][: len(items)][:, off]).mean())
        out[precision] = {"seconds": time.perf_counter() - start, "agreement": shares}
    return out


def main(argv: list[str] | None = None) -> int:
    """Measure every stage on the chosen device and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="auto", help="auto (CUDA when torch sees one), cpu, cuda, cuda:N")
    parser.add_argument("--topics", type=int, default=10, help="judged crowd topics for the stages")
    parser.add_argument("--agreement-topics", type=int, help="judged topics for the agreement (default: 65 on "
                        "CUDA, 0 on the CPU)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    import torch
    from bench_axioms import load_items

    from ir_rag_axioms import GenerationRequest, GenerationResponse
    from ir_rag_axioms.analysis.resources import resolve_device
    from ir_rag_axioms.analysis.workers import default_workers

    device = resolve_device(args.device)
    if device == "cpu":
        print(f"no CUDA device seen by torch {torch.__version__} (or --device cpu): measuring the CPU "
              f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}); half precision is bfloat16")
        half = "bfloat16"
    else:
        print(f"device {device}: {torch.cuda.get_device_name(device)}; torch {torch.__version__}; "
              f"{os.cpu_count()} CPU cores for spaCy")
        half = "float16"
    precisions = ["float32", half]
    workers = default_workers()
    items = load_items(args.topics, GenerationRequest, GenerationResponse)
    figures: dict = {"device": device, "workers": workers}
    figures["spacy"], docs = spacy_stage(texts_of(items))
    print(f"spaCy (CPU, one process, full pipeline): {figures['spacy']['docs']} docs in "
          f"{figures['spacy']['seconds']:.1f} s = {figures['spacy']['docs_per_s']:.1f} docs/s", flush=True)
    figures["encoder"] = encoder_stage(docs, device, precisions, workers)
    for precision in precisions:
        e = figures["encoder"][precision]
        print(f"encoder ({device}, {precision}, batch {figures['encoder']['batch']}): "
              f"{figures['encoder']['strings']} strings in {e['seconds']:.2f} s = {e['strings_per_s']:.0f} strings/s",
              flush=True)
    print(f"  min cosine {half} vs float32: {figures['encoder']['min_cosine_half_vs_float32']:.5f}")
    figures["rouge"] = rouge_stage(items)
    print(f"ROUGE-Lsum (CPU): {figures['rouge']['pairs']} pairs in {figures['rouge']['seconds']:.1f} s = "
          f"{figures['rouge']['pairs_per_s']:.0f} pairs/s", flush=True)
    for precision in precisions:
        figures[f"per_request_{precision}"] = r = per_request(items, device, precision)
        print(f"per-request API, ten RAG axioms, {r['topics']} topics ({device}, {precision}): {r['seconds']:.1f} s "
              f"= {r['per_request_s']:.2f} s per request", flush=True)
    topics = args.agreement_topics if args.agreement_topics is not None else (0 if device == "cpu" else 65)
    if topics:
        figures["agreement"] = a = agreement(topics, device, precisions)
        print(f"agreement with the reference's ICTIR matrices ({a['topics']} topics, identical off-diagonal "
              "entries), encoder axioms:")
        for name in a["axioms"]:
            print(f"  {name:<6}" + "".join(f"  {p}: {a[p]['agreement'][name]:.4f}" for p in precisions))
    figures["total_s"] = time.perf_counter() - start
    print(f"total {figures['total_s']:.0f} s; load average {os.getloadavg()[0]:.1f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
