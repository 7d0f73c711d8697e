"""Does the encoder see what the claim adds? Two residual-similarity features, measured like the verifier's signals.

Run (after ``bench/fit_verifier.py`` has cached the checks' rows; about 2 minutes on 2 cores)::

    HF_HUB_OFFLINE=1 python bench/residual_similarity.py [--cache /tmp/verifier-rows.json]

For each claim: the words its best evidence lacks (content words by ``signals.content_words``), embedded by the
packaged encoder and compared with the evidence sentence (``r_best``) and with the best sentence of the context
(``r_ctx``; 1 when the evidence holds every word). The verifier is refitted with each beside the shipped features,
leave one dataset out (``fit_verifier.lodo``), the realistic batches measured once. Prints balanced accuracy, false
alarms and AUC per set; writes nothing. Result (docs/metrics-development.md): no gain.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_verifier as fv  # noqa: E402
import verifier_data  # noqa: E402

import ir_rag_axioms.metrics.verifier as verifier_package  # noqa: E402
from ir_rag_axioms.metrics.verifier.signals import content_words  # noqa: E402

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
BATCHES = [verifier_data.ROOT / f"tests/data/rag_answers_{b}.json" for b in "AB"]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, nargs="+", default=[Path("/tmp/verifier-rows.json")])
    args = parser.parse_args()
    examples = verifier_data.examples() + [e for path in BATCHES for e in verifier_data.realistic(path)]
    rows = fv.checked_rows(examples, args.cache)
    x, owner = fv.claim_features(examples, rows)
    extra = similarities(examples, rows)
    shipped, results = verifier_package.FEATURES, {}
    try:
        for name, columns in (("shipped features", []), ("+ r_best", [0]), ("+ r_ctx", [1]), ("+ both", [0, 1])):
            verifier_package.FEATURES = shipped + tuple(("r_best", "r_ctx")[c] for c in columns)  # fit() reads it
            results[name] = fv.lodo(examples, np.c_[x, extra[:, columns]], owner)
    finally:
        verifier_package.FEATURES = shipped
    for key in ("balanced_accuracy", "false_alarms", "auc"):
        print(fv.table(results, key), "\n")


if __name__ == "__main__":
    main()
