"""The shared analysis: each text's features computed once (one spaCy pass), each string embedded once.

``Analysis`` is a value the caller can hold: create one (``Analysis(workers=4, max_texts=50_000, store=DIR)``) and
pass it (``axiom.preferences(..., analysis=a)``, the transformers' and ``evaluate_axioms``' ``analysis=``) or set it
for a block (``with Analysis() as a: ...``); otherwise the process default (``default_analysis()``) serves, so
that nothing is analysed twice in one process: a second reranking, a ``pt.Experiment`` of several pipelines or a
re-run notebook cell reuse every per-text result. Every analysis is bounded (least recently used texts dropped
first): ``max_texts`` texts and ``max_mb`` estimated megabytes, by default $IR_RAG_AXIOMS_ANALYSIS_MAX_TEXTS
(100,000) and $IR_RAG_AXIOMS_ANALYSIS_MAX_MB (128); ``default_analysis().clear()`` / ``.close()`` release it.

Thread safety: every method may be called from several threads. Tables are guarded by one lock and the
computations (spaCy, the encoder, other tools) run under a second one, so threads share results but never compute
at the same time; parallelism comes from ``workers`` (processes). Cached values are never changed in place.
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Literal, TypeVar

import numpy as np

from ir_rag_axioms import settings
from ir_rag_axioms.analysis import workers as _workers
from ir_rag_axioms.analysis._keys import TOOL_DISTRIBUTIONS as TOOL_DISTRIBUTIONS  # re-exported
from ir_rag_axioms.analysis._keys import _identities as _identities  # re-exported (axioms.learned)
from ir_rag_axioms.analysis._keys import axiom_identity as axiom_identity  # re-exported
from ir_rag_axioms.analysis._keys import digest as digest  # re-exported
from ir_rag_axioms.analysis._keys import item_key as item_key  # re-exported
from ir_rag_axioms.analysis._keys import matrices_key as matrices_key  # re-exported
from ir_rag_axioms.analysis._keys import memo_key as memo_key  # re-exported
from ir_rag_axioms.analysis._keys import tool_versions as tool_versions  # re-exported
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, load_spacy, sentence_encoder_dimension
from ir_rag_axioms.analysis.workers import PROGRESS_MIN_ITEMS as PROGRESS_MIN_ITEMS  # re-exported
from ir_rag_axioms.analysis.workers import pipes_for as pipes_for  # re-exported

T = TypeVar("T")


def max_text_chars() -> int:
    """Texts longer than this many characters are not analysed: axioms abstain on them (with a warning).

    $IR_RAG_AXIOMS_MAX_TEXT_CHARS, read at call time (a bad value is a ValueError naming it, never an import error).
    """
    return settings.max_text_chars()


def __getattr__(name: str) -> Any:
    """``MAX_TEXT_CHARS``: the limit in effect now (``max_text_chars()``), kept for code that reads the constant."""
    if name == "MAX_TEXT_CHARS":
        return max_text_chars()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

EMBEDDING_BATCH = 16
"""Strings per encoder batch.

Batches are formed here (sorted by length), so any number of workers gives the same vectors. 16 rather than 32:
a per-request call embeds 20-150 strings of mixed lengths (entities and sentences), and smaller batches pad less
(the per-request case of bench_axioms: computation 0.82x on one worker, identical matrices; one bulk job of the
same 1,558 strings: 1.04x).
"""

def is_analysable(text: str) -> bool:
    """Whether a text is non-blank, within ``max_text_chars()`` and valid Unicode (axioms abstain on other texts)."""
    return bool(text.strip()) and len(text) <= max_text_chars() and lone_surrogate(text) is None


def lone_surrogate(text: str) -> int | None:
    """The position of the first lone surrogate of a text (U+D800-DFFF, which spaCy cannot hash), else None.

    Half an emoji, as a JSON string cut inside an escape leaves.
    """
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return None


class Analysis:
    """Per-text results keyed by (kind, configuration) under each text; bounded, optionally persistent, with workers."""

    def __init__(self, *, workers: int | None = None, max_texts: int | None | Literal["env"] = "env",
                 max_mb: float | None | Literal["env"] = "env", store: Any = "env", batch_size: int = 64,
                 max_docs: int = 512, device: str | None = None, precision: str | None = None) -> None:
        """Configure the memo: worker processes, LRU bounds, persistent store and encoder device.

        ``workers``: processes (default: free cores); ``max_texts`` / ``max_mb``: LRU bounds on texts and estimated
        megabytes ("env": the settings; None: unbounded); ``store``: a DiskStore, a directory, None, or "env"
        ($IR_RAG_AXIOMS_CACHE); ``device`` / ``precision``: the sentence encoder's (None: $IR_RAG_AXIOMS_DEVICE,
        else auto; $IR_RAG_AXIOMS_PRECISION, else float32).
        """
        self.workers = settings.positive_int("workers", workers) if workers is not None else None
        settings.env_int(settings.WORKERS_ENV, 0)  # a garbage $IR_RAG_AXIOMS_WORKERS is named now, not at first use
        if max_texts == "env":
            max_texts = settings.analysis_max_texts()
        self.max_texts = settings.positive_int("max_texts", max_texts) if max_texts is not None else None
        if max_mb == "env":
            max_mb = settings.analysis_max_mb()
        self.max_mb = _positive_number("max_mb", max_mb) if max_mb is not None else None
        self.batch_size = settings.positive_int("batch_size", batch_size)
        self.max_docs = settings.positive_int("max_docs", max_docs)
        self.device = settings.encoder_device(device) if device is not None else None
        self.precision = settings.encoder_precision(precision) if precision is not None else None
        settings.encoder_device(), settings.encoder_precision()  # a garbage setting is named now, not at first use
        self._from_env = isinstance(store, str) and store == "env"
        self._env_seen: tuple[str, str] | None = None
        self._store = None if self._from_env else _open_store(store)
        self._entries: OrderedDict[str, dict[Hashable, Any]] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._bytes = 0
        self._docs: OrderedDict[tuple[str, str], tuple[frozenset[str], Any]] = OrderedDict()
        self._lock = threading.RLock()
        self._compute = threading.RLock()
        self._scopes = threading.local()  # per thread: the tokens of the ``with`` blocks entered
        self._pool = _workers.WorkerPool()
        weakref.finalize(self, self._pool.close)  # an analysis dropped without close() stops its workers too
        self.store  # noqa: B018  (opened now: a bad $IR_RAG_AXIOMS_CACHE setting is named at construction)

    def __repr__(self) -> str:
        return (f"Analysis(workers={self.workers}, max_texts={self.max_texts}, max_mb={self.max_mb}, "
                f"texts={len(self._entries)}, mb={self.size_mb():.1f}, "
                f"store={getattr(self.store, 'directory', None)!r})")

    def __len__(self) -> int:
        """Number of texts (and strings) with cached results."""
        return len(self._entries)

    def __bool__(self) -> bool:
        """Always true: an analysis is a thing, also while it holds nothing (``analysis or default`` is safe)."""
        return True

    @property
    def store(self) -> Any:
        """The persistent store (a DiskStore) or None; with ``store="env"``, $IR_RAG_AXIOMS_CACHE as it is now."""
        if self._from_env:
            seen = (os.environ.get(settings.CACHE_ENV, ""), os.environ.get("IR_RAG_AXIOMS_CACHE_MAX_BYTES", ""))
            if seen != self._env_seen:  # set or changed since the last call (a long-lived default sees it)
                self._store, self._env_seen = _open_store("env"), seen
        return self._store

    def size_mb(self) -> float:
        """Estimated megabytes of the results held in memory (values, keys and texts; spaCy Docs not counted)."""
        return self._bytes / 2**20

    @property
    def pool(self) -> _workers.WorkerPool:
        """The worker processes this analysis forks for spaCy work (started on first use, stopped by ``close()``)."""
        return self._pool

    def clear(self) -> None:
        """Forget every result held in memory (the persistent store is kept)."""
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self._bytes = 0
            self._docs.clear()

    def close(self) -> None:
        """Release everything: the results in memory, the worker processes and the persistent store's connection.

        Closing the process default makes ``default_analysis()`` create a new one on next use.
        """
        global _DEFAULT
        self.clear()
        self._pool.close()
        close = getattr(self.store, "close", None)
        if close is not None:
            close()
        with _DEFAULT_LOCK:
            if _DEFAULT is self:
                _DEFAULT = None

    def encoder_device(self) -> str:
        """The encoder's device now: ``device``, else $IR_RAG_AXIOMS_DEVICE, else auto, resolved (``cpu``, ``cuda``)."""
        from ir_rag_axioms.analysis.resources import resolve_device

        return resolve_device(self.device)

    def encoder_precision(self) -> str:
        """The encoder's precision now: ``precision``, else $IR_RAG_AXIOMS_PRECISION, else float32."""
        return settings.encoder_precision(self.precision)

    def worker_count(self) -> int:
        """The number of worker processes to use now (``workers``, else the cores not busy with other work)."""
        return self.workers if self.workers is not None else _workers.default_workers()

    # -- the per-text table ----------------------------------------------------------------------------
    def _get(self, text: str, key: Hashable) -> Any:
        with self._lock:
            entry = self._entries.get(text)
            if entry is None or key not in entry:
                raise KeyError(key)
            self._entries.move_to_end(text)
            return entry[key]

    def _put(self, text: str, key: Hashable, value: Any) -> None:
        size = _approx_bytes(value)
        with self._lock:
            entry = self._entries.get(text)
            if entry is None:
                entry = self._entries[text] = {}
                size += sys.getsizeof(text) + _ENTRY_OVERHEAD
            else:
                self._entries.move_to_end(text)
                if key in entry:
                    size -= _approx_bytes(entry[key])
            entry[key] = value
            self._sizes[text] = self._sizes.get(text, 0) + size
            self._bytes += size
            limit = None if self.max_mb is None else self.max_mb * 2**20
            while len(self._entries) > 1 and (
                    (self.max_texts is not None and len(self._entries) > self.max_texts)
                    or (limit is not None and self._bytes > limit)):
                dropped, _ = self._entries.popitem(last=False)
                self._bytes -= self._sizes.pop(dropped, 0)

    def has(self, text: str, key: Hashable) -> bool:
        """Whether ``key`` is held in memory for ``text``."""
        with self._lock:
            entry = self._entries.get(text)
            return entry is not None and key in entry

    def memo(self, text: str, key: tuple[Hashable, ...], compute: Callable[[], T], persist: bool = False) -> T:
        """The value for (text, key), computing it once (keys come from ``memo_key``).

        ``persist``: also kept in the persistent store (for JSON-compatible values).
        """
        try:
            return self._get(text, key)
        except KeyError:
            pass
        stored = self._stored_memo(text, key) if persist else _MISSING
        if stored is not _MISSING:
            self._put(text, key, stored)
            return stored  # type: ignore[return-value]
        with self._compute:
            try:
                return self._get(text, key)
            except KeyError:
                value = compute()
        self._put(text, key, value)
        if persist and self.store is not None:
            from ir_rag_axioms.analysis.store import namespace, text_key

            self.store.put(namespace("memo", settings.package_version(), *key), text_key(text), value)
        return value

    def _stored_memo(self, text: str, key: tuple[Hashable, ...]) -> Any:
        if self.store is None:
            return _MISSING
        from ir_rag_axioms.analysis.store import namespace, text_key

        return self.store.get(namespace("memo", settings.package_version(), *key), text_key(text), _MISSING)

    # -- features (one spaCy pass per text) --------------------------------------------------------------
    def features(self, model: str, feature: Feature, texts: Sequence[str]) -> list[Any]:
        """``feature`` of each text (computed for the missing ones in one pass); unanalysable texts give None."""
        key = ("feature", model, feature.key)
        found: dict[str, Any] = {}
        for text in dict.fromkeys(t for t in texts if is_analysable(t)):
            try:
                found[text] = self._get(text, key)
            except KeyError:
                pass
        missing = {t: {feature} for t in dict.fromkeys(texts) if is_analysable(t) and t not in found}
        if missing:
            found.update({t: v for (t, _), v in self._fill(model, missing).items()})
        return [found[t] if is_analysable(t) else None for t in texts]

    def compute_features(self, wanted: Iterable[tuple[str, Feature, str]]) -> None:
        """Compute every missing (model, feature, text) in one spaCy pass per model.

        Each text is parsed with the union of its needs.
        """
        plan: dict[str, dict[str, set[Feature]]] = {}
        for model, feature, text in wanted:
            if is_analysable(text) and not self.has(text, ("feature", model, feature.key)):
                plan.setdefault(model, {}).setdefault(text, set()).add(feature)
        for model, by_text in plan.items():
            self._fill(model, by_text)

    def _fill(self, model: str, by_text: dict[str, set[Feature]]) -> dict[tuple[str, Feature], Any]:
        """Values of the wanted features: from the persistent store, else from one parse per text (then stored)."""
        values = self._load_stored(model, by_text)
        stored: dict[str, set[Feature]] = {}
        for text, feature in values:
            stored.setdefault(text, set()).add(feature)
        todo = {t: fs - stored.get(t, set()) for t, fs in by_text.items()}
        todo = {t: fs for t, fs in todo.items() if fs}
        if todo:
            computed = self._parse_features(model, todo)
            self._persist_features(model, computed)
            values.update(computed)
        for (text, feature), value in values.items():
            self._put(text, ("feature", model, feature.key), value)
        return values

    def _load_stored(self, model: str, by_text: dict[str, set[Feature]]) -> dict[tuple[str, Feature], Any]:
        if self.store is None:
            return {}
        from ir_rag_axioms.analysis.store import text_key

        values: dict[tuple[str, Feature], Any] = {}
        for feature in {f for fs in by_text.values() for f in fs}:
            texts = [t for t, fs in by_text.items() if feature in fs]
            found = self.store.get_many(_feature_namespace(model, feature), [text_key(t) for t in texts])
            values.update({(t, feature): found[text_key(t)] for t in texts if text_key(t) in found})
        return values

    def _parse_features(self, model: str, by_text: dict[str, set[Feature]]) -> dict[tuple[str, Feature], Any]:
        """Feature values from one parse per text: in worker processes for large jobs, else in-process from Docs."""
        groups: dict[frozenset[Feature], list[str]] = {}
        for text, needed in by_text.items():
            groups.setdefault(frozenset(needed), []).append(text)
        values: dict[tuple[str, Feature], Any] = {}
        workers = self.worker_count()
        with self._compute:
            for features, texts in groups.items():
                ordered = sorted(features, key=lambda f: repr(f.key))
                if _workers.use_pool(len(texts), workers):
                    rows = _workers.feature_values(model, ordered, texts, self.batch_size, workers,
                                                   self._pool)
                else:  # in-process: Docs kept while there is room; at the bound, parses in a memory zone, dropped
                    rows = self._feature_rows(model, ordered, texts)
                for text, row in zip(texts, rows, strict=True):
                    values.update({(text, f): v for f, v in zip(ordered, row, strict=True)})
        return values

    def _persist_features(self, model: str, values: dict[tuple[str, Feature], Any]) -> None:
        if self.store is None:
            return
        from ir_rag_axioms.analysis.store import text_key

        for feature in {f for _, f in values}:
            self.store.put_many(_feature_namespace(model, feature),
                                {text_key(t): v for (t, f), v in values.items() if f == feature})

    def _feature_rows(self, model: str, features: list[Feature], texts: list[str]) -> list[tuple[Any, ...]]:
        """Feature values of texts in this process: from a kept Doc that has the components, else from a new parse.

        While the Doc cache has room (fewer than ``max_docs``), the texts are parsed once and their Docs kept, so that
        later features of the same texts (the next axiom's) parse nothing. At the bound, the new parse runs in a memory
        zone (``workers.transient``): nothing of it stays in memory (spaCy's vocabulary stops growing); over-long
        texts parse as "".
        """
        needs = {need for f in features for need in f.needs}
        if len(self._docs) < self.max_docs:
            return [tuple(f(doc) for f in features) for doc in self.parse(texts, model, needs)]
        nlp = load_spacy(model)
        pipes = frozenset(p for p in pipes_for(needs) if p in nlp.component_names)
        kept = {t: self._docs[(model, t)][1] for t in texts if self._doc_has(model, t, pipes)}
        todo = [t for t in dict.fromkeys(texts) if t not in kept]
        limit = max_text_chars()
        fresh = _workers.feature_rows(model, features, [t if len(t) <= limit else "" for t in todo], self.batch_size)
        rows = dict(zip(todo, fresh, strict=True))
        return [rows[t] if t in rows else tuple(f(kept[t]) for f in features) for t in texts]

    # -- spaCy Docs on demand (for tools that need the Doc itself) -----------------------------------------
    def parse(self, texts: Sequence[str], model: str, needs: Iterable[str]) -> list[Any]:
        """Parsed spaCy Docs with at least the components for ``needs``.

        Kept in a bounded cache of ``max_docs``; never modify them.
        """
        nlp = load_spacy(model)
        pipes = frozenset(p for p in pipes_for(needs) if p in nlp.component_names)
        with self._compute, _workers.SPACY_LOCK:  # kept Docs: never parsed while a memory zone is open
            docs = {t: self._docs[(model, t)][1] for t in dict.fromkeys(texts) if self._doc_has(model, t, pipes)}
            todo = [t for t in dict.fromkeys(texts) if t not in docs]
            cached = {t: self._docs[(model, t)] for t in todo if (model, t) in self._docs}
            # A Doc parsed before with fewer components gets the entity recognizer (which reads no other component)
            # run on a copy; anything else is parsed anew with the union of the components.
            ner_only = [t for t in todo if t in cached and pipes - cached[t][0] == {"ner"} and _ner_alone(nlp)]
            if ner_only:
                copies = nlp.get_pipe("ner").pipe((cached[t][1].copy() for t in ner_only), batch_size=self.batch_size)
                for text, doc in zip(ner_only, copies, strict=True):
                    docs[text] = self._keep_doc(model, text, cached[text][0] | pipes, doc)
            fresh = [t for t in todo if t not in docs]
            for text, done, doc in _workers.parse_grouped(nlp, fresh, pipes, cached, self.batch_size, max_text_chars):
                docs[text] = self._keep_doc(model, text, done, doc)
            return [docs[t] for t in texts]

    def _doc_has(self, model: str, text: str, pipes: frozenset[str]) -> bool:
        cached = self._docs.get((model, text))
        return cached is not None and pipes <= cached[0]

    def _keep_doc(self, model: str, text: str, pipes: frozenset[str], doc: Any) -> Any:
        with self._lock:
            self._docs[(model, text)] = (pipes, doc)
            self._docs.move_to_end((model, text))
            while len(self._docs) > self.max_docs:
                self._docs.popitem(last=False)
        return doc

    # -- sentence embeddings -------------------------------------------------------------------------------
    def embed(self, strings: Sequence[str], model: str = DEFAULT_SENTENCE_MODEL) -> np.ndarray:
        """Unit-length float32 embeddings (k, d) by the sentence encoder ``model`` (default: all-MiniLM-L6-v2).

        Each unseen string is encoded once, on the analysis' device, in batches sized for it (``EMBEDDING_BATCH``
        on CPU).
        """
        precision = self.encoder_precision()
        key = ("embedding", model) if precision == "float32" else ("embedding", model, precision)
        found: dict[str, np.ndarray] = {}
        for string in dict.fromkeys(strings):
            try:
                found[string] = self._get(string, key)
            except KeyError:
                pass
        todo = [s for s in dict.fromkeys(strings) if s not in found]
        if todo:
            found.update(self._stored_vectors(model, precision, todo))
            todo = [s for s in todo if s not in found]
        if todo:
            from ir_rag_axioms.analysis.resources import encoder_batch_size

            device = self.encoder_device()
            batch = EMBEDDING_BATCH if device == "cpu" else encoder_batch_size(device)
            with self._compute:
                vectors = dict(zip(todo, _workers.encode(model, todo, batch, self.worker_count(), device, precision,
                                                         self._pool), strict=True))
            self._persist_vectors(model, precision, vectors)
            found.update(vectors)
        for string, vector in found.items():
            self._put(string, key, vector)
        if not strings:
            return np.zeros((0, sentence_encoder_dimension(model)), dtype=np.float32)
        return np.stack([found[s] for s in strings])

    def _stored_vectors(self, model: str, precision: str, strings: list[str]) -> dict[str, np.ndarray]:
        if self.store is None:
            return {}
        from ir_rag_axioms.analysis.store import text_key

        stored = self.store.get_many(_embedding_namespace(model, precision), [text_key(s) for s in strings])
        return {s: np.asarray(stored[text_key(s)], dtype=np.float32) for s in strings if text_key(s) in stored}

    def _persist_vectors(self, model: str, precision: str, vectors: dict[str, np.ndarray]) -> None:
        if self.store is None:
            return
        from ir_rag_axioms.analysis.store import text_key

        self.store.put_many(_embedding_namespace(model, precision), {text_key(s): v for s, v in vectors.items()})

    # -- scope -------------------------------------------------------------------------------------------
    def __enter__(self) -> Analysis:
        """Make this the analysis that axioms read and fill inside the ``with`` block (per thread / task)."""
        if not hasattr(self._scopes, "tokens"):
            self._scopes.tokens = []
        self._scopes.tokens.append(_CURRENT.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self._scopes.tokens.pop())


_MISSING = object()
_ENTRY_OVERHEAD = 400
"""Bytes per held text beyond its value sizes (the entry's dict and the table's slot), for the ``max_mb`` estimate."""


def _approx_bytes(value: Any, depth: int = 0) -> int:
    """Estimated bytes of a cached value: arrays by ``nbytes``, containers (4 levels deep) by their items."""
    if isinstance(value, np.ndarray):
        return value.nbytes + 112
    if depth < 4 and isinstance(value, (list, tuple, set, frozenset)):
        return sys.getsizeof(value) + sum(_approx_bytes(item, depth + 1) for item in value)
    if depth < 4 and isinstance(value, dict):
        return sys.getsizeof(value) + sum(_approx_bytes(k, depth + 1) + _approx_bytes(v, depth + 1)
                                          for k, v in value.items())
    return sys.getsizeof(value)


def _positive_number(name: str, value: object) -> float:
    """``value`` as a finite float > 0; TypeError/ValueError naming the parameter otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0 (or None: no bound), got {value!r}")
    return float(value)


def _ner_alone(nlp: Any) -> bool:
    """Whether the pipeline's entity recognizer reads no shared layer (so it can run on an earlier parse)."""
    if "ner" not in nlp.component_names:
        return False
    if "tok2vec" not in nlp.component_names:
        return True
    return "ner" not in getattr(nlp.get_pipe("tok2vec"), "listening_components", ())




def _feature_namespace(model: str, feature: Feature) -> str:
    from ir_rag_axioms.analysis.store import namespace

    return namespace("feature", model, _workers.spacy_version(model), settings.package_version(), *feature.key)


def _embedding_namespace(model: str, precision: str = "float32") -> str:
    from ir_rag_axioms.analysis.store import namespace

    extra = () if precision == "float32" else (precision,)
    return namespace("embedding", model, _workers.encoder_version(), settings.package_version(), *extra)


def _open_store(store: Any) -> Any:
    """A DiskStore from a store, a directory or "env" ($IR_RAG_AXIOMS_CACHE); None for no persistent store."""
    if store is None:
        return None
    from ir_rag_axioms.analysis import store as stores

    if isinstance(store, str) and store == "env":
        return stores.default_store()
    if isinstance(store, stores.DiskStore):
        return store
    return stores.DiskStore(store)


_CURRENT: contextvars.ContextVar[Analysis | None] = contextvars.ContextVar("ir_rag_axioms_analysis", default=None)
_DEFAULT: Analysis | None = None
_DEFAULT_LOCK = threading.Lock()


def scoped_analysis() -> Analysis | None:
    """The analysis set by an enclosing ``with analysis:`` block, if any."""
    return _CURRENT.get()


def default_analysis() -> Analysis:
    """The analysis in effect: the one set by ``with analysis:``, else the process default (created on first use).

    The process default keeps every per-text result for the process' later calls, bounded by the settings'
    LRU bounds; ``default_analysis().clear()`` forgets them, ``.close()`` also drops the default itself.
    """
    global _DEFAULT
    current = _CURRENT.get()
    if current is not None:
        return current
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = Analysis()
        return _DEFAULT


def warn_long(texts: Iterable[str], owner: str) -> None:
    """Warn once per call about texts over ``max_text_chars()`` (they are not analysed; axioms abstain)."""
    limit = max_text_chars()
    long = [t for t in texts if len(t) > limit]
    if long:
        warnings.warn(f"{owner}: {len(long)} text(s) longer than {limit} characters are not analysed and "
                      f"abstain (set {settings.MAX_TEXT_CHARS_ENV} to raise the limit)", stacklevel=3)
