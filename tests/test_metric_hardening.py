"""Bad input to the metrics, found by the adversarial round: each refused with a message naming what is wrong."""

from __future__ import annotations

import json
import math
import re
import warnings

import numpy as np
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
      + "    output: In Paris.\n"}, [],
     "samples[0] (s1): evaluationContext.assertions[0]: negate must be true or false, got 'false'"),
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


def _sample_set(sample: str) -> str:
    """A sample set of one sample, given as its YAML mapping lines after ``- ``."""
    return "samples:\n  - " + sample.strip().replace("\n", "\n    ") + "\n"


FAITHFULNESS_SAMPLE = 'output: "Paris."\nevaluationContext: {reference: Paris., assertions: [{type: faithfulness}]}'
QUOTE_NUMBER = ("(quote it in YAML so it is read as written: an unquoted number is read as a number, 010 as 8 and "
                "12:30 as 750)")


@pytest.mark.parametrize(("sample_id", "message"), [
    ("010", f"samples[0]: sampleId must be a text, got int 8 {QUOTE_NUMBER}"),
    ("12:30", f"samples[0]: sampleId must be a text, got int 750 {QUOTE_NUMBER}"),
    ("1.10", f"samples[0]: sampleId must be a text, got float 1.1 {QUOTE_NUMBER}"),
    ("null", "samples[0]: sampleId must be a text, got null (quote it in YAML: an unquoted null or ~ is read as null)"),
    ("", "samples[0]: sampleId must be a text, got null (quote it in YAML: an unquoted null or ~ is read as null)"),
    ("yes", "samples[0]: sampleId must be a text, got bool True (quote it in YAML so it is read as written: an "
            "unquoted yes, no, on, off, true or false is read as a boolean)"),
    ("2024-01-01", "samples[0]: sampleId must be a text, got date datetime.date(2024, 1, 1) (quote it in YAML so it "
                   "is read as written)"),
    ("[s1]", "samples[0]: sampleId must be a text, got list ['s1'] (quote it in YAML so it is read as written)"),
    ('"  "', "samples[0]: every sample needs a sampleId"),
])
def test_a_sample_id_that_yaml_does_not_read_as_written_is_refused_not_renamed(tmp_path, monkeypatch, capsys,
                                                                               sample_id, message):
    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(_sample_set(f"sampleId: {sample_id}\n{FAITHFULNESS_SAMPLE}"))
    with pytest.raises(SystemExit) as exited:
        main(["s.yaml"])
    captured = capsys.readouterr()
    assert exited.value.code == 2 and captured.out == ""
    assert captured.err == f"python -m ir_rag_axioms.metrics: error: {message}\n"


def test_a_quoted_sample_id_is_kept_as_written_and_matches_outputs(tmp_path, monkeypatch, capsys):
    import json

    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(_sample_set('sampleId: "010"\n' + FAITHFULNESS_SAMPLE).replace(
        'output: "Paris."\n    ', ""))
    (tmp_path / "o.jsonl").write_text('{"sampleId": "010", "output": "Paris."}\n')
    main(["s.yaml", "--outputs", "o.jsonl"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["sampleId"], r["type"], r["passed"]) for r in rows] == [("010", "faithfulness", True)]


KEYS_OF_AN_ASSERTION = "the keys of an assertion are negate, reference, threshold, type"


@pytest.mark.parametrize(("sample", "message"), [
    ("sampleId: s1\noutput: x\nevaluationContext: [1, 2]",
     "samples[0] (s1): evaluationContext must be a mapping with assertions (and reference), got list [1, 2]"),
    ("sampleId: s1\noutput: x\nevaluationContext: faithfulness",
     "samples[0] (s1): evaluationContext must be a mapping with assertions (and reference), got str 'faithfulness'"),
    ("sampleId: s1\noutput: x\nevaluationContext:\n  assertions: [{type: [faithfulness]}]",
     "samples[0] (s1): evaluationContext.assertions[0]: type must be one text, one of ['answer_relevancy', "
     "'context_recall', 'faithfulness'], got list ['faithfulness']"),
    ('sampleId: s1\noutput: "The Eiffel Tower is in Paris."\nreference: "The Eiffel Tower is in Paris."\n'
     "assertions: [{type: faithfulness}]",
     "samples[0] (s1): unknown keys 'assertions', 'reference'; the keys of a sample are evaluationContext, input, "
     "output, sampleId (assertions and reference go under evaluationContext; type, threshold and negate in an "
     "assertion)"),
    ("sampleId: s1\noutput: x\nevaluationContext:\n  reference: Paris.\n"
     "  assertions: [{type: faithfulness, treshold: 5, negat: true}]",
     f"samples[0] (s1): evaluationContext.assertions[0]: unknown keys 'negat', 'treshold'; {KEYS_OF_AN_ASSERTION}"),
    ("sampleId: s1\noutput: x\nevaluationContext:\n  reference: Paris.\n"
     "  assertions: [{type: context_recall}, {type: faithfulness, thresold: 5}]",
     f"samples[0] (s1): evaluationContext.assertions[1]: unknown key 'thresold'; {KEYS_OF_AN_ASSERTION}"),
    ("sampleId: s1\noutput: x",
     "samples[0] (s1): evaluationContext.assertions must be a non-empty list of assertions (a sample without one "
     "would give no observation), got none"),
    ("sampleId: s1\noutput: x\nevaluationContext: {assertions: []}",
     "samples[0] (s1): evaluationContext.assertions must be a non-empty list of assertions (a sample without one "
     "would give no observation), got list []"),
    ("sampleId: s1\noutput: x\nevaluationContext: {assertions: {type: faithfulness}}",
     "samples[0] (s1): evaluationContext.assertions must be a non-empty list of assertions (a sample without one "
     "would give no observation), got dict {'type': 'faithfulness'}"),
    ("sampleId: s1\noutput: x\ninput: Where?\nevaluationContext: {assertions: [{type: answer_relevancy}]}",
     "samples[0] (s1): input must be a mapping with inputKind and text, got str 'Where?'"),
])
def test_a_malformed_sample_is_refused_naming_the_sample_and_the_key(tmp_path, monkeypatch, capsys, sample, message):
    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(_sample_set(sample))
    with pytest.raises(SystemExit) as exited:
        main(["s.yaml"])
    captured = capsys.readouterr()
    assert exited.value.code == 2 and captured.out == ""
    assert captured.err == f"python -m ir_rag_axioms.metrics: error: {message}\n"


def test_a_sample_that_is_not_a_mapping_is_refused_naming_its_position():
    from ir_rag_axioms.metrics.samples import parse_samples

    with pytest.raises(ValueError, match=r"^samples\[1\]: a sample is a mapping with a sampleId, got str 's2'$"):
        parse_samples({"samples": [{"sampleId": "s1", "evaluationContext": {"assertions": [{"type": "faithfulness"}]}},
                                   "s2"]})


@pytest.mark.parametrize(("line", "got"), [('{"sampleId": 10, "output": "x"}', "int 10"),
                                           ('{"sampleId": null, "output": "x"}', "null"),
                                           ('{"sampleId": true, "output": "x"}', "bool True")])
def test_an_outputs_line_whose_sample_id_is_not_a_text_is_refused(tmp_path, monkeypatch, capsys, line, got):
    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(SAMPLE_SET)
    (tmp_path / "o.jsonl").write_text(line + "\n")
    with pytest.raises(SystemExit) as exited:
        main(["s.yaml", "--outputs", "o.jsonl"])
    assert exited.value.code == 2
    assert capsys.readouterr().err == ("python -m ir_rag_axioms.metrics: error: o.jsonl line 1: sampleId must be a "
                                       f"text, got {got} (quote it, as in the sample set)\n")


def _case(case_id: str | None) -> DatasetItem:
    return DatasetItem(query="Where is the Eiffel Tower?", actual_output="In Paris.", retrieved_content=(PASSAGE,),
                       id=case_id)


@pytest.mark.parametrize(("ids", "clashes"), [
    (["x", "x", None, "2"], "'x' at positions 0 and 1; '2' at positions 2 (no id: its position) and 3"),
    (["a", None, "1"], "'1' at positions 1 (no id: its position) and 2"),
])
def test_evaluate_refuses_two_cases_of_one_id_naming_them(ids, clashes):
    with pytest.raises(ValueError) as raised:
        evaluate([_case(i) for i in ids], [Faithfulness()])
    assert str(raised.value) == ("evaluate: case ids must be unique, as the case column keys the table (a case "
                                 f"without an id is named by its position): {clashes}; give each case its own id")


def test_evaluate_names_a_case_without_an_id_by_its_position():
    assert evaluate([_case("a"), _case(None), _case("b")], [Faithfulness()]).case.tolist() == ["a", 1, "b"]


EXPECTED = "The Eiffel Tower is in Paris. It was completed in 1889. It is made of wrought iron. It is 330 metres tall."
RANKED = ["The Eiffel Tower is in Paris.", "Bananas are rich in potassium.",
          "The Eiffel Tower was completed in 1889, is made of wrought iron and is 330 metres tall."]


def test_the_contextual_metrics_abstain_on_an_expected_output_over_the_text_limit(monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "100")  # EXPECTED has 106 characters
    why = "undefined: the expected output is longer than 100 characters (not judged)"
    with pytest.warns(UserWarning, match="ContextualRecall: 1 expected output.* longer than 100 characters"):
        recall = ContextualRecall().measure(EXPECTED, RANKED)
    with pytest.warns(UserWarning, match="ContextualPrecision: 1 expected output.* longer than 100 characters"):
        precision = ContextualPrecision().measure("Where is the Eiffel Tower?", EXPECTED, RANKED)
    for result in (recall, precision):
        assert math.isnan(result.score) and result.passed is None and result.explanation == why


def test_the_contextual_metrics_abstain_on_a_passage_over_the_text_limit_as_faithfulness(monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "60")  # the third passage has 87 characters
    expected = "The Eiffel Tower is in Paris."
    why = "undefined: a text of the retrieval context is longer than 60 characters (not judged)"
    warned = "1 case.* context or reference text longer than 60 characters are not judged"
    with pytest.warns(UserWarning, match="ContextualRecall: " + warned):
        recall = ContextualRecall().measure_many([(expected, RANKED), (expected, RANKED[:2])])
    with pytest.warns(UserWarning, match="ContextualPrecision: " + warned):
        precision = ContextualPrecision().measure_many([("Where is it?", expected, RANKED),
                                                         ("Where is it?", expected, RANKED[:2])])
    with pytest.warns(UserWarning, match="Faithfulness: " + warned):
        assert Faithfulness().measure(expected, RANKED).level is None
    assert [r.explanation for r in (recall[0], precision[0])] == [why, why]
    assert math.isnan(recall[0].score) and math.isnan(precision[0].score)
    assert (recall[1].score, precision[1].score) == (1.0, 1.0)


PYTHON_THEN_FRANCE = [("user", "What is Python?"), ("assistant", "Python is a programming language."),
                      ("user", "What is the capital of France?")]


def test_a_blank_turn_under_all_turns_counts_as_a_statement_that_addresses_nothing():
    conversation = [*PYTHON_THEN_FRANCE, ("assistant", "   ")]
    result = AnswerRelevancy(multi_turn_strategy="all_turns").measure(conversation=conversation)
    assert (result.score, result.evaluated_turns_count) == (0.5, 2)
    assert [(s.statement, s.verdict, s.turn_index) for s in result.statement_breakdown] == [
        ("Python is a programming language.", "yes", 0), ("(blank answer)", "no", 1)]
    assert (result.relevant_statements_count, result.irrelevant_statements_count) == (1, 1)
    assert result.explanation == ("The score is 0.50 because 'Python is a programming language' addresses its turn's "
                                  "question, while '(blank answer)' does not.")
    assert not AnswerRelevancy(multi_turn_strategy="all_turns", threshold=0.6).measure(conversation=conversation).passed
    last = AnswerRelevancy().measure(conversation=conversation)
    assert (last.score, last.passed) == (0.0, False)


def test_the_all_turns_explanation_does_not_pin_each_statement_to_the_last_question():
    conversation = [*PYTHON_THEN_FRANCE, ("assistant", "I like turtles.")]
    result = AnswerRelevancy(multi_turn_strategy="all_turns").measure(conversation=conversation)
    assert [(s.verdict, s.turn_index) for s in result.statement_breakdown] == [("yes", 0), ("no", 1)]
    assert result.explanation == ("The score is 0.50 because 'Python is a programming language' addresses its turn's "
                                  "question, while 'I like turtles' does not.")


def test_openai_style_messages_are_read_as_role_text_pairs():
    pairs = [("user", "What is Python?"), ("assistant", "Python is a programming language.")]
    dicts = [{"role": role, "content": text} for role, text in pairs]
    for strategy in ("last_turn", "all_turns"):
        metric = AnswerRelevancy(multi_turn_strategy=strategy)
        assert metric.measure(conversation=dicts) == metric.measure(conversation=pairs)


WHERE = r"AnswerRelevancy: conversation: message "


@pytest.mark.parametrize(("conversation", "error", "message"), [
    ([("user", "What is Python?"), ("assistant", math.nan)], TypeError,
     WHERE + r"2 of 2: the content must be a text, got float nan \(a missing value\)"),
    ([("user", None), ("assistant", "Python is a language.")], TypeError,
     WHERE + r"1 of 2: the content must be a text, got NoneType None \(a missing value\)"),
    ([("user", "What is Python?"), ("assistant", 42)], TypeError,
     WHERE + r"2 of 2: the content must be a text, got int 42$"),
    ([("user", "What is Python?", "x"), ("assistant", "Python is a language.")], TypeError,
     WHERE + r"1 of 2 must be a \(role, text\) pair or a \{'role': ..., 'content': ...\} dict, got tuple"),
    ([{"role": "user"}, ("assistant", "Python is a language.")], TypeError, WHERE + r"1 of 2 must be a \(role"),
    ("What is Python?", TypeError, r"AnswerRelevancy: conversation must be a list of \(role, text\) messages .* "
                                   r"got str 'What is Python\?'"),
    ([("user", "What is Python?"), ("assistant", "Python is a language."), ("assistant", "Bananas are yellow.")],
     ValueError, WHERE + "3 of 3 is an assistant message right after another assistant message"),
    ([("assistant", "Python is a language.")], ValueError, WHERE + "1 of 1 is an assistant message before any user"),
    ([("system", "Be brief."), ("user", "What?"), ("assistant", "Yes.")], ValueError,
     WHERE + "1 of 3: unknown role 'system'; use 'user' and 'assistant'"),
])
def test_a_bad_conversation_is_an_error_naming_the_metric_the_parameter_and_the_message(conversation, error,
                                                                                          message):
    for strategy in ("last_turn", "all_turns"):
        with pytest.raises(error, match=message):
            AnswerRelevancy(multi_turn_strategy=strategy).measure(conversation=conversation)


def test_a_query_or_answer_given_with_a_conversation_is_an_error():
    conversation = [("user", "What is Python?"), ("assistant", "Python is a programming language.")]
    for args in (("What?", "Yes."), ("What?", None)):
        with pytest.raises(TypeError, match="AnswerRelevancy.measure: give a query and an answer, or conversation"):
            AnswerRelevancy().measure(*args, conversation=conversation)


def test_latin_letters_beyond_latin_extended_b_are_latin_and_other_scripts_are_still_refused():
    vietnamese = "Nguyễn Thị Định was a Việt Cộng general."
    assert non_latin_share(vietnamese) == 0.0 and non_latin_share("Hawaiʻi is an island.") == 0.0
    assert non_latin_share("Ｐａｒｉｓ is in France.") == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Faithfulness().measure(vietnamese, [vietnamese]).level == 5
        assert AnswerRelevancy().measure("Who was Nguyễn Thị Định?", vietnamese).score == 1.0
    for foreign in ("Эйфелева башня находится в Париже.", "Ο Πύργος του Άιφελ είναι στο Παρίσι.", CHINESE):
        assert non_latin_share(foreign) == 1.0
        with pytest.warns(UserWarning, match="script other than Latin"):
            assert Faithfulness().measure(foreign, [PASSAGE]).level is None


@pytest.mark.parametrize("threshold", [np.int64(4), 3.0, np.float64(5.0), np.int32(1)])
def test_a_rubric_threshold_of_a_numpy_integer_or_a_whole_float_is_its_level(threshold):
    metric = Faithfulness(threshold=threshold)
    assert metric.threshold == int(threshold) and type(metric.threshold) is int


@pytest.mark.parametrize("threshold", [True, np.True_, math.nan, 3.5, "3", 0, 6.0, math.inf])
def test_a_rubric_threshold_that_is_no_level_is_still_refused(threshold):
    with pytest.raises(ValueError, match=re.escape(f"ContextRecall: threshold must be an integer level 1-5, got "
                                                   f"{threshold!r}")):
        ContextRecall(threshold=threshold)


@pytest.mark.parametrize(("sample", "message"), [
    ("sampleId: s1\noutput: x\nevaluationContext: {refrence: Paris., assertions: [{type: faithfulness}]}",
     "samples[0] (s1): evaluationContext: unknown key 'refrence'; the keys of evaluationContext are assertions, "
     "reference"),
    ("sampleId: s1\noutput: x\ninput: {inputKind: text, txt: \"Where?\"}\n"
     "evaluationContext: {assertions: [{type: answer_relevancy}]}",
     "samples[0] (s1): input: unknown key 'txt'; the keys of a text input are inputKind, text"),
    ("sampleId: s1\noutput: x\nouptut: y\nevaluationContext: {reference: Paris., assertions: [{type: faithfulness}]}",
     "samples[0] (s1): unknown key 'ouptut'; the keys of a sample are evaluationContext, input, output, sampleId"),
])
def test_an_unknown_key_beside_the_assertions_is_named_in_a_warning_and_not_read(sample, message):
    import yaml

    from ir_rag_axioms.metrics.samples import parse_samples

    with pytest.warns(UserWarning) as caught:
        (parsed,) = parse_samples(yaml.safe_load(_sample_set(sample)))
    assert [str(w.message) for w in caught] == [f"{message} (not read)"] and parsed.sample_id == "s1"


LONE_SURROGATE = json.loads('"The Eiffel Tower is in Paris. \\ud83d."')  # half an emoji, as a cut JSON string leaves


@pytest.mark.parametrize("call", [
    lambda: Faithfulness().measure(LONE_SURROGATE, ["The Eiffel Tower is in Paris."]),
    lambda: Faithfulness().measure("The Eiffel Tower is in Paris.", ["Paris.", LONE_SURROGATE]),
    lambda: ContextRecall().measure("The Eiffel Tower is in Paris.", LONE_SURROGATE),
    lambda: AnswerRelevancy().measure(LONE_SURROGATE, "The Eiffel Tower is in Paris."),
])
def test_a_lone_surrogate_is_refused_naming_where_it_is_not_a_crash_in_spacy(call):
    with pytest.raises(ValueError, match=r"holds a lone surrogate '\\ud83d' at character 30 .*not valid Unicode"):
        call()


def test_the_analysis_reads_a_text_with_a_lone_surrogate_as_unanalysable_so_axioms_abstain():
    from ir_rag_axioms.analysis.cache import is_analysable, lone_surrogate

    found = (lone_surrogate(LONE_SURROGATE), lone_surrogate("Café 🎉."), is_analysable(LONE_SURROGATE))
    assert found == (30, None, False)


TALL = ["The Eiffel Tower is 330 metres tall.", "The Eiffel Tower was completed in 1889."]


@pytest.mark.parametrize("answer", [
    "The Eiffel Tower is 330 metres tall. The Eiffel Tower is 300 metres tall.",
    "The Eiffel Tower is 300 metres tall. The Eiffel Tower is 330 metres tall.",
    "The Eiffel Tower was completed in 1889. The Eiffel Tower was completed in 1899."])
def test_a_near_duplicate_with_another_number_is_a_statement_of_its_own_in_either_order(answer):
    result = Faithfulness().measure(answer, TALL)
    assert result.level == 1 and result.explanation.startswith("1 of 2 statements supported"), result.explanation
    assert ContextualRecall().measure(answer, TALL).score == 0.5


def test_a_repeated_statement_still_counts_once():
    result = Faithfulness().measure("The Eiffel Tower is 330 metres tall. The Eiffel Tower is 330 metres tall.", TALL)
    assert result.level == 5 and result.explanation.startswith("1 of 1 statements supported"), result.explanation


def test_a_passage_given_as_a_dict_with_its_text_is_read_as_metric_scorer_reads_it():
    as_dicts = [{"docno": "d1", "text": PASSAGE}]
    assert Faithfulness().measure("It was completed in 1889.", as_dicts).level == 5
    assert Faithfulness().measure("It was completed in 1899.", as_dicts).level == 1
    recall = ContextualRecall().measure("It was completed in 1889.", as_dicts)
    assert recall.score == ContextualRecall().measure("It was completed in 1889.", [PASSAGE]).score == 1.0
    with pytest.raises(TypeError, match=r"item 0 is dict .* without a text 'text'"):
        Faithfulness().measure("It was completed in 1889.", [{"docno": "d1"}])
    with pytest.raises(TypeError, match=r"item 0 is NoneType None \(a missing value"):
        Faithfulness().measure("It was completed in 1889.", [{"text": None}])


def test_negate_inverts_passed_never_the_score_in_strict_mode_too():
    for strict in (False, True):
        plain = Faithfulness(strict_mode=strict).measure("It was completed in 1889.", [PASSAGE])
        negated = Faithfulness(strict_mode=strict, negate=True).measure("It was completed in 1889.", [PASSAGE])
        assert (plain.level, plain.score, plain.passed) == (5, 1.0, True)
        assert (negated.level, negated.score, negated.passed) == (5, 1.0, False)
