"""Settings read from the environment, each parsed once with its variable's name in any error message."""

from __future__ import annotations

import os

MAX_TEXT_CHARS_ENV = "IR_RAG_AXIOMS_MAX_TEXT_CHARS"
"""Longest text (characters) that is analysed; longer ones abstain. Default 200,000."""
TORCH_THREADS_ENV = "IR_RAG_AXIOMS_TORCH_THREADS"
"""torch threads per process for the encoder (default 1; 0 keeps torch's own setting)."""
WORKERS_ENV = "IR_RAG_AXIOMS_WORKERS"
"""Default number of analysis worker processes (default: the cores not busy with other work)."""
CACHE_ENV = "IR_RAG_AXIOMS_CACHE"
"""Directory of the persistent analysis cache (unset: no persistent cache)."""


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """Integer environment variable ``name`` (``default`` when unset or blank); ValueError naming it otherwise."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"environment variable {name}={raw!r} is not a whole number") from None
    if value < minimum:
        raise ValueError(f"environment variable {name}={raw!r} must be at least {minimum}")
    return value


def positive_int(name: str, value: object) -> int:
    """``value`` as an int >= 1; TypeError/ValueError naming the parameter otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {type(value).__name__} {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value!r}")
    return value


def max_text_chars() -> int:
    """$IR_RAG_AXIOMS_MAX_TEXT_CHARS (default 200,000)."""
    return env_int(MAX_TEXT_CHARS_ENV, 200_000, minimum=1)


def torch_threads() -> int:
    """$IR_RAG_AXIOMS_TORCH_THREADS (default 1; 0: leave torch's setting)."""
    return env_int(TORCH_THREADS_ENV, 1, minimum=0)


def fingerprint() -> str:
    """The environment settings that change a result (text length limit, LanguageTool server), for cache keys."""
    from ir_rag_axioms.analysis.resources import LANGUAGETOOL_ENV

    return f"max_text_chars={max_text_chars()};languagetool={os.environ.get(LANGUAGETOOL_ENV, '')}"


def package_version() -> str:
    """The version of ir_rag_axioms (part of every persistent cache key)."""
    import ir_rag_axioms

    return str(ir_rag_axioms.__version__)
