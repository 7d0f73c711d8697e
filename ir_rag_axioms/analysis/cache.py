"""The shared analysis: each unique text is parsed once and each unique string embedded once, memoised by content."""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
import warnings
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

T = TypeVar("T")

MAX_TEXT_CHARS = int(os.environ.get("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "200000"))
"""Texts longer than this many characters are not analysed: axioms abstain on them (with a warning)."""

PROGRESS_MIN_ITEMS = 500
"""Batches of at least this many texts show a tqdm progress bar (set TQDM_DISABLE=1 to hide all bars)."""

_PIPES_FOR_NEED: dict[str, frozenset[str]] = {
    "lemmas": frozenset({"tok2vec", "tagger", "attribute_ruler", "lemmatizer"}),
    "parse": frozenset({"tok2vec", "tagger", "attribute_ruler", "lemmatizer", "parser"}),
    "ents": frozenset({"ner"}),
}
"""spaCy components per analysis need: lemmas (terms), parse (sentences, dependencies, noun chunks), ents."""


def pipes_for(needs: Iterable[str]) -> frozenset[str]:
    """The spaCy component names that produce the given needs (``lemmas``, ``parse``, ``ents``)."""
    pipes: set[str] = set()
    for need in needs:
        if need not in _PIPES_FOR_NEED:
            raise ValueError(f"unknown spaCy need {need!r}; use one of {sorted(_PIPES_FOR_NEED)}")
        pipes |= _PIPES_FOR_NEED[need]
    return frozenset(pipes)


@contextlib.contextmanager
def _torch_threads() -> Iterator[None]:
    """Run torch with IR_RAG_AXIOMS_TORCH_THREADS threads (default 1), then restore the previous setting.

    Small-batch inference of a small encoder gains little from more threads, and with any other busy process
    on the machine (spaCy workers, a second job) torch's spinning threads slow it down tenfold.
    """
    import torch

    wanted = int(os.environ.get("IR_RAG_AXIOMS_TORCH_THREADS", "1"))
    previous = torch.get_num_threads()
    if wanted > 0 and wanted != previous:
        torch.set_num_threads(wanted)
    try:
        yield
    finally:
        if wanted > 0 and wanted != previous:
            torch.set_num_threads(previous)


def _listeners(nlp: Any) -> set[str]:
    """Components that read the shared tok2vec layer of a pipeline."""
    if "tok2vec" not in nlp.component_names:
        return set()
    return set(getattr(nlp.get_pipe("tok2vec"), "listening_components", ()))


def is_analysable(text: str) -> bool:
    """Whether a text is non-blank and within ``MAX_TEXT_CHARS`` (axioms abstain on other texts)."""
    return bool(text.strip()) and len(text) <= MAX_TEXT_CHARS


class Analysis:
    """Memo of per-text analysis results keyed by (tool configuration, text), filled in batches."""

    def __init__(self, spacy_processes: int | None = None, batch_size: int = 64) -> None:
        self.spacy_processes = spacy_processes
        self.batch_size = batch_size
        self._docs: dict[tuple[str, str], tuple[frozenset[str], Any]] = {}
        self._vectors: dict[tuple[str, str], np.ndarray] = {}
        self._memo: dict[Hashable, Any] = {}
        self._lock = threading.RLock()
        self._warned_long = False
        self._tokens: list[contextvars.Token[Analysis | None]] = []

    def clear(self) -> None:
        """Forget every cached result."""
        with self._lock:
            self._docs.clear()
            self._vectors.clear()
            self._memo.clear()

    # -- spaCy ----------------------------------------------------------------------------------------
    def parse(self, texts: Sequence[str], model: str, needs: Iterable[str]) -> list[Any]:
        """spaCy Docs for ``texts`` with at least the components for ``needs``; unseen texts are parsed in one batch."""
        pipes = pipes_for(needs)
        nlp = load_spacy(model)
        pipes = frozenset(p for p in pipes if p in nlp.component_names)
        todo: list[str] = []
        seen: set[str] = set()
        for text in texts:
            cached = self._docs.get((model, text))
            if (cached is None or not pipes <= cached[0]) and text not in seen:
                seen.add(text)
                todo.append(text)
        if todo:
            self._parse_into_cache(todo, model, pipes)
        return [self._docs[(model, text)][1] for text in texts]

    def _parse_into_cache(self, texts: list[str], model: str, pipes: frozenset[str]) -> None:
        nlp = load_spacy(model)
        long = [t for t in texts if len(t) > MAX_TEXT_CHARS]
        if long and not self._warned_long:
            warnings.warn(
                f"{len(long)} text(s) longer than {MAX_TEXT_CHARS} characters are not analysed; axioms "
                "abstain on them (set IR_RAG_AXIOMS_MAX_TEXT_CHARS to change the limit)",
                stacklevel=3,
            )
            self._warned_long = True
        # A Doc parsed before with fewer components: the named entity recognizer, which reads no other
        # component, runs on it alone; anything else means a new parse with all components (later components
        # read earlier ones, e.g. the attribute ruler reads the parse, and lemmas are not overwritten).
        ner_only: list[str] = []
        fresh: list[str] = []
        for text in texts:
            cached = self._docs.get((model, text))
            if cached is not None and pipes - cached[0] == {"ner"} and "ner" not in _listeners(nlp):
                ner_only.append(text)
            else:
                fresh.append(text)
        if fresh:
            union = pipes.union(*(self._docs[(model, t)][0] for t in fresh if (model, t) in self._docs))
            inputs = [t if len(t) <= MAX_TEXT_CHARS else "" for t in fresh]
            disable = [name for name in nlp.pipe_names if name not in union]
            docs = nlp.pipe(inputs, disable=disable, batch_size=self.batch_size, n_process=self._processes(len(fresh)))
            if len(fresh) >= PROGRESS_MIN_ITEMS:
                from tqdm.auto import tqdm

                docs = tqdm(docs, total=len(fresh), desc=f"spaCy {model} ({', '.join(sorted(union))})", leave=False)
            self._store(model, fresh, docs, union)
        if ner_only:
            docs = nlp.get_pipe("ner").pipe((self._docs[(model, t)][1] for t in ner_only), batch_size=self.batch_size)
            self._store(model, ner_only, docs, pipes)

    def _store(self, model: str, texts: Sequence[str], docs: Iterable[Any], pipes: frozenset[str]) -> None:
        with self._lock:
            for text, doc in zip(texts, docs, strict=True):
                previous = self._docs.get((model, text))
                done = pipes | previous[0] if previous else pipes
                doc.tensor = np.zeros((0,), dtype=np.float32)  # tok2vec output: recomputed if ever needed again
                self._docs[(model, text)] = (frozenset(done), doc)

    def _processes(self, count: int) -> int:
        processes = self.spacy_processes
        if processes is None:
            processes = int(os.environ.get("IR_RAG_AXIOMS_SPACY_PROCESSES", "1"))
        return processes if count >= 200 and processes > 1 else 1

    # -- sentence embeddings -------------------------------------------------------------------------
    def embed(self, strings: Sequence[str], model: str) -> np.ndarray:
        """Unit-length embeddings (k, d) of ``strings``; each unseen string is encoded once, in one batch."""
        todo = list(dict.fromkeys(s for s in strings if (model, s) not in self._vectors))
        if todo:
            encoder = load_sentence_encoder(model)
            with _torch_threads():
                vectors = encoder.encode(
                    todo, batch_size=32, convert_to_numpy=True, normalize_embeddings=True,
                    show_progress_bar=len(todo) >= 4 * PROGRESS_MIN_ITEMS,
                )
            with self._lock:
                for string, vector in zip(todo, vectors, strict=True):
                    self._vectors[(model, string)] = vector.astype(np.float32)
        if not strings:
            return np.zeros((0, self._dimension(model)), dtype=np.float32)
        return np.stack([self._vectors[(model, s)] for s in strings])

    def _dimension(self, model: str) -> int:
        encoder = load_sentence_encoder(model)
        dim = encoder.get_sentence_embedding_dimension()
        return int(dim) if dim else 0

    # -- anything else -------------------------------------------------------------------------------
    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """Return the cached value for ``key``, computing it once."""
        try:
            return self._memo[key]
        except KeyError:
            value = compute()
            with self._lock:
                self._memo[key] = value
            return value

    def has(self, key: Hashable) -> bool:
        """Whether ``memo`` holds ``key``."""
        return key in self._memo


    # -- scope ---------------------------------------------------------------------------------------------
    def __enter__(self) -> Analysis:
        """Make this the analysis that axioms read and fill inside the ``with`` block (per thread / task)."""
        self._tokens.append(_CURRENT.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self._tokens.pop())


_CURRENT: contextvars.ContextVar[Analysis | None] = contextvars.ContextVar("ir_rag_axioms_analysis", default=None)
_DEFAULT: Analysis | None = None


def default_analysis() -> Analysis:
    """The analysis in effect: the one set by ``with analysis:``, else the process default (created on first use)."""
    global _DEFAULT
    current = _CURRENT.get()
    if current is not None:
        return current
    if _DEFAULT is None:
        _DEFAULT = Analysis()
    return _DEFAULT
