"""Scoring: the scorer protocol, the method chosen, the scorer's frame checked, topics one at a time, the means."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

import pandas as pd

from ir_rag_axioms.evaluation.autojudge.errors import JudgeSettingsError
from ir_rag_axioms.evaluation.autojudge.reports import ALL

_LOG = logging.getLogger(__name__)

Scorer = Callable[..., pd.DataFrame]
"""``(answers, axioms, *, method, progress) -> long frame`` of run_id, topic, measure, value."""


def judge_method(method: str | None, axioms: Any = None, scorer: Scorer | None = None) -> str:
    """The scoring method: as given, checked; unset, ``"default"``, or ``"win_rate"`` for other axioms (logged).

    ``"default"`` reads the packaged model's axioms only. JudgeSettingsError for an unknown method or ``"default"``
    with other axioms (default scorer only; a custom scorer gets ``method`` as given, ``"default"`` if unset).
    """
    if scorer is not None and scorer is not default_scorer:
        return "default" if method is None else str(method)
    from ir_rag_axioms.evaluation.leaderboard import METHODS, reads_packaged_axioms

    if method is None:
        if reads_packaged_axioms(axioms):
            return "default"
        _LOG.warning("ir_rag_axioms judge: axioms given without a method: scoring by method 'win_rate' (the default "
                     "method reads the packaged model's axioms only); set the method to choose another")
        return "win_rate"
    if method not in METHODS:
        raise JudgeSettingsError(f"unknown method {method!r}: use one of {', '.join(METHODS)} (or leave it unset)")
    if method == "default" and not reads_packaged_axioms(axioms):
        raise JudgeSettingsError("method 'default' reads the packaged model's axioms only; for other axioms use "
                                 "method 'win_rate' or 'bradley_terry' (or leave the method unset: 'win_rate')")
    return str(method)


def default_scorer(answers: pd.DataFrame, axioms: Any = None, *, method: str = "default",
                   progress: bool = True) -> pd.DataFrame:
    """``evaluation.leaderboard.system_leaderboard`` (imported when first called)."""
    from ir_rag_axioms.evaluation.leaderboard import system_leaderboard  # type: ignore[import-not-found,unused-ignore]

    return system_leaderboard(answers, axioms, method=method, progress=progress)


def measure_name(name: str) -> str:
    """A measure's name as a leaderboard line can hold it: whitespace removed (``COV1 | CLAR4`` -> ``COV1|CLAR4``).

    The tot, ir_measures and trec_eval readers split lines at whitespace, so a name with a space is not read back.
    """
    return "".join(str(name).split())


def _checked_scores(scores: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """The scorer's long frame, checked; measure names through ``measure_name``.

    ValueError naming them for missing columns, runs or topics it was not given (``all`` aside), an empty
    measure name, two measures that differ only in whitespace, or a (run, topic, measure) given twice.
    """
    needed = {"run_id", "topic", "measure", "value"}
    if not isinstance(scores, pd.DataFrame) or not needed <= set(scores.columns):
        raise ValueError(f"the scorer returned no long frame with {sorted(needed)}: {type(scores).__name__} "
                         f"{list(getattr(scores, 'columns', []))}")
    scores = scores.astype({"run_id": str, "topic": str, "measure": str})
    unknown = set(scores["run_id"]) - set(answers["run_id"].astype(str))
    if unknown:
        raise ValueError(f"the scorer returned runs it was not given: {sorted(unknown)[:5]}")
    unknown = set(scores["topic"]) - set(answers["topic"].astype(str)) - {ALL}
    if unknown:
        raise ValueError(f"the scorer returned topics it was not given: {sorted(unknown)[:5]}")
    names = {m: measure_name(m) for m in scores["measure"].unique()}
    if "" in names.values():
        raise ValueError("the scorer returned a measure without a name")
    clashes = {n for n in names.values() if sum(v == n for v in names.values()) > 1}
    if clashes:
        raise ValueError(f"the scorer returned measures that differ only in whitespace: "
                         f"{sorted(m for m, n in names.items() if n in clashes)}")
    scores = scores.assign(measure=scores["measure"].map(names))
    twice = scores[scores.duplicated(["run_id", "topic", "measure"], keep=False)]
    if len(twice):
        keys = sorted(set(zip(twice["run_id"], twice["topic"], twice["measure"], strict=True)))
        raise ValueError(f"the scorer returned {len(keys)} (run, topic, measure) more than once, e.g. {keys[:3]}")
    return scores


def score_topics(groups: Iterable[pd.DataFrame], axioms: Any, scorer: Scorer, method: str,
                 progress: bool) -> pd.DataFrame:
    """Score each topic's answers alone (one topic's analyses alive at a time); per-topic rows only."""
    parts = []
    for answers in groups:
        if answers.empty:
            continue
        scores = _checked_scores(scorer(answers, axioms, method=method, progress=False), answers)
        parts.append(scores[scores["topic"] != ALL])
        del answers, scores
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["run_id", "topic", "measure",
                                                                                    "value"])


def mean_rows(scores: pd.DataFrame) -> pd.DataFrame:
    """Per run and measure the ``all`` row: the mean of the defined (non-NaN) per-topic values (NaN if none).

    Summed exactly (``evaluation.leaderboard.exact_mean``): the same whatever the order of runs and topics.
    """
    from ir_rag_axioms.evaluation.leaderboard import exact_mean

    per_topic = scores[scores["topic"] != ALL].assign(value=lambda f: pd.to_numeric(f["value"], errors="coerce"))
    means = per_topic.groupby(["run_id", "measure"], sort=False)["value"].agg(exact_mean).reset_index()
    return means.assign(topic=ALL)[["run_id", "topic", "measure", "value"]]


def _parse_axioms(axioms: Any) -> Any:
    """An axiom spec string through ``presets.parse_axioms``; anything else (None, a mapping, a list) as given."""
    if isinstance(axioms, str):
        from ir_rag_axioms.axioms.presets import parse_axioms

        return parse_axioms(axioms)
    return axioms
