"""Does the encoder see what the claim adds? Residual-similarity and token-alignment features, measured like the
verifier's signals.

Run (after ``bench/fit_verifier.py --held-out tests/data/rag_answers_[ABCD].json`` has cached the checks' rows; about
3 minutes on 2 cores)::

    HF_HUB_OFFLINE=1 python bench/encoder_signals.py residual [--cache /tmp/verifier-rows.json]
    HF_HUB_OFFLINE=1 python bench/encoder_signals.py tokens [--layer 4] [--cache /tmp/verifier-rows.json]

``residual``: the claim's words its best evidence lacks (content words by ``signals.content_words``), embedded by the
packaged encoder and compared with the evidence sentence (``r_best``) and with the best sentence of the context
(``r_ctx``; 1 when the evidence holds every word).
``tokens``: each content token of the claim (no stopword, no punctuation) aligned with its most similar token of the
evidence sentence by the encoder's token vectors (layer ``--layer`` of the packaged MiniLM; -1 the last), as in
BERTScore's precision: the lowest similarity (``tok_min``), the mean (``tok_mean``) and the mean of the two lowest
(``tok_low2``).
The verifier is refitted with each beside the shipped features, leave one dataset out (``fit_verifier.lodo``), the
realistic batches measured once. Prints balanced accuracy, false alarms and AUC per set; writes nothing. Result
(docs/metrics-development.md): no gain from either.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_verifier as fv  # noqa: E402
import verifier_data  # noqa: E402

import ir_rag_axioms.metrics.verifier as verifier_package  # noqa: E402
from ir_rag_axioms.metrics.verifier.signals import content_words  # noqa: E402

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
BATCHES = [verifier_data.ROOT / f"tests/data/rag_answers_{b}.json" for b in "ABCD"]


def residual(claim: str, evidence: str) -> str:
    """The claim's words whose stem its evidence lacks, in order ("" when it lacks none)."""
    have = content_words(evidence)
    return " ".join(w for w in WORD.findall(claim) if content_words(w) and not content_words(w) <= have)


def similarities(examples: list, rows: list[list[dict]]) -> np.ndarray:
    """(r_best, r_ctx) of every claim, in ``fit_verifier.claim_features`` order."""
    from ir_rag_axioms.analysis.resources import load_sentence_encoder

    flat = [(e, row) for e, found in zip(examples, rows, strict=True) for row in found]
    left = [residual(str(r["statement"]), str(r.get("best_match") or "")) for _, r in flat]
    sentences = {e[2]: [s for p in e[2] for s in re.split(r"(?<=[.!?])\s+", p) if s.strip()] for e, _ in flat}
    texts = sorted({t for t in left if t} | {str(r.get("best_match") or "") for _, r in flat}
                   | {s for found in sentences.values() for s in found})
    model = load_sentence_encoder()  # the packaged all-MiniLM-L6-v2, as the judge uses it
    vectors = dict(zip(texts, model.encode(texts, batch_size=32, normalize_embeddings=True, show_progress_bar=True),
                       strict=True))
    out = np.ones((len(flat), 2))
    for k, ((e, row), text) in enumerate(zip(flat, left, strict=True)):
        if text:
            best = str(row.get("best_match") or "")
            context = np.array([vectors[s] for s in sentences[e[2]]]) if sentences[e[2]] else np.zeros((1, 384))
            out[k] = (float(vectors[text] @ vectors[best]) if best else 0.0, float((context @ vectors[text]).max()))
    return out



def _token_vectors(texts: list[str], layer: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each text -> its tokens' unit vectors (layer ``layer`` of the encoder) and the mask of its content tokens."""
    import torch
    from spacy.lang.en.stop_words import STOP_WORDS

    from ir_rag_axioms.analysis.resources import load_sentence_encoder

    model = load_sentence_encoder()
    tokenizer, network, out = model.tokenizer, model[0].auto_model, {}
    for start in tqdm(range(0, len(texts), 32), desc="token vectors", unit="batch"):
        part = texts[start:start + 32]
        encoded = tokenizer(part, padding=True, truncation=True, max_length=128, return_tensors="pt")
        with torch.no_grad():
            hidden = network(**encoded, output_hidden_states=True).hidden_states[layer].numpy()
        for k, text in enumerate(part):
            pieces = tokenizer.convert_ids_to_tokens(encoded["input_ids"][k].tolist())
            keep = [i for i, piece in enumerate(pieces) if piece not in tokenizer.all_special_tokens]
            vectors = hidden[k, keep] / np.linalg.norm(hidden[k, keep], axis=1, keepdims=True).clip(1e-9)
            content = np.array([pieces[i].startswith("##") or (pieces[i].isalnum() and pieces[i] not in STOP_WORDS)
                                for i in keep])
            out[text] = (vectors, content)
    return out


def alignments(rows: list[list[dict]], layer: int) -> np.ndarray:
    """(tok_min, tok_mean, tok_low2) of every claim against its best evidence, in ``claim_features`` order."""
    flat = [row for found in rows for row in found]
    texts = sorted({str(r["statement"]) for r in flat} | {str(r.get("best_match") or "") for r in flat} - {""})
    vectors = _token_vectors(texts, layer)
    out = np.ones((len(flat), 3))
    for k, row in enumerate(flat):
        claim, content = vectors.get(str(row["statement"]), (np.zeros((0, 384)), np.zeros(0, dtype=bool)))
        if not row.get("best_match"):
            out[k] = 0.0
        elif content.any():
            similar = np.sort((claim[content] @ vectors[str(row["best_match"])][0].T).max(axis=1))
            out[k] = similar[0], similar.mean(), similar[:2].mean()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("signal", choices=("residual", "tokens"))
    parser.add_argument("--layer", type=int, default=-1, help="tokens: the encoder layer (-1: the last)")
    parser.add_argument("--cache", type=Path, nargs="+", default=[Path("/tmp/verifier-rows.json")])
    args = parser.parse_args()
    examples = verifier_data.examples() + [e for path in BATCHES for e in verifier_data.realistic(path)]
    rows = fv.checked_rows(examples, args.cache)
    x, owner = fv.claim_features(examples, rows)
    if args.signal == "residual":
        extra, names = similarities(examples, rows), ("r_best", "r_ctx")
        settings = (("shipped features", []), ("+ r_best", [0]), ("+ r_ctx", [1]), ("+ both", [0, 1]))
    else:
        extra, names = alignments(rows, args.layer), ("tok_min", "tok_mean", "tok_low2")
        settings = (("shipped features", []), *((f"+ {n}", [c]) for c, n in enumerate(names)),
                    ("+ all three", [0, 1, 2]))
    shipped, results = verifier_package.FEATURES, {}
    try:
        for name, columns in settings:
            verifier_package.FEATURES = shipped + tuple(names[c] for c in columns)  # fit() reads it
            results[name] = fv.lodo(examples, np.c_[x, extra[:, columns]], owner)
    finally:
        verifier_package.FEATURES = shipped
    for key in ("balanced_accuracy", "false_alarms", "auc"):
        print(fv.table(results, key), "\n")


if __name__ == "__main__":
    main()
