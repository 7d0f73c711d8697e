"""Bad input to the metrics, found by the adversarial round: each refused with a message naming what is wrong."""

from __future__ import annotations

import math

import pytest

from ir_rag_axioms.metrics import ContextualPrecision, ContextualRecall, DatasetItem, Faithfulness, evaluate

PASSAGE = "The Eiffel Tower is in Paris. It was completed in 1889."


@pytest.mark.parametrize("missing", [None, math.nan])
def test_a_missing_passage_is_refused_by_every_contextual_metric_naming_its_position(missing):
    pattern = r"item 1 is (NoneType None|float nan) \(a missing value"
    with pytest.raises(TypeError, match="ContextualRecall: .*" + pattern):
        ContextualRecall().measure("The tower is in Paris.", [PASSAGE, missing])
    with pytest.raises(TypeError, match="ContextualPrecision: .*" + pattern):
        ContextualPrecision().measure("Where is it?", "The tower is in Paris.", [PASSAGE, missing])
    with pytest.raises(TypeError, match="Faithfulness: .*" + pattern):
        Faithfulness().measure("The tower is in Paris.", [PASSAGE, missing])


def test_a_missing_passage_in_a_batch_names_the_case():
    cases = [("The tower is in Paris.", [PASSAGE]), ("It is tall.", [PASSAGE, None])]
    with pytest.raises(TypeError, match=r"ContextualRecall: case 2 of 2: a retrieval context .* item 1 is NoneType"):
        ContextualRecall().measure_many(cases)
    with pytest.raises(TypeError, match=r"Faithfulness: case 2 of 2: a context or reference .* item 1 is NoneType"):
        Faithfulness().measure_many(cases)


def test_blank_passages_are_undefined_for_contextual_precision_as_for_contextual_recall():
    precision = ContextualPrecision().measure("Where is it?", "The tower is in Paris.", ["  ", "\n"])
    recall = ContextualRecall().measure("The tower is in Paris.", ["  ", "\n"])
    for result in (precision, recall):
        assert math.isnan(result.score) and result.passed is None
        assert result.explanation == "undefined: no retrieval context"


def test_evaluate_refuses_a_metric_class_naming_it():
    items = [DatasetItem(query="Where?", actual_output="In Paris.", retrieved_content=(PASSAGE,))]
    with pytest.raises(TypeError, match=r"evaluate: Faithfulness is a metric class; pass a configured metric, e\.g\. "
                                        r"Faithfulness\(\)"):
        evaluate(items, [Faithfulness])
    with pytest.raises(TypeError, match="evaluate: ContextualRecall is a metric class"):
        evaluate(items, {"recall": ContextualRecall})


def test_evaluate_names_the_metric_and_the_case_of_a_missing_passage():
    items = [DatasetItem(query="Where?", actual_output="In Paris.", retrieved_content=(PASSAGE,), id="a"),
             DatasetItem(query="When?", actual_output="In 1889.", retrieved_content=(PASSAGE, None), id="b")]
    with pytest.raises(TypeError, match=r"evaluate: faithfulness, case 'b' \(position 1\): Faithfulness: case 2 of 2: "
                                        r"a context or reference must be a text or a list of texts: item 1 is "
                                        r"NoneType"):
        evaluate(items, [Faithfulness()])
