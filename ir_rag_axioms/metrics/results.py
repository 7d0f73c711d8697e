"""Metric results: a score in [0, 1], pass/fail, an explanation, the evidence, ``pretty()`` and ``to_dict()``."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["yes", "no", "idk"]
"""A statement's relevance to the query: relevant, irrelevant, ambiguous."""
VERDICTS: tuple[Verdict, ...] = ("yes", "no", "idk")
Preferred = Literal["first", "second", "tie"]
"""A pairwise judgment: the first response, the second, or neither is better on the criterion."""


@dataclass(frozen=True)
class Usage:
    """Tokens of judge answers from the server's ``usage``, and their cost when prices are given (else None)."""

    answers: int = 0
    """Judge answers counted (sent or read from the cache)."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    """What was spent: prompt_tokens x input price + completion_tokens x output price (prices per 1M tokens) of the
    answers the server sent, 0 for answers read from the cache; None without prices, and None (not known) when an
    answer the server sent came without ``usage`` (counted in ``unreported``): its price is unknown, not 0."""
    cached: int = 0
    """Answers read from the cache: their tokens are still counted (paid when they were first asked), at cost 0 now."""
    unreported: int = 0
    """Answers whose server sent no ``usage`` (their tokens are not counted)."""

    @property
    def total_tokens(self) -> int:
        """prompt_tokens + completion_tokens."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        """Field-wise sum; the cost is None when either part's is (no prices, or not known).

        A part without answers (the empty start of a sum) adds no cost, known or not.
        """
        parts = [part for part in (self, other) if part.answers] or [p for p in (self, other) if p.cost is not None]
        cost = None if not parts or any(part.cost is None for part in parts) else sum(p.cost or 0.0 for p in parts)
        return Usage(self.answers + other.answers, self.prompt_tokens + other.prompt_tokens,
                     self.completion_tokens + other.completion_tokens, cost, self.cached + other.cached,
                     self.unreported + other.unreported)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict with total_tokens."""
        return {**dataclasses.asdict(self), "total_tokens": self.total_tokens}


@dataclass(frozen=True)
class StatementVerdict:
    """One statement of an answer with its verdict, the judge's reason and the conversation turn it belongs to."""

    statement: str
    verdict: Verdict
    reason: str = ""
    turn_index: int = 0
    idk_counts: bool = True
    """Whether an "idk" verdict counts as relevant in the score (False with ``penalize_ambiguity=True``)."""

    @property
    def is_relevant(self) -> bool:
        """Whether the score counts the statement: "yes", or "idk" unless ambiguity is penalised (the seed's score)."""
        return self.verdict == "yes" or (self.verdict == "idk" and self.idk_counts)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (the seed's breakdown fields)."""
        return {"statement": self.statement, "verdict": self.verdict, "is_relevant": self.is_relevant,
                "reason": self.reason, "turn_index": self.turn_index}


@dataclass(frozen=True)
class AnswerRelevancyResult:
    """AnswerRelevancy's diagnostics: score = (yes + idk) / statements (idk as 0 when ambiguity is penalised)."""

    score: float
    passed: bool | None
    """score >= threshold; None when the score is undefined (NaN)."""
    threshold: float
    explanation: str
    statement_breakdown: tuple[StatementVerdict, ...]
    evaluated_turns_count: int
    judge: str
    counts: tuple[int, int, int, int] | None = None
    """(yes, no, idk, total) statements; kept when the breakdown is not (``mode="summary"``)."""
    reason: str | None = None
    """The written reason (``include_reason=True``), else None."""
    usage: Usage | None = None
    """Tokens and cost of the LLM judge's answers behind this result (None for the offline judge)."""

    @property
    def overall_score(self) -> float:
        """The seed's name of ``score``."""
        return self.score

    def _count(self, verdict: Verdict) -> int:
        if self.counts is not None:
            return self.counts[VERDICTS.index(verdict)]
        return sum(s.verdict == verdict for s in self.statement_breakdown)

    @property
    def relevant_statements_count(self) -> int:
        """Statements judged "yes"."""
        return self._count("yes")

    @property
    def irrelevant_statements_count(self) -> int:
        """Statements judged "no"."""
        return self._count("no")

    @property
    def ambiguous_statements_count(self) -> int:
        """Statements judged "idk"."""
        return self._count("idk")

    @property
    def total_statements_count(self) -> int:
        """All statements of the evaluated turns."""
        return self.counts[3] if self.counts is not None else len(self.statement_breakdown)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict with the seed's signal fields, plus passed, threshold and judge."""
        return {
            "overall_score": self.score, "passed": self.passed, "threshold": self.threshold,
            "explanation": self.explanation, "relevant_statements_count": self.relevant_statements_count,
            "irrelevant_statements_count": self.irrelevant_statements_count,
            "ambiguous_statements_count": self.ambiguous_statements_count,
            "total_statements_count": self.total_statements_count,
            "statement_breakdown": [s.to_dict() for s in self.statement_breakdown],
            "evaluated_turns_count": self.evaluated_turns_count, "judge": self.judge, "reason": self.reason,
            "usage": None if self.usage is None else self.usage.to_dict(),
        }

    def pretty(self) -> str:
        """A readable summary: score, pass/fail, counts and one line per statement."""
        state = "undefined" if self.passed is None else "PASS" if self.passed else "FAIL"
        lines = [f"AnswerRelevancy: {self.score:.2f} ({state}, threshold "
                 f"{self.threshold:g}; judge {self.judge})", f"  {self.explanation}",
                 f"  statements: {self.total_statements_count} (yes {self.relevant_statements_count}, no "
                 f"{self.irrelevant_statements_count}, idk {self.ambiguous_statements_count}); turns evaluated: "
                 f"{self.evaluated_turns_count}"]
        lines += [f"  [{s.verdict:>3}] (turn {s.turn_index}) {s.statement}" for s in self.statement_breakdown]
        return "\n".join(lines)


@dataclass(frozen=True)
class RubricJudgment:
    """A judge's 1-5 level for one observation (None: undefined), its reason, per-unit details and confidence."""

    level: int | None
    reason: str
    details: tuple[dict[str, Any], ...] = ()
    confidence: float | None = None
    """Share of units the judge could decide (heuristic judge; 1 - idk share), None when the judge does not say."""


@dataclass(frozen=True)
class RubricResult:
    """A 1-5 judged metric: the Boolean observation (level >= threshold, negated if asked) and its evidence.

    ``score`` maps the level linearly to [0, 1] ((level - 1) / 4, our convenience: the specification's observation
    is the Boolean, and the 1-5 level is not a ratio); the raw level, the reason and the threshold are the evidence.
    An undefined observation (no context, no claim, an over-long output) has level None, score NaN, passed None.
    """

    metric: str
    level: int | None
    threshold: int
    negated: bool
    explanation: str
    judge: str
    breakdown: tuple[dict[str, Any], ...] = field(default=())
    confidence: float | None = None
    """Share of the units the judge could decide (None: the judge does not say)."""
    reason: str | None = None
    """The judge's written reason (``include_reason=True``), else None."""
    strict: bool = False
    """``strict_mode``: pass only at level 5 and score 1.0 or 0.0."""
    usage: Usage | None = None
    """Tokens and cost of the LLM judge's answers behind this result (None for the offline judge)."""

    @property
    def score(self) -> float:
        """The level mapped linearly to [0, 1]; NaN when undefined (``strict_mode``: 1.0 at the threshold, else 0.0).

        ``negate`` inverts ``passed``, never the score: the score follows the level in every mode.
        """
        if self.level is None:
            return math.nan
        if self.strict:
            return float(self.level >= self.threshold)
        return (self.level - 1) / 4

    @property
    def defined(self) -> bool:
        """Whether the judge gave a level."""
        return self.level is not None

    @property
    def passed(self) -> bool | None:
        """The Boolean observation: level >= threshold, inverted when negated; None when undefined."""
        return None if self.level is None else (self.level >= self.threshold) != self.negated

    @property
    def evidence(self) -> dict[str, Any]:
        """The raw score, the reason and the threshold, kept beside the observation (and the judge's confidence)."""
        return {"raw_score": self.level, "reason": self.explanation, "threshold": self.threshold,
                "negated": self.negated, "confidence": self.confidence}

    def to_dict(self) -> dict[str, Any]:
        """Plain dict: metric, score, level, passed, evidence, breakdown and judge."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out.update(score=self.score, passed=self.passed, evidence=self.evidence, breakdown=list(self.breakdown),
                   usage=None if self.usage is None else self.usage.to_dict())
        return out

    def pretty(self) -> str:
        """A readable summary: level, score, pass/fail and the reason."""
        negation = ", negated" if self.negated else ""
        if self.level is None:
            return f"{self.metric}: undefined (threshold {self.threshold}{negation}; judge {self.judge})\n  " \
                   f"{self.explanation}"
        return (f"{self.metric}: level {self.level}/5 (score {self.score:.2f}; {'PASS' if self.passed else 'FAIL'}, "
                f"threshold {self.threshold}{negation}; judge {self.judge})\n  {self.explanation}")


@dataclass(frozen=True)
class ContextualResult:
    """ContextualRecall / ContextualPrecision: a score in [0, 1] (NaN when undefined), pass/fail and per-unit verdicts.

    ``breakdown``: one dict per unit (a statement of the reference answer, or a ranked passage) with its verdict
    and reason.
    """

    metric: str
    score: float
    passed: bool | None
    threshold: float
    explanation: str
    judge: str
    breakdown: tuple[dict[str, Any], ...] = ()
    reason: str | None = None
    """The explanation when ``include_reason=True``, else None."""
    usage: Usage | None = None
    """Tokens and cost of the LLM judge's answers behind this result (None for the offline judge)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every field (usage as a dict)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out.update(breakdown=list(self.breakdown), usage=None if self.usage is None else self.usage.to_dict())
        return out

    def pretty(self) -> str:
        """A readable summary: score, pass/fail, the explanation and one line per unit."""
        state = "undefined" if self.passed is None else "PASS" if self.passed else "FAIL"
        lines = [f"{self.metric}: {self.score:.2f} ({state}, threshold {self.threshold:g}; judge {self.judge})",
                 f"  {self.explanation}"]
        lines += [f"  [{row['verdict']:>3}] {row.get('statement') or row.get('node')}" for row in self.breakdown]
        return "\n".join(lines)
