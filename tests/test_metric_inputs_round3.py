"""Inputs of the sample runner, DatasetItem, assert_metric and the LLM judge's cost that were read wrongly.

A lone surrogate in a sample's output, a set of passages, a key given twice in a sample set, execute()'s result in
assert_metric, an answer without ``usage`` when prices are set, and an object where --outputs expects a text: each is
refused (or reported) naming the input, and the near case that is right still works.
"""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from conftest import JsonHandler, loopback_server

from ir_rag_axioms.metrics import AnswerRelevancy, ContextualPrecision, DatasetItem, LlmJudge, RubricAnswerRelevancy
from ir_rag_axioms.metrics.results import Usage
from ir_rag_axioms.testing import RagTestCase, assert_metric

QUESTION = "When was the Eiffel Tower completed?"
SAMPLE_SET = """schemaVersion: omk.eval-sample-set/v3
samples:
  - sampleId: s1
    input: {inputKind: text, text: "When was the Eiffel Tower completed?"}
    evaluationContext:
      reference: "The Eiffel Tower was completed in 1889."
      assertions:
        - {type: answer_relevancy}
"""
PREFIX = "python -m ir_rag_axioms.metrics: error: "


def _run(tmp_path, monkeypatch, capsys, files: dict[str, str], *argv: str) -> tuple[int, str, str]:
    """Run the sample runner on ``files`` (written in tmp_path): (exit status, stdout, stderr)."""
    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    try:
        main(list(argv))
        code = 0
    except SystemExit as exited:
        code = int(exited.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- 01: a lone surrogate in an output is refused, never judged as an empty answer ---------------------------------
LONE = "The Eiffel Tower \\ud83c was completed in 1889."  # JSON / YAML escape of half an emoji


def test_a_lone_surrogate_in_outputs_is_exit_2_naming_it(tmp_path, monkeypatch, capsys):
    code, out, err = _run(tmp_path, monkeypatch, capsys, {"s.yaml": SAMPLE_SET, "o.json": f'{{"s1": "{LONE}"}}'},
                          "s.yaml", "--outputs", "o.json")
    assert code == 2 and out == ""
    assert err.startswith(f"{PREFIX}o.json: sampleId 's1': the output holds a lone surrogate '\\ud83c' at character 17")


def test_a_lone_surrogate_in_a_jsonl_output_or_the_sample_set_is_exit_2_naming_it(tmp_path, monkeypatch, capsys):
    code, _, err = _run(tmp_path, monkeypatch, capsys,
                        {"s.yaml": SAMPLE_SET, "o.jsonl": f'{{"sampleId": "s1", "output": "{LONE}"}}\n'},
                        "s.yaml", "--outputs", "o.jsonl")
    assert code == 2 and "o.jsonl line 1 (sampleId 's1'): the output holds a lone surrogate" in err
    with_output = SAMPLE_SET.replace("    evaluationContext:", f'    output: "{LONE}"\n    evaluationContext:')
    code, _, err = _run(tmp_path, monkeypatch, capsys, {"t.yaml": with_output}, "t.yaml")
    assert code == 2 and err.startswith(f"{PREFIX}samples[0] (s1): output holds a lone surrogate '\\ud83c'")
    bad_reference = SAMPLE_SET.replace('completed in 1889."', 'completed \\ud83c in 1889."')
    code, _, err = _run(tmp_path, monkeypatch, capsys, {"u.yaml": bad_reference}, "u.yaml")
    assert code == 2 and "samples[0] (s1): evaluationContext: reference holds a lone surrogate" in err


def test_evaluate_samples_refuses_a_lone_surrogate_in_outputs_and_reads_a_whole_emoji():
    import yaml

    from ir_rag_axioms.metrics.samples import evaluate_samples, parse_samples

    samples = parse_samples(yaml.safe_load(SAMPLE_SET))
    with pytest.raises(ValueError, match=r"sample 's1': the output holds a lone surrogate '\\ud83c'"):
        evaluate_samples(samples, {"s1": "The Eiffel Tower \ud83c was completed in 1889."})
    (row,) = evaluate_samples(samples, {"s1": "The Eiffel Tower \U0001f3c1 was completed in 1889."})
    assert row["level"] >= 4 and row["passed"] is True


def test_a_whole_emoji_in_outputs_is_judged(tmp_path, monkeypatch, capsys):
    code, out, _ = _run(tmp_path, monkeypatch, capsys,
                        {"s.yaml": SAMPLE_SET, "o.json": '{"s1": "The Eiffel Tower \\ud83c\\udfc1 was completed in '
                                                         '1889."}'}, "s.yaml", "--outputs", "o.json")
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and row["level"] >= 4 and row["passed"] is True


# -- 02: a set of passages has no order: a TypeError, as measure() gives ---------------------------------------------
PASSAGES = ["The Eiffel Tower is in Paris.", "Bananas are rich in potassium."]


@pytest.mark.parametrize("kind", [set, frozenset])
def test_dataset_item_refuses_a_set_of_passages(kind):
    with pytest.raises(TypeError, match=r"DatasetItem: retrieved_content must be a list of passages, got "
                                        rf"{kind.__name__} \(a set has no order: pass a list, in rank order\)"):
        DatasetItem(query="Where is the Eiffel Tower?", retrieved_content=kind(PASSAGES))
    with pytest.raises(TypeError, match=f"DatasetItem: reference must be a text or a list of facts, got "
                                        f"{kind.__name__}"):
        DatasetItem(query="Where is the Eiffel Tower?", reference=kind(PASSAGES))
    with pytest.raises(TypeError, match=f"RagTestCase: retrieval_context must be a list of passages, got "
                                        f"{kind.__name__}"):
        RagTestCase("Where is the Eiffel Tower?", "In Paris.", kind(PASSAGES))
    with pytest.raises(TypeError, match=f"a retrieval context must be a text or a list of passages, got "
                                        f"{kind.__name__}"):
        ContextualPrecision().measure("Where is the Eiffel Tower?", "In Paris.", kind(PASSAGES))


def test_dataset_item_keeps_a_list_tuple_or_generator_of_passages_in_order():
    for given in (PASSAGES, tuple(PASSAGES), (p for p in PASSAGES)):
        item = DatasetItem(query="Where is the Eiffel Tower?", retrieved_content=given, reference=PASSAGES[:1])
        assert item.retrieved_content == tuple(PASSAGES)
    assert RagTestCase("Where?", "In Paris.", PASSAGES, reference="Paris").retrieval_context == PASSAGES


# -- 03: a key given twice in a sample set is an error naming it -----------------------------------------------------
def test_a_yaml_key_given_twice_is_exit_2_naming_it_and_its_lines(tmp_path, monkeypatch, capsys):
    twice = SAMPLE_SET.replace("    evaluationContext:", '    output: "In 1889."\n    output: "Bananas are yellow."\n'
                               "    evaluationContext:")
    code, out, err = _run(tmp_path, monkeypatch, capsys, {"s.yaml": twice}, "s.yaml")
    assert code == 2 and out == ""
    assert err == (f"{PREFIX}s.yaml: not valid YAML (key 'output' appears twice in one mapping (first at line 5, "
                   "column 5; the first value would be ignored) at line 6, column 5)\n")
    threshold = SAMPLE_SET.replace('    input: {', '    output: "In 1889."\n    input: {').replace(
        "{type: answer_relevancy}", "{type: answer_relevancy, threshold: 2, threshold: 5}")
    code, _, err = _run(tmp_path, monkeypatch, capsys, {"t.yaml": threshold}, "t.yaml")
    assert code == 2 and "key 'threshold' appears twice in one mapping (first at line 9, column 36" in err


def test_a_json_sample_set_key_given_twice_is_exit_2(tmp_path, monkeypatch, capsys):
    document = ('{"samples": [{"sampleId": "s1", "output": "In 1889.", "output": "Bananas are yellow.", '
                '"input": {"inputKind": "text", "text": "When?"}, '
                '"evaluationContext": {"assertions": [{"type": "answer_relevancy"}]}}]}')
    code, _, err = _run(tmp_path, monkeypatch, capsys, {"s.json": document}, "s.json")
    assert code == 2 and err == (f"{PREFIX}s.json: key 'output' appears twice in one object (the first value would be "
                                 "ignored); give it once\n")


def test_the_same_key_in_two_mappings_and_a_yaml_merge_are_read(tmp_path, monkeypatch, capsys):
    from ir_rag_axioms.metrics.samples import read_samples

    merged = """schemaVersion: omk.eval-sample-set/v3
base: &base {type: answer_relevancy, threshold: 2}
samples:
  - sampleId: s1
    input: {inputKind: text, text: "When was the Eiffel Tower completed?"}
    output: "It was completed in 1889."
    evaluationContext:
      assertions:
        - {<<: *base, threshold: 4}
  - sampleId: s2
    input: {inputKind: text, text: "When was the Eiffel Tower completed?"}
    output: "In 1889."
    evaluationContext:
      assertions:
        - {type: answer_relevancy}
"""
    (tmp_path / "m.yaml").write_text(merged, encoding="utf-8")
    samples = read_samples(tmp_path / "m.yaml")
    assert [(s.sample_id, s.output, s.assertions[0].threshold) for s in samples] == [
        ("s1", "It was completed in 1889.", 4), ("s2", "In 1889.", 3)]


# -- 04: assert_metric reads execute()'s result ----------------------------------------------------------------------
def _executed(answer: str, query: str = QUESTION):
    return asyncio.run(AnswerRelevancy().execute(DatasetItem(query=query, actual_output=answer)))


def test_assert_metric_on_a_failing_execute_result_is_an_assertion_error_with_score_threshold_reason():
    result = _executed("Bananas are yellow.")
    assert result.passed is False
    with pytest.raises(AssertionError, match=r"^answer_relevancy: score 0\.00 below threshold 0\.5 \(judge "
                                             r"heuristic\(.*\)\) - The score is 0\.00 because"):
        assert_metric(result)
    with pytest.raises(AssertionError, match=r"^my check: answer_relevancy: score 0\.00"):
        assert_metric(result, "my check")


def test_assert_metric_on_an_undefined_execute_result_says_why():
    result = _executed("In 1889.", query="   ")
    assert math.isnan(result.score) and result.passed is None
    with pytest.raises(AssertionError, match=r"^answer_relevancy: undefined score \(NaN\) - Not judged: the query is "
                                             "blank"):
        assert_metric(result)


def test_assert_metric_returns_a_passing_execute_result_and_still_refuses_a_number():
    result = _executed("In 1889.")
    assert assert_metric(result) is result
    with pytest.raises(TypeError, match=r"assert_metric: result must be a metric's result \(metric\.measure\(\.\.\.\) "
                                        r"or metric\.execute\(item\)\), got float 0\.9"):
        assert_metric(0.9)  # type: ignore[arg-type]


# -- 11: an answer without usage has an unknown cost, not 0 ----------------------------------------------------------
class _NoUsage(JsonHandler):
    """An OpenAI-compatible judge that answers level 4 without ``usage`` (or with ``usage`` from ``usage``)."""

    usage: object = None

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        body = {"choices": [{"message": {"role": "assistant", "content": '{"score": 4, "reason": "ok"}'},
                             "finish_reason": "stop"}]}
        if type(self).usage is not None:
            body["usage"] = type(self).usage
        self.send_json(json.dumps(body).encode())


@pytest.mark.parametrize("usage", [None, {"prompt_tokens": "ten"}, [1, 2]])
def test_an_answer_without_usage_has_an_unknown_cost_with_prices(usage):
    _NoUsage.usage = usage
    with loopback_server(_NoUsage) as url:
        judge = LlmJudge(f"{url}/v1", "m", cache_dir="none", input_price=1.0, output_price=2.0)
        result = RubricAnswerRelevancy(judge=judge).measure(QUESTION, "In 1889.")
    assert result.level == 4
    assert result.usage == Usage(answers=1, cost=None, unreported=1)
    assert judge.usage == Usage(answers=1, cost=None, unreported=1)


def test_a_reported_answer_keeps_its_cost_and_an_unknown_one_makes_the_total_unknown():
    _NoUsage.usage = {"prompt_tokens": 100, "completion_tokens": 20}
    with loopback_server(_NoUsage) as url:
        judge = LlmJudge(f"{url}/v1", "m", cache_dir="none", input_price=1.0, output_price=2.0)
        result = RubricAnswerRelevancy(judge=judge).measure(QUESTION, "In 1889.")
        assert result.usage.cost == pytest.approx((100 * 1.0 + 20 * 2.0) / 1e6)
        assert judge.usage.cost == pytest.approx((100 * 1.0 + 20 * 2.0) / 1e6)
        _NoUsage.usage = None
        RubricAnswerRelevancy(judge=judge).measure(QUESTION, "It was completed in 1889.")
    assert judge.usage.cost is None and judge.usage.answers == 2 and judge.usage.unreported == 1


def test_usage_sums_keep_known_costs_and_an_empty_start():
    known, unknown = Usage(1, 10, 2, 0.5), Usage(1, cost=None, unreported=1)
    assert (Usage() + known).cost == 0.5 and (Usage(cost=0.0) + known + known).cost == 1.0
    assert (known + unknown).cost is None and (unknown + known).cost is None
    assert (Usage(cost=0.0) + Usage()).cost == 0.0 and (Usage() + Usage()).cost is None
    assert (Usage(1) + Usage(1)).cost is None  # no prices


# -- 12: --outputs names a JSON object as an object --------------------------------------------------------------------
@pytest.mark.parametrize(("value", "got"), [
    ('{"output": "In 1889."}', 'an object {"output": "In 1889."}'),
    ('["In 1889."]', 'an array ["In 1889."]'),
    ("1889", "a number 1889"),
    ("true", "a boolean true"),
    ("null", "null"),
    ('{"a": {"b": [1, {"c": 2}]}}', 'an object {"a": {"b": [1, {"c": 2}]}}'),
])
def test_an_outputs_value_that_is_not_a_text_is_named_as_json_writes_it(tmp_path, monkeypatch, capsys, value, got):
    code, _, err = _run(tmp_path, monkeypatch, capsys, {"s.yaml": SAMPLE_SET, "o.json": f'{{"s1": {value}}}'},
                        "s.yaml", "--outputs", "o.json")
    assert code == 2 and err == f"{PREFIX}o.json: sampleId 's1': the output must be a text, got {got}\n"
    code, _, err = _run(tmp_path, monkeypatch, capsys,
                        {"o.jsonl": f'{{"sampleId": "s1", "output": {value}}}\n'}, "s.yaml", "--outputs", "o.jsonl")
    assert code == 2 and err == f"{PREFIX}o.jsonl line 1 (sampleId 's1'): the output must be a text, got {got}\n"


def test_an_outputs_object_of_texts_is_read(tmp_path, monkeypatch, capsys):
    code, out, _ = _run(tmp_path, monkeypatch, capsys, {"s.yaml": SAMPLE_SET, "o.json": '{"s1": "In 1889."}'},
                        "s.yaml", "--outputs", "o.json")
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and row["sampleId"] == "s1" and row["passed"] is True
    code, _, err = _run(tmp_path, monkeypatch, capsys, {"o.json": '{"s1": "In 1889.", "s1": "No."}'},
                        "s.yaml", "--outputs", "o.json")
    assert code == 2 and err == f"{PREFIX}o.json: sampleId 's1' appears twice in --outputs\n"


def test_rubric_answer_relevancy_measure_many_refuses_a_lone_surrogate_naming_the_case() -> None:
    from ir_rag_axioms.metrics import RubricAnswerRelevancy

    with pytest.raises(ValueError, match=r"RubricAnswerRelevancy: case 2 of 2: answer holds a lone surrogate"):
        RubricAnswerRelevancy().measure_many([("When was it built?", "In 1889."), ("When?", "In 1889 \ud83c.")])
    assert RubricAnswerRelevancy().measure("When was the tower built?", "It was built in 1889.").level == 5
