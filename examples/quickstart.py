"""Quickstart: one request, a few generated responses -> axiom preferences -> a ranking.

Run:  python examples/quickstart.py
Axioms: COH1, CONS2, CORR1, CLAR2 (Merker et al., ICTIR 2025); aggregation: Borda count and KwikSort.
Note how "The Moon." ranks high: COH1 and CLAR2 judge style (a single short sentence is perfectly uniform and
easy to read), CONS2 and CORR1 judge grounding in the context. Choose axioms by what they measure.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the sentence encoder is packaged; never ask the hub

import numpy as np

from ir_rag_axioms import CLAR2, COH1, CONS2, CORR1, GenerationRequest, GenerationResponse
from ir_rag_axioms.aggregation import borda, kwiksort, majority_vote

request = GenerationRequest(
    id="q1",
    text="What causes ocean tides?",
    context=(
        "Tides are caused mainly by the gravitational pull of the Moon on the Earth's oceans.",
        "The Sun also exerts a tidal force, about half as strong as the Moon's; when Sun and Moon align, "
        "spring tides with a larger range occur.",
    ),
)
responses = [
    GenerationResponse("cited", "Tides are caused mainly by the Moon's gravitational pull on the oceans [1]. "
                                "The Sun adds a weaker tidal force, and aligned Sun and Moon cause spring tides [2]."),
    GenerationResponse("uncited", "The Moon's gravity pulls on the oceans and creates tides. "
                                  "The Sun has a smaller effect."),
    GenerationResponse("off-topic", "The ocean covers about seventy percent of the planet and is home to whales."),
    GenerationResponse("terse", "The Moon."),
]
ids = [r.id for r in responses]

axioms = {"COH1": COH1, "CONS2": CONS2, "CORR1": CORR1, "CLAR2": CLAR2}
matrices = {name: axiom.preferences(request, responses) for name, axiom in axioms.items()}

print(f"Request: {request.text}")
print("Preferences (P[i, j] = +1: row i preferred over column j):")
for name, P in matrices.items():
    print(f"  {name}")
    print("    " + " " * 10 + "".join(f"{i:>11}" for i in ids))
    for i, row in zip(ids, P, strict=True):
        print(f"    {i:<10}" + "".join(f"{'+1' if v > 0 else '-1' if v < 0 else '0':>11}" for v in row))

stack = np.stack(list(matrices.values()))
scores = borda(stack)
print("Ranking by Borda count (summed net wins):")
for place, k in enumerate(np.argsort(-scores, kind="stable"), start=1):
    print(f"  {place}. {ids[k]:<10} {scores[k]:+.0f}")
print("Ranking by KwikSort on the majority vote:")
for place, k in enumerate(kwiksort(majority_vote(stack), pivot="middle"), start=1):
    print(f"  {place}. {ids[k]}")
