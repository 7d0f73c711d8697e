"""The heuristic judge's checks of one statement against one sentence and the whole text it is judged against.

A statement can be contradicted (a number, date or quantity given differently, another named entity where the
matched sentence has one, a negation the sentence does not have or the reverse, an antonym, a comparison or
superlative flipped) or unsupported (a number or named entity the text does not have anywhere). Each finding is a
short reason naming both sides ("number 1925 vs 1889"). Antonyms come from WordNet (the loader REG and STMC use)
plus a few pairs WordNet lacks. Structural checks read the parse (``_structure.py``): roles reversed, cause and
effect reversed, clashing quantifiers, a price for "free"; "all" for "some" and "must" for "may" are unsupported;
quantities, clock times, number words and aliases (acronyms, demonyms) are normalised (``quantities.py``). A trend
reversed ("fell from 11,000 to 8,000" for a rise) and a comparison the context's values contradict ("A costs more
than B" where A's price is lower) are contradictions. A number that is the sum or difference of two of the context's
is "cannot tell", as is a comparative for a superlative, a degree word on one side only, or a surname for a full
name. A contradiction in other words is still not found.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ir_rag_axioms.metrics import quantities, statements
from ir_rag_axioms.metrics.statements import Facts

_EXTRA_ANTONYMS = (("before", "after"), ("above", "below"), ("more", "less"), ("most", "least"),
                   ("increase", "decrease"), ("rise", "fall"), ("gain", "lose"), ("inside", "outside"),
                   ("first", "last"), ("always", "never"), ("east", "west"), ("north", "south"),
                   ("maximum", "minimum"),
                   ("close", "far"), ("near", "far"), ("import", "export"), ("higher", "lower"), ("success", "failure"),
                   ("benefit", "harm"), ("safe", "dangerous"), ("increase", "reduce"), ("raise", "lower"),
                   ("soon", "late"))
_WORDNET_POS = {"ADJ": ("a", "s"), "ADV": ("r",), "VERB": ("v",), "NOUN": ("n",)}
_PLACES = frozenset({"GPE", "LOC", "FAC"})
_MONTH_NAMES = frozenset("january february march april may june july august september october november "
                         "december".split())
_STOP = frozenset("the a an of and in on at to for by with from 's".split())


@lru_cache(maxsize=100_000)
def antonyms(lemma: str) -> frozenset[str]:
    """WordNet antonyms of a lemma's first three senses per part of speech, plus a few pairs WordNet lacks.

    Adjective satellites ("tiny") count through their head adjective ("small" -> "large"); without WordNet data only
    the extra pairs are used.
    """
    found = {b for a, b in _EXTRA_ANTONYMS if a == lemma} | {a for a, b in _EXTRA_ANTONYMS if b == lemma}
    wordnet = quantities.wordnet()
    if wordnet is None:  # WordNet missing: the extra pairs only (the README says so)
        return frozenset(found)
    for pos in ("a", "r", "v", "n"):
        for synset in wordnet.synsets(lemma, pos=pos)[:3]:
            heads = [synset, *synset.similar_tos()] if synset.pos() == "s" else [synset]
            for head in heads:
                for name in head.lemmas():
                    found |= {a.name().replace("_", " ") for a in name.antonyms()}
    found.discard(lemma)
    return frozenset(found)


@lru_cache(maxsize=100_000)
def synonyms(lemma: str) -> frozenset[str]:
    """The other lemmas of a lemma's first three WordNet senses per part of speech ("fall" -> "drop")."""
    wordnet = quantities.wordnet()
    if wordnet is None:  # WordNet missing: no synonyms
        return frozenset()
    found = {name.name().lower() for pos in ("n", "v", "a", "r") for synset in wordnet.synsets(lemma, pos=pos)[:3]
             for name in synset.lemmas() if "_" not in name.name()}
    found.discard(lemma)
    return frozenset(found)


_DOTTED = re.compile(r"\b(?:[a-z]\.){2,}")
"""A dotted abbreviation ("u.s.", "f.a.a."), read as one word ("us", "faa")."""


def _undotted(text: str) -> str:
    return _DOTTED.sub(lambda m: m.group(0).replace(".", ""), text)


def words(text: str) -> frozenset[str]:
    """Lowercased alphanumeric words of a text ("%" counts as "percent"; "u.s." also as "us")."""
    found = set(re.findall(r"[a-z0-9]+", text.lower()))
    found |= set(re.findall(r"[a-z0-9]+", _undotted(text.lower())))
    found |= {f"{quantities.number_word_value(w):g}" for w in found if quantities.number_word_value(w) is not None}
    return frozenset(found | {"percent"} if "%" in text else found)


def _entity_words(entity: str) -> set[str]:
    """The words of an entity, number words as digits ("world war two" -> world, war, 2)."""
    found = set(re.findall(r"[a-z0-9]+", re.sub(r"['’]s\b", "", _undotted(entity)))) - _STOP  # "the opera house's"
    return {f"{quantities.number_word_value(w):g}" if quantities.number_word_value(w) is not None else w
            for w in found}


def _group(label: str) -> str:
    return "place" if label in _PLACES else label


def _number(n: tuple[float, float, str, bool]) -> str:
    low, high, unit, _ = n
    if unit in (quantities.CLOCK, quantities.CLOCK12):
        return f"time {quantities.spell_clock(low)}" + (" (or 12 hours later)" if unit == quantities.CLOCK12 else "")
    base = _BASE_UNITS.get(unit)
    def spell(v: float) -> str:
        return f"{v:.4g}" if base else f"{v:g}" if abs(v) < 1e6 else f"{v:.6g}"

    value = spell(low) if low == high else f"{spell(low)}-{spell(high)}"
    if base:
        return f"{value} {base}"
    return f"{value} {unit}".strip() if unit not in ("month", "") else value if unit == "" else f"month {value}"


_BASE_UNITS = {"[length]": "m", "[mass]": "kg", "[time]": "s", "[temperature]": "°C", "[length] ** 3": "m³",
               "[length] ** 2": "m²", "[length] / [time]": "m/s", quantities.TEMPERATURE_CHANGE: "K (change)",
               quantities.AGE: "s (age)",
               quantities.AGE_BOUND: "s (age bound)"}


def _matches(n: tuple[float, float, str, bool], m: tuple[float, float, str, bool]) -> bool:
    """Whether number n agrees with m: n's value inside m's range (units are not compared).

    "2.7 km" is "2.7 kilometres"; units only decide which numbers can contradict each other. Months only match
    months; 15 % either way when one of them is hedged ("about 30"; not for years).
    """
    if (n[2] == "month") != (m[2] == "month"):
        return False
    clocks = (quantities.CLOCK, quantities.CLOCK12)
    if n[2] in clocks or m[2] in clocks:
        return n[2] in clocks and m[2] in clocks and quantities.same_clock((n[0], n[2]), (m[0], m[2]))
    measured = n[2] in _BASE_UNITS or m[2] in _BASE_UNITS
    if measured and n[2] != m[2]:
        return False
    tolerance = 0.15 if (n[3] or m[3]) and not 1000 <= n[0] <= 2100 else 0.02 if measured else 1e-9
    if n[2] == "[temperature]":  # degrees Celsius: a relative tolerance near 0 degrees means nothing
        slack = max(tolerance * abs(m[0]), 0.5 if measured else 0)
        return m[0] - slack - 1e-9 <= n[0] and n[1] <= m[1] + slack + 1e-9
    if n[0] < n[1] and m[0] < m[1]:  # two ranges agree when their ends do
        return all(abs(a - b) <= tolerance * abs(b) + 1e-9 for a, b in ((n[0], m[0]), (n[1], m[1])))
    low, high = m[0] - tolerance * abs(m[0]), m[1] + tolerance * abs(m[1])
    return low - 1e-9 <= n[0] and n[1] <= high + 1e-9


def _present(n: tuple[float, float, str, bool], pool: Sequence[tuple[float, float, str, bool]]) -> bool:
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


def _comparable(n: tuple[float, float, str, bool], m: tuple[float, float, str, bool]) -> bool:
    """Whether m is the kind of number n could contradict: same unit, or both years, or both without a unit."""
    if (n[2] == "month") != (m[2] == "month"):
        return False
    clocks = (quantities.CLOCK, quantities.CLOCK12)
    if n[2] in clocks or m[2] in clocks:
        return n[2] in clocks and m[2] in clocks
    if quantities.AGE_BOUND in (n[2], m[2]):  # "three years old or younger" bounds an age: no value to contradict
        return False
    if n[2] and m[2]:
        return n[2] == m[2]
    if _period(n) or _period(m):  # a decade or century against another only: "the 1920s" vs "the 1930s"
        return _period(n) and _period(m)
    return _year(n) == _year(m) and not (n[2] or m[2]) or (_year(n) and _year(m))


_CLOCKS = frozenset({quantities.CLOCK, quantities.CLOCK12})


def _period(x: tuple[float, float, str, bool]) -> bool:
    """Whether a number is a decade or century of years (1960-1969, 1700-1799)."""
    low, high = x[0], x[1]
    return not x[2] and 1000 <= low < high <= 2100 and low % 10 == 0 and high - low in (9, 99)


def _year(x: tuple[float, float, str, bool]) -> bool:
    return 1000 <= x[0] <= 2100 and x[0] == int(x[0]) and x[0] == x[1]


_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?:(?:,? | of | and | for | the | of the )[A-Z][a-z]+)+")
"""A run of capitalised words, with "of", "and", "for", "the" or a comma between ("University of Nevada, Las Vegas"):
one name for acronyms ("UNLV"), where named-entity recognition splits it."""


@dataclass(frozen=True)
class Pool:
    """Everything a text (the context, or the answer) says, for "is it anywhere" checks."""

    words: frozenset[str]
    numbers: tuple[tuple[float, float, str, bool], ...]
    names: tuple[str, ...] = ()
    """The named entities of the text (for aliases: countries, acronyms)."""

    @classmethod
    def of(cls, texts: Iterable[str], facts: Iterable[Facts], raw: Iterable[str] = ()) -> Pool:
        """The pool of some statements' texts and facts, and of the raw texts they come from.

        The raw texts add what no statement holds: the words, plain numbers, months and clock times of headers,
        user names and one-word lines ("Bender / 22 July, 20:13" above a forum post).
        """
        facts, raw = list(facts), list(raw)
        lemmas = {lemma for f in facts for lemma, _ in f.lemmas}
        names = tuple(dict.fromkeys([*(e for f in facts for e, _ in f.entities),
                                     *(run.lower() for t in [*texts, *raw] for run in _NAME_RUN.findall(t)
                                       if len(run.split()) >= 3)]))
        clocks = tuple((v, v, kind, False) for text in raw for v, kind in
                       [*quantities.clock_times_in(text), *quantities.numbers_in(text)])
        return cls(frozenset().union(lemmas, *(words(t) for t in [*texts, *raw])),
                   tuple(n for f in facts for n in f.numbers) + clocks, names)


def _lemma_pos(facts: Facts, lemma: str) -> str:
    return next((pos for other, pos in facts.lemmas if other == lemma), "")


def _lemma_set(facts: Facts) -> set[str]:
    return {lemma for lemma, _ in facts.lemmas}


def _side(a: str, b: str) -> bool:
    """Whether two sides of comparisons are the same: equal, or half the words of the shorter in the other."""
    if not a or not b:
        return a == b
    x, y = set(a.split()), set(b.split())
    if any(o in antonyms(w) for w in x - y for o in y - x):
        return False  # "male offender" / "female offender": one word apart, and that word reversed
    return len(x & y) >= 0.5 * min(len(x), len(y))


CORRELATIVE = re.compile(r"\bthe (?:more|less|fewer|\w+er)\b[^,;]{0,80}, the (?:more|less|fewer|\w+er)\b",
                         re.IGNORECASE)
"""The comparative correlative ("the higher the income, the smaller the share"): both antonyms flipped say the same."""


def contradictions(statement: Facts, sentence: Facts, where: str, own: str = "the statement",
                   undecided: list[str] | None = None, correlative: bool = False) -> list[str]:
    """How the sentence contradicts the statement: negation, antonyms, flipped comparisons (reasons, may be empty).

    ``own`` names the statement in the reasons ("the statement", "the fact"); what the checks cannot tell (a
    comparison whose sides cannot be aligned, an antonym of another part of speech: "reduce" / "an increase", an even
    number of antonyms flipped in two comparative correlatives, ``correlative``) is appended to ``undecided``.
    """
    out: list[str] = []
    mine, theirs = _lemma_set(statement), _lemma_set(sentence)
    for lemma in statement.negated:
        if lemma in theirs and lemma not in sentence.negated:
            out.append(f"negation: {own} negates '{lemma}', {where} affirms it")
    for lemma in sentence.negated:
        if lemma in mine and lemma not in statement.negated:
            out.append(f"negation: {where} negates '{lemma}', {own} affirms it")
        elif lemma not in mine and lemma not in statement.negated:
            pos = _lemma_pos(sentence, lemma)
            alike = sorted(o for o in synonyms(lemma) & mine if o not in statement.negated and o not in theirs
                           and _lemma_pos(statement, o) == pos)  # "do not consider" / "carry out studies": no
            if alike and pos in ("ADJ", "VERB"):
                out.append(f"negation: {where} negates '{lemma}', {own} affirms '{alike[0]}'")
    paired_comparisons: set[str] = set()
    consistent, flips = comparisons_checked(statement, sentence, where, own, undecided, paired_comparisons)
    flipped = set(consistent)
    if statement.comparisons and sentence.comparisons:  # degree words: the comparison check decides
        flipped |= _DEGREE_WORDS
    flipped |= {w for a in flipped for w in a.split()}
    pairs: list[str] = []
    paired: list[str] = []
    degrees = {c[0]: {o[0] for o in sentence.comparisons if o[2] != c[2]} for c in statement.comparisons}
    for lemma, pos in statement.lemmas:
        if pos not in _WORDNET_POS or lemma in theirs or lemma in flipped:
            continue
        if lemma in paired_comparisons and antonyms(lemma) & paired_comparisons and not correlative:
            continue  # "lower than it is today" / "higher than it used to be": the comparison check decides
        other_side = sorted(antonyms(lemma) & {c[0] for c in sentence.comparisons if c[2] == "cmp"})
        if not correlative and other_side and any(c[0] == lemma and c[2] == "cmp" for c in statement.comparisons):
            if undecided is not None:  # two comparatives the check could not align: maybe one seen from the other side
                undecided.append(f"cannot tell: the comparative '{lemma}' and '{other_side[0]}' in {where} are not "
                                 "aligned (one may state the other from the other side)")
            continue
        for other in sorted(o for o in theirs - mine if o in antonyms(lemma) or lemma in antonyms(o)):
            if synonyms(other) & mine - {lemma}:
                continue  # "breaks EMTALA ... to keep hospitals from": the statement says 'violate' as 'break'
            if other in degrees.get(lemma, ()) or (
                    {lemma, other} <= _DEGREE_WORDS and bool(statement.comparisons) != bool(sentence.comparisons)):
                if undecided is not None:
                    undecided.append(f"cannot tell: '{lemma}' and '{other}' in {where} are a comparative and a "
                                     "superlative, or a comparison read on one side only (two frames, not one "
                                     "claim reversed)")
                continue
            if (lemma in statement.negated) == (other in sentence.negated) and other not in flipped:
                if "NOUN" in (pos, _lemma_pos(sentence, other)) and _lemma_pos(sentence, other) != pos:
                    # "reduce output" vs "an increase in tariffs": not one head, no pairing
                    if undecided is not None:
                        undecided.append(f"cannot tell: '{lemma}' ({pos}) and '{other}' "
                                         f"({_lemma_pos(sentence, other)}) in {where} are antonyms of different "
                                         "parts of speech, not one claim reversed")
                    continue
                pairs.append(f"antonym '{lemma}' vs '{other}' in {where}")
                paired.append(lemma)
    both = flips + pairs
    # a flipped comparison whose adjective is also an antonym pair is one flip, not two
    counted = len(pairs) + max(len(flips) - len({c[0] for c in statement.comparisons} & set(paired)), 0)
    if correlative and counted >= 2 and counted % 2 == 0:  # "the higher, the smaller": "the lower, the greater"
        if undecided is not None:
            undecided.append(f"cannot tell: {counted} antonyms flipped together ({'; '.join(both)}) may state the "
                             "same relation from the other side")
    elif pairs and out and not flips:  # "not treated fairly" / "treated unfairly": a negation and an antonym
        if undecided is not None:
            undecided.append(f"cannot tell: a negation and an antonym together ({'; '.join(out + pairs)}) may say the "
                             "same")
        out = []
    else:
        out += both
    out += roles_reversed(statement, sentence, where, own)
    out += trends_reversed(statement, sentence, where, own)
    out += trend_verb_reversed(statement, sentence, where, own)
    out += comparisons_by_value(statement, sentence, where, own)
    out += causes_reversed(statement, sentence, where, own)
    out += quantifier_conflicts(statement, sentence, where, own)
    out += obligation_conflicts(statement, sentence, where, own)
    out += price_for_free(statement, sentence, where, own)
    return list(dict.fromkeys(out))


_DEGREE_WORDS = frozenset({"more", "less", "most", "least", "fewer", "fewest"})
Comparison = tuple[str, int, str, str, str, str]


@lru_cache(maxsize=10_000)
def _adjective_of(word: str) -> str:
    """The adjective an adverb in -ly comes from (WordNet's pertainyms: "slowly" -> "slow"); the word otherwise."""
    if not word.endswith("ly") or " " in word:
        return word
    wordnet = quantities.wordnet()
    if wordnet is None:  # WordNet missing: the word itself
        return word
    found = [p.name() for synset in wordnet.synsets(word, pos="r")[:3] for lemma in synset.lemmas()
             if lemma.name() == word for p in lemma.pertainyms()]
    return found[0] if found else word


def _related(adjective: str, adjective2: str) -> int:
    """+1 for the same adjective, -1 for antonyms, else 0.

    Antonyms: "further west" / "further east", "small" / "large", "more slowly" / "faster" (an adverb as its
    adjective).
    """
    adjective, adjective2 = _adjective_of(adjective), _adjective_of(adjective2)
    if adjective2 == adjective:
        return 1
    base, _, direction = adjective.partition(" ")
    base2, _, direction2 = adjective2.partition(" ")
    if base == base2 and direction and direction2 and direction2 in antonyms(direction):
        return -1
    return -1 if adjective2 in antonyms(adjective) or adjective in antonyms(adjective2) else 0


def _jaccard(a: str, b: str) -> float:
    x, y = set(a.split()), set(b.split())
    return len(x & y) / len(x | y) if x and y else 0.0


def _places(side: str) -> set[str]:
    """The countries and places a comparison's side names, demonyms as their places ("german bond": Germany)."""
    out = set()
    for word in side.split():
        names = quantities.country_names(word) if len(word) > 3 else frozenset()
        names = names or quantities.demonym_places(word)
        if names:
            out.add(min(names))
    return out


def _telling(side: str, other: str) -> str:
    """A side's words without pronouns and without the words its other side shares.

    "have sex water" against "have it bed": "sex water".
    """
    theirs = set(other.split())
    return " ".join(w for w in side.split() if w not in theirs and w not in _PRONOUN_LEMMAS) or side


def _alignment(mine: Comparison, theirs: Comparison) -> str:
    """How two comparisons' sides align: "same", "swapped", "half-same", "half-swapped", "ambiguous" or "".

    "half-" when one side is unsaid; "ambiguous" when both readings fit alike ("children who slept less" and
    "children who slept nine hours" share "child": the closer reading by word overlap decides, a tie is ambiguous).
    """
    _, _, kind, first, other, _ = mine
    _, _, _, first2, other2, _ = theirs
    if kind == "sup":
        return "same" if not first or not first2 or _side(first, first2) else ""
    places = [_places(side) for side in (first, other, first2, other2)]
    if all(places):  # "German bonds ... than Greek bonds" / "Greek bonds ... than those issued in Germany"
        p1, o1, p2, o2 = places
        if p1 & o2 and o1 & p2 and not p1 & p2 and not o1 & o2:
            return "swapped"
        if p1 & p2 and o1 & o2 and not p1 & o2 and not o1 & p2:
            return "same"
    same = _side(first, first2) and _side(other, other2)
    swapped = bool(first and other) and _side(first, other2) and _side(other, first2)
    if same and swapped:  # the closer reading by the words that tell each comparison's sides apart
        a, b, c, d = _telling(first, other), _telling(other, first), _telling(first2, other2), _telling(other2, first2)
        straight = _jaccard(a, c) + _jaccard(b, d)
        crossed = _jaccard(a, d) + _jaccard(b, c)
        return "same" if straight > crossed else "swapped" if crossed > straight else "ambiguous"
    if same or swapped:
        return "same" if same else "swapped"
    if other and first2 and _side(other, first2) and not first and not other2:
        return "swapped"  # "(sound) faster than light" / "light faster than (sound)": each parse lost one side
    if bool(other) != bool(other2):  # "A more X than B" / "B less X": the unsaid side is "the other one"
        if first and first2 and _side(first, first2):
            return "half-same"
        if (other and _side(other, first2)) or (other2 and _side(first, other2)):
            return "half-swapped"
    return ""


def comparisons_checked(statement: Facts, sentence: Facts, where: str, own: str = "the statement",
                        undecided: list[str] | None = None, paired: set[str] | None = None
                        ) -> tuple[set[str], list[str]]:
    """(adjectives of comparisons that agree, "comparison flipped" reasons) of the statement against the sentence.

    Comparisons are put in one direction: "B is smaller than A" is "A is larger than B" (antonyms from WordNet and
    ``_EXTRA_ANTONYMS``, sides swapped). Two comparisons are paired when their adjectives are the same or antonyms
    and their attributes agree ("lower levels of mood" is not paired with "higher attitudes"). A comparison is
    flipped only when every pairing with both sides aligned disagrees; one that agrees with some pairing is
    consistent; where only one side can be aligned, or aligned pairings disagree with each other, it is "cannot
    tell" (appended to ``undecided``). ``paired`` collects the adjectives of the pairings whose sides align, or
    align ambiguously.
    """
    consistent: set[str] = set()
    out: list[str] = []
    for mine in statement.comparisons:
        adjective, sign, kind, first, other, attribute = mine
        full: list[bool] = []
        half: list[bool] = []
        for theirs in sentence.comparisons:
            adjective2, sign2, kind2, _, _, attribute2 = theirs
            flip = _related(adjective, adjective2) if kind == kind2 else 0
            if not flip or (attribute and attribute2 and not _side(attribute, attribute2)):
                continue
            aligned = _alignment(mine, theirs)
            if aligned and paired is not None:
                paired |= {adjective, adjective2}
            if aligned == "ambiguous":
                half.append(False)  # cannot tell which side is which
                continue
            if not aligned:
                continue
            agrees = sign == (sign2 * flip if aligned.endswith("same") else -sign2 * flip)
            (full if aligned in ("same", "swapped") else half).append(agrees)
            if agrees:
                consistent |= {adjective, adjective2, *adjective.split(), *adjective2.split()}
        degree = ("more" if sign > 0 else "less") if kind == "cmp" else ("most" if sign > 0 else "least")
        said = f"'{first} {degree} {adjective}{f' than {other}' if other else ''}'"
        flip_name = "comparison" if kind == "cmp" else "superlative"
        if full and not any(full) and not any(half):
            out.append(f"{flip_name} flipped: {own} says {said}, {where} the opposite")
        elif undecided is not None and ((full and not all(full)) or (half and not full and not any(half))):
            undecided.append(f"cannot tell: the {flip_name} {said} and {where}'s are not aligned (their sides or "
                             "readings differ)")
    return consistent, out


def _same_value(a: float, b: float) -> bool:
    return abs(a - b) <= 0.01 * max(abs(a), abs(b))


def trends_reversed(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """A change told the other way round: "from A to B" where the sentence says "from B to A" (same unit)."""
    return [f"trend reversed: {own} says from {a:g} to {b:g}, {where} from {b:g} to {a:g}"
            for a, b, unit in statement.trends for c, d, unit2 in sentence.trends
            if unit == unit2 and _same_value(a, d) and _same_value(b, c) and not _same_value(a, b)]


_RISE_VERBS = frozenset({"increase", "rise", "grow", "climb", "soar", "jump", "surge", "double", "triple", "expand",
                         "gain", "swell"})
_FALL_VERBS = frozenset({"decrease", "fall", "drop", "decline", "shrink", "plunge", "slump", "sink", "dwindle",
                         "diminish", "halve"})


def trend_verb_reversed(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """A rise or fall that the sentence's "from A to B" tells the other way (reasons, may be empty).

    "grew between 1948 and 1995" against "from 1 billion in 1948 to 750 million by 1995".

    Only when the statement gives no "from ... to" of its own, every number it gives (the years) is in the
    sentence, the sentence has one such change and no verb of the statement's direction.
    """
    verbs = {lemma for lemma, pos in statement.lemmas if pos == "VERB" and lemma not in statement.negated}
    said = {lemma for lemma, _ in sentence.lemmas}
    up, down = bool(verbs & _RISE_VERBS), bool(verbs & _FALL_VERBS)
    if up == down or statement.trends or len(sentence.trends) != 1 or not statement.numbers \
            or not all(_present(n, sentence.numbers) for n in statement.numbers):
        return []
    if said & (_RISE_VERBS if up else _FALL_VERBS):
        return []
    start, end, unit = sentence.trends[0]
    if _same_value(start, end) or (end > start) == up:
        return []
    verb = sorted(verbs & (_RISE_VERBS if up else _FALL_VERBS))[0]
    return [f"trend reversed: {own} says '{verb}', {where} goes from {start:g} to {end:g}{unit and ' ' + unit}"]


_UPWARD = frozenset({"high", "large", "big", "great", "many", "much", "common", "likely", "frequent", "more", "long",
                     "expensive", "heavy", "tall", "old", "fast", "strong", "wide"})
_DOWNWARD = frozenset({"low", "small", "little", "few", "less", "rare", "unlikely", "short", "cheap", "light",
                       "young", "slow", "weak", "narrow", "fewer"})
"""Comparatives that say which of two numbers is larger: "higher" (the first), "smaller" (the second)."""


def comparisons_by_value(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """A comparison of two named things against the numbers the sentence gives them ("SABIC (15 percent)").

    "SABIC holds a bigger share than the Mosaic Company" against "SABIC (15 percent) ... the Mosaic Company (25
    percent)": contradicted when each side holds exactly one of the sentence's valued nouns, of one unit, and the
    comparative's direction (``_UPWARD`` / ``_DOWNWARD``) disagrees with the values.
    """
    out = []
    for adjective, sign, kind, first, other, _ in statement.comparisons:
        base = adjective.split()[0]
        direction = 1 if base in _UPWARD else -1 if base in _DOWNWARD else 0
        if kind != "cmp" or not direction or not first or not other:
            continue
        sides = []
        for side in (first, other):
            words = set(side.split())
            held = [(value, unit) for phrase, value, unit in sentence.valued if set(phrase.split()) <= words]
            if not held:  # "new immigrants" for the statement's "immigrants": the head noun, if only one has it
                held = [(value, unit) for phrase, value, unit in sentence.valued if phrase.split()[-1] in words]
            sides.append(held[0] if len(set(held)) == 1 else None)
        (a, b) = sides
        if a is None or b is None or a[1] != b[1] or _same_value(a[0], b[0]):
            continue
        if (a[0] > b[0]) != (sign * direction > 0):
            out.append(f"comparison against the values: {own} says '{first}' is {'more' if sign > 0 else 'less'} "
                       f"{adjective} than '{other}', {where} gives {a[0]:g}{a[1]} and {b[0]:g}{b[1]}")
    return out


_PRONOUN_LEMMAS = frozenset({"they", "he", "she", "it", "we", "you", "i", "them", "him", "her", "us", "-pron-"})
_SYMMETRIC = frozenset({"be", "marry", "meet", "resemble", "equal", "match", "border", "join"})


def roles_reversed(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Who did what to whom: the same verb with its subject and another argument swapped ("role reversal: ...").

    Passives count as actives ("X was invented by Y" is "Y invented X"); only a swap both parses show is named;
    the copula and symmetric verbs ("be", "marry", "meet") have no direction.
    """
    out = []
    theirs: dict[str, dict[str, set[str]]] = {}
    for verb, role, lemma in sentence.roles:
        theirs.setdefault(verb, {}).setdefault(lemma, set()).add(role)
    mine: dict[str, dict[str, set[str]]] = {}
    for verb, role, lemma in statement.roles:
        mine.setdefault(verb, {}).setdefault(lemma, set()).add(role)
    for verb, arguments in mine.items():
        other = theirs.get(verb)
        if not other or verb in _SYMMETRIC:  # "the largest city is Sydney" = "Sydney is the largest city"
            continue
        subjects = [a for a, r in arguments.items() if "subj" in r and other.get(a) and "subj" not in other[a]]
        objects = [a for a, r in arguments.items() if "subj" not in r and "subj" in other.get(a, set())]
        their_subjects = [a for a, r in other.items() if "subj" in r]
        if subjects and not objects and their_subjects and all(a in _PRONOUN_LEMMAS for a in their_subjects):
            # the sentence's subject is a pronoun ("make them feel related to X"): X as the statement's subject
            objects = [a for a, r in arguments.items() if "subj" not in r and a not in other]
        found = [f"role reversal: {own} has '{subject}' {verb} '{obj}', {where} the reverse"
                 for subject in subjects for obj in objects if subject != obj]
        out += found or _half_reversed(verb, arguments, other, statement, sentence, where, own)
    return out + _subjects_crossed(mine, theirs, where, own)


def _subjects_crossed(mine: dict[str, dict[str, set[str]]], theirs: dict[str, dict[str, set[str]]], where: str,
                      own: str) -> list[str]:
    """Two verbs whose one subject each is swapped (reasons, may be empty).

    "X stepped down and was replaced by Y" against "Y stepped down, being replaced by X" (the passive read as "X
    replaced Y").
    """
    def one_subject(roles: dict[str, set[str]]) -> str:
        found = [a for a, r in roles.items() if "subj" in r and a not in _PRONOUN_LEMMAS]
        return found[0] if len(found) == 1 else ""

    pairs = {verb: (one_subject(args), one_subject(theirs[verb])) for verb, args in mine.items()
             if verb in theirs and verb not in _SYMMETRIC}
    pairs = {verb: (a, b) for verb, (a, b) in pairs.items() if a and b and a != b}
    out = []
    for verb, (a, b) in pairs.items():
        for verb2, (c, d) in pairs.items():
            if verb < verb2 and (a, b) == (d, c):
                out.append(f"role reversal: {own} has '{a}' {verb} and '{b}' {verb2}, {where} '{b}' {verb} and "
                           f"'{a}' {verb2}")
    return out


_NOT_PATIENTS = frozenset({"subj", "pred", "prep:with", "prep:through", "prep:via"})
"""Roles that are no reversed subject: "Stella made an impact with his paintings" / "his paintings made an impact"."""


def _half_reversed(verb: str, mine: dict[str, set[str]], theirs: dict[str, set[str]], statement: Facts,
                   sentence: Facts, where: str, own: str) -> list[str]:
    """One side of a swap of the verb's roles, or a name moved from one role to another (reasons, may be empty).

    The sentence's one subject of the verb is the statement's object, or the statement's one
    subject is the sentence's object, and the two name different subjects ("Escalante threatened the principal" /
    "he was threatened by the principal"); or a name in one role of the verb in the sentence sits elsewhere in the
    statement, which puts another name in that role ("from Boeing" / "from the FAA", with "FAA employees").
    """
    my_subjects = {a for a, r in mine.items() if "subj" in r and a not in _PRONOUN_LEMMAS}
    their_subjects = {a for a, r in theirs.items() if "subj" in r}
    if len(my_subjects) == 1 and len(their_subjects) == 1 and not my_subjects & their_subjects:
        (subject,), (their_subject,) = my_subjects, their_subjects
        if mine.get(their_subject, set()) - _NOT_PATIENTS:
            return [f"role reversal: {own} has '{subject}' {verb} '{their_subject}', {where} has '{their_subject}' "
                    f"{verb} (the subject)"]
        if theirs.get(subject, set()) - _NOT_PATIENTS and not mine.get(subject, set()) - _NOT_PATIENTS:
            return [f"role reversal: {own} has '{subject}' {verb} (the subject), {where} has '{their_subject}' "
                    f"{verb} '{subject}'"]
    words = {lemma for lemma, _ in statement.lemmas}
    out = []
    for role in {r for rs in mine.values() for r in rs if r != "subj"}:
        names = [a for a, r in mine.items() if role in r and _lemma_pos(statement, a) == "PROPN"]
        rivals = [b for b, r in theirs.items() if role in r and _lemma_pos(sentence, b) == "PROPN"
                  and b not in mine and b in words]
        if len(names) != 1 or len(rivals) != 1 or names[0] in _lemma_set(sentence) or any(
                {names[0], rivals[0]} <= _entity_words(e) for e, _ in [*statement.entities, *sentence.entities]):
            continue  # not one name each, or both words of one name ("Patient Protection ... Act")
        out.append(f"role reversal: {own} has {verb} {role.removeprefix('prep:')} '{names[0]}', {where} "
                   f"{verb} {role.removeprefix('prep:')} '{rivals[0]}' (which {own} names elsewhere)")
    return out


def polarity_conflicts(statement: Facts, sentences: Sequence[tuple[Facts, str]], own: str = "the statement",
                       ) -> list[str]:
    """The same verb with the same subject or object, negated on one side only, in any of the given sentences.

    "the recreation center was eventually built" against "the recreation center was never built" in a sentence
    that is not the best match. No conflict when one of the sentences states the triple with the statement's own
    polarity (the context says both).
    """
    out: list[str] = []
    for verb, role, argument in statement.roles:
        if role not in ("subj", "obj") or argument in _PRONOUN_LEMMAS or not argument.isalpha() or verb == "be":
            continue
        mine = verb in statement.negated
        same = [(facts, where) for facts, where in sentences  # subject or object: parses of passives differ
                if (verb, "subj", argument) in facts.roles or (verb, "obj", argument) in facts.roles]
        if same and all((verb in facts.negated) != mine for facts, _ in same):
            where = same[0][1]
            out.append(f"negation: {own} {'negates' if mine else 'affirms'} '{verb}' of '{argument}', {where} "
                       f"{'affirms' if mine else 'negates'} it")
    return list(dict.fromkeys(out))


def modifier_conflicts(statement: Facts, sentences: Sequence[tuple[Facts, str]], own: str = "the statement",
                       ) -> list[str]:
    """An adverb or adjective against its antonym in a sentence with the same verb and object or preposition.

    "has been correctly attributed to Jefferson" against "has been incorrectly attributed to Jefferson" in a
    sentence that is not the best match. No conflict where that sentence also has the statement's word.
    """
    out: list[str] = []
    mine = _lemma_set(statement)
    modifiers = [(lemma, pos) for lemma, pos in statement.lemmas if pos in ("ADV", "ADJ")]
    for verb, role, argument in statement.roles:
        if role == "subj" or argument in _PRONOUN_LEMMAS or not argument.isalpha() or verb == "be":
            continue
        for facts, where in sentences:
            if (verb, role, argument) not in facts.roles:
                continue
            theirs = _lemma_set(facts)
            for lemma, pos in modifiers:
                rivals = sorted(o for o in antonyms(lemma) & theirs if o not in mine
                                and _lemma_pos(facts, o) == pos) if lemma not in theirs else []
                if rivals and (lemma in statement.negated) == (rivals[0] in facts.negated):
                    out.append(f"antonym '{lemma}' vs '{rivals[0]}' in {where} (the same '{verb}' of '{argument}')")
    return list(dict.fromkeys(out))


def _overlap(a: Sequence[str], b: Sequence[str]) -> float:
    return len(set(a) & set(b)) / min(len(set(a)), len(set(b))) if a and b else 0.0


def causes_reversed(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Cause and effect swapped: the statement's cause is the sentence's effect and the reverse."""
    out = []
    for cause, effect in statement.causes:
        for cause2, effect2 in sentence.causes:
            crossed = min(_overlap(cause, effect2), _overlap(effect, cause2))
            straight = min(_overlap(cause, cause2), _overlap(effect, effect2))
            if crossed >= 0.6 and crossed > straight:
                out.append(f"causal reversal: {own} makes '{' '.join(cause)}' the cause of '{' '.join(effect)}', "
                           f"{where} the reverse")
    return out


_QUANTIFIER_CLASHES = {("none", "all"), ("all", "none"), ("only", "all"), ("none", "some"), ("some", "none"),
                       ("few", "most"), ("most", "few"), ("few", "all"), ("all", "few"), ("most", "none"),
                       ("none", "most"), ("few", "none"), ("none", "few")}


def quantifiers_elsewhere(statement: Facts, sentences: Sequence[tuple[Facts, str]], own: str = "the statement",
                          ) -> list[str]:
    """Quantifier clashes with another sentence that says the same verb of the same noun.

    "only a few tribes believe" against "All Indian tribes believe", the statement matched to another sentence.
    """
    nouns = {noun for noun, _ in statement.quantifiers}
    out: list[str] = []
    for facts, where in sentences:
        shared = {a for v, r, a in statement.roles if a in nouns and (v, r, a) in facts.roles}
        if shared:  # only the quantifiers of the nouns the two say the same verb of
            said = statement._replace(quantifiers=tuple(q for q in statement.quantifiers if q[0] in shared))
            out += quantifier_conflicts(said, facts, where, own)
    return list(dict.fromkeys(out))


def obligation_conflicts(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """An obligation against its absence: "must V" where the sentence says "does not have to V", or the reverse."""
    theirs = {(verb, kind) for verb, kind in sentence.modals}
    out = [f"modality: {own} says '{verb}' is {'required' if kind == 'necessary' else 'optional'}, {where} "
           f"{'that it need not be' if kind == 'necessary' else 'that it must be'}"
           for verb, kind in statement.modals if kind in ("necessary", "optional")
           and (verb, "optional" if kind == "necessary" else "necessary") in theirs and (verb, kind) not in theirs]
    return list(dict.fromkeys(out))


_QUANTITY_WORDS = frozenset({"all", "some", "none", "no", "most", "least", "few", "many", "more", "less", "fewer",
                             "several", "every", "each"})
"""Quantifier and degree words: no predicate antonyms ("only a few" / "most", with "the least enjoyable" on both)."""


def quantifier_conflicts(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Quantifiers that clash on the same noun.

    "no N" vs "all N", "only N" vs "all N", "some N" vs "no N", "(only a) few N" vs "most N" or "all N".
    """
    theirs: dict[str, set[str]] = {}
    for noun, kind in sentence.quantifiers:
        theirs.setdefault(noun, set()).add(kind)
    out: list[str] = []
    mine_lemmas, their_lemmas = _lemma_set(statement), _lemma_set(sentence)
    words = mine_lemmas - _QUANTITY_WORDS
    if any(o in antonyms(lemma) for lemma in words for o in their_lemmas - mine_lemmas - _QUANTITY_WORDS):
        return out  # "none ... positive" for "all ... negative": the quantifier and the predicate both flip
    for noun, kind in statement.quantifiers:
        other = theirs.get(noun, set())
        if kind in other:
            continue
        clash = sorted(k for k in other if (kind, k) in _QUANTIFIER_CLASHES)
        if clash:
            out.append(f"quantifier: {own} says '{kind} {noun}', {where} '{clash[0]} {noun}'")
    return out


def overgeneralised(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Unsupported strengthening: "all N" where the sentence says "some N"; "must/will" where it says "may"."""
    theirs: dict[str, set[str]] = {}
    for noun, kind in sentence.quantifiers:
        theirs.setdefault(noun, set()).add(kind)
    out = [f"quantifier: {own} says 'all {noun}', {where} only 'some {noun}'" for noun, kind in statement.quantifiers
           if kind == "all" and theirs.get(noun) in ({"some"}, {"most"}, {"some", "most"})]
    possible = {verb for verb, kind in sentence.modals if kind in ("possible", "optional")}
    necessary = {verb for verb, kind in sentence.modals if kind == "necessary"}
    out += [f"modality: {own} says '{verb}' is certain (must/will), {where} only possible (may/can)"
            for verb, kind in statement.modals if kind == "necessary" and verb in possible and verb not in necessary]
    return list(dict.fromkeys(out))


_MONEY_UNITS = frozenset({"$", "€", "£", "¥", "dollar", "euro", "cent", "usd", "eur", "gbp", "buck", "yen"})


def price_for_free(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """A price where the sentence says "free" (or "free" where it gives a price): a contradiction."""
    mine, theirs = _lemma_set(statement), _lemma_set(sentence)
    priced = [n for n in statement.numbers if n[2] in _MONEY_UNITS]
    their_price = [n for n in sentence.numbers if n[2] in _MONEY_UNITS]
    if priced and "free" in theirs and "free" not in mine and "free" not in sentence.negated:
        return [f"price: {own} gives {_number(priced[0])}, {where} says free"]
    if their_price and "free" in mine and "free" not in theirs and "free" not in statement.negated:
        return [f"price: {own} says free, {where} gives {_number(their_price[0])}"]
    return []


def differences(statement: Facts, sentence: Facts, pool: Pool, where: str, text: str = "", matched: bool = False,
                others: Sequence[tuple[Facts, float]] | None = None, score: float = 0.0,
                ) -> tuple[list[str], list[str], list[str]]:
    """(contradicted, unsupported, cannot tell) reasons from the statement's numbers and named entities.

    A number or entity the pool has anywhere is fine (an entity also as an alias: the same country, an acronym of a
    name there); a number the sum or difference of two of the pool's is "cannot tell" (arithmetic the checks do not
    verify); one it lacks contradicts when the matched sentence has a comparable one (same unit / year / entity
    type) the statement does not, is "cannot tell" when the statement's ``text`` says it was computed and one step
    from the sentence's numbers gives it (``_computed``), else it is unsupported. ``matched`` (the statement has a
    matching sentence): precision first, a number, entity, name or noun the pool lacks without a conflicting
    counterpart in that sentence is "cannot tell" with the reason, never unsupported on its own. An entity whose
    missing words are short forms of names there ("UC" for "University of California") is an alias; one whose missing
    words share a stem with words there ("Marian" / "Marius", "Brazil" / "Brazilian") is "cannot tell".

    ``others`` (the other sentences with their match ``score``s, given for a strong match): a number the pool has
    only outside the matched sentence, where that sentence gives a comparable one the statement lacks ("adopted the
    dollar in 2001" against "... in 2000"; 2001 elsewhere), contradicts when every sentence holding it matches the
    statement at least ``ALIGN_MARGIN`` worse (it is about something else); else it is "cannot tell". The same for a
    named entity where the matched sentence names another of its type (``_misplaced_entity``).
    """
    missing: list[str] = []  # unsupported without a matched sentence, "cannot tell" with one
    contradicted: list[str] = []
    unsupported: list[str] = []
    undecided: list[str] = []
    for k, n in enumerate(statement.numbers):
        exact = (n[0], n[1], n[2], False)
        own = [m for j, m in enumerate(statement.numbers) if j != k]
        # a hedged number ("about 8.6 million") is near a number only when the statement does not give that one itself
        near = [m for m in pool.numbers if not any(_matches((o[0], o[1], o[2], False), (m[0], m[1], m[2], False))
                                                     for o in own)]
        if _present(exact, pool.numbers) or _present(n, near):
            if others is not None and not n[3] and not (_present(exact, sentence.numbers)
                                                         or _present(n, sentence.numbers)
                                                         or _arithmetic(n, sentence.numbers)):
                misplaced = _misplaced(n, statement, sentence, others, score, where)
                if misplaced:
                    (contradicted if misplaced.startswith("number") else undecided).append(misplaced)
            continue
        derived = _arithmetic(n, pool.numbers)
        rivals = [m for m in sentence.numbers if _comparable(n, m) and not any(_matches(m, k) for k in
                                                                              statement.numbers)]
        lowered = text.lower()
        if derived and matched and rivals and not (_TOTAL.search(lowered) or _COMPUTING.search(lowered)
                                                   or _RELATIVE.search(lowered)):
            contradicted.append(f"number {_number(n)} vs {', '.join(_number(m) for m in rivals)} in {where} (the "
                                f"statement says nothing of computing it, though {derived} gives it)")
            continue
        if derived:
            undecided.append(f"cannot tell: {_number(n)} may be computed ({derived}); arithmetic is not checked")
            continue
        computed = _computed(n, text, sentence, pool.numbers) if not rivals else ""
        converted = _per_unit(n, text, sentence, rivals)
        if converted:
            undecided.append(f"cannot tell: {converted}")
            continue
        clocks = [m for m in pool.numbers if n[2] in _CLOCKS and m[2] in _CLOCKS]
        addends = [m for m in sentence.numbers if m[0] == m[1] and not _year(m) and m[2] not in _CLOCKS]
        elsewhere = (_covered_rivals(n, statement, others) or _unit_rivals(n, statement, others, score)
                     ) if not rivals and not computed else []
        if rivals:
            contradicted.append(f"number {_number(n)} vs {', '.join(_number(m) for m in rivals)} in {where}")
        elif elsewhere:
            contradicted.append(f"number {_number(n)} vs {', '.join(_number(m) for m in elsewhere)} in another "
                                f"sentence of the {pool_name(where)} (the statement's words, or its counted unit)")
        elif computed:
            undecided.append(f"cannot tell: {_number(n)} may be computed ({computed}); arithmetic is not checked")
        elif clocks:  # the context gives other times (a header line): a time it lacks conflicts with them
            unsupported.append(f"number {_number(n)} is not in the {pool_name(where)}, which gives "
                               f"{', '.join(dict.fromkeys(_number(m) for m in clocks[:3]))}")
        elif _TOTAL.search(text.lower()) and len(addends) >= 2 and n[0] == n[1] and not _year(n):
            unsupported.append(f"number {_number(n)} is not in the {pool_name(where)}, nor the sum of "
                               f"{' + '.join(_number(m) for m in addends[:4])} in {where}")
        else:
            missing.append(f"number {_number(n)} is not in the {pool_name(where)}")
    statement_words = set().union(*(_entity_words(e) for e, _ in statement.entities)) if statement.entities else set()
    for entity, label in statement.entities:
        needed = _entity_words(entity)
        if not needed or needed <= pool.words:
            if needed and others is not None and label != "PROPN":
                misplaced = _misplaced_entity(entity, label, statement, sentence, others, score, where)
                if misplaced:
                    (contradicted if misplaced.startswith("entity") else undecided).append(misplaced)
            continue
        alias = quantities.alias_in(entity, pool.names)
        if " " not in entity and quantities.demonym_places(entity) & pool.words:
            continue  # "American" for "... of USA"
        if alias is not None or all(any(quantities.acronym_of(w, name) for name in pool.names)
                                    for w in needed - pool.words):
            continue
        stems = {w: _stem_in(w, pool.words) for w in needed - pool.words}
        if all(stems.values()):
            undecided.append(f"cannot tell: '{entity}' may be another form of "
                             f"{', '.join(repr(v) for v in stems.values())} in the {pool_name(where)}")
            continue
        rival_names = [e for e, lab in sentence.entities if (_group(lab) == _group(label) or "PROPN" in (lab, label))
                       and not _entity_words(e) <= statement_words and _entity_words(e)]
        rival_names.sort(key=lambda e: -len(_entity_words(e) & needed))
        head = entity.split()[-1] if entity.split() else ""
        if rival_names:
            contradicted.append(f"entity '{entity}' vs '{rival_names[0]}' in {where}")
        elif len(entity.split()) > 1 and (head, "NOUN") in sentence.lemmas:
            undecided.append(f"cannot tell: '{entity}' may be what {where} calls 'the {head}'")
        elif label == "PERSON" and len(entity.split()) > 1 and head.lower() in pool.words \
                and head.lower() not in needed - pool.words:
            undecided.append(f"cannot tell: '{entity}' may be the '{head}' of the {pool_name(where)} (a first name "
                             "it does not give)")
        else:  # a name the whole context lacks, in none of its forms: unsupported even with a matched sentence
            unsupported.append(f"entity '{entity}' is not in the {pool_name(where)}")
    for why, lemma in _swapped_nouns(statement, sentence, pool, where):
        slot = _same_slot(lemma, statement, sentence)  # "made by the liver" / "by the pancreas", or a synonym
        missing.append(f"{why}; the same role: {slot} (another noun, or another word for it)" if slot else why)
    named = {w for e, _ in statement.entities for w in _entity_words(e)}
    for lemma, pos in statement.lemmas:
        if pos == "PROPN" and lemma.isalpha() and lemma not in pool.words and lemma not in named \
                and lemma not in _MONTH_NAMES and quantities.alias_in(lemma, pool.names) is None:
            missing.append(f"name '{lemma}' is not in the {pool_name(where)}")
    if matched:
        undecided += [f"cannot tell: {why}, and {where} gives no conflicting counterpart" for why in missing]
    else:
        unsupported += missing
    return contradicted, unsupported, undecided


def _covered_rivals(n: tuple[float, float, str, bool], statement: Facts,
                    others: Sequence[tuple[Facts, float]] | None) -> list[tuple[float, float, str, bool]]:
    """The comparable numbers of another sentence whose content words the statement all repeats, n lacking there.

    "South Africa was officially colonised in 1625, while also experiencing migrations" matches the migration
    sentence; "South Africa was officially colonised in 1652." is another, said word for word but for its year.
    """
    if not others:
        return []
    mine = {lemma for lemma, _ in statement.lemmas}
    out = []
    for facts, _ in others:
        words = {lemma for lemma, pos in facts.lemmas if pos != "NUM"}
        if len(words) < 3 or not words <= mine or any(_matches(n, m) for m in facts.numbers):
            continue
        out += [m for m in facts.numbers if _comparable(n, m) and not any(_matches(m, k) for k in statement.numbers)]
    return list(dict.fromkeys(out))


def _unit_rivals(n: tuple[float, float, str, bool], statement: Facts, others: Sequence[tuple[Facts, float]] | None,
                 score: float) -> list[tuple[float, float, str, bool]]:
    """The one number of n's own counted unit in the other sentences that match about as well as the matched one.

    "some two million enslaved people" matches the sentence of the proclamation; "These three million enslaved
    people were declared free" is the next one. Only a unit that is a noun counted ("people", "gender"), never a
    year, a share or a bare number; only when exactly one such number is there.
    """
    if not others or not n[2] or n[2] in ("%", "month") or _year(n) or n[2] in _MONEY_UNITS:
        return []
    found = list(dict.fromkeys(m for facts, s in others if s >= score - ALIGN_MARGIN for m in facts.numbers
                               if m[2] == n[2] and not _year(m) and not any(_matches(m, k) for k in statement.numbers)))
    return found if len(found) == 1 else []


ALIGN_MARGIN = 0.15
"""How much worse than the matched sentence every sentence holding a number must match for it to be misplaced."""


def _misplaced(n: tuple[float, float, str, bool], statement: Facts, sentence: Facts,
               others: Sequence[tuple[Facts, float]], score: float, where: str) -> str:
    """A reason when the matched sentence gives a comparable number instead of n, which only other sentences hold.

    "number ... vs ..." (contradicted) when each sentence holding n matches ``ALIGN_MARGIN`` worse than the matched
    one; "cannot tell: ..." when one of them matches about as well (the statement may join the two); "" when the
    matched sentence has no rival for n.
    """
    rivals = [m for m in sentence.numbers if _comparable(n, m)
              and not any(_matches(m, k) or _matches(k, m) for k in statement.numbers)]
    if not rivals:
        return ""
    holders = [(facts, s) for facts, s in others if _present(n, facts.numbers)]
    near = _nearly_as_good([s for _, s in holders], score) or _joined(set(), statement, sentence, holders, n)
    if near:
        return f"cannot tell: {_number(n)} is in another sentence that {near}; {where} gives {_number(rivals[0])}"
    return (f"number {_number(n)} vs {', '.join(_number(m) for m in rivals)} in {where} ({_number(n)} is only in "
            "sentences about something else)")


def _nearly_as_good(holding: Sequence[float], score: float) -> str:
    """"matches about as well (best vs score)" when a holding sentence is within ``ALIGN_MARGIN``; "" otherwise."""
    if holding and max(holding) >= score - ALIGN_MARGIN:
        return f"matches about as well ({max(holding):.3f} vs {score:.3f})"
    return ""


def _joined(needed: set[str], statement: Facts, sentence: Facts, holders: Sequence[tuple[Facts, float]],
            number: tuple[float, float, str, bool] | None = None) -> str:
    """"also says ..." when a sentence holding the number or name shares two more content words with the statement.

    Two words or numbers of the statement outside the matched sentence, the name itself and the number checked
    ("Prussia and Austria were the strongest members", joined to the matched sentence on the German Confederation),
    or one specific number (100 or more, not a year: "five thousand a year ... the Gold Coast"): the statement joins
    the two sentences.
    """
    extra = {lemma for lemma, _ in _content(statement)} - _said(sentence) - needed
    numbers = [n for n in statement.numbers if not _present(n, sentence.numbers) and n != number]
    for facts, _ in holders:
        said = _said(facts)
        shared = sorted(w for w in extra if w in said or synonyms(w) & said or _stem_in(w, said))
        both = [n for n in numbers if any(_same_value(n[0], m[0]) and _same_value(n[1], m[1]) for m in facts.numbers)]
        shared += [_number(n) for n in both]  # "five thousand a year" there
        if len(shared) >= 2 or any(abs(n[0]) >= 100 and not _year(n) for n in both):  # a specific number: enough
            return f"also says {describe(shared[:3])} of it (the statement joins two sentences)"
    return ""


@lru_cache(maxsize=10_000)
def _common_noun(word: str) -> bool:
    """Whether WordNet has the word as a lowercase noun ("queen", "pope"; not "texas"); False without WordNet."""
    wordnet = quantities.wordnet()
    if wordnet is None:  # WordNet missing: no word is known to be a title
        return False
    return any(lemma.name() == word for synset in wordnet.synsets(word, pos="n") for lemma in synset.lemmas())


def _said(facts: Facts) -> set[str]:
    """The words of a sentence's entities and lemmas."""
    return set().union(_lemma_set(facts), *(_entity_words(e) for e, _ in facts.entities))


def _misplaced_entity(entity: str, label: str, statement: Facts, sentence: Facts,
                      others: Sequence[tuple[Facts, float]], score: float, where: str) -> str:
    """``_misplaced`` for a named entity: the matched sentence names another of its type where the statement names it.

    "used by Joe Biden in 1992" against "used by Bill Clinton in 1992" (Biden elsewhere): contradicted when each
    sentence naming it matches ``ALIGN_MARGIN`` worse; "cannot tell" when one matches about as well; "" without a
    rival of the same type (``_group``) in the matched sentence.
    """
    needed = _entity_words(entity)
    if needed <= _said(sentence):
        return ""
    mine = set().union(*(_entity_words(e) for e, _ in statement.entities))
    rivals = [e for e, lab in sentence.entities if _group(lab) == _group(label) and _entity_words(e)
              and not all(_common_noun(w) for w in _entity_words(e))  # "the Queen": a title, maybe of the name
              and not _entity_words(e) & mine and quantities.alias_in(entity, (e,)) is None
              and quantities.alias_in(e, (entity,)) is None
              and not any(quantities.acronym_of(w, entity) for w in _entity_words(e))
              and not any(quantities.acronym_of(w, e) for w in needed)]
    if not rivals:
        return ""
    holders = [(facts, s) for facts, s in others if needed <= _said(facts)]
    near = _nearly_as_good([s for _, s in holders], score) or _joined(needed, statement, sentence, holders)
    if near:
        return f"cannot tell: '{entity}' is in another sentence that {near}; {where} names '{rivals[0]}'"
    return f"entity '{entity}' vs '{rivals[0]}' in {where} ('{entity}' is only in sentences about something else)"


def _stem_in(word: str, pool_words: Iterable[str]) -> str:
    """A pool word sharing a stem with a name's word ("marius" for "marian", "brazilian" for "brazil"); "" if none.

    A common prefix of 4 letters or more, at most 2 letters short of the shorter word.
    """
    if len(word) < 4 or not word.isalpha():
        return ""
    for other in pool_words:
        if other[:4] != word[:4] or not other.isalpha():
            continue
        common = len(os.path.commonprefix([word, other]))
        if common >= max(4, min(len(word), len(other)) - 2):
            return other
    return ""


_PER_UNIT = re.compile(r"\b(?:a|an|per|each|every)\s+([a-z]+)")
_PER_UNITS = ("kilogram", "pound", "gram", "ounce", "tonne", "litre", "gallon", "metre", "foot", "mile", "kilometre",
              "hour", "day", "week", "month", "year")
"""Units a price may be given per ("$1.50 a kilogram"), to convert a price per another unit to."""


def _per_unit(n: tuple[float, float, str, bool], text: str, sentence: Facts,
              rivals: Sequence[tuple[float, float, str, bool]]) -> str:
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


def _arithmetic(n: tuple[float, float, str, bool], pool: Sequence[tuple[float, float, str, bool]]) -> str:
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
"""Words that say a number was computed in another way ("3 times a day", "twice as many", "shrank by")."""
_RELATIVE = re.compile(r"\b(?:more|fewer|less|than|after|later|earlier|before|ago|since|between|from|up|down|"
                       r"another|extra|additional|remaining|left|rest|other|besides|plus|minus|over|under)\b")
"""Words by which a number may be told relative to another ("5 more", "two years later"): arithmetic may give it."""
_PER = {"per hour": 3600.0, "per day": 86400.0, "per week": 604800.0, "per year": 31557600.0}


def _computed(n: tuple[float, float, str, bool], text: str, sentence: Facts,
              pool: Sequence[tuple[float, float, str, bool]]) -> str:
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
    values = [m for m in sentence.numbers if m[0] == m[1] and not _year(m)
              and m[2] not in (quantities.CLOCK, quantities.CLOCK12)][:20]
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
            options = []
            if total and (a[2] == b[2] or a[2] not in _BASE_UNITS and b[2] not in _BASE_UNITS):
                options.append((a[0] + b[0], "+"))
            if computing:
                options += [(a[0] * b[0], "×"), (a[0] / b[0], "/"), (b[0] / a[0], "/"), (100 * a[0] / b[0], "% of"),
                            (100 * b[0] / a[0], "% of")] + ([(abs(a[0] - b[0]), "-")] if a[2] == b[2] else [])
            for result, op in options:
                if close(result):
                    return f"{_number(a)} {op} {_number(b)} = {result:.4g}"
    return ""


def _content(facts: Facts) -> list[tuple[str, str]]:
    return [(lemma, pos) for lemma, pos in facts.lemmas if pos in ("NOUN", "PROPN", "ADJ", "VERB")
            and lemma not in ("be", "have", "do") and len(lemma) > 1 and lemma.isalpha()]


_GENERIC_NOUNS = frozenset({"people", "person", "individual", "someone", "thing", "way", "one", "part", "kind", "type"})


def _swapped_nouns(statement: Facts, sentence: Facts, pool: Pool, where: str) -> list[tuple[str, str]]:
    """(reason, noun) of a noun the pool lacks (nor a WordNet synonym) where the sentence has another ("liver").

    "liver" for "pancreas". Only in a statement otherwise like the sentence (60 % of its content words there).
    """
    content = _content(statement)
    theirs = {lemma for lemma, _ in sentence.lemmas}
    if not content or sum(lemma in theirs for lemma, _ in content) < 0.6 * len(content):
        return []
    mine = {lemma for lemma, _ in statement.lemmas}
    others = [lemma for lemma, pos in sentence.lemmas if pos == "NOUN" and lemma not in mine
              and not synonyms(lemma) & mine]
    out = []
    for lemma, pos in content:
        if pos == "NOUN" and lemma not in pool.words and not synonyms(lemma) & pool.words and others \
                and lemma not in _GENERIC_NOUNS and not antonyms(lemma) & theirs:  # an antonym: checked apart
            out.append((f"'{lemma}' is not in the {pool_name(where)} ({where} has '{others[0]}')", lemma))
    return out


def _same_slot(lemma: str, statement: Facts, sentence: Facts) -> str:
    """The verb and role a noun fills where the sentence fills them with another noun ("produce agent"); "" if none.

    The other noun is a common noun the statement lacks, outside the sentence's names ("'produce' agent: 'liver' vs
    'pancreas'").
    """
    mine = {lemma for lemma, _ in statement.lemmas}
    named = {w for e, _ in sentence.entities for w in _entity_words(e)}  # "the Department of Education": a name
    for verb, role, argument in statement.roles:
        if argument != lemma or verb in ("be", "have"):
            continue
        rivals = [a for v, r, a in sentence.roles if v == verb and r == role and a != lemma and a not in mine
                  and a not in _PRONOUN_LEMMAS and a not in named and _lemma_pos(sentence, a) == "NOUN"]
        if rivals:
            return f"'{verb}' {role}: '{lemma}' vs '{rivals[0]}'"
    return ""


def pool_name(where: str) -> str:
    """The pool a place belongs to: "answer" for answer statements, else "context"."""
    return "answer" if where.startswith("the answer") else "context"


def missing_content(fact: Facts, pool: Pool, share: float) -> list[str]:
    """Content nouns, verbs and adjectives of a fact the pool lacks, when more than ``1 - share`` of them are."""
    content = [lemma for lemma, pos in fact.lemmas if pos in ("NOUN", "PROPN", "ADJ", "VERB") and lemma not in
               ("be", "have", "do") and len(lemma) > 1 and lemma.isalpha()]
    absent = [lemma for lemma in content if lemma not in pool.words and not (words(lemma) <= pool.words)
              and not synonyms(lemma) & pool.words and not {lemma + "s", lemma + "es"} & pool.words]  # "Slave Forts":
    # a capitalised plural is a proper noun's own lemma
    if content and len(absent) > (1 - share) * len(content) + 1e-9:
        return absent
    return []


PART_MATCH = 0.5
"""Below this cosine to every context sentence an added clause matches nothing there."""


def unsupported_part(part: str, similarity: float, pool: Pool) -> str:
    """A reason when an added clause of a matched statement is in the context neither as a sentence nor in words.

    "..., which the countries repaid by 1960": the clause's best cosine to a context sentence is below
    ``PART_MATCH``, it has at least three content words and at most a third of them (or their WordNet synonyms) are
    in the context; "" otherwise (precision first: a clause said in other words stays with the statement's verdict).
    """
    from spacy.lang.en.stop_words import STOP_WORDS

    content = [w for w in re.findall(r"[a-z]+", part.lower()) if len(w) > 2 and w not in STOP_WORDS
               and quantities.unit(w) is None]  # "10,000 pounds": units are the number checks' part
    if similarity >= PART_MATCH or len(content) < 3:
        return ""
    if statements.is_hedge(part):  # "If I remember the figures right, ..."
        return ""
    absent = [w for w in content if w not in pool.words and not synonyms(w) & pool.words]
    if absent and len(absent) * 3 >= 2 * len(content):  # "the District of Columbia" for the context's "D.C."
        aliased = frozenset().union(*(quantities.abbreviation_words(name) for name in pool.names))
        absent = [w for w in absent if w not in aliased]
    if len(absent) * 3 < 2 * len(content):
        return ""
    return (f"the added clause '{part}' matches no sentence of the context (best {similarity:.3f} < {PART_MATCH:g}) "
            f"and its words {describe(absent)} are not in it")


def describe(units: Sequence[str]) -> str:
    """A quoted, comma-separated list."""
    return ", ".join(f"'{u}'" for u in units)


_REFUSAL = re.compile(
    r"\b(?:i|we)(?: am|'m)? (?:do not|don't|cannot|can't|can not|am unable to|'m unable to|unable to|am not able to|"
    r"'m not able to|won't|will not|not able to|have no way to) (?:know|answer|help|provide|say|tell|assist|comment|"
    r"share|find|determine|give|answer that|respond)\b"
    r"|\b(?:sorry|apologi[sz]e)\b.{0,40}\b(?:can't|cannot|unable|not able|don't|do not)\b"
    r"|\bas an (?:ai|artificial intelligence|language model)\b"
    r"|\b(?:the )?(?:provided |given |available )?(?:context|passages?|documents?|sources?|information|text) "
    r"(?:does not|doesn't|do not|don't|did not) (?:contain|provide|mention|include|say|specify|answer|cover|give)"
    r"|\bthere (?:is|was|are) no (?:relevant |specific |available )?(?:information|mention|data|details) "
    r"(?:about|on|regarding|of|for)\b"
    r"|\bno (?:relevant )?(?:information|answer|data|details) (?:is |are |was )?(?:available|provided|given|found)"
    r"|\bi have no (?:information|idea|knowledge|data)\b|\bi (?:don't|do not) have (?:enough |any )?(?:information|"
    r"data|access|knowledge)|\b(?:i'm|i am) not (?:sure|certain|aware)\b|^i don't know\b|^no idea\b",
    re.IGNORECASE)
_EVASION = re.compile(
    r"\b(?:that's|that is|what) an? (?:great|good|interesting|excellent|important) question\b"
    r"|\bit (?:all |really |simply )?depends(?: on (?:many|various|several|a (?:number|variety|lot) of) "
    r"(?:factors|things|circumstances))?\s*[.!]?$"
    r"|\b(?:there are|there is) (?:many|various|several|a lot of|lots of|numerous) (?:factors|things|aspects|"
    r"opinions|views|perspectives|ways to look at|considerations)\b(?: to consider| involved| at play)?\s*[.!]?$"
    r"|\b(?:hard|difficult|impossible|not easy) to (?:say|tell|answer|know|determine|predict|judge|estimate)\b"
    r"|\b(?:i hope this helps|hope (?:this|that) helps|let me know if|feel free to|happy to help|glad to help)\b"
    r"|\b(?:everyone|people|experts) (?:has|have) (?:their own|different|differing|varying) (?:opinions?|views?)\b"
    r"|\b(?:that's|that is|it's|it is) an? (?:complex|complicated|tricky|difficult|broad) (?:question|topic|issue|"
    r"subject|matter)\b|\bthe answer (?:varies|is not (?:simple|straightforward|clear))\b",
    re.IGNORECASE)


def refusal(text: str) -> str | None:
    """The kind of non-answer a statement is ("refusal" or "evasion", by patterns), None for an answer."""
    if _REFUSAL.search(text):
        return "refusal"
    if _EVASION.search(text.strip()):
        return "evasion"
    return None
