"""Consensus axioms: agreement of a response with the other responses to the same request.

Facts that many independent systems state are likely the facts a good answer needs (the TREC RAG nuggets are such
facts; ranking systems by what the pool of runs agrees on goes back to Soboroff et al., SIGIR 2001); a response
that shares more of them with the crowd of answers is preferred. "The other responses" are the
other members of the candidate set: the ``responses`` passed to ``preferences`` (in a system leaderboard, one
answer per system to one topic). Consensus is therefore computed within the candidate set: the same response gets
another value among other candidates, and with fewer than two candidates (nothing to agree with) every value is
undefined (NaN: the axiom abstains). Blank responses are not counted among the others.

- AGREE1: content-word consensus count: the distinct terms of r that at least ``share`` of the others contain.
- AGREE2: semantic agreement (precision): how well the others support r's sentences, mean max-cosine.
- AGREE3: consensus coverage (recall): how much of the others' sentences r states, mean max-cosine.
- AGREE4: consensus-weighted aspects: r's aspects, each weighted by the share of the others that state it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, is_analysable
from ir_rag_axioms.analysis.features import SENTENCES, TERMS, Feature, aspect_feature
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.text import AspectExtraction
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, Reads, feature_values
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class ConsensusAxiom(FeatureAxiom):
    """A feature axiom whose value of a response depends on the other responses of the candidate set."""

    dimension: ClassVar[str] = "consensus"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline name or path (the offline mirror of en_core_web_sm is found automatically)."""
    undefined: ClassVar[str] = "no other non-blank response in the candidate set to agree with"

    def unit(self) -> Feature:
        """The per-text feature that is compared across responses (terms, sentences, aspects)."""
        return TERMS

    def reads(self) -> tuple[Reads, ...]:
        """The unit feature of every response."""
        return (Reads(self.spacy_model, responses=(self.unit(),)),)

    def units(self, responses: Sequence[GenerationResponse], analysis: Analysis) -> list[tuple[str, ...] | None]:
        """The units of each response (None for unanalysable responses: not counted among the others)."""
        found = feature_values(self.spacy_model, self.unit(), [r.text for r in responses], analysis)
        return [tuple(s for s in f if s.strip()) if f is not None and is_analysable(r.text) else None
                for f, r in zip(found, responses, strict=True)]


class ContentConsensusCountAxiom(ConsensusAxiom):
    """AGREE1: prefer more consensus content words.

    |{w in T(r) : |{o != r : w in T(o)}| >= share x (n - 1)}| with T the distinct content terms (lowercased lemmas
    without stopwords and punctuation) and n - 1 the number of other non-blank responses.
    """

    name: ClassVar[str] = "AGREE1"
    dimension: ClassVar[str] = "consensus"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    share: float = 0.2
    """Least share of the other responses that must contain a term for it to count."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0.0 < self.share <= 1.0:
            raise ValueError(f"AGREE1: share must be in (0, 1], got {self.share!r}")

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The number of distinct content terms that at least ``share`` of the other responses contain."""
        sets = [None if u is None else set(u) for u in self.units(responses, analysis)]
        present = [s for s in sets if s is not None]
        frequency = Counter(w for s in present for w in s)
        others = len(present) - 1
        return np.array([np.nan if s is None or others < 1 else
                         float(sum(frequency[w] - 1 >= self.share * others for w in s)) for s in sets])


class EmbeddedConsensusAxiom(ConsensusAxiom):
    """A consensus axiom on embedded units: cosine similarities of unit vectors of the packaged sentence encoder."""

    sentence_model: str = DEFAULT_SENTENCE_MODEL
    """sentence-transformers model name or path."""

    def reads(self) -> tuple[Reads, ...]:
        """The units of every response, embedded afterwards."""
        return (Reads(self.spacy_model, responses=(self.unit(),), encoder=self.sentence_model),)

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Embed the units of every response in one batch."""
        units = self.units([r for _, responses in items for r in responses], analysis)
        analysis.embed(list(dict.fromkeys(s for u in units if u for s in u)), self.sentence_model)

    def vectors(self, responses: Sequence[GenerationResponse], analysis: Analysis) -> list[np.ndarray | None]:
        """Unit vectors (k, d) of each response's units; None for unanalysable responses, (0, d) without units."""
        out: list[np.ndarray | None] = []
        for units in self.units(responses, analysis):
            if units is None:
                out.append(None)
            elif units:
                out.append(np.asarray(analysis.embed(list(units), self.sentence_model), dtype=np.float64))
            else:
                out.append(np.zeros((0, 1)))
        return out

    def best_matches(self, responses: Sequence[GenerationResponse], analysis: Analysis) -> dict[tuple[int, int],
                                                                                            np.ndarray]:
        """(i, j) -> for each unit of response i its highest cosine to a unit of response j (i != j, both present).

        Zeros where j has no units (empty where i has none); a pair with an unanalysable side is left out. One
        similarity matrix over all units of the candidate set, maximised per block.
        """
        vectors = self.vectors(responses, analysis)
        present = [k for k, v in enumerate(vectors) if v is not None]
        filled = [k for k in present if len(vectors[k])]  # type: ignore[arg-type]
        best: dict[tuple[int, int], np.ndarray] = {}
        if filled:
            stacked = np.vstack([vectors[k] for k in filled])  # type: ignore[misc]
            sizes = np.array([len(vectors[k]) for k in filled])  # type: ignore[arg-type]
            starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            similarity = stacked @ stacked.T
            for a, i in enumerate(filled):
                rows = similarity[starts[a]:starts[a] + sizes[a]]
                maxima = np.maximum.reduceat(rows, starts, axis=1)  # (units of i, filled responses)
                for b, j in enumerate(filled):
                    if i != j:
                        best[i, j] = maxima[:, b]
        for i in present:
            for j in present:
                if i != j and (i, j) not in best:
                    best[i, j] = np.zeros(len(vectors[i]))  # type: ignore[arg-type]
        return best


class SemanticAgreementAxiom(EmbeddedConsensusAxiom):
    """AGREE2: prefer responses whose sentences the other responses support (semantic precision).

    (1 / |S(r)|) sum_{s in S(r)} (1 / (n - 1)) sum_{o != r} max_{s' in S(o)} cos(s, s') >_10%; an other response
    without sentences supports nothing (0); NaN for a response without sentences.
    """

    name: ClassVar[str] = "AGREE2"
    dimension: ClassVar[str] = "consensus"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1

    def unit(self) -> Feature:
        """The sentences."""
        return SENTENCES

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Mean over the response's sentences of the mean over the others of the sentence's best cosine in each."""
        best = self.best_matches(responses, analysis)
        out = []
        for i in range(len(responses)):
            rows = [m for (a, _), m in best.items() if a == i]
            out.append(float(np.mean(np.mean(rows, axis=0))) if rows and len(rows[0]) else np.nan)
        return np.array(out, dtype=np.float64)


class ConsensusCoverageAxiom(EmbeddedConsensusAxiom):
    """AGREE3: prefer responses that state more of what the other responses state (semantic recall).

    (1 / (n - 1)) sum_{o != r} (1 / |S(o)|) sum_{s' in S(o)} max_{s in S(r)} cos(s', s) >_10%; others without
    sentences are left out; a response without sentences covers nothing (0).
    """

    name: ClassVar[str] = "AGREE3"
    dimension: ClassVar[str] = "consensus"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1

    def unit(self) -> Feature:
        """The sentences."""
        return SENTENCES

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Mean over the others (with sentences) of the mean best cosine of their sentences to the response's."""
        best = self.best_matches(responses, analysis)
        out = []
        for i in range(len(responses)):
            covered = [float(np.mean(m)) for (a, b), m in best.items() if b == i and len(m)]
            out.append(float(np.mean(covered)) if covered else np.nan)
        return np.array(out, dtype=np.float64)


class ConsensusAspectAxiom(EmbeddedConsensusAxiom):
    """AGREE4: prefer more aspects that many other responses state.

    sum_{a in ASP(r)} |{o != r : max_{a' in ASP(o)} cos(a, a') >= threshold}| / (n - 1) >_10%, aspects = distinct
    lowercased noun chunks (or entities); an aspect stated by every other response counts 1, by none 0.
    """

    name: ClassVar[str] = "AGREE4"
    dimension: ClassVar[str] = "consensus"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    aspect_extraction: AspectExtraction = "noun_chunks"
    """``"noun_chunks"`` (spaCy noun chunks, lowercased) or ``"entities"`` (spaCy named entities)."""
    threshold: float = 0.8
    """Least cosine at which an other response's aspect states the same aspect (1.0: the same string only)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        aspect_feature(self.aspect_extraction)
        if not -1.0 <= self.threshold <= 1.0:
            raise ValueError(f"AGREE4: threshold must be a cosine in [-1, 1], got {self.threshold!r}")

    def unit(self) -> Feature:
        """The aspects."""
        return aspect_feature(self.aspect_extraction)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The summed share of the other responses stating each of the response's aspects."""
        best = self.best_matches(responses, analysis)
        out = []
        for i in range(len(responses)):
            rows = [m for (a, _), m in best.items() if a == i]
            if not rows:
                out.append(np.nan)
                continue
            # a cosine a hair below 1 for identical strings (float32 vectors) still counts at threshold 1.0
            stated = np.mean([m >= self.threshold - 1e-6 for m in rows], axis=0)
            out.append(float(stated.sum()))
        return np.array(out, dtype=np.float64)

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The response's aspects (their shares are the value's terms)."""
        return {"aspects": self.units([response], analysis)[0]}


AGREE1 = register(ContentConsensusCountAxiom())
AGREE2 = register(SemanticAgreementAxiom())
AGREE3 = register(ConsensusCoverageAxiom())
AGREE4 = register(ConsensusAspectAxiom())
