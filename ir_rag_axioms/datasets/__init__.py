"""The CrowdRAG-25 corpus, TREC RAG 2024 nugget assignments and LLM ratings.

File loaders and (request, responses) items.

Importing this package reads nothing and does not import ir_datasets. ``register()`` (or importing
``ir_rag_axioms.datasets.irds``) registers ``ir-rag-axioms/crowdrag-25`` and ``ir-rag-axioms/trec-rag-2024-nuggets``
with ir_datasets (files from ``$IR_RAG_AXIOMS_DATA`` or downloaded on first use); ``register_crowd(path)`` and
``register_nuggets(path)`` point them at a folder.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from ir_rag_axioms.datasets import crowd, llm, nuggets
from ir_rag_axioms.datasets.crowd import (
    DIMENSIONS,
    load_crowd_ratings,
    load_crowd_responses,
    load_crowd_topics,
    topic_passages,
)
from ir_rag_axioms.datasets.files import ENV_VAR, DataFileError, read_jsonl
from ir_rag_axioms.datasets.llm import load_llm_ratings
from ir_rag_axioms.datasets.nuggets import load_nugget_assignments, nugget_score
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

_IRDS = ("CROWD_NAME", "NUGGETS_NAME", "NUGGET_QRELS", "CrowdDocPair", "CrowdQuery", "CrowdResponse", "NuggetAnswer",
         "NuggetQrel", "NuggetQuery", "register_crowd", "register_nuggets")
"""Names served from ``irds`` (imported, and the default datasets registered, on first access)."""


def register() -> None:
    """Register the default datasets with ir_datasets.

    They are ``irds:ir-rag-axioms/crowdrag-25`` and ``.../trec-rag-2024-nuggets``.
    """
    importlib.import_module("ir_rag_axioms.datasets.irds")._register_defaults()


def judged_items(
    oracle: Any, data: str | os.PathLike | None = None, responses: str | os.PathLike | None = None
) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
    """The (request, responses) items an oracle judges, from ``data``: ``oracle.judged_items(data, responses)``.

    Crowd or LLM responses on its judged topics, nugget answers; each oracle knows its own items.
    """
    if not callable(getattr(oracle, "judged_items", None)):
        raise TypeError(f"{oracle!r} is not an oracle (CrowdOracle, NuggetOracle or LlmRatingOracle): it cannot list "
                        "the items it judges")
    return oracle.judged_items(data, responses)


def __getattr__(name: str) -> Any:
    if name in _IRDS:
        return getattr(importlib.import_module("ir_rag_axioms.datasets.irds"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    *_IRDS, "DIMENSIONS", "ENV_VAR", "DataFileError", "crowd", "judged_items", "llm", "load_crowd_ratings",
    "load_crowd_responses", "load_crowd_topics", "load_llm_ratings", "load_nugget_assignments", "nugget_score",
    "nuggets", "read_jsonl", "register", "topic_passages",
]
