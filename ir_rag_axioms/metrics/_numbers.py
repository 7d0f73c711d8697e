"""Numbers in a statement: values, ranges, years, months, clock times, measured amounts, numbers of nouns."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ir_rag_axioms.metrics import quantities

_WORD_NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
                                                      "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12}
_HEDGES = frozenset({"about", "around", "approximately", "roughly", "nearly", "almost", "some", "over", "under",
                     "than", "circa", "~", "up", "estimated", "an", "approx", "upwards", "least", "most"})

_LEMMA_FIXES = {"farth": "far", "farther": "far", "farthest": "far", "further": "far", "furthest": "far",
                "better": "good", "best": "good", "worse": "bad", "worst": "bad", "later": "late", "latest": "late"}


def _in_citation(token: Any) -> bool:
    """Whether a token is inside a citation marker such as ``[1, 2]``."""
    doc, i = token.doc, token.i
    while i > 0 and re.fullmatch(r"[\d,;\- ]+", doc[i].text):
        i -= 1
    return doc[i].text == "[" and i != token.i


def _value(token: Any) -> float | None:
    """The number a token spells ("1,889", "1.5", "twenty", "3rd"), None if it is none."""
    text = token.lower_.replace(",", "")
    text = re.sub(r"(?<=\d)(?:st|nd|rd|th|s)$", "", text)
    if text in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[text])
    try:
        return float(text)
    except ValueError:
        return None


def _unit(tokens: list[Any]) -> str:
    """The unit of a number: the next noun or symbol ("mg", "%", "metres"), else its head noun; "" if none."""
    last = tokens[-1]
    doc = last.doc
    after = doc[last.i + 1] if last.i + 1 < len(doc) else None
    if after is not None and (after.pos_ in ("NOUN", "PROPN", "SYM") or after.text == "%"):
        noun = after.head
        if after.dep_ in ("amod", "compound") and noun.i > after.i and noun.pos_ == "NOUN" and last.head.i == noun.i \
                and quantities.unit(after.lower_) is None:
            return noun.lemma_.lower()  # "3 relational units": the unit is the noun, not its modifier
        return "%" if after.lower_ in ("%", "percent", "per") else after.lemma_.lower()
    if tokens[0].i > 0 and doc[tokens[0].i - 1].text in ("$", "€", "£"):
        return doc[tokens[0].i - 1].text
    head = last.head
    return head.lemma_.lower() if head.pos_ == "NOUN" and head.i != last.i else ""


def _measured(tokens: list[Any], i: int, low: float, high: float, hedged: bool,
              ) -> tuple[tuple[float, float, str, bool], int] | None:
    """The number low-high ending at tokens[i] as a measured quantity when a unit follows ("3 km", "53-day")."""
    j = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].text in ("-", "–"))
    found = quantities.unit_after(tokens, j)
    if found is None:
        return None
    of = j + found[1] < len(tokens) and tokens[j + found[1]].lower_ == "of"
    if tokens[i].ent_type_ == "MONEY" and not (found[0] == "pound" and of):  # "2,204 pounds of gold" is a mass
        return None
    name, used = found
    before = {t.lower_ for t in tokens[max(i - 4, 0): i]} | {t.lemma_.lower() for t in tokens[max(i - 4, 0): i]}
    change = bool(before & _CHANGE_WORDS)  # "warmed by 0.8 °C", "a rise of 2 degrees": a difference
    (a, dimension), (b, _) = quantities.measure(low, name, change), quantities.measure(high, name, change)
    k = j + used
    k += k < len(tokens) and tokens[k].text in ("-", "–")
    if dimension == "[time]" and k < len(tokens) and tokens[k].lower_ == "old":  # "three years old": an age
        around = {t.lower_ for t in tokens[max(i - 3, 0): i]} | {t.lower_ for t in tokens[k + 1: k + 3]}
        dimension = quantities.AGE_BOUND if around & _BOUND_WORDS else quantities.AGE
    return (min(a, b), max(a, b), dimension, hedged), j + used - 1


_CHANGE_WORDS = frozenset({"by", "rise", "increase", "drop", "fall", "change", "warming", "cooling", "warm", "cool",
                           "up", "down"})
"""Words before a temperature that make it a difference, not a reading ("warmed by 0.8 °C")."""
_BOUND_WORDS = frozenset({"than", "under", "over", "least", "most", "younger", "older", "below", "above", "up"})
"""Words around an age that make it a bound ("younger than one year old", "three years old or younger")."""


Number = tuple[float, float, str, bool]
"""(low, high, unit or dimension, hedged) of one number or range."""
Found = tuple[list[Number], int]
"""The numbers a rule read at tokens[i] and the position after them."""


def _numbers(span: Any) -> list[tuple[float, float, str, bool]]:
    """Numbers, ranges ("20-45", "between 20 and 45", "20 to 45"), years, months, clock times and measured amounts.

    Number words are read by text2num ("forty-four million"), units by pint (the SI magnitude and the dimension as
    the unit: "3 km" and "3,000 m" are one number), clock times as minutes after midnight (``quantities.CLOCK``).
    Each position is read by the first rule of ``_NUMBER_RULES`` that applies.
    """
    out: list[Number] = []
    tokens = [t for t in span if not _in_citation(t)]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        hedged = any(t.lower_ in _HEDGES for t in span.doc[max(token.i - 2, 0): token.i])
        found, i = next(f for rule in _NUMBER_RULES if (f := rule(tokens, i, hedged, span)) is not None)
        out += found
    return out


def _clock(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """A clock time ("7:30 pm") as minutes after midnight."""
    clock = quantities.clock_time(tokens, i)
    return ([(clock[0], clock[0], clock[1], hedged)], i + clock[2]) if clock is not None else None


def _period(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """A span of years ("1946-47", "from 1939 to 1945")."""
    years = quantities.period(tokens, i)
    return ([(years[0], years[1], "", False)], i + years[2]) if years is not None else None


def _month(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """A month name in a date ("in March"): its number."""
    token = tokens[i]
    if token.lower_ in quantities.MONTHS and token.ent_type_ == "DATE":
        return [(float(quantities.MONTHS[token.lower_]),) * 2 + ("month", False)], i + 1
    return None


def _fraction_measured(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """A measured fraction of a unit: "half an hour", "an hour and a half": a measured fraction of a unit."""
    fraction = _fraction_of_unit(tokens, i)
    if fraction is None:
        return None
    share, used = fraction
    measured = _measured(tokens, i + used - 1, share, share, hedged)
    return ([measured[0]], measured[1] + 1) if measured is not None else None


def _amount(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found:
    """Any other token: a number (digits or words, scaled, a range, measured), a named number, or nothing."""
    token = tokens[i]
    words = quantities.number_words(tokens, i) if token.lower_ in quantities.NUMBER_WORDS else None
    value = _value(token) if words is None and (token.like_num or token.pos_ == "NUM") else None
    if words is not None:
        value = words[0]
        i += words[1] - 1
    if value is None:
        return _not_a_value(tokens, i)
    group = [tokens[i]]
    value, i = _grown(tokens, i, value, words is not None, group)
    low, high, i = _range_to(tokens, i, value, group, span)
    measured = _measured(tokens, i, low, high, hedged)
    if measured is not None:
        return [measured[0]], measured[1] + 1
    return [(low, high, _unit(group), hedged)], i + 1


def _not_a_value(tokens: list[Any], i: int) -> Found:
    """A token without a value: "plutonium-239" (a named number), "20-45" (a range in one token), else nothing."""
    token = tokens[i]
    named = re.fullmatch(r"([A-Za-z]{2,})-(\d+)", token.text)  # "plutonium-239", "COVID-19"
    if named:
        return [(float(named[2]), float(named[2]), named[1].lower(), False)], i + 1
    if "-" in token.text and re.fullmatch(r"\d[\d.,]*[-–]\d[\d.,]*", token.text):
        low, high = (float(x.replace(",", "")) for x in re.split(r"[-–]", token.text))
        measured = _measured(tokens, i, low, high, False)
        return [measured[0] if measured else (low, high, _unit([token]), False)], (measured[1] if measured else i) + 1
    return [], i + 1


def _grown(tokens: list[Any], i: int, value: float, spelled: bool, group: list[Any]) -> tuple[float, int]:
    """The value with what follows it: "six point three", "million", "two and a half", "one-third"; the last token."""
    if spelled:
        digits = _decimal_words(tokens, i + 1)
        if digits is not None:  # "six point three (million)"
            value += digits[0]
            i += digits[1]
            group.append(tokens[i])
    value, i = _scaled(tokens, i, value, group)
    words_after = [t.lower_ for t in tokens[i + 1: i + 4]]
    if len(words_after) == 3 and words_after[:2] == ["and", "a"] and words_after[2] in quantities.FRACTIONS:
        value += quantities.FRACTIONS[words_after[2]]  # "two and a half days"
        i += 3
        group.append(tokens[i])
        if len(group) == 2:
            value, i = _scaled(tokens, i, value, group)  # "one and a half billion"
    if i + 2 < len(tokens) and tokens[i + 1].text in ("-", "–") and tokens[i + 2].lower_ in quantities.FRACTIONS:
        value *= quantities.FRACTIONS[tokens[i + 2].lower_]  # "one-third"
        i += 2
        group.append(tokens[i])
    return value, i


_RANGE_WORDS = frozenset({"-", "–", "to", "and", "until", "till", "through"})


def _range_to(tokens: list[Any], i: int, value: float, group: list[Any], span: Any) -> tuple[float, float, int]:
    """(low, high, last token) of "20-45", "20 to 45", "between 20 and 45", "6 million to 44 million"."""
    if not (i + 2 < len(tokens) and tokens[i + 1].lower_ in _RANGE_WORDS and tokens[i + 2].like_num):
        return value, value, i
    end = quantities.number_words(tokens, i + 2) if tokens[i + 2].lower_ in quantities.NUMBER_WORDS else None
    other, used = (end[0], end[1]) if end else (_value(tokens[i + 2]), 1)
    k = i + 2 + used
    while other is not None and k < len(tokens) and tokens[k].lower_ in quantities.MULTIPLIERS:
        other *= quantities.MULTIPLIERS[tokens[k].lower_]  # "6 million to 44 million"
        k += 1
    if other is None or (tokens[i + 1].lower_ == "and" and span.doc[max(group[0].i - 1, 0)].lower_ != "between"):
        return value, value, i
    group.append(tokens[k - 1])
    return min(value, other), max(value, other), k - 1


_NUMBER_RULES: tuple[Callable[[list[Any], int, bool, Any], Found | None], ...] = (
    _clock, _period, _month, _fraction_measured, _amount)
"""The rules of ``_numbers`` in order: the first that answers (not None) reads the numbers at a position."""


def _scaled(tokens: list[Any], i: int, value: float, group: list[Any]) -> tuple[float, int]:
    """The value times the scale words after tokens[i] ("$ 577.82, Million"), and the last token used."""
    scales = quantities.MULTIPLIERS
    while i + 1 < len(tokens) and (tokens[i + 1].lower_ in scales or tokens[i + 1].text == "," and i + 2 <
                                   len(tokens) and tokens[i + 2].lower_ in scales):
        i += 1 if tokens[i + 1].text != "," else 2
        value *= quantities.MULTIPLIERS[tokens[i].lower_]
        group.append(tokens[i])
    return value, i


def _decimal_words(tokens: list[Any], i: int) -> tuple[float, int] | None:
    """(the decimals, tokens used) of "point" and digit words from tokens[i] ("point three" = 0.3), else None."""
    if i >= len(tokens) or tokens[i].lower_ != "point":
        return None
    digits = ""
    for token in tokens[i + 1: i + 4]:
        found = quantities.number_word_value(token.lower_)
        if found is None or not 0 <= found <= 9:
            break
        digits += str(int(found))
    after = tokens[i + 1 + len(digits)] if i + 1 + len(digits) < len(tokens) else None
    if after is not None and quantities.number_word_value(after.lower_) is not None and after.lower_ not in (
            "million", "billion", "trillion"):
        return None  # "at one point one hundred thousand": "point" is a noun, "one hundred thousand" a number
    return (float("0." + digits), 1 + len(digits)) if digits else None


def _fraction_of_unit(tokens: list[Any], i: int) -> tuple[float, int] | None:
    """(value, tokens up to the unit's article) of "half an hour" (0.5) and "an hour and a half" (1.5)."""
    words = [t.lower_ for t in tokens[i:i + 5]]
    if words[:2] in (["half", "an"], ["half", "a"]) and len(words) > 2 and quantities.unit(words[2]):
        return 0.5, 2
    if len(words) == 5 and words[0] in ("a", "an") and words[2:] == ["and", "a", "half"] \
            and quantities.unit(words[1]):
        return 1.5, 1
    return None


def _lemma(token: Any) -> str:
    """A token's lowercased lemma, with the irregular comparatives spaCy misses ("farthest" -> "far")."""
    lemma = token.lemma_.lower()
    return _LEMMA_FIXES.get(lemma, _LEMMA_FIXES.get(token.lower_, lemma))
