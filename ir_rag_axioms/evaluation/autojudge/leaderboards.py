"""autojudge-base's ``Leaderboard`` from a long frame of scores, written atomically in its formats."""

from __future__ import annotations

import contextlib
import io
import math
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ir_rag_axioms.evaluation.autojudge.errors import ReportInputError
from ir_rag_axioms.evaluation.autojudge.offline import import_autojudge
from ir_rag_axioms.evaluation.autojudge.reports import ALL

FORMATS = ("tot", "jsonl", "ir_measures", "trec_eval")
"""Leaderboard file formats written (autojudge-base's ``Leaderboard.write``)."""


def leaderboard(scores: pd.DataFrame, abstained: Sequence[tuple[str, str]] = (),
                descriptions: Mapping[str, str] | None = None) -> Any:
    """autojudge-base's ``Leaderboard`` from a long frame: measures in first-appearance order (the headline first).

    Per-topic rows go through ``LeaderboardBuilder.add`` (a measure a (run, topic) lacks is NaN); the ``all`` rows
    are the frame's (a system-level score need not be a mean of topics); ``abstained`` pairs get NaN throughout,
    and a run without an ``all`` row (one that abstains on every topic) gets one of NaN.
    """
    autojudge = import_autojudge()
    measures = list(dict.fromkeys(scores["measure"]))
    if not measures:
        raise ReportInputError("the judge has no measure to write: no answer was scored")
    descriptions = descriptions or {}
    spec = autojudge.LeaderboardSpec(measures=tuple(
        autojudge.MeasureSpec(m, float, descriptions.get(m, "headline" if k == 0 else "")) for k, m in
        enumerate(measures)))
    builder = autojudge.LeaderboardBuilder(spec)
    values: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for run_id, topic, measure, value in zip(scores["run_id"], scores["topic"], scores["measure"], scores["value"],
                                             strict=True):
        values[(run_id, topic)][measure] = _float(value)
    for run_id, topic in abstained:
        values.setdefault((run_id, topic), {})
    for run_id in dict.fromkeys(run for run, _ in list(values)):  # a run abstaining on every topic: an all-NaN row
        values.setdefault((run_id, ALL), {})
    nan = float("nan")
    aggregates = []
    for (run_id, topic), row in values.items():
        full = {m: row.get(m, nan) for m in measures}
        if topic == ALL:
            aggregates.append(autojudge.LeaderboardEntry(run_id=run_id, topic_id=ALL, values=full))
        else:
            builder.add(run_id=run_id, topic_id=topic, values=full)
    return autojudge.Leaderboard(measures=spec.names, spec=spec, entries=builder.entries() + tuple(aggregates),
                                 all_topic_id=ALL)


def _float(value: Any) -> float:
    """``value`` as a float; NaN for None or anything that is no number (an undefined score)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def check_format(format: str, runs: Iterable[str]) -> None:
    """ValueError for an unknown format, or for ``trec_eval`` with more than one run.

    trec_eval lines have no run (autojudge-base reads the run id from the file's name): several runs in one file
    would be read back as one.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown leaderboard format {format!r}: use one of {', '.join(FORMATS)}")
    runs = sorted(set(runs))
    if format == "trec_eval" and len(runs) > 1:
        raise ValueError(f"leaderboard format 'trec_eval' has no run column (autojudge-base takes the run id from the "
                         f"file name), so these {len(runs)} runs ({', '.join(map(repr, runs[:3]))}"
                         f"{', ...' if len(runs) > 3 else ''}) would be read back as one: use tot, ir_measures or "
                         "jsonl, or judge one run per file")


def write_leaderboard(board: Any, out: str | os.PathLike[str], format: str = "tot") -> Path:
    """Write ``board`` with autojudge-base's ``Leaderboard.write`` to a temporary file, renamed to ``out`` when done.

    ``trec_eval`` only for a single run (``check_format``): the file's name is then its run id for the readers.
    """
    from ir_rag_axioms.output import atomic_write

    check_format(format, (e.run_id for e in board.entries))

    def write(temporary: Path) -> None:
        with contextlib.redirect_stdout(io.StringIO()):  # Leaderboard.write prints where it writes
            board.write(temporary, format=format)

    return atomic_write(out, write)
