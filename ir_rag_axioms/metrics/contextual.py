"""RAGAS's and DeepEval's context recall and context precision, under their own names beside the seed's ContextRecall.

``ContextualRecall``: is the reference answer found in the retrieved context? Score = statements of the reference
answer (``expected_output``) that the retrieval context supports / statements. ``ContextualPrecision``: are the
passages relevant to the reference answer ranked high? Score = (1 / R) * sum over ranks k of rel_k * (relevant in
the top k) / k, R the number of relevant passages (0 when none is). Both judge the retriever; the seed's
``ContextRecall`` (are the reference facts used in the *output*?) judges the generator.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ir_rag_axioms.analysis.cache import max_text_chars
from ir_rag_axioms.metrics.dataset import DatasetItem
from ir_rag_axioms.metrics.interface import Judge
from ir_rag_axioms.metrics.llm import default_judge
from ir_rag_axioms.metrics.metrics import too_long, too_long_reference
from ir_rag_axioms.metrics.results import ContextualResult, Usage
from ir_rag_axioms.metrics.running import (
    JudgedMetric,
    at_case,
    case_of,
    check_number,
    check_text,
    foreign_reasons,
    passages,
    with_usage,
)
from ir_rag_axioms.metrics.statements import has_statement_text


def _passages(value: Sequence[str] | None, owner: str) -> tuple[str, ...]:
    """The retrieval context as a tuple of passages (a single string is refused: it is not a ranking).

    A passage that is not a text (None or NaN: a missing value) is a TypeError naming its position.
    """
    if value is None:
        return ()
    if isinstance(value, str):
        raise TypeError(f"{owner}: retrieval_context must be a list of passages in rank order, not one string")
    return passages(value, owner, "retrieval context")


@dataclass(frozen=True, kw_only=True)
class _ContextualMetric(JudgedMetric):
    """Shared options: a threshold on the [0, 1] score (1 in ``strict_mode``, where the score is then 1 or 0)."""

    threshold: float = 0.5
    judge: Judge | None = None
    name: ClassVar[str] = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        check_number(type(self).__name__, "threshold", self.threshold, 0, 1)

    @property
    def effective_threshold(self) -> float:
        """The threshold results use: 1.0 in ``strict_mode``, else ``threshold``."""
        return 1.0 if self.strict_mode else float(self.threshold)

    def _result(self, score: float, explanation: str, judge: Judge, rows: list[dict[str, Any]],
                usage: Usage | None) -> ContextualResult:
        threshold = self.effective_threshold
        if not math.isnan(score) and self.strict_mode and score < threshold:
            score = 0.0
        passed = None if math.isnan(score) else score >= threshold
        return ContextualResult(metric=self.name, score=score, passed=passed, threshold=threshold,
                                explanation=explanation, judge=judge.name, breakdown=tuple(rows),
                                reason=explanation if self.include_reason else None, usage=usage)

    def _judged(self, judge: Judge, checked: Sequence[Any], blank: str,
                parts: Callable[[int], dict[str, Sequence[str]]], ask: Callable[[list[Any]], list[Any]]
                ) -> tuple[list[str | None], dict[int, tuple[Any, Usage | None]]]:
        """Why each case is not judged (None: it is), and case k -> (answer, usage) of the others, asked in one batch.

        ``checked`` cases end with (expected output, retrieval context). Not judged: a text over the limit (warned),
        no expected output (``blank``), no context (blank passages count as none), a script the judge does not read.
        """
        owner = type(self).__name__
        expected, contexts = [case[-2] for case in checked], [case[-1] for case in checked]
        long = too_long(expected, owner, "expected output")
        long_context = too_long_reference(contexts, owner)
        limit = max_text_chars()
        why = [f"the expected output is longer than {limit} characters (not judged)" if flag else
               f"a text of the retrieval context is longer than {limit} characters (not judged)" if flag_context else
               blank if not has_statement_text(text) else
               "no retrieval context" if not any(map(has_statement_text, context)) else None
               for text, context, flag, flag_context in zip(expected, contexts, long, long_context, strict=True)]
        asked = [k for k, w in enumerate(why) if w is None]
        foreign = foreign_reasons(judge, owner, [parts(k) for k in asked], stacklevel=5)
        for k, reason in zip(asked, foreign, strict=True):
            why[k] = reason
        asked = [k for k, w in enumerate(why) if w is None]
        with case_of(asked, len(checked), owner):
            found, usages = with_usage(judge, len(asked), lambda: ask([checked[k] for k in asked]) if asked else [])
        return why, dict(zip(asked, zip(found, usages, strict=True), strict=True))

    def _undefined(self, why: str, judge: Judge) -> ContextualResult:
        return self._result(math.nan, why if why.startswith("undefined: ") else f"undefined: {why}", judge, [], None)


@dataclass(frozen=True, kw_only=True)
class ContextualRecall(_ContextualMetric):
    """RAGAS / DeepEval context recall: statements of the expected output the retrieval context supports / statements.

    Unlike the seed's ``ContextRecall`` (reference facts used in the answer), this reads no answer: it asks whether
    the retriever found what the reference answer needs. "idk" (the judge cannot tell) counts as not found.
    """

    name: ClassVar[str] = "contextual_recall"

    def measure(self, expected_output: str, retrieval_context: Sequence[str]) -> ContextualResult:
        """Judge one reference answer against the retrieved passages."""
        return self.measure_many([(expected_output, retrieval_context)])[0]

    def measure_many(self, cases: Sequence[tuple[str, Sequence[str]]]) -> list[ContextualResult]:
        """Judge many (expected output, retrieval context) pairs with one batched judge call."""
        judge = self.judge or default_judge()
        checked = []
        for k, (expected, context) in enumerate(cases):
            with at_case(k, len(cases), "ContextualRecall"):
                check_text("ContextualRecall", expected_output=expected)
                checked.append((expected, _passages(context, "ContextualRecall")))
        why, judged = self._judged(judge, checked, "no expected output to look for", lambda k: {
            "expected output": [checked[k][0]], "retrieval context": checked[k][1]}, judge.attributions)
        return self._log([self._undefined(reason, judge) if reason else self._recall(*judged[k], judge)
                          for k, reason in enumerate(why)])

    def _recall(self, verdicts: Sequence[tuple[str, str, str]], usage: Usage | None, judge: Judge
                ) -> ContextualResult:
        """One case's result: supported statements / statements, the missing ones named (at most three)."""
        rows = [{"statement": s, "verdict": v, "reason": r} for s, v, r in verdicts]
        if not rows:
            return self._undefined(f"the judge ({judge.name}) found no statement in the expected output", judge)
        yes = [r["statement"] for r in rows if r["verdict"] == "yes"]
        missing = [r["statement"] for r in rows if r["verdict"] != "yes"]
        score = len(yes) / len(rows)
        explanation = (f"The score is {score:.2f} because {len(yes)} of the {len(rows)} statements of the expected "
                       f"output are supported by the retrieval context{_not_found(missing)}.")
        return self._result(score, explanation, judge, rows, usage)

    def measure_items(self, items: Sequence[DatasetItem]) -> list[ContextualResult]:
        """Judge ``DatasetItem``s: ``expected_output`` against ``retrieved_content``."""
        for item in items:
            item.need("ContextualRecall", "expected_output", "retrieved_content")
        return self.measure_many([(i.expected_output or "", i.retrieved_content or ()) for i in items])


def precision_at_relevant(relevant: Sequence[bool]) -> float:
    """(1 / R) * sum_k rel_k * (relevant in the top k) / k over ranks k = 1..n; 0.0 when no passage is relevant."""
    hits, total = 0, 0.0
    for k, rel in enumerate(relevant, start=1):
        if rel:
            hits += 1
            total += hits / k
    return total / hits if hits else 0.0


@dataclass(frozen=True, kw_only=True)
class ContextualPrecision(_ContextualMetric):
    """RAGAS / DeepEval context precision: are the passages that lead to the expected output ranked high?

    Score = (1 / R) * sum_k rel_k * precision@k over the retrieval context in rank order (R relevant passages; 0
    when none is relevant). "idk" counts as not relevant.
    """

    name: ClassVar[str] = "contextual_precision"

    def measure(self, query: str, expected_output: str, retrieval_context: Sequence[str]) -> ContextualResult:
        """Judge one ranked retrieval context for a query and its reference answer."""
        return self.measure_many([(query, expected_output, retrieval_context)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str, Sequence[str]]]) -> list[ContextualResult]:
        """Judge many (query, expected output, retrieval context) triples with one batched judge call."""
        judge = self.judge or default_judge()
        checked = []
        for k, (query, expected, context) in enumerate(cases):
            with at_case(k, len(cases), "ContextualPrecision"):
                check_text("ContextualPrecision", query=query, expected_output=expected)
                checked.append((query, expected, _passages(context, "ContextualPrecision")))
        why, judged = self._judged(judge, checked, "no expected output to judge the passages by", lambda k: {
            "expected output": [checked[k][1]], "query": [checked[k][0]], "retrieval context": checked[k][2]},
            judge.node_relevance)
        return self._log([self._undefined(reason, judge) if reason else self._precision(context, *judged[k], judge)
                          for k, (reason, (_, _, context)) in enumerate(zip(why, checked, strict=True))])

    def _precision(self, context: Sequence[str], verdicts: Sequence[tuple[str, str]], usage: Usage | None,
                   judge: Judge) -> ContextualResult:
        """One case's result: precision at the relevant ranks, the ranks named."""
        rows = [{"rank": r, "node": p, "verdict": v, "reason": why}
                for r, (p, (v, why)) in enumerate(zip(context, verdicts, strict=True), start=1)]
        score = precision_at_relevant([row["verdict"] == "yes" for row in rows])
        ranks = [str(row["rank"]) for row in rows if row["verdict"] == "yes"]
        explanation = (f"The score is {score:.2f} because " + (
            f"the relevant passages are at rank{'s' if len(ranks) > 1 else ''} {', '.join(ranks)} of "
            f"{len(rows)}" if ranks else f"none of the {len(rows)} passages leads to the expected output") + ".")
        return self._result(score, explanation, judge, rows, usage)

    def measure_items(self, items: Sequence[DatasetItem]) -> list[ContextualResult]:
        """Judge ``DatasetItem``s: ``retrieved_content`` (in rank order) for ``query`` and ``expected_output``."""
        for item in items:
            item.need("ContextualPrecision", "query", "expected_output", "retrieved_content")
        return self.measure_many([(i.query or "", i.expected_output or "", i.retrieved_content or ())
                                  for i in items])


def _not_found(missing: Sequence[str]) -> str:
    """"; not found: 'a'; 'b'; 'c' and N more" for the statements the context lacks, or nothing."""
    if not missing:
        return ""
    more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
    return f"; not found: {'; '.join(repr(m) for m in missing[:3])}{more}"
