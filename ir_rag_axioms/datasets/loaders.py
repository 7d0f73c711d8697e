"""Loaders of the CrowdRAG-25, TREC RAG 2024 nugget and LLM rating files as pandas frames (clear errors on bad files)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ir_rag_axioms.datasets.files import (
    CROWD_RATINGS,
    CROWD_RESPONSES,
    CROWD_TOPICS,
    NUGGET_ASSIGNMENTS,
    DataFileError,
    llm_ratings_file,
    read_jsonl,
    resolve,
)

PathLike = str | os.PathLike

DIMENSIONS = (
    "quality_overall", "coherence_logical", "coherence_stylistic", "consistency_internal",
    "correctness_topical", "coverage_broad", "coverage_deep",
)
"""The crowd's utility dimensions, as named in the ratings file."""

RESPONSE_FIELDS = ("response", "topic", "query", "kind", "style", "raw_text", "references_texts")
RATING_FIELDS = ("query_id", "response_a", "response_b", "quality_overall_p_a", "quality_overall_p_b")
NUGGET_FIELDS = ("qid", "query", "run_id", "answer_text", "nuggets")
LLM_FIELDS = ("topic", "response", "probability")

ASSIGNMENT_VALUE = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
"""Credit of a nugget assignment (strict scoring gives partial support 0)."""
IMPORTANCE_WEIGHT = {"vital": 1.0, "okay": 0.5}
"""Nugget weights of the weighted score."""


def _stamp(file: Path) -> tuple[str, int, int]:
    """Cache key of a file: path, modification time and size (a replaced file is read again)."""
    stat = file.stat()
    return str(file), stat.st_mtime_ns, stat.st_size


def load_crowd_responses(path: PathLike | None = None) -> pd.DataFrame:
    """The 1,806 crowd responses (one row each) plus ``name`` = kind-style; ``path``: the file or its folder."""
    file = resolve(CROWD_RESPONSES, path)
    return _crowd_responses(*_stamp(file)).copy()


@lru_cache(maxsize=4)
def _crowd_responses(file: str, mtime: int = 0, size: int = 0) -> pd.DataFrame:
    frame = pd.DataFrame(list(read_jsonl(Path(file), CROWD_RESPONSES, RESPONSE_FIELDS)))
    if frame.empty:
        raise DataFileError(f"{CROWD_RESPONSES.key}: {file} holds no responses")
    frame["name"] = frame["kind"] + "-" + frame["style"]
    return frame


def load_crowd_ratings(path: PathLike | None = None) -> pd.DataFrame:
    """The 1,352 pairwise crowd judgments in file order, ``<dim>_p_a/_p_n/_p_b`` per dimension (missing p_n is NaN)."""
    file = resolve(CROWD_RATINGS, path)
    return _crowd_ratings(*_stamp(file)).copy()


@lru_cache(maxsize=4)
def _crowd_ratings(file: str, mtime: int = 0, size: int = 0) -> pd.DataFrame:
    frame = pd.DataFrame(list(read_jsonl(Path(file), CROWD_RATINGS, RATING_FIELDS)))
    if frame.empty:
        raise DataFileError(f"{CROWD_RATINGS.key}: {file} holds no judgments")
    for dim in DIMENSIONS:
        for suffix in ("p_a", "p_n", "p_b"):
            column = f"{dim}_{suffix}"
            frame[column] = pd.to_numeric(frame[column], errors="coerce") if column in frame else np.nan
    return frame


def load_crowd_topics(path: PathLike | None = None) -> pd.DataFrame:
    """The 301 topics (``qid``, ``query``) of ``topics.rag24.test.txt``."""
    file = resolve(CROWD_TOPICS, path)
    rows = []
    try:
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                qid, sep, query = line.partition("\t")
                if not sep:
                    raise DataFileError(f"{CROWD_TOPICS.key}: {file} line {number} is not 'qid<TAB>query'")
                rows.append((qid.strip(), query.strip()))
    except UnicodeDecodeError as error:
        raise DataFileError(f"{CROWD_TOPICS.key}: {file} is corrupt ({error})") from error
    return pd.DataFrame(rows, columns=["qid", "query"])


def load_nugget_assignments(path: PathLike | None = None) -> pd.DataFrame:
    """The nugget assignments, one row per (qid, run_id) answer, with the scores of :func:`nugget_scores`."""
    file = resolve(NUGGET_ASSIGNMENTS, path)
    return _nugget_assignments(*_stamp(file)).copy()


@lru_cache(maxsize=4)
def _nugget_assignments(file: str, mtime: int = 0, size: int = 0) -> pd.DataFrame:
    frame = pd.DataFrame(list(read_jsonl(Path(file), NUGGET_ASSIGNMENTS, NUGGET_FIELDS)))
    if frame.empty:
        raise DataFileError(f"{NUGGET_ASSIGNMENTS.key}: {file} holds no answers")
    frame["qid"] = frame["qid"].astype(str)
    for score_type in ("all", "vital", "weighted"):
        for strict in (False, True):
            column = f"{score_type}_strict" if strict else score_type
            frame[column] = [nugget_score(n, score_type, strict) for n in frame["nuggets"]]
    return frame


def nugget_score(nuggets: list[dict], score_type: str = "vital", strict: bool = False) -> float:
    """sum(w_k * s_k) / sum(w_k): s = 1 support, 0.5 partial (0 if strict), 0 otherwise; w = 1 (all), vital-only, or vital 1 / okay 0.5 (weighted)."""
    if score_type not in ("all", "vital", "weighted"):
        raise ValueError(f"score_type must be 'all', 'vital' or 'weighted', got {score_type!r}")
    total = weight_sum = 0.0
    for nugget in nuggets:
        importance = nugget.get("importance", "okay")
        if score_type == "all":
            weight = 1.0
        elif score_type == "vital":
            weight = 1.0 if importance == "vital" else 0.0
        else:
            weight = IMPORTANCE_WEIGHT.get(importance, 0.5)
        value = ASSIGNMENT_VALUE.get(nugget.get("assignment", "not_support"), 0.0)
        if strict and value < 1.0:
            value = 0.0
        total += weight * value
        weight_sum += weight
    return total / weight_sum if weight_sum > 0 else float("nan")


def load_llm_ratings(model: str = "Qwen-Qwen2.5-0.5B-Instruct", path: PathLike | None = None) -> pd.DataFrame:
    """An LLM's ratings (``topic``, ``response``, ``probability`` that the response is good) of the crowd responses."""
    spec = llm_ratings_file(model)
    file = resolve(spec, path)
    frame = pd.DataFrame(list(read_jsonl(file, spec, LLM_FIELDS)))
    if frame.empty:
        raise DataFileError(f"{spec.key}: {file} holds no ratings")
    frame["probability"] = pd.to_numeric(frame["probability"], errors="coerce")
    return frame
