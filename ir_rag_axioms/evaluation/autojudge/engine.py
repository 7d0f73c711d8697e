"""The judge's engine: reports (or report files) on topics to a leaderboard, whole, by topic or on Ray."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ir_rag_axioms.evaluation.autojudge.errors import (
    ReportInputError,
    _warn_abstentions,
    _warn_scripts,
    _warn_too_long,
    non_latin_answers,
    too_long_answers,
)
from ir_rag_axioms.evaluation.autojudge.leaderboards import FORMATS, check_format, leaderboard, write_leaderboard
from ir_rag_axioms.evaluation.autojudge.ray import score_topics_on_ray
from ir_rag_axioms.evaluation.autojudge.reports import (
    ReportLine,
    answers_frame,
    check_topic_id,
    index_reports,
    load_topics,
    read_reports,
    report_files,
)
from ir_rag_axioms.evaluation.autojudge.scoring import (
    Scorer,
    _checked_scores,
    _parse_axioms,
    default_scorer,
    judge_method,
    mean_rows,
    score_topics,
)


def judge_reports(
    reports: Iterable[Any], topics: Sequence[Any], *, axioms: Any = None, scorer: Scorer | None = None,
    method: str | None = None, by_topic: bool = False, ray: bool = False, progress: bool = True,
) -> Any:
    """The leaderboard of autojudge-base reports on ``topics`` (the rules: this package's docstring).

    ``method``: the scorer's; unset, ``judge_method`` picks it (``"default"``, or ``"win_rate"`` for other axioms).
    """
    scorer = scorer or default_scorer
    axioms = _parse_axioms(axioms)
    method = judge_method(method, axioms, scorer)
    topics = list(topics)
    for topic in topics:
        check_topic_id(str(topic.request_id), "topics")
    frame, abstained = answers_frame(reports, topics)
    _warn_abstentions(abstained)
    _warn_scripts(non_latin_answers(frame), len(frame))
    if scorer is default_scorer:
        _warn_too_long(too_long_answers(frame))
    if frame.empty:
        raise ReportInputError("the judge has no answer to score: " + (
            f"every one of the {len(abstained)} reports is empty" if len(abstained) else "no report was given (an "
            "empty file or folder?)"))
    if by_topic or ray:
        order = {str(t.request_id): k for k, t in enumerate(topics)}
        groups = (g for _, g in sorted(frame.groupby("topic", sort=False), key=lambda kv: order[str(kv[0])]))
        scores = _score_groups(groups, axioms, scorer, method, progress, ray, len(order))
        scores = pd.concat([scores, mean_rows(scores)], ignore_index=True)
    else:
        scores = _checked_scores(scorer(frame, axioms, method=method, progress=progress), frame)
    return leaderboard(scores, abstained)


def _score_groups(groups: Iterable[pd.DataFrame], axioms: Any, scorer: Scorer, method: str, progress: bool,
                  ray: bool, total: int) -> pd.DataFrame:
    if progress:
        from tqdm.auto import tqdm

        groups = tqdm(groups, desc="AxiomJudge: topics", unit="topic", total=total)
    if ray:
        return score_topics_on_ray(groups, axioms, scorer, method, progress)
    return score_topics(groups, axioms, scorer, method, progress)


def _streamed_groups(index: Mapping[str, list[ReportLine]], queries: Mapping[str, Any],
                     abstained: list[tuple[str, str]], non_latin: list[tuple[str, str]],
                     counted: list[int], too_long: list[tuple[str, str]]) -> Iterator[pd.DataFrame]:
    """One answers frame per topic, read from the report files when needed (nothing of other topics kept).

    The abstentions, the non-Latin answers, the number of answers and those over the text limit are added to the
    lists given.
    """
    for topic_id, lines in index.items():
        if not lines:
            continue
        frame, empty = answers_frame(read_reports(lines), [queries[topic_id]])
        abstained.extend(empty)
        non_latin.extend(non_latin_answers(frame))
        counted.append(len(frame))
        too_long.extend(too_long_answers(frame))
        yield frame


def judge_files(
    report_paths: Iterable[str | os.PathLike[str]], topics_path: str | os.PathLike[str], out: str | os.PathLike[str],
    *, format: str = "tot", axioms: Any = None, scorer: Scorer | None = None, method: str | None = None,
    by_topic: bool = False, ray: bool = False, progress: bool = True,
) -> Path:
    """Judge report files (or folders) on a topics file; write the leaderboard to ``out`` atomically.

    Every check (settings, formats, topics, duplicates, the output's folder) runs before any scoring.
    ``by_topic``/``ray`` read each topic's reports from the files when that topic is scored. ``method`` unset:
    ``judge_method``'s choice.
    """
    from ir_rag_axioms.output import writable_file

    if format not in FORMATS:
        raise ValueError(f"unknown leaderboard format {format!r}: use one of {', '.join(FORMATS)}")
    scorer = scorer or default_scorer
    axioms = _parse_axioms(axioms)
    method = judge_method(method, axioms, scorer)
    files = report_files(report_paths)
    writable_file(out, "leaderboard (--out)", inputs=(topics_path, *files))
    topics = load_topics(topics_path)
    index = index_reports(files, topics)  # every line checked before the work
    check_format(format, (where.run_id for lines in index.values() for where in lines))
    if by_topic or ray:
        queries = {str(t.request_id): t for t in topics}
        abstained: list[tuple[str, str]] = []
        non_latin: list[tuple[str, str]] = []
        counted: list[int] = []
        too_long: list[tuple[str, str]] = []
        total = sum(1 for lines in index.values() if lines)
        scores = _score_groups(_streamed_groups(index, queries, abstained, non_latin, counted, too_long), axioms,
                               scorer, method, progress, ray, total)
        _warn_abstentions(abstained)
        _warn_scripts(non_latin, sum(counted))
        if scorer is default_scorer:
            _warn_too_long(too_long)
        if scores.empty:
            raise ReportInputError("the judge has no answer to score: every report is empty")
        board = leaderboard(pd.concat([scores, mean_rows(scores)], ignore_index=True), abstained)
    else:
        reports = read_reports([where for lines in index.values() for where in lines])
        board = judge_reports(reports, topics, axioms=axioms, scorer=scorer, method=method, progress=progress)
    return write_leaderboard(board, out, format)
