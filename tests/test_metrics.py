"""The RAG metrics with the offline judge: the seed's worked examples, properties, rubric levels, axioms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT, load_script

from ir_rag_axioms import ANSWER_RELEVANCY, CONTEXT_RECALL, FAITHFULNESS, parse
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.metrics import (
    OFFLINE_JUDGE,
    AnswerRelevancy,
    ContextRecall,
    Faithfulness,
    LlmJudge,
    OfflineJudge,
    RubricAnswerRelevancy,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse
from ir_rag_axioms.testing import check_axiom

GREEN_TEA = ("What are the health benefits of green tea?",
             "Green tea contains antioxidants that may reduce inflammation. It also has caffeine which can improve "
             "alertness.")
LAPTOP_QUERY = "What features does this laptop have?"
LAPTOP = "The laptop has a 15-inch display. It has 16GB RAM."
CUSTOMER = "Our company has excellent customer service."
PASSWORD = ("How do I reset my password?",
            "Our platform uses industry-standard encryption. We were founded in 2015. Password resets can be done via "
            "email. We have offices in 3 countries.")
CONVERSATION = [("user", "What is Python?"), ("assistant", "Python is a programming language known for readability."),
                ("user", "What are its main uses?"),
                ("assistant", "Python is used for web dev, data science, and automation.")]
PADDING = " Our company was founded in 2010. The Eiffel Tower is in Paris. Bananas are rich in potassium."
TIDES_CONTEXT = ["Tides are caused mainly by the gravitational pull of the Moon on the oceans.",
                 "The Sun also affects tides, but less than the Moon does."]
EXAMPLES = [GREEN_TEA, (LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}"), (LAPTOP_QUERY, LAPTOP), PASSWORD,
            ("What causes ocean tides?", "Tides are caused by the Moon's pull [1]. I like pizza. The sea is salty.")]


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    for name in ("IR_RAG_AXIOMS_JUDGE_BASE_URL", "OPENAI_BASE_URL", "IR_RAG_AXIOMS_JUDGE_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_green_tea_scores_one():
    result = AnswerRelevancy().measure(*GREEN_TEA)
    assert result.score == 1.0 and result.passed
    assert result.total_statements_count == 2 and result.irrelevant_statements_count == 0
    assert result.judge == "heuristic(all-MiniLM-L6-v2)"


def test_laptop_customer_service_sentence_is_no_and_lowers_the_score():
    metric = AnswerRelevancy()
    with_it, without = metric.measure(LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}"), metric.measure(LAPTOP_QUERY, LAPTOP)
    assert with_it.score == pytest.approx(2 / 3) and without.score == 1.0
    verdicts = {s.statement: s.verdict for s in with_it.statement_breakdown}
    assert verdicts[CUSTOMER] == "no"
    assert with_it.to_dict()["irrelevant_statements_count"] == 1


def test_password_answer_scores_lowest():
    metric = AnswerRelevancy()
    scores = [metric.measure(*case).score for case in (GREEN_TEA, (LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}"), PASSWORD)]
    assert scores[2] == pytest.approx(0.25) and scores[2] < min(scores[:2])
    assert not metric.measure(*PASSWORD).passed


def test_strict_is_never_more_lenient_and_penalising_ambiguity_never_raises():
    for query, answer in EXAMPLES:
        task = AnswerRelevancy().measure(query, answer).score
        for penalize in (False, True):
            strict = AnswerRelevancy(relevancy_mode="strict", penalize_ambiguity=penalize).measure(query, answer)
            assert strict.score <= AnswerRelevancy(penalize_ambiguity=penalize).measure(query, answer).score
        assert AnswerRelevancy(penalize_ambiguity=True).measure(query, answer).score <= task


def test_multi_turn():
    all_turns = AnswerRelevancy(multi_turn_strategy="all_turns").measure(conversation=CONVERSATION)
    last = AnswerRelevancy().measure(conversation=CONVERSATION)
    assert all_turns.evaluated_turns_count == 2 and last.evaluated_turns_count == 1
    assert {s.turn_index for s in all_turns.statement_breakdown} == {0, 1}
    assert [(s.statement, s.turn_index) for s in last.statement_breakdown] == [(CONVERSATION[3][1], 1)]
    with pytest.raises(ValueError, match="no user -> assistant"):
        AnswerRelevancy().measure(conversation=[("user", "hi")])


def test_result_forms():
    result = AnswerRelevancy().measure(LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}")
    data = result.to_dict()
    assert set(data) >= {"overall_score", "explanation", "relevant_statements_count", "irrelevant_statements_count",
                         "ambiguous_statements_count", "total_statements_count", "statement_breakdown",
                         "evaluated_turns_count"}
    assert data["statement_breakdown"][2] == {"statement": CUSTOMER, "verdict": "no", "is_relevant": False,
                                              "reason": data["statement_breakdown"][2]["reason"], "turn_index": 0}
    text = result.pretty()
    assert "0.67" in text and "[ no] (turn 0) Our company has excellent customer service." in text
    assert AnswerRelevancy().measure("Why?", "   ").score == 0.0


def test_padding_never_raises_answer_relevancy_or_faithfulness():
    for query, answer in EXAMPLES:
        padded = answer + PADDING
        assert AnswerRelevancy().measure(query, padded).score < AnswerRelevancy().measure(query, answer).score
    tides = "Tides are caused by the gravitational pull of the Moon. The Sun also affects tides."
    assert Faithfulness().measure(tides + PADDING, TIDES_CONTEXT).level < Faithfulness().measure(
        tides, TIDES_CONTEXT).level


def test_repeating_content_does_not_raise_a_rubric_level():
    query, answer = GREEN_TEA
    longer = answer + " " + answer + " Green tea has antioxidants, which may reduce inflammation."
    rubric = RubricAnswerRelevancy()
    assert rubric.measure(query, longer).level <= rubric.measure(query, answer).level
    half = "Tides are caused by the gravitational pull of the Moon. I like pizza."
    repeated = half + " Tides are caused by the gravitational pull of the Moon." * 3
    assert Faithfulness().measure(repeated, TIDES_CONTEXT).level == Faithfulness().measure(half, TIDES_CONTEXT).level


def test_rubric_levels_and_evidence():
    faithfulness = Faithfulness(threshold=4)
    supported = faithfulness.measure("Tides are caused by the gravitational pull of the Moon.", TIDES_CONTEXT)
    invented = faithfulness.measure("Whales sing long songs in the deep ocean. Pizza comes from Naples.",
                                    " ".join(TIDES_CONTEXT))
    assert (supported.level, supported.score, supported.passed) == (5, 1.0, True)
    assert (invented.level, invented.score, invented.passed) == (1, 0.0, False)
    assert supported.evidence == {"raw_score": 5, "reason": supported.explanation, "threshold": 4, "negated": False,
                                  "confidence": 1.0}
    assert Faithfulness(threshold=4, negate=True).measure("Pizza comes from Naples.", TIDES_CONTEXT).passed
    recall = ContextRecall().measure("The Moon's gravity causes the tides.",
                                     ["The Moon's gravity causes tides.", "Bananas are rich in potassium."])
    assert recall.level == 3 and recall.passed and [d["ok"] for d in recall.breakdown] == [True, False]
    assert "context_recall: level 3/5 (score 0.50; PASS, threshold 3" in recall.pretty()
    assert RubricAnswerRelevancy().measure("What causes tides?", "I like pizza. Naples is in Italy.").level == 1
    assert RubricAnswerRelevancy().measure(*GREEN_TEA).to_dict()["level"] == 5
    with pytest.raises(ValueError, match="integer level 1-5"):
        Faithfulness(threshold=6)


def test_offline_judge_parameters_are_checked_and_seed_interval_holds():
    seed_interval = load_script("calibration", ROOT / "bench" / "calibration.py").seed_interval
    with pytest.raises(ValueError, match="never more lenient"):
        OfflineJudge(strict_no_threshold=0.0)
    low, high = seed_interval(OFFLINE_JUDGE)
    assert low <= OFFLINE_JUDGE.no_threshold <= high


def test_statements_split_bullets_and_clauses_and_drop_citations():
    (found,) = OFFLINE_JUDGE.statements(["- **Energy saving** [1]\n- Hunting instincts [2, 3]\n\nCats sleep 12 hours "
                                         "a day because they hunt at night and they need a lot of energy, but kittens "
                                         "sleep even longer since they grow fast and their bodies need rest."])
    assert [s.text for s in found][:3] == ["Energy saving", "Hunting instincts",
                                           "Cats sleep 12 hours a day because they hunt at night"]
    assert len(found) >= 5 and found[0].terms == ("energy", "saving")


def test_unconfigured_llm_judge_says_how_to_configure_it():
    with pytest.raises(ToolUnavailableError, match="IR_RAG_AXIOMS_JUDGE_BASE_URL"):
        LlmJudge()
    with pytest.raises(ToolUnavailableError, match="base_url="):
        ANSWER_RELEVANCY(judge="llm").preferences(GenerationRequest("q", "Why?"), [GenerationResponse("a", "So.")])


@pytest.mark.parametrize("axiom", [ANSWER_RELEVANCY, FAITHFULNESS, CONTEXT_RECALL,
                                   ANSWER_RELEVANCY(relevancy_mode="strict", penalize_ambiguity=True)])
def test_metric_axioms_have_the_axiom_properties(axiom):
    check_axiom(axiom)


def test_axioms_prefer_the_higher_score_and_combine():
    request = GenerationRequest("q", LAPTOP_QUERY, tuple(TIDES_CONTEXT))
    responses = [GenerationResponse("a", LAPTOP), GenerationResponse("b", f"{LAPTOP} {CUSTOMER}"),
                 GenerationResponse("c", PASSWORD[1])]
    assert ANSWER_RELEVANCY.preferences(request, responses).tolist() == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]
    assert ANSWER_RELEVANCY(margin_fraction=0.5).preferences(request, responses)[0, 1] == 0
    assert not FAITHFULNESS.preferences(GenerationRequest("q", "Why?"), responses).any()  # no context: abstains
    combined = parse("ANSWER_RELEVANCY() | FAITHFULNESS()")
    assert combined.preferences(request, responses).tolist() == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]


def test_transformer_adds_score_and_pass_columns():
    frame = pd.DataFrame({"qid": ["1", "1", "2"], "query": [LAPTOP_QUERY, LAPTOP_QUERY, GREEN_TEA[0]],
                          "docno": ["a", "b", "c"], "text": [f"{LAPTOP} {CUSTOMER}", LAPTOP, GREEN_TEA[1]],
                          "context": [TIDES_CONTEXT, TIDES_CONTEXT, None]})
    from ir_rag_axioms.pyterrier.metrics import MetricScorer

    out = MetricScorer()(frame)
    assert list(out["docno"]) == ["a", "b", "c"]
    np.testing.assert_allclose(out["answer_relevancy_score"], [2 / 3, 1.0, 1.0])
    assert list(out["answer_relevancy_pass"]) == [True, True, True]
    assert np.isnan(out["faithfulness_score"][2]) and out["faithfulness_pass"].isna()[2]
    assert out["faithfulness_level"][0] == 1.0 and not out["faithfulness_pass"][0]
    assert list(out["rubric_answer_relevancy_level"]) == [3.0, 5.0, 5.0]
    assert list(out["context_recall_level"][:2]) == [1.0, 1.0]


@pytest.mark.slow
@pytest.mark.shared
def test_padding_crowd_responses_never_raises_relevancy_or_faithfulness(data_dir):
    from ir_rag_axioms.datasets import crowd

    items = crowd.items(crowd.load_crowd_responses(data_dir / "trec-rag-24-crowd"))[:2]
    pairs = [(q, r.text) for q, responses in items for r in responses]
    relevancy, faithfulness = AnswerRelevancy(), Faithfulness()
    before = relevancy.measure_many([(q.text, t) for q, t in pairs])
    after = relevancy.measure_many([(q.text, t + PADDING) for q, t in pairs])
    assert all(a.score <= b.score for a, b in zip(after, before, strict=True))
    assert all(a.irrelevant_statements_count == b.irrelevant_statements_count + 3
               for a, b in zip(after, before, strict=True))
    before_levels = [r.level for r in faithfulness.measure_many([(t, q.context) for q, t in pairs])]
    after_levels = [r.level for r in faithfulness.measure_many([(t + PADDING, q.context) for q, t in pairs])]
    assert all(a <= b for a, b in zip(after_levels, before_levels, strict=True) if a is not None and b is not None)


def test_reranker_orders_answers_by_answer_relevancy():
    from ir_rag_axioms import AxiomaticReranker

    frame = pd.DataFrame({"qid": "1", "query": LAPTOP_QUERY, "docno": ["pw", "mixed", "laptop"],
                          "text": [PASSWORD[1], f"{LAPTOP} {CUSTOMER}", LAPTOP]})
    ranked = AxiomaticReranker(["ANSWER_RELEVANCY", FAITHFULNESS])(frame)
    assert list(ranked["docno"]) == ["laptop", "mixed", "pw"]


WARRANTY = ("What features does this laptop have?",
            "The laptop has a 15-inch Retina display and 16GB of RAM. It also comes with a 1-year warranty. Our "
            "company was founded in 2010.")
PYTHON_REWORDED = CONVERSATION[:3] + [("assistant", "Python is used for web development, data science and automation.")]
MODES = (("task", False), ("strict", False), ("task", True), ("strict", True))
SEED_SCORES = {  # the seed's worked examples; the numbers its verdicts imply in each mode (README table)
    "green tea": (GREEN_TEA, (1.0, 1.0, 1.0, 1.0)),
    "laptop": ((LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}"), (2 / 3, 2 / 3, 2 / 3, 2 / 3)),
    "password": (PASSWORD, (0.25, 0.25, 0.25, 0.25)),
    "laptop with warranty": (WARRANTY, (2 / 3, 2 / 3, 1 / 3, 1 / 3)),
}


@pytest.mark.parametrize("name", sorted(SEED_SCORES))
def test_seed_worked_examples_in_all_four_modes(name):
    (query, answer), expected = SEED_SCORES[name]
    scores = [AnswerRelevancy(relevancy_mode=m, penalize_ambiguity=p).measure(query, answer).score for m, p in MODES]
    assert scores == pytest.approx(expected)


def test_seed_conversation_and_its_rewording_score_one_in_all_four_modes_with_history():
    for conversation in (CONVERSATION, PYTHON_REWORDED):
        for mode, penalize in MODES:
            metric = AnswerRelevancy(relevancy_mode=mode, penalize_ambiguity=penalize, multi_turn_strategy="all_turns")
            result = metric.measure(conversation=conversation)
            assert (result.score, result.evaluated_turns_count) == (1.0, 2)
    alone = AnswerRelevancy(window_size=0, penalize_ambiguity=True).measure(conversation=PYTHON_REWORDED)
    assert alone.score == 0.0 and alone.statement_breakdown[0].verdict == "no"  # "its uses" without the history
    with pytest.raises(ValueError, match="window_size"):
        AnswerRelevancy(window_size=-1)


def test_granular_mode_keeps_per_statement_signals_and_summary_only_counts():
    granular = AnswerRelevancy(mode="granular").measure(*WARRANTY)
    assert [(s.verdict, s.is_relevant, s.turn_index) for s in granular.statement_breakdown] == [
        ("yes", True, 0), ("idk", True, 0), ("no", False, 0)]  # the score counts the idk: so does is_relevant
    assert all(s.reason for s in granular.statement_breakdown)
    summary = AnswerRelevancy(mode="summary").measure(*WARRANTY)
    assert summary.statement_breakdown == () and summary.score == granular.score
    assert (summary.relevant_statements_count, summary.ambiguous_statements_count,
            summary.irrelevant_statements_count, summary.total_statements_count) == (1, 1, 1, 3)
    with pytest.raises(ValueError, match="granular"):
        AnswerRelevancy(mode="holistic")


def test_empty_answer_scores_zero_and_says_why():
    result = AnswerRelevancy().measure("Why is the sky blue?", "")
    assert (result.score, result.passed, result.total_statements_count) == (0.0, False, 0)
    assert "no statements" in result.explanation and "DeepEval scores 1" in result.explanation


def test_reference_facts_are_split_as_the_specification_writes_them():
    recall = ContextRecall().measure("Green tea contains caffeine. Green tea contains catechins.",
                                     "green tea contains caffeine; green tea contains catechins; green tea lowers "
                                     "blood pressure")
    assert [d["reference fact"] for d in recall.breakdown] == ["green tea contains caffeine",
                                                               "green tea contains catechins",
                                                               "green tea lowers blood pressure"]
    assert [d["ok"] for d in recall.breakdown] == [True, True, False] and recall.level == 3


def test_length_debias_block_is_the_specification_s_bytes_and_our_additions_are_separate():
    from ir_rag_axioms.metrics import prompts

    spec = ("## 重要：长度不是质量信号\n评分时聚焦内容实质，不要因输出更长就给更高分。\n"
            "简洁正确的回答与冗长正确的回答应得相同分数。")
    assert prompts.RAG_LENGTH_DEBIAS == spec
    system = prompts.rubric_messages("faithfulness", "out", reference="ctx")[0]["content"]
    assert f"{spec}\n{prompts.RAG_LENGTH_DEBIAS_EN}" in system and prompts.RAG_PRESENTATION_NEUTRALITY in system


def test_transformer_keeps_evidence_and_reads_each_row_s_own_context():
    from ir_rag_axioms.pyterrier.metrics import MetricScorer

    paris = ["The Eiffel Tower is in Paris and was completed in 1889."]
    frame = pd.DataFrame({"qid": "1", "query": "Where is the Eiffel Tower?", "docno": ["a", "b"],
                          "text": ["The Eiffel Tower is in Paris.", "The Eiffel Tower is in Berlin."],
                          "context": [paris, ["The Eiffel Tower is in Berlin."]]})
    out = MetricScorer([Faithfulness()])(frame)
    assert list(out["faithfulness_level"]) == [5.0, 5.0]  # each answer against its own context
    assert list(out["faithfulness_threshold"]) == [3.0, 3.0] and list(out["faithfulness_confidence"]) == [1.0, 1.0]
    assert out["faithfulness_reason"][0].startswith("1 of 1 statements supported")
    frame["context"] = [paris, paris]
    out = MetricScorer([Faithfulness(), AnswerRelevancy()])(frame)
    assert list(out["faithfulness_level"]) == [5.0, 1.0] and "'berlin' vs 'paris'" in out["faithfulness_reason"][1]
    assert out["answer_relevancy_reason"][0].startswith("The score is") and "answer_relevancy_threshold" in out


def test_scorer_threshold_column_honours_strict_mode_and_two_metrics_of_one_class_are_named_apart():
    from ir_rag_axioms.pyterrier.metrics import MetricScorer, metric_measures

    paris = ["The Eiffel Tower is in Paris and was completed in 1889."]
    frame = pd.DataFrame({"qid": "1", "query": "Where is the Eiffel Tower?", "docno": ["a", "b"],
                          "text": ["The Eiffel Tower is in Paris.", "The Eiffel Tower is in Berlin."],
                          "context": [paris, paris]})
    out = MetricScorer([Faithfulness(strict_mode=True), AnswerRelevancy(strict_mode=True)])(frame)
    assert list(out["faithfulness_threshold"]) == [5.0, 5.0] and list(out["answer_relevancy_threshold"]) == [1.0, 1.0]
    assert list(out["faithfulness_pass"]) == [True, False]
    with pytest.raises(ValueError, match=r"both write the columns faithfulness_\*.*mapping"):
        MetricScorer([Faithfulness(), Faithfulness(threshold=4)])
    both = MetricScorer({"faithfulness": Faithfulness(), "faithfulness_t5": Faithfulness(threshold=5)})(frame)
    assert list(both["faithfulness_threshold"]) == [3.0, 3.0] and list(both["faithfulness_t5_threshold"]) == [5.0, 5.0]
    assert list(both["faithfulness_t5_level"]) == list(both["faithfulness_level"]) == [5.0, 1.0]
    assert [str(m) for m in metric_measures({"faithfulness_t5": Faithfulness()})] == ["faithfulness_t5_score"]
    with pytest.raises(ValueError, match="identifiers"):
        MetricScorer({"my metric": Faithfulness()})


def test_metric_axioms_read_each_response_s_own_context():
    request = GenerationRequest("q", "Where is the Eiffel Tower?", ("The Eiffel Tower is in Paris.",))
    responses = [GenerationResponse("a", "The Eiffel Tower is in Berlin."),
                 GenerationResponse("b", "The Eiffel Tower is in Berlin.", context=("The Eiffel Tower is in Berlin.",))]
    assert FAITHFULNESS.preferences(request, responses).tolist() == [[0, -1], [1, 0]]
    assert CONTEXT_RECALL.preferences(request, responses).tolist() == [[0, -1], [1, 0]]
    assert CONTEXT_RECALL.preferences(GenerationRequest("q", "Where?"), responses).tolist() == [[0, 0], [0, 0]]


SAMPLES = """
samples:
  - sampleId: my_rag_sample
    input:
      inputKind: text
      text: |-
        Where is the Eiffel Tower and when was it completed?
    evaluationContext:
      reference: The Eiffel Tower is in Paris and was completed in 1889.
      assertions:
        - type: faithfulness
          threshold: 4
        - type: answer_relevancy
        - type: context_recall
          reference: "The Eiffel Tower is in Paris; it was completed in 1889; it is 330 metres tall"
schemaVersion: omk.eval-sample-set/v3
"""


def test_specification_sample_format_with_reference_fallback_and_evidence(tmp_path, capsys):
    from ir_rag_axioms.metrics.__main__ import main
    from ir_rag_axioms.metrics.samples import evaluate_samples, parse_samples, read_samples

    path = tmp_path / "samples.yaml"
    path.write_text(SAMPLES)
    samples = read_samples(path)
    assert samples[0].assertions[0].reference is None and samples[0].reference.startswith("The Eiffel Tower")
    rows = evaluate_samples(samples, {"my_rag_sample": "The Eiffel Tower is in Paris and was completed in 1925."})
    assert [(r["type"], r["level"], r["passed"]) for r in rows] == [
        ("faithfulness", 1, False), ("answer_relevancy", 5, True), ("context_recall", 2, False)]
    assert "number 1925 vs 1889 in passage 1" in rows[0]["evidence"]["reason"]  # evaluationContext.reference
    assert set(rows[0]["evidence"]) >= {"raw_score", "reason", "threshold"} and rows[0]["evidence"]["threshold"] == 4
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text('{"sampleId": "my_rag_sample", "output": "The Eiffel Tower is in Paris."}\n')
    main([str(path), "--outputs", str(outputs)])
    printed = [__import__("json").loads(line) for line in capsys.readouterr().out.splitlines()]
    # "The Eiffel Tower is in Paris." answers "where" but leaves out "when was it completed": an omission (4)
    assert [p["evidence"]["raw_score"] for p in printed] == [5, 4, 2] and printed[0]["evidence"]["threshold"] == 4
    with pytest.raises(ValueError, match="has no output"):
        evaluate_samples(samples)
    with pytest.raises(ValueError, match="not a RAG metric"):
        parse_samples({"samples": [{"sampleId": "x", "evaluationContext": {"assertions": [{"type": "bleu"}]}}]})
    with pytest.raises(ValueError, match="schemaVersion"):
        parse_samples({"schemaVersion": "omk.eval-sample-set/v2", "samples": [{"sampleId": "x"}]})


DUPLICATE = """
samples:
  - sampleId: s1
    evaluationContext: {reference: Paris., assertions: [{type: faithfulness}]}
  - sampleId: s1
    evaluationContext: {reference: Paris., assertions: [{type: faithfulness}]}
"""


@pytest.mark.parametrize(("files", "argv", "message"), [
    ({"s.yaml": DUPLICATE}, ["s.yaml"], "samples[1]: sampleId 's1' appears twice"),
    ({"s.yaml": SAMPLES}, ["s.yaml"],
     "sample 'my_rag_sample' has no output: give it an 'output' field or pass outputs= (--outputs on the command "
     "line)"),
    ({"s.yaml": SAMPLES, "o.json": '{"other": "x"}'}, ["s.yaml", "--outputs", "o.json"],
     "sample 'my_rag_sample' has no output: give it an 'output' field or pass outputs= (--outputs on the command "
     "line)"),
    ({}, ["missing.yaml"], "[Errno 2] No such file or directory: 'missing.yaml'"),
    ({"s.yaml": SAMPLES}, ["s.yaml", "--outputs", "missing.jsonl"],
     "[Errno 2] No such file or directory: 'missing.jsonl'"),
    ({"s.json": '{"samples": ['}, ["s.json"], "s.json: not valid JSON (Expecting value: line 1 column 14 (char 13))"),
    ({"s.yaml": "samples: [unclosed"}, ["s.yaml"],
     "s.yaml: not valid YAML (expected ',' or ']', but got '<stream end>' at line 1, column 19)"),
    ({"s.yaml": "- a list"}, ["s.yaml"], "s.yaml: a sample set is a mapping with a 'samples' list, got list"),
    ({"s.yaml": SAMPLES, "o.jsonl": '{"sampleId": "a", "output": "b"}\n{"sampleId": "my_rag_sample"}\n'},
     ["s.yaml", "--outputs", "o.jsonl"],
     "o.jsonl line 2: a JSON line of --outputs needs the keys sampleId and output, got '{\"sampleId\": "
     "\"my_rag_sample\"}'"),
    ({"s.yaml": SAMPLES, "o.jsonl": '{"sampleId": "a", "output": "b"}\nnot json\n'}, ["s.yaml", "--outputs", "o.jsonl"],
     "o.jsonl line 2: not JSON (Expecting value: line 1 column 1 (char 0)); --outputs is a JSON object "
     "(sampleId -> output) or JSON lines with sampleId and output"),
])
def test_the_samples_command_reports_a_user_error_in_one_line_with_status_2(tmp_path, monkeypatch, capsys, files,
                                                                           argv, message):
    from ir_rag_axioms.metrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(SystemExit) as exited:
        main(argv)
    captured = capsys.readouterr()
    assert exited.value.code == 2 and captured.out == ""
    assert captured.err == f"python -m ir_rag_axioms.metrics: error: {message}\n"  # one line, no traceback


def test_offline_judge_is_a_deprecated_name_of_the_heuristic_judge():
    from ir_rag_axioms.metrics import HEURISTIC_JUDGE, HeuristicJudge

    with pytest.warns(DeprecationWarning, match="use HeuristicJudge"):
        old = OfflineJudge(support_threshold=0.9)
    assert isinstance(old, HeuristicJudge) and old.support_threshold == 0.9 and OFFLINE_JUDGE is HEURISTIC_JUDGE
    assert HEURISTIC_JUDGE.name == "heuristic(all-MiniLM-L6-v2)"


INFIELD_FLY = ("What is the infield fly rule in baseball?",
               "The infield fly rule prevents the defense from dropping a fly ball. The rule prevents an easy double "
               "play when runners are on base.")


def test_seed_infield_fly_example_scores_one_in_all_four_modes():
    for mode, penalize in MODES:
        result = AnswerRelevancy(relevancy_mode=mode, penalize_ambiguity=penalize).measure(*INFIELD_FLY)
        verdicts = [s.verdict for s in result.statement_breakdown]
        assert result.score == 1.0 and verdicts == ["yes", "yes"], (mode, penalize)
        assert result.to_dict()["statement_breakdown"][1]["is_relevant"] is True


def test_is_relevant_is_what_the_score_counts():
    for query, answer in [*EXAMPLES, WARRANTY, INFIELD_FLY]:
        for mode, penalize in MODES:
            result = AnswerRelevancy(relevancy_mode=mode, penalize_ambiguity=penalize).measure(query, answer)
            relevant = sum(s.is_relevant for s in result.statement_breakdown)
            assert relevant / result.total_statements_count == pytest.approx(result.score), (query, mode, penalize)


def test_explanation_is_a_written_sentence_naming_the_statements():
    laptop = AnswerRelevancy().measure(LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}")
    assert laptop.explanation == ("The score is 0.67 because 'The laptop has a 15-inch display' and 'It has 16GB RAM' "
                                  "address the query 'What features does this laptop have?', while 'Our company has "
                                  "excellent customer service' does not.")
    assert laptop.reason == laptop.explanation
    warranty = AnswerRelevancy(penalize_ambiguity=True).measure(*WARRANTY).explanation
    assert "'It also comes with a 1-year warranty' is only ambiguously relevant, so it counts as 0" in warranty
    assert AnswerRelevancy().measure(*GREEN_TEA).explanation == (
        "The score is 1.00 because every statement of the response addresses the query 'What are the health benefits "
        "of green tea?'.")
    strict = AnswerRelevancy(strict_mode=True).measure(*PASSWORD).explanation
    assert strict.startswith("The score is 0.00 because 'Password resets can be done via email' addresses") and \
        strict.endswith("(strict mode: a score below 1 is 0).")


def test_seed_execute_dataset_item_and_signals():
    import asyncio

    from ir_rag_axioms.metrics.dataset import AIMessage, DatasetItem, HumanMessage, MultiTurnConversation

    item = DatasetItem(query=WARRANTY[0], actual_output=WARRANTY[1])
    result = asyncio.run(AnswerRelevancy().execute(item))
    assert result.score == pytest.approx(2 / 3) and result.signals.overall_score == result.score
    assert (result.signals.relevant_statements_count, result.signals.ambiguous_statements_count,
            result.signals.irrelevant_statements_count, result.signals.total_statements_count) == (1, 1, 1, 3)
    assert result.pretty().startswith("AnswerRelevancy: 0.67 (PASS") and result.explanation.startswith("The score")
    conversation = MultiTurnConversation(messages=[HumanMessage(content=m) if r == "user" else AIMessage(content=m)
                                                   for r, m in CONVERSATION])
    metric = AnswerRelevancy(multi_turn_strategy="all_turns")
    turns = asyncio.run(metric.execute(DatasetItem(conversation=conversation)))
    assert turns.signals.evaluated_turns_count == 2 and turns.score == 1.0
    faithful = asyncio.run(Faithfulness().execute(DatasetItem(actual_output="Tides are caused by the gravitational "
                                                              "pull of the Moon.", retrieved_content=TIDES_CONTEXT)))
    assert faithful.signals.level == 5 and faithful.passed
    with pytest.raises(ValueError, match="retrieved_content"):
        asyncio.run(Faithfulness().execute(DatasetItem(actual_output="Tides.")))
    with pytest.raises(TypeError, match="DatasetItem"):
        asyncio.run(AnswerRelevancy().execute(WARRANTY))


# (query, statement, task verdicts allowed, strict verdict): related is not a direct answer. A statement on the
# subject that answers another question ("Spiders are arachnids", "Eggs are a good source of protein") is "no" in task
# mode too since issue 43 (the relevance model; it was "yes"/"idk" before).
STRICT_CASES = [
    ("How many legs does a spider have?", "A spider has eight legs.", {"yes"}, "yes"),
    ("How many legs does a spider have?", "Spiders are arachnids, not insects.", {"no"}, "no"),
    ("Is coffee bad for your heart?", "Coffee contains caffeine.", {"yes", "idk"}, "no"),
    ("Is coffee bad for your heart?", "Moderate coffee drinking is not linked to heart disease.", {"yes"}, "yes"),
    ("How long should I boil an egg for a soft yolk?", "Eggs are a good source of protein.", {"no"}, "no"),
    ("How long should I boil an egg for a soft yolk?", "Boil the egg for about six minutes.", {"yes"}, "yes"),
    ("Who wrote Pride and Prejudice?", "Jane Austen wrote Pride and Prejudice.", {"yes"}, "yes"),
]


def test_strict_mode_counts_only_direct_answers():
    for query, statement, task, strict in STRICT_CASES:
        (task_verdict,) = [s.verdict for s in AnswerRelevancy().measure(query, statement).statement_breakdown]
        (strict_verdict,) = [s.verdict for s in AnswerRelevancy(relevancy_mode="strict").measure(
            query, statement).statement_breakdown]
        assert task_verdict in task and strict_verdict == strict, (statement, task_verdict, strict_verdict)


RUBRIC_CASES = [  # seed 003's relevance scale: off topic, incomplete, redundant and evasive answers are lowered
    ("What is the capital of Australia?", "Kangaroos are marsupials. The Great Barrier Reef is off Queensland.", 1),
    ("When did the Berlin Wall fall?", "The Berlin Wall divided East and West Berlin. It was built by East Germany.",
     3),
    ("When did the Berlin Wall fall?", "The Berlin Wall fell in November 1989. The Berlin Wall fell in November 1989. "
     "The wall came down in 1989.", 4),
    ("How many legs does a spider have?", "A spider has eight legs.", 5),
    ("How many legs does a spider have?", "Spiders are arachnids. They spin webs to catch insects.", 3),
    ("Why do cats purr?", "Cats purr to signal contentment. " * 4, 3),
    ("Why do cats purr?", "I cannot answer that.", 1),
    ("What are the symptoms and treatment of the flu?", "Flu symptoms include fever, cough and aches.", 4),
    (*PASSWORD, 2),
    (*GREEN_TEA, 5),
]


def test_rubric_answer_relevancy_follows_the_seed_scale():
    results = RubricAnswerRelevancy().measure_many([(q, a) for q, a, _ in RUBRIC_CASES])
    assert [r.level for r in results] == [level for _, _, level in RUBRIC_CASES]
    assert "redundant (at most 4)" in results[2].explanation and "leave out 'treatment'" in results[7].explanation
    assert "no statement gives what 'when' asks for" in results[1].explanation


def test_verbose_mode_prints_the_intermediate_steps(capsys):
    AnswerRelevancy(verbose_mode=True).measure(LAPTOP_QUERY, f"{LAPTOP} {CUSTOMER}")
    printed = capsys.readouterr().out
    assert "AnswerRelevancy Verbose Logs" in printed and "Statements:" in printed
    assert f"  - [no] {CUSTOMER} (relevance" in printed and "Score: 0.6667" in printed
    Faithfulness(verbose_mode=True).measure("The Eiffel Tower is in Berlin.", ["The Eiffel Tower is in Paris."])
    printed = capsys.readouterr().out
    assert "Faithfulness Verbose Logs" in printed and "] The Eiffel Tower is in Berlin." in printed
    assert "entity 'berlin' vs 'paris' in passage 1" in printed  # the checks' finding, read by the verifier
    assert "Score: 0 (level 1/5)" in printed
    AnswerRelevancy().measure(LAPTOP_QUERY, LAPTOP)
    assert capsys.readouterr().out == ""


EIFFEL_CONTEXT = ["The Eiffel Tower is in Paris.", "Bananas are rich in potassium.",
                  "The Eiffel Tower was completed in 1889."]
EIFFEL_EXPECTED = "The Eiffel Tower is in Paris. It was completed in 1889."
EIFFEL_QUERY = "Where is the Eiffel Tower and when was it completed?"


def test_contextual_recall_is_the_reference_found_in_the_retrieved_context():
    from ir_rag_axioms.metrics import ContextualRecall

    found = ContextualRecall().measure(EIFFEL_EXPECTED, EIFFEL_CONTEXT)
    assert (found.score, found.passed) == (1.0, True) and [r["verdict"] for r in found.breakdown] == ["yes", "yes"]
    half = ContextualRecall(threshold=0.6).measure(EIFFEL_EXPECTED, EIFFEL_CONTEXT[:2])
    assert (half.score, half.passed) == (0.5, False) and "not found: 'It was completed in 1889.'" in half.explanation
    wrong = ContextualRecall().measure("The Eiffel Tower is in Paris. It was completed in 1925.", EIFFEL_CONTEXT)
    assert wrong.score == 0.5 and wrong.breakdown[1]["verdict"] == "no"
    assert ContextualRecall(strict_mode=True).measure(EIFFEL_EXPECTED, EIFFEL_CONTEXT[:2]).score == 0.0
    undefined = ContextualRecall().measure(EIFFEL_EXPECTED, [])
    assert np.isnan(undefined.score) and undefined.passed is None and "no retrieval context" in undefined.explanation
    with pytest.raises(TypeError, match="not one string"):
        ContextualRecall().measure(EIFFEL_EXPECTED, "The Eiffel Tower is in Paris.")


def test_contextual_precision_rewards_relevant_passages_ranked_first():
    from ir_rag_axioms.metrics import ContextualPrecision
    from ir_rag_axioms.metrics.contextual import precision_at_relevant

    assert precision_at_relevant([True, False, True]) == pytest.approx((1 + 2 / 3) / 2)
    assert precision_at_relevant([False, True, True]) == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert precision_at_relevant([False, False]) == 0.0
    metric = ContextualPrecision()
    first = metric.measure(EIFFEL_QUERY, EIFFEL_EXPECTED, EIFFEL_CONTEXT)
    assert first.score == pytest.approx(5 / 6) and [r["verdict"] for r in first.breakdown] == ["yes", "no", "yes"]
    last = metric.measure(EIFFEL_QUERY, EIFFEL_EXPECTED, [EIFFEL_CONTEXT[1], EIFFEL_CONTEXT[0], EIFFEL_CONTEXT[2]])
    assert last.score == pytest.approx(7 / 12) and last.explanation == (
        "The score is 0.58 because the relevant passages are at ranks 2, 3 of 3.")
    best = metric.measure(EIFFEL_QUERY, EIFFEL_EXPECTED, [EIFFEL_CONTEXT[0], EIFFEL_CONTEXT[2], EIFFEL_CONTEXT[1]])
    assert best.score == 1.0
    assert metric.measure(EIFFEL_QUERY, EIFFEL_EXPECTED, [EIFFEL_CONTEXT[1]]).score == 0.0


def test_evaluate_returns_one_row_per_case_and_columns_per_metric():
    from ir_rag_axioms.metrics import ContextualPrecision, ContextualRecall, DatasetItem, evaluate
    from ir_rag_axioms.testing import RagTestCase

    cases = [DatasetItem(id="eiffel", query=EIFFEL_QUERY, actual_output="The Eiffel Tower is in Berlin.",
                         retrieved_content=EIFFEL_CONTEXT, expected_output=EIFFEL_EXPECTED),
             DatasetItem(query=LAPTOP_QUERY, actual_output=f"{LAPTOP} {CUSTOMER}",
                         retrieved_content=["The laptop has a 15-inch display and 16GB RAM."],
                         expected_output="The laptop has a 15-inch display and 16GB RAM.")]
    table = evaluate(cases, [AnswerRelevancy(), Faithfulness(), ContextualRecall(), ContextualPrecision()])
    assert list(table["case"]) == ["eiffel", 1] and list(table.columns[:4]) == [
        "case", "answer_relevancy_score", "answer_relevancy_pass", "answer_relevancy_reason"]
    assert len(table.columns) == 1 + 3 * 4
    np.testing.assert_allclose(table["answer_relevancy_score"], [1.0, 2 / 3])
    assert list(table["faithfulness_pass"]) == [False, True] and list(table["contextual_recall_score"]) == [1.0, 1.0]
    assert table["contextual_precision_score"][0] == pytest.approx(5 / 6)
    assert "'berlin' vs 'paris'" in table["faithfulness_reason"][0]
    tested = evaluate([RagTestCase(input=LAPTOP_QUERY, actual_output=LAPTOP, name="laptop")],
                      {"relevancy": AnswerRelevancy(), "strict": AnswerRelevancy(strict_mode=True)})
    assert list(tested.columns) == ["case", "relevancy_score", "relevancy_pass", "relevancy_reason", "strict_score",
                                    "strict_pass", "strict_reason"] and tested["case"][0] == "laptop"
    with pytest.raises(ValueError, match="both write the columns answer_relevancy_"):
        evaluate(cases, [AnswerRelevancy(), AnswerRelevancy(strict_mode=True)])
    with pytest.raises(ValueError, match="expected_output"):
        evaluate([DatasetItem(query="q", actual_output="a", retrieved_content=["p"])], [ContextualRecall()])
    from ir_rag_axioms.pyterrier.metrics import MetricScorer

    with pytest.raises(TypeError, match="use ir_rag_axioms.metrics.evaluate"):
        MetricScorer([ContextualRecall()])


def test_evaluate_refuses_a_data_frame_naming_metric_scorer():
    import pandas as pd

    from ir_rag_axioms.metrics import DatasetItem, evaluate

    frame = pd.DataFrame({"query": ["q"], "actual_output": ["a"]})
    with pytest.raises(TypeError) as raised:
        evaluate(frame, [AnswerRelevancy()])
    assert str(raised.value) == (
        "evaluate: cases is a pandas DataFrame, but evaluate takes a list of DatasetItem or RagTestCase objects; to "
        "score a frame's rows use MetricScorer, the PyTerrier transformer (from ir_rag_axioms import MetricScorer; "
        "MetricScorer(metrics)(frame); not for the contextual metrics), or pass one DatasetItem or RagTestCase per row")
    for wrong, name in [("q", "str"), (DatasetItem(query="q", actual_output="a"), "DatasetItem"), (3, "int")]:
        with pytest.raises(TypeError) as raised:
            evaluate(wrong, [AnswerRelevancy()])
        assert str(raised.value) == f"evaluate: cases must be a list of DatasetItem or RagTestCase objects, got {name}"


def test_context_recall_credits_each_fact_to_the_sentence_that_states_it():
    answer = "Green tea contains antioxidants called catechins. A cup has about 30 mg of caffeine."
    recall = ContextRecall().measure(answer, ["green tea has catechins", "green tea has caffeine"])
    assert [(d["verdict"], d["best_match"]) for d in recall.breakdown] == [
        ("covered", "Green tea contains antioxidants called catechins."),
        ("covered", "A cup has about 30 mg of caffeine.")] and recall.level == 5
    summary = ("The Eiffel Tower, completed in 1889 and designed by Gustave Eiffel's company, stands 330 metres tall "
               "in Paris.")
    four = ContextRecall().measure(summary, ["The Eiffel Tower was completed in 1889.", "It was designed by Gustave "
                                             "Eiffel's company.", "The tower is 330 metres tall.",
                                             "The Eiffel Tower is in Paris."])
    assert four.level == 5 and all(d["verdict"] == "covered" for d in four.breakdown)  # four facts, one sentence
    missing = ContextRecall().measure("Green tea contains antioxidants called catechins.",
                                      ["green tea has catechins", "green tea has caffeine"])
    assert [d["verdict"] for d in missing.breakdown] == ["covered", "missing"] and missing.level == 3


def test_context_recall_axiom_decides_by_the_covered_share_of_context_sentences_where_levels_tie():
    passages = ("The Eiffel Tower is in Paris. It was completed in 1889. It is 330 metres tall. Gustave Eiffel's "
                "company built it.", "Bananas are rich in potassium. Bananas grow in tropical regions. The banana "
                "plant is a herb. Bananas are berries.")
    request = GenerationRequest("q", "Tell me about the Eiffel Tower.", passages)
    responses = [GenerationResponse("a", "The Eiffel Tower is in Paris."),
                 GenerationResponse("b", "I like trains very much.")]
    assert CONTEXT_RECALL.scores([(request, r) for r in responses]) == [0.125, 0.0]  # 1 of 8 sentences, 0 of 8
    assert [r.level for r in ContextRecall().measure_many([(r.text, list(passages)) for r in responses])] == [1, 1]
    assert CONTEXT_RECALL.preferences(request, responses).tolist() == [[0, 1], [-1, 0]]
