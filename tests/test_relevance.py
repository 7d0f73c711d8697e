"""AnswerRelevancy with the heuristic judge knows the question: other questions, fillers, evasions, short answers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ir_rag_axioms.metrics import AnswerRelevancy, RubricAnswerRelevancy
from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE
from ir_rag_axioms.metrics.relevance import (
    FEATURES,
    RelevanceModel,
    answer_type_given,
    asked,
    content_words,
    filler,
    load_model,
    non_answer,
    other_event,
    residual_texts,
    short_number_answer,
)

CASES = Path(__file__).parent / "data" / "relevancy_cases.json"
CASES_2 = Path(__file__).parent / "data" / "relevancy_cases_2.json"
CASES_3 = Path(__file__).parent / "data" / "relevancy_cases_3.json"
CASES_4 = Path(__file__).parent / "data" / "relevancy_cases_4.json"
CASES_5 = Path(__file__).parent / "data" / "relevancy_cases_5.json"
CASES_6 = Path(__file__).parent / "data" / "relevancy_cases_6.json"
CASES_7 = Path(__file__).parent / "data" / "relevancy_cases_7.json"
CASES_8 = Path(__file__).parent / "data" / "relevancy_cases_8.json"
CASES_9 = Path(__file__).parent / "data" / "relevancy_cases_9.json"
CASES_10 = Path(__file__).parent / "data" / "relevancy_cases_10.json"


@pytest.mark.parametrize("mode", ["task", "strict"])
@pytest.mark.parametrize(("query", "answer"), [
    ("When was the Eiffel Tower completed?", "In 1889."),
    ("Where is the Eiffel Tower?", "Paris."),
    ("How many planets are in the solar system?", "Eight."),
    ("How many legs does a spider have?", "8."),
    ("In what year did the Titanic sink?", "1912."),
    ("Does coffee raise blood pressure?", "Yes."),
    ("Is the Great Wall of China visible from space?", "No."),
    ("Can dogs swim?", "Yes, largely."),
    ("What is the main ingredient of guacamole?", "Avocado."),
])
def test_short_direct_answers_are_relevant_in_both_modes(query: str, answer: str, mode: str) -> None:
    """The docs call these direct answers: strict mode scored them 0 (relevance under its "no" threshold)."""
    result = AnswerRelevancy(relevancy_mode=mode).measure(query, answer)
    assert result.score == 1.0
    assert [s.statement for s in result.statement_breakdown] == [answer]
    assert "short answer that gives what" in result.statement_breakdown[0].reason


@pytest.mark.parametrize(("query", "answer", "expected"), [
    ("Do cats sleep a lot?", "Yes, most of them sleep twelve to sixteen hours a day.", 1.0),
    ("did the printing press exist in 1400", "No. Gutenberg built his press around 1440, decades later.", 1.0),
    ("Is chess a sport?", "Yes, as the IOC recognises it, though many players disagree.", 1.0),
    ("Does it rain in the Sahara?", "No one knows the exact amount of rain it gets.", None),  # "No one": no answer
    ("What do cats eat?", "Yes, most of them do.", None),  # not a yes/no question
])
def test_an_explicit_yes_or_no_answers_a_yes_no_question_at_any_length(query: str, answer: str,
                                                                       expected: float | None) -> None:
    """An opening "Yes," / "No." to a yes/no question is a direct answer ("yes" in both modes), verbs or not."""
    for mode in ("task", "strict"):
        result = AnswerRelevancy(relevancy_mode=mode).measure(query, answer)
        first = result.statement_breakdown[0]
        if expected is None:
            assert "short answer" not in first.reason, first
        else:
            assert (first.verdict, result.score) == ("yes", expected), first
            assert "short answer that gives what" in first.reason


@pytest.mark.parametrize(("query", "answer", "why"), [
    ("When was the Eiffel Tower built?", "The Eiffel Tower is 330 metres tall and made of wrought iron.",
     "answers another question"),
    ("What are the symptoms of the flu?", "It is important to consider many factors.", "evasion"),
    ("Is it safe to take aspirin with alcohol?", "You should ask your doctor or pharmacist about that.", "evasion"),
])
def test_off_question_statements_are_no(query: str, answer: str, why: str) -> None:
    """A statement on the subject that answers another question, a filler and an evasion score 0."""
    result = AnswerRelevancy().measure(query, answer)
    assert result.score == 0.0
    assert [s.verdict for s in result.statement_breakdown] == ["no"]
    assert why in result.statement_breakdown[0].reason


def test_a_direct_answer_stays_relevant_beside_a_tangent() -> None:
    """The seed's laptop example keeps its verdicts: two features relevant, the founding year not."""
    result = AnswerRelevancy().measure("What features does this laptop have?",
                                       "The laptop has a 15-inch display. It has 16GB RAM. Our company was founded "
                                       "in 2010.")
    assert [s.verdict for s in result.statement_breakdown][:2] == ["yes", "yes"]
    assert result.statement_breakdown[2].verdict == "no"


FLOORS = {"dev": 0.95, "held-out": 0.82}
"""Accuracy measured when the model was shipped (docs/metrics-development.md, its relevance model), rounded down."""


def test_hand_made_cases_keep_their_accuracy() -> None:
    """Accuracy (pass = score >= 0.5 is relevant) on each half at least its floor (``FLOORS``)."""
    cases = json.loads(CASES.read_text())["cases"]
    results = AnswerRelevancy().measure_many([(c["query"], c["answer"]) for c in cases])
    for split in ("dev", "held-out"):
        mine = [(c, r) for c, r in zip(cases, results, strict=True) if c["split"] == split]
        right = sum((r.score >= 0.5) == c["relevant"] for c, r in mine)
        assert right / len(mine) >= FLOORS[split], (split, right, len(mine))


HELD_OUT_FLOORS = {CASES_2: 0.70, CASES_3: 0.80, CASES_4: 0.85, CASES_5: 0.61, CASES_6: 0.73, CASES_7: 0.73,
                   CASES_8: 0.68, CASES_9: 0.65, CASES_10: 0.78}
"""Accuracy of the held-out batches (written apart from the model, never tuned on), measured on the model as shipped
and rounded down by 0.02: ``relevancy_cases_2.json`` 43/60 = 0.72, ``relevancy_cases_3.json`` 49/60 = 0.82,
``relevancy_cases_4.json`` 52/60 = 0.87, ``relevancy_cases_5.json`` 33/60 = 0.55 when measured (written blind by
another author), 36/60 = 0.60 after the yes/no rule made on its misses (development since),
``relevancy_cases_6.json`` 44/60 = 0.73 (a sixth author, measured once; docs/metrics-development.md, its relevance
model); with the echo rule (made on batches 5 and 6: development since) 38/60 and 45/60;
``relevancy_cases_7.json`` 43/60 = 0.72 before the echo rule, 45/60 = 0.75 with it (a seventh author, measured
twice, never read case by case); ``relevancy_cases_8.json`` 42/60 = 0.70 (an eighth author, written after every
change, measured once, never read case by case); ``relevancy_cases_9.json`` 40/60 = 0.67 and ``relevancy_cases_10.json``
48/60 = 0.80 (a ninth and a tenth author, measured with the code of stop 59; batch 9's misses read once, no change made
from them; batch 10 never read case by case)."""


@pytest.mark.parametrize("path", list(HELD_OUT_FLOORS), ids=lambda p: p.name)
def test_held_out_batches_keep_their_accuracy(path: Path) -> None:
    """HELD-OUT: each batch of 60 cases at least its floor (``HELD_OUT_FLOORS``)."""
    cases = json.loads(path.read_text())["cases"]
    assert len(cases) == 60 and all(c["split"] == "held-out" for c in cases)
    results = AnswerRelevancy().measure_many([(c["query"], c["answer"]) for c in cases])
    right = sum((r.score >= 0.5) == c["relevant"] for c, r in zip(cases, results, strict=True))
    assert right / len(cases) >= HELD_OUT_FLOORS[path], right


def test_residual_texts_take_the_subject_out() -> None:
    """What is left of the question is what it asks; of the statement, what it says about the subject."""
    assert residual_texts("When was the Eiffel Tower built?", "The Eiffel Tower is 330 metres tall.") == \
        ("when was built", "the is 330 metres tall")


def test_non_answer_cues() -> None:
    """Sending the user elsewhere or a stock phrase is a non-answer; a specific statement is not."""
    assert non_answer("You can look that up online.")
    assert non_answer("Everyone's situation is different.")
    assert not non_answer("Ask for the dessert menu after the main course; the tiramisu is the best.")
    assert non_answer("You could check a travel website for that.")
    assert not non_answer("The owner's manual of the car says to use 5W-30 oil.")
    assert not non_answer("Check the tyre pressure once a month.")


def test_model_probability_and_its_file() -> None:
    """The packaged model reads its own features; P is in (0, 1), higher for a closer statement."""
    model = load_model()
    assert model.metadata["fitted_by"] == "bench/fit_relevance.py"
    low = np.array([0.1, 0.0, 0.1, 0, 1, 1, 1.0, 1, 0, 1.5])
    high = np.array([0.8, 1.0, 0.6, 1, 0, 0, 0.0, 0, 1, 2.0])
    p = model.probability(np.vstack([low, high]))
    assert 0 < p[0] < p[1] < 1
    with pytest.raises(ValueError, match="features"):
        RelevanceModel.from_dict({"features": ["cos"], "coef": [1], "intercept": 0, "mean": [0], "scale": [1],
                                  "cutoff": 0.5})
    assert len(FEATURES) == len(model.coef)


@pytest.mark.parametrize(("text", "expected"), [
    ("206.", ["206."]),
    ("1. Paris\n2. London", ["Paris", "London"]),
    ("[3]", []),
])
def test_bare_numbers_are_statements_list_numbers_are_not(text: str, expected: list[str]) -> None:
    """A number that ends its line is an answer; a list number before an item and a citation are not statements."""
    assert [s.text for s in HEURISTIC_JUDGE.statements([text])[0]] == expected


@pytest.mark.parametrize(("question", "kind"), [
    ("When did the Berlin Wall fall?", "a date"),
    ("What year did the war end?", "a date"),
    ("How tall is Mount Everest?", "a number"),
    ("What is the population of Lagos?", "a number"),
    ("Who wrote Hamlet?", "a person or organisation"),
    ("What is the capital of Peru?", "a place"),
    ("Why do cats purr?", "a cause"),
    ("How do I renew my passport?", "a method"),
    ("What is photosynthesis?", "a definition"),
    ("Is coffee bad for you?", "a risk or its absence"),
    ("Can dogs swim?", None),
    ("What are the symptoms of the flu?", None),
    ("When was the Eiffel Tower completed and how tall is it?", None),
    ("When was it built, and when was it opened?", "a date"),
])
def test_question_types_table(question: str, kind: str | None) -> None:
    """The question's form names the answer type it asks for (``QUESTION_TYPES``); a yes/no or open question none."""
    found = asked(question)
    assert (found.name if found else None) == kind


@pytest.mark.parametrize(("question", "statement", "given"), [
    ("How many people live in Tokyo?", "Tokyo became the capital of Japan in 1868.", False),
    ("How many people live in Tokyo?", "About 14 million people live there.", True),
    ("How long do parrots live?", "Parrots were first kept as pets in the 18th century.", False),
    ("What year did World War II end?", "World War II involved more than 30 countries.", False),
    ("What year did World War II end?", "It ended in 1945.", True),
    ("Where was Albert Einstein born?", "Einstein won the Nobel Prize in 1921.", False),
    ("Where was Albert Einstein born?", "He was born in Ulm, Germany.", True),
    ("Why do cats purr?", "Cats sleep for up to 16 hours a day.", False),
    ("Why do cats purr?", "Cats purr because it soothes them.", True),
])
def test_answer_type_given(question: str, statement: str, given: bool) -> None:
    """A year is no count; the question's own entity ("World War II") is its subject, not a date; a why wants a
    cause."""
    (found,) = HEURISTIC_JUDGE.statements([statement])
    assert answer_type_given(question, found[0]) is given


@pytest.mark.parametrize(("question", "direct", "other"), [
    ("How tall is Mount Everest?", "It is 8,849 metres high.", "Mount Everest lies on the border of Nepal and China."),
    ("What year did World War II end?", "World War II ended in 1945.",
     "World War II involved more than 30 countries."),
    ("Why do cats purr?", "Cats purr to signal contentment and to soothe themselves.",
     "Cats sleep for up to 16 hours a day."),
    ("How do I renew my passport?", "Fill in the renewal form online and mail it with your old passport.",
     "Passports were first introduced in the 15th century."),
])
def test_an_answer_to_another_question_scores_below_the_direct_answer(question: str, direct: str, other: str) -> None:
    """On the same subject, the statement that answers another question is "no" (0), the direct answer relevant (1);
    the model's P(answers the question) orders them too."""
    results = AnswerRelevancy().measure_many([(question, direct), (question, other)])
    assert [r.score for r in results] == [1.0, 0.0]
    assert "answers another question" in results[1].statement_breakdown[0].reason
    found = HEURISTIC_JUDGE.statements([direct, other])
    p_direct, p_other = HEURISTIC_JUDGE.question_fit([(question, found[0]), (question, found[1])])
    assert p_other[0] < 0.5 < p_direct[0]


@pytest.mark.parametrize("answer", [
    "I'd suggest looking that up online.",
    "I would recommend doing some research before you decide.",
    "Check the official website for the details.",
    "There is no simple answer to that.",
    "Only time will tell.",
    "That is a personal choice.",
])
@pytest.mark.parametrize("mode", ["task", "strict"])
def test_evasions_are_no(answer: str, mode: str) -> None:
    """Sending the user elsewhere or declining to answer is an evasion: "no", score 0, in both modes."""
    result = AnswerRelevancy(relevancy_mode=mode).measure("How much does a new electric bike cost?", answer)
    assert result.score == 0.0
    assert result.statement_breakdown[0].reason.startswith(("evasion", "refusal"))


@pytest.mark.parametrize("mode", ["task", "strict"])
@pytest.mark.parametrize(("query", "answer", "why"), [
    ("How do vaccines work?", "This is a complex topic with many factors to consider.", "filler"),
    ("Why do cats purr?", "It depends on many different factors.", "filler"),
    ("What is the capital of France?", "No.", "relevance"),
    ("What is the main ingredient of guacamole?", "Many factors.", "relevance"),
])
def test_fillers_and_misplaced_yes_no_are_no(query: str, answer: str, why: str, mode: str) -> None:
    """Generic words only, none of the question's, fit any question: "no"; so is a bare "No." to a what-question."""
    result = AnswerRelevancy(relevancy_mode=mode).measure(query, answer)
    assert result.score == 0.0
    assert [s.verdict for s in result.statement_breakdown] == ["no"]
    assert why in result.statement_breakdown[0].reason


@pytest.mark.parametrize(("query", "statement", "expected"), [
    ("How do vaccines work?", "This is a complex topic with many factors to consider.", True),
    ("How can I improve my sleep?", "It is important to consider many factors about sleep.", False),
    ("How can I improve my sleep?", "Keep a regular bedtime every night.", False),
    ("How do vaccines work?", "Yes.", False),
])
def test_filler(query: str, statement: str, expected: bool) -> None:
    """A filler: two or more content words, at least 3 in 4 generic, none of the query's."""
    (found,) = HEURISTIC_JUDGE.statements([statement])
    assert filler(query, found[0]) is expected


@pytest.mark.parametrize(("question", "direct", "other"), [
    ("How does a refrigerator keep food cold?",
     "A refrigerator keeps food cold by pumping a refrigerant that absorbs the heat inside.",
     "Refrigerators were invented in the 19th century."),
    ("What does a pharmacist do?", "A pharmacist checks prescriptions and advises patients on their medicines.",
     "Pharmacists earn a good salary in most countries."),
    ("Why is the Colosseum in ruins?", "Earthquakes and stone robbers damaged the Colosseum over the centuries.",
     "The Colosseum is popular with tourists from all over the world."),
])
def test_a_statement_on_the_subject_for_another_untyped_question_scores_below(question: str, direct: str,
                                                                           other: str) -> None:
    """No date, number, person or place asked: the model's P(answers the question) puts the statement on the subject
    that answers another question below the direct answer (both stay above the cut-off: a known miss)."""
    found = HEURISTIC_JUDGE.statements([direct, other])
    p_direct, p_other = HEURISTIC_JUDGE.question_fit([(question, found[0]), (question, found[1])])
    assert p_other[0] < p_direct[0]
    assert p_direct[0] > 0.6


@pytest.mark.parametrize(("query", "answer", "expected"), [
    ("explain how external factors influence own work role",
     "External factors can influence your own work role in a number of ways.", "no"),
    ("how does justice apply in the context of work", "Justice applies in the context of work in many different ways.",
     "no"),
    ("what are the mechanism behind sea level rise and its impacts", "The rising sea levels have several impacts.",
     "no"),
    ("are rigid attitudes based on erroneous beliefs", "Rigid attitudes are based on erroneous beliefs.", "yes"),
    ("how to measure and improve product market fit?", "To measure and improve product-market fit:", "yes"),
    ("how does justice apply at work", "Justice does not apply at work in many ways.", None),
    ("how long does the treaty process take", "The treaty process takes 3 years in many cases.", "yes"),
    ("How many legs does a spider have?", "A spider has eight legs.", "yes"),
    ("how often do people blame time for a poor diet", "People often blame time for a poor diet.", None),
])
def test_a_restatement_of_the_question_is_no_answer(query: str, answer: str, expected: str | None) -> None:
    """The question's words and generic words only, to a question that is not yes/no: "no" (echo); a yes/no
    question restated is its answer, "To X:" leads a list, a negation or a number says something."""
    (first, *_) = AnswerRelevancy().measure(query, answer).statement_breakdown
    assert ("echo" in first.reason) == (expected == "no"), first
    if expected is not None:
        assert first.verdict == expected, first



def test_the_answer_to_the_second_part_of_a_question_addresses_it() -> None:
    """A two-part question asks for no one answer type: the second part's answer is relevant, as asked alone."""
    for question in ("When was the Eiffel Tower completed and how tall is it?", "How tall is the Eiffel Tower?"):
        assert AnswerRelevancy().measure(question, "The Eiffel Tower is 330 metres tall.").score == 1.0


TWO_PART = "When was the Eiffel Tower completed and how tall is it?"


@pytest.mark.parametrize(("answer", "left_out"), [
    ("The Eiffel Tower was completed in 1889.", "'how tall is it'"),
    ("The Eiffel Tower is 330 metres tall.", "'when was the eiffel tower completed'"),
    ("It was completed in 1889.", "'how tall is it'"),
])
def test_an_answer_to_one_part_of_a_two_part_question_is_an_omission(answer: str, left_out: str) -> None:
    """Each question of several is a part: an answer to one is on topic but omits the other (4), whichever it is;
    a date to "when ... and how tall" is no dodge (adv2 01, 02)."""
    result = RubricAnswerRelevancy().measure(TWO_PART, answer)
    assert result.level == 4
    assert f"leave out {left_out} of the question" in result.reason and "dodges" not in result.reason
    (statement,) = AnswerRelevancy().measure(TWO_PART, answer).statement_breakdown
    assert statement.verdict == "yes"
    both = RubricAnswerRelevancy().measure(TWO_PART, "It was completed in 1889. It is 330 metres tall.")
    assert both.level == 5


@pytest.mark.parametrize("answer", ["Finished in March 1889.", "Construction finished in March 1889."])
def test_a_short_clause_that_gives_the_date_asked_is_a_direct_answer(answer: str) -> None:
    """At most five words with the date a "when" asks for: "yes" in both modes, verb or not (adv2 03); a short
    clause with a name of its own is not such an answer."""
    query = "When was the Eiffel Tower completed?"
    for mode in ("task", "strict"):
        result = AnswerRelevancy(relevancy_mode=mode).measure(query, answer)
        assert [s.verdict for s in result.statement_breakdown] == ["yes"] and result.score == 1.0
    assert RubricAnswerRelevancy().measure(query, answer).level == 5
    (found,) = HEURISTIC_JUDGE.statements(["Paris has 2 million people."])
    assert not short_number_answer("How many people live in London?", found[0])


@pytest.mark.parametrize("answer", [
    "I'm not a doctor, but you should talk to a healthcare professional about your sleep.",
    "Please reach out to a licensed therapist.",
    "You should ask your doctor about that.",
])
def test_sending_the_user_to_a_professional_is_an_evasion(answer: str) -> None:
    """A modifier before the professional ("a healthcare professional") is still a referral (adv2 04)."""
    assert non_answer(answer)
    result = AnswerRelevancy(relevancy_mode="task").measure("How can I improve my sleep?", answer)
    assert [s.verdict for s in result.statement_breakdown] == ["no"] and result.score == 0.0
    assert RubricAnswerRelevancy().measure("How can I improve my sleep?", answer).level == 1


@pytest.mark.parametrize(("query", "answer"), [
    ("How can I improve my sleep?",
     "1. Keep a regular bedtime.\n2. Avoid caffeine after noon.\n3. Keep your bedroom dark and cool."),
    ("What is the boiling point of water?", "100 degrees Celsius at sea level."),
])
def test_a_statement_giving_the_type_asked_is_not_off_topic(query: str, answer: str) -> None:
    """An "idk" statement without the query's words is on topic when it gives what the question asks for by a
    number or cue word (a temperature, a method): level 3, not 1 (adv2 05)."""
    result = RubricAnswerRelevancy().measure(query, answer)
    assert result.level == 3
    assert {d["verdict"] for d in result.breakdown} == {"idk"}
    assert RubricAnswerRelevancy().measure(
        "What is the capital of Australia?", "Kangaroos are marsupials. The Great Barrier Reef is off Queensland."
    ).level == 1  # a stray name is no place given


@pytest.mark.parametrize(("answer", "level", "left_out"), [
    ("Nuclear power has low carbon emissions and reliable output. However, it creates radioactive waste and is "
     "expensive to build.", 5, None),
    ("Pros:\n- Low carbon emissions\n- Reliable output\nCons:\n- Radioactive waste\n- High construction costs", 5,
     None),
    ("Nuclear power has low carbon emissions and reliable output.", 4, "'cons'"),
    ("Nuclear power creates radioactive waste and needs high construction costs.", 4, "'pros'"),
])
def test_pros_and_cons_are_parts_given_in_other_words(answer: str, level: int, left_out: str | None) -> None:
    """"pros and cons": advantages and drawbacks in any words give both; "construction" is no "cons" (adv2 11)."""
    result = RubricAnswerRelevancy().measure("What are the pros and cons of nuclear power?", answer)
    assert result.level == level, result.reason
    assert ("leave out" in result.reason) == (left_out is not None)
    if left_out:
        assert f"leave out {left_out} of the question" in result.reason


@pytest.mark.parametrize(("query", "answer", "level", "note"), [
    ("When was the Eiffel Tower completed?", "Work on the tower ended on 31 March 1889.", 4,
     "0.33 of the query's words"),
    ("What is the capital of France and what is its population?",
     "The capital is Paris, with about 2.1 million people.", 4, "0.33 of the query's words"),
    ("When was the Eiffel Tower completed?", "The Eiffel Tower was completed on March 31, 1889.", 5, None),
    ("When was the Eiffel Tower completed?", "The Eiffel Tower is a wrought-iron tower in Paris.", 3,
     "no statement gives what 'when' asks for: it dodges"),
])
def test_a_statement_giving_the_type_asked_does_not_dodge(query: str, answer: str, level: int,
                                                          note: str | None) -> None:
    """The dodge cap needs no statement giving the date, number, person or place asked: a date or the place and the
    number in other words than the query's are no dodge (an omission of its words at most; adv4 05); a statement
    without the date still dodges."""
    result = RubricAnswerRelevancy().measure(query, answer)
    assert result.level == level, result.reason
    assert ("dodges" in result.reason) == (level == 3)
    if note:
        assert note in result.reason


@pytest.mark.parametrize(("query", "answer", "level"), [
    ("What is the capital of France and what is its population?", "Paris.", 4),
    ("What is the capital of France and what is its population?", "The capital of France is Paris.", 4),
    ("What is the capital of France?", "Paris.", 5),
])
def test_what_is_its_population_is_a_part_asking_for_a_number(query: str, answer: str, level: int) -> None:
    """"what is its population" asks for a number as "what is the population of" does: left out, an omission (4;
    adv4 06); the capital alone to the capital alone is complete."""
    result = RubricAnswerRelevancy().measure(query, answer)
    assert result.level == level, result.reason
    assert ("leave out 'what is its population' of the question" in result.reason) == (level == 4)
    assert asked("What is its population?").name == "a number"  # type: ignore[union-attr]


@pytest.mark.parametrize(("query", "answer", "told"), [
    ("When did World War II end?", "World War II began in 1939.", "began"),
    ("When did World War II end?", "It began in 1939.", "began"),
    ("When was Mozart born?", "Mozart died in 1791.", "died"),
    ("When did World War II end?", "World War II ended in 1945.", None),
    ("When did World War II end?", "World War II began in 1939 and ended in 1945.", None),
    ("When did World War II begin?", "World War II began in 1939.", None),
])
def test_the_other_end_of_the_event_answers_another_question(query: str, answer: str, told: str | None) -> None:
    """The start of an event to a question about its end (or the reverse) gives no date: "no" in both modes, a
    dodge in the rubric (at most 3; adv4 08); the end asked, or both ends, stay "yes" and level 5."""
    assert other_event(query, answer) == told
    assert other_event("When do leaves turn red in the fall?", "They start turning in September.") is None  # a season
    assert other_event("When should beginners stop?", "Stop when it hurts.") is None
    for mode in ("task", "strict"):
        result = AnswerRelevancy(relevancy_mode=mode).measure(query, answer)
        assert [s.verdict for s in result.statement_breakdown] == ["no" if told else "yes"], (mode, result)
    rubric = RubricAnswerRelevancy().measure(query, answer)
    assert rubric.level == (3 if told else 5), rubric.reason
    (found,) = HEURISTIC_JUDGE.statements([answer])
    words = (content_words(query), content_words(query))
    why = f"'{told}': it tells the other end of the event the question asks about" if told else None
    assert HEURISTIC_JUDGE.direct_answer(query, words, found[0]) == why  # strict mode's direct-answer rule


@pytest.mark.parametrize(("answer", "verdict", "level"), [
    ("Sleep is a fascinating topic that scientists have studied for decades.", "no", 1),
    ("Keep a regular bedtime and avoid screens before sleep.", "yes", 5),
    ("Studies show that regular exercise improves sleep.", "yes", 5),
])
def test_talk_about_the_topic_as_a_subject_of_study_is_an_echo(answer: str, verdict: str, level: int) -> None:
    """"a fascinating topic that scientists have studied for decades" adds nothing to the question's words
    (``TOPIC_TALK``): "no" in both modes, level 1 (adv4 09); a method, or a finding with its content, stays "yes"."""
    query = "How can I improve my sleep?"
    for mode in ("task", "strict"):
        (statement,) = AnswerRelevancy(relevancy_mode=mode).measure(query, answer).statement_breakdown
        assert statement.verdict == verdict and ("echo" in statement.reason) == (verdict == "no"), (mode, statement)
    assert RubricAnswerRelevancy().measure(query, answer).level == level


GOOD, BAD = "The Eiffel Tower was completed in 1889.", "Bananas are yellow."


@pytest.mark.parametrize("answer", [f"{GOOD} {BAD}", f"{GOOD} {GOOD} {GOOD} {BAD}", f"{GOOD} {BAD} {BAD} {BAD}",
                                    f"{GOOD} {GOOD.upper()} {BAD}"])
def test_a_statement_said_again_counts_once(answer: str) -> None:
    """Saying a statement again neither raises nor lowers AnswerRelevancy: 0.50 each, two statements (adv4 10)."""
    result = AnswerRelevancy().measure("When was the Eiffel Tower completed?", answer)
    assert (result.score, len(result.statement_breakdown)) == (0.5, 2), result
    two = AnswerRelevancy().measure("How tall is the Eiffel Tower?",
                                    "The Eiffel Tower is 330 m tall. The Eiffel Tower is 300 m tall.")
    assert len(two.statement_breakdown) == 2  # other numbers: two statements
