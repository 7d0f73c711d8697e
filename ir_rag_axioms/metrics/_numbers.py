"""Numbers in a statement: values, ranges, years, months, clock times, measured amounts, numbers of nouns."""

from __future__ import annotations

import datetime
import re
import unicodedata
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


CITATION_WORDS = ("source", "sources", "doc", "document", "passage", "ref", "reference", "context")
"""Words a citation marker may hold before its number ("[Source 1]", "[Doc 2]")."""
_CITED_WORDS = r"[\d,;\- ]+|" + "|".join(CITATION_WORDS)
"""The tokens of a citation marker's inside: numbers, and the word before one ("Source 1")."""


def _in_citation(token: Any) -> bool:
    """Whether a token is inside a citation marker such as ``[1, 2]`` or ``[Source 1]``."""
    doc, i = token.doc, token.i
    while i > 0 and re.fullmatch(_CITED_WORDS, doc[i].lower_):
        i -= 1
    return doc[i].text == "[" and i != token.i


_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
"""Zero-width characters, dropped inside a number ("18\u200b99" is 1899)."""
_GLUE = frozenset("\u00a0\u202f\u2007\u2009\u200a\u200b\u200c\u200d\u2060\ufeff")
"""Characters of a token that is only glue between a number and its unit ("300\u00a0metres"): skipped."""
_GROUP_SPACES = frozenset(" \u00a0\u202f\u2007\u2009")
"""What may part groups of three digits ("1 200 000", "1\u202f200\u202f000")."""
_GROUPED = re.compile(r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3})(?:\.\d+)?")
"""A number with valid thousands commas ("1,889", Indian "1,00,000"); "2,5" is none (a decimal comma: unread)."""
_VULGAR = {c: unicodedata.numeric(c) for c in "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"}
"""Vulgar fraction characters and their values ("¾" = 0.75)."""
_VULGAR_NUMBER = re.compile(f"(\\d*)([{''.join(_VULGAR)}])")
_FRACTION = re.compile(r"(\d{1,2})/(\d{1,3})")
_FRACTION_DENOMINATORS = frozenset({2, 3, 4, 5, 6, 8, 10, 12, 16, 100})
"""Denominators of a fraction "1/3" read as a value; "9/11", "24/7" and dates ("3/4" as a DATE entity) stay unread."""
_SCIENTIFIC = re.compile(r"\d+(?:\.\d+)?e[-+]?\d{1,3}")


def _value(token: Any) -> float | None:
    """The number a token spells ("1,889", "1.5", "twenty", "3rd", "3e12", "1/3", "¾", "1½"), None if it is none."""
    text = re.sub(r"(?<=\d)(?:st|nd|rd|th|s)$", "", _INVISIBLE.sub("", token.lower_))
    if text in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[text])
    vulgar = _VULGAR_NUMBER.fullmatch(text)
    if vulgar:
        return float(vulgar[1] or 0) + _VULGAR[vulgar[2]]
    fraction = _FRACTION.fullmatch(text)
    if fraction:
        top, bottom = int(fraction[1]), int(fraction[2])
        plain = bottom in _FRACTION_DENOMINATORS and 0 < top < bottom and token.ent_type_ not in ("DATE", "TIME")
        return top / bottom if plain else None
    if "," in text and not _GROUPED.fullmatch(text):
        return None
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def _glue(token: Any) -> bool:
    """Whether a token is only a non-breaking or zero-width space (``_GLUE``), skipped when numbers are read."""
    return bool(token.text) and set(token.text) <= _GLUE


def _gap(a: Any, b: Any) -> str:
    """The text between two tokens of one doc."""
    return str(a.doc.text[a.idx + len(a.text): b.idx])


def _unit(tokens: list[Any]) -> str:
    """The unit of a number: its currency ("$", "€"), the next noun or symbol ("mg", "%", "metres"), else its head noun.

    A currency is told by its sign (``quantities.CURRENCIES``: "25 dollars" and "USD 25" are "$25"); a day before a
    month name has none ("3 May"), nor has a number whose head is another number ("May 13th, 2024"); "" if none.
    """
    last = tokens[-1]
    doc = last.doc
    before = doc[tokens[0].i - 1] if tokens[0].i > 0 else None
    if before is not None and (before.text[-1:] in quantities.CURRENCY_SIGNS or before.lower_ in _CURRENCY_CODES):
        return quantities.CURRENCIES.get(before.text[-1:], quantities.CURRENCIES.get(before.lower_, ""))
    k = last.i + 1
    while k < len(doc) and _glue(doc[k]):  # "300\u00a0metres"
        k += 1
    after = doc[k] if k < len(doc) else None
    if after is not None and after.lower_ in quantities.MONTHS:
        return ""  # "3 May 2024": a day, as in "May 3" and "2024-05-03"
    if after is not None and (after.pos_ in ("NOUN", "PROPN", "SYM") or after.text == "%") and after.text != "|":
        noun = after.head
        if after.dep_ in ("amod", "compound") and noun.i > after.i and noun.pos_ == "NOUN" and last.head.i == noun.i \
                and quantities.unit(after.lower_) is None:
            return noun.lemma_.lower()  # "3 relational units": the unit is the noun, not its modifier
        return "%" if after.lower_ in ("%", "percent", "per") else _currency(after) or after.lemma_.lower()
    head = last.head  # a table's cell border is no unit ("| 532 | 2015 |")
    return head.lemma_.lower() if head.pos_ == "NOUN" and head.i != last.i and _value(head) is None \
        and head.text != "|" else ""


_CURRENCY_CODES = frozenset(w for w in quantities.CURRENCIES if w.isalpha() and len(w) == 3 and w != "yen")
"""Currency codes read before a number ("USD 25", "EUR 2.4 billion")."""


def _currency(token: Any) -> str:
    """The sign of the currency a word after a number names ("dollars", "euros", "pounds" of money), else ""."""
    lemma = token.lemma_.lower()
    if lemma == "pound" and token.ent_type_ == "MONEY":
        return "£"
    return quantities.CURRENCIES.get(lemma, quantities.CURRENCIES.get(token.lower_, ""))


def _measured(tokens: list[Any], i: int, low: float, high: float, hedged: bool, start: int | None = None,
              ) -> tuple[tuple[float, float, str, bool], int] | None:
    """The number low-high at tokens[start] to tokens[i] as a measured quantity when a unit follows ("3 km")."""
    j = i + 1 + (i + 1 < len(tokens) and tokens[i + 1].text in ("-", "–"))
    found = quantities.unit_after(tokens, j)
    if found is None:
        return None
    of = j + found[1] < len(tokens) and tokens[j + found[1]].lower_ == "of"
    if tokens[i].ent_type_ == "MONEY" and not (found[0] == "pound" and of):  # "2,204 pounds of gold" is a mass
        return None
    name, used = found
    change = _change(tokens, i if start is None else start)
    (a, dimension), (b, _) = quantities.measure(low, name, change), quantities.measure(high, name, change)
    k = j + used
    k += k < len(tokens) and tokens[k].text in ("-", "–")
    if dimension == "[time]" and k < len(tokens) and tokens[k].lower_ == "old":  # "three years old": an age
        around = {t.lower_ for t in tokens[max(i - 3, 0): i]} | {t.lower_ for t in tokens[k + 1: k + 3]}
        dimension = quantities.AGE_BOUND if around & _BOUND_WORDS else quantities.AGE
    return (min(a, b), max(a, b), dimension, hedged), j + used - 1


def _change(tokens: list[Any], start: int) -> bool:
    """Whether a temperature starting at tokens[start] is a difference: "warmed by 0.8 °C", "a rise of 2 degrees".

    A change word (``_CHANGE_WORDS``) among the 4 words before it, with no "to", "from" or "at" after that word:
    "drops to 10 °C", "rose from 5 °C" are readings.
    """
    for token in reversed(tokens[max(start - 4, 0): start]):
        if token.lower_ in ("to", "from", "at"):
            return False
        if token.lower_ in _CHANGE_WORDS or token.lemma_.lower() in _CHANGE_WORDS:
            return True
    return False


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
    tokens = [t for t in span if not _in_citation(t) and not _glue(t)]
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


_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _iso_date(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """A date written "2024-01-07": its year, month and day, as "January 7, 2024" is read."""
    for used in (1, 5):  # one token, or spaCy's five: "2024" "-" "01" "-" "07"
        parts = tokens[i: i + used]
        match = _ISO_DATE.fullmatch("".join(t.text for t in parts))
        if len(parts) == used and match and not any(t.whitespace_ for t in parts[:-1]):
            try:
                year, month, day = datetime.date(int(match[1]), int(match[2]), int(match[3])).timetuple()[:3]
            except ValueError:
                return None
            return [(float(year), float(year), "", False), (float(month), float(month), "month", False),
                    (float(day), float(day), "", False)], i + used
    return None


_ORDINAL_DIGITS = re.compile(r"(\d{1,3})(?:st|nd|rd|th)")
_NOT_RANKS = frozenset({"a", "an", "-", "–"}) | quantities.NUMBER_WORDS
"""Words before an ordinal word that make it a fraction ("a third of", "two-thirds")."""


def _rank(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """An ordinal spaCy tags ORDINAL ("finished third", "3rd place") as a rank (``quantities.RANK``).

    Not "first", an adverb as often as a rank ("first visited"), an enumeration ("Second, ..."), a fraction ("a third
    of") or a day ("May 3rd", "the 3rd of May": a number, as "May 3").
    """
    token = tokens[i]
    digits = _ORDINAL_DIGITS.fullmatch(token.lower_)
    rank = int(digits[1]) if digits else quantities.ORDINALS.get(token.lower_) if token.lower_ != "first" else None
    before = tokens[i - 1].lower_ if i > 0 else ""
    after = [t.lower_ for t in tokens[i + 1: i + 3]]
    if rank is None or token.ent_type_ != "ORDINAL" or before in _NOT_RANKS and not digits or after[:1] in (
            [","], [":"]) or any(word in quantities.MONTHS for word in [before, *after]):
        return None
    return [(float(rank), float(rank), quantities.RANK, hedged)], i + 1


def _fraction_measured(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found | None:
    """A measured fraction of a unit: "half an hour", "an hour and a half": a measured fraction of a unit."""
    fraction = _fraction_of_unit(tokens, i)
    if fraction is None:
        return None
    share, used = fraction
    measured = _measured(tokens, i + used - 1, share, share, hedged)
    return ([measured[0]], measured[1] + 1) if measured is not None else None


def _amount(tokens: list[Any], i: int, hedged: bool, span: Any) -> Found:
    """Any other token: a number (digits or words, scaled, a range, measured), a named number, or nothing.

    "minus 5" is -5; a share ("two thirds", "one-fifth of", "1/3", "¾" without a unit) is a percentage (66.67 %).
    """
    start, sign = i, _minus(tokens, i)
    i += sign < 0
    token = tokens[i]
    words = quantities.number_words(tokens, i) if token.lower_ in quantities.NUMBER_WORDS else None
    read = (words[0], i + words[1] - 1) if words is not None else _digits(tokens, i)
    if read is None:
        return _not_a_value(tokens, i)
    value, last = read
    if value is None:
        return [], last + 1  # "12 500", "2^10": left unread
    group = [tokens[last]] if words is not None or last == i else [tokens[i], tokens[last]]
    share = last == i and words is None and _is_fraction(token)
    value, i = _grown(tokens, last, value * sign, words is not None, group)
    if words is not None and (found := _share(tokens, i, value)) is not None:
        (value, i), share = found, True
        group.append(tokens[i])
    low, high, i = _range_to(tokens, i, value, group, span)
    of_a = share and [t.lower_ for t in tokens[i + 1: i + 3]] in (["of", "a"], ["of", "an"])
    measured = _measured(tokens, i + 2 * of_a, low, high, hedged, start)  # "three quarters of an hour": 45 min
    if measured is not None:
        return [measured[0]], measured[1] + 1
    if share:
        return [(100 * low, 100 * high, "%", hedged)], i + 1
    return [(low, high, _unit(group), hedged)], i + 1


def _minus(tokens: list[Any], i: int) -> float:
    """-1.0 where tokens[i] is "minus" or "negative" before a number and after none ("minus 5 °C"), else 1.0."""
    if tokens[i].lower_ not in ("minus", "negative") or i + 1 >= len(tokens) or i > 0 and tokens[i - 1].like_num:
        return 1.0  # "10 minus 3": arithmetic
    after = tokens[i + 1]
    return -1.0 if after.lower_ in quantities.NUMBER_WORDS or re.fullmatch(r"\d[\d,.]*", after.text) else 1.0


def _is_fraction(token: Any) -> bool:
    """Whether a token is a fraction below one: "1/3", "¾" (not "1½")."""
    vulgar = _VULGAR_NUMBER.fullmatch(token.text)
    return bool(_FRACTION.fullmatch(token.text) or vulgar and not vulgar[1])


def _share(tokens: list[Any], i: int, value: float) -> tuple[float, int] | None:
    """(value times the fraction, last token) of a number word and a fraction word after tokens[i], else None.

    "one-third", "two thirds", "three quarters of", "one fifth of": hyphened, before "of", or a plural that names
    nothing else ("thirds", not "quarters", which may be a year's); the number below the denominator.
    """
    hyphened = i + 2 < len(tokens) and tokens[i + 1].text in ("-", "–")
    k = i + 1 + hyphened
    word = tokens[k].lower_ if k < len(tokens) else ""
    if word not in quantities.SHARES or value * quantities.SHARES[word] >= 1 or value <= 0:
        return None
    of = k + 1 < len(tokens) and tokens[k + 1].lower_ == "of"
    plural = word.endswith("s") and word not in ("quarters", "halves", "halfs", "seconds")
    return (value * quantities.SHARES[word], k) if hyphened or of or plural else None


Digits = tuple[float | None, int]
"""(value, last token used) of a number in digits; value None: tokens up to the last are left unread."""


def _digits(tokens: list[Any], i: int) -> Digits | None:
    """A number in digits at tokens[i] with what is glued to it: "2.5k", "$5 M", "10^6", "1 200 000", "1 ½"."""
    token = tokens[i]
    glued = _SUFFIXED.fullmatch(token.text)
    if glued and glued[2] in _SUFFIX_SCALES:  # "2.5k", "$2.1bn", "7B"
        factor = _suffix_factor(tokens, i, glued[2], i)
        return (float(glued[1]) * factor, i) if factor else (None, i)
    if i > 0 and tokens[i - 1].text == "^" and not tokens[i - 1].whitespace_:
        return None, i  # the power of "3×10^6": the whole is not read
    shaped = _SCIENTIFIC.fullmatch(token.lower_) or _VULGAR_NUMBER.fullmatch(token.text)
    value = _value(token) if token.like_num or token.pos_ == "NUM" or shaped else None
    if value is None and re.fullmatch(r"\d+,\d{1,2}", token.text) and i + 1 < len(tokens) and (
            tokens[i + 1].lower_ in ("%", "percent") or quantities.unit_after(tokens, i + 1)):
        value = float(token.text.replace(",", "."))  # a decimal comma before a unit: "2,5 percent", "1,5 km"
    if value is None:
        return None
    for reader in (_suffix_token, _power, _thousands, _and_vulgar):
        found = reader(tokens, i, value)
        if found is not None:
            return found
    return value, i


_SUFFIX_SCALES: dict[str, tuple[float, str]] = {
    "k": (1e3, "any"), "K": (1e3, "noun"), "mn": (1e6, "any"), "Mn": (1e6, "any"), "M": (1e6, "noun"),
    "m": (1e6, "currency"), "bn": (1e9, "any"), "Bn": (1e9, "any"), "BN": (1e9, "any"), "B": (1e9, "noun"),
    "b": (1e9, "currency"), "tn": (1e12, "any"), "Tn": (1e12, "any"), "T": (1e12, "noun")}
"""Scale letters glued to a number, its factor and when it is read ("2.5k", "$2.1bn", "a 7B model", "$5m").

"any": always; "noun": after a currency sign, or before a noun and after none ("7B parameters", not "apartment 7B",
"Form 10K"); "currency": only after a currency sign ("5m" is five metres, "$5m" five million).
"""
_SUFFIXED = re.compile(r"(\d+(?:\.\d+)?)([A-Za-z]{1,2})\.?")


def _suffix_factor(tokens: list[Any], i: int, suffix: str, end: int) -> float | None:
    """The factor of a scale letter (``_SUFFIX_SCALES``) on the number at tokens[i], ending at tokens[end]."""
    factor, when = _SUFFIX_SCALES[suffix]
    if when == "any" or i > 0 and tokens[i - 1].text[-1:] in quantities.CURRENCY_SIGNS:
        return factor
    noun_after = end + 1 < len(tokens) and tokens[end + 1].pos_ in ("NOUN", "PROPN")
    noun_before = i > 0 and tokens[i - 1].pos_ in ("NOUN", "PROPN")
    return factor if when == "noun" and noun_after and not noun_before else None


def _suffix_token(tokens: list[Any], i: int, value: float) -> Digits | None:
    """A scale letter spaCy split from its number ("2.5" "K", "$5" "m.", "$5 m"); None where not read ("5m": metres)."""
    priced = i > 0 and tokens[i - 1].text[-1:] in quantities.CURRENCY_SIGNS
    suffix = tokens[i + 1].text.rstrip(".") if i + 1 < len(tokens) and (priced or not tokens[i].whitespace_) else ""
    if suffix not in _SUFFIX_SCALES or suffix in quantities.MULTIPLIERS:
        return None  # "bn", "mn", "tn": scale words (``_scaled``)
    factor = _suffix_factor(tokens, i, suffix, i + 1)
    return (value * factor, i + 1) if factor else None


def _power(tokens: list[Any], i: int, value: float) -> Digits | None:
    """A power of ten "10^6" (1e6, also "10^-6"); another base ("2^10") or a product ("3 x 10^6") is left unread."""
    if not (i + 2 < len(tokens) and tokens[i + 1].text == "^" and not tokens[i].whitespace_
            and not tokens[i + 1].whitespace_ and re.fullmatch(r"[-−]?\d{1,3}", tokens[i + 2].text)):
        return None
    product = i > 0 and tokens[i - 1].lower_ in ("x", "×", "*")
    exponent = int(tokens[i + 2].text.replace("−", "-"))
    return (10.0 ** exponent if value == 10 and not product else None), i + 2


def _thousands(tokens: list[Any], i: int, value: float) -> Digits | None:
    """A number in groups of three digits parted by spaces ("1 200 000"); one after a plain space ("12 500") unread."""
    if not re.fullmatch(r"\d{1,3}", tokens[i].text):
        return None
    last, typographic = i, False
    while last + 1 < len(tokens) and re.fullmatch(r"\d{3}", tokens[last + 1].text) \
            and _gap(tokens[last], tokens[last + 1]) in _GROUP_SPACES:
        typographic |= _gap(tokens[last], tokens[last + 1]) != " "
        last += 1
    if last == i:
        return None
    whole = float("".join(t.text for t in tokens[i: last + 1]))
    return (whole if last - i > 1 or typographic else None), last


def _and_vulgar(tokens: list[Any], i: int, value: float) -> Digits | None:
    """A whole number and a vulgar fraction after it ("1 ½" = 1.5)."""
    after = tokens[i + 1].text if i + 1 < len(tokens) else ""
    if after in _VULGAR and value == int(value) and not _VULGAR_NUMBER.fullmatch(tokens[i].text):
        return value + _VULGAR[after], i + 1
    return None


def _not_a_value(tokens: list[Any], i: int) -> Found:
    """A token without a value: "plutonium-239" (a named number), "20-45" (a range in one token), else nothing."""
    token = tokens[i]
    named = re.fullmatch(r"([A-Za-z]{2,})-(\d+)", token.text)  # "plutonium-239", "COVID-19"
    if named:
        return [(float(named[2]), float(named[2]), named[1].lower(), False)], i + 1
    if re.fullmatch(r"\d[\d.,]*[-–]\d[\d.,]*", token.text):
        first, second = re.split(r"[-–]", token.text)
        low = float(first.replace(",", ""))
        high = _season_end(low, second) or float(second.replace(",", ""))
        scale, last = _scaled(tokens, i, 1.0, [])  # "$6–8 billion": both ends
        low, high, i = low * scale, high * scale, last
        measured = _measured(tokens, i, low, high, False)
        return [measured[0] if measured else (low, high, _unit([token]), False)], (measured[1] if measured else i) + 1
    return [], i + 1


def _grown(tokens: list[Any], i: int, value: float, spelled: bool, group: list[Any]) -> tuple[float, int]:
    """The value with what follows it: "six point three", "million", "two and a half"; the last token."""
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
    return value, i


def _season_end(year: float, end: str) -> float | None:
    """The year a season's two digits name ("1946-47" ends in 1947, "1999-00" in 2000), or None if not a season."""
    if not (1000 <= year < 3000 and year == int(year) and re.fullmatch(r"\d\d", end)):
        return None
    high = year // 100 * 100 + int(end)
    return high if high > year else high + 100


_RANGE_WORDS = frozenset({"-", "–", "to", "and", "until", "till", "through"})


def _range_to(tokens: list[Any], i: int, value: float, group: list[Any], span: Any) -> tuple[float, float, int]:
    """(low, high, last token) of "20-45", "20 to 45", "between 20 and 45", "6 million to 44 million", "-10 to -5".

    The second end may be "minus 5" ("from minus 10 to minus 5"), as the first may.
    """
    sign = _minus(tokens, i + 2) if i + 3 < len(tokens) else 1.0
    at = i + 2 + (sign < 0)
    if not (at < len(tokens) and tokens[i + 1].lower_ in _RANGE_WORDS and tokens[at].like_num):
        return value, value, i
    end = quantities.number_words(tokens, at) if tokens[at].lower_ in quantities.NUMBER_WORDS else None
    season = _season_end(value, tokens[at].text) if tokens[i + 1].text in ("-", "–") and sign > 0 else None
    other, used = (end[0], end[1]) if end else (season or _value(tokens[at]), 1)
    other = other * sign if other is not None else None
    k, factor = at + used, 1.0
    while other is not None and k < len(tokens) and tokens[k].lower_ in quantities.MULTIPLIERS:
        factor *= quantities.MULTIPLIERS[tokens[k].lower_]  # "6 million to 44 million"
        k += 1
    opening = group[0].i - 1 - (group[0].i > 1 and span.doc[group[0].i - 1].lower_ in ("minus", "negative"))
    if other is None or (tokens[i + 1].lower_ == "and" and span.doc[max(opening, 0)].lower_ != "between"):
        return value, value, i
    if not any(t.lower_ in quantities.MULTIPLIERS for t in group):
        value *= factor  # "$6-8 billion": the scale of the second end is the first's too
    other *= factor
    group.append(tokens[k - 1])
    return min(value, other), max(value, other), k - 1


_NUMBER_RULES: tuple[Callable[[list[Any], int, bool, Any], Found | None], ...] = (
    _iso_date, _clock, _period, _month, _rank, _fraction_measured, _amount)
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
