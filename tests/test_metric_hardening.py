"""Bad input to the metrics, found by the adversarial round: each refused with a message naming what is wrong."""

from __future__ import annotations

import math
import re
import warnings

import pytest

from ir_rag_axioms.metrics import (
    AnswerRelevancy,
    ContextRecall,
    ContextualPrecision,
    ContextualRecall,
    DatasetItem,
    EntailmentJudge,
    Faithfulness,
    RubricAnswerRelevancy,
    evaluate,
)
from ir_rag_axioms.metrics.statements import foreign_script, non_latin_share

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


SAMPLE_SET = """
schemaVersion: omk.eval-sample-set/v3
samples:
  - sampleId: s1
    input: {inputKind: text, text: "Where is the Eiffel Tower?"}
    evaluationContext:
      reference: "The Eiffel Tower is in Paris."
      assertions: [{type: faithfulness}]
"""


@pytest.mark.parametrize(("files", "argv", "message"), [
    ({"o.json": '{"s1": null}'}, ["--outputs", "o.json"], "o.json: sampleId 's1': the output must be a text, got null"),
    ({"o.jsonl": '{"sampleId": "s1", "output": null}\n'}, ["--outputs", "o.jsonl"],
     "o.jsonl line 1 (sampleId 's1'): the output must be a text, got null"),
    ({"o.json": '{"s1": "In Paris.", "s1": "In Rome."}'}, ["--outputs", "o.json"],
     "o.json: sampleId 's1' appears twice in --outputs"),
    ({"o.jsonl": '{"sampleId": "s1", "output": "In Paris."}\n{"sampleId": "s1", "output": "In Rome."}\n'},
     ["--outputs", "o.jsonl"], "o.jsonl line 2: sampleId 's1' appears twice in --outputs"),
    ({"o.json": '{"s1": "In Paris.", "s9": "In Rome."}'}, ["--outputs", "o.json"],
     "outputs name sampleId(s) the sample set does not have: 's9'"),
    ({"s.yaml": SAMPLE_SET.replace("[{type: faithfulness}]", '[{type: faithfulness, negate: "false"}]')
      + "    output: In Paris.\n"}, [], "samples[0] (s1): negate must be true or false, got 'false'"),
    ({"s.yaml": SAMPLE_SET + "    output: 1889\n"}, [],
     "samples[0] (s1): output must be a text, got int 1889 (quote it in YAML)"),
    ({"s.yaml": SAMPLE_SET.replace('text: "Where is the Eiffel Tower?"', "text: 1889")}, [],
     "samples[0] (s1): input.text (the question) must be a text, got int 1889 (quote it in YAML)"),
    ({"s.yaml": SAMPLE_SET.replace("Paris", "Par\xe9s").encode("latin-1")}, [],
     "s.yaml: not UTF-8 text (byte 0xe9 at offset 197); save it as UTF-8"),
    ({"o.json": b'{"s1": "Par\xe9s"}'}, ["--outputs", "o.json"],
     "o.json: not UTF-8 text (byte 0xe9 at offset 11); save it as UTF-8"),
])
def test_the_samples_command_refuses_bad_outputs_and_fields_in_one_line(tmp_path, monkeypatch, capsys, files, argv,
                                                                       message):
    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    files = {"s.yaml": SAMPLE_SET, **files}
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(SystemExit) as exited:
        main(["s.yaml", *argv])
    captured = capsys.readouterr()
    assert exited.value.code == 2 and captured.out == ""
    assert captured.err == f"python -m ir_rag_axioms.metrics: error: {message}\n"


def test_negate_true_is_read_as_negation():
    import yaml

    from ir_rag_axioms.metrics.samples import parse_samples

    document = yaml.safe_load(SAMPLE_SET.replace("[{type: faithfulness}]", "[{type: faithfulness, negate: true}]"))
    assert parse_samples(document)[0].assertions[0].negate is True


@pytest.mark.parametrize(("make", "error", "message"), [
    (lambda: AnswerRelevancy(threshold=True), TypeError, "AnswerRelevancy: threshold must be a number in [0, 1], "
                                                         "got bool True"),
    (lambda: AnswerRelevancy(threshold="0.5"), TypeError, "AnswerRelevancy: threshold must be a number in [0, 1], "
                                                          "got str '0.5'"),
    (lambda: AnswerRelevancy(threshold=math.nan), ValueError, "AnswerRelevancy: threshold must be a number in "
                                                              "[0, 1], got nan"),
    (lambda: ContextualRecall(threshold=False), TypeError, "ContextualRecall: threshold must be a number in [0, 1]"),
    (lambda: EntailmentJudge(nli_model="m", contradiction_threshold="0.9"), TypeError,
     "EntailmentJudge: contradiction_threshold must be a number in [0.5, 1], got str '0.9'"),
    (lambda: EntailmentJudge(nli_model="m", entailment_threshold=True), TypeError,
     "EntailmentJudge: entailment_threshold must be a number in [0.5, 1], got bool True"),
    (lambda: EntailmentJudge(nli_model="m", premise_chars=150.5), TypeError,
     "EntailmentJudge: premise_chars must be an integer >= 100, got float 150.5"),
    (lambda: EntailmentJudge(nli_model="m", premise_chars=10), ValueError,
     "EntailmentJudge: premise_chars must be an integer >= 100, got 10"),
    (lambda: EntailmentJudge(nli_model="m", batch_size=0), ValueError,
     "EntailmentJudge: batch_size must be an integer >= 1, got 0"),
])
def test_parameters_of_the_wrong_type_are_refused_naming_the_parameter(make, error, message):
    with pytest.raises(error) as raised:
        make()
    assert str(raised.value) == message or str(raised.value).startswith(message)
    assert type(raised.value) is error


def test_a_cuda_device_without_cuda_says_so_not_the_model_folder(tmp_path):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    from test_entailment import ORDER, _model

    judge = EntailmentJudge(nli_model=_model(tmp_path / "m", ORDER, 0), device="cuda")
    with pytest.raises(RuntimeError, match=r"device 'cuda' was asked for, but CUDA is not available here") as raised:
        judge.probabilities([("The tower is in Paris.", "The tower is in Paris.")])
    assert "could not load" not in str(raised.value)


def test_a_model_saved_again_at_the_same_path_is_loaded_again(tmp_path):
    import shutil

    from test_entailment import ORDER, _model

    folder = tmp_path / "nli"
    judge = EntailmentJudge(nli_model=_model(folder, ORDER, 2))  # always "contradiction"
    pair = [("The tower is in Paris.", "The tower is in Paris.")]
    assert judge.probabilities(pair)[0, 0] > 0.95
    shutil.rmtree(folder)
    _model(folder, ORDER, 0)  # the same path, now a model that always answers "entailment"
    assert judge.probabilities(pair)[0, 1] > 0.95


CHINESE = "埃菲尔铁塔位于巴黎。"  # "The Eiffel Tower is in Paris."
HALF = "The Eiffel Tower is in Paris. 它建于1889年。"  # "... It was built in 1889." (4 of 10 words)
NOT_LATIN = r"in a script other than Latin \(\d+% of its words\); the heuristic judge reads English"


@pytest.mark.parametrize("answer", [CHINESE, HALF])
def test_an_answer_in_another_script_beside_an_english_context_is_undefined_by_every_metric(answer):
    expected = rf"undefined: the output is {NOT_LATIN}"
    for metric in (Faithfulness(), ContextRecall()):
        with pytest.warns(UserWarning, match=r"1 of 1 case\(s\) have a text in a script other than Latin"):
            result = metric.measure(answer, [PASSAGE])
        assert result.level is None and math.isnan(result.score) and re.match(expected, result.explanation)
    with pytest.warns(UserWarning, match="script other than Latin"):
        rubric = RubricAnswerRelevancy().measure("Where is the Eiffel Tower?", answer)
    assert rubric.level is None and re.match(expected, rubric.explanation)
    with pytest.warns(UserWarning, match="script other than Latin"):
        relevancy = AnswerRelevancy().measure("Where is the Eiffel Tower?", answer)
    assert math.isnan(relevancy.score) and re.match(rf"Not judged: the answer is {NOT_LATIN}", relevancy.explanation)
    with pytest.warns(UserWarning, match="script other than Latin"):
        recall = ContextualRecall().measure(answer, [PASSAGE])
    assert math.isnan(recall.score) and re.match(rf"undefined: the expected output is {NOT_LATIN}", recall.explanation)
    with pytest.warns(UserWarning, match="script other than Latin"):
        precision = ContextualPrecision().measure("Where is the Eiffel Tower?", answer, [PASSAGE])
    assert math.isnan(precision.score) and re.match(rf"undefined: the expected output is {NOT_LATIN}",
                                                    precision.explanation)


def test_a_context_in_another_script_is_undefined_and_a_name_in_another_script_is_read():
    with pytest.warns(UserWarning, match="script other than Latin"):
        result = Faithfulness().measure("The Eiffel Tower is in Paris.", [PASSAGE, CHINESE])
    assert result.level is None and re.match(rf"undefined: the context is {NOT_LATIN}", result.explanation)
    named = "The Eiffel Tower (埃菲尔铁塔) is in Paris."  # 5 of 11 words: not Latin
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = Faithfulness().measure("The Eiffel Tower is in Paris.", [PASSAGE, "Paris is the capital (巴黎)."])
    assert kept.level == 5
    assert non_latin_share(named) == pytest.approx(5 / 11) and foreign_script(named)
    assert not foreign_script("Der Eiffelturm steht in Paris. Café crème à Montréal.")


def test_evaluate_samples_refuses_an_output_that_is_not_a_text_naming_the_sample():
    import yaml

    from ir_rag_axioms.metrics.samples import evaluate_samples, parse_samples

    samples = parse_samples(yaml.safe_load(SAMPLE_SET))
    with pytest.raises(ValueError, match=r"sample 's1': the output must be a text, got int 1889"):
        evaluate_samples(samples, {"s1": 1889})
