"""Inputs the metrics cannot read: blank outputs and queries, missing cells, over-long passages, missing passages.

Each gives a documented result that is the same with every judge (NaN with its reason, or the level the rubric
assigns without asking a judge), never the worst score for a cell nobody filled and never a judge's guess.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import JsonHandler, loopback_server

from ir_rag_axioms import MetricScorer
from ir_rag_axioms.metrics import (
    AnswerRelevancy,
    ContextRecall,
    DatasetItem,
    Faithfulness,
    LlmJudge,
    RubricAnswerRelevancy,
    evaluate,
)

CONTEXT = ["The Eiffel Tower is in Paris.", "It was completed in 1889."]
ANSWER = "The Eiffel Tower is in Paris."


class _AlwaysFive(JsonHandler):
    """An OpenAI-compatible judge that gives level 5 to anything (and counts what it was asked)."""

    asked: list[dict] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).asked.append(body)
        content = json.dumps({"score": 5, "reason": "fine"})
        self.send_json(json.dumps({"choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": content}}],
                                   "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
                                  ).encode())


@pytest.mark.parametrize("blank", ["", "   \n "])
def test_a_blank_output_is_never_sent_to_the_judge_and_gets_the_rubrics_result(blank: str) -> None:
    _AlwaysFive.asked = []
    with loopback_server(_AlwaysFive) as url:
        judge = LlmJudge(f"{url}/v1", "fake-judge", "key", cache_dir=None, retries=0)
        faithfulness = Faithfulness(judge=judge).measure(blank, CONTEXT)
        recall = ContextRecall(judge=judge).measure(blank, CONTEXT)
        relevancy = RubricAnswerRelevancy(judge=judge).measure("Where is the Eiffel Tower?", blank)
    assert _AlwaysFive.asked == []
    assert faithfulness.level is None and math.isnan(faithfulness.score) and faithfulness.passed is None
    assert faithfulness.explanation == "undefined: the output is blank (no claim to check)"
    assert (recall.level, recall.passed, recall.explanation) == (
        1, False, "the output is blank: it uses none of the reference facts -> level 1")
    assert (relevancy.level, relevancy.explanation) == (1, "the output is blank: it answers nothing -> level 1")
    offline = [Faithfulness().measure(blank, CONTEXT), ContextRecall().measure(blank, CONTEXT),
               RubricAnswerRelevancy().measure("Where is the Eiffel Tower?", blank)]
    assert [r.level for r in offline] == [None, 1, 1]


@pytest.mark.parametrize("query", ["", "  ", "!!!", "🤔 ?"])
def test_a_blank_query_is_undefined_not_the_answers_fault(query: str) -> None:
    result = AnswerRelevancy().measure(query, ANSWER)
    assert math.isnan(result.score) and "the query is blank" in result.explanation
    rubric = RubricAnswerRelevancy().measure(query, ANSWER)
    assert (rubric.level, rubric.explanation) == (
        None, "undefined: the question is blank (no letter or digit: nothing to answer)")
    mixed = AnswerRelevancy().measure_many([(query, ANSWER), ("Where is the Eiffel Tower?", ANSWER)])
    assert math.isnan(mixed[0].score) and mixed[1].score == 1.0


def test_a_passage_over_the_text_limit_is_undefined_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "1000")
    big = ("The Eiffel Tower is in Paris. " * 40)[:1010]
    with pytest.warns(UserWarning, match="1 case.* context or reference text longer than 1000 characters"):
        results = Faithfulness().measure_many([(ANSWER, [big]), (ANSWER, [big[:990]])])
    assert results[0].level is None and "longer than 1000 characters" in results[0].explanation
    assert results[1].level == 5
    with pytest.warns(UserWarning, match="longer than 1000"):
        assert ContextRecall().measure(ANSWER, [big]).level is None


@pytest.mark.parametrize("missing", [None, float("nan")])
def test_a_missing_passage_in_a_list_is_an_error_naming_it(missing: object) -> None:
    with pytest.raises(TypeError, match=r"item 1 is (NoneType None|float nan)"):
        Faithfulness().measure(ANSWER, [CONTEXT[0], missing])
    with pytest.raises(TypeError, match="item 0"):
        ContextRecall().measure(ANSWER, [missing])
    with pytest.raises(TypeError, match="item 0"):
        evaluate([DatasetItem(id="a", query="q", actual_output=ANSWER, retrieved_content=[missing])],
                 [Faithfulness()])


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"qid": ["1", "2", "3", "4"],
                         "query": ["Where is the Eiffel Tower?", np.nan, "Where is the Eiffel Tower?",
                                   "Where is the Eiffel Tower?"],
                         "docno": ["a", "b", "c", "d"],
                         "text": [np.nan, ANSWER, ANSWER, ANSWER],
                         "context": [CONTEXT, CONTEXT, np.nan, CONTEXT],
                         "reference": ["Eiffel Tower in Paris", "Eiffel Tower in Paris", np.nan,
                                       ["Eiffel Tower in Paris", None]]})


def test_missing_cells_in_a_frame_are_nan_with_their_reason_in_the_row() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = MetricScorer([AnswerRelevancy(), ContextRecall(), Faithfulness()])(_frame())
    assert len(out) == 4 and list(out["docno"]) == ["a", "b", "c", "d"]
    reasons = {c: list(out[f"{c}_reason"]) for c in ("answer_relevancy", "context_recall", "faithfulness")}
    scores = {c: list(out[f"{c}_score"]) for c in reasons}
    no_answer = "undefined: the row has no answer, a missing cell"
    assert [reasons[c][0] for c in reasons] == [no_answer] * 3 and all(math.isnan(scores[c][0]) for c in scores)
    assert reasons["answer_relevancy"][1] == "undefined: the row has no query, a missing cell"
    assert math.isnan(scores["answer_relevancy"][1]) and scores["faithfulness"][1] == 1.0
    assert reasons["faithfulness"][2] == "undefined: no context to judge against"
    assert reasons["context_recall"][2].startswith("undefined: the row's reference cell is empty")  # not the context
    assert math.isnan(scores["context_recall"][2]) and scores["answer_relevancy"][2] == 1.0
    assert scores["context_recall"][3] == 1.0  # a list's missing item dropped, as a context's
    messages = [str(w.message) for w in caught]
    assert any("faithfulness_score is NaN for 1 of 4 answers (the row has no answer, a missing cell); 1 of 4 "
               "answers (no context to judge against)" in m for m in messages), messages


def test_a_cell_that_is_not_a_text_is_an_error_naming_the_row() -> None:
    frame = _frame().assign(text=[ANSWER, 42, ANSWER, ANSWER])
    with pytest.raises(TypeError, match=r"row 1 \(qid '2', docno 'b'\) has int 42 in column 'text'"):
        MetricScorer([AnswerRelevancy()])(frame)


@pytest.mark.parametrize("text", ["埃菲尔铁塔位于巴黎。", "Эйфелева башня находится в Париже."])
def test_text_in_another_script_is_undefined_with_its_reason_not_level_1(text: str) -> None:
    with pytest.warns(UserWarning, match="in a script other than Latin"):
        recall = ContextRecall().measure(text, [text])  # the answer is its own reference
    with pytest.warns(UserWarning, match="in a script other than Latin"):
        faithfulness = Faithfulness().measure(text, [text])
    for result in (recall, faithfulness):
        assert result.level is None and math.isnan(result.score)
        assert result.explanation.startswith("undefined: the output is in a script other than Latin (100% of its")
    with pytest.warns(UserWarning, match="in a script other than Latin"):
        relevancy = AnswerRelevancy().measure("Где находится Эйфелева башня?", text)
    assert math.isnan(relevancy.score) and "script other than Latin" in relevancy.explanation
    assert Faithfulness().measure("Der Eiffelturm steht in Paris.", ["Der Eiffelturm steht in Paris."]).level == 5


@pytest.mark.parametrize(("query", "answer", "score"), [
    ("When was the Eiffel Tower completed?", "In 1889.", 1.0),      # a one-word fragment with a year: a statement
    ("When was the Eiffel Tower completed?", "Paris.", 0.0),        # a name, but no answer to "when"
])
def test_a_short_fragment_with_a_number_or_a_name_is_a_statement(query: str, answer: str, score: float) -> None:
    result = AnswerRelevancy().measure(query, answer)
    assert len(result.statement_breakdown) == 1 and result.score == score
    assert Faithfulness().measure("In 1889.", ["The Eiffel Tower was completed in 1889."]).level == 5


def test_a_heading_word_is_no_statement() -> None:
    result = Faithfulness().measure("Summary:\nThe Eiffel Tower is in Paris.", CONTEXT)
    assert [row["statement"] for row in result.breakdown] == ["The Eiffel Tower is in Paris."] and result.level == 5


@pytest.mark.parametrize(("query", "answer"), [("When was the Eiffel Tower completed?", "It was completed in 1889."),
                                               ("Who wrote Hamlet?", "William Shakespeare."),
                                               ("Where is the Eiffel Tower?", "It is in Paris.")])
def test_strict_mode_takes_a_short_or_pronoun_answer_of_the_asked_type_as_direct(query: str, answer: str) -> None:
    """A short answer of the asked type is "yes" (issue 43: it was "idk", so penalize_ambiguity scored it 0)."""
    result = AnswerRelevancy(relevancy_mode="strict").measure(query, answer)
    assert [s.verdict for s in result.statement_breakdown] == ["yes"] and result.score == 1.0
    assert "not a direct answer" not in result.statement_breakdown[0].reason


def test_strict_mode_still_refuses_an_answer_of_the_wrong_type_or_without_the_querys_words() -> None:
    wrong_type = AnswerRelevancy(relevancy_mode="strict").measure("When was the Eiffel Tower completed?",
                                                                 "It is in Paris, the capital of France.")
    assert wrong_type.score == 0.0
    long_unrelated = AnswerRelevancy(relevancy_mode="strict").measure(
        "Who wrote Hamlet?", "Many famous writers lived in London during the reign of Queen Elizabeth I.")
    assert long_unrelated.score == 0.0


def test_the_rubric_takes_a_bare_answer_of_the_asked_type_as_on_topic() -> None:
    # a short answer of the asked type is a complete answer (level 5; it was 3 while it was "idk", issue 43)
    assert RubricAnswerRelevancy().measure("When was the Eiffel Tower completed?", "In 1889.").level == 5
    assert RubricAnswerRelevancy().measure("When was the Eiffel Tower completed?", "Paris.").level == 1


def test_an_answer_of_ambiguous_statements_only_is_explained_by_what_the_score_counts() -> None:
    query, answer = "What features does this laptop have?", "The laptop also comes with a 1-year warranty."
    counted = AnswerRelevancy().measure(query, answer)  # the seed's warranty: ambiguous ("It was completed in 1889."
    assert counted.score == 1.0 and counted.explanation == (  # was "idk" here until issue 43 made it a direct answer)
        "The score is 1.00 because 'The laptop also comes with a 1-year warranty' is only ambiguously relevant to the "
        "query 'What features does this laptop have?', which the score counts.")
    penalised = AnswerRelevancy(penalize_ambiguity=True).measure(query, answer)
    assert penalised.score == 0.0 and penalised.explanation.endswith("so the score counts it as 0.")


def test_two_metrics_of_one_class_are_refused_naming_the_parameters_they_differ_in() -> None:
    with pytest.raises(ValueError, match=r"two Faithfulness metrics \(threshold=3 vs 4\) would both write"):
        MetricScorer([Faithfulness(), Faithfulness(threshold=4)])
    with pytest.raises(ValueError, match=r"two AnswerRelevancy metrics \(the same parameters\)"):
        evaluate([DatasetItem(id="a", query="q", actual_output=ANSWER)], [AnswerRelevancy(), AnswerRelevancy()])


PASSAGE = "The Eiffel Tower is in Paris and was completed in 1889."


@pytest.mark.parametrize("column", ["context", "reference"])
@pytest.mark.parametrize(("cell", "found"), [
    (PASSAGE.encode(), r"has bytes b'The Eiffel.* in column '{c}': a context or reference cell must be a text"),
    (5, r"has int 5 in column '{c}': a context or reference cell must be a text"),
    ([1889], r"has int 1889 as item 0 of column '{c}': a passage must be a text"),
    ([PASSAGE, b"x"], r"has bytes b'x' as item 1 of column '{c}'"),
    ([{"body": PASSAGE}], r"has a dict without a 'text' key \(keys \['body'\]\) as item 0 of column '{c}'"),
])
def test_a_context_or_reference_cell_that_is_not_text_is_an_error_naming_row_column_and_item(
        column: str, cell: object, found: str) -> None:
    frame = _frame().drop(columns=["reference"]).assign(**{column: [CONTEXT, CONTEXT, cell, CONTEXT]})
    with pytest.raises(TypeError, match=r"MetricScorer: row 2 \(qid '3', docno 'c'\) " + found.format(c=column)):
        MetricScorer([Faithfulness(), ContextRecall()])(frame)


@pytest.mark.parametrize(("column", "cell", "reason"), [
    ("context", ["   "], "no context to judge against"), ("context", [""], "no context to judge against"),
    ("context", [None, " \n"], "no context to judge against"),
    ("reference", ["  "], "the row's reference cell is empty"),
    ("reference", " ; ", "the row's reference cell is empty"),
])
def test_blank_passages_or_references_in_a_frame_are_nan_with_the_warning_that_counts_them(
        column: str, cell: object, reason: str) -> None:
    frame = _frame().iloc[[2, 3]].assign(text=ANSWER, context=[CONTEXT, CONTEXT], reference=[CONTEXT, CONTEXT])
    frame[column] = [cell, [ANSWER]]
    metric = Faithfulness() if column == "context" else ContextRecall()
    with pytest.warns(UserWarning, match=rf"MetricScorer: {metric.name}_score is NaN for 1 of 2 answers \({reason}"):
        out = MetricScorer([metric])(frame)
    scores, reasons = list(out[f"{metric.name}_score"]), list(out[f"{metric.name}_reason"])
    assert math.isnan(scores[0]) and reasons[0].startswith(f"undefined: {reason}") and scores[1] == 1.0


def test_the_nan_warning_names_the_columns_of_a_mapping_one_warning_each() -> None:
    frame = _frame().iloc[[2, 3]].assign(text=ANSWER, context=[[""], [ANSWER]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        MetricScorer({"faith_t3": Faithfulness(), "faith_t5": Faithfulness(threshold=5)})(frame)
    said = [str(w.message) for w in caught if "is NaN for" in str(w.message)]
    assert [m.split(" is NaN")[0] for m in said] == ["MetricScorer: faith_t3_score", "MetricScorer: faith_t5_score"]


def test_metric_measures_break_a_tied_top_score_by_doc_id_whatever_the_row_order() -> None:
    import ir_measures

    from ir_rag_axioms.evaluation import RunWarning
    from ir_rag_axioms.pyterrier.metrics import metric_measures

    measure = metric_measures([Faithfulness()])[0]
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1]})
    for scores, top, tied in (([1.0, 1.0, 1.0], 1.0, "'a', 'b', 'c'"), ([1.0, 2.0, 2.0], 0.0, "'b', 'c'")):
        run = pd.DataFrame({"query_id": "q1", "doc_id": ["a", "b", "c"], "score": scores,
                            "faithfulness_score": [1.0, 0.0, 0.25]})
        for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2], [2, 0, 1]):
            shuffled = run.iloc[order].reset_index(drop=True)
            with pytest.warns(RunWarning, match=rf"faithfulness_score: 1 of 1 queries have a tie for the top score "
                                                rf"\(e.g. qid q1: doc_ids \[{tied}\]\); the top answer is the tied "
                                                r"one with the smallest doc_id"):
                assert [v.value for v in ir_measures.iter_calc([measure], qrels, shuffled)] == [top]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no tie at the top: no warning
        run = pd.DataFrame({"query_id": "q1", "doc_id": ["a", "b", "c"], "score": [1.0, 1.0, 2.0],
                            "faithfulness_score": [1.0, 0.0, 0.25]})
        assert [v.value for v in ir_measures.iter_calc([measure], qrels, run)] == [0.25]


def test_an_undefined_answer_relevancy_is_neither_pass_nor_fail_in_every_table() -> None:
    result = AnswerRelevancy().measure("\U0001f914", ANSWER)
    assert math.isnan(result.score) and result.passed is None and "(undefined," in result.pretty()
    table = evaluate([DatasetItem(id="a", query="???", actual_output=ANSWER)], [AnswerRelevancy()])
    assert table["answer_relevancy_pass"].isna().all() and table["answer_relevancy_score"].isna().all()
    frame = pd.DataFrame({"qid": ["1"], "query": ["???"], "docno": ["d"], "text": [ANSWER]})
    assert MetricScorer([AnswerRelevancy()])(frame)["answer_relevancy_pass"].isna().all()
    assert AnswerRelevancy().measure("Where is it?", " ").passed is False  # a blank answer fails: it says nothing


def test_ambiguous_conversations_and_blank_case_ids_are_refused() -> None:
    from ir_rag_axioms.metrics import AIMessage, HumanMessage, MultiTurnConversation

    conversation = MultiTurnConversation(messages=[HumanMessage(content="What is Python?"),
                                                   AIMessage(content="Python is a programming language.")])
    both = DatasetItem(id="c", query="Where is the Eiffel Tower?", actual_output="Bananas are yellow.",
                       conversation=conversation)
    with pytest.raises(ValueError, match=r"item 0 \('c'\) gives a conversation and a query or actual_output"):
        evaluate([both], [AnswerRelevancy()])
    pending = [("user", "What is Python?"), ("assistant", "A language."), ("user", "What are its uses?")]
    with pytest.raises(ValueError, match="message 3 of 3 is a user message with no answer after it"):
        AnswerRelevancy().measure(conversation=pending)
    for blank in ("", "  "):
        with pytest.raises(ValueError, match="position 0 has a blank id"):
            evaluate([DatasetItem(id=blank, query="Where is it?", actual_output=ANSWER)], [AnswerRelevancy()])


@pytest.mark.parametrize("bad", [0.9, True, None])
def test_assert_metric_refuses_what_is_not_a_result(bad: object) -> None:
    from ir_rag_axioms.testing import assert_metric

    with pytest.raises(TypeError, match="assert_metric: result must be a metric's result"):
        assert_metric(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("context", [pd.DataFrame({"text": ["The Eiffel Tower is in Paris."]}),
                                     {"The Eiffel Tower is in Paris."}, b"The Eiffel Tower is in Paris.",
                                     np.array([["The Eiffel Tower is in Paris."]])])
def test_passages_without_one_order_of_texts_are_refused_by_type(context: object) -> None:
    """A data frame iterates its column names, a set has no order, bytes iterate as numbers: each is a TypeError."""
    from ir_rag_axioms.metrics import ContextualPrecision

    kind = type(context).__name__
    with pytest.raises(TypeError, match=f"must be a text or a list of passages, got {kind}"):
        Faithfulness().measure(ANSWER, context)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=f"got {kind}"):
        ContextualPrecision().measure("Where is it?", "In Paris.", context)  # type: ignore[arg-type]


def test_numpy_strings_are_texts() -> None:
    """np.str_ (a numpy array's or a frame's .values cell) is read as its str, whatever was parsed before."""
    answer = np.str_("The Eiffel Tower was finished in 1889 after two years of work.")
    passages = np.array(["The Eiffel Tower was finished in 1889 after two years of work."])
    assert Faithfulness().measure(answer, passages).level == 5
    assert ContextRecall().measure(answer, list(passages)).level == 5
