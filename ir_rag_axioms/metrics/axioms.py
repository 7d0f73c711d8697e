"""The metrics as axioms: prefer the response with the higher metric score (with a relative margin).

``ANSWER_RELEVANCY`` (statement verdicts against the request), ``FAITHFULNESS`` (against each response's own context
passages, else the request's) and ``CONTEXT_RECALL`` (those passages as the reference facts); the last two abstain
without context. ``judge="offline"`` (default) uses the heuristic judge, ``judge="llm"`` the LLM judge of the
environment.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import ClassVar, Literal

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import FeatureAxiom, Item, Reads
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.metrics.interface import Judge, RubricCase
from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE
from ir_rag_axioms.metrics.metrics import AnswerRelevancy, ContextRecall, Faithfulness, RelevancyMode, RubricMetric
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, context_of

JudgeName = Literal["offline", "llm"]
"""Which judge an axiom uses: the offline heuristic judge, or the LLM judge configured in the environment."""


class MetricAxiom(FeatureAxiom):
    """Shared machinery: the judge by name, the heuristic judge's reads, and one batched metric pass in ``prefetch``."""

    judge: JudgeName = "offline"
    metric_name: ClassVar[str] = ""
    needs_context: ClassVar[bool] = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.judge not in ("offline", "llm"):
            raise ValueError(f"{self.label}: judge must be 'offline' or 'llm', got {self.judge!r}")

    def judge_instance(self) -> Judge:
        """The heuristic judge, or an ``LlmJudge`` from the environment (raises with instructions if none is set)."""
        return judge_named(self.judge)

    def cache_identity(self) -> dict[str, str] | None:
        """What results depend on besides the configuration: the LLM judge's base URL and model (judge="llm")."""
        return llm_judge_identity() if self.judge == "llm" else None

    def reads(self) -> tuple[Reads, ...]:
        """What the heuristic judge reads from spaCy for this metric (nothing for the LLM judge)."""
        return HEURISTIC_JUDGE.reads(self.metric_name) if self.judge == "offline" else ()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Score every response of every item in one batched metric pass (embeddings, judge answers are kept)."""
        if self.judge == "llm":
            self.judge_instance()  # an unconfigured LLM judge raises ToolUnavailableError here, before any work
        pairs = [(q, r) for q, rs in items for r in rs if context_of(q, r) or not self.needs_context]
        if pairs:
            self.scores(pairs)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The metric score of each response (NaN without context where the metric needs it, or undefined)."""
        usable = [k for k, r in enumerate(responses) if context_of(request, r) or not self.needs_context]
        out = np.full(len(responses), np.nan)
        if usable:
            out[usable] = self.scores([(request, responses[k]) for k in usable])
        return out

    def scores(self, pairs: Sequence[tuple[GenerationRequest, GenerationResponse]]) -> list[float]:
        """The metric score of each (request, response)."""
        raise NotImplementedError


def judge_named(judge: JudgeName) -> Judge:
    """The heuristic judge ("offline"), or the ``LlmJudge`` of the environment ("llm"; unconfigured: raises)."""
    if judge == "offline":
        return HEURISTIC_JUDGE
    from ir_rag_axioms.metrics.llm import API_KEY_ENV, BASE_URL_ENV, MODEL_ENV, _env

    return _llm_judge(_env(BASE_URL_ENV), _env(MODEL_ENV), _env(API_KEY_ENV))


def llm_judge_identity() -> dict[str, str]:
    """The LLM judge of the environment as part of a cache key: its base URL and model, read now."""
    from ir_rag_axioms.metrics.llm import BASE_URL_ENV, MODEL_ENV, _env

    return {"judge_base_url": (_env(BASE_URL_ENV) or "").strip().rstrip("/"),
            "judge_model": (_env(MODEL_ENV) or "").strip()}


@functools.cache
def _llm_judge(base_url: str | None, model: str | None, api_key: str | None) -> Judge:
    """One LlmJudge per configuration and process (its memo serves ``prefetch`` and ``values``)."""
    from ir_rag_axioms.metrics.llm import LlmJudge

    return LlmJudge(base_url, model, api_key)


class AnswerRelevancyAxiom(MetricAxiom):
    """ANSWER_RELEVANCY: prefer the higher share of statements relevant to the request, (yes + idk) / statements."""

    name: ClassVar[str] = "ANSWER_RELEVANCY"
    dimension: ClassVar[str] = "metric"
    citation: ClassVar[str] = "Es et al., 2024"
    metric_name: ClassVar[str] = "answer_relevancy"
    margin_fraction: float = 0.1
    relevancy_mode: RelevancyMode = "task"
    penalize_ambiguity: bool = False

    def scores(self, pairs: Sequence[tuple[GenerationRequest, GenerationResponse]]) -> list[float]:
        """AnswerRelevancy of each response to its request."""
        metric = AnswerRelevancy(relevancy_mode=self.relevancy_mode, penalize_ambiguity=self.penalize_ambiguity,
                                 judge=self.judge_instance(), include_reason=False)
        return [r.score for r in metric.measure_many([(q.text, a.text) for q, a in pairs])]


class _RubricAxiom(MetricAxiom):
    """A 1-5 metric as an axiom: its level mapped to [0, 1]; responses tie only on the same level by default."""

    needs_context: ClassVar[bool] = True
    metric: ClassVar[type[RubricMetric]]

    def scores(self, pairs: Sequence[tuple[GenerationRequest, GenerationResponse]]) -> list[float]:
        """The level of each response, (level - 1) / 4, against its own context passages (else the request's)."""
        metric = self.metric(judge=self.judge_instance())
        cases = [RubricCase(a.text, reference=context_of(q, a)) for q, a in pairs]
        return [r.score for r in metric.measure_cases(cases)]


class FaithfulnessAxiom(_RubricAxiom):
    """FAITHFULNESS: prefer the higher 1-5 level of support by the context passages; abstains without context."""

    name: ClassVar[str] = "FAITHFULNESS"
    dimension: ClassVar[str] = "metric"
    citation: ClassVar[str] = "Es et al., 2024"
    metric_name: ClassVar[str] = "faithfulness"
    metric: ClassVar[type[RubricMetric]] = Faithfulness


class ContextRecallAxiom(_RubricAxiom):
    """CONTEXT_RECALL: prefer the higher share of context sentences the answer covers; abstains without context.

    Each sentence (statement) of the context passages is a reference fact; the value is (covered + idk / 2) / facts,
    the fraction under ContextRecall's 1-5 level: with 20 long passages every answer is at level 1 (a passage is
    never covered whole), so the level would tie every pair. With ``judge="llm"``: the LLM's 1-5 level of the
    passages (one request per response; the LLM gives no per-fact verdicts).
    """

    name: ClassVar[str] = "CONTEXT_RECALL"
    dimension: ClassVar[str] = "metric"
    citation: ClassVar[str] = "Es et al., 2024"
    metric_name: ClassVar[str] = "context_recall"
    metric: ClassVar[type[RubricMetric]] = ContextRecall

    def scores(self, pairs: Sequence[tuple[GenerationRequest, GenerationResponse]]) -> list[float]:
        """The covered share of each response's context sentences (NaN where no fact could be judged)."""
        if self.judge == "llm":
            return super().scores(pairs)
        judge = self.judge_instance()
        contexts = [tuple(context_of(q, a) or ()) for q, a in pairs]
        distinct = list(dict.fromkeys(contexts))
        sentences = {c: tuple(s.text for passage in judge.statements(list(c)) for s in passage) for c in distinct}
        cases = [RubricCase(a.text, reference=sentences[c] or c) for (_, a), c in zip(pairs, contexts, strict=True)]
        out = []
        for result in ContextRecall(judge=judge, include_reason=False).measure_cases(cases):
            rows = result.breakdown
            if result.level is None or not rows:
                out.append(float("nan"))
                continue
            credit = sum(1.0 if r["verdict"] == "covered" else 0.5 if r["verdict"] == "idk" else 0.0 for r in rows)
            out.append(credit / len(rows))
        return out


ANSWER_RELEVANCY = register(AnswerRelevancyAxiom())
FAITHFULNESS = register(FaithfulnessAxiom())
CONTEXT_RECALL = register(ContextRecallAxiom())


class ContradictionAxiom(MetricAxiom):
    """CONS6: prefer fewer answer statements contradicted by the context, contradicted / statements (new here).

    The heuristic judge's checks (numbers, dates, entities, negation, antonyms, flipped comparisons) of each statement
    against its best-matching context sentence; lower is better; abstains without context or without statements.
    """

    name: ClassVar[str] = "CONS6"
    dimension: ClassVar[str] = "metric"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    metric_name: ClassVar[str] = "faithfulness"
    needs_context: ClassVar[bool] = True
    higher_is_better: bool = False
    margin_fraction: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.judge != "offline":
            raise ValueError(f"{self.label}: the contradiction checks are the heuristic judge's; judge must be "
                             "'offline'")

    def scores(self, pairs: Sequence[tuple[GenerationRequest, GenerationResponse]]) -> list[float]:
        """Share of each response's statements that a check contradicts (NaN without statements)."""
        rows = HEURISTIC_JUDGE.signals([RubricCase(a.text, reference=context_of(q, a)) for q, a in pairs])
        return [sum(r["verdict"] == "contradicted" for r in found) / len(found) if found else float("nan")
                for found in rows]


CONS6 = register(ContradictionAxiom())
