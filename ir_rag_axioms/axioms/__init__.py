"""The axioms: importing this package imports every dimension module, which registers its axioms.

The metric axioms (``FAITHFULNESS``, ``ANSWER_RELEVANCY``, ``CONTEXT_RECALL``, ``CONS6``, ``LLM_PAIRWISE``) sit above,
in ``ir_rag_axioms.metrics``, and register when it is imported: ``import ir_rag_axioms`` (any import of the package)
imports it, so ``get("FAITHFULNESS")`` finds them.
"""

from ir_rag_axioms.axioms import (  # noqa: F401  (imported to register their axioms)
    citations,
    clarity,
    coherence,
    consensus,
    consistency,
    correctness,
    coverage,
    discourse,
    facets,
    generative,
    grounding,
    learned,
    oracles,
    retrieval,
    style,
    utility,
)
from ir_rag_axioms.axioms.registry import REGISTRY, get, names, parse, register

__all__ = ["REGISTRY", "get", "names", "parse", "register"]
