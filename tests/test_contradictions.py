"""The heuristic judge on hand-written contradictions, paraphrases, refusals, evasions and partial recall.

Each offline metric must be right on at least 90 % of the cases of each kind (``tests/data/contradictions.json``);
the per-kind table is printed (``pytest -s``). Also: undefined observations are NaN, never the worst level.
"""

from __future__ import annotations

import json
import math
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

from ir_rag_axioms.metrics import AnswerRelevancy, ContextRecall, Faithfulness, RubricAnswerRelevancy

CASES = json.loads((Path(__file__).parent / "data" / "contradictions.json").read_text())["cases"]


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    for name in ("IR_RAG_AXIOMS_JUDGE_BASE_URL", "OPENAI_BASE_URL", "IR_RAG_AXIOMS_JUDGE_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


def outcomes() -> dict[tuple[str, str], list[tuple[bool, str]]]:
    """(kind, metric) -> [(right, what happened)] over every case and every metric it has an expectation for."""
    out: dict[tuple[str, str], list[tuple[bool, str]]] = defaultdict(list)
    by_metric: dict[str, list[dict]] = defaultdict(list)
    for case in CASES:
        for metric in case["expected"]:
            by_metric[metric].append(case)
    runs = {
        "faithfulness": lambda cs: Faithfulness().measure_many([(c["answer"], [c["context"]]) for c in cs]),
        "context_recall": lambda cs: ContextRecall().measure_many([(c["answer"], [c["context"]]) for c in cs]),
        "context_recall_level": lambda cs: ContextRecall().measure_many([(c["answer"], c["reference"]) for c in cs]),
        "answer_relevancy": lambda cs: AnswerRelevancy().measure_many([(c["query"], c["answer"]) for c in cs]),
        "rubric_answer_relevancy": lambda cs: RubricAnswerRelevancy().measure_many(
            [(c["query"], c["answer"]) for c in cs]),
    }
    for metric, cases in by_metric.items():
        for case, result in zip(cases, runs[metric](cases), strict=True):
            expected = case["expected"][metric]
            if metric == "context_recall_level":
                right = result.level == expected
            else:
                right = result.passed == expected
                if metric == "faithfulness" and "reason" in case:
                    right = right and case["reason"] in result.explanation
            out[(case["kind"], metric)].append((right, f"{case['answer']!r}: {result.explanation}"))
    return out


def test_each_metric_is_right_on_90_percent_of_each_kind():
    found = outcomes()
    lines = [f"{'kind':<22} {'metric':<24} right", "-" * 56]
    lines += [f"{kind:<22} {metric:<24} {sum(r for r, _ in rows)}/{len(rows)} "
              f"({sum(r for r, _ in rows) / len(rows):.0%})" for (kind, metric), rows in sorted(found.items())]
    print("\n" + "\n".join(lines))
    wrong = {key: [what for r, what in rows if not r] for key, rows in found.items()}
    below = {key: wrong[key] for key, rows in found.items() if sum(r for r, _ in rows) < 0.9 * len(rows)}
    assert not below, below
    assert len(CASES) >= 40 and {c["kind"] for c in CASES} >= {
        "entity_swap", "number_change", "date_change", "negation", "antonym", "comparative_flip",
        "superlative_flip", "faithful_paraphrase", "refusal", "evasion", "partial_recall"}


def test_the_issue_examples_are_named_in_the_evidence():
    context = ["The Eiffel Tower is in Paris and was completed in 1889."]
    faithful = Faithfulness().measure("The Eiffel Tower is in Paris and was completed in 1889.", context)
    assert (faithful.level, faithful.passed, faithful.confidence) == (5, True, 1.0)
    for answer, reason in (
            ("The Eiffel Tower is in Berlin and was completed in 1889.", "entity 'berlin' vs 'paris'"),
            ("The Eiffel Tower is in Paris and was completed in 1925.", "number 1925 vs 1889 in passage 1"),
            ("The Eiffel Tower is not in Paris.", "negation")):
        result = Faithfulness().measure(answer, context)
        assert (result.level, result.passed) == (1, False) and reason in result.explanation
        (row,) = result.breakdown
        assert row["verdict"] == "contradicted" and row["passage"] == 1 and any(reason in r for r in row["reasons"])


def test_undefined_is_nan_never_the_worst_level():
    answer = "The Eiffel Tower is in Paris."
    for result in (Faithfulness().measure(answer, []), Faithfulness().measure(answer, ["  "]),
                   ContextRecall().measure(answer, ["  "]), ContextRecall().measure(answer, "")):
        assert result.level is None and math.isnan(result.score) and result.passed is None
        assert result.explanation.startswith("undefined: no ")
    refusal = Faithfulness().measure("I don't know.", ["The Eiffel Tower is in Paris."])
    assert refusal.level is None and "no claim" in refusal.explanation
    long = "The Eiffel Tower is in Paris. " * 7000
    with pytest.warns(UserWarning, match="longer than 200000 characters"):
        faithfulness = Faithfulness().measure(long, ["The Eiffel Tower is in Paris."])
    with pytest.warns(UserWarning, match="longer than 200000 characters"):
        relevancy = AnswerRelevancy().measure("Where is the Eiffel Tower?", long)
    assert faithfulness.level is None and math.isnan(relevancy.score) and not relevancy.passed
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # within the limit: no warning
        assert ContextRecall().measure(answer, ["The Eiffel Tower is in Paris."]).level == 5
