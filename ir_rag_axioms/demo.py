"""The demo: every RAG axiom on a small sample shipped with the package, printed per request."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from importlib import resources

import numpy as np

from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.axioms.base import Axiom, Item, analyse
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


def load_demo() -> list[Item]:
    """The shipped sample: three requests with context and five responses each."""
    raw = json.loads(resources.files("ir_rag_axioms").joinpath("data/demo.json").read_text())
    return [
        (
            GenerationRequest(r["id"], r["text"], r["context"]),
            [GenerationResponse(x["id"], x["text"]) for x in r["responses"]],
        )
        for r in raw["requests"]
    ]


def rag_axioms() -> dict[str, Axiom]:
    """The eleven RAG axioms with default parameters; CLAR1 only if a LanguageTool server answers."""
    from ir_rag_axioms.axioms import REGISTRY
    from ir_rag_axioms.axioms.clarity import LanguageToolGrammarErrorProportionClarityAxiom

    names = ("COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR1", "CLAR2")
    axioms: dict[str, Axiom] = {name: REGISTRY[name] for name in names}
    clar1 = axioms["CLAR1"]
    assert isinstance(clar1, LanguageToolGrammarErrorProportionClarityAxiom)
    try:
        clar1._tool()
    except ToolUnavailableError:
        print("[CLAR1 skipped: no LanguageTool server is reachable. Set IR_RAG_AXIOMS_LANGUAGETOOL to a server URL; "
              "see docs/getting-started.md, 'CLAR1 and LanguageTool'.]\n")
        del axioms["CLAR1"]
    return axioms


def main(argv: Sequence[str] | None = None) -> int:
    """Print each axiom's net wins per response and the responses ordered by summed net wins (Borda)."""
    parser = argparse.ArgumentParser(prog="ir-rag-axioms demo", description=main.__doc__)
    parser.add_argument("--matrices", action="store_true", help="also print every preference matrix")
    parser.add_argument("--explain", default="COV1,CONS2", metavar="AXIOMS",
                        help="comma-separated axioms whose decision on each request's first- vs last-ranked response "
                        "is explained (default COV1,CONS2; 'all': every axiom; 'none': no explanations)")
    args = parser.parse_args(argv)

    items = load_demo()
    axioms = rag_axioms()
    analyse(axioms.values(), items)  # one spaCy pass and one embedding pass for all axioms
    matrices = {name: axiom.preferences_batch(items) for name, axiom in axioms.items()}
    for k, (request, responses) in enumerate(items):
        ids = [r.id for r in responses]
        width = max(8, *(len(i) for i in ids))
        print(f"Request {request.id}: {request.text}  ({len(request.context or ())} context passages)")
        print("  net wins per axiom (wins minus losses against the other responses):")
        print("  " + "axiom".ljust(7) + "".join(i.rjust(width + 1) for i in ids))
        total = np.zeros(len(responses))
        for name, per_request in matrices.items():
            wins = per_request[k].sum(axis=1)
            total += wins
            print("  " + name.ljust(7) + "".join(f"{w:+.0f}".rjust(width + 1) for w in wins))
            if args.matrices:
                for i, row in zip(ids, per_request[k], strict=True):
                    print("      " + i.ljust(width) + " ".join(f"{v:+.0f}" for v in row))
        print("  ranking by summed net wins (Borda):")
        order = np.argsort(-total, kind="stable")
        for place, i in enumerate(order, start=1):
            print(f"    {place}. {ids[i]:<{width}} {total[i]:+.0f}")
        explained = _explained(args.explain, axioms)
        if explained:
            print(f"  why {ids[order[0]]} beats {ids[order[-1]]}, axiom by axiom (axiom.explain):")
        for axiom in explained:
            why = axiom.explain(request, responses[order[0]], responses[order[-1]], responses=responses)
            print("\n".join("    " + line for line in str(why).splitlines()))
        print()
    return 0


def _explained(spec: str, axioms: dict[str, Axiom]) -> list[Axiom]:
    """The axioms named in ``--explain`` ('all', 'none' or comma-separated names of the demo's axioms)."""
    if spec.strip().lower() == "none":
        return []
    if spec.strip().lower() == "all":
        return list(axioms.values())
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in axioms]
    if unknown:
        raise SystemExit(f"ir-rag-axioms demo: --explain: unknown axiom(s) {unknown}; the demo runs {list(axioms)}")
    return [axioms[n] for n in names]


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
