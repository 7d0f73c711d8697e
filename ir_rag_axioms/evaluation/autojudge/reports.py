"""Reports and topics read with autojudge-base's models and checked; the answers frame the scorers read."""

from __future__ import annotations

import contextlib
import json
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ir_rag_axioms.evaluation.autojudge.citations import report_row
from ir_rag_axioms.evaluation.autojudge.errors import ReportInputError
from ir_rag_axioms.evaluation.autojudge.offline import import_autojudge
from ir_rag_axioms.evaluation.consensus_nuggets import blank_answer

ALL = "all"
"""The topic id of a run's aggregate row."""


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be a run or topic id of a leaderboard file (None if it can).

    The tot, ir_measures and trec_eval lines are split at whitespace by autojudge-base's and autojudge-evaluate's
    readers, so an id must be non-empty and hold no whitespace.
    """
    if not value:
        return "is empty"
    if any(c.isspace() for c in value):
        return ("holds whitespace, which separates the fields of a leaderboard line (autojudge-base's readers would "
                "reject the file)")
    return None


def check_topic_id(topic_id: str, where: str) -> None:
    """ValueError (``where``: the place to name) for a topic id no leaderboard can hold: whitespace, or ``all``."""
    problem = id_problem(topic_id)
    if problem is not None:
        raise ReportInputError(f"{where}: topic id {topic_id!r} {problem}; rename the topic")
    if topic_id == ALL:
        raise ReportInputError(f"{where}: topic id {ALL!r} is reserved for the runs' aggregate rows of the "
                               "leaderboard; rename the topic")


def load_topics(path: str | os.PathLike[str]) -> list[Any]:
    """The topics of a JSONL file as autojudge-base's ``Request`` (``load_requests_from_file``'s model), checked.

    ValueError naming the file and line for a line that is no request, a repeated ``request_id`` or one no
    leaderboard can hold (``check_topic_id``: whitespace, ``all``).
    """
    autojudge = import_autojudge()
    topics: list[Any] = []
    seen: dict[str, int] = {}
    if not Path(path).is_file():
        raise ReportInputError(f"topics file {path}: {'a folder' if Path(path).is_dir() else 'no such file'} (give the "
                               "topics as a JSONL file of request_id and title)")
    with open(path, "rb") as lines:
        for number, raw in enumerate(lines, start=1):
            line = _decoded(raw, f"topics {path} line {number}")
            if not line.strip():
                continue
            try:
                topic = autojudge.Request.model_validate(json.loads(line))
            except ValueError as error:  # JSONDecodeError and pydantic's ValidationError are ValueErrors
                raise ReportInputError(f"topics {path} line {number}: not a topic (a JSON object with request_id and "
                                       f"title): {_short(error)}") from None
            check_topic_id(str(topic.request_id), f"topics {path} line {number}")
            if topic.request_id in seen:
                raise ReportInputError(f"topics {path} line {number}: topic {topic.request_id!r} again (first on line "
                                       f"{seen[topic.request_id]})")
            seen[topic.request_id] = number
            topics.append(topic)
    if not topics:
        raise ReportInputError(f"topics {path}: no topic")
    return topics


def _decoded(raw: bytes, where: str) -> str:
    """A line's bytes as UTF-8 text; ValueError naming ``where`` (file and line) and the first bad byte otherwise."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReportInputError(f"{where}: not UTF-8 text (byte {raw[error.start]:#04x} at byte {error.start + 1} of "
                               f"the line: {error.reason}); save the file as UTF-8") from None


def _short(error: Exception, limit: int = 300) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= limit else text[:limit] + "..."


def report_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The report files of ``paths``: files as given, folders by their files (recursively, hidden ones skipped)."""
    files: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file()
                                and not any(part.startswith(".") for part in p.relative_to(path).parts)))
        elif path.is_file():
            files.append(path)
        else:
            raise ReportInputError(f"reports: {path} is neither a file nor a folder")
    if not files:
        raise ReportInputError(f"reports: no file in {[str(p) for p in paths]}")
    return files


@dataclass(frozen=True)
class ReportLine:
    """Where one report is: its file, line number and byte offset, its run and topic."""

    file: Path
    line: int
    offset: int
    run_id: str
    topic: str


def _parse_report(autojudge: Any, text: str, file: Path, line: int) -> Any:
    """One report line through autojudge-base's ``Report`` model (as ``load_report``); ValueError naming the line."""
    try:
        report = autojudge.Report.model_validate(json.loads(text))
    except (ValueError, RuntimeError) as error:  # RuntimeError: Report/metadata without answer or topic id
        raise ReportInputError(f"report {file} line {line}: no report format of autojudge-base reads it (TREC RAG "
                               f"2024/2025/2026, RAGTIME, DRAGUN: metadata with run_id, team_id and topic_id or "
                               f"narrative_id, answer or responses): {_short(error)}") from None
    report.path = file.absolute()
    return report


def index_reports(files: Sequence[Path], topics: Sequence[Any]) -> dict[str, list[ReportLine]]:
    """Topic id -> where its reports are (in the topics' order), reading each line once and keeping no report.

    ValueError naming file, line, run and topic for an unreadable line, a topic not in ``topics`` or a second
    report of one (run, topic).
    """
    autojudge = import_autojudge()
    known = {str(t.request_id) for t in topics}
    by_topic: dict[str, list[ReportLine]] = {str(t.request_id): [] for t in topics}
    seen: dict[tuple[str, str], ReportLine] = {}
    for file in files:
        with open(file, "rb") as lines:
            offset, number = 0, 0
            for raw in lines:
                number += 1
                start, offset = offset, offset + len(raw)
                text = _decoded(raw, f"report {file} line {number}")
                if not text.strip():
                    continue
                report = _parse_report(autojudge, text, file, number)
                where = ReportLine(file, number, start, str(report.metadata.run_id), str(report.metadata.topic_id))
                _check_report(where, known, seen)
                by_topic[where.topic].append(where)
    return by_topic


def _check_report(where: ReportLine, known: set[str], seen: dict[tuple[str, str], ReportLine],
                  line_of: Callable[[ReportLine], int] | None = None) -> None:
    """ValueError for a bad id, a topic not in the topics or a repeated (run, topic); records ``where`` as seen.

    Bad ids: those no leaderboard can hold (``id_problem``, ``check_topic_id``). ``line_of``: a place's line in its
    file, asked only for a message (default: ``where.line``).
    """
    def at(place: ReportLine) -> str:
        return f"{place.file} line {line_of(place) if line_of else place.line}"

    problem = id_problem(where.run_id)
    if problem is not None:
        raise ReportInputError(f"report {at(where)}: run id {where.run_id!r} {problem}; rename the run")
    check_topic_id(where.topic, f"report {at(where)}: run {where.run_id!r}")
    if where.topic not in known:
        raise ReportInputError(f"report {at(where)}: run {where.run_id!r} answers topic "
                               f"{where.topic!r}, which is not in the topics ({len(known)} topics, e.g. "
                               f"{sorted(known)[:3]}); add it to the topics file or leave the report out")
    key = (where.run_id, where.topic)
    if key in seen:
        first = seen[key]
        raise ReportInputError(f"report {at(where)}: run {where.run_id!r} answers topic "
                               f"{where.topic!r} a second time (first: {at(first)}); keep one answer per (run, topic)")
    seen[key] = where


def nth_report_line(file: Path, ordinal: int) -> int:
    """The line number of the ``ordinal``-th non-blank line of ``file`` (``ordinal`` where there is none).

    autojudge-base's ``load_report`` skips blank lines, so its n-th report is the file's n-th non-blank line.
    """
    count = 0
    with contextlib.suppress(OSError), open(file, "rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if raw.strip():
                count += 1
                if count == ordinal:
                    return number
    return ordinal


def read_reports(lines: Sequence[ReportLine]) -> list[Any]:
    """The reports at ``lines`` (from ``index_reports``), parsed again with autojudge-base's ``Report``."""
    autojudge = import_autojudge()
    reports = []
    handles: dict[Path, Any] = {}
    try:
        for where in lines:
            if where.file not in handles:
                handles[where.file] = open(where.file, "rb")  # noqa: SIM115 (closed below)
            handle = handles[where.file]
            handle.seek(where.offset)
            reports.append(_parse_report(autojudge, handle.readline().decode("utf-8"), where.file, where.line))
    finally:
        for handle in handles.values():
            handle.close()
    return reports


def topic_query(topic: Any) -> str:
    """A topic's query: its ``title`` (the request), then ``problem_statement`` and ``background`` where given."""
    parts = [topic.title, getattr(topic, "problem_statement", None), getattr(topic, "background", None)]
    return " ".join(" ".join(str(p).split()) for p in parts if p and str(p).strip())


def answers_frame(reports: Iterable[Any], topics: Sequence[Any]) -> tuple[pd.DataFrame, list[tuple[str, str]]]:
    """The answers to score and the (run, topic) pairs that abstain (empty answer), from reports and topics.

    ValueError naming run and topic for a topic not in ``topics`` or a repeated (run, topic), and the report's file
    (``report.path``, as autojudge-base's ``load_report`` sets it) and line: the line of the file's n-th report,
    counted per file in the order given (``nth_report_line``); without a path, the n-th of all reports.
    """
    queries = {str(t.request_id): topic_query(t) for t in topics}
    seen: dict[tuple[str, str], ReportLine] = {}
    rows, abstained = [], []
    counts: dict[Path, int] = defaultdict(int)
    unnamed = Path("<reports>")

    def line_of(place: ReportLine) -> int:
        return place.line if place.file == unnamed else nth_report_line(place.file, place.line)

    for report in reports:
        file = Path(report.path) if report.path else unnamed
        counts[file] += 1
        where = ReportLine(file, counts[file], 0, str(report.metadata.run_id), str(report.metadata.topic_id))
        _check_report(where, set(queries), seen, line_of)
        row = report_row(report, queries[where.topic])
        if not blank_answer(row["text"]):  # the empty answer of system_leaderboard: abstains
            rows.append(row)
        else:
            abstained.append((where.run_id, where.topic))
    columns = ["run_id", "topic", "query", "text", "citations"]
    frame = pd.DataFrame(rows, columns=columns + (["context"] if any("context" in r for r in rows) else []))
    if "context" in frame:
        frame["context"] = [c if isinstance(c, list) else [] for c in frame["context"]]
    return frame, abstained
