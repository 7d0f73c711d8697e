"""AnswerRelevancy (statement verdicts) and the 1-5 judged Faithfulness, RubricAnswerRelevancy and ContextRecall.

Each metric is a frozen configuration with ``measure(...)`` for one observation and ``measure_many(...)`` for a batch
(one batched judge call per step). ``judge=None`` uses ``default_judge()``: an LLM judge when the environment
configures one, else the offline judge.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from ir_rag_axioms.metrics.judges import Judge, RelevancyMode, RubricCase, default_judge
from ir_rag_axioms.metrics.prompts import RubricName
from ir_rag_axioms.metrics.results import AnswerRelevancyResult, RubricResult, StatementVerdict, Usage, Verdict
from ir_rag_axioms.metrics.running import JudgedMetric, check_text, with_usage

MultiTurnStrategy = Literal["last_turn", "all_turns"]
"""Conversations: evaluate the last user -> assistant exchange, or all of them (micro-averaged)."""
Conversation = Sequence[tuple[str, str]]
"""(role, content) messages; roles ``user``/``human`` and ``assistant``/``ai``."""

_USER, _ASSISTANT = frozenset({"user", "human"}), frozenset({"assistant", "ai"})


def turns(conversation: Conversation) -> list[tuple[str, str]]:
    """The (user message, assistant answer) exchanges: each assistant message with the user message before it."""
    out, question = [], None
    for role, content in conversation:
        role = role.lower()
        if role in _USER:
            question = content
        elif role in _ASSISTANT:
            if question is None:
                raise ValueError("conversation: an assistant message comes before any user message")
            out.append((question, content))
            question = None
        else:
            raise ValueError(f"conversation: unknown role {role!r}; use 'user' and 'assistant'")
    if not out:
        raise ValueError("conversation: no user -> assistant exchange to evaluate")
    return out


@dataclass(frozen=True, kw_only=True)
class AnswerRelevancy(JudgedMetric):
    """Share of an answer's statements relevant to the query: (yes + idk) / statements (idk 0 if penalised)."""

    relevancy_mode: RelevancyMode = "task"
    penalize_ambiguity: bool = False
    multi_turn_strategy: MultiTurnStrategy = "last_turn"
    threshold: float = 0.5
    judge: Judge | None = None
    name: ClassVar[str] = "answer_relevancy"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.relevancy_mode not in ("task", "strict"):
            raise ValueError(f"relevancy_mode must be 'task' or 'strict', got {self.relevancy_mode!r}")
        if self.multi_turn_strategy not in ("last_turn", "all_turns"):
            raise ValueError(f"multi_turn_strategy must be 'last_turn' or 'all_turns', got "
                             f"{self.multi_turn_strategy!r}")
        if not 0 <= self.threshold <= 1:
            raise ValueError(f"threshold must be in [0, 1], got {self.threshold!r}")

    def measure(self, query: str | None = None, answer: str | None = None, *,
                conversation: Conversation | None = None) -> AnswerRelevancyResult:
        """Score one answer to a query, or a conversation (``multi_turn_strategy`` picks the turns)."""
        if conversation is not None:
            exchanges = turns(conversation)
            first = len(exchanges) - 1 if self.multi_turn_strategy == "last_turn" else 0
            return self._score(exchanges[first:], first=first)[0]
        if query is None or answer is None:
            raise TypeError("AnswerRelevancy.measure needs a query and an answer, or conversation=[(role, text), ...]")
        return self.measure_many([(query, answer)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str]]) -> list[AnswerRelevancyResult]:
        """Score many (query, answer) pairs with batched judge calls."""
        cases = list(cases)
        for k, case in enumerate(cases):
            if not isinstance(case, tuple | list) or len(case) != 2:
                raise TypeError(f"AnswerRelevancy.measure_many: case {k} must be a (query, answer) pair, got "
                                f"{case!r:.60}")
            check_text("AnswerRelevancy", query=case[0], answer=case[1])
        return self._score(cases, grouped=False)

    @property
    def effective_threshold(self) -> float:
        """The threshold results use: 1.0 in ``strict_mode``, else ``threshold``."""
        return 1.0 if self.strict_mode else self.threshold

    def _score(self, exchanges: list[tuple[str, str]], grouped: bool = True,
               first: int = 0) -> list[AnswerRelevancyResult]:
        """One result for all exchanges (``grouped``: turns micro-averaged, numbered from ``first``) or one each."""
        judge = self.judge or default_judge()

        def ask() -> list[list[tuple[Verdict, str]]]:
            found = judge.statements([answer for _, answer in exchanges])
            statements.extend(found)
            return judge.verdicts([(q, s) for (q, _), s in zip(exchanges, found, strict=True)], self.relevancy_mode)

        statements: list = []
        verdicts, usages = with_usage(judge, 1 if grouped else len(exchanges), ask)
        rows = [[StatementVerdict(s.text, v, reason, turn) for s, (v, reason) in zip(found, judged, strict=True)]
                for turn, (found, judged) in enumerate(zip(statements, verdicts, strict=True), start=first)]
        if grouped:
            return [self._result([r for row in rows for r in row], len(exchanges), judge, exchanges[-1][0],
                                 usages[0], blank=all(not a.strip() for _, a in exchanges))]
        return [self._result([dataclasses.replace(r, turn_index=0) for r in row], 1, judge, query, usage,
                             blank=not answer.strip())
                for row, (query, answer), usage in zip(rows, exchanges, usages, strict=True)]

    def _result(self, breakdown: list[StatementVerdict], turns_count: int, judge: Judge, query: str,
                usage: Usage | None, blank: bool) -> AnswerRelevancyResult:
        """The score, strict mode, the explanation and (``include_reason``) the written reason of one result.

        No statements: a blank answer scores 0.0 (it addresses nothing; DeepEval scores 1, as no statement is
        irrelevant); a non-blank answer in which the judge finds no statement is undefined, NaN with the reason (the
        judge could not read it: 0 would report it as the worst answer).
        """
        yes = sum(r.verdict == "yes" for r in breakdown)
        idk = sum(r.verdict == "idk" for r in breakdown)
        counted = yes + (0 if self.penalize_ambiguity else idk)
        threshold = self.effective_threshold
        if not breakdown:
            blank_text = ("The score is 0.00 because the answer is blank (no statements): it addresses nothing "
                          "(DeepEval scores 1 here, as no statement is irrelevant).")
            unread_text = (f"The score is undefined (NaN) because the judge ({judge.name}) found no statements in "
                           "the answer: nothing to judge relevant or irrelevant.")
            score, explanation = (0.0, blank_text) if blank else (math.nan, unread_text)
            return AnswerRelevancyResult(score=score, passed=False, threshold=threshold, explanation=explanation,
                                         statement_breakdown=(), evaluated_turns_count=turns_count,
                                         judge=judge.name, reason=explanation if self.include_reason else None,
                                         usage=usage)
        score = counted / len(breakdown)
        if self.strict_mode and score < threshold:
            score = 0.0
        explanation = (f"The score is {score:.2f} because {counted} of {len(breakdown)} statements count as "
                       f"relevant ({yes} yes, {idk} idk{' counted as 0' if self.penalize_ambiguity and idk else ''}"
                       f", {len(breakdown) - yes - idk} no; {self.relevancy_mode} mode"
                       f"{'; strict mode: 1 only if all count' if self.strict_mode else ''}).")
        reason = None
        if self.include_reason:
            triples = [(r.statement, r.verdict, r.reason) for r in breakdown]
            reasons, extra = with_usage(judge, 1, lambda: [judge.reason(query, score, triples)])
            reason = reasons[0]
            if usage is not None and extra[0] is not None:
                usage += extra[0]
        return AnswerRelevancyResult(score=score, passed=score >= threshold, threshold=threshold,
                                     explanation=explanation, statement_breakdown=tuple(breakdown),
                                     evaluated_turns_count=turns_count, judge=judge.name, reason=reason, usage=usage)


@dataclass(frozen=True, kw_only=True)
class RubricMetric(JudgedMetric):
    """A 1-5 judged RAG metric: one judge call per observation; passed = level >= threshold (inverted if negated)."""

    threshold: int = 3
    negate: bool = False
    judge: Judge | None = None
    name: ClassVar[str] = ""
    rubric: ClassVar[RubricName]

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int) or not 1 <= self.threshold <= 5:
            raise ValueError(f"{type(self).__name__}: threshold must be an integer level 1-5, got {self.threshold!r}")

    def measure_cases(self, cases: Sequence[RubricCase]) -> list[RubricResult]:
        """Judge many observations (one batched judge call)."""
        judge = self.judge or default_judge()
        cases = list(cases)
        judged, usages = with_usage(judge, len(cases), lambda: judge.rubric(self.rubric, cases))
        threshold = 5 if self.strict_mode else self.threshold
        return [RubricResult(metric=self.name, level=j.level, threshold=threshold, negated=self.negate,
                             explanation=j.reason, judge=judge.name, breakdown=j.details,
                             reason=j.reason if self.include_reason else None, strict=self.strict_mode, usage=usage)
                for j, usage in zip(judged, usages, strict=True)]


def as_reference(value: str | Sequence[str]) -> str | tuple[str, ...]:
    """A context or reference as a text or a tuple of passages (facts)."""
    return value if isinstance(value, str) else tuple(str(v) for v in value)


@dataclass(frozen=True, kw_only=True)
class Faithfulness(RubricMetric):
    """Is the answer supported by the given context (a text or a list of passages)? 5 = all supported."""

    name: ClassVar[str] = "faithfulness"
    rubric: ClassVar[RubricName] = "faithfulness"

    def measure(self, answer: str, context: str | Sequence[str]) -> RubricResult:
        """Judge one answer against its context."""
        check_text("Faithfulness", answer=answer)
        return self.measure_many([(answer, context)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str | Sequence[str]]]) -> list[RubricResult]:
        """Judge many (answer, context) pairs."""
        return self.measure_cases([RubricCase(answer, reference=as_reference(context)) for answer, context in cases])


@dataclass(frozen=True, kw_only=True)
class ContextRecall(RubricMetric):
    """Are the given reference facts (a text, or a list of facts) used in the answer? 5 = all covered."""

    name: ClassVar[str] = "context_recall"
    rubric: ClassVar[RubricName] = "context_recall"

    def measure(self, answer: str, reference: str | Sequence[str]) -> RubricResult:
        """Judge one answer against its reference facts."""
        check_text("ContextRecall", answer=answer)
        return self.measure_many([(answer, reference)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str | Sequence[str]]]) -> list[RubricResult]:
        """Judge many (answer, reference) pairs."""
        return self.measure_cases([RubricCase(answer, reference=as_reference(ref)) for answer, ref in cases])


@dataclass(frozen=True, kw_only=True)
class RubricAnswerRelevancy(RubricMetric):
    """Does the answer answer the question? 5 = completely and on topic, 1 = off topic or a refusal."""

    name: ClassVar[str] = "rubric_answer_relevancy"
    rubric: ClassVar[RubricName] = "answer_relevancy"

    def measure(self, query: str, answer: str) -> RubricResult:
        """Judge one answer to a query."""
        check_text("RubricAnswerRelevancy", query=query, answer=answer)
        return self.measure_many([(query, answer)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str]]) -> list[RubricResult]:
        """Judge many (query, answer) pairs."""
        return self.measure_cases([RubricCase(answer, question=query) for query, answer in cases])
