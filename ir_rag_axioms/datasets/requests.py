"""Requests with responses from user files: JSONL (nested or one response per line), or a TREC run plus texts.

Nested: ``{"id", "query", "context": [...], "responses": [{"id", "text"[, "context"]}, ...]}`` per line (``qid`` for
``id``, ``text`` for ``query``, ``docno`` for a response's ``id``). Flat: ``{"qid", "query", "docno", "text"[,
"context"]}`` per line, grouped by ``qid`` in file order. Each answer keeps its own context: a response-level
``context`` (nested), or a row's ``context`` that differs from the first row's of its query (flat), is that
response's context. A bad line, two query texts for one qid or a duplicated response id raises ``DataFileError``
naming the file and line.
"""

from __future__ import annotations

import dataclasses
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


def _response(request: GenerationRequest, docno: Any, text: Any, row: dict[str, Any]) -> GenerationResponse:
    """A response with its rank, score and own context (None where it is the request's)."""
    response = GenerationResponse(str(docno), text, rank=row.get("rank"), score=row.get("score"),
                                  context=row.get("context"))
    return dataclasses.replace(response, context=None) if response.context == request.context else response


class _Seen:
    """Where each request and response id was first seen: a second query text or a repeated response id raises."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self.queries: dict[str, tuple[str, int]] = {}
        self.responses: dict[tuple[str, str], int] = {}

    def query(self, request: GenerationRequest, number: int) -> None:
        text, first = self.queries.setdefault(request.id, (request.text, number))
        if text != request.text:
            raise DataFileError(f"{self.path} line {number}: query {request.id!r} has the text {request.text!r:.80} "
                                f"but line {first} gave it {text!r:.80}; one text per qid")

    def response(self, qid: str, docno: str, number: int, where: str) -> None:
        first = self.responses.setdefault((qid, docno), number)
        if first != number:
            raise DataFileError(f"{where}: response id {docno!r} of request {qid!r} is duplicated (first on line "
                                f"{first}); response ids must be unique within a request")


def read_requests(path: str | os.PathLike[str]) -> Items:
    """(request, responses) items of a JSONL(.gz) file, nested or flat (see the module docstring)."""
    rows = read_jsonl(path)
    if not rows:
        raise DataFileError(f"{path} holds no requests")
    items: Items = []
    by_qid: dict[str, tuple[GenerationRequest, list[GenerationResponse]]] = {}
    seen = _Seen(path)
    for number, row in enumerate(rows, start=1):
        where = f"{path} line {number}"  # read_jsonl skips blank lines: numbers count records
        try:
            if "responses" in row:
                request = GenerationRequest(str(_first(row, ("id", "qid"), where)),
                                            _first(row, ("query", "text"), where), row.get("context"))
                if request.id in by_qid:
                    raise DataFileError(f"{where}: request {request.id!r} is repeated (first on line "
                                        f"{seen.queries[request.id][1]}); give each request once")
                seen.query(request, number)
                if not isinstance(row["responses"], list):
                    raise DataFileError(f"{where}: 'responses' must be a list of {{\"id\", \"text\"}} objects")
                responses: list[GenerationResponse] = []
                for k, r in enumerate(row["responses"]):
                    at = f"{where}, response {k + 1}"
                    if not isinstance(r, dict):
                        raise DataFileError(f"{at}: a response must be an object with id and text")
                    response = _response(request, _first(r, ("id", "docno"), at), _first(r, ("text", "qanswer"), at),
                                         r)
                    if any(response.id == other.id for other in responses):
                        raise DataFileError(f"{at}: response id {response.id!r} of request {request.id!r} is "
                                            "duplicated; response ids must be unique within a request")
                    responses.append(response)
                by_qid[request.id] = (request, responses)
                items.append(by_qid[request.id])
            else:
                qid = str(_first(row, ("qid", "id"), where))
                request = GenerationRequest(qid, _first(row, ("query",), where), row.get("context"))
                seen.query(request, number)
                if qid not in by_qid:
                    by_qid[qid] = (request, [])
                    items.append(by_qid[qid])
                response = _response(by_qid[qid][0], _first(row, ("docno",), where),
                                     _first(row, ("text", "qanswer"), where), row)
                seen.response(qid, response.id, number, where)
                by_qid[qid][1].append(response)
        except DataFileError:
            raise
        except (TypeError, ValueError, AttributeError) as error:
            raise DataFileError(f"{where}: {error}") from error
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
        if any(docno == parts[2] for docno, _, _ in run.get(parts[0], ())):
            raise DataFileError(f"{path} line {number}: document {parts[2]!r} is listed twice for query "
                                f"{parts[0]!r}; each candidate once per query")
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
    queries: dict[str, GenerationRequest] = {}
    seen = _Seen(texts_path)
    for number, row in enumerate(read_jsonl(texts_path, required=()), start=1):
        where = f"{texts_path} line {number}"
        qid, docno = str(_first(row, ("qid",), where)), str(_first(row, ("docno",), where))
        try:
            request = GenerationRequest(qid, _first(row, ("query",), where), row.get("context"))
        except (TypeError, ValueError) as error:
            raise DataFileError(f"{where}: {error}") from error
        seen.query(request, number)
        seen.response(qid, docno, number, where)
        texts[(qid, docno)] = row
        queries.setdefault(qid, request)
    items: Items = []
    for qid, ranked in run.items():
        if qid not in queries:
            raise DataFileError(f"{texts_path} has no text for query {qid!r} of the run {run_path}")
        missing = [docno for docno, _, _ in ranked if (qid, docno) not in texts]
        if missing:
            raise DataFileError(f"{texts_path} has no text for {len(missing)} response(s) of query {qid!r} in the "
                                f"run {run_path}, e.g. docno {missing[0]!r}")
        request = queries[qid]
        responses = [_response(request, docno, _first(texts[(qid, docno)], ("text", "qanswer"), str(texts_path)),
                               {**texts[(qid, docno)], "rank": rank, "score": score})
                     for docno, rank, score in ranked]
        items.append((request, responses))
    return items
