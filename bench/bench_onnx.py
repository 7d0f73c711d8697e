"""ONNX Runtime against torch for the sentence encoder (all-MiniLM-L6-v2), side by side in one process.

Usage (in a side environment with ``onnxruntime`` and ``onnx`` installed; never a dependency of the package)::

    HF_HUB_OFFLINE=1 python bench/bench_onnx.py [--topics 10] [--threads 1] [--rounds 2] [--axioms 10]

Exports the packaged model's transformer to ONNX (``torch.onnx.export``), then, alternating ``--rounds`` times,
encodes the same strings (the sentences of the first ``--topics`` judged crowd topics' responses and passages, in
batches of 32 sorted by length, as the analysis does) with sentence-transformers on torch and with ONNX Runtime
(mean pooling and unit length in numpy), on ``--threads`` threads each. Prints strings/s of both, the largest
vector difference and, for the axioms that read the encoder (COH1, COV3, CONS1), the share of matrix entries whose
sign is the same with ONNX vectors as with torch's on the first ``--axioms`` topics.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


def strings_of(items: list) -> list[str]:
    """The unique sentences (split at ., ! and ?) of the responses and passages of ``items``."""
    texts = [t for request, responses in items for t in (*request.context, *(r.text for r in responses))]
    found = (s.strip() for t in texts for s in re.split(r"(?<=[.!?])\s+", t))
    return list(dict.fromkeys(s for s in found if s))


def export(folder: Path) -> tuple[Path, Any]:
    """The packaged MiniLM's transformer as an ONNX file in ``folder``, and its tokenizer."""
    import torch

    from ir_rag_axioms.analysis.resources import load_sentence_encoder

    encoder = load_sentence_encoder()
    model, tokenizer = encoder[0].auto_model.eval(), encoder.tokenizer
    sample = tokenizer(["an example sentence", "two"], padding=True, return_tensors="pt")
    path = folder / "minilm.onnx"

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = model  # a submodule: its weights are exported as initialisers

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    with torch.no_grad():
        torch.onnx.export(Hidden(), (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"]),
                          str(path), input_names=["input_ids", "attention_mask", "token_type_ids"],
                          output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                          dynamic_axes={name: {0: "batch", 1: "tokens"} for name in
                                        ("input_ids", "attention_mask", "token_type_ids", "last_hidden_state")})
    return path, tokenizer


def onnx_encoder(path: Path, tokenizer: Any, threads: int) -> Any:
    """A function from strings to unit-length mean-pooled float32 vectors, on ONNX Runtime."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def encode(strings: list[str]) -> np.ndarray:
        tokens = tokenizer(strings, padding=True, truncation=True, max_length=256, return_tensors="np")
        feeds = {k: tokens[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
        hidden = session.run(None, feeds)[0]
        mask = feeds["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)

    return encode


def batched(strings: list[str], encode: Any) -> dict[str, np.ndarray]:
    """Vectors of ``strings`` in batches of 32 sorted by length (the analysis' batches)."""
    order = sorted(strings, key=lambda s: (-len(s), s))
    out: dict[str, np.ndarray] = {}
    for i in range(0, len(order), 32):
        out.update(zip(order[i:i + 32], encode(order[i:i + 32]), strict=True))
    return out


def main() -> int:
    """Export, time both encoders side by side, compare vectors and matrix signs."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topics", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--axioms", type=int, default=10, help="topics for the matrix sign comparison (0: skip)")
    args = parser.parse_args()
    import bench_axioms
    import torch

    from ir_rag_axioms import GenerationRequest, GenerationResponse
    from ir_rag_axioms.analysis.resources import load_sentence_encoder

    torch.set_num_threads(args.threads)
    items = bench_axioms.load_items(max(args.topics, args.axioms), GenerationRequest, GenerationResponse)
    strings = strings_of(items[:args.topics])
    st = load_sentence_encoder()

    def torch_encode(batch: list[str]) -> np.ndarray:
        return np.asarray(st.encode(batch, batch_size=len(batch), convert_to_numpy=True, normalize_embeddings=True,
                                    show_progress_bar=False), dtype=np.float32)

    with tempfile.TemporaryDirectory() as folder:
        path, tokenizer = export(Path(folder))
        ort_encode = onnx_encoder(path, tokenizer, args.threads)
        batched(strings[:64], ort_encode), batched(strings[:64], torch_encode)  # warm up both
        seconds: dict[str, list[float]] = {"torch": [], "onnxruntime": []}
        vectors: dict[str, dict[str, np.ndarray]] = {}
        for _ in range(args.rounds):
            for name, encode in (("torch", torch_encode), ("onnxruntime", ort_encode)):
                start = time.perf_counter()
                vectors[name] = batched(strings, encode)
                seconds[name].append(time.perf_counter() - start)
        diff = max(float(np.abs(vectors["torch"][s] - vectors["onnxruntime"][s]).max()) for s in strings)
        print(f"{len(strings)} strings ({args.topics} topics), {args.threads} thread(s), {args.rounds} rounds:")
        for name, found in seconds.items():
            print(f"  {name:<12} {' '.join(f'{s:6.1f} s' for s in found)}   best {len(strings) / min(found):6.1f} "
                  f"strings/s")
        print(f"  torch / onnxruntime (best of each): {min(seconds['torch']) / min(seconds['onnxruntime']):.2f}x; "
              f"largest vector difference {diff:.2e}")
        if args.axioms:
            signs(items[:args.axioms], ort_encode)
    return 0


def signs(items: list, ort_encode: Any) -> None:
    """Share of equal matrix signs (COH1, COV3, CONS1) with ONNX vectors and with torch's."""
    from ir_rag_axioms.presets import ictir2025

    from ir_rag_axioms.analysis import workers
    from ir_rag_axioms.analysis.cache import Analysis

    axioms = {k: v for k, v in ictir2025(include_clar1=False).items() if k in ("COH1", "COV3", "CONS1")}
    with Analysis(workers=1, store=None):
        reference = {k: [a.preferences(q, r) for q, r in items] for k, a in axioms.items()}
    original = workers._encode_batches
    workers._encode_batches = lambda model, batches, *a, **k: [ort_encode(list(b)) for b in batches]  # type: ignore
    try:
        with Analysis(workers=1, store=None):
            onnx = {k: [a.preferences(q, r) for q, r in items] for k, a in axioms.items()}
    finally:
        workers._encode_batches = original
    for name in axioms:
        same = np.mean([np.mean(np.sign(a) == np.sign(b)) for a, b in zip(reference[name], onnx[name], strict=True)])
        print(f"  {name}: equal signs with ONNX and torch vectors on {len(items)} topics: {same:.2%}")


if __name__ == "__main__":
    raise SystemExit(main())
