"""The file loaders under their earlier module name: see ``crowd``, ``nuggets`` and ``llm`` in this package."""

from ir_rag_axioms.datasets.crowd import (
    DIMENSIONS,
    RATING_FIELDS,
    RESPONSE_FIELDS,
    load_crowd_ratings,
    load_crowd_responses,
    load_crowd_topics,
)
from ir_rag_axioms.datasets.files import DataFileError, read_jsonl
from ir_rag_axioms.datasets.llm import LLM_FIELDS, load_llm_ratings
from ir_rag_axioms.datasets.nuggets import (
    ASSIGNMENT_VALUE,
    IMPORTANCE_WEIGHT,
    NUGGET_FIELDS,
    load_nugget_assignments,
    nugget_score,
)

__all__ = [
    "ASSIGNMENT_VALUE", "DIMENSIONS", "IMPORTANCE_WEIGHT", "LLM_FIELDS", "NUGGET_FIELDS", "RATING_FIELDS",
    "RESPONSE_FIELDS", "DataFileError", "load_crowd_ratings", "load_crowd_responses", "load_crowd_topics",
    "load_llm_ratings", "load_nugget_assignments", "nugget_score", "read_jsonl",
]
