"""Quantities, number words, clock times and name aliases, read with well-kept libraries.

Units and conversions come from pint (a measured amount becomes its SI magnitude and dimension, a temperature its
degrees Celsius: "3 km" = "3,000 m", "134 °F" = "56.7 °C", "90 minutes" = "an hour and a half"), number words from
text2num ("forty-five thousand" = 45000, "three hundred and forty" = 340), country names from pycountry ("USA" =
"United States"), abbreviations of names from WordNet ("USSR" = "Soviet Union", "NY" = "New York"). Clock times
are minutes after midnight ("9:57 p.m." = "21:57"; a time without a.m./p.m. matches either half of the day).
Organisations' acronyms are the initials of a name the other text has ("IOC" for "International Olympic Committee",
"WWII" for "World War Two").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

CLOCK = "clock"
"""The unit of a clock time with a.m./p.m. or a 24-hour time: minutes after midnight."""
CLOCK12 = "clock12"
"""The unit of a clock time without a.m./p.m. up to 12:59: minutes after midnight or 12 hours later."""
_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})(?:([ap])\.?m\.?)?$", re.IGNORECASE)
"""A clock time in one token, a.m./p.m. glued or not ("10:45", "10:45am", "9.15p.m")."""
_AM = frozenset({"am", "a.m.", "a.m"})
_PM = frozenset({"pm", "p.m.", "p.m"})
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion "
    "trillion".split())
MULTIPLIERS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "mn": 1e6, "bn": 1e9,
               "tn": 1e12}
"""Scale words after a number ("2 million", "$1.2 bn"); scale letters glued to one are ``_numbers._SUFFIX_SCALES``."""
FRACTIONS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25}
SHARES = {f"{word}{plural}": 1 / n for n, word in enumerate(
    "half third quarter fifth sixth seventh eighth ninth tenth".split(), start=2) for plural in ("", "s")} | {
    "halves": 0.5, "fourth": 0.25, "fourths": 0.25}
"""Fraction words after a number ("two thirds", "one-fifth"): a share, told as a percentage."""
_DIMENSIONS = frozenset({"[length]", "[mass]", "[time]", "[temperature]", "[length] ** 3", "[length] ** 2",
                         "[length] / [time]"})
_SHORT_UNITS = frozenset({"mm", "cm", "km", "kg", "mg", "lb", "lbs", "oz", "ft", "mi", "mph", "ml", "kmh", "µg",
                          "hr", "hrs", "min", "sec", "yd"})
_NOT_UNITS = frozenset({"second", "minute"})  # ordinal "second" and "minute" (tiny) are read as units only in plural
_COUNT_NOUNS = frozenset(f"{w}{s}" for w in ("point", "link", "hand", "shot", "bag", "chain", "pole", "rod", "league",
                                             "grain", "quarter") for s in ("", "s")) | {"perch", "perches"}
"""Words pint knows as units that name things counted ("10^6 points", "3 shots", "5 links", "3 quarters"): never
units."""
_DEGREES = {"c": "degC", "celsius": "degC", "centigrade": "degC", "f": "degF", "fahrenheit": "degF"}
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}
_STOP = frozenset({"of", "the", "and", "for", "on", "in", "de", "to", "a", "an", "&"})


@cache
def wordnet() -> Any | None:
    """NLTK's WordNet reader (``analysis.similarity.load_wordnet``), None where WordNet is missing."""
    try:
        from ir_rag_axioms.analysis.similarity import load_wordnet

        return load_wordnet()
    except Exception:  # noqa: BLE001 - WordNet missing: callers fall back (no synonyms, demonyms, aliases)
        return None


@cache
def registry() -> Any:
    """Pint's default unit registry (one per process)."""
    import pint

    return pint.UnitRegistry()


@lru_cache(maxsize=10_000)
def unit(text: str) -> str | None:
    """Pint's name of a unit word ("kilometres" -> "kilometer"), None when it is no unit of a kept dimension.

    A length with a power is an area or volume: "km²", "m2", "ft³" (``_POWERED``).
    """
    word = text.lower().strip(".")
    powered = _POWERED.fullmatch(word)
    if powered:
        base = unit(powered[1]) if powered[1] != "m" else "meter"
        return f"{base} ** {_POWERS[powered[2]]}" if base and registry().parse_units(base).dimensionality == {
            "[length]": 1} else None
    if not word.isalpha() and word not in ("km/h", "°c", "°f") or (len(word) <= 2 and word not in _SHORT_UNITS) \
            or word in _NOT_UNITS or word in _COUNT_NOUNS:
        return None
    word = {"°c": "degC", "°f": "degF"}.get(word, word)
    try:
        parsed = registry().parse_units(word)
    except Exception:  # noqa: BLE001 - pint raises several error types for a word that is no unit
        return None
    return str(parsed) if str(parsed.dimensionality) in _DIMENSIONS else None


_POWERS = {"²": 2, "³": 3, "2": 2, "3": 3}
_POWERED = re.compile(r"([a-z]+)([²³]|(?<![a-z]{3})[23])")
"""A unit with a power: "km²", "m³", "sq"; a digit only after a short unit ("km2", "m3", not "mp3")."""
_POWER_WORDS = {"square": 2, "sq": 2, "cubic": 3, "cu": 3}
"""Words before a length that make it an area or volume ("square kilometres", "sq mi", "cubic metres")."""
CURRENCIES = {"$": "$", "dollar": "$", "usd": "$", "us$": "$", "buck": "$", "€": "€", "euro": "€", "eur": "€",
              "£": "£", "gbp": "£", "sterling": "£", "¥": "¥", "yen": "JP¥", "jpy": "JP¥", "₹": "₹", "rupee": "₹",
              "inr": "₹", "yuan": "CN¥", "renminbi": "CN¥", "rmb": "CN¥", "cny": "CN¥", "franc": "CHF", "chf": "CHF"}
"""Currency signs, names and codes, and the sign a number's amount is told in ("25 dollars" = "$25" = "USD 25"). A bare
"¥" is yen or yuan: it agrees with either ("JP¥", "CN¥")."""

TEMPERATURE_CHANGE = "[temperature change]"
"""The dimension of a change of temperature ("warmed by 1.4 °F"): kelvin of difference, never an absolute reading."""
AGE = "[age]"
"""The dimension of an age ("three years old"): seconds, compared only with other ages, never with durations."""
AGE_BOUND = "[age bound]"
RANK = "rank"
"""The unit of an ordinal read as a rank ("finished third", "3rd place"): compared only with other ranks."""
"""The dimension of a bound on an age ("three years old or younger", "under 5 years old"): never contradicted."""


def measure(value: float, unit_name: str, change: bool = False) -> tuple[float, str]:
    """(magnitude in SI base units, or degrees Celsius for a temperature; the dimension) of a value in a unit.

    ``change``: a temperature is a difference ("by 1.4 °F" is 0.78 K of change, not -17 °C), ``TEMPERATURE_CHANGE``.
    """
    quantity = registry().Quantity(value, unit_name)
    dimension = str(quantity.dimensionality)
    if dimension == "[temperature]" and change:
        delta = registry().Quantity(value, "delta_" + unit_name if unit_name in ("degC", "degF") else unit_name)
        return float(delta.to("kelvin").magnitude), TEMPERATURE_CHANGE
    if dimension == "[temperature]":
        return float(quantity.to("degC").magnitude), dimension
    return float(quantity.to_base_units().magnitude), dimension


def counted(header: str) -> str | None:
    """The thing a one-word plural header counts ("Floors" -> "floor"); None for a unit ("Years"), else, no WordNet."""
    word, reader = header.strip().lower(), wordnet()
    if not word.isalpha() or unit(word) is not None or reader is None:
        return None
    noun = reader.morphy(word, "n")
    return noun if noun and noun != word else None


def in_unit(number: tuple[float, float, str, bool], name: str) -> tuple[float, float, str, bool]:
    """A unitless number in the unit a word names ("m", "%", "USD", "ft"), or counting a lowercase noun ("floor")."""
    low, high, _, hedged = number
    sign = CURRENCIES.get(name.lower(), CURRENCIES.get(name[-1:], ""))
    if name in ("%", "percent") or sign:
        return low, high, "%" if not sign else sign, hedged
    pint_name = "meter" if name.lower() == "m" else unit(name)  # a header's "(m)" is metres, never million
    if pint_name is None:
        return (low, high, name, hedged) if name.isalpha() and name.islower() else number
    (low, dimension), (high, _) = measure(low, pint_name), measure(high, pint_name)
    return low, high, dimension, hedged


def unit_after(tokens: Sequence[Any], j: int) -> tuple[str, int] | None:
    """(pint unit, tokens it spans) of the unit starting at tokens[j]: "km", "degrees F", "°C", "° F"."""
    if j >= len(tokens):
        return None
    word = tokens[j].lower_
    following = tokens[j + 1].lower_.rstrip(".") if j + 1 < len(tokens) else ""
    if word in ("degree", "degrees", "°") and following in _DEGREES:
        return _DEGREES[following], 2
    if word in ("°c", "°f"):
        return _DEGREES[word[1]], 1
    if word in ("degree", "degrees", "°"):
        return None
    if word.rstrip(".") in _POWER_WORDS and j + 1 < len(tokens):  # "square kilometres", "sq mi", "cubic metres"
        length = unit_after(tokens, j + 1)
        if length is None or registry().parse_units(length[0]).dimensionality != {"[length]": 1}:
            return None
        return f"{length[0]} ** {_POWER_WORDS[word.rstrip('.')]}", 1 + length[1]
    if word.rstrip(".") in _SPACED_LETTERS and j > 0 and tokens[j - 1].like_num and tokens[j - 1].whitespace_ \
            and not (j > 1 and tokens[j - 2].text[-1:] in CURRENCY_SIGNS):
        return _SPACED_LETTERS[word.rstrip(".")], 1  # "330 m", "500 g" ("5m" may be five million, "$5 m" is: unread)
    found = unit(word)
    return (found, 1) if found else None


_SPACED_LETTERS = {"m": "meter", "g": "gram"}
"""One-letter units read only after a number and a space."""


def number_words(tokens: Sequence[Any], i: int) -> tuple[float, int] | None:
    """(value, tokens used) of a run of number words from tokens[i] ("forty - four million"), read by text2num."""
    from text_to_num import text2num

    words: list[str] = []
    j = i
    while j < len(tokens):
        word = tokens[j].lower_
        if word in NUMBER_WORDS:
            words.append(word)
        elif word in ("-", "and") and words and j + 1 < len(tokens) and tokens[j + 1].lower_ in NUMBER_WORDS \
                and (word == "-" or words[-1] in MULTIPLIERS):
            words.append("-" if word == "-" else "and")
        else:
            break
        j += 1
    if not words or words == ["and"]:
        return None
    text = " ".join(words).replace(" - ", "-")
    try:
        return float(text2num(text, "en")), j - i
    except ValueError:
        return None


ORDINALS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), start=1)}
_TENS = {"twenty": 20, "thirty": 30}
_DECADE = re.compile(r"^(\d{3})0['’]?s$")
_ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$")
CURRENCY_SIGNS = frozenset("$£€¥₹")
"""Signs before a price: the number after one is an amount, never a clock time ("$9.15")."""
_CLOCK_IN_TEXT = re.compile(r"(\bat\s+)?(?<![\d:.$£€¥₹])(\d{1,2})"
                            r"(?::(\d{2})(?![\d:.]\d)(?:\s*([ap])\.?\s?m\b\.?)?|"
                            r"\.(\d{2})(?![\d:.]\d)(?:\s*([ap])\.?\s?m\b\.?|(?(1)|(?!))))", re.IGNORECASE)
"""A clock time in a raw text: "20:13", "9:57 p.m.", "9.15pm", "at 9.15" (dotted only with a.m./p.m. or after "at":
"2.50" is a decimal), as ``clock_time`` reads tokens."""


def period(tokens: Sequence[Any], i: int) -> tuple[float, float, int] | None:
    """(first year, last year, tokens used) of a decade or century at tokens[i], None if none.

    "1990s" is 1990-1999, "1900s" 1900-1999 (a century's years; a decade "1900s" lies inside it), "the 19th century"
    and "the nineteenth century" 1800-1899, "the twentieth and twenty-first centuries" 1900-1999 and 2000-2099.
    """
    token = tokens[i]
    decade = _DECADE.match(token.text)
    if decade:
        first = int(decade[1]) * 10
        return float(first), float(first + (99 if first % 100 == 0 else 9)), 1
    word, used, ordinal = token.lower_, 1, None
    if word in _TENS and i + 2 < len(tokens) and tokens[i + 1].text in ("-", "–") \
            and tokens[i + 2].lower_ in ORDINALS and ORDINALS[tokens[i + 2].lower_] < 10:
        ordinal, used, token = _TENS[word] + ORDINALS[tokens[i + 2].lower_], 3, tokens[i + 2]
    elif word in ORDINALS:
        ordinal = ORDINALS[word]
    elif _ORDINAL.match(word):
        ordinal = int(_ORDINAL.match(word)[1])  # type: ignore[index]
    if ordinal is None:
        return None
    head = token.head
    while head.dep_ == "conj" and head.head.i != head.i and head.lemma_.lower() != "century":
        head = head.head
    if head.lemma_.lower() != "century" and head.head.lemma_.lower() != "century":
        return None
    return float((ordinal - 1) * 100), float((ordinal - 1) * 100 + 99), used


def clock_times_in(text: str) -> list[tuple[float, str]]:
    """(minutes after midnight, CLOCK or CLOCK12) of every clock time written in a raw text ("22 July, 20:13")."""
    found = (_minutes(int(m[2]), int(m[3] or m[5]), (m[4] or m[6] or "").lower(), 0)
             for m in _CLOCK_IN_TEXT.finditer(text))
    return [(minutes, kind) for minutes, kind, _ in filter(None, found)]


_NUMBER_IN_TEXT = re.compile(r"(?<![\w.,\[])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w\]])")
MONTHS = {m: i for i, m in enumerate("january february march april may june july august september october november "
                                     "december".split(), start=1)}
_MONTH_IN_TEXT = re.compile(rf"\b({'|'.join(MONTHS)})\b", re.IGNORECASE)


def numbers_in(text: str) -> list[tuple[float, str]]:
    """(value, "" or "month") of the plain numbers and month names written in a raw text ("14 March, 18:45").

    Numbers inside citation markers ("[3]") and clock times are left out (``clock_times_in`` reads those).
    """
    plain = _CLOCK_IN_TEXT.sub(" ", text)
    out = [(float(m[1].replace(",", "") + (f".{m[2]}" if m[2] else "")), "") for m in _NUMBER_IN_TEXT.finditer(plain)]
    return out + [(float(MONTHS[m[1].lower()]), "month") for m in _MONTH_IN_TEXT.finditer(text)]


def clock_time(tokens: Sequence[Any], i: int) -> tuple[float, str, int] | None:
    """(minutes after midnight, CLOCK or CLOCK12, tokens used) of a clock time at tokens[i] ("9:57 p.m.")."""
    if tokens[i].ent_type_ == "MONEY" or i > 0 and tokens[i - 1].text in CURRENCY_SIGNS:
        return None  # "$15.41" is a price, not a clock time
    match = _TIME.match(tokens[i].text)
    after = tokens[i + 1].lower_ if i + 1 < len(tokens) else ""
    if match:
        hour, minute = int(match[1]), int(match[2])
    elif tokens[i].text.isdigit() and after in _AM | _PM:
        hour, minute = int(tokens[i].text), 0
    else:
        return None
    glued = (match[3] or "").lower() if match else ""  # "10:45am": one token
    half = glued or ("a" if after in _AM else "p" if after in _PM else "")
    if match and match[0][len(match[1])] == "." and not half and not (i > 0 and tokens[i - 1].lower_ == "at"):
        return None  # "2.50 metres", "1.25 percent": a decimal; "9.15" is a time with a.m./p.m. or after "at"
    return _minutes(hour, minute, half, 1 if glued or not half else 2)


def _minutes(hour: int, minute: int, half: str, used: int) -> tuple[float, str, int] | None:
    """``clock_time``'s reading of an hour and minute with "a", "p" or "" (24-hour or 12-hour without a.m./p.m.)."""
    if hour > 24 or minute > 59 or (half and not 1 <= hour <= 12):
        return None
    if half:
        return float((hour % 12 + (12 if half == "p" else 0)) * 60 + minute), CLOCK, used
    return float(hour * 60 + minute), CLOCK if hour == 0 or hour > 12 else CLOCK12, used


def same_clock(a: tuple[float, str], b: tuple[float, str]) -> bool:
    """Whether two clock times can be the same time (a 12-hour reading matches both halves of the day)."""
    options_a = {a[0] % 1440, (a[0] + 720) % 1440} if a[1] == CLOCK12 else {a[0] % 1440}
    options_b = {b[0] % 1440, (b[0] + 720) % 1440} if b[1] == CLOCK12 else {b[0] % 1440}
    return bool(options_a & options_b)


def spell_clock(minutes: float) -> str:
    """'21:57' for 1317 minutes."""
    return f"{int(minutes) // 60 % 24:02d}:{int(minutes) % 60:02d}"


@lru_cache(maxsize=10_000)
def country_names(name: str) -> frozenset[str]:
    """Every name pycountry knows of the country a name is ("usa", "u.s." -> "united states", "us", ...)."""
    import pycountry

    key = name.lower().strip().removeprefix("the ").replace(".", "").strip()
    key = _COUNTRY_ALIASES.get(key, key)
    if len(key) < 2:
        return frozenset()
    try:
        country = pycountry.countries.lookup(key)
    except LookupError:
        return frozenset()
    names = {getattr(country, field, None) for field in ("name", "official_name", "common_name", "alpha_2",
                                                           "alpha_3")}
    return frozenset(n.lower() for n in names if n)


_COUNTRY_ALIASES = {"uk": "gb", "britain": "gb", "great britain": "gb", "america": "us", "holland": "nl"}
"""Everyday names of countries pycountry does not list (its codes are ISO's: "GB", not "UK")."""


def _initials(words: Iterable[str]) -> str:
    return "".join(w[0] for w in words if w and w not in _STOP)


def _numeral(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    if word in _ROMAN:
        return _ROMAN[word]
    found = number_word_value(word)
    return int(found) if found is not None else None


@lru_cache(maxsize=10_000)
def number_word_value(word: str) -> float | None:
    """The value of one number word ("two" -> 2), None if it is none."""
    if word not in NUMBER_WORDS:
        return None
    from text_to_num import text2num

    try:
        return float(text2num(word, "en"))
    except ValueError:
        return None


def acronym_of(acronym: str, name: str) -> bool:
    """Whether an acronym stands for a name: its initials, or initials and a trailing numeral ("WWII": World War 2).

    Also the initials of the name's first or last words, 3 letters or more ("HHS" for "U.S. Department of Health and
    Human Services"), initials that keep "of" ("BoJ" for "Bank of Japan"), and a possessive on either side ("the
    BoE's", "the Bank of England's").
    """
    letters = re.sub(r"['’]s$", "", acronym.lower()).replace(".", "")
    words = re.findall(r"[a-z0-9]+", re.sub(r"['’]s\b", "", name.lower()))  # "the Bank of Japan's"
    if len(letters) < 2 or len(words) < 2:
        return False
    initials = _initials(words)
    if letters in (initials, "".join(w[0] for w in words if w not in ("the", "a", "an"))):
        return True  # "BoJ": the initials with "of"
    if len(letters) >= 3 and letters.isalpha() and (initials.startswith(letters) or initials.endswith(letters)):
        return True  # a short form of the name's first or last words: "HHS" for "U.S. Department of Health and Human
        # Services"
    numeral = _numeral(words[-1])
    if numeral is None:
        return False
    head = _initials(words[:-1])
    tail = letters[len(head):]
    return letters.startswith(head) and bool(tail) and (_numeral(tail) == numeral)


@lru_cache(maxsize=10_000)
def demonym_places(word: str) -> frozenset[str]:
    """The places a demonym or other adjective of a place names, from WordNet's pertainyms ("german" -> "germany").

    Lowercased, with their country names (``country_names``): "american" -> "america", "united states", "us", ...;
    empty for a word that names no place, or without WordNet data.
    """
    reader = wordnet()
    if reader is None:
        return frozenset()
    places = {p.name().replace("_", " ") for synset in reader.synsets(word.lower(), pos="a")
              for lemma in synset.lemmas() for p in lemma.pertainyms()}
    places = {p.lower() for p in places if p[:1].isupper()}  # proper nouns only: "Germany", not "nation"
    return frozenset(places.union(*(country_names(p) for p in places)))


_ABBREVIATION = re.compile(r"(?:[A-Z]\.?){2,7}")
_ACRONYM_SHAPE = re.compile(r"[A-Za-z.]{2,8}")
"""What may be an acronym, case lost ("ioc", "u.s.", "boj")."""


def _wordnet_key(name: str) -> str:
    return re.sub(r"['’]s$", "", name.strip().lower().removeprefix("the ")).replace(",", "").replace(" ", "_")


@lru_cache(maxsize=10_000)
def _name_synsets(name: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """WordNet's noun synsets a name is a lemma of: (that lemma as WordNet spells it, all the synset's lemmas)."""
    reader = wordnet()
    if reader is None:
        return {}
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for key in dict.fromkeys((_wordnet_key(name), _wordnet_key(name).replace(".", ""))):
        if len(key) < 2:
            continue
        for synset in reader.synsets(key, pos="n"):
            lemmas = tuple(synset.lemma_names())
            for lemma in lemmas:
                if lemma.lower() == key or lemma.lower().replace(".", "") == key:
                    found.setdefault(synset.name(), (lemma, lemmas))
    return found


def abbreviation_alias(a: str, b: str) -> bool:
    """Whether two names are one WordNet synset's lemmas, one of them its abbreviation ("USSR" / "the Soviet Union").

    Only abbreviations (2-7 capitals, dots allowed): WordNet also lists "Russia" under the Soviet Union and
    "Washington" under the American capital, which a text may well set apart.
    """
    mine, theirs = _name_synsets(a), _name_synsets(b)
    return any(_ABBREVIATION.fullmatch(mine[s][0]) or _ABBREVIATION.fullmatch(theirs[s][0])
               for s in mine.keys() & theirs)


def _untailed(a: str, b: str) -> tuple[str, str]:
    """Two names without the words they end with alike; ("", "") when they end differently.

    "the u.s. constitution", "united states constitution" -> "u.s.", "united states".
    """
    x = a.lower().removeprefix("the ").split()
    y = b.lower().removeprefix("the ").split()
    k = 0
    while k < min(len(x), len(y)) - 1 and x[-1 - k] == y[-1 - k]:
        k += 1
    return (" ".join(x[:-k]), " ".join(y[:-k])) if k else ("", "")


def alias_in(entity: str, names: Iterable[str]) -> str | None:
    """The name of ``names`` an entity is an alias of.

    The same country, a demonym of it, an acronym of it, or WordNet's abbreviation of it or by it. None if none
    ("American" is an alias of "USA", "Greek" of "Greece", "NY" of "New York").
    """
    names = list(names)
    countries = country_names(entity) | (demonym_places(entity) if " " not in entity.strip() else frozenset())
    for name in names:
        if countries and countries & (country_names(name) | {name.lower().removeprefix("the ")}):
            return name
    for name in names:
        if abbreviation_alias(entity, name) or any(abbreviation_alias(place, name) for place in countries):
            return name  # "Republican" (WordNet: of the Republican Party) for "GOP"
        head, head2 = _untailed(entity, name)
        if head and head2 and (country_names(head) & country_names(head2) or abbreviation_alias(head, head2)):
            return name  # "the United States Constitution" for "the U.S. Constitution"
    if _ACRONYM_SHAPE.fullmatch(entity.replace(" ", "")):
        for name in names:
            if acronym_of(entity, name):
                return name
    for name in names:  # the other text has the acronym: "UNESCO" for "the United Nations Educational, ..."
        if _ACRONYM_SHAPE.fullmatch(name.replace(" ", "")) and acronym_of(name, entity):
            return name
    return None
