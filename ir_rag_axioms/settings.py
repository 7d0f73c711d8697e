"""Settings read from the environment, each parsed once with its variable's name in any error message; packaged data."""

from __future__ import annotations

import json
import math
import os
from importlib import resources
from typing import Any

MAX_TEXT_CHARS_ENV = "IR_RAG_AXIOMS_MAX_TEXT_CHARS"
"""Longest text (characters) that is analysed; longer ones abstain. Default 200,000."""
TORCH_THREADS_ENV = "IR_RAG_AXIOMS_TORCH_THREADS"
"""torch threads per process for the encoder (default 1; 0 keeps torch's own setting)."""
WORKERS_ENV = "IR_RAG_AXIOMS_WORKERS"
"""Default number of analysis worker processes (default: the cores not busy with other work)."""
LANGUAGETOOL_ENV = "IR_RAG_AXIOMS_LANGUAGETOOL"
"""URL of a LanguageTool server (e.g. ``http://localhost:8081``)."""
LANGUAGETOOL_TIMEOUT_ENV = "IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT"
"""Seconds to wait for a LanguageTool reply (default 30; connecting waits at most 5 of them); 2 tries per check."""
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


def env_text(name: str) -> str | None:
    """Text (path, URL, address) environment variable ``name``, stripped; None when unset or blank."""
    return os.environ.get(name, "").strip() or None


def env_flag(name: str) -> bool:
    """Boolean environment variable ``name``: 1/true/yes/on or 0/false/no/off (unset or blank: False)."""
    raw = os.environ.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"environment variable {name}={raw!r} must be 1/true/yes/on or 0/false/no/off")


def env_float(name: str, default: float, minimum: float = 0.0) -> float:
    """Number environment variable ``name`` (``default`` when unset or blank); ValueError naming it otherwise."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"environment variable {name}={raw!r} is not a number") from None
    if not (math.isfinite(value) and value >= minimum):
        raise ValueError(f"environment variable {name}={raw!r} must be a finite number of at least {minimum}")
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


def torch_threads(default: int = 1) -> int:
    """$IR_RAG_AXIOMS_TORCH_THREADS (unset: ``default``; 0: leave torch's setting)."""
    return env_int(TORCH_THREADS_ENV, default, minimum=0)


def languagetool_url() -> str | None:
    """$IR_RAG_AXIOMS_LANGUAGETOOL (None when unset); ValueError naming it unless it is an http(s) URL."""
    raw = os.environ.get(LANGUAGETOOL_ENV, "").strip()
    if not raw:
        return None
    if not raw.lower().startswith(("http://", "https://")):
        raise ValueError(f"environment variable {LANGUAGETOOL_ENV}={raw!r} must be an http(s) URL, "
                         "e.g. http://localhost:8081")
    return raw


def languagetool_timeout() -> float:
    """$IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT in seconds (default 30)."""
    return env_float(LANGUAGETOOL_TIMEOUT_ENV, 30.0, minimum=0.1)


WORDNET_ENV = "IR_RAG_AXIOMS_WORDNET"
"""Directory of the WordNet database (default: nltk's data path, then the usual system folders)."""


def fingerprint() -> str:
    """The environment settings that change a result, for cache keys: text length limit, LanguageTool, WordNet.

    Each read now (a bad value is a ValueError naming its variable).
    """
    return (f"max_text_chars={max_text_chars()};languagetool={languagetool_url() or ''};"
            f"wordnet={env_text(WORDNET_ENV) or ''}")


def package_version() -> str:
    """The version of ir_rag_axioms (part of every persistent cache key)."""
    from ir_rag_axioms._version import __version__

    return __version__


ANALYSIS_MAX_TEXTS_ENV = "IR_RAG_AXIOMS_ANALYSIS_MAX_TEXTS"
"""Texts (and strings) an ``Analysis`` keeps in memory by default, least recently used dropped first (100,000)."""
ANALYSIS_MAX_MB_ENV = "IR_RAG_AXIOMS_ANALYSIS_MAX_MB"
"""Megabytes (estimated) of results an ``Analysis`` keeps in memory by default (128; 0: no bound)."""
DEVICE_ENV = "IR_RAG_AXIOMS_DEVICE"
"""Device of the sentence encoder: ``auto`` (default: CUDA when torch sees one, else CPU), ``cpu``, ``cuda[:N]``."""
PRECISION_ENV = "IR_RAG_AXIOMS_PRECISION"
"""Precision of the sentence encoder: ``float32`` (default), ``float16`` or ``bfloat16``."""
PRECISIONS = ("float32", "float16", "bfloat16")
"""Encoder precisions: float32, or a half-precision mode (its agreement with float32 is in the README)."""


def analysis_max_texts() -> int | None:
    """$IR_RAG_AXIOMS_ANALYSIS_MAX_TEXTS (default 100,000; 0: no bound)."""
    return env_int(ANALYSIS_MAX_TEXTS_ENV, 100_000, minimum=0) or None


def analysis_max_mb() -> float | None:
    """$IR_RAG_AXIOMS_ANALYSIS_MAX_MB (default 128; 0: no bound)."""
    return env_float(ANALYSIS_MAX_MB_ENV, 128.0, minimum=0.0) or None


def encoder_device(device: str | None = None) -> str:
    """``device`` else $IR_RAG_AXIOMS_DEVICE else ``auto``, checked: auto, cpu, cuda, cuda:N or mps."""
    raw = (device if device is not None else os.environ.get(DEVICE_ENV, "")).strip().lower() or "auto"
    name, _, index = raw.partition(":")
    if name not in ("auto", "cpu", "cuda", "mps") or (index and (name != "cuda" or not index.isdigit())):
        source = "device" if device is not None else f"environment variable {DEVICE_ENV}"
        raise ValueError(f"{source}={raw!r} must be auto, cpu, cuda, cuda:N or mps")
    return raw


def encoder_precision(precision: str | None = None) -> str:
    """``precision`` else $IR_RAG_AXIOMS_PRECISION else ``float32``, checked against ``PRECISIONS``."""
    raw = (precision if precision is not None else os.environ.get(PRECISION_ENV, "")).strip().lower() or "float32"
    if raw not in PRECISIONS:
        source = "precision" if precision is not None else f"environment variable {PRECISION_ENV}"
        raise ValueError(f"{source}={raw!r} must be one of {PRECISIONS}")
    return raw


LEADERBOARD_MODEL_FILE = "leaderboard-nugget.json"
"""The packaged ``default`` leaderboard model and the consensus nugget settings it reads (``ir_rag_axioms/data``)."""


def packaged_json(name: str) -> dict[str, Any]:
    """A JSON file packaged in ``ir_rag_axioms/data`` (a fitted model with its metadata), read as a dict."""
    return dict(json.loads(resources.files("ir_rag_axioms").joinpath("data", name).read_text(encoding="utf-8")))
