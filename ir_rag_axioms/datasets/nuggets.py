"""TREC RAG 2024 nugget assignments: the AutoNuggetizer score, the assignments as a frame, and (request, answers) items.

Nugget scores follow the TREC 2024 RAG AutoNuggetizer (Pradeep et al., 2024). With s_i = 1 for
``support``, 0.5 for ``partial_support`` (0 in the strict variants) and 0 for ``not_support``:

- ``all``:      A = sum_i s_i / #nuggets
- ``vital``:    V = sum_{i vital} s_i / #vital nuggets
- ``weighted``: W = sum_i w_i s_i / sum_i w_i with w_i = 1 for vital and 0.5 for okay nuggets

``strict=True`` gives A_strict, V_strict (the track's primary score) and W_strict. A score over no nugget (``vital``
for an answer whose topic has no vital nugget, any score without nuggets) is undefined: NaN. The registered
dataset then has no qrel for the answer, ``runs.nugget_qrels`` leaves it out too (unjudged: gain 0 in ir_measures),
and ``NuggetOracle`` abstains on it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, DataFileError, check_frame, load_frame
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

NUGGET_FIELDS = ("qid", "query", "run_id", "answer_text", "nuggets")
NUGGET_SCORES: tuple[str, ...] = ("all", "vital", "weighted")
"""The AutoNuggetizer scores ``nugget_score`` computes."""
ASSIGNMENT_VALUE = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
"""Credit of a nugget assignment (strict scoring gives partial support 0)."""
IMPORTANCE_WEIGHT = {"vital": 1.0, "okay": 0.5}
"""Nugget weights of the weighted score."""


def nugget_score(nuggets: Iterable[Mapping[str, str]], score_type: str = "vital", strict: bool = False) -> float:
    """sum(w_k * s_k) / sum(w_k) (formulas in the module docstring); NaN where no nugget counts."""
    if score_type not in NUGGET_SCORES:
        raise ValueError(f"unknown nugget score_type {score_type!r}; use one of {NUGGET_SCORES}")
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


def check_nugget_record(row: Mapping) -> str | None:
    """What is wrong with one assignments record (None if nothing): ``nuggets`` must be a list of nugget objects.

    Each with ``importance`` in IMPORTANCE_WEIGHT and ``assignment`` in ASSIGNMENT_VALUE (when given).
    """
    nuggets = row.get("nuggets")
    if not isinstance(nuggets, (list, tuple, np.ndarray)):  # JSON gives lists; an in-memory table may hold arrays
        return f"nuggets must be a list of nugget objects, got {type(nuggets).__name__} {nuggets!r:.60}"
    for k, nugget in enumerate(nuggets):
        if not isinstance(nugget, dict):
            return f"nuggets[{k}] must be an object, got {type(nugget).__name__}"
        for field, allowed in (("importance", IMPORTANCE_WEIGHT), ("assignment", ASSIGNMENT_VALUE)):
            if field in nugget and nugget[field] not in allowed:
                return f"nuggets[{k}].{field} is {nugget[field]!r}; expected one of {sorted(allowed)}"
    return None


GRADES = 4
"""Nugget scores become integer grades 0..GRADES (learning-to-rank and trec_eval need small integers)."""
GRADE_DEFINITIONS = {g: f"nugget score about {g / GRADES:.2f} (round({GRADES} x score) = {g})"
                     for g in range(GRADES + 1)}
"""What each grade means."""


def nugget_grade(score: float, grades: int = GRADES) -> int:
    """The qrel grade of a nugget score: round(grades x score), 0..grades."""
    return int(round(grades * float(score)))


def answer_docno(qid: object, run_id: object) -> str:
    """The one docno of a system's answer to a topic: ``<qid>/<run_id>`` (a run_id that already has it is kept)."""
    qid, run_id = str(qid), str(run_id)
    return run_id if run_id.startswith(f"{qid}/") else f"{qid}/{run_id}"


def score_column(score_type: str, strict: bool = False) -> str:
    """The column of ``load_nugget_assignments`` holding a score: ``vital``, ``vital_strict``, ..."""
    return f"{score_type}_strict" if strict else score_type


NUGGET_SPEC = "<all|vital|weighted>[-strict]"
"""The spelling of a nugget score in a spec (``nugget:vital-strict``); ``parse_nugget_score`` reads it."""


def parse_nugget_score(text: str, default: str = "vital") -> tuple[str, bool]:
    """(score_type, strict) of ``<all|vital|weighted>[-strict]`` (empty: ``default``); ``_strict`` is deprecated.

    ValueError naming the spelling for anything else.
    """
    score, strict = (text or default).strip().lower(), False
    if score.endswith("_strict"):  # the column name of load_nugget_assignments, once accepted in specs
        import warnings

        warnings.warn(f"nugget score {text!r}: write {score[:-7]}-strict ('_strict' is deprecated)",
                      DeprecationWarning, stacklevel=2)
        score = score[:-7] + "-strict"
    if score.endswith("-strict"):
        score, strict = score[:-7], True
    if score not in NUGGET_SCORES:
        raise ValueError(f"unknown nugget score {text!r}: use {NUGGET_SPEC}")
    return score, strict


def system_scores(assignments: pd.DataFrame, score_type: str = "vital", strict: bool = False) -> dict[str, float]:
    """run_id -> the system's mean score over its topics (NaN scores left out), from ``load_nugget_assignments``."""
    means = assignments.groupby("run_id")[score_column(score_type, strict)].mean()
    return {str(k): float(v) for k, v in means.items()}


def _with_scores(frame: pd.DataFrame) -> pd.DataFrame:
    scores = {score_column(s, strict): [nugget_score(n, s, strict) for n in frame["nuggets"]]
              for s in NUGGET_SCORES for strict in (False, True)}
    return frame.assign(qid=frame["qid"].astype(str), **scores)


NUGGET_UNIQUE = ("qid", "run_id")
"""One record per answer."""


def load_nugget_assignments(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """The nugget assignments, one row per (qid, run_id) answer.

    With a column per score (``all``, ..., ``weighted_strict``).
    """
    return load_frame(NUGGET_ASSIGNMENTS, path, NUGGET_FIELDS, "answers", _with_scores, check_nugget_record,
                      unique=NUGGET_UNIQUE)


def check_nugget_table(table: pd.DataFrame, what: str = "the nugget table") -> None:
    """The assignments file's checks on an in-memory table of assignments or scores.

    Assignments: ``qid``, ``run_id``, ``nuggets``; scores: ``qid``, ``run_id``, ``score`` (which ``answer_scores``
    prefers). ``check_nugget_record`` on each row's nuggets, no (qid, run_id) twice. DataFileError naming ``what``,
    the column and the row; a table with neither ``nuggets`` nor ``score`` is refused naming both.
    """
    columns = set(getattr(table, "columns", ()))
    if isinstance(table, pd.DataFrame) and not columns & {"nuggets", "score"}:
        raise DataFileError(f"{what} lacks the column 'nuggets' (assignments: qid, run_id, nuggets) or 'score' "
                            f"(scores: qid, run_id, score); found {sorted(map(str, columns))}")
    check = check_nugget_record if "nuggets" in columns else None
    check_frame(table, what, NUGGET_UNIQUE, check, NUGGET_UNIQUE)


def answer_scores(
    assignments: pd.DataFrame, score_type: str = "vital", strict: bool = False,
) -> dict[tuple[str, str], float]:
    """(qid, run_id) and (qid, ``<qid>/<run_id>``) -> score.

    The score is a ``score`` column if given, else the score of ``nuggets``.
    """
    values: pd.Series | list[float]
    if "score" in assignments:
        values = assignments["score"].astype(float)
    else:
        values = [nugget_score(n, score_type, strict) for n in assignments["nuggets"]]
    scores = {}
    qids, run_ids = assignments["qid"].astype(str), assignments["run_id"].astype(str)
    for qid, run_id, value in zip(qids, run_ids, values, strict=True):
        run_id = run_id.removeprefix(f"{qid}/")
        scores[(qid, run_id)] = scores[(qid, f"{qid}/{run_id}")] = float(value)
    return scores


def items(assignments: pd.DataFrame) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
    """(request without context, the system answers; id = run_id) per topic, in file order."""
    return [
        (GenerationRequest(str(qid), group.iloc[0]["query"]),
         [GenerationResponse(str(r), t) for r, t in zip(group["run_id"], group["answer_text"], strict=True)])
        for qid, group in assignments.groupby("qid", sort=False)
    ]
