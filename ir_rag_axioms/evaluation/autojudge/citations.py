"""Citations as inline markers: document ids numbered by context, references and citation order; one answer row."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

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


def no_reference(position: int) -> str:
    """The stand-in id of a citation position that names no reference: numbered after every document, so invalid."""
    return f"<no reference {position}>"


def sentence_citations(report: Any, sentences: Sequence[Any]) -> list[list[str]]:
    """Each sentence's cited document ids (``sentences``: the report's ``get_sentences_with_citations()``).

    Citations by position (TREC RAG 2024-2026) are resolved against ``references`` here: autojudge-base drops a
    position outside them, which would hide an invalid citation; it is kept as ``no_reference(position)``.
    """
    references = [str(r) for r in (report.references or [])]
    out = []
    for raw, sentence in zip(report.responses or [], sentences, strict=True):
        cited = raw.citations
        if isinstance(cited, list) and any(isinstance(c, int) for c in cited):
            out.append([references[c] if 0 <= c < len(references) else no_reference(c) for c in cited])
        else:
            out.append([str(c) for c in (sentence.citations or [])])
    return out


def report_row(report: Any, query: str) -> dict[str, Any]:
    """One answer row: run_id, topic, query, text (sentences, citations as markers), citations, context (documents).

    The axioms read citations as markers in the text, so each sentence's citations (document ids) are written
    into it as ``[k]``, k the document's number of ``citation_numbers`` (its context position where the report
    has documents): ``{"text": "It rains.", "citations": [0]}`` becomes ``It rains [1].``, in every report format.
    A position with no reference is kept as an invalid citation (``sentence_citations``).
    """
    sentences = report.get_sentences_with_citations()
    citations = sentence_citations(report, sentences)
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
