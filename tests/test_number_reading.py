"""How the heuristic judge reads numbers: scale letters, powers, fractions, ranks, dates, clock times, spaces."""

from __future__ import annotations

import functools

import pytest

from ir_rag_axioms.metrics import Faithfulness, quantities
from ir_rag_axioms.metrics._checks_numbers import _number
from ir_rag_axioms.metrics._numbers import _numbers


@functools.cache
def _nlp():
    from ir_rag_axioms.analysis.resources import load_spacy

    return load_spacy()


def numbers(text: str) -> list[tuple[float, float, str, bool]]:
    """The numbers the judge reads in one text."""
    return _numbers(_nlp()(text)[:])


def same(found: list[tuple[float, float, str, bool]], expected: list[tuple[float, float, str, bool]]) -> bool:
    """Whether two lists of numbers are equal: units and hedges exactly, values to 1e-9 relative."""
    return len(found) == len(expected) and all(
        a[2:] == b[2:] and a[:2] == pytest.approx(b[:2], rel=1e-9) for a, b in zip(found, expected, strict=True))


@pytest.mark.parametrize(("text", "expected"), [
    ("The repo has 2.5k stars.", [(2500.0, 2500.0, "star", False)]),
    ("The repo has 9k stars.", [(9000.0, 9000.0, "star", False)]),
    ("It sold 2.5K units.", [(2500.0, 2500.0, "unit", False)]),
    ("Revenue was $2.1bn in 2023.", [(2.1e9, 2.1e9, "$", False), (2023.0, 2023.0, "", False)]),
    ("The model has 7B parameters.", [(7e9, 7e9, "parameter", False)]),
    ("It is a 7B model.", [(7e9, 7e9, "model", False)]),
    ("It costs $5M.", [(5e6, 5e6, "$", False)]),
    ("It costs $5m.", [(5e6, 5e6, "$", False)]),
    ("It costs $1.2 bn.", [(1.2e9, 1.2e9, "$", False)]),
    ("It raised $5 m in 2020.", [(5e6, 5e6, "$", False), (2020.0, 2020.0, "", False)]),  # spaced, after a price
    ("It raised £5 m.", [(5e6, 5e6, "£", False)]),
    ("The debt is $3tn.", [(3e12, 3e12, "$", False)]),
    ("The company has 3e12 users.", [(3e12, 3e12, "user", False)]),
    ("The sensor samples 10^6 points.", [(1e6, 1e6, "point", False)]),
    # the scale word after a range applies to both ends
    ("It earned $6\u20138 billion a year.", [(6e9, 8e9, "$", False)]),  # one token with an en dash
    ("It earned $6-8 billion a year.", [(6e9, 8e9, "$", False)]),
    ("It had between 20 and 45 million users.", [(2e7, 4.5e7, "user", False)]),
    ("It cost 6 million to 44 million dollars.", [(6e6, 4.4e7, "$", False)]),  # a currency is told by its sign
])
def test_scale_letters_and_powers_are_read(text, expected):
    assert same(numbers(text), expected), numbers(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("The rope is 5m long.", [(5.0, 5.0, "", False)]),  # "m" is million only after a currency sign
    ("He lives in apartment 7B.", []),  # a label, not 7 billion
    ("It costs 5M.", []),  # no currency sign and no noun after it: unread, not 5
    ("It is 2^10 points.", []),  # only powers of ten are read
    ("It is 3 x 10^6 m.", [(3.0, 3.0, "x", False)]),  # the power of a product is left unread
    ("Version 3.11.2 was released.", []),
    ("The rate is 2,5 rounds.", []),  # a decimal comma is read only before a unit or percent
    ("See pages 1,2 and 3.", [(3.0, 3.0, "page", False)]),
    ("The city has 12 500 residents.", []),  # one group after a plain space: "12 500" or 12 and 500?
])
def test_what_could_be_misread_is_left_unread(text, expected):
    assert same(numbers(text), expected), numbers(text)


def test_points_and_other_counted_things_are_no_units():
    assert quantities.unit("points") is None and quantities.unit("point") is None
    assert quantities.unit("shots") is None and quantities.unit("links") is None
    assert quantities.unit("cups") == "cup" and quantities.unit("knots") == "knot"


def test_decimal_commas_and_space_grouped_thousands():
    assert numbers("The rate is 2,5 percent.") == [(2.5, 2.5, "%", False)]
    assert numbers("It has 1,00,000 people.") == [(100000.0, 100000.0, "people", False)]
    assert numbers("The city has 1 200 000 residents.") == [(1.2e6, 1.2e6, "resident", False)]
    assert numbers("The city has 1\u202f200\u202f000 residents.") == [(1.2e6, 1.2e6, "resident", False)]
    assert numbers("The city has 12\u202f500 residents.") == [(12500.0, 12500.0, "resident", False)]


def test_fractions_and_vulgar_fractions():
    assert same(numbers("About 1/3 of voters agreed."), [(100 / 3, 100 / 3, "%", True)])  # a share: a percentage
    cup = quantities.measure(0.75, "cup")[0]
    assert same(numbers("The recipe needs ¾ cup of sugar."), [(cup, cup, "[length] ** 3", False)])
    cups = quantities.measure(1.5, "cup")[0]
    assert numbers("Add 1½ cups.") == numbers("Add 1 ½ cups.")
    assert same(numbers("Add 1 ½ cups."), [(cups, cups, "[length] ** 3", False)])
    assert numbers("It runs 24/7.") == []


def test_ordinals_are_ranks_but_not_fractions_adverbs_or_days():
    assert numbers("She finished third in the race.") == [(3.0, 3.0, quantities.RANK, False)]
    assert numbers("She finished 3rd in the race.") == [(3.0, 3.0, quantities.RANK, False)]
    assert numbers("It is the second largest city.") == [(2.0, 2.0, quantities.RANK, False)]
    assert numbers("She won a third of the votes.") == []
    assert numbers("He first visited Paris in 1900.") == [(1900.0, 1900.0, "", False)]
    assert numbers("Second, it rained.") == []
    assert numbers("The 3rd of May.") == [(3.0, 3.0, "", False)]
    assert _number((3.0, 3.0, quantities.RANK, False)) == "rank 3"


def test_iso_dates_and_glued_clock_times():
    assert numbers("It was published on 2024-01-07.") == [(2024.0, 2024.0, "", False), (1.0, 1.0, "month", False),
                                                          (7.0, 7.0, "", False)]
    assert numbers("The flight is at 10:45am.") == [(645.0, 645.0, quantities.CLOCK, False)]
    assert numbers("The flight is at 10:45pm.") == [(1365.0, 1365.0, quantities.CLOCK, False)]


@pytest.mark.parametrize(("text", "expected"), [
    ("He played in the 1946-47 season.", [(1946.0, 1947.0, "season", False)]),
    ("He played in the 1946\u201347 season.", [(1946.0, 1947.0, "season", False)]),  # one token with an en dash
    ("The 1999-00 season ended early.", [(1999.0, 2000.0, "season", False)]),
    ("Prices rose 1990-2000.", [(1990.0, 2000.0, "", False)]),
    ("It cost 20-45 dollars.", [(20.0, 45.0, "$", False)]),
    ("It was between 1946 and 47 metres.", [(47.0, 1946.0, "[length]", False)]),  # no dash: not a season
])
def test_seasons_end_in_the_next_year(text, expected):
    assert numbers(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("It rose 2.50 metres.", [(2.5, 2.5, "[length]", False)]),
    ("The rate is 1.25 percent.", [(1.25, 1.25, "%", False)]),
    ("It weighs 12.30 kg.", [(12.3, 12.3, "[mass]", False)]),
    ("The train left at 9.15.", [(555.0, 555.0, quantities.CLOCK12, False)]),
    ("The train left at 9.15 p.m.", [(1275.0, 1275.0, quantities.CLOCK, False)]),
    ("The train left at 9.15pm.", [(1275.0, 1275.0, quantities.CLOCK, False)]),
])
def test_a_dotted_decimal_is_a_clock_time_only_with_am_pm_or_after_at(text, expected):
    assert numbers(text) == expected
    raw = quantities.clock_times_in(text)  # the raw-text reading (the context's numbers) agrees with the tokens'
    assert raw == [(low, unit) for low, _, unit, _ in expected if unit in (quantities.CLOCK, quantities.CLOCK12)]
    assert all(value != 9.15 for value, _ in quantities.numbers_in(text))


def test_one_letter_units_after_a_spaced_number():
    assert numbers("The rope is 330 m long.") == [(330.0, 330.0, "[length]", False)]
    assert numbers("The bag weighs 500 g.") == [(0.5, 0.5, "[mass]", False)]
    assert numbers("It has 5m people.") == [(5.0, 5.0, "", False)]  # glued: five million or five metres, unread
    assert Faithfulness().measure("The rope is 3 km long.", ["The rope is 3000 m long."]).level == 5
    assert Faithfulness().measure("The bag weighs 0.5 kg.", ["The bag weighs 500 g."]).level == 5
    assert Faithfulness().measure("The rope is 3 km long.", ["The rope is 330 m long."]).level == 1


def test_non_breaking_and_zero_width_spaces_change_nothing():
    plain = numbers("The tower is 300 metres tall.")
    assert plain == [(300.0, 300.0, "[length]", False)]
    assert numbers("The tower is 300\u00a0metres tall.") == numbers("The tower is 300\u202fmetres tall.") == plain
    assert numbers("The tower was completed in 18\u200b99.") == [(1899.0, 1899.0, "", False)]


@pytest.mark.parametrize(("answer", "passage", "level"), [
    ("The repo has 2.5k stars.", "The repo has 1,500 stars.", 1),
    ("Revenue was $2.1bn in 2023.", "Revenue was $1.2 billion in 2023.", 1),
    ("The model has 13B parameters.", "The model has 13 billion parameters.", 5),
    ("The report was published on 2024-01-07.", "The report was published on 2024-01-05.", 1),
    ("The report was published on 2024-01-05.", "The report was published on January 5, 2024.", 5),
    ("The tower is 300\u00a0metres tall.", "The tower is 330 metres tall.", 1),
    ("The sensor samples 10^6 points.", "The sensor samples 1,000,000 points.", 5),
    ("The rate is 2,5 percent.", "The rate is 25 percent.", 1),
    ("The city has 1 200 000 residents.", "The city has 1,200,000 residents.", 5),
    ("He won the title in the 1946-47 season.", "He won the title in the 1946\u201347 season.", 5),
    ("He won the title in the 1946-47 season.", "He won the title in the 1948-49 season.", 1),
    # two measured values as written must be equal; one converted from another unit agrees within 2 %
    ("The tower is 324 metres tall.", "The tower is 330 metres tall.", 1),
    ("The tower weighs 7,200 tonnes.", "The tower weighs 7,300 tonnes.", 1),
    ("The tower is 0.33 km tall.", "The tower is 330 metres tall.", 5),
    ("The tower is 1,083 feet tall.", "The tower is 330 metres tall.", 5),
    ("The tower weighs 16 million pounds.", "The tower weighs 7,300 tonnes.", 5),
])
def test_faithfulness_reads_the_spellings(answer, passage, level):
    assert Faithfulness().measure(answer, [passage]).level == level


def test_number_words_keep_their_unit():
    assert numbers("The hall seats four hundred and forty people.") == [(440.0, 440.0, "people", False)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Adult tickets cost 25 dollars.", [(25.0, 25.0, "$", False)]),
    ("Tickets cost €25 for adults.", [(25.0, 25.0, "€", False)]),
    ("The car costs ¥25,000.", [(25000.0, 25000.0, "¥", False)]),
    ("It costs EUR 25.", [(25.0, 25.0, "€", False)]),
    ("It costs 25 euros.", [(25.0, 25.0, "€", False)]),
    ("It costs $25 tickets.", [(25.0, 25.0, "$", False)]),  # the sign before it, not the noun after it
    ("It weighs 20 pounds.", [(quantities.measure(20, "pound")[0],) * 2 + ("[mass]", False)]),
])
def test_currencies_are_told_by_their_sign(text, expected):
    assert same(numbers(text), expected), numbers(text)


@pytest.mark.parametrize(("answer", "passage", "level"), [
    ("Adult tickets cost 25 dollars.", "Tickets cost €25 for adults.", 1),
    ("Building the bridge cost $40 million.", "The bridge cost £40 million to build.", 1),
    ("The car costs ¥25,000.", "The car costs $25,000.", 1),
    ("Adult tickets cost $25.", "Tickets cost 25 dollars for adults.", 5),
    ("Adult tickets cost 25.", "Tickets cost $25 for adults.", 5),  # no currency named: it may be either
])
def test_amounts_in_other_currencies_disagree(answer, passage, level):
    assert Faithfulness().measure(answer, [passage]).level == level


def test_a_day_is_read_in_every_date_format():
    day_first = [(3.0, 3.0, "", False), (5.0, 5.0, "month", False), (2024.0, 2024.0, "", False)]
    assert numbers("It takes place on 3 May 2024.") == day_first
    assert numbers("It is on May 13th, 2024.") == [(5.0, 5.0, "month", False), (13.0, 13.0, "", False),
                                                   (2024.0, 2024.0, "", False)]
    passage = ["The conference takes place on 3 May 2024."]
    for answer in ("The conference takes place on 2024-05-13.", "The conference is on May 13th, 2024."):
        result = Faithfulness().measure(answer, passage)
        assert result.level == 1 and result.breakdown[0]["verdict"] == "contradicted"
    assert Faithfulness().measure("The conference takes place on 2024-05-03.", passage).level == 5


def test_temperatures_after_to_are_readings_and_minus_is_a_sign():
    assert same(numbers("At night the temperature drops to 50 °F."), [(10.0, 10.0, "[temperature]", False)])
    assert numbers("It warmed by 1 to 2 °C.") == [(1.0, 2.0, quantities.TEMPERATURE_CHANGE, False)]
    assert numbers("It was minus 5 degrees Celsius.") == [(-5.0, -5.0, "[temperature]", False)]
    assert numbers("It is 10 minus 3.") == [(10.0, 10.0, "", False), (3.0, 3.0, "", False)]  # arithmetic
    assert Faithfulness().measure("At night the temperature drops to 50 °F.",
                                  ["At night the temperature drops to 10 °C."]).level == 5
    oslo = ["In January the average temperature in Oslo is -5 °C."]
    assert Faithfulness().measure("In January the average temperature in Oslo is minus 5 degrees Celsius.",
                                  oslo).level == 5
    assert Faithfulness().measure("In January the average temperature in Oslo is 5 °C.", oslo).level == 1


def test_square_units_are_areas():
    km2 = (3.444e11, 3.444e11, "[length] ** 2", True)
    assert same(numbers("It covers about 344,400 square kilometres."), [km2])
    assert same(numbers("It covers about 344,400 km²."), [km2])
    assert same(numbers("It covers about 344,400 sq km."), [km2])
    assert quantities.unit("km2") == "kilometer ** 2" and quantities.unit("m³") == "meter ** 3"
    assert quantities.unit("mp3") is None
    passage = ["The park covers about 344,400 square kilometres."]
    assert Faithfulness().measure("The park covers about 344,400 hectares.", passage).level == 1
    assert Faithfulness().measure("The park covers about 344,000 square miles.", passage).level == 1
    assert Faithfulness().measure("The park covers about 133,000 square miles.", passage).level == 5
    reef = ["The Great Barrier Reef covers about 344,400 square kilometres and has more than 2,900 reefs."]
    assert Faithfulness().measure("The reef covers around 344,400 km².", reef).level == 5  # km² is no name


@pytest.mark.parametrize(("text", "expected"), [
    ("It helped about two thirds of patients.", [(200 / 3, 200 / 3, "%", True)]),
    ("Revenue fell by one-third.", [(100 / 3, 100 / 3, "%", False)]),
    ("Three quarters of voters agreed.", [(75.0, 75.0, "%", False)]),
    ("It lasted three quarters of an hour.", [(2700.0, 2700.0, "[time]", False)]),
    ("Sales grew for three quarters.", [(3.0, 3.0, "quarter", False)]),  # a year's quarters: counted, no mass
    ("She won a third of the votes.", []),
])
def test_fraction_words_are_shares(text, expected):
    assert same(numbers(text), expected), numbers(text)


def test_a_share_is_compared_with_percentages():
    assert Faithfulness().measure("The treatment reduced symptoms in about two thirds of patients.",
                                  ["The treatment reduced symptoms in 33% of patients."]).level == 1
    assert Faithfulness().measure("The drug works in roughly two thirds of cases.",
                                  ["The drug is effective in 60-70% of cases."]).level == 5


def test_a_power_word_belongs_to_its_unit():
    """"square" of "square miles" is part of the unit, not a content word the context must have."""
    context = ["The reef covers an area of 344,400 square kilometres."]
    result = Faithfulness().measure("The reef covers about 133,000 square miles.", context)
    assert result.level == 5 and not result.breakdown[0]["signals"]["reasons"], result.explanation


def test_minus_is_read_on_both_ends_of_a_range():
    assert numbers("Nights range from minus 10 to minus 5 degrees Celsius.") == [(-10.0, -5.0, "[temperature]", False)]
    assert numbers("It ranges between minus 10 and minus 5 degrees Celsius.") == [
        (-10.0, -5.0, "[temperature]", False)]
    context = ["In winter, night temperatures are between -10 °C and -5 °C."]
    faithful = Faithfulness().measure("In winter, nights range from minus 10 to minus 5 degrees Celsius.", context)
    assert faithful.level == 5, faithful.explanation  # "degrees Celsius" is the unit, no noun the context lacks
    assert Faithfulness().measure("In winter, nights range from minus 10 to 5 degrees Celsius.", context).level == 1


@pytest.mark.parametrize(("answer", "level"), [
    ("The ticket costs 25,000 yen.", 5), ("The ticket costs 25,000 yuan.", 5), ("The ticket costs ¥25,000.", 5),
    ("The ticket costs €25,000.", 1), ("The ticket costs $25,000.", 1),
])
def test_a_bare_yen_sign_is_yen_or_yuan(answer, level):
    assert Faithfulness().measure(answer, ["The ticket price is ¥25,000 (about $170)."]).level == level
    assert Faithfulness().measure("The ticket costs 25,000 yen.", ["The ticket costs 25,000 yuan."]).level == 1


def test_a_plain_reading_of_a_told_amount_does_not_match_another_currency():
    """The context's raw text read as plain numbers adds only what its statements lack: "25,000" of "¥25,000" is not
    a plain 25,000 that "€25,000" may agree with."""
    result = Faithfulness().measure("The ticket costs €25,000.", ["The price is ¥25,000 (about $170)."])
    assert result.level == 1 and "€25000 vs ¥25000" in result.explanation, result.explanation


@pytest.mark.parametrize(("number", "told"), [
    ((4e7, 4e7, "$", False), "$40 million"), ((2.5e9, 2.5e9, "", False), "2.5 billion"),
    ((1.444e11, 1.444e11, "[length] ** 2", False), "144400 km²"), ((900.0, 900.0, "[length] ** 2", False), "900 m²"),
    ((1e12, 1e12, "people", False), "1 trillion people"), ((123456.0, 123456.0, "", False), "123456"),
    ((4.734e9, 4.734e9, "[time]", False), "150 years"), ((7200.0, 7200.0, "[time]", False), "2 h"),
])
def test_reasons_tell_large_numbers_without_exponents(number, told):
    assert _number(number) == told

