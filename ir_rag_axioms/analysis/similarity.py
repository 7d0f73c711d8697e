"""Term similarity sources for REG, ANTI-REG, STMC1 and STMC2: WordNet (default) or word embeddings.

``WordNetTermSimilarity`` reproduces the reference's default (``WordNetSynonymSetTermSimilarity(smoothing=0)``:
Wu-Palmer similarity of the terms' first synsets; 100 % identical GEN_REG and GEN_STMC1 matrices). It reads WordNet
3.0 from NLTK's data path or from Debian's ``wordnet-base`` package (``/usr/share/wordnet``), so it works offline.
The reference switches to fastText when that is installed; we never change defaults with what is installed, and
offer ``EmbeddingTermSimilarity`` (cosine of the packaged all-MiniLM-L6-v2 embeddings) as the explicit alternative.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from ir_rag_axioms import settings
from ir_rag_axioms.analysis.cache import Analysis, memo_key
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, ToolUnavailableError

WORDNET_ENV = settings.WORDNET_ENV
"""Environment variable with a WordNet 3.0 database directory (``data.noun``, ``index.noun``, ...)."""

_WORDNET_DIRS = ("/usr/share/wordnet",)
_LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
    "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
    "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
    "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
_WORDNET_HELP = (
    "WordNet 3.0 data is needed for the default term similarity. Install it with "
    "`apt-get install wordnet-base` (Debian/Ubuntu; files in /usr/share/wordnet), or NLTK's "
    f"`python -m nltk.downloader wordnet`, or point {WORDNET_ENV} to a WordNet database directory; "
    "or pass similarity=EmbeddingTermSimilarity() to use word embeddings instead."
)


class TermSimilarity(ABC):
    """sim(t, t') for terms; ``matrix(a, b, analysis)`` gives all pairwise similarities at once (kept in analysis)."""

    @abstractmethod
    def matrix(self, first: Sequence[str], second: Sequence[str], analysis: Analysis) -> np.ndarray:
        """The (len(first), len(second)) similarity matrix."""

    def prefetch(self, terms: Sequence[str], analysis: Analysis) -> None:
        """Prepare (e.g. embed in one batch) every term that will be compared (default: nothing)."""
        return None  # an optional hook, not abstract: most similarities need no preparation


def _wordnet_root() -> Path:
    env = settings.env_text(WORDNET_ENV)
    candidates = [env] if env else []
    try:
        import nltk

        for base in nltk.data.path:
            candidates.append(str(Path(base) / "corpora" / "wordnet"))
    except ImportError:  # pragma: no cover
        pass
    candidates += list(_WORDNET_DIRS)
    for candidate in candidates:
        path = Path(candidate)
        if (path / "data.noun").exists() and (path / "index.noun").exists():
            return path
    raise ToolUnavailableError(_WORDNET_HELP)


@lru_cache(maxsize=1)
def load_wordnet() -> Any:
    """An NLTK WordNet reader over the installed WordNet 3.0 files (adds NLTK's ``lexnames`` if missing)."""
    try:
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ImportError as error:  # pragma: no cover
        raise ToolUnavailableError("WordNet term similarity needs nltk: `pip install nltk`.") from error

    class _WordNetReader(WordNetCorpusReader):
        def map_wn(self, version: str = "wordnet") -> None:  # no OMW mapping needed (English synsets only)
            return None

        def get_version(self) -> str:  # NLTK re-reads data.adj on every call (each similarity): read once
            if not hasattr(self, "_ir_rag_axioms_version"):
                self._ir_rag_axioms_version = super().get_version()
            return self._ir_rag_axioms_version

    root = _wordnet_root()
    if not (root / "lexnames").exists():  # Debian's wordnet-base ships no lexnames file: copy, add one
        shadow = Path(tempfile.gettempdir()) / f"ir_rag_axioms_wordnet_{os.getuid()}"
        shadow.mkdir(exist_ok=True)
        for source in root.iterdir():
            target = shadow / source.name
            if source.is_file() and source.name.split(".")[0] in {"data", "index", "adj", "adv", "noun", "verb"} \
                    and (target.is_symlink() or not target.exists()):
                target.unlink(missing_ok=True)
                shutil.copyfile(source, target)
        lexnames = shadow / "lexnames"
        if not lexnames.exists():
            lexnames.write_text("".join(f"{i:02d}\t{n}\t{n.split('.')[0][:3]}\n" for i, n in enumerate(_LEXNAMES)))
        root = shadow
    import nltk

    for allowed in {str(root), str(root.resolve()), str(_wordnet_root().resolve())}:
        if allowed not in nltk.data.path:  # NLTK only reads corpora below its data path
            nltk.data.path.append(allowed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "multilingual functions are not available"
        return _WordNetReader(str(root), None)


@dataclass(frozen=True)
class WordNetTermSimilarity(TermSimilarity):
    """Term similarity as the mean Wu-Palmer similarity of WordNet synsets.

    sim(t, t') = mean Wu-Palmer similarity of the first 1 + smoothing WordNet synsets of t and t' (0 without synsets).
    """

    smoothing: int = 0

    def matrix(self, first: Sequence[str], second: Sequence[str], analysis: Analysis) -> np.ndarray:
        """All pairwise similarities (each term pair computed once per analysis)."""
        out = np.zeros((len(first), len(second)))
        for i, a in enumerate(first):
            for j, b in enumerate(second):
                low, high = (a, b) if a <= b else (b, a)
                out[i, j] = analysis.memo(low, memo_key("wup", high, self.smoothing),
                                          partial(_wup, low, high, self.smoothing))
        return out


@lru_cache(maxsize=200_000)
def _synsets(term: str, count: int) -> tuple[Any, ...]:
    """The first ``count`` synsets of ``wordnet.synsets(term)``, without loading the others (same order)."""
    from nltk.corpus.reader.wordnet import POS_LIST

    wordnet = load_wordnet()
    lemma = term.lower()
    index = wordnet._lemma_pos_offset_map
    found = (
        (pos, offset)
        for pos in POS_LIST
        for form in wordnet._morphy(lemma, pos, True)
        for offset in index[form].get(pos, [])
    )
    return tuple(wordnet.synset_from_pos_and_offset(p, o) for p, o in itertools.islice(found, count))


def _wup(a: str, b: str, smoothing: int) -> float:
    first, second = _synsets(a, smoothing + 1), _synsets(b, smoothing + 1)
    if not first or not second:
        return 0.0
    values = [_wup_synsets(x, y) or 0.0 for x in first for y in second]
    return float(sum(values) / len(values))


_ROOT = "*ROOT*"


@lru_cache(maxsize=200_000)
def _hypernym_distances(synset: Any, simulate_root: bool) -> dict[str, int]:
    """Synset name -> shortest hypernym distance (NLTK's ``_shortest_hypernym_paths``, keyed by name, cached)."""
    return {s.name(): d for s, d in synset._shortest_hypernym_paths(simulate_root).items()} if simulate_root \
        else {s.name(): d for s, d in synset._shortest_hypernym_paths(False).items()}


def _distance(synset: Any, subsumer_name: str, subsumer_paths: dict[str, int], simulate_root: bool) -> float | None:
    if synset.name() == subsumer_name:
        return 0
    paths = _hypernym_distances(synset, simulate_root)
    best = min((d + subsumer_paths[name] for name, d in paths.items() if name in subsumer_paths), default=None)
    return best


def _wup_synsets(first: Any, second: Any) -> float | None:
    """NLTK's ``Synset.wup_similarity`` (simulate_root=True, WordNet 3.0) with per-synset caches; same values."""
    need_root = first.pos() != "n" or second.pos() != "n"
    common = list(first.common_hypernyms(second))
    candidates = [(s.min_depth(), s.name(), s) for s in common]
    if need_root:
        candidates.append((0, _ROOT, None))
    if not candidates:
        return None
    deepest = max(c[0] for c in candidates)
    subsumers = sorted((c for c in candidates if c[0] == deepest), key=lambda c: c[1])
    chosen = next((c for c in subsumers if c[1] == first.name()), subsumers[0])
    len1: float | None
    len2: float | None
    if chosen[2] is None:  # the simulated root above all taxonomies
        depth = 1
        len1 = max(_hypernym_distances(first, True).values())
        len2 = max(_hypernym_distances(second, True).values())
    else:
        subsumer = chosen[2]
        depth = subsumer.max_depth() + 1
        subsumer_paths = _hypernym_distances(subsumer, need_root)
        len1 = _distance(first, subsumer.name(), subsumer_paths, need_root)
        len2 = _distance(second, subsumer.name(), subsumer_paths, need_root)
        if len1 is None or len2 is None:
            return None
    return (2.0 * depth) / (len1 + depth + len2 + depth)


@dataclass(frozen=True)
class EmbeddingTermSimilarity(TermSimilarity):
    """sim(t, t') = cosine of the sentence-encoder embeddings of the two terms (each term embedded once)."""

    model: str = DEFAULT_SENTENCE_MODEL

    def prefetch(self, terms: Sequence[str], analysis: Analysis) -> None:
        """Embed all unseen terms in one batch."""
        analysis.embed(list(dict.fromkeys(terms)), self.model)

    def matrix(self, first: Sequence[str], second: Sequence[str], analysis: Analysis) -> np.ndarray:
        """Cosine similarities of unit vectors."""
        if not first or not second:
            return np.zeros((len(first), len(second)))
        return analysis.embed(list(first), self.model).astype(np.float64) @ analysis.embed(
            list(second), self.model).astype(np.float64).T
