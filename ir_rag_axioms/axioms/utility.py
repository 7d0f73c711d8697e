"""Utility axioms: ORIG (original rank or score), NOP (never prefers), RANDOM (seeded, antisymmetric)."""

from __future__ import annotations

import hashlib
from typing import ClassVar

import numpy as np

from ir_rag_axioms.axioms.base import ConfigurableAxiom, compare
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


@register
class OriginalAxiom(ConfigurableAxiom):
    """ORIG: prefer the better (lower) original rank where both ranks are known, else the higher score; else 0."""

    name: ClassVar[str] = "ORIG"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """Rank comparison where both ranks exist, score comparison where only scores do."""
        ranks = np.array([np.nan if r.rank is None else float(r.rank) for r in responses])
        scores = np.array([np.nan if r.score is None else float(r.score) for r in responses])
        by_rank = compare(ranks, higher_is_better=False)
        both_ranked = ~np.isnan(ranks)[:, None] & ~np.isnan(ranks)[None, :]
        return np.where(both_ranked, by_rank, compare(scores))


@register
class NopAxiom(ConfigurableAxiom):
    """NOP: never prefer any response (all zeros)."""

    name: ClassVar[str] = "NOP"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """The zero matrix."""
        return np.zeros((len(responses), len(responses)))


@register
class RandomAxiom(ConfigurableAxiom):
    """RANDOM: a seeded random antisymmetric preference.

    P[i, j] uniform in {-1, 0, 1} per unordered pair, P[j, i] = -P[i, j]; seeded by (seed, request id, response ids).
    """

    name: ClassVar[str] = "RANDOM"
    seed: int | None = 0
    """Seed; the same seed gives the same preference for the same pair of ids in any order. None: fresh randomness."""

    def _draw(self, request: GenerationRequest, a: str, b: str, rng: np.random.Generator | None) -> float:
        if rng is not None:
            return float(rng.integers(-1, 2))
        digest = hashlib.blake2b(f"{self.seed}\x00{request.id}\x00{a}\x00{b}".encode(), digest_size=8).digest()
        return float(int.from_bytes(digest, "little") % 3 - 1)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """Antisymmetric random matrix with a zero diagonal."""
        n = len(responses)
        rng = np.random.default_rng() if self.seed is None else None
        prefs = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                a, b = responses[i].id, responses[j].id
                value = self._draw(request, min(a, b), max(a, b), rng)
                prefs[i, j] = value if a <= b else -value
                prefs[j, i] = -prefs[i, j]
        return prefs + 0.0


ORIG = OriginalAxiom()
NOP = NopAxiom()
RANDOM = RandomAxiom()
