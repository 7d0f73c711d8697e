"""Numbers in the checks: whether two agree or can contradict, how one may be computed from others, how one is told.

Quantities, clock times, number words, years and decades are read by ``quantities.py``; a number the sum or
difference of two others, a rate per another unit or one step of arithmetic the statement says it did is found here,
and a change told the other way round ("rose from 8,000 to 11,000" for a fall).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ir_rag_axioms.metrics import quantities
from ir_rag_axioms.metrics._numbers import Number
from ir_rag_axioms.metrics.statements import Facts


def _number(n: Number) -> str:
    """A number as a reason quotes it: "200 mg", "20-45 mg", "$5", "month 3", "time 09:15"."""
    low, high, unit, _ = n
    if unit in _CLOCKS:
        return f"time {quantities.spell_clock(low)}" + (" (or 12 hours later)" if unit == quantities.CLOCK12 else "")
    base = _BASE_UNITS.get(unit)
    scale, base = next(((f, name) for top, f, name in _READABLE.get(unit, ()) if max(abs(low), abs(high)) < top),
                       (1.0, base))

    def spell(v: float) -> str:
        if base:
            return f"{float(f'{v / scale:.4g}'):.10g}"  # four digits, never an exponent: "144400 km²"
        top, word = next(((top, word) for top, word in _LARGE if abs(v) >= top), (1.0, ""))
        return f"{v / top:.6g} {word}".strip()

    value = spell(low) if low == high else f"{spell(low)}-{spell(high)}"
    if base:
        return f"{value} {base}"
    if unit in _SIGNS:
        return f"{unit}{value}"
    return f"{value} {unit}".strip() if unit not in _NAMED else value if unit == "" else f"{unit} {value}"


_READABLE = {"[length]": ((0.01, 0.001, "mm"), (1.0, 0.01, "cm"), (1000.0, 1.0, "m"), (math.inf, 1000.0, "km")),
             "[mass]": ((0.001, 1e-6, "mg"), (1.0, 0.001, "g"), (1000.0, 1.0, "kg"), (math.inf, 1000.0, "t")),
             "[length] ** 2": ((1e6, 1.0, "m²"), (math.inf, 1e6, "km²")),
             "[length] ** 3": ((1e9, 1.0, "m³"), (math.inf, 1e9, "km³")),
             "[time]": ((3600.0, 1.0, "s"), (172800.0, 3600.0, "h"), (63115200.0, 86400.0, "days"),
                        (math.inf, 31557600.0, "years"))}
"""(below, base units per unit, unit) of a quantity in its base unit: "0.0002 kg" is told as "200 mg"."""
_LARGE = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))
"""Large counts and amounts told in words: "$40 million", not "$4e+07"."""


_NAMED = frozenset({"month", "", quantities.RANK})
"""Units told before the number ("month 3", "rank 2"), or not at all ("")."""


_CLOCKS = frozenset({quantities.CLOCK, quantities.CLOCK12})
_BASE_UNITS = {"[length]": "m", "[mass]": "kg", "[time]": "s", "[temperature]": "°C", "[length] ** 3": "m³",
               "[length] ** 2": "m²", "[length] / [time]": "m/s", quantities.TEMPERATURE_CHANGE: "K (change)",
               quantities.AGE: "s (age)", quantities.AGE_BOUND: "s (age bound)"}


def _matches(n: Number, m: Number) -> bool:
    """Whether number n agrees with m: n's value inside m's range (units are not compared, but currencies are).

    "2.7 km" is "2.7 kilometres"; units only decide which numbers can contradict each other. Months only match
    months, an amount in one currency not one in another ("$25" is not "€25"; "25" may be either); 15 % either way
    when one of them is hedged ("about 30"; not for years); 2 % for a measured value converted from another unit
    (``_as_written``).
    """
    if (n[2] == "month") != (m[2] == "month") or _currencies(n, m) and not _same_currency(n[2], m[2]):
        return False
    if n[2] in _CLOCKS or m[2] in _CLOCKS:
        return n[2] in _CLOCKS and m[2] in _CLOCKS and quantities.same_clock((n[0], n[2]), (m[0], m[2]))
    measured = n[2] in _BASE_UNITS or m[2] in _BASE_UNITS
    if measured and n[2] != m[2]:
        return False
    converted = measured and not all(_as_written(v) for v in (*n[:2], *m[:2]))
    tolerance = 0.15 if (n[3] or m[3]) and not 1000 <= n[0] <= 2100 else 0.02 if converted else 1e-9
    if n[2] == "[temperature]":  # degrees Celsius: a relative tolerance near 0 degrees means nothing
        slack = max(tolerance * abs(m[0]), 0.5 if measured else 0)
        return m[0] - slack - 1e-9 <= n[0] and n[1] <= m[1] + slack + 1e-9
    if n[0] < n[1] and m[0] < m[1]:  # two ranges agree when their ends do
        return all(abs(a - b) <= tolerance * abs(b) + 1e-9 for a, b in ((n[0], m[0]), (n[1], m[1])))
    low, high = m[0] - tolerance * abs(m[0]), m[1] + tolerance * abs(m[1])
    return low - 1e-9 <= n[0] and n[1] <= high + 1e-9


def _as_written(value: float) -> bool:
    """Whether a measured value in its base unit reads as written: at most 5 significant digits ("330 m", "7,300 t").

    A value converted from another unit has more ("1,083 feet" is 330.0984 m) and is compared within 2 %; two values
    as written must be equal ("324 metres" is not "330 metres").
    """
    return value == 0 or abs(value - float(f"{value:.5g}")) <= 1e-9 * abs(value)


def _present(n: Number, pool: Sequence[Number]) -> bool:
    """Whether a number agrees with one of the pool's, or a range's two ends are there.

    The ends count as single numbers or ends of a range: "from 1837 until 1901" and "1837 ... 1901" agree, a range
    1837-1910 does not contain "1837-1901".
    """
    if any(_matches(n, m) for m in pool):
        return True
    if _period(n) and any(_year(m) and n[0] <= m[0] <= n[1] for m in pool):
        return True  # "the 1960s", "the early 18th century": a year inside it is there ("1964", "by 1721")
    ends = [(e, e, m[2], m[3]) for m in pool for e in dict.fromkeys(m[:2])]
    return n[0] < n[1] and all(any(_matches((end, end, n[2], n[3]), m) for m in ends) for end in n[:2])


def _comparable(n: Number, m: Number) -> bool:
    """Whether m is the kind of number n could contradict.

    Same unit, or both amounts of money ("$25" vs "€25"), or both years, or both without a unit.
    """
    if (n[2] == "month") != (m[2] == "month"):
        return False
    if _currencies(n, m):
        return True
    if n[2] in _CLOCKS or m[2] in _CLOCKS:
        return n[2] in _CLOCKS and m[2] in _CLOCKS
    if quantities.AGE_BOUND in (n[2], m[2]):  # "three years old or younger" bounds an age: no value to contradict
        return False
    if n[2] and m[2]:
        return n[2] == m[2]
    if _period(n) or _period(m):  # a decade or century against another only: "the 1920s" vs "the 1930s"
        return _period(n) and _period(m)
    return _year(n) == _year(m) and not (n[2] or m[2]) or (_year(n) and _year(m))


def _period(x: Number) -> bool:
    """Whether a number is a decade or century of years (1960-1969, 1700-1799)."""
    low, high = x[0], x[1]
    return not x[2] and 1000 <= low < high <= 2100 and low % 10 == 0 and high - low in (9, 99)


def _year(x: Number) -> bool:
    return 1000 <= x[0] <= 2100 and x[0] == int(x[0]) and x[0] == x[1]


def _same_value(a: float, b: float) -> bool:
    return abs(a - b) <= 0.01 * max(abs(a), abs(b))


_MONEY_UNITS = frozenset(quantities.CURRENCIES) | frozenset(quantities.CURRENCIES.values()) | {"cent"}
_SIGNS = frozenset(quantities.CURRENCIES.values())
"""The currencies a number's unit may be (``_numbers._unit`` tells an amount by its currency's sign)."""


def _currencies(n: Number, m: Number) -> bool:
    """Whether both numbers are amounts of money with a currency named ("$25", "€25")."""
    return n[2] in _SIGNS and m[2] in _SIGNS


def _same_currency(a: str, b: str) -> bool:
    """Whether two currency signs may be one currency: the same, or a bare "¥" beside yen or yuan."""
    return a == b or {a, b} in ({"¥", "JP¥"}, {"¥", "CN¥"})


_PER_UNIT = re.compile(r"\b(?:a|an|per|each|every)\s+([a-z]+)")
_PER_UNITS = ("kilogram", "pound", "gram", "ounce", "tonne", "litre", "gallon", "metre", "foot", "mile", "kilometre",
              "hour", "day", "week", "month", "year")
"""Units a price may be given per ("$1.50 a kilogram"), to convert a price per another unit to."""


def _per_unit(n: Number, text: str, rivals: Sequence[Number]) -> str:
    """How a price or count per one unit is a rival's per another ("$0.68 a pound" is $1.50 a kilogram); "" if none.

    "about 100 every hour" is 2,400 a day. The units tried are ``_PER_UNITS``; within 5 % (15 % when one is hedged).
    """
    if not rivals:
        return ""
    ureg = quantities.registry()
    for word in _PER_UNIT.findall(text.lower()):
        mine = quantities.unit(word)
        if mine is None:
            continue
        for lemma in _PER_UNITS:  # the sentence's unit words are read into its numbers, so try the common ones
            theirs = quantities.unit(lemma)
            if theirs is None or theirs == mine:
                continue
            try:
                factor = float(ureg.Quantity(1, theirs).to(mine).magnitude)
            except Exception:  # pint: other dimensions
                continue
            value = n[0] * factor
            for m in rivals:
                if abs(value - m[0]) <= (0.15 if n[3] or m[3] else 0.05) * abs(m[0]):
                    return (f"{_number(n)} per {word} is {value:.3g} per {lemma}, as {_number(m)} in the matched "
                            f"sentence (a converted {'price' if n[2] in _MONEY_UNITS else 'rate'})")
    return ""


def _arithmetic(n: Number, pool: Sequence[Number]) -> str:
    """How a number is the sum or difference of two of the pool's comparable numbers ("44 million - 6 million")."""
    if n[0] != n[1] or _year(n):
        return ""
    values = [m for m in pool if m[0] == m[1] and not _year(m) and m[2] == n[2]][:40]
    tolerance = 0.05 if n[3] else 0.005
    for a in range(len(values)):
        for b in range(a + 1, len(values)):
            x, y = values[a][0], values[b][0]
            for result, text in ((x + y, "+"), (abs(x - y), "-")):
                if result and abs(result - n[0]) <= tolerance * abs(result):
                    big, small = (x, y) if x >= y else (y, x)
                    return f"{_number(values[a] if text == '+' else (big, big, n[2], False))} {text} " \
                           f"{_number(values[b] if text == '+' else (small, small, n[2], False))}"
    return ""


_TOTAL = re.compile(r"\b(?:in all|in total|total(?:ly|s)?|altogether|combined|together|overall|all told|sum)\b")
"""Words that say a number adds up others ("23 events in all")."""
_COMPUTING = re.compile(r"\b(?:times|per|average|rate|twice|double[ds]?|triple[ds]?|thrice|half|percent|difference|"
                        r"ratio|each|every|a (?:day|week|month|year|hour)|shr[ua]nk|grew|dropped|rose|fell|"
                        r"increased|decreased|gained|lost)\b|%")
"""Words that say a number was computed in another way ("3 times a day", "twice as many", "shrank by"), and a share:
"81 percent ... three years old or younger" adds up 46.5 % and 34.5 % of two age groups."""
_RELATIVE = re.compile(r"\b(?:more|fewer|less|than|after|later|earlier|before|ago|since|between|from|up|down|"
                       r"another|extra|additional|remaining|left|rest|other|besides|plus|minus|over|under)\b")
"""Words by which a number may be told relative to another ("5 more", "two years later"): arithmetic may give it."""
_PER = {"per hour": 3600.0, "per day": 86400.0, "per week": 604800.0, "per year": 31557600.0}


def _computed(n: Number, text: str, sentence: Facts) -> str:
    """How a number may be computed in one step from the matched sentence's numbers, when the statement says so.

    A statement that says it adds up ("in all", "total", ``_TOTAL``) may sum two counts of other things ("12
    shootings and 11 deaths, 23 events in all"); one with a word of computation (``_COMPUTING``) may give a
    product, ratio, percentage or difference of two of the sentence's numbers, or a rate per hour, day, week or year
    of a duration ("every 7 hours" is 3.4 times a day). Within 5 %, 20 % for a hedged number ("more than 3 times a
    day"). "" when none gives it, or the statement says neither.
    """
    lowered = text.lower()
    total, computing = bool(_TOTAL.search(lowered)), bool(_COMPUTING.search(lowered))
    if n[0] != n[1] or _year(n) or not (total or computing):
        return ""
    values = [m for m in sentence.numbers if m[0] == m[1] and m[0] != 0 and not _year(m)
              and m[2] not in _CLOCKS][:20]  # no zero: nothing is computed from it, and it divides nothing
    tolerance = 0.2 if n[3] else 0.05

    def close(x: float) -> bool:
        return bool(x) and abs(x - n[0]) <= tolerance * abs(x)

    for a in values:
        if computing and a[2] == "[time]" and n[2] not in _BASE_UNITS:
            for per, seconds in _PER.items():
                if close(seconds / a[0]):
                    return f"{_number(a)} is {seconds / a[0]:.3g} {per}"
    for i, a in enumerate(values):
        for b in values[i + 1:]:
            for result, how in _options(a, b, total, computing):
                if close(result):
                    return f"{how} = {result:.4g}"
    return ""


def _options(a: Number, b: Number, total: bool, computing: bool) -> list[tuple[float, str]]:
    """``_computed``'s (result, how) of two numbers other than 0: a sum (``total``), else a product, ratio, share."""
    x, y = _number(a), _number(b)
    options = []
    if total and (a[2] == b[2] or a[2] not in _BASE_UNITS and b[2] not in _BASE_UNITS):
        options.append((a[0] + b[0], f"{x} + {y}"))
    if computing:
        options += [(a[0] * b[0], f"{x} × {y}"), (a[0] / b[0], f"{x} / {y}"), (b[0] / a[0], f"{y} / {x}"),
                    (100 * a[0] / b[0], f"{x} % of {y}"), (100 * b[0] / a[0], f"{y} % of {x}")] + (
                        [(abs(a[0] - b[0]), f"{x} - {y}")] if a[2] == b[2] else [])
    return options
