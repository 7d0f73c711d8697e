"""Quantities, clock times, number words and aliases of the heuristic judge (pint, text2num, pycountry)."""

from __future__ import annotations

import pytest

from ir_rag_axioms.metrics import quantities


@pytest.mark.parametrize(("a", "b"), [((3, "kilometer"), (3000, "meter")), ((90, "minute"), (1.5, "hour")),
                                      ((2, "week"), (14, "day")), ((20, "degC"), (68, "degF"))])
def test_conversions_agree(a, b):
    (x, dimension), (y, other) = quantities.measure(*a), quantities.measure(*b)
    assert dimension == other and x == pytest.approx(y)


def test_unit_words_and_what_is_no_unit():
    assert quantities.unit("kilometres") == "kilometer" and quantities.unit("lbs") == "pound"
    assert quantities.unit("in") is None and quantities.unit("people") is None and quantities.unit("a") is None


def test_clock_times():
    assert quantities.same_clock((21 * 60 + 57, quantities.CLOCK), (9 * 60 + 57, quantities.CLOCK12))
    assert not quantities.same_clock((23 * 60 + 40, quantities.CLOCK), (21 * 60 + 40, quantities.CLOCK))
    assert quantities.spell_clock(1420) == "23:40"


def test_aliases():
    assert quantities.alias_in("USA", ["the united states"]) == "the united states"
    assert quantities.alias_in("u.s.", ["united states"]) == "united states"
    assert quantities.alias_in("IOC", ["international olympic committee"]) == "international olympic committee"
    assert quantities.alias_in("WWII", ["world war two"]) == "world war two"
    assert quantities.alias_in("IOC", ["international red cross"]) is None
    assert quantities.alias_in("Canada", ["united states"]) is None


def test_acronyms_with_of_and_possessives_and_demonyms():
    assert quantities.acronym_of("BoE", "bank of england") and quantities.acronym_of("NASA's", "national aeronautics "
                                                                                      "and space administration")
    assert not quantities.acronym_of("BoE", "bank of france")
    assert "france" in quantities.demonym_places("french") and not quantities.demonym_places("bread")
    assert quantities.alias_in("German", ["germany"]) == "germany"


def test_powered_units_and_currencies():
    assert quantities.unit("km²") == "kilometer ** 2" and quantities.unit("m2") == "meter ** 2"
    assert quantities.unit("cm3") == "centimeter ** 3" and quantities.unit("min2") is None
    assert quantities.unit("quarters") is None  # a year's quarters are counted, not pint's mass unit
    assert quantities.measure(1, "kilometer ** 2") == (1e6, "[length] ** 2")
    assert quantities.CURRENCIES["dollar"] == quantities.CURRENCIES["usd"] == "$"
    assert quantities.CURRENCIES["euro"] == "€" and quantities.SHARES["thirds"] == 1 / 3
