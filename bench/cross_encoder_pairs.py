"""Write the verifier's labelled examples as (claim, best evidence) pairs for fitting a cross-encoder elsewhere.

Usage (from the repository root; about a minute when the checks' rows are cached, else the 40 minutes of the checks)::

    HF_HUB_OFFLINE=1 nice -n 10 python bench/cross_encoder_pairs.py --cache /tmp/verifier-rows-a.json --out pairs.jsonl

Reads the 2,048 examples of ``verifier_data.examples`` and the judge's rows (``fit_verifier.checked_rows``: each claim
with the evidence sentence the judge picked), and writes one JSON line per example after a first line ``{"meta": ...}``
(feature names, the features verifier's held-out figures). Each example: ``id``, ``dataset``, ``label``, ``answer``,
``evidence`` (its claims' distinct best sentences, joined), ``context`` (the passages, cut to ``--context-chars``),
``claims`` (``claim``, ``evidence``, ``features``, ``p_features``: the claim's P(supported) from the features verifier
fitted without the example's dataset), ``p_features`` (the lowest of its claims, 1 without claims) and
``threshold_features`` (that fold's threshold). ``bench/fit_cross_encoder.py`` reads the file; no package import there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_verifier  # noqa: E402
import verifier_data  # noqa: E402


def out_of_fold(examples: list, x: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict]:
    """Each claim's P(supported) and each example's threshold from the verifier fitted without its dataset."""
    names = np.array([e[0] for e in examples])
    p_claim, thresholds, figures = np.zeros(len(owner)), np.zeros(len(examples)), {}
    for name in sorted(set(names)):
        verifier = fit_verifier.fit(examples, x, owner, names != name)
        mine = names[owner] == name
        p_claim[mine] = verifier.probabilities(x[mine])[0]
        thresholds[names == name] = verifier.threshold
        figures[name] = fit_verifier.evaluate(verifier, examples, x, owner, names == name)["balanced_accuracy"]
    return p_claim, thresholds, figures


def records(examples: list, rows: list[list[dict]], x: np.ndarray, owner: np.ndarray, p_claim: np.ndarray,
            thresholds: np.ndarray, context_chars: int) -> list[dict]:
    """One record per example (see the module docstring)."""
    out = []
    claim_of = {k: [] for k in range(len(examples))}
    for i, k in enumerate(owner):
        claim_of[int(k)].append(i)
    for k, (example, found) in enumerate(zip(examples, rows, strict=True)):
        claims = [{"claim": str(row["statement"]), "evidence": str(row.get("best_match") or ""),
                   "features": [round(float(v), 5) for v in x[i]], "p_features": round(float(p_claim[i]), 5)}
                  for row, i in zip(found, claim_of[k], strict=True)]
        evidence = list(dict.fromkeys(c["evidence"] for c in claims if c["evidence"]))
        out.append({"id": k, "dataset": example[0], "label": example[3], "answer": example[1],
                    "evidence": " ".join(evidence), "context": " ".join(example[2])[:context_chars],
                    "claims": claims, "p_features": min((c["p_features"] for c in claims), default=1.0),
                    "threshold_features": float(thresholds[k])})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, nargs="+", default=[Path("/tmp/verifier-rows-a.json")])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--context-chars", type=int, default=3000)
    args = parser.parse_args()
    start = time.perf_counter()
    examples = verifier_data.examples()
    rows = fit_verifier.checked_rows(examples, args.cache)
    from ir_rag_axioms.metrics.verifier import FEATURES

    x, owner = fit_verifier.claim_features(examples, rows)
    p_claim, thresholds, figures = out_of_fold(examples, x, owner)
    found = records(examples, rows, x, owner, p_claim, thresholds, args.context_chars)
    external = float(np.mean([v for k, v in figures.items() if k != "project"]))
    meta = {"features": list(FEATURES), "examples": len(found), "claims": len(owner),
            "features_lodo_balanced_accuracy": {**{k: round(v, 4) for k, v in figures.items()},
                                                "mean_external": round(external, 4)},
            "written_by": "bench/cross_encoder_pairs.py"}
    with args.out.open("w") as handle:
        handle.write(json.dumps({"meta": meta}) + "\n")
        for record in found:
            handle.write(json.dumps(record) + "\n")
    print(json.dumps(meta["features_lodo_balanced_accuracy"]))
    print(f"wrote {len(found)} examples, {len(owner)} claims to {args.out} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
