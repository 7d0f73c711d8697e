"""Per-text analysis computed once and memoised by content: spaCy parses, embeddings, ROUGE, readability."""

from ir_rag_axioms.analysis.cache import Analysis, default_analysis, is_analysable
from ir_rag_axioms.analysis.resources import (
    DEFAULT_SENTENCE_MODEL,
    DEFAULT_SPACY_MODEL,
    ToolUnavailableError,
    load_languagetool,
    load_sentence_encoder,
    load_spacy,
)
from ir_rag_axioms.analysis.store import DiskStore, default_store, namespace, text_key

__all__ = [
    "DEFAULT_SENTENCE_MODEL",
    "DEFAULT_SPACY_MODEL",
    "Analysis",
    "DiskStore",
    "ToolUnavailableError",
    "default_analysis",
    "default_store",
    "is_analysable",
    "load_languagetool",
    "load_sentence_encoder",
    "load_spacy",
    "namespace",
    "text_key",
]
