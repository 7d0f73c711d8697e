"""LLM ratings of the crowd responses (probability that a response is good) as a frame, rating lookups and items."""

from __future__ import annotations

import os

import pandas as pd

from ir_rag_axioms.datasets.crowd import aliases
from ir_rag_axioms.datasets.files import check_frame, llm_ratings_file, load_frame
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

LLM_FIELDS = ("topic", "response", "probability")
DEFAULT_MODEL = "Qwen-Qwen2.5-0.5B-Instruct"
"""The model whose ratings are read by default."""


def _with_numbers(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(probability=pd.to_numeric(frame["probability"], errors="coerce"))


def check_llm_rating(row: dict) -> str | None:
    """What is wrong with one LLM rating record (None if nothing): the probability must be a number in [0, 1]."""
    value = row["probability"]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        return f"probability must be a number in [0, 1], got {value!r}"
    return None


LLM_UNIQUE = ("topic", "response")
"""A response is rated once per topic (the ratings are keyed by them)."""


def check_llm_ratings(ratings: pd.DataFrame, what: str = "the LLM ratings frame") -> None:
    """The ratings file's checks on an in-memory ratings frame.

    Its columns, ``check_llm_rating`` on each row, no (topic, response) twice; DataFileError naming ``what``, the
    column and the row.
    """
    check_frame(ratings, what, LLM_FIELDS, check_llm_rating, LLM_UNIQUE)


def load_llm_ratings(model: str = DEFAULT_MODEL, path: str | os.PathLike | None = None) -> pd.DataFrame:
    """An LLM's ratings (``topic``, ``response``, ``probability`` that the response is good) of the crowd responses.

    Each record is checked (``check_llm_rating``, no (topic, response) twice); a bad one raises DataFileError
    naming the file and line.
    """
    return load_frame(llm_ratings_file(model), path, LLM_FIELDS, "ratings", _with_numbers, check_llm_rating,
                      unique=LLM_UNIQUE)


def rating_scores(ratings: pd.DataFrame, responses: pd.DataFrame | None = None) -> dict[tuple[str, str], float]:
    """(topic, response id) -> probability.

    Plus (topic, kind-style name) for rated responses if ``responses`` are given.
    """
    rows = zip(ratings["topic"], ratings["response"], ratings["probability"], strict=True)
    scores = {(str(t), str(r)): float(p) for t, r, p in rows}
    for (topic, name), rid in (aliases(responses) if responses is not None else {}).items():
        if (topic, rid) in scores:
            scores[(topic, name)] = scores[(topic, rid)]
    return scores


def items(ratings: pd.DataFrame) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
    """(request without context, the rated responses; id = response id) per topic, from the LLM ratings file."""
    return [
        (GenerationRequest(str(topic), group.iloc[0]["query"]),
         [GenerationResponse(str(r), t) for r, t in zip(group["response"], group["raw_text"], strict=True)])
        for topic, group in ratings.groupby("topic", sort=False)
    ]
