"""assert_test / assert_metric and the pytest plugin, as a RAG team puts our metrics in its own test suite."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import math
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT

from ir_rag_axioms import AnswerRelevancy, ContextRecall, Faithfulness, RubricAnswerRelevancy
from ir_rag_axioms.testing import RagTestCase, assert_metric, assert_test

GOOD = RagTestCase(input="Is green tea healthy?",
                   actual_output="Green tea contains antioxidants called catechins. A cup has about 30 mg of "
                                 "caffeine.",
                   retrieval_context=["Green tea is rich in catechins, a kind of antioxidant.",
                                      "A cup of green tea has 20-45 mg of caffeine."])
OFF = RagTestCase(input="Is green tea healthy?", name="off-topic",
                  actual_output="Our company has excellent customer service. We were founded in 2015.",
                  retrieval_context=["Green tea is rich in catechins, a kind of antioxidant."])


def test_assert_test_returns_the_results_of_a_passing_case():
    results = assert_test(GOOD, [AnswerRelevancy(), Faithfulness(threshold=4), ContextRecall(),
                                 RubricAnswerRelevancy(threshold=2)])
    assert [r.passed for r in results] == [True] * 4
    assert results[1].level == 5  # both statements supported by the passages


def test_assert_test_lists_every_failing_metric_with_score_threshold_and_reason():
    with pytest.raises(AssertionError) as failure:
        assert_test(OFF, [AnswerRelevancy(), Faithfulness()])
    message = str(failure.value)
    assert message.startswith("off-topic: 2 of 2 metrics failed:")
    assert re.search(r"answer_relevancy: score 0\.00 below threshold 0\.5 .*'Our company has excellent", message)
    assert "faithfulness: score 0.00 (level 1/5) below threshold 3" in message
    assert "0 of 2 statements supported by the context" in message


def test_assert_metric_fails_on_an_undefined_score_and_says_why():
    empty = AnswerRelevancy().measure("Why?", "Hmm!")  # not blank, but no statement the judge can read
    assert math.isnan(empty.score)
    assert AnswerRelevancy().measure("Why?", "Yes!").score == 0.0  # a yes/no answer is read, and answers no "why"
    with pytest.raises(AssertionError, match=r"undefined score \(NaN\).*no statements"):
        assert_metric(empty)
    passed = Faithfulness().measure(GOOD.actual_output, GOOD.retrieval_context)
    assert assert_metric(passed) is passed


def test_missing_fields_and_wrong_arguments_are_clear():
    no_context = RagTestCase(input="Why?", actual_output="Because it rains.")
    with pytest.raises(ValueError, match="Faithfulness needs the case's retrieval_context"):
        assert_test(no_context, [Faithfulness()])
    with pytest.raises(TypeError, match="not a metric of ir_rag_axioms.metrics"):
        assert_test(GOOD, ["faithfulness"])
    with pytest.raises(TypeError, match="retrieval_context must be a list of passages"):
        RagTestCase(input="Why?", actual_output="So.", retrieval_context="one passage")
    with pytest.raises(TypeError, match="case must be a RagTestCase"):
        assert_test(("Why?", "So."), [AnswerRelevancy()])


def test_one_metric_a_negated_failure_and_no_context_are_clear():
    results = assert_test(GOOD, Faithfulness(threshold=4))  # one metric, not in a list
    assert len(results) == 1 and results[0].passed
    with pytest.raises(AssertionError) as failure:
        assert_test(GOOD, Faithfulness(negate=True))  # fully supported: a negated faithfulness fails
    message = str(failure.value)
    assert "faithfulness: score 1.00 (level 5/5) at or above threshold 3, and the metric is negated: it passes " \
           "only below the threshold" in message and "below threshold 3 " not in message
    with pytest.raises(TypeError, match="a metric or a non-empty list of metrics, got an empty list"):
        assert_test(GOOD, [])
    with pytest.raises(TypeError, match="a metric or a list of metrics, got int"):
        assert_test(GOOD, 3)
    for metric in (Faithfulness(), ContextRecall()):  # no context: undefined with the reason, not a TypeError
        result = metric.measure(GOOD.actual_output, None)
        assert result.level is None and math.isnan(result.score) and result.passed is None
        assert result.explanation.startswith("undefined: no ")
    with pytest.raises(TypeError, match="a text or a list of passages, got int"):
        Faithfulness().measure(GOOD.actual_output, 3)


EIFFEL_CONTEXT = ["The Eiffel Tower is in Paris.", "Bananas are rich in potassium.",
                  "The Eiffel Tower was completed in 1889."]


def test_the_contextual_metrics_read_the_expected_output_through_assert_test():
    from ir_rag_axioms.metrics import ContextualPrecision, ContextualRecall

    eiffel = RagTestCase(input="Where is the Eiffel Tower and when was it completed?",
                         actual_output="It is in Paris.", retrieval_context=EIFFEL_CONTEXT, name="eiffel",
                         expected_output="The Eiffel Tower is in Paris. It was completed in 1889.")
    recall, precision = assert_test(eiffel, [ContextualRecall(), ContextualPrecision()])  # the offline judge
    assert (recall.metric, recall.score, recall.passed) == ("contextual_recall", 1.0, True)
    assert (precision.metric, precision.score, precision.passed) == ("contextual_precision", pytest.approx(5 / 6), True)
    assert precision.explanation == "The score is 0.83 because the relevant passages are at ranks 1, 3 of 3."
    (alone,) = assert_test(eiffel, ContextualRecall())  # one metric, not in a list
    assert alone.score == 1.0
    from ir_rag_axioms.metrics import evaluate

    table = evaluate([eiffel], [ContextualRecall(), ContextualPrecision()])  # evaluate reads it too
    assert table.to_dict("records") == [{
        "case": "eiffel", "contextual_recall_score": 1.0, "contextual_recall_pass": True,
        "contextual_recall_reason": recall.explanation, "contextual_precision_score": pytest.approx(5 / 6),
        "contextual_precision_pass": True, "contextual_precision_reason": precision.explanation}]
    bananas_first = dataclasses.replace(eiffel, name="bananas first",
                                        retrieval_context=[EIFFEL_CONTEXT[1], EIFFEL_CONTEXT[0]])
    with pytest.raises(AssertionError) as failure:
        assert_test(bananas_first, [ContextualRecall(threshold=0.6), ContextualPrecision(threshold=0.6)])
    assert str(failure.value) == (
        "bananas first: 2 of 2 metrics failed:\n"
        "  contextual_recall: score 0.50 below threshold 0.6 (judge heuristic(all-MiniLM-L6-v2)) - The score is 0.50 "
        "because 1 of the 2 statements of the expected output are supported by the retrieval context; not found: "
        "'It was completed in 1889.'.\n"
        "  contextual_precision: score 0.50 below threshold 0.6 (judge heuristic(all-MiniLM-L6-v2)) - The score is "
        "0.50 because the relevant passages are at rank 2 of 2.")


def test_the_contextual_metrics_name_the_fields_a_case_lacks():
    from ir_rag_axioms.metrics import ContextualPrecision, ContextualRecall

    with pytest.raises(ValueError) as raised:
        assert_test(GOOD, [ContextualRecall()])
    assert str(raised.value) == "case 'Is green tea healthy?': ContextualRecall needs the case's expected_output"
    no_context = RagTestCase(input="Why?", actual_output="So.", expected_output="Because.", name="bare")
    with pytest.raises(ValueError) as raised:
        assert_test(no_context, ContextualPrecision())
    assert str(raised.value) == "bare: ContextualPrecision needs the case's retrieval_context"
    nothing = RagTestCase(input="Why?", actual_output="So.", name="bare")
    with pytest.raises(ValueError) as raised:
        assert_test(nothing, ContextualRecall())
    assert str(raised.value) == "bare: ContextualRecall needs the case's expected_output and retrieval_context"
    with pytest.raises(TypeError) as raised:
        RagTestCase(input="Why?", actual_output="So.", expected_output=["Because."])
    assert str(raised.value) == "RagTestCase: expected_output must be a string, got list"


def _readme_test_file() -> str:
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "metrics.md").read_text(), re.S | re.M)
    found = [b for b in blocks if "def test_" in b and "rag_assert" in b]
    assert len(found) == 1, "docs/metrics.md: one Python block with the pytest example"
    return found[0]


@pytest.mark.slow
def test_the_readme_example_runs_under_pytest_with_the_plugin(tmp_path):
    (tmp_path / "test_rag.py").write_text(_readme_test_file())
    registered = any(e.name == "ir_rag_axioms" for e in importlib.metadata.entry_points(group="pytest11"))
    plugin = [] if registered else ["-p", "ir_rag_axioms.pytest_plugin"]  # before the package is reinstalled
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugin, "test_rag.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "3 passed" in done.stdout and "ir_rag_axioms metrics" in done.stdout
    assert "faithfulness: 1/1 passed, mean score 1.000" in done.stdout


def test_an_empty_retrieval_context_fails_as_undefined_not_as_a_missing_field():
    empty = RagTestCase(input="Why?", actual_output="Because it rains.", retrieval_context=[], name="x")
    with pytest.raises(AssertionError, match=r"faithfulness: undefined score \(NaN\) - undefined: no context"):
        assert_test(empty, [Faithfulness()])
    with pytest.raises(AssertionError, match=r"undefined score \(NaN\)"):
        assert_test(empty, [ContextRecall()])
