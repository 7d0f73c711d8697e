"""Frame <-> request/response conversion for the PyTerrier transformers, with input validation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ir_rag_axioms.model import GenerationRequest, GenerationResponse, check_ids, is_missing

if TYPE_CHECKING:
    from ir_rag_axioms.analysis.cache import Analysis
    from ir_rag_axioms.axioms.base import Axiom

TEXT_COLUMNS: tuple[str, ...] = ("text", "qanswer")
"""Accepted response text columns, in order of preference (``qanswer`` is pyterrier-rag's answer column)."""
CONTEXT_COLUMNS: tuple[str, ...] = ("context", "qcontext")
"""Accepted context columns (a list of passages per row; ``qcontext`` is pyterrier-rag's)."""
QUERY_COLUMNS: tuple[str, ...] = ("query", "query_0")
"""Accepted query columns, in order of preference (a pyterrier-rag ``Reader`` returns the query as ``query_0``)."""
REQUIRED: tuple[str, ...] = ("qid", "query", "docno")
"""Columns every input frame needs besides one text column."""


def validate(frame: pd.DataFrame, transformer: Any) -> str:
    """Check the columns with ``pt.validate``; return the text column.

    The error names the transformer and the missing columns.
    """
    import pyterrier as pt

    if "docno" not in frame.columns and any(c in frame.columns for c in TEXT_COLUMNS):
        raise ValueError(
            f"{type(transformer).__name__} compares candidate answers of a query, one row each with a docno; this "
            "frame has answers without docno (one answer per query, as a pyterrier-rag pipeline gives). Pool "
            "several pipelines first: ir_rag_axioms.pyterrier.Pool({'system-a': rag_a, 'system-b': rag_b}) >> "
            f"{type(transformer).__name__}(...)"
        )
    found = None
    with pt.validate.any(frame, context=transformer) as v:
        for column in TEXT_COLUMNS:
            if v.columns(includes=[*REQUIRED, column], mode=column):
                found = column
                break
    if found is None:  # pragma: no cover - pt.validate raises when no mode matches
        raise AssertionError("unreachable")
    check_ids(frame, transformer)
    check_unicode_ids(frame, transformer)
    check_answer_columns(frame, transformer)
    return found


def _same_answer(a: Any, b: Any) -> bool:
    """Whether two answer cells hold the same answer: both missing, or equal values (a failed comparison: not)."""
    if is_missing(a) or is_missing(b):
        return is_missing(a) and is_missing(b)
    if isinstance(a, str) and isinstance(b, str):
        return str.__eq__(a, b)
    try:
        return type(a) is type(b) and bool(a == b)
    except (TypeError, ValueError):  # e.g. arrays of several items
        return False


def check_answer_columns(frame: pd.DataFrame, transformer: Any = None) -> None:
    """Refuse a frame whose ``text`` and ``qanswer`` (pyterrier-rag's) columns differ in a row, naming it.

    Both name the answer (``qanswer`` is accepted as the text column): where they disagree (e.g. a pyterrier-rag stage
    rewrote ``qanswer`` after ``Pool`` wrote both), the axioms would judge ``text`` while pyterrier-rag's measures
    score ``qanswer``. A ValueError names the first differing row (position, qid, docno) and the count; ``transformer``
    (an object, or a text such as "Pool: pipeline 'a'") prefixes it.
    """
    if not set(TEXT_COLUMNS) <= set(frame.columns) or frame.empty:
        return
    differ = [k for k, (a, b) in enumerate(zip(frame["text"], frame["qanswer"], strict=True)) if not _same_answer(a, b)]
    if differ:
        k = differ[0]
        row = frame.iloc[k]
        where = f"qid {row['qid']!r}" if "qid" in frame.columns else "no qid"
        where += f", docno {row['docno']!r}" if "docno" in frame.columns else ""
        who = "" if transformer is None else f"{transformer}: " if isinstance(transformer, str) \
            else f"{type(transformer).__name__}: "
        raise ValueError(f"{who}the columns 'text' and 'qanswer' hold different answers at row position {k} "
                         f"({where}: text {row['text']!r:.60}, qanswer {row['qanswer']!r:.60}; {len(differ)} row(s) "
                         "in all): both name the answer, so the axioms would judge one and pyterrier-rag's measures "
                         "score the other. Keep one answer column (e.g. frame.drop(columns='text') to judge qanswer) "
                         "or make them equal (frame.assign(text=frame['qanswer']))")


def check_unicode_ids(frame: pd.DataFrame, transformer: Any = None) -> None:
    """Refuse a qid or docno holding a lone surrogate (not valid Unicode), naming the column, row and value.

    No run file or qrels can hold such an id, and replacing the surrogate by U+FFFD could merge two distinct ids.
    """
    for column in ("qid", "docno"):
        if column not in frame.columns or frame.empty:
            continue
        values = frame[column].astype(str)
        bad = np.flatnonzero(values.str.contains("[\ud800-\udfff]", regex=True).to_numpy(bool))
        if len(bad):
            who = f"{type(transformer).__name__}: " if transformer is not None else ""
            raise ValueError(
                f"{who}{column} {values.iloc[bad[0]]!r} at row position {int(bad[0])} holds a lone surrogate (half "
                f"of an emoji or other character cut from UTF-16; {len(bad)} row(s) in all): not valid Unicode, so "
                f"no run file or qrels can hold it, and replacing it by U+FFFD could merge two {column}s. Fix the "
                f"{column}s first, e.g. frame[{column!r}].str.replace('[\\ud800-\\udfff]', '\\ufffd', "
                "regex=True) if they stay distinct")


SAMPLE_DOCNO = "{qid}/{k}"
"""The docno of the k-th (0, 1, ...) of several answers to a query given without docno (best-of-n sampling)."""


def answer_candidates(frame: pd.DataFrame) -> pd.DataFrame:
    """Several answers per query without docno (``num_responses`` samples of a reader) as candidates to compare.

    Each answer gets the docno ``SAMPLE_DOCNO`` by its position among its query's answers in input order (and that
    position as ``rank`` when the frame has neither rank nor score, so ties keep the sampling order); a frame
    with a pyterrier-rag ``query_0`` and no ``query`` gets ``query``. Any other frame is returned as it is.
    """
    if "docno" in frame.columns or "qid" not in frame.columns or not any(c in frame.columns for c in TEXT_COLUMNS):
        return frame
    qids = frame["qid"].astype(str)
    if not qids.duplicated().any():
        return frame  # one answer per query: nothing to compare (``validate`` names Pool)
    position = qids.groupby(qids, sort=False).cumcount().to_numpy()
    out = frame.assign(docno=[SAMPLE_DOCNO.format(qid=q, k=k) for q, k in zip(qids, position, strict=True)])
    if "rank" not in out.columns and "score" not in out.columns:
        out["rank"] = position
    if "query" not in out.columns and "query_0" in out.columns:
        out["query"] = out["query_0"]
    return out


def _is_missing(value: Any) -> bool:
    return is_missing(value)


def _passages(value: Any, row: str = "a row", column: str = "context") -> tuple[str, ...] | None:
    """A context cell as passages: a text, a list of texts or of dicts with a text ``text``; NaN/None -> None.

    A missing item of a list (NaN, None) is dropped. Any other cell or item (bytes, a number, a dict without a text
    ``text``) is a TypeError naming ``row``, ``column`` and the item, as the metrics' direct API refuses it.
    """
    if _is_missing(value):
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (bytes, bytearray, memoryview)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{row} has {type(value).__name__} {value!r:.40} in column {column!r}: a context or "
                        "reference cell must be a text or a list of passages (NaN or None for a missing one)")
    found = (_passage(item, k, row, column) for k, item in enumerate(value))
    return tuple(p for p in found if p is not None)


def _passage(item: Any, k: int, row: str, column: str) -> str | None:
    """Item ``k`` of a context cell as a text (None: missing); TypeError naming the row, column and item otherwise."""
    if isinstance(item, Mapping) and "text" not in item:
        raise TypeError(f"{row} has a {type(item).__name__} without a 'text' key (keys {sorted(map(str, item))!r:.60})"
                        f" as item {k} of column {column!r}: a passage must be a text or a dict with a text 'text'")
    passage = item["text"] if isinstance(item, Mapping) else item
    if isinstance(passage, str) or _is_missing(passage):
        return passage if isinstance(passage, str) else None
    raise TypeError(f"{row} has {type(passage).__name__} {passage!r:.40} as item {k} of column {column!r}: a passage "
                    "must be a text or a dict with a text 'text' (a missing item, NaN or None, is dropped)")


@dataclass(frozen=True)
class Group:
    """One query of a frame: the request, its responses in original order, and their row positions in the frame."""

    request: GenerationRequest
    responses: list[GenerationResponse]
    rows: np.ndarray
    """Positional row indices (``frame.iloc``) of the responses, in the same order."""


def original_order(frame: pd.DataFrame) -> np.ndarray:
    """Positions of the rows in input order: by qid (as strings), then rank, else score (descending), then docno.

    The docno (as a string, ascending) settles what rank and score leave tied (a frame without either, a ``Pool``
    of pipelines without scores): the order never depends on the position of the rows, so shuffling them changes
    nothing. Give a rank or score for an order that means something.
    """
    qid_order = np.unique(frame["qid"].astype(str).to_numpy(), return_inverse=True)[1]
    keys: list[np.ndarray] = []
    if "docno" in frame.columns:
        keys.append(np.unique(frame["docno"].astype(str).to_numpy(), return_inverse=True)[1])
    else:
        keys.append(np.arange(len(frame)))
    if "score" in frame.columns:
        keys.append(-pd.to_numeric(frame["score"], errors="coerce").fillna(-np.inf).to_numpy())
    if "rank" in frame.columns:
        keys.append(pd.to_numeric(frame["rank"], errors="coerce").fillna(np.inf).to_numpy())
    keys.append(qid_order)
    return np.lexsort(keys)


def _check_unique(frame: pd.DataFrame) -> None:
    """Refuse a docno that stands twice within one query, naming the query and the docnos."""
    keys = pd.DataFrame({"qid": frame["qid"].astype(str).to_numpy(), "docno": frame["docno"].astype(str).to_numpy()})
    dupes = keys.duplicated(keep=False).to_numpy()
    if dupes.any():
        named = keys[dupes].groupby("qid", sort=True)["docno"].apply(lambda d: sorted(set(d))).to_dict()
        kinds = sorted({type(q).__name__ for q in frame["qid"].to_numpy()[dupes]})
        why = f" (qids of types {', '.join(kinds)} print alike and are one query: give each query one qid)" \
            if len(kinds) > 1 else ""
        raise ValueError(f"duplicate docno within a query (each response needs its own docno): {named}{why}")


def _query_text(sub: pd.DataFrame) -> str:
    """The one query text of a query's rows (a missing one is ""); two texts are a ValueError naming the qid."""
    qid = sub["qid"].iloc[0]
    texts = set()
    for value in sub["query"]:
        if not (is_missing(value) or isinstance(value, str)):
            raise TypeError(f"qid {qid!r} has {type(value).__name__} {value!r:.60} in column 'query': a query must be "
                            "a text")
        texts.add("" if is_missing(value) else str.__str__(value))
    if len(texts) > 1:
        first, second, *rest = sorted(texts)
        more = f" (and {len(rest)} more)" if rest else ""
        hint = " (they differ only in whitespace: e.g. frame['query'] = frame['query'].str.strip())" \
            if first.split() == second.split() else ""
        raise ValueError(f"qid {qid!r} has two query texts, {first!r:.80} and {second!r:.80}{more}; one text per qid"
                         f"{hint}")
    return texts.pop()


def _group(sub: pd.DataFrame, rows: np.ndarray, text_column: str, context_column: str | None) -> Group:
    """One query's request and responses; each row's context is its response's own (shared: the request's)."""
    first = sub.iloc[0]
    n = len(sub)
    contexts = [_passages(c, f"the row of qid {q!r}, docno {d!r}", context_column)
                for q, d, c in zip(sub["qid"], sub["docno"], sub[context_column], strict=True)] \
        if context_column is not None else [None] * n
    shared = contexts[0] if all(c == contexts[0] for c in contexts) else None
    request = GenerationRequest(str(first["qid"]), _query_text(sub), shared)
    ranks = sub["rank"] if "rank" in sub.columns else [None] * n
    scores = sub["score"] if "score" in sub.columns else [None] * n
    responses = [
        GenerationResponse(str(docno), text, rank, score,
                           None if shared is not None else context)
        for docno, text, rank, score, context in zip(sub["docno"], sub[text_column], ranks, scores, contexts,
                                                     strict=True)
    ]
    return Group(request, responses, rows)


def groups(frame: pd.DataFrame, text_column: str = "text") -> list[Group]:
    """Split a validated frame by qid into requests and responses in original order.

    A row's ``context`` (or ``qcontext``) is its response's own context; when all rows of a query share one, it is
    the request's. Duplicate docnos and two query texts under one qid raise ``ValueError``; a query text must be the
    same string in every row of its qid (whitespace too).
    """
    if frame.empty:
        return []
    check_ids(frame)
    check_unicode_ids(frame)
    _check_unique(frame)
    context_column = next((c for c in CONTEXT_COLUMNS if c in frame.columns), None)
    order = original_order(frame)
    qids = frame["qid"].astype(str).to_numpy()[order]
    cuts = np.flatnonzero(qids[1:] != qids[:-1]) + 1
    return [_group(frame.iloc[rows], rows, text_column, context_column) for rows in np.split(order, cuts)]


PAIR_KEYS: tuple[str, ...] = ("qid", "query", "docno_a", "docno_b")
"""The first columns of ``pair_table``; one column per axiom follows."""


def check_pair_columns(names: Sequence[str], explain: bool = False, who: str = "AxiomaticPreferences",
                       reserved: Sequence[str] = PAIR_KEYS) -> None:
    """Refuse axiom names that would overwrite a column of ``pair_table`` (its keys, another axiom's explanation).

    The names are the table's columns: ``{"qid": CONS2}`` would replace the pairs' qids by preferences. A ValueError
    names the clashing name and the columns it may not take.
    """
    taken = {str(k): "an id column" for k in reserved}
    if explain:
        taken |= {f"{n}_explanation": f"the explanation column of axiom {n!r}" for n in names}
    for name in names:
        if str(name) in taken:
            raise ValueError(f"{who}: the axiom name {name!r} is {taken[str(name)]} of the preferences table "
                             f"(the names are its columns, after {', '.join(map(repr, reserved))}): rename the "
                             "axiom (a dict key or axiom_names=)")


def pair_table(axioms: Mapping[str, Axiom], items: Sequence[tuple[GenerationRequest, Sequence[GenerationResponse]]],
               stacks: Iterable[np.ndarray], *, explain: bool = False, analysis: Analysis | None = None,
               keys: Sequence[tuple[Any, Any]] | None = None) -> pd.DataFrame:
    """One row per ordered pair (a, b), a != b, of each item's responses: qid, query, docno_a, docno_b, P_X[a, b].

    ``stacks``: each item's (k, n, n) stack of the k named ``axioms``, in order (read lazily); the rows of an item
    run in original order of a, then of b. ``keys``: the (qid, query) written per item (default: the request's id
    and text); ``explain``: also ``X_explanation``, each pair's ``Explanation`` under ``analysis``.
    """
    columns = list(axioms)
    explained = [f"{c}_explanation" for c in columns] if explain else []
    parts = []
    for k, ((request, responses), stack) in enumerate(zip(items, stacks, strict=True)):
        qid, query = keys[k] if keys is not None else (request.id, request.text)
        a, b = np.nonzero(~np.eye(len(responses), dtype=bool))
        docnos = np.array([r.id for r in responses], dtype=object)
        part = {"qid": [qid] * len(a), "query": [query] * len(a), "docno_a": docnos[a], "docno_b": docnos[b]}
        part |= {c: stack[m][a, b] for m, c in enumerate(columns)}
        if explain:
            pairs = list(zip(a.tolist(), b.tolist(), strict=True))
            for name, axiom in zip(explained, axioms.values(), strict=True):
                part[name] = axiom.explanations(request, responses, pairs, analysis=analysis)
        parts.append(pd.DataFrame(part))
    if not parts:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in PAIR_KEYS}
                            | {c: pd.Series(dtype="float64") for c in columns}
                            | {c: pd.Series(dtype=object) for c in explained})
    return pd.concat(parts, ignore_index=True)
