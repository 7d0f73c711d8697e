"""RAG metrics users know from LLM-judge suites: AnswerRelevancy (statement verdicts) and 1-5 judged metrics.

``AnswerRelevancy``, ``Faithfulness``, ``ContextRecall`` and ``RubricAnswerRelevancy``, judged by an LLM over the
OpenAI-compatible API (``LlmJudge``) or offline by ``HeuristicJudge`` (the default without a configured LLM: similarity
plus checks of numbers, entities, negation, antonyms and comparisons; ``OfflineJudge`` is its deprecated name); each is
also an axiom (``ANSWER_RELEVANCY``, ``FAITHFULNESS``, ``CONTEXT_RECALL``) and a PyTerrier transformer column.
RAGAS's / DeepEval's retriever metrics are ``ContextualRecall`` and ``ContextualPrecision``; ``evaluate(cases,
metrics)`` tabulates any of them; ``await metric.execute(DatasetItem(...))`` returns seed 002's result shape.
"""

from ir_rag_axioms.metrics import axioms as _metric_axioms  # noqa: F401  (registers the metric axioms)
from ir_rag_axioms.metrics import pairwise as _pairwise_axioms  # noqa: F401  (registers LLM_PAIRWISE)
from ir_rag_axioms.metrics.contextual import ContextualPrecision, ContextualRecall
from ir_rag_axioms.metrics.dataset import (
    AIMessage,
    DatasetItem,
    HumanMessage,
    MetricEvaluationResult,
    MultiTurnConversation,
)
from ir_rag_axioms.metrics.entailment import EntailmentJudge
from ir_rag_axioms.metrics.evaluate import evaluate
from ir_rag_axioms.metrics.interface import Judge, RubricCase, Statement
from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE, OFFLINE_JUDGE, HeuristicJudge, OfflineJudge
from ir_rag_axioms.metrics.llm import JudgeError, JudgeOutputError, LlmJudge, default_judge
from ir_rag_axioms.metrics.metrics import (
    AnswerRelevancy,
    ContextRecall,
    EvaluationMode,
    Faithfulness,
    RubricAnswerRelevancy,
    RubricMetric,
)
from ir_rag_axioms.metrics.results import (
    AnswerRelevancyResult,
    ContextualResult,
    RubricJudgment,
    RubricResult,
    StatementVerdict,
)

__all__ = [
    "HEURISTIC_JUDGE", "OFFLINE_JUDGE", "AIMessage", "AnswerRelevancy", "AnswerRelevancyResult", "ContextRecall",
    "ContextualPrecision", "ContextualRecall", "ContextualResult", "DatasetItem", "EntailmentJudge", "EvaluationMode",
    "Faithfulness",
    "HeuristicJudge", "HumanMessage", "Judge", "JudgeError", "JudgeOutputError", "LlmJudge", "MetricEvaluationResult",
    "MultiTurnConversation", "OfflineJudge", "RubricAnswerRelevancy", "RubricCase", "RubricJudgment", "RubricMetric",
    "RubricResult", "Statement", "StatementVerdict", "default_judge", "evaluate",
]
