"""``ir_axioms.utils.libraries``: whether an optional library can be imported."""

from __future__ import annotations

import importlib.util


def _installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def is_pyterrier_installed() -> bool:
    """Whether PyTerrier (``pyterrier``) is installed."""
    return _installed("pyterrier")


def is_pyserini_installed() -> bool:
    """Whether Pyserini is installed."""
    return _installed("pyserini")


def is_ir_datasets_installed() -> bool:
    """Whether ir_datasets is installed."""
    return _installed("ir_datasets")


def is_sentence_transformers_installed() -> bool:
    """Whether sentence-transformers is installed."""
    return _installed("sentence_transformers")


def is_keybert_installed() -> bool:
    """Whether KeyBERT is installed."""
    return _installed("keybert")


__all__ = ["is_ir_datasets_installed", "is_keybert_installed", "is_pyserini_installed", "is_pyterrier_installed",
           "is_sentence_transformers_installed"]
