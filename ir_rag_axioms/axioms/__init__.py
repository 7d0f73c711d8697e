"""The axioms: importing this package imports every dimension module, which registers its axioms."""

from ir_rag_axioms.axioms import (  # noqa: F401  (imported to register their axioms)  # noqa: F401  (axioms beyond the paper, registered after the published ones)
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
from ir_rag_axioms.metrics import axioms as _metric_axioms  # noqa: F401  (registers the metric axioms)
from ir_rag_axioms.metrics import pairwise as _pairwise_axioms  # noqa: F401  (registers LLM_PAIRWISE)

__all__ = ["REGISTRY", "get", "names", "parse", "register"]
