"""How the heuristic judge matches statements: cosine plus weighted term overlap, each fact credited, duplicates.

Match of statements s and c: cos(s, c) + w * |T(s) & T(c)| / |T(s)|; the judge passes its encoder (``embed``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ir_rag_axioms.metrics.interface import Statement
from ir_rag_axioms.metrics.statements import Facts

Embed = Callable[[Sequence[str]], np.ndarray]
"""The judge's sentence encoder: unit vectors of strings, one row each."""


def overlap_matrix(left: Sequence[Sequence[str]], right: Sequence[Sequence[str]]) -> np.ndarray:
    """O[i, j] = |terms(left_i) & terms(right_j)| / |terms(left_i)| (0 for a left item without terms)."""
    sets = [set(t) for t in right]
    out = np.zeros((len(left), len(right)))
    for i, terms in enumerate(left):
        mine = set(terms)
        if mine:
            out[i] = [len(mine & other) / len(mine) for other in sets]
    return out


def credited(found: list[tuple[str, list[Statement]]], answer: list[Statement], embed: Embed, overlap_weight: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """Per statement of every fact: the best match score over the answer statements and which one it is.

    A fact is credited to an answer statement that says what sets it apart from the other facts (a term of its
    own, such as "caffeine" beside "green tea has catechins") whenever one does, so the breakdown names the
    sentence that states the fact, not the most similar one about another fact. There the terms the fact shares
    with the other facts (their topic: "green tea") count as said when the answer says them anywhere: an answer's
    topic carries across its sentences ("A cup has about 30 mg of caffeine").
    """
    units = [u for _, fact_units in found for u in fact_units]
    if not units or not answer:
        return np.zeros(len(units)), np.zeros(len(units), dtype=int)
    vectors = embed([u.matched_text for u in units] + [s.matched_text for s in answer])
    left, right = vectors[: len(units)], vectors[len(units):]
    matrix = left @ right.T + overlap_weight * overlap_matrix([u.terms or () for u in units],
                                                              [s.terms or () for s in answer])
    terms = [{t for u in fact_units for t in u.terms or ()} for _, fact_units in found]
    answer_terms = [set(s.terms or ()) for s in answer]
    said = set().union(*answer_terms)
    row = 0
    for k, (_, fact_units) in enumerate(found):
        own = terms[k] - set().union(*(t for j, t in enumerate(terms) if j != k))
        if len(found) > 1:
            _credit_own(matrix[row: row + len(fact_units)], fact_units, own, (terms[k] - own) & said, answer_terms,
                        overlap_weight)
        row += len(fact_units)
    return matrix.max(axis=1), matrix.argmax(axis=1)


def _credit_own(block: np.ndarray, fact_units: list[Statement], own: set[str], topic: set[str],
                answer_terms: list[set[str]], overlap_weight: float) -> None:
    """Credit a fact to the answer statements that say a term of its ``own`` (its rows ``block``, changed in place).

    Where some do, each of them gains w * |T(u) & topic - T(s)| / |T(u)| per fact statement u (the fact's ``topic``
    terms said elsewhere in the answer count as said), and the answer statements that do not are ruled out (-inf).
    """
    stating = np.array([bool(own & t) for t in answer_terms])
    if not own or not stating.any():
        return
    for i, unit in enumerate(fact_units):
        mine = set(unit.terms or ())
        for j in np.flatnonzero(stating):
            extra = len(mine & topic - answer_terms[j])
            block[i, j] += overlap_weight * extra / len(mine) if mine else 0.0
    if not stating.all():
        block[:, ~stating] = -np.inf


def match(left: list[list[Statement]], right: Sequence[Sequence[tuple[Statement, int]]], embed: Embed,
          overlap_weight: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per group: each left statement's best match score over the right ones, that match's index, all scores."""
    vectors = iter(embed([s.matched_text for group in left for s in group]
                         + [s.matched_text for group in right for s, _ in group]))
    left_vectors = [np.array([next(vectors) for _ in group]) for group in left]
    right_vectors = [np.array([next(vectors) for _ in group]) for group in right]
    out = []
    for units, targets, lv, rv in zip(left, right, left_vectors, right_vectors, strict=True):
        if not units or not targets:
            out.append((np.zeros(len(units)), np.zeros(len(units), dtype=int), np.zeros((len(units), 0))))
            continue
        scores = lv @ rv.T + overlap_weight * overlap_matrix([u.terms or () for u in units],
                                                             [t.terms or () for t, _ in targets])
        out.append((scores.max(axis=1), scores.argmax(axis=1), scores))
    return out


def distinct(groups: list[list[Statement]], embed: Embed, threshold: float) -> list[list[Statement]]:
    """Each group without near-duplicates: cosine >= ``threshold`` to an earlier statement that ``said`` the same.

    "It is 330 m tall." and "It is 300 m tall." are two statements, in either order.
    """
    vectors = iter(embed([s.text for group in groups for s in group]))
    out = []
    for group in groups:
        kept: list[tuple[Statement, np.ndarray]] = []
        for statement in group:
            vector = next(vectors)
            if not any(float(vector @ v) >= threshold and said(statement) == said(s) for s, v in kept):
                kept.append((statement, vector))
        out.append([s for s, _ in kept])
    return out


def said(statement: Statement) -> tuple[frozenset[Any], ...]:
    """What a near-duplicate must say the same: the numbers (values and units), names and negated words.

    Names by their texts: spaCy may label one name two ways in one answer ("Moon" PERSON, then PROPN).
    """
    facts = statement.facts or Facts()
    return (frozenset((low, high, unit) for low, high, unit, _ in facts.numbers),
            frozenset(name for name, _ in facts.entities), frozenset(facts.negated))
