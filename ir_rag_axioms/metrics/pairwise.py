"""LLM_PAIRWISE: ask a judge which of two responses better satisfies one named, narrow criterion.

The specification's roadmap: "axioms that ask an LLM for a pairwise preference on a specific, narrow criterion, with
caching by default". Each pair is asked in both orders (A = i, B = j and A = j, B = i) to cancel position bias: i is
preferred only when both answers prefer i; when they disagree (or either says tie) the pair ties. The LLM judge
caches every answer by content (base URL, model, messages), so a rerun sends no request. ``judge="offline"`` (the
default, deterministic) decides criteria about faithfulness, relevance or coverage by the offline judge's 1-5 level
of the matching metric; ``judge="llm"`` asks the LLM judge of the environment any criterion.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, is_analysable, max_text_chars
from ir_rag_axioms.axioms.base import ConfigurableAxiom, Item, Reads, check_responses
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY, Explanation, rule_of
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.metrics.axioms import JudgeName, judge_named, llm_judge_identity
from ir_rag_axioms.metrics.interface import (
    OFFLINE_CRITERIA,
    PairCase,
    offline_direction,
    offline_metric,
    offline_pairwise,
)
from ir_rag_axioms.metrics.judges import OFFLINE_JUDGE, Judge
from ir_rag_axioms.metrics.results import Preferred
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, context_of

__all__ = ["LLM_PAIRWISE", "MAX_CRITERION_CHARS", "OFFLINE_CRITERIA", "PairCase", "PairwiseJudgeAxiom",
           "offline_direction", "offline_metric", "offline_pairwise"]

MAX_CRITERION_CHARS = 500
"""Longest criterion: one narrow criterion, not a rubric."""

_COMBINED: dict[tuple[Preferred, Preferred], float] = {("first", "second"): 1.0, ("second", "first"): -1.0}
"""(answer with i as A, answer with i as B) -> P[i, j]: +1 if i wins both times, -1 if j does; any other pair 0."""


class PairwiseJudgeAxiom(ConfigurableAxiom):
    """LLM_PAIRWISE: prefer the response the judge finds better on the criterion in both orders; tie otherwise."""

    name: ClassVar[str] = "LLM_PAIRWISE"
    dimension: ClassVar[str] = "metric"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    criterion: str = "faithfulness to the context"
    """The one narrow criterion the judge compares, in words (e.g. "answer relevancy to the question")."""
    judge: JudgeName = "offline"
    """"offline": the offline judge's level of the criterion's metric; "llm": the LLM judge of the environment."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.criterion.strip() or len(self.criterion) > MAX_CRITERION_CHARS:
            raise ValueError(f"LLM_PAIRWISE: criterion must be a non-blank text of at most {MAX_CRITERION_CHARS} "
                             f"characters, got {self.criterion!r:.80}")
        if self.judge not in ("offline", "llm"):
            raise ValueError(f"LLM_PAIRWISE: judge must be 'offline' or 'llm', got {self.judge!r}")
        if self.judge == "offline":
            if offline_metric(self.criterion) is None:
                offline_pairwise(OFFLINE_JUDGE, self.criterion, [])  # raises the ValueError that says what to do
            offline_direction(self.criterion)  # an ambiguous direction ("hallucination") raises here, before any work

    def judge_instance(self) -> Judge:
        """The offline judge, or the ``LlmJudge`` of the environment (raises with instructions if none is set)."""
        return judge_named(self.judge)

    def cache_identity(self) -> dict[str, str] | None:
        """What results depend on besides the configuration: the LLM judge's base URL and model (judge="llm")."""
        return llm_judge_identity() if self.judge == "llm" else None

    def reads(self) -> tuple[Reads, ...]:
        """What the offline judge reads from spaCy for the criterion's metric (nothing for the LLM judge)."""
        metric = offline_metric(self.criterion)
        return OFFLINE_JUDGE.reads(metric) if self.judge == "offline" and metric else ()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """LLM judge: every pair of every item asked in one batch (concurrent requests; the answers are cached)."""
        if self.judge == "llm":
            judge = self.judge_instance()  # unconfigured: ToolUnavailableError here, before any work
            cases = [case for request, responses in items for case in self._cases(request, list(responses))[1]]
            if cases:
                judge.pairwise(self.criterion, cases)

    def _cases(self, request: GenerationRequest, responses: list[GenerationResponse],
               pairs: Sequence[tuple[int, int]] | None = None) -> tuple[list[tuple[int, int]], list[PairCase]]:
        """The pairs i < j of analysable responses and their two questions each (i first, then j first)."""
        usable = [is_analysable(r.text) for r in responses]
        n = len(responses)
        wanted = [(i, j) for i in range(n) for j in range(i + 1, n)] if pairs is None else \
            sorted({(min(i, j), max(i, j)) for i, j in pairs if i != j})
        asked = [(i, j) for i, j in wanted if usable[i] and usable[j]]
        cases: list[PairCase] = []
        for i, j in asked:
            context = _pair_context(request, responses[i], responses[j])
            cases += [(request.text, context, responses[i].text, responses[j].text),
                      (request.text, context, responses[j].text, responses[i].text)]
        return asked, cases

    def _decisions(self, request: GenerationRequest, responses: list[GenerationResponse],
                   pairs: Sequence[tuple[int, int]] | None = None
                   ) -> dict[tuple[int, int], tuple[float, tuple[Preferred, str], tuple[Preferred, str]]]:
        """(i, j) with i < j -> (P[i, j], the answer with i first, the answer with j first)."""
        asked, cases = self._cases(request, responses, pairs)
        answers = self.judge_instance().pairwise(self.criterion, cases) if cases else []
        return {pair: (_COMBINED.get((answers[2 * k][0], answers[2 * k + 1][0]), 0.0), answers[2 * k],
                       answers[2 * k + 1]) for k, pair in enumerate(asked)}

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """P[i, j] = +1 if the judge prefers i in both orders, -1 if j in both, else 0; unanalysable responses tie."""
        too_long = [r.id for r in responses if len(r.text) > max_text_chars()]
        if too_long:
            warnings.warn(f"{self!r}: response(s) {too_long} longer than {max_text_chars()} characters are not judged "
                          "and abstain (set IR_RAG_AXIOMS_MAX_TEXT_CHARS to raise the limit)", stacklevel=3)
        matrix = np.zeros((len(responses), len(responses)))
        for (i, j), (value, _, _) in self._decisions(request, responses).items():
            matrix[i, j], matrix[j, i] = value, -value + 0.0
        return matrix

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """Both orders' answers and reasons; an abstention for blank or over-long responses."""
        responses = check_responses(responses)
        decided = self._decisions(request, responses, pairs)
        out = []
        meaning = f"which response is better on: {self.criterion}"
        for i, j in pairs:
            found = decided.get((min(i, j), max(i, j)))
            if found is None:
                reasons = [f"{responses[k].id}: {_unusable(responses[k])}" for k in (i, j) if _unusable(responses[k])]
                out.append(Explanation(repr(self), rule_of(self), responses[i].id, responses[j].id, 0.0,
                                       meaning=meaning, abstention="; ".join(reasons) or None))
                continue
            value, low_first, high_first = found
            a_first, b_first = (low_first, high_first) if i < j else (high_first, low_first)
            out.append(Explanation(
                repr(self), rule_of(self), responses[i].id, responses[j].id, value if i < j else -value + 0.0,
                meaning=meaning,
                details={"answer when shown as A": (_named(a_first[0], responses[i].id, responses[j].id),
                                                    _named(b_first[0], responses[j].id, responses[i].id)),
                         "reason": (a_first[1], b_first[1])},
            ))
        return out


def _named(answer: Preferred, shown_a: str, shown_b: str) -> str:
    return {"first": f"prefers {shown_a}", "second": f"prefers {shown_b}", "tie": "tie"}[answer]


def _unusable(response: GenerationResponse) -> str | None:
    if not response.text.strip():
        return "blank response"
    if len(response.text) > max_text_chars():
        return f"over-long response (more than {max_text_chars()} characters)"
    return None


def _pair_context(request: GenerationRequest, first: GenerationResponse, second: GenerationResponse
                  ) -> tuple[str, ...] | None:
    """The context both responses are judged against: their shared one, or the passages of both (first use order)."""
    a, b = context_of(request, first), context_of(request, second)
    if a == b or not b:
        return a or None
    return tuple(dict.fromkeys((*(a or ()), *b)))


LLM_PAIRWISE = register(PairwiseJudgeAxiom())
