"""The CrowdRAG-25 corpus and TREC RAG 2024 nugget assignments: file loaders and ir_datasets registration.

Importing this package registers ``ir-rag-axioms/crowdrag-25`` and ``ir-rag-axioms/trec-rag-2024-nuggets``
(files from ``$IR_RAG_AXIOMS_DATA`` or downloaded on first use); ``register_crowd(path)`` points them at a folder.
"""

from ir_rag_axioms.datasets.files import ENV_VAR, DataFileError
from ir_rag_axioms.datasets.loaders import (
    DIMENSIONS,
    load_crowd_ratings,
    load_crowd_responses,
    load_crowd_topics,
    load_llm_ratings,
    load_nugget_assignments,
    nugget_score,
)
from ir_rag_axioms.datasets.irds import (
    CROWD_NAME,
    NUGGETS_NAME,
    CrowdDocPair,
    CrowdQuery,
    CrowdResponse,
    NuggetAnswer,
    NuggetQrel,
    NuggetQuery,
    register_crowd,
    register_nuggets,
)
from ir_rag_axioms.datasets import irds as _irds

_irds._register_defaults()

__all__ = [
    "CROWD_NAME", "DIMENSIONS", "ENV_VAR", "NUGGETS_NAME", "CrowdDocPair", "CrowdQuery", "CrowdResponse",
    "DataFileError", "NuggetAnswer", "NuggetQrel", "NuggetQuery", "load_crowd_ratings", "load_crowd_responses",
    "load_crowd_topics", "load_llm_ratings", "load_nugget_assignments", "nugget_score", "register_crowd",
    "register_nuggets",
]
