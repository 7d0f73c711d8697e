"""ir_datasets registration of CrowdRAG-25 (queries, responses, crowd docpairs) and the TREC RAG 2024 nugget qrels.

Importing this module registers the default datasets (``ir_rag_axioms.datasets.register()`` does the same).

The NamedTuple fields carry concrete types (no ``from __future__ import annotations`` here): ``ir_datasets export``
and ``pt.text.get_text`` read them. Docnos of the nugget answers are ``<qid>/<run_id>`` everywhere (docs, qrels,
``runs.nugget_answers``, ``runs.nugget_qrels``): unique in the collection, as a docs store needs.
"""

import hashlib
import os
import re
import warnings
from pathlib import Path
from typing import NamedTuple

import ir_datasets
from ir_datasets.datasets.base import Dataset
from ir_datasets.formats import BaseDocPairs, BaseDocs, BaseQrels, BaseQueries
from ir_datasets.indices import PickleLz4FullStore

from ir_rag_axioms.datasets import crowd, nuggets
from ir_rag_axioms.datasets.files import CROWD_RESPONSES, NUGGET_ASSIGNMENTS, DataFile, cache_root, resolve

CROWD_NAME = "ir-rag-axioms/crowdrag-25"
"""CrowdRAG-25: 301 TREC RAG 2024 topics, 1,806 responses, 1,352 crowd pairwise judgments."""
NUGGETS_NAME = "ir-rag-axioms/trec-rag-2024-nuggets"
"""TREC RAG 2024 system answers with AutoNuggetizer assignments; qrels from nugget scores (default: vital)."""
NUGGET_QRELS = ("all", "vital", "weighted", "all-strict", "vital-strict", "weighted-strict")
"""Sub-datasets ``<NUGGETS_NAME>/<score>`` with qrels from that nugget score."""
ALIASES = {
    "crowdrag-25": CROWD_NAME, "trec-rag-24-crowd": CROWD_NAME, "ir-rag-axioms/trec-rag-24-crowd": CROWD_NAME,
    "trec-rag-24-nuggets": NUGGETS_NAME, "trec-rag-2024-nuggets": NUGGETS_NAME,
    "ir-rag-axioms/trec-rag-24-nuggets": NUGGETS_NAME,
}
"""Other names of the datasets (their data folders, short names): accepted with a DeprecationWarning."""


def canonical_name(name: str) -> str:
    """The registered ir_datasets name of ``name``: itself, or (DeprecationWarning) an alias's (``/<score>`` kept).

    E.g. ``trec-rag-24-crowd`` (the data folder) and ``crowdrag-25`` name ``ir-rag-axioms/crowdrag-25``.
    """
    for alias, canonical in ALIASES.items():
        if name == alias or name.startswith(alias + "/"):
            renamed = canonical + name[len(alias):]
            warnings.warn(f"dataset name {name!r} is an alias: use the registered ir_datasets name {renamed!r}",
                          DeprecationWarning, stacklevel=3)
            return renamed
    return name


class CrowdQuery(NamedTuple):
    """A TREC RAG 2024 topic with its 20 retrieved context passages (``query`` is the text; ``.text`` too)."""

    query_id: str
    query: str
    context_ids: tuple[str, ...]
    context: tuple[str, ...]

    @property
    def text(self) -> str:
        """The query text (ir_datasets' usual field name)."""
        return self.query

    def default_text(self) -> str:
        """The query text."""
        return self.query


class CrowdResponse(NamedTuple):
    """A CrowdRAG-25 response and its context.

    Text (``raw_text``), topic, kind (human/llm), style (bullet/essay/news).
    """

    doc_id: str
    text: str
    query_id: str
    kind: str
    style: str
    name: str
    cleaned_text: str
    context_ids: tuple[str, ...]
    context: tuple[str, ...]


class CrowdDocPair(NamedTuple):
    """A crowd judgment of responses A and B: per dimension the probabilities that A is better, neither, B is better."""

    query_id: str
    doc_id_a: str
    doc_id_b: str
    submission_id: str
    quality_overall_p_a: float
    quality_overall_p_n: float
    quality_overall_p_b: float
    coherence_logical_p_a: float
    coherence_logical_p_n: float
    coherence_logical_p_b: float
    coherence_stylistic_p_a: float
    coherence_stylistic_p_n: float
    coherence_stylistic_p_b: float
    consistency_internal_p_a: float
    consistency_internal_p_n: float
    consistency_internal_p_b: float
    correctness_topical_p_a: float
    correctness_topical_p_n: float
    correctness_topical_p_b: float
    coverage_broad_p_a: float
    coverage_broad_p_n: float
    coverage_broad_p_b: float
    coverage_deep_p_a: float
    coverage_deep_p_n: float
    coverage_deep_p_b: float


_PAIR_FIELDS = [("query_id", str), ("doc_id_a", str), ("doc_id_b", str), ("submission_id", str)] + [
    (f"{dim}_{suffix}", float) for dim in crowd.DIMENSIONS for suffix in ("p_a", "p_n", "p_b")
]
if CrowdDocPair._fields != tuple(name for name, _ in _PAIR_FIELDS):  # the fields spelled out above, checked once
    raise RuntimeError("CrowdDocPair's fields do not match crowd.DIMENSIONS")


class NuggetQuery(NamedTuple):
    """A TREC RAG 2024 topic with its nuggets and their importance (vital/okay); ``query`` (``.text``) is the text."""

    query_id: str
    query: str
    nuggets: tuple[str, ...]
    importances: tuple[str, ...]

    @property
    def text(self) -> str:
        """The query text (ir_datasets' usual field name)."""
        return self.query

    def default_text(self) -> str:
        """The query text."""
        return self.query


class CrowdQrel(NamedTuple):
    """A graded CrowdRAG-25 qrel from the pairwise judgments: ``relevance`` = round(4 * score), ``score`` in [0, 1].

    score = the response's mean expected win over its judged pairs (quality_overall: P(better) + P(neither) / 2).
    """

    query_id: str
    doc_id: str
    relevance: int
    score: float
    iteration: str


class NuggetAnswer(NamedTuple):
    """A system answer; ``doc_id`` = ``<qid>/<run_id>``."""

    doc_id: str
    text: str
    query_id: str
    run_id: str
    response_length: int


class NuggetQrel(NamedTuple):
    """A nugget-score qrel: ``relevance`` = round(4 * score), a grade 0-4 (``nugget_grade``); ``score`` in [0, 1]."""

    query_id: str
    doc_id: str
    relevance: int
    score: float
    iteration: str


def _tuple(value) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else ()


class _Source:
    """Resolves the data folder (or ``None``: env var / download) when a component is first used."""

    def __init__(self, data_dir: str | os.PathLike | None, cache_dir: Path, spec: DataFile):
        self.data_dir = data_dir
        self.base_dir = cache_dir
        self.spec = spec

    @property
    def cache_dir(self) -> Path:
        """The store folder of the current data file version (its path, size and mtime): re-registering refreshes it."""
        file = resolve(self.spec, self.data_dir)
        stat = file.stat()
        key = hashlib.sha1(f"{file.resolve()}\x00{stat.st_size}\x00{stat.st_mtime_ns}".encode()).hexdigest()[:16]
        return self.base_dir / key


class _CrowdDocs(BaseDocs):
    def __init__(self, source: _Source):
        self._source = source

    def docs_iter(self):
        for row in crowd.load_crowd_responses(self._source.data_dir).itertuples(index=False):
            yield CrowdResponse(
                str(row.response), str(row.raw_text or ""), str(row.topic), str(row.kind), str(row.style),
                str(row.name), str(getattr(row, "cleaned_text", "") or ""),
                _tuple(getattr(row, "references_ids", ())), _tuple(row.references_texts),
            )

    def docs_cls(self):
        return CrowdResponse

    def docs_count(self):
        return len(crowd.load_crowd_responses(self._source.data_dir))

    def docs_store(self, field="doc_id"):
        return PickleLz4FullStore(
            path=str(self._source.cache_dir / "docs.pklz4"), init_iter_fn=self.docs_iter,
            data_cls=CrowdResponse, lookup_field=field, index_fields=["doc_id"],
        )

    def docs_namespace(self):
        return CROWD_NAME

    def docs_lang(self):
        return "en"


class _CrowdQueries(BaseQueries):
    def __init__(self, source: _Source):
        self._source = source

    def queries_iter(self):
        frame = crowd.load_crowd_responses(self._source.data_dir)
        for topic, group in frame.groupby("topic", sort=False):
            first = group.iloc[0]
            yield CrowdQuery(
                str(topic), str(first["query"]),
                _tuple(first.get("references_ids", ())), _tuple(first["references_texts"]),
            )

    def queries_cls(self):
        return CrowdQuery

    def queries_namespace(self):
        return CROWD_NAME

    def queries_lang(self):
        return "en"


class _CrowdDocPairs(BaseDocPairs):
    def __init__(self, source: _Source):
        self._source = source

    def docpairs_iter(self):
        frame = crowd.load_crowd_ratings(self._source.data_dir)
        names = [name for name, _ in _PAIR_FIELDS[4:]]
        for row in frame.to_dict("records"):
            yield CrowdDocPair(
                str(row["query_id"]), str(row["response_a"]), str(row["response_b"]),
                str(row.get("submission_id", "")), *(float(row[n]) for n in names),
            )

    def docpairs_cls(self):
        return CrowdDocPair


class _CrowdQrels(BaseQrels):
    def __init__(self, source: _Source):
        self._source = source

    def qrels_iter(self):
        frame = crowd.load_crowd_ratings(self._source.data_dir)
        wins: dict[tuple[str, str], list[float]] = {}
        for row in frame.to_dict("records"):
            a, b, n = (float(row[f"quality_overall_{k}"]) for k in ("p_a", "p_b", "p_n"))
            if a != a or b != b:  # no aggregated judgment
                continue
            n = 0.0 if n != n else n  # no "neither" probability: A or B
            topic = str(row["query_id"])
            wins.setdefault((topic, str(row["response_a"])), []).append(a + n / 2)
            wins.setdefault((topic, str(row["response_b"])), []).append(b + n / 2)
        for (topic, response), values in wins.items():
            score = sum(values) / len(values)
            yield CrowdQrel(topic, response, nuggets.nugget_grade(score), score, "0")

    def qrels_cls(self):
        return CrowdQrel

    def qrels_defs(self):
        return {g: f"expected win share of the response in its judged pairs about {g / 4:.2f}" for g in range(5)}


class _Documentation:
    """The ``documentation()`` of a dataset (ir_datasets reads it from any component that has it)."""

    def __init__(self, fields: dict[str, str]):
        self._fields = fields

    def documentation(self) -> dict[str, str]:
        return dict(self._fields)


CROWD_DOCUMENTATION = {
    "pretty_name": "CrowdRAG-25",
    "desc": "TREC RAG 2024 topics (301) with their 20 retrieved context passages, 1,806 human- and LLM-written "
            "responses (docs: kind human/llm, style bullet/essay/news, text = raw_text with citations like [1]), "
            "1,352 pairwise crowd judgments on 65 topics (docpairs: per utility dimension the probabilities that A "
            "is better, neither, B is better) and graded qrels derived from them (relevance = round(4 x score), "
            "score = the response's mean over its judged pairs of P(better) + P(neither) / 2 for quality_overall).",
    "bibtex": "@inproceedings{gienapp2025crowdrag, title={The Viability of Crowdsourcing for RAG Evaluation}, "
              "author={Gienapp, Lukas and others}, booktitle={SIGIR}, year={2025}}",
    "fields": "queries: query_id, query, context_ids, context; docs: doc_id, text, query_id, kind, style, name, "
              "cleaned_text, context_ids, context; qrels: query_id, doc_id, relevance (0-4), score, iteration; "
              "docpairs: query_id, doc_id_a, doc_id_b, submission_id, <dimension>_p_a/_p_n/_p_b",
}
NUGGET_DOCUMENTATION = {
    "pretty_name": "TREC RAG 2024 nugget assignments",
    "desc": "System answers of the TREC 2024 RAG track with AutoNuggetizer assignments; doc_id = <qid>/<run_id>. "
            "Qrels: relevance = round(4 x score), a grade 0-4, with the nugget score (all, vital or weighted, "
            "strict or not; default vital) in the float field score; no qrel where the score is undefined.",
    "bibtex": "@article{pradeep2024autonuggetizer, title={Initial Nugget Evaluation Results for the TREC 2024 RAG "
              "Track with the AutoNuggetizer Framework}, author={Pradeep, Ronak and others}, journal={arXiv "
              "preprint arXiv:2411.09607}, year={2024}}",
    "fields": "queries: query_id, query, nuggets, importances; docs: doc_id, text, query_id, run_id, "
              "response_length; qrels: query_id, doc_id, relevance (0-4), score, iteration",
}


class _NuggetDocs(_CrowdDocs):
    def docs_iter(self):
        for row in nuggets.load_nugget_assignments(self._source.data_dir).itertuples(index=False):
            length = getattr(row, "response_length", 0)
            yield NuggetAnswer(
                nuggets.answer_docno(row.qid, row.run_id), str(row.answer_text or ""), str(row.qid), str(row.run_id),
                int(length) if length == length else 0,
            )

    def docs_cls(self):
        return NuggetAnswer

    def docs_count(self):
        return len(nuggets.load_nugget_assignments(self._source.data_dir))

    def docs_store(self, field="doc_id"):
        return PickleLz4FullStore(
            path=str(self._source.cache_dir / "docs.pklz4"), init_iter_fn=self.docs_iter,
            data_cls=NuggetAnswer, lookup_field=field, index_fields=["doc_id"],
        )

    def docs_namespace(self):
        return NUGGETS_NAME


class _NuggetQueries(BaseQueries):
    def __init__(self, source: _Source):
        self._source = source

    def queries_iter(self):
        frame = nuggets.load_nugget_assignments(self._source.data_dir)
        for qid, group in frame.groupby("qid", sort=False):
            listed = group.iloc[0]["nuggets"]
            yield NuggetQuery(
                str(qid), str(group.iloc[0]["query"]),
                tuple(str(n.get("text", "")) for n in listed), tuple(str(n.get("importance", "")) for n in listed),
            )

    def queries_cls(self):
        return NuggetQuery

    def queries_namespace(self):
        return NUGGETS_NAME

    def queries_lang(self):
        return "en"


class _NuggetQrels(BaseQrels):
    def __init__(self, source: _Source, score: str):
        self._source = source
        self._column = nuggets.score_column(*nuggets.parse_nugget_score(score))

    def qrels_iter(self):
        frame = nuggets.load_nugget_assignments(self._source.data_dir)
        for row in frame.itertuples(index=False):
            score = float(getattr(row, self._column))
            if score == score:  # no vital nuggets: no qrel
                yield NuggetQrel(str(row.qid), nuggets.answer_docno(row.qid, row.run_id), nuggets.nugget_grade(score),
                                 score, "0")

    def qrels_cls(self):
        return NuggetQrel

    def qrels_defs(self):
        return nuggets.GRADE_DEFINITIONS


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def _put(name: str, dataset: Dataset) -> Dataset:
    """Register ``dataset`` under ``name``, replacing an earlier registration of ours."""
    try:
        ir_datasets.registry.register(name, dataset)
    except RuntimeError:
        ir_datasets.registry._registered[name] = dataset  # re-registration with other paths
    return ir_datasets.registry[name]


def register_crowd(
    data_dir: str | os.PathLike | None = None, name: str = CROWD_NAME, cache_dir: str | os.PathLike | None = None
) -> Dataset:
    """Register CrowdRAG-25 from ``data_dir`` (the folder of responses/ratings; ``None``: env var or download)."""
    cache = Path(cache_dir) if cache_dir else cache_root() / "irds" / _safe(name)
    source = _Source(data_dir, cache, CROWD_RESPONSES)
    return _put(name, Dataset(_CrowdDocs(source), _CrowdQueries(source), _CrowdDocPairs(source), _CrowdQrels(source),
                              _Documentation(CROWD_DOCUMENTATION)))


def register_nuggets(
    data_dir: str | os.PathLike | None = None, name: str = NUGGETS_NAME, cache_dir: str | os.PathLike | None = None
) -> Dataset:
    """Register the nugget answers (``name``, qrels: vital) and ``name/<score>`` for each score in NUGGET_QRELS."""
    cache = Path(cache_dir) if cache_dir else cache_root() / "irds" / _safe(name)
    source = _Source(data_dir, cache, NUGGET_ASSIGNMENTS)
    docs, queries = _NuggetDocs(source), _NuggetQueries(source)
    main = _put(name, Dataset(docs, queries, _NuggetQrels(source, "vital"), _Documentation(NUGGET_DOCUMENTATION)))
    for score in NUGGET_QRELS:
        _put(f"{name}/{score}", Dataset(docs, queries, _NuggetQrels(source, score),
                                        _Documentation(NUGGET_DOCUMENTATION | {"desc": NUGGET_DOCUMENTATION["desc"]
                                                                               + f" Qrels from the {score} score."})))
    return main


def _register_defaults() -> None:
    if CROWD_NAME not in ir_datasets.registry._registered:
        register_crowd()
    if NUGGETS_NAME not in ir_datasets.registry._registered:
        register_nuggets()


_register_defaults()
