"""Each sub-check of the heuristic judge removed in turn from the cached rows: does it pay on data it was not tuned on?

Usage (from the repository root, after ``bench/fit_verifier.py --held-out tests/data/rag_answers_[ABCD].json`` has
written its rows cache; about 5 minutes)::

    HF_HUB_OFFLINE=1 python bench/subcheck_ablation.py [--cache /tmp/verifier-rows.json]

A family of checks (``metrics/verifier/signals.FAMILIES``) is one pair of verifier features; a sub-check is one rule
inside a family, told by the reasons it writes (``SUB_CHECKS``: reason pattern). For each sub-check its reasons are
dropped from every claim's row, and the claims' features recomputed. Printed per set: how many claims it fires on
(supported answers / the rest), balanced accuracy and false alarms of (1) the packaged verifier as shipped, not
refitted, and (2) the verifier refitted leaving one dataset out (``fit_verifier.lodo``). Dropping the reasons of an
additive rule (one that only adds a finding) is what deleting it does; for a "cannot tell" rule that pre-empts a
harsher finding it is not, so those rows are for reading, not for deleting on.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_verifier  # noqa: E402
import verifier_data  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SUB_CHECKS = {
    "polarity off the parse": r"^negation: the statement (negates|affirms) '[^']*' of '",
    "must for may": r"^modality: .*certain",
    "comparison flipped": r"comparison flipped",
    "misplaced number": r"^number .*only in sentences about something else|^cannot tell: [^']*is in another sentence",
    "misplaced entity": r"^entity .*only in sentences about something else"
                        r"|^cannot tell: '[^']*' is in another sentence",
    "arithmetic": r"may be computed|says nothing of computing|nor the sum of",
    "converted rate or price": r"^cannot tell: .*convert",
    "name the context lacks": r"^name '|^cannot tell: name '",
    "entity the context lacks": r"^entity '[^']*' is not in|^cannot tell: entity '[^']*' is not in",
    "entity rival": r"^entity '[^']*' vs '[^']*' in [^(]*$",
    "another form of a name": r"may be another form|may be what .* calls|may be the '",
    "both negate (cannot tell)": r"^cannot tell: negation|both negate",
    "antonym (cannot tell)": r"^cannot tell: the antonyms|negation and an antonym together",
    "antonym": r"^antonym '[^']*' vs '[^']*' in [^(]*$",
    "negation": r"^negation: (the statement|passage|another)[^']*'[^']*', [^']* it$|^negation: .*affirms '[^']*' \(",
    "number rival": r"^number .* vs .* in passage \d+$|^number .* vs .* in the",
    "number the context lacks": r"^number .* is not in|^cannot tell: number .* is not in",
}
"""Sub-check -> the pattern of the reasons it writes."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/verifier-rows.json"))
    args = parser.parse_args()
    from ir_rag_axioms.metrics.verifier import load_verifier

    held = sorted((ROOT / "tests" / "data").glob("rag_answers_*.json"))
    examples = list(verifier_data.examples()) + [e for path in held for e in verifier_data.realistic(path)]
    stored = json.loads(args.cache.read_text())
    rows = [stored[json.dumps([e[1], list(e[2])])] for e in examples]  # KeyError: run fit_verifier.py first
    sets = np.array([e[0] for e in examples])
    shipped, shipped_results, refitted = load_verifier(), {}, {}
    for label in ("nothing", *SUB_CHECKS):
        pattern = re.compile(SUB_CHECKS.get(label, r"(?!x)x"))
        kept = [[{**row, "reasons": [r for r in row.get("reasons", ()) if not pattern.search(str(r))]}
                 for row in found] for found in rows]
        fires = collections.Counter(("S" if e[3] == "supported" else "N", e[0])
                                    for e, found in zip(examples, rows, strict=True) for row in found
                                    if any(pattern.search(str(r)) for r in row.get("reasons", ())))
        if label != "nothing":
            print(f"{label}: fires on claims of {dict(sorted(fires.items()))}")
        x, owner = fit_verifier.claim_features(examples, kept)
        shipped_results[f"without {label}"] = {name: fit_verifier.evaluate(shipped, examples, x, owner, sets == name)
                                               for name in sorted(set(sets))}
        refitted[f"without {label}"] = fit_verifier.lodo(examples, x, owner)
    for title, results in (("packaged verifier, not refitted", shipped_results), ("refitted, LODO", refitted)):
        for key in ("balanced_accuracy", "false_alarms"):
            print(f"\n{title}\n{fit_verifier.table(results, key)}")


if __name__ == "__main__":
    main()
