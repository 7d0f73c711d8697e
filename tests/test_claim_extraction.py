"""Claim extraction of the heuristic judge: what is a statement and what of a line is dropped before judging.

Punctuation-only text holds no statement; markdown headings and short verbless label lines are no statements;
author-year citations are dropped as bracket citations are; a word hyphenated at a line end is one word.
"""

from __future__ import annotations

import math

import pytest

from ir_rag_axioms.metrics import AnswerRelevancy, ContextRecall, ContextualPrecision, ContextualRecall, Faithfulness
from ir_rag_axioms.metrics.judges import HeuristicJudge
from ir_rag_axioms.metrics.quantities import counted
from ir_rag_axioms.metrics.statements import has_statement_text

JUDGE = HeuristicJudge()
CONTEXT = ["The Eiffel Tower is in Paris and was completed in 1889."]


def _texts(text: str) -> list[str]:
    """The statement texts the heuristic judge reads off one text."""
    return [s.text for s in JUDGE.statements([text])[0]]


@pytest.mark.parametrize("text, expected", [
    ("!!!", False), ("\U0001f389", False), (";;;", False), ("...", False), (" ; ", False), ("", False),
    ("a", True), ("7", True), ("é!", True),
])
def test_a_statement_needs_a_letter_or_digit(text: str, expected: bool) -> None:
    """Text without a letter or digit holds no statement."""
    assert has_statement_text(text) is expected
    if not expected:
        assert _texts(text) == []


@pytest.mark.parametrize("text", [
    "## Answer\n\nThe tower was completed in 1889.",
    "# Summary\nThe tower was completed in 1889.",
    "**Answer:**\nThe tower was completed in 1889.",
    "Answer:\nThe tower was completed in 1889.",
    "**Key facts:**\nThe tower was completed in 1889.",
])
def test_headings_and_label_lines_are_no_statements(text: str) -> None:
    """A markdown heading or a short verbless label line ending with ":" is not a statement."""
    assert _texts(text) == ["The tower was completed in 1889."]


def test_a_list_lead_with_a_verb_stays_a_statement() -> None:
    """"To measure X:" leads a list and has a verb: it stays a statement, as before."""
    assert _texts("To measure the height:\n- use a laser\n- use a tape") == [
        "To measure the height", "use a laser", "use a tape"]


def test_a_heading_does_not_lower_answer_relevancy() -> None:
    """A heading or label line before the answer leaves the score as it is without it."""
    question = "When was the Eiffel Tower completed and how tall is it?"
    answer = "The Eiffel Tower was completed in 1889. It is 330 metres tall."
    scores = [AnswerRelevancy().measure(question, prefix + answer).score
              for prefix in ("", "## Answer\n\n", "**Answer:**\n")]
    assert scores == [scores[0]] * 3


@pytest.mark.parametrize("signpost", ["The key facts are listed below.", "Here are the key facts:",
                                      "The following facts stand out:", "The details are as follows:"])
def test_a_signpost_to_the_answers_other_parts_is_no_claim(signpost: str) -> None:
    """A sentence that only points to the rest of the answer checks nothing: the answer stays at level 5."""
    result = Faithfulness().measure(f"{signpost}\n- The Eiffel Tower is in Paris.\n- It was completed in 1889.",
                                    CONTEXT)
    assert (result.level, [row["statement"] for row in result.breakdown]) == (
        5, ["The Eiffel Tower is in Paris.", "It was completed in 1889."])
    claim = Faithfulness().measure("The tower, shown below, was completed in 1899.", CONTEXT)
    assert claim.level == 1  # a claim that names the figure below is still a claim


@pytest.mark.parametrize("citation", [" (Smith et al., 2020)", " (Smith, 2020)", " (Smith and Jones 2019)",
                                      " (Smith & Jones, 2019; Lee, 2018a)", " [1]"])
def test_citations_are_dropped(citation: str) -> None:
    """Author-year citations are dropped from the text and from the checked facts, as bracket citations are."""
    claim = "The Eiffel Tower is in Paris and was completed in 1889"
    (found,) = JUDGE.statements([claim + citation + "."])
    assert [s.text.rstrip(".") for s in found] == [claim]
    assert not any("smith" in text or "jones" in text or "lee" in text for text, _ in found[0].facts.entities)
    assert [n[0] for n in found[0].facts.numbers] == [1889.0]
    result = Faithfulness().measure(claim + citation + ".", CONTEXT)
    assert result.level == 5


def test_a_word_hyphenated_at_a_line_end_is_joined() -> None:
    """"com-\\npleted" is one word of one statement: the hyphen and the line break go."""
    assert _texts("The tower was com-\npleted in 1889.") == ["The tower was completed in 1889."]
    result = Faithfulness().measure("The tower was com-\npleted in 1889.", ["The tower was completed in 1889."])
    assert result.level == 5


def test_a_hyphen_before_a_capital_or_a_bullet_is_no_line_end_hyphenation() -> None:
    """Only a lowercase letter, "-", a line break and a lowercase letter is joined; list items stay apart."""
    assert _texts("The tower is tall.\n- It is in Paris.") == ["The tower is tall.", "It is in Paris."]
    assert _texts("The north-\nSouth line was built in 1900.") == ["The north-", "South line was built in 1900."]


ANSWER = "The Eiffel Tower is in Paris."


@pytest.mark.parametrize(("call", "reason"), [
    (lambda: ContextRecall().measure(ANSWER, ["!!!"]), "undefined: no reference facts to judge against"),
    (lambda: ContextRecall().measure(ANSWER, [";;;", "..."]), "undefined: no reference facts to judge against"),
    (lambda: ContextRecall().measure(ANSWER, "🎉"), "undefined: no reference facts to judge against"),
    (lambda: Faithfulness().measure(ANSWER, ["!!!"]), "undefined: no context to judge against"),
    (lambda: Faithfulness().measure(ANSWER, " ; "), "undefined: no context to judge against"),
    (lambda: ContextualPrecision().measure("Where is it?", "...", [ANSWER]), "undefined: no expected output"),
    (lambda: ContextualRecall().measure(ANSWER, ["!!!"]), "undefined: no retrieval context"),
])
def test_punctuation_alone_is_no_context_reference_or_expected_output(call, reason):
    result = call()
    assert math.isnan(result.score) and result.explanation.startswith(reason), result.explanation


TABLE = """The towers compare as follows.

| Tower | City | Height |
|---|:---:|---|
| Eiffel Tower | Paris | 330 m |
| Tokyo Tower | Tokyo |  |
"""


def test_a_markdown_table_row_is_one_statement_its_cells_named_by_the_header() -> None:
    assert _texts(TABLE) == ["The towers compare as follows.", "Eiffel Tower (City: Paris; Height: 330 m).",
                             "Tokyo Tower (City: Tokyo)."]


def test_pipes_without_a_delimiter_row_are_no_table() -> None:
    assert _texts("Use a | b to pipe.\nThe shell runs both.") == ["Use a | b to pipe.", "The shell runs both."]


def test_a_wrong_cell_of_a_table_row_is_caught() -> None:
    context = ["The Eiffel Tower in Paris is 330 metres tall.", "Tokyo Tower stands in Tokyo."]
    table = "| Tower | City | Height |\n|---|---|---|\n| Eiffel Tower | {city} | {height} m |\n"
    assert Faithfulness().measure(table.format(city="Paris", height=330), context).level == 5
    assert Faithfulness().measure(table.format(city="Lyon", height=330), context).level == 1
    assert Faithfulness().measure(table.format(city="Paris", height=250), context).level == 1


def test_a_resolved_pronoun_names_its_antecedent_for_the_checks() -> None:
    """"It is 330 metres tall and stands in Paris.": the tower "it" stands for is named there, Paris is no rival."""
    context = ["The Eiffel Tower was completed in 1889. It is 330 metres tall and stands in Paris."]
    assert Faithfulness().measure("The Eiffel Tower is 330 metres tall.", context).level == 5
    assert Faithfulness().measure("The Eiffel Tower is 500 metres tall.", context).level == 1


@pytest.mark.parametrize(("answer", "passage"), [
    ("The company was founded by Jurgen Muller in Zurich.", "The company was founded by Jürgen Müller in Zürich."),
    ("Gabriel Garcia Marquez wrote the novel in 1967.", "The novel was written by Gabriel García Márquez in 1967."),
    ("The final was played in São Paulo.", "The final was played in Sao Paulo."),
])
def test_names_agree_without_their_diacritics(answer: str, passage: str) -> None:
    assert Faithfulness().measure(answer, [passage]).level == 5


def test_an_acronym_opening_a_sentence_is_a_name() -> None:
    """spaCy tags a sentence-initial "UNICEF" as a common noun: an all-capitals word is read as a name all the same."""
    context = ["The reef was declared a World Heritage Site in 1981 by UNESCO."]
    assert Faithfulness().measure("UNICEF declared the reef a World Heritage Site in 1981.", context).level == 1
    assert Faithfulness().measure("UNESCO declared the reef a World Heritage Site in 1981.", context).level == 5


def test_the_label_column_of_a_fact_table_is_no_name() -> None:
    """Under a generic header ("| Fact | Value |") a row's first cell labels it: "Area" is no name the context lacks."""
    reef = ["The Great Barrier Reef covers about 344,400 square kilometres and has more than 2,900 reefs."]
    table = "| Fact | Value |\n|---|---|\n| Area | {area} km² |\n| Reefs | more than 2,900 |\n"
    faithful = Faithfulness().measure(table.format(area="344,400"), reef)
    assert faithful.level == 5, faithful.explanation
    wrong = Faithfulness().measure(table.format(area="144,400"), reef)
    assert wrong.level < 5 and "144400 km²" in wrong.explanation, wrong.explanation
    towers = "| Tower | Height |\n|---|---|\n| Tokyo Tower | 330 m |\n"  # a name column: still a name
    assert Faithfulness().measure(towers, ["The Eiffel Tower is 330 metres tall."]).level < 5


def test_a_bare_number_in_a_table_takes_its_header_unit() -> None:
    """"| Height (m) |" over "| 532 |" is 532 metres; a cell border is never a number's unit."""
    towers = ["The Burj Khalifa is 828 metres tall and was completed in 2010. The Shanghai Tower is 632 metres tall "
              "and was completed in 2015."]
    table = "| Building | Height ({unit}) | Completed |\n|---|---|---|\n| Shanghai Tower | {height} | 2015 |\n"
    assert Faithfulness().measure(table.format(unit="m", height=632), towers).level == 5
    wrong = Faithfulness().measure(table.format(unit="m", height=532), towers)
    assert wrong.level == 1 and "532 m vs 632 m" in wrong.explanation, wrong.explanation
    assert Faithfulness().measure(table.format(unit="ft", height=632), towers).level == 1  # 632 ft is 193 m
    shares = ["Thermal expansion contributed 42% to sea level rise and temperate glaciers 21%."]
    share_table = "| Source | Share of rise (%) |\n|---|---|\n| Thermal expansion | 42 |\n| Temperate glaciers | {} |\n"
    assert Faithfulness().measure(share_table.format(21), shares).level == 5
    assert Faithfulness().measure(share_table.format(12), shares).level < 5


def test_a_bare_number_under_a_plural_header_counts_its_thing() -> None:
    """"| Floors |" over "| 118 |" is 118 floors, compared as the prose "118 floors" is; "| Year |" is no count."""
    towers = ["The Shanghai Tower has 128 floors and is 632 metres tall. It was completed in 2015."]
    table = "| Building | Floors | Year |\n|---|---|---|\n| Shanghai Tower | {} | 2015 |\n"
    assert Faithfulness().measure(table.format(128), towers).level == 5
    wrong = Faithfulness().measure(table.format(118), towers)
    assert wrong.level == 1 and "118 floor vs 128 floor" in wrong.explanation, wrong.explanation
    assert counted("Floors") == "floor" and counted("Casualties") == "casualty"
    assert counted("Year") is None and counted("Years") is None  # a unit: pint reads it
    assert counted("Height (m)") is None


@pytest.mark.parametrize("marker", ["[{}]", "[Source {}]", "[Doc {}]", "[Passage {}]", "[ref {}]"])
def test_citation_markers_with_a_word_are_no_claims(marker: str) -> None:
    context = ["Sea level rose about 20 centimetres between 1880 and 2014.",
               "Thermal expansion contributed 42% to sea level rise between 1993 and 2018."]
    answer = (f"Sea level rose about 20 cm between 1880 and 2014 {marker.format(1)}. Thermal expansion contributed "
              f"42% of the rise between 1993 and 2018 {marker.format(2)}.")
    result = Faithfulness().measure(answer, context)
    assert result.level == 5 and len(result.breakdown) == 2, result.explanation
    sources = Faithfulness().measure(answer + "\n\n**Sources:**\n[1] NOAA, Climate.gov\n[2] NASA Sea Level Portal",
                                     context)
    assert sources.level == 5 and len(sources.breakdown) == 2, sources.explanation


def test_a_numbered_heading_is_no_claim() -> None:
    context = ["Marius recruited landless citizens into the army.",
               "Retired soldiers were promised land after 16 years of service."]
    answer = ("## Marius's reforms\n\n### 1. Recruitment\nMarius recruited landless citizens into the army.\n\n"
              "### 2. Why it mattered\nRetired soldiers were promised land after 16 years of service.")
    result = Faithfulness().measure(answer, context)
    assert result.level == 5 and len(result.breakdown) == 2, result.explanation


def test_declined_to_negates_its_verb() -> None:
    context = ["The court declined to block the law."]
    assert Faithfulness().measure("The court blocked the law.", context).level == 1
    assert Faithfulness().measure("The court declined to block the law.", context).level == 5
