"""The judge interface and the offline judge (shared spaCy parse, packaged sentence encoder, token overlap).

A judge answers three batched questions: the statements of texts, a yes/no/idk verdict per statement for a query, and
a 1-5 level for a RAG rubric. ``OfflineJudge`` is deterministic and runs here; ``LlmJudge`` (``llm.py``) asks an
OpenAI-compatible server. ``default_judge()`` is the LLM judge when one is configured in the environment, else the
offline one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis
from ir_rag_axioms.analysis.features import TERMS
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, DEFAULT_SPACY_MODEL
from ir_rag_axioms.axioms.base import Reads
from ir_rag_axioms.metrics.prompts import RubricName
from ir_rag_axioms.metrics.results import Preferred, RubricJudgment, Verdict
from ir_rag_axioms.metrics.statements import statement_feature

RelevancyMode = Literal["task", "strict"]
"""``task``: helpful related information counts as relevant; ``strict``: only direct answers."""


class Statement(NamedTuple):
    """An atomic statement and, when the offline judge extracted it, its terms (lemmas without stopwords)."""

    text: str
    terms: tuple[str, ...] | None = None


@dataclass(frozen=True)
class RubricCase:
    """One observation for a rubric: the output, and the question or the reference (a text or a list of facts)."""

    output: str
    question: str | None = None
    reference: str | tuple[str, ...] | None = None


class Judge(ABC):
    """Statements, verdicts and 1-5 rubric levels, each for a batch of inputs."""

    @property
    @abstractmethod
    def name(self) -> str:
        """Which judge produced a result (kept in every result)."""

    @abstractmethod
    def statements(self, texts: Sequence[str]) -> list[list[Statement]]:
        """The atomic statements of each text."""

    @abstractmethod
    def verdicts(self, cases: Sequence[tuple[str, Sequence[Statement]]],
                 mode: RelevancyMode) -> list[list[tuple[Verdict, str]]]:
        """For each (query, statements): one (verdict, reason) per statement."""

    @abstractmethod
    def rubric(self, metric: RubricName, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """One 1-5 judgment of ``metric`` per case."""

    def reads(self, metric: str) -> tuple[Reads, ...]:
        """The spaCy features this judge reads for a metric (data for the planner); default: none."""
        return ()

    # -- used by the LLM path (llm.py, running.py, pairwise.py); the offline judge keeps these defaults ---------------
    reports_usage: bool = False
    """Whether results carry the judge's token usage (the LLM judge: True)."""

    def reason(self, query: str, score: float, verdicts: Sequence[tuple[str, str, str]]) -> str:
        """A written reason for an AnswerRelevancy score from its (statement, verdict, reason); default: a template."""
        shown = [f"'{s}' ({v}: {r})" for s, v, r in verdicts if v != "yes"]
        return (f"The score is {score:.2f}: " + ("; ".join(shown) if shown else "every statement is relevant") + ".")

    def pairwise(self, criterion: str, cases: Sequence[tuple[str | None, tuple[str, ...] | None, str, str]]
                 ) -> list[tuple[Preferred, str]]:
        """For each (question, context, first, second): "first", "second" or "tie" on the criterion, and why.

        Default: the offline decision of ``pairwise.offline_pairwise`` (the rubric level of the criterion's metric).
        """
        from ir_rag_axioms.metrics.pairwise import offline_pairwise

        return offline_pairwise(self, criterion, cases)


def level_from_fraction(fraction: float, bands: Sequence[float]) -> int:
    """1 + the number of band edges the fraction reaches (bands (.25, .5, .75, 1): 1 for < .25 ... 5 for 1.0)."""
    return 1 + sum(fraction >= b - 1e-9 for b in bands)


def verdict_of(relevance: float, no_threshold: float, yes_threshold: float) -> Verdict:
    """"no" below ``no_threshold``, "yes" at or above ``yes_threshold``, "idk" between."""
    return "no" if relevance < no_threshold else "yes" if relevance >= yes_threshold else "idk"


def overlap_matrix(left: Sequence[Sequence[str]], right: Sequence[Sequence[str]]) -> np.ndarray:
    """O[i, j] = |terms(left_i) & terms(right_j)| / |terms(left_i)| (0 for a left item without terms)."""
    sets = [set(t) for t in right]
    out = np.zeros((len(left), len(right)))
    for i, terms in enumerate(left):
        mine = set(terms)
        if mine:
            out[i] = [len(mine & other) / len(mine) for other in sets]
    return out


@dataclass(frozen=True, kw_only=True)
class OfflineJudge(Judge):
    """Deterministic judge: statements from the spaCy parse, matches = cosine similarity + weight x token overlap.

    Relevance of a statement s to query q: cos(s, q) + w * |T(s) & T(q)| / |T(q)|. Support of an answer statement:
    its best match over the context statements, cos + w * |T(s) & T(c)| / |T(s)|; coverage of a reference fact: its
    best match (over the fact's statements) against the answer statements, likewise. Thresholds were calibrated on
    the CrowdRAG-25 judgments (``ir_rag_axioms.metrics.calibration``; README "RAG metrics").
    """

    spacy_model: str = DEFAULT_SPACY_MODEL
    sentence_model: str = DEFAULT_SENTENCE_MODEL
    max_clause_words: int = 25
    """Sentences with more words are split into clauses (at ';' and at 'and'/'but' joining clauses)."""
    overlap_weight: float = 0.5
    no_threshold: float = 0.325
    """Relevance below this: "no" (task mode). Calibrated: best effectiveness vs crowd topical correctness among the
    thresholds that reproduce the seed's verdicts."""
    yes_threshold: float = 0.9
    """Relevance at or above this: "yes" (task mode); between the two: "idk". Calibrated: best effectiveness of the
    share of "yes" (``penalize_ambiguity=True``) vs crowd topical correctness."""
    strict_no_threshold: float = 0.6
    """Strict mode: derived, about midway between the task thresholds (not calibrated)."""
    strict_yes_threshold: float = 1.0
    """Strict mode: derived, the task yes threshold + 0.1 (not calibrated)."""
    support_threshold: float = 0.85
    """A statement is supported by the context when its best match reaches this (calibrated vs internal
    consistency)."""
    recall_threshold: float = 0.8
    """A reference fact is covered when its best match in the answer reaches this (calibrated vs broad coverage)."""
    level_bands: tuple[float, ...] = (0.25, 0.5, 0.75, 1.0)
    """Fraction (supported, covered, relevant) -> level: 1 + the number of edges reached."""
    duplicate_threshold: float = 0.9
    """Rubric levels count near-duplicate statements (cosine >= this) once, so repetition cannot raise a level."""

    def __post_init__(self) -> None:
        if not (self.no_threshold <= self.yes_threshold and self.strict_no_threshold <= self.strict_yes_threshold):
            raise ValueError("OfflineJudge: each no threshold must be <= its yes threshold")
        if self.strict_no_threshold < self.no_threshold or self.strict_yes_threshold < self.yes_threshold:
            raise ValueError("OfflineJudge: strict thresholds must be >= the task thresholds (strict is never "
                             "more lenient)")
        if len(self.level_bands) != 4 or list(self.level_bands) != sorted(self.level_bands):
            raise ValueError(f"OfflineJudge: level_bands must be 4 increasing edges, got {self.level_bands!r}")

    @property
    def name(self) -> str:
        """``offline(<encoder>)``."""
        return f"offline({self.sentence_model})"

    @property
    def statement_feature(self) -> Any:
        """The spaCy feature that holds each text's statements with their terms."""
        return statement_feature(self.max_clause_words)

    def reads(self, metric: str) -> tuple[Reads, ...]:
        """Query terms and answer statements; the context's statements (faithfulness, context recall)."""
        statements = (self.statement_feature,)
        context = statements if metric in ("faithfulness", "context_recall") else ()
        request = (TERMS,) if metric in ("answer_relevancy", "rubric_answer_relevancy") else ()
        return (Reads(self.spacy_model, request=request, responses=statements, context=context,
                      encoder=self.sentence_model),)

    # -- the three questions --------------------------------------------------------------------------------
    def statements(self, texts: Sequence[str]) -> list[list[Statement]]:
        """Sentences, bullet items and clauses of long sentences, from the shared parse."""
        found = self._features(self.statement_feature, texts)
        return [[Statement(text, tuple(terms)) for text, terms in value or ()] for value in found]

    def verdicts(self, cases: Sequence[tuple[str, Sequence[Statement]]],
                 mode: RelevancyMode) -> list[list[tuple[Verdict, str]]]:
        """Thresholded relevance of each statement to its query (strict mode: the stricter thresholds)."""
        low, high = ((self.no_threshold, self.yes_threshold) if mode == "task"
                     else (self.strict_no_threshold, self.strict_yes_threshold))
        return [[(verdict_of(r, low, high), f"relevance {r:.3f} (no < {low:g} <= idk < {high:g} <= yes)")
                 for r in scores] for scores in self.relevance(cases)]

    def relevance(self, cases: Sequence[tuple[str, Sequence[Statement]]]) -> list[np.ndarray]:
        """Per case, each statement's relevance cos(s, q) + w * |T(s) & T(q)| / |T(q)|, embedded in one batch."""
        queries = [query for query, _ in cases]
        query_terms = self._terms(queries)
        statements = [[self._with_terms(s) for s in found] for _, found in cases]
        vectors = self._embed(queries + [s.text for found in statements for s in found])
        query_vectors, offset, out = vectors[: len(queries)], len(queries), []
        for k, found in enumerate(statements):
            own = vectors[offset: offset + len(found)]
            offset += len(found)
            overlap = overlap_matrix([query_terms[k]], [s.terms or () for s in found])[0]
            out.append(own @ query_vectors[k] + self.overlap_weight * overlap)
        return out

    def rubric(self, metric: RubricName, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """A level from the share of supported statements, covered facts or relevant (yes or idk) statements."""
        if metric == "answer_relevancy":
            return self._relevancy_levels(cases)
        fractions = self.support(cases) if metric == "faithfulness" else self.coverage(cases)
        unit, verb = ("statement", "supported by the context") if metric == "faithfulness" else (
            "reference fact", "covered by the output")
        threshold = self.support_threshold if metric == "faithfulness" else self.recall_threshold
        return [self._level(units, scores, matches, threshold, unit, verb) for units, scores, matches in fractions]

    # -- matching -----------------------------------------------------------------------------------------------
    def support(self, cases: Sequence[RubricCase]) -> list[tuple[list[str], np.ndarray, list[str]]]:
        """Per case: the output's distinct statements, each one's best match score and the matched context sentence."""
        outputs = self._distinct(self.statements([c.output for c in cases]))
        references = [self._reference_units(c.reference) for c in cases]
        return self._best_matches(outputs, references)

    def coverage(self, cases: Sequence[RubricCase]) -> list[tuple[list[str], np.ndarray, list[str]]]:
        """Per case: the reference facts, each one's best match score (over its statements) and the matched output.

        A list's items are the facts, a text's statements are; a fact's score is the best match of any of its
        statements against the output's statements.
        """
        facts = [self._facts(c.reference) for c in cases]
        outputs = self.statements([c.output for c in cases])
        units = [[u for _, fact_units in found for u in fact_units] for found in facts]
        out = []
        for found, (_, scores, matches) in zip(facts, self._best_matches(units, outputs), strict=True):
            bounds = np.cumsum([0, *(len(fact_units) for _, fact_units in found)])
            best = [int(a + np.argmax(scores[a:b])) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
            out.append(([text for text, _ in found], scores[best], [matches[i] for i in best]))
        return out

    def _best_matches(self, left: list[list[Statement]], right: list[list[Statement]]
                      ) -> list[tuple[list[str], np.ndarray, list[str]]]:
        vectors = iter(self._embed([s.text for group in (*left, *right) for s in group]))
        left_vectors = [np.array([next(vectors) for _ in group]) for group in left]
        right_vectors = [np.array([next(vectors) for _ in group]) for group in right]
        out = []
        for units, targets, lv, rv in zip(left, right, left_vectors, right_vectors, strict=True):
            if not units or not targets:
                out.append(([u.text for u in units], np.zeros(len(units)), [""] * len(units)))
                continue
            scores = lv @ rv.T + self.overlap_weight * overlap_matrix([u.terms or () for u in units],
                                                                      [t.terms or () for t in targets])
            best = scores.argmax(axis=1)
            out.append(([u.text for u in units], scores.max(axis=1), [targets[b].text for b in best]))
        return out

    def _relevancy_levels(self, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        statements = self._distinct(self.statements([c.output for c in cases]))
        verdicts = self.verdicts([(c.question or "", s) for c, s in zip(cases, statements, strict=True)], "task")
        out = []
        for found, judged in zip(statements, verdicts, strict=True):
            counts = {v: sum(j[0] == v for j in judged) for v in ("yes", "no", "idk")}
            fraction = (counts["yes"] + counts["idk"]) / len(judged) if judged else 0.0
            level = level_from_fraction(fraction, self.level_bands)
            details = tuple({"statement": s.text, "verdict": j[0], "reason": j[1]}
                            for s, j in zip(found, judged, strict=True))
            reason = (f"{counts['yes']} yes, {counts['idk']} idk, {counts['no']} no of {len(judged)} distinct "
                      f"statements (relevant share {fraction:.2f} -> level {level})")
            out.append(RubricJudgment(level, reason, details))
        return out

    def _level(self, units: list[str], scores: np.ndarray, matches: list[str], threshold: float, unit: str,
               verb: str) -> RubricJudgment:
        ok = scores >= threshold
        fraction = float(ok.mean()) if len(units) else 0.0
        level = level_from_fraction(fraction, self.level_bands)
        details = tuple({unit: u, "best_match": m, "score": round(float(s), 4), "ok": bool(o)}
                        for u, m, s, o in zip(units, matches, scores, ok, strict=True))
        reason = (f"{int(ok.sum())} of {len(units)} {unit}s {verb} (best match >= {threshold:g}); share "
                  f"{fraction:.2f} -> level {level}")
        return RubricJudgment(level, reason, details)

    # -- helpers ------------------------------------------------------------------------------------------------
    def _reference_units(self, reference: str | tuple[str, ...] | None) -> list[Statement]:
        """The statements of a context text or of every passage of a list."""
        if reference is None:
            return []
        texts = [reference] if isinstance(reference, str) else list(reference)
        return [s for found in self.statements(texts) for s in found]

    def _facts(self, reference: str | tuple[str, ...] | None) -> list[tuple[str, list[Statement]]]:
        """(fact, its statements) of each non-blank list item (an item without statements stands for itself).

        A text's facts are its statements.
        """
        if reference is None:
            return []
        if isinstance(reference, str):
            return [(s.text, [s]) for s in self.statements([reference])[0]]
        items = [r for r in reference if r.strip()]
        return [(item, found or [Statement(item, ())]) for item, found in
                zip(items, self.statements(items), strict=True)]

    def _distinct(self, groups: list[list[Statement]]) -> list[list[Statement]]:
        """Each group without near-duplicate statements (cosine >= ``duplicate_threshold`` to an earlier one)."""
        vectors = iter(self._embed([s.text for group in groups for s in group]))
        out = []
        for group in groups:
            kept: list[Statement] = []
            kept_vectors: list[np.ndarray] = []
            for statement in group:
                vector = next(vectors)
                if not any(float(vector @ v) >= self.duplicate_threshold for v in kept_vectors):
                    kept.append(statement)
                    kept_vectors.append(vector)
            out.append(kept)
        return out

    def _with_terms(self, statement: Statement) -> Statement:
        return statement if statement.terms is not None else Statement(statement.text, self._terms([statement.text])[0])

    def _terms(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        return [tuple(t or ()) for t in self._features(TERMS, texts)]

    def _features(self, feature: Any, texts: Sequence[str]) -> list[Any]:
        """A feature of each text from the shared analysis, asked for in chunks of at most ``max_docs`` texts.

        (An in-process parse of more texts than the analysis keeps Docs for loses the first ones on this branch.)
        """
        analysis, texts = default_analysis(), list(texts)
        step = analysis.max_docs
        return [v for start in range(0, len(texts), step)
                for v in analysis.features(self.spacy_model, feature, texts[start:start + step])]

    def _embed(self, strings: Sequence[str]) -> np.ndarray:
        return default_analysis().embed(list(strings), self.sentence_model)


def default_judge() -> Judge:
    """The LLM judge if the environment configures one (base URL and model), else the offline judge."""
    from ir_rag_axioms.metrics.llm import LlmJudge, configured

    return LlmJudge() if configured() else OFFLINE_JUDGE


OFFLINE_JUDGE = OfflineJudge()
"""The offline judge with the calibrated thresholds."""
