"""Sign agreement of pairs of retrieval axioms on seeded random pools (issue 28: LNC1/LNC2, RSIM/P_RANK, TFC1/TFC2).

``python bench/roadmap_signals.py [--pools 200] [--seed 0] PAIR...`` with PAIR such as ``LNC1:LNC2``: for each pair,
the ordered document pairs both decide, how many of those have the same sign, and each one's decided pairs.
The pools: 6 documents of 3-12 terms over a 14-word vocabulary, a 1-3 term query (a third of the queries quote a
two-word phrase), every fourth pool with a 2-fold concatenation of one of its documents, 4 context passages
(``--no-context``: none).
"""

from __future__ import annotations

import argparse
import random
import warnings

import numpy as np
from tqdm import tqdm

from ir_rag_axioms import GenerationRequest, GenerationResponse, get

WORDS = ["cat", "dog", "sleep", "food", "park", "river", "city", "music", "night", "garden", "energy", "solar",
         "panel", "cost"]


def pools(count: int, seed: int, context: bool = True) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
    """Seeded random (request, responses) pools (4 context passages each, or none)."""
    rng = random.Random(seed)
    out = []
    for p in range(count):
        docs = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) for _ in range(6)]
        if p % 4 == 0:
            docs[5] = f"{docs[0]} {docs[0]}"
        terms = rng.sample(WORDS, rng.randint(1, 3))
        query = " ".join(terms)
        if len(terms) >= 2 and p % 3 == 0:
            query = f'"{terms[0]} {terms[1]}" {" ".join(terms[2:])}'.strip()
        passages = tuple(" ".join(rng.choice(WORDS) for _ in range(8)) for _ in range(4))
        out.append((GenerationRequest(f"q{p}", query, passages if context else None),
                    [GenerationResponse(f"d{i}", t) for i, t in enumerate(docs)]))
    return out


def main() -> None:
    """Print the agreement table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pairs", nargs="+")
    parser.add_argument("--pools", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-context", action="store_true", help="pools without context passages")
    args = parser.parse_args()
    data = pools(args.pools, args.seed, not args.no_context)
    names = sorted({n for pair in args.pairs for n in pair.split(":")})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        axioms = {n: get(n) for n in names}
    matrices: dict[str, list[np.ndarray]] = {n: [] for n in names}
    for request, responses in tqdm(data, desc="pools"):
        for n, axiom in axioms.items():
            matrices[n].append(np.sign(axiom.preferences(request, responses)))
    print(f"{args.pools} pools of 6, seed {args.seed}, {'no' if args.no_context else 4} context passages")
    print("| a | b | a decides | b decides | both decide | same sign | opposite sign |")
    print("|---|---|---|---|---|---|---|")
    for pair in args.pairs:
        a, b = pair.split(":")
        ma, mb = np.concatenate([m.ravel() for m in matrices[a]]), np.concatenate([m.ravel() for m in matrices[b]])
        both = (ma != 0) & (mb != 0)
        print(f"| {a} | {b} | {(ma != 0).sum()} | {(mb != 0).sum()} | {both.sum()} | {(both & (ma == mb)).sum()} "
              f"| {(both & (ma == -mb)).sum()} |")


if __name__ == "__main__":
    main()
