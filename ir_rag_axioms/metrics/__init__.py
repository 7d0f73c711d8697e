"""RAG metrics users know from LLM-judge suites: AnswerRelevancy (statement verdicts) and 1-5 judged metrics.

``AnswerRelevancy``, ``Faithfulness``, ``ContextRecall`` and ``RubricAnswerRelevancy``, judged by an LLM over the
OpenAI-compatible API (``LlmJudge``) or offline by ``HeuristicJudge`` (the default without a configured LLM: similarity
plus checks of numbers, entities, negation, antonyms and comparisons; ``OfflineJudge`` is its deprecated name); each is
also an axiom (``ANSWER_RELEVANCY``, ``FAITHFULNESS``, ``CONTEXT_RECALL``) and a PyTerrier transformer column.
"""

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
from ir_rag_axioms.metrics.results import AnswerRelevancyResult, RubricJudgment, RubricResult, StatementVerdict

__all__ = [
    "HEURISTIC_JUDGE", "OFFLINE_JUDGE", "AnswerRelevancy", "AnswerRelevancyResult", "ContextRecall", "EvaluationMode",
    "Faithfulness", "HeuristicJudge", "Judge",
    "JudgeError", "JudgeOutputError", "LlmJudge", "OfflineJudge", "RubricAnswerRelevancy", "RubricCase",
    "RubricJudgment", "RubricMetric", "RubricResult", "Statement", "StatementVerdict", "default_judge",
]
