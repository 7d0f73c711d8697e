"""CrowdRAG-25: the crowd responses, pairwise judgments and topics.

As frames, judgment tables and (request, responses) items.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.datasets.files import (
    CROWD_RATINGS,
    CROWD_RESPONSES,
    CROWD_TOPICS,
    DataFileError,
    check_frame,
    load_frame,
    resolve,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

PathLike = str | os.PathLike

DIMENSIONS = (
    "quality_overall", "coherence_logical", "coherence_stylistic", "consistency_internal",
    "correctness_topical", "coverage_broad", "coverage_deep",
)
"""The crowd's utility dimensions, as named in the ratings file."""

RESPONSE_FIELDS = ("response", "topic", "query", "kind", "style", "raw_text", "references_texts")
RATING_FIELDS = ("query_id", "response_a", "response_b", "quality_overall_p_a", "quality_overall_p_b")

UTILITIES: Mapping[str, tuple[str, ...]] = {
    "overall": ("quality_overall",),
    "logical coherence": ("coherence_logical",),
    "stylistic coherence": ("coherence_stylistic",),
    "coherence": ("coherence_logical", "coherence_stylistic"),
    "internal consistency": ("consistency_internal",),
    "consistency": ("consistency_internal",),
    "topical correctness": ("correctness_topical",),
    "correctness": ("correctness_topical",),
    "broad coverage": ("coverage_broad",),
    "deep coverage": ("coverage_deep",),
    "coverage": ("coverage_broad", "coverage_deep"),
}
"""Crowd utility dimension -> the ratings-file dimensions whose probabilities are averaged."""

_UTILITY_ALIASES = {dims[0]: name for name, dims in UTILITIES.items() if len(dims) == 1}

Table = dict[tuple[str, str, str], tuple[float, float]]
"""(topic, response a, response b) -> (P(a better), P(b better)), both orders."""


def utility_columns(utility: str) -> tuple[str, ...]:
    """The ratings dimensions of a utility name (``"overall"``, ``"broad coverage"``, ``"coverage_broad"``, ...)."""
    key = utility.strip().lower().replace("-", " ")
    key = _UTILITY_ALIASES.get(key.replace(" ", "_"), key)
    if key not in UTILITIES:
        raise ValueError(f"unknown crowd utility {utility!r}; choose one of {sorted(UTILITIES)}")
    return UTILITIES[key]


# -- files ---------------------------------------------------------------------------------------------
def response_names(responses: pd.DataFrame) -> pd.Series:
    """Each response's kind-style name (``human-bullet``, ...): the ``name`` column, else ``kind`` + "-" + ``style``."""
    return responses["name"] if "name" in responses else responses["kind"] + "-" + responses["style"]


def aliases(responses: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(topic, kind-style name) -> response id, so that a topic's responses can be named by kind and style."""
    topics, rids = responses["topic"].astype(str), responses["response"].astype(str)
    return {(topic, str(name)): rid for topic, name, rid in zip(topics, response_names(responses), rids, strict=True)}


def _with_names(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(name=response_names(frame))


def _with_probabilities(frame: pd.DataFrame) -> pd.DataFrame:
    columns = {f"{dim}_{suffix}": pd.to_numeric(frame[f"{dim}_{suffix}"], errors="coerce")
               if f"{dim}_{suffix}" in frame else np.nan for dim in DIMENSIONS for suffix in ("p_a", "p_n", "p_b")}
    return frame.assign(**columns)


def check_response(row: dict) -> str | None:
    """What is wrong with one responses record (None if nothing): strings, and a list of passage strings as context."""
    for name in ("response", "topic", "query", "kind", "style", "raw_text"):
        if (name != "raw_text" or row[name] is not None) and (not isinstance(row[name], (str, int))
                                                             or isinstance(row[name], bool)):
            return f"{name} must be a string, got {type(row[name]).__name__} {row[name]!r:.40}"
    passages = row["references_texts"]
    if passages is not None and (not isinstance(passages, list) or not all(isinstance(p, str) for p in passages)):
        return f"references_texts must be a list of passage strings, got {passages!r:.60}"
    return None


def load_crowd_responses(path: PathLike | None = None) -> pd.DataFrame:
    """The 1,806 crowd responses (one row each) plus ``name`` = kind-style; ``path``: the file or its folder.

    Each record is checked (``check_response``); a bad one raises DataFileError naming the file and line.
    """
    return load_frame(CROWD_RESPONSES, path, RESPONSE_FIELDS, "responses", _with_names, check_response,
                      unique=("response",))


def topic_passages(path: PathLike | None = None) -> dict[str, tuple[str, ...]]:
    """Topic -> the passages retrieved for it (the same 20 for each of its responses); ``path`` as for the responses."""
    first = load_crowd_responses(path).groupby("topic", sort=False)["references_texts"].first()
    return {str(topic): tuple(texts) for topic, texts in first.items()}


def check_rating(row: dict) -> str | None:
    """What is wrong with one ratings record (None if nothing): a self-pair, or a probability outside [0, 1]."""
    if str(row["response_a"]) == str(row["response_b"]):
        return f"response_a and response_b are the same response {row['response_a']!r} (a self-pair)"
    for name, value in row.items():
        if name.endswith(("_p_a", "_p_n", "_p_b")) and value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                return f"{name} must be a probability in [0, 1] (or null), got {value!r}"
    return None


def check_ratings(ratings: pd.DataFrame, what: str = "the ratings frame") -> None:
    """The ratings file's checks on an in-memory ratings frame: its id columns, then ``check_rating`` on each row.

    DataFileError naming ``what``, the column and the row (a self-pair, a probability outside [0, 1]).
    """
    check_frame(ratings, what, ("query_id", "response_a", "response_b"), check_rating)


def load_crowd_ratings(path: PathLike | None = None) -> pd.DataFrame:
    """The 1,352 pairwise crowd judgments in file order, ``<dim>_p_a/_p_n/_p_b`` per dimension (missing p_n is NaN).

    Each record is checked (``check_rating``); a bad one raises DataFileError naming the file and line.
    """
    return load_frame(CROWD_RATINGS, path, RATING_FIELDS, "judgments", _with_probabilities, check_rating)


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


# -- judgments -----------------------------------------------------------------------------------------
def judgment_rows(ratings: pd.DataFrame, utility: str = "overall") -> Iterator[tuple[str, str, str, float, float]]:
    """Each judgment as (topic, a, b, P(a better), P(b better)) with a <= b, averaged over the utility's dimensions."""
    columns = utility_columns(utility)
    for c in columns:
        if f"{c}_p_a" not in ratings or f"{c}_p_b" not in ratings:
            raise ValueError(f"the ratings frame lacks {c}_p_a / {c}_p_b for utility {utility!r}")
    p_a = np.mean([ratings[f"{c}_p_a"].to_numpy(float) for c in columns], axis=0)
    p_b = np.mean([ratings[f"{c}_p_b"].to_numpy(float) for c in columns], axis=0)
    for topic, a, b, pa, pb in zip(ratings["query_id"].astype(str), ratings["response_a"].astype(str),
                                   ratings["response_b"].astype(str), p_a, p_b, strict=True):
        yield (topic, a, b, float(pa), float(pb)) if a <= b else (topic, b, a, float(pb), float(pa))


def judgment_table(ratings: pd.DataFrame, utility: str = "overall", duplicates: str = "mean") -> Table:
    """(topic, a, b) -> (P(a better), P(b better)), averaged over the utility's dimensions.

    Repeated judgments are averaged (``"mean"``) or taken from the later row (``"last"``).
    """
    sums: dict[tuple[str, str, str], list[float]] = {}
    for topic, a, b, pa, pb in judgment_rows(ratings, utility):
        entry = sums.setdefault((topic, a, b), [0.0, 0.0, 0])
        if duplicates == "last":
            entry[:] = [pa, pb, 1]
        else:
            entry[0], entry[1], entry[2] = entry[0] + pa, entry[1] + pb, entry[2] + 1
    table: Table = {}
    for (topic, a, b), (sa, sb, n) in sums.items():
        table[(topic, a, b)] = (sa / n, sb / n)
        table[(topic, b, a)] = (sb / n, sa / n)
    return table


class CrowdJudgments:
    """Crowd pairwise judgments keyed by (topic, response id A, response id B).

    Plus (topic, kind-style name) -> id aliases. The ratings are checked as the ratings file is (``check_ratings``:
    DataFileError naming ``what``, the column and the row).
    """

    def __init__(self, ratings: pd.DataFrame, responses: pd.DataFrame | None = None, *,
                 what: str = "the ratings frame"):
        check_ratings(ratings, what)
        self.ratings = ratings.reset_index(drop=True)
        self.aliases: dict[tuple[str, str], str] = aliases(responses) if responses is not None else {}
        if responses is not None:
            _check_known(self.ratings, responses, self.aliases)
        self._tables: dict[tuple[tuple[str, ...], str], Table] = {}

    @property
    def topics(self) -> set[str]:
        """Topics with at least one judgment."""
        return set(self.ratings["query_id"].astype(str))

    def table(self, utility: str, duplicates: str = "mean") -> Table:
        """The ``judgment_table`` of this utility and duplicate rule (computed once)."""
        key = (utility_columns(utility), duplicates)
        if key not in self._tables:
            self._tables[key] = judgment_table(self.ratings, utility, duplicates)
        return self._tables[key]

    def canonical(self, topic: str, response_id: str) -> str:
        """The response id behind a kind-style name of this topic (else the id itself)."""
        return self.aliases.get((topic, response_id), response_id)


def _check_known(ratings: pd.DataFrame, responses: pd.DataFrame, names: dict[tuple[str, str], str]) -> None:
    """Refuse judgments of responses that the responses file does not hold for that topic (by id or name)."""
    known = set(zip(responses["topic"].astype(str), responses["response"].astype(str), strict=True)) | set(names)
    topics = ratings["query_id"].astype(str)
    unknown = sorted({(t, r) for column in ("response_a", "response_b")
                      for t, r in zip(topics, ratings[column].astype(str), strict=True) if (t, r) not in known})
    if unknown:
        raise DataFileError(f"{len(unknown)} judged (topic, response) pair(s) are not in the responses file, e.g. "
                            f"{unknown[:5]}; are the ratings and responses files from the same release?")


def read_judgments(
    ratings: PathLike | None = None, responses: PathLike | None = None, data_dir: PathLike | None = None
) -> CrowdJudgments:
    """The judgments of the ratings file (``ratings`` or in ``data_dir``).

    With aliases from the responses file if found.
    """
    ratings_frame = load_crowd_ratings(ratings or data_dir)
    try:
        responses_frame = load_crowd_responses(responses or data_dir)
    except DataFileError:
        if responses is not None:
            raise
        responses_frame = None  # ids only: no kind-style aliases
    return CrowdJudgments(ratings_frame, responses_frame)


# -- items ---------------------------------------------------------------------------------------------
def _own(request: GenerationRequest, passages: Any) -> Any:
    """A response's passages when they differ from its request's (each answer judged against its own context)."""
    own = GenerationResponse("-", "", context=passages).context
    return None if own == request.context else own


def items(
    responses: pd.DataFrame, topics: set[str] | None = None,
) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
    """One (request, responses) item per topic, in file order.

    The request with the 20 context passages, responses sorted by kind-style name; id = response id.
    """
    out = []
    for topic, group in responses.groupby("topic", sort=False):
        if topics is not None and str(topic) not in topics:
            continue
        group = group.sort_values("name", kind="stable")
        first = group.iloc[0]
        request = GenerationRequest(str(topic), first["query"], first["references_texts"])
        pairs = zip(group["response"], group["raw_text"], group["references_texts"], strict=True)
        out.append((request, [GenerationResponse(str(r), t, context=_own(request, c)) for r, t, c in pairs]))
    return out
