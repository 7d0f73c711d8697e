"""Pluggable collection statistics (idf) and retrieval scores for TFC3, M-TDC, LEN-M-TDC, LB1 and ASPECT-REG."""

from __future__ import annotations

import functools
import os
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, memo_key
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.terms import TermStatistics, term_statistics
from ir_rag_axioms.axioms.registry import constructible
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, all_contexts


@constructible
class StatisticsSource(ABC):
    """Where idf values and retrieval scores come from (an index, the retrieved context, given scores)."""

    def texts(self, request: GenerationRequest, responses: Sequence[GenerationResponse]) -> list[str]:
        """Texts whose terms must be analysed beforehand (default: none)."""
        return []

    @abstractmethod
    def idf(
        self, request: GenerationRequest, responses: Sequence[GenerationResponse], terms: Sequence[str],
        analysis: Analysis,
    ) -> np.ndarray:
        """Inverse document frequency of each term.

        In the axioms' notation: idf(t).
        """

    @abstractmethod
    def scores(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
               analysis: Analysis) -> np.ndarray:
        """One retrieval score per response (NaN where unknown)."""


def bm25_idf(document_frequency: np.ndarray, document_count: int) -> np.ndarray:
    """idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)) (BM25's non-negative idf)."""
    df = np.asarray(document_frequency, dtype=np.float64)
    return np.log1p((document_count - df + 0.5) / (df + 0.5))


def _given_scores(responses: Sequence[GenerationResponse]) -> np.ndarray:
    return np.array([np.nan if r.score is None else float(r.score) for r in responses], dtype=np.float64)


@dataclass(frozen=True)
class ContextStatistics(StatisticsSource):
    """Statistics of the request's context passages; scores = BM25(k1, b) of each response.

    idf over the distinct passages of the responses' contexts (each response's own, else the request's: a pool of
    answers shares one collection), over the candidates if there is none.
    """

    k1: float = 1.2
    b: float = 0.75
    model: str = DEFAULT_SPACY_MODEL

    def __post_init__(self) -> None:
        if not (isinstance(self.k1, int | float) and isinstance(self.b, int | float)):
            raise TypeError(f"ContextStatistics: k1 and b must be numbers, got {self.k1!r} and {self.b!r}")
        if not (0 <= self.k1 < float("inf") and 0 <= self.b <= 1):
            raise ValueError(f"ContextStatistics: BM25 needs a finite k1 >= 0 and b in [0, 1], got k1={self.k1!r}, "
                             f"b={self.b!r}")

    def collection(self, request: GenerationRequest, responses: Sequence[GenerationResponse]) -> list[str]:
        """The passages that stand in for the collection: every context of the responses, else the responses."""
        passages = dict.fromkeys(p for context in all_contexts(request, responses) for p in context)
        return list(passages) or [r.text for r in responses]

    def texts(self, request: GenerationRequest, responses: Sequence[GenerationResponse]) -> list[str]:
        """The collection passages."""
        return self.collection(request, responses)

    def _frequencies(self, passages: list[str], analysis: Analysis) -> tuple[Counter, int, float]:
        def compute() -> tuple[Counter, int, float]:
            stats = term_statistics(passages, self.model, analysis=analysis)
            df: Counter = Counter()
            for s in stats:
                df.update(s.vocabulary)
            mean_length = float(np.mean([s.length for s in stats])) if stats else 0.0
            return df, len(stats), mean_length

        key = memo_key("collection_frequencies", self.model, len(passages))
        return analysis.memo("\x00".join(passages), key, compute)

    def idf(
        self, request: GenerationRequest, responses: Sequence[GenerationResponse], terms: Sequence[str],
        analysis: Analysis,
    ) -> np.ndarray:
        """BM25 idf with document frequencies counted over the collection passages."""
        df, n, _ = self._frequencies(self.collection(request, responses), analysis)
        return bm25_idf(np.array([df.get(t, 0) for t in terms]), n)

    def scores(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
               analysis: Analysis) -> np.ndarray:
        """sum_t idf(t) * tf (k1 + 1) / (tf + k1 (1 - b + b |d| / avgdl)) over the distinct request terms."""
        (query,) = term_statistics([request.text], self.model, analysis=analysis)
        docs = term_statistics([r.text for r in responses], self.model, analysis=analysis)
        return bm25_scores(query, docs, self, request, responses, analysis)


def bm25_scores(query: TermStatistics, docs: Sequence[TermStatistics], source: ContextStatistics,
                request: GenerationRequest, responses: Sequence[GenerationResponse], analysis: Analysis) -> np.ndarray:
    """BM25 scores of ``docs`` for the distinct query terms with the source's collection statistics."""
    terms = list(dict.fromkeys(query.terms))
    _, _, avgdl = source._frequencies(source.collection(request, responses), analysis)
    idf = source.idf(request, responses, terms, analysis)
    tf = np.array([[d.tf(t) for t in terms] for d in docs], dtype=np.float64).reshape(len(docs), len(terms))
    lengths = np.array([d.length for d in docs], dtype=np.float64)[:, None]
    norm = source.k1 * (1 - source.b + source.b * lengths / (avgdl or 1.0))
    return (idf[None, :] * tf * (source.k1 + 1) / (tf + norm)).sum(axis=1)


@dataclass(frozen=True)
class RetrievalScores(ContextStatistics):
    """The responses' own ``score`` (e.g. from BM25 in a retrieval pipeline); idf as in ``ContextStatistics``."""

    def scores(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
               analysis: Analysis) -> np.ndarray:
        """``GenerationResponse.score`` per response (NaN where missing)."""
        return _given_scores(responses)


@dataclass(frozen=True)
class FixedStatistics(StatisticsSource):
    """Given document frequencies over ``document_count`` documents (e.g. from an index); scores from the responses."""

    document_frequencies: tuple[tuple[str, int], ...]
    document_count: int

    @classmethod
    def from_mapping(cls, document_frequencies: Mapping[str, int], document_count: int) -> FixedStatistics:
        """Build from a term -> document frequency mapping."""
        return cls(tuple(sorted(document_frequencies.items())), int(document_count))

    def idf(
        self, request: GenerationRequest, responses: Sequence[GenerationResponse], terms: Sequence[str],
        analysis: Analysis,
    ) -> np.ndarray:
        """BM25 idf from the given frequencies (unknown terms have df 0)."""
        table = dict(self.document_frequencies)
        return bm25_idf(np.array([table.get(t, 0) for t in terms]), self.document_count)

    def scores(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
               analysis: Analysis) -> np.ndarray:
        """``GenerationResponse.score`` per response (NaN where missing)."""
        return _given_scores(responses)



@dataclass(frozen=True)
class IndexStatistics(StatisticsSource):
    """Document frequencies and document count of a PyTerrier index; scores from the responses (``score``).

    ``index``: a pyterrier-pisa ``PisaIndex`` (read from its inverted index files, terms put through the index's
    own tokenizer and stemmer), or an object with Terrier's ``getCollectionStatistics()`` and ``getLexicon()``
    (terms looked up as given). Build it with ``IndexStatistics.of(index)``.
    """

    location: str
    """What the index is (its folder, or its type and id): the identity used in ``repr`` and equality."""
    index: object = field(compare=False, repr=False, default=None)

    @classmethod
    def of(cls, index: object) -> IndexStatistics:
        """The statistics of a PISA index (or its folder) or a Terrier-like index object."""
        from pathlib import Path

        if isinstance(index, (str, os.PathLike)):
            from pyterrier_pisa import PisaIndex

            index = PisaIndex(str(index))
        path = getattr(index, "path", None)
        if path is not None and (Path(path) / "inv.docs").is_file():
            return cls(os.path.abspath(path), index)
        if hasattr(index, "getCollectionStatistics") and hasattr(index, "getLexicon"):
            return cls(f"{type(index).__name__}@{id(index):x}", index)
        raise TypeError(f"IndexStatistics needs a built PisaIndex, its folder, or a Terrier-like index with "
                        f"getCollectionStatistics() and getLexicon(); got {type(index).__name__}")

    @functools.cached_property
    def _table(self) -> tuple[dict[str, int], int]:
        """(term -> document frequency, document count) of the PISA index, read once per instance."""
        from pathlib import Path

        folder = Path(self.location)
        terms = (folder / "fwd.terms").read_text(encoding="utf-8").split("\n")
        postings = np.fromfile(folder / "inv.docs", dtype=np.uint32)
        count, position, df = int(postings[1]), 2, {}
        for term in terms:
            if position >= len(postings):
                break
            length = int(postings[position])
            df[term] = length
            position += 1 + length
        return df, count

    def _pisa(self) -> tuple[dict[str, int], int]:
        return self._table

    def document_count(self) -> int:
        """N, the number of documents in the index."""
        if hasattr(self.index, "getCollectionStatistics"):
            return int(self.index.getCollectionStatistics().getNumberOfDocuments())
        return self._pisa()[1]

    def document_frequency(self, term: str) -> int:
        """df(t): the number of indexed documents containing the term (0 if unknown)."""
        if hasattr(self.index, "getLexicon"):
            entry = self.index.getLexicon().getLexiconEntry(term)
            return 0 if entry is None else int(entry.getDocumentFrequency())
        tokens = self.index.tokenize(term) if hasattr(self.index, "tokenize") else [term]
        return self._pisa()[0].get(tokens[0], 0) if tokens else 0

    def idf(
        self, request: GenerationRequest, responses: Sequence[GenerationResponse], terms: Sequence[str],
        analysis: Analysis,
    ) -> np.ndarray:
        """BM25 idf from the index's document frequencies."""
        return bm25_idf(np.array([self.document_frequency(t) for t in terms]), self.document_count())

    def scores(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
               analysis: Analysis) -> np.ndarray:
        """``GenerationResponse.score`` per response (NaN where missing), e.g. the index's BM25 scores."""
        return _given_scores(responses)
