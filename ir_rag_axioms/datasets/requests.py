"""Requests with responses from user files: JSONL (nested or one response per line), or a TREC run plus texts.

Nested: ``{"id", "query", "context": [...], "responses": [{"id", "text"}, ...]}`` per line (``qid`` for ``id``,
``text`` for ``query``, ``docno`` for a response's ``id``). Flat: ``{"qid", "query", "docno", "text"[, "context"]}``
per line, grouped by ``qid`` in file order. A bad line raises ``DataFileError`` naming the file and line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ir_rag_axioms.datasets.files import DataFileError, read_jsonl
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

Items = list[tuple[GenerationRequest, list[GenerationResponse]]]


def _first(row: dict[str, Any], names: tuple[str, ...], where: str) -> Any:
    for name in names:
        if name in row:
            return row[name]
    raise DataFileError(f"{where} lacks the field {' or '.join(repr(n) for n in names)} (fields: {sorted(row)})")


def read_requests(path: str | os.PathLike[str]) -> Items:
    """(request, responses) items of a JSONL(.gz) file, nested or flat (see the module docstring)."""
    rows = read_jsonl(path)
    if not rows:
        raise DataFileError(f"{path} holds no requests")
    items: Items = []
    by_qid: dict[str, tuple[GenerationRequest, list[GenerationResponse]]] = {}
    for number, row in enumerate(rows, start=1):
        where = f"{path} line {number}"  # read_jsonl skips blank lines: numbers count records
        try:
            if "responses" in row:
                request = GenerationRequest(str(_first(row, ("id", "qid"), where)),
                                            _first(row, ("query", "text"), where), row.get("context"))
                if not isinstance(row["responses"], list):
                    raise DataFileError(f"{where}: 'responses' must be a list of {{\"id\", \"text\"}} objects")
                responses = [GenerationResponse(str(_first(r, ("id", "docno"), f"{where}, response {k + 1}")),
                                                _first(r, ("text", "qanswer"), f"{where}, response {k + 1}"),
                                                rank=r.get("rank"), score=r.get("score"))
                             for k, r in enumerate(row["responses"])]
                items.append((request, responses))
            else:
                qid = str(_first(row, ("qid", "id"), where))
                if qid not in by_qid:
                    by_qid[qid] = (GenerationRequest(qid, _first(row, ("query",), where), row.get("context")), [])
                    items.append(by_qid[qid])
                by_qid[qid][1].append(GenerationResponse(str(_first(row, ("docno",), where)),
                                                         _first(row, ("text", "qanswer"), where),
                                                         rank=row.get("rank"), score=row.get("score")))
        except DataFileError:
            raise
        except (TypeError, ValueError, AttributeError) as error:
            raise DataFileError(f"{where}: {error}") from error
    for request, responses in items:
        ids = [r.id for r in responses]
        if len(set(ids)) != len(ids):
            raise DataFileError(f"{path}: request {request.id!r} has duplicate response ids "
                                f"{sorted({i for i in ids if ids.count(i) > 1})}")
    return items


def read_run(path: str | os.PathLike[str]) -> dict[str, list[tuple[str, int, float]]]:
    """A TREC run file: qid -> [(docno, rank, score)] in file order; a malformed line raises naming its number."""
    run: dict[str, list[tuple[str, int, float]]] = {}
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DataFileError(f"cannot read the run {path}: {error}") from error
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 6:
            raise DataFileError(f"{path} line {number}: a TREC run line has 6 fields "
                                f"(qid Q0 docno rank score tag), got {len(parts)}: {line[:80]!r}")
        try:
            run.setdefault(parts[0], []).append((parts[2], int(parts[3]), float(parts[4])))
        except ValueError:
            raise DataFileError(f"{path} line {number}: rank and score must be numbers: {line[:80]!r}") from None
    if not run:
        raise DataFileError(f"{path} holds no run lines")
    return run


def read_run_requests(run_path: str | os.PathLike[str], texts_path: str | os.PathLike[str]) -> Items:
    """The run's candidates as items: texts (and queries) from a JSONL file of ``qid, query, docno, text`` rows.

    The rank and score of each response are the run's; a docno of the run without a text raises.
    """
    run = read_run(run_path)
    texts: dict[tuple[str, str], dict[str, Any]] = {}
    queries: dict[str, tuple[str, Any]] = {}
    for number, row in enumerate(read_jsonl(texts_path, required=()), start=1):
        where = f"{texts_path} line {number}"
        qid, docno = str(_first(row, ("qid",), where)), str(_first(row, ("docno",), where))
        texts[(qid, docno)] = row
        queries.setdefault(qid, (_first(row, ("query",), where), row.get("context")))
    items: Items = []
    for qid, ranked in run.items():
        if qid not in queries:
            raise DataFileError(f"{texts_path} has no text for query {qid!r} of the run {run_path}")
        missing = [docno for docno, _, _ in ranked if (qid, docno) not in texts]
        if missing:
            raise DataFileError(f"{texts_path} has no text for {len(missing)} response(s) of query {qid!r} in the "
                                f"run {run_path}, e.g. docno {missing[0]!r}")
        query, context = queries[qid]
        responses = [GenerationResponse(docno, _first(texts[(qid, docno)], ("text", "qanswer"), str(texts_path)),
                                        rank=rank, score=score) for docno, rank, score in ranked]
        items.append((GenerationRequest(qid, query, context), responses))
    return items
