"""Named configurations: ``ICTIR2025`` reproduces the published experiments of Merker et al. (ICTIR 2025)."""

from __future__ import annotations

import re
from types import MappingProxyType

from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.axioms.clarity import CLAR1, CLAR2
from ir_rag_axioms.axioms.coherence import COH1, COH2
from ir_rag_axioms.axioms.consistency import CONS1, CONS2, CONS3
from ir_rag_axioms.axioms.correctness import CORR1
from ir_rag_axioms.axioms.coverage import COV1, COV2, COV3
from ir_rag_axioms.axioms.generative import GENERATIVE_AXIOMS, ICTIR2025_GENERATIVE
from ir_rag_axioms.axioms.naming import axiom_columns
from ir_rag_axioms.axioms.registry import parse, split_specs

_ICTIR2025_RAG: dict[str, Axiom] = {
    "COH1": COH1(margin_fraction=0.75),
    "COH2": COH2(margin_fraction=0.75),
    "COV1": COV1(aspect_extraction="entities", margin_fraction=0.5),
    "COV2": COV2(aspect_extraction="entities", margin_fraction=0.5),
    "COV3": COV3(aspect_extraction="entities", margin_fraction=0.5),
    "CONS1": CONS1(aspect_extraction="entities", margin_fraction=0.5),
    "CONS2": CONS2(margin_fraction=0.5),
    "CONS3": CONS3(margin_fraction=0.5),
    # The published runs prefer fewer citing sentences and lower readability (reference behaviour).
    "CORR1": CORR1(margin_fraction=0.75, higher_is_better=False),
    "CLAR1": CLAR1(margin_fraction=0.5),
    "CLAR2": CLAR2(margin_fraction=0.5, higher_is_better=False),
}

# The 14 GEN_ axioms of the study as published: the reference skipped LEN in GEN_TFC1, GEN_REG and GEN_aSL, and
# its GEN_STMC2 matrix is not antisymmetric and compares relative term frequencies with the length ratio (reference
# behaviour, like CORR1 and CLAR2 above).
_REFERENCE_MODE = {"GEN_TFC1": {"reference_preconditions": True}, "GEN_REG": {"reference_preconditions": True},
                   "GEN_aSL": {"reference_preconditions": True},
                   "GEN_STMC2": {"reference_asymmetry": True, "reference_relative_tf": True}}
_ICTIR2025_GEN: dict[str, Axiom] = {
    name: GENERATIVE_AXIOMS[name](**_REFERENCE_MODE.get(name, {})) for name in ICTIR2025_GENERATIVE
}

ICTIR2025 = MappingProxyType({**_ICTIR2025_RAG, **_ICTIR2025_GEN})
"""Paper name -> configured axiom, as in the ICTIR 2025 experiments (entities as aspects, the paper's margins)."""


def ictir2025(include_clar1: bool = True) -> dict[str, Axiom]:
    """A mutable copy of ``ICTIR2025``; without CLAR1 when no LanguageTool is available."""
    return {name: axiom for name, axiom in ICTIR2025.items() if include_clar1 or name != "CLAR1"}


PRESETS: tuple[str, ...] = ("ictir2025", "ictir")
"""Names of ``ICTIR2025`` in a list of axiom specs (any case)."""


def parse_axioms(text: str) -> dict[str, Axiom]:
    """Named axioms from comma-separated items (paths allowed: the specs are the user's own).

    Items: ``ictir2025`` (every axiom of the preset under its paper name), ``NAME=SPEC``, or a spec for
    ``registry.parse`` named as in the transformers' columns (the canonical repr without an empty ``()``).
    ValueError for a name given twice or a list without an axiom.
    """
    axioms: dict[str, Axiom] = {}

    def add(name: str, axiom: Axiom) -> None:
        if name in axioms:
            raise ValueError(f"duplicate axiom name {name!r} in the axiom list; give each axiom its own name "
                             "(NAME=SPEC)")
        axioms[name] = axiom

    for item in split_specs(text):
        if item.lower() in PRESETS:
            for name, axiom in ICTIR2025.items():
                add(name, axiom)
            continue
        named = re.match(r"^\s*([\w.-]+)\s*=(?!=)(.+)$", item)
        if named:
            add(named.group(1), parse(named.group(2), allow_paths=True))
        else:
            axiom = parse(item, allow_paths=True)
            add(axiom_columns([axiom])[0], axiom)
    if not axioms:
        raise ValueError(f"axiom list {text!r} names no axiom; e.g. 'ictir2025' or 'COH1,CORR1'")
    return axioms
