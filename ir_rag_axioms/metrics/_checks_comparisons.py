"""Contradictions in words: negation, antonyms, comparisons and superlatives flipped, trends reversed.

``contradictions`` is the checks' entry for one statement against one sentence: it adds the structural checks
(``_checks_roles.py``: obligations, a price for "free") to its own.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ir_rag_axioms.metrics import quantities
from ir_rag_axioms.metrics._checks_lexicon import (
    _PRONOUN_LEMMAS,
    _WORDNET_POS,
    _lemma_pos,
    _lemma_set,
    antonyms,
    synonyms,
)
from ir_rag_axioms.metrics._checks_numbers import _present, _same_value
from ir_rag_axioms.metrics._checks_roles import obligation_conflicts, price_for_free
from ir_rag_axioms.metrics.statements import Facts


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
    mine, theirs = _lemma_set(statement), _lemma_set(sentence)
    out = _negations(statement, sentence, where, own, mine, theirs)
    if out and statement.negated and sentence.negated and undecided is not None and not _swapped(
            statement, sentence, mine, theirs):  # "never speaks a line of dialogue" / "has no dialogue": both
        # negate, the paraphrase moved the negation to another word ("X, not Y" / "Y, not X" stays a conflict)
        undecided += [f"cannot tell: {r} (both negate something; a paraphrase may move the negation)" for r in out]
        out = []
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
        if _comparison_decides(statement, sentence, where, lemma, undecided, correlative, paired_comparisons):
            continue
        for other in sorted(o for o in theirs - mine if o in antonyms(lemma) or lemma in antonyms(o)):
            if _antonym_pair(statement, sentence, where, lemma, pos, other, undecided, mine, flipped, degrees):
                pairs.append(f"antonym '{lemma}' vs '{other}' in {where}")
                paired.append(lemma)
    out = _combined(statement, where, undecided, correlative, out, flips, pairs, paired)
    out += trends_reversed(statement, sentence, where, own)
    out += trend_verb_reversed(statement, sentence, where, own)
    out += comparisons_by_value(statement, sentence, where, own)
    out += obligation_conflicts(statement, sentence, where, own)
    out += price_for_free(statement, sentence, where, own)
    return list(dict.fromkeys(out))


def _swapped(statement: Facts, sentence: Facts, mine: set[str], theirs: set[str]) -> bool:
    """Whether each side negates a word the other affirms ("the president, not Congress" / "Congress, not him")."""
    return any(w in theirs and w not in sentence.negated for w in statement.negated) and any(
        w in mine and w not in statement.negated for w in sentence.negated)


def _negations(statement: Facts, sentence: Facts, where: str, own: str, mine: set[str], theirs: set[str]
               ) -> list[str]:
    """The negation reasons: a lemma negated on one side and affirmed (or affirmed as a synonym) on the other."""
    out: list[str] = []
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
    return out


def _comparison_decides(statement: Facts, sentence: Facts, where: str, lemma: str, undecided: list[str] | None,
                        correlative: bool, paired_comparisons: set[str]) -> bool:
    """Whether the comparison check, not the antonym check, decides a lemma (noting the undecided comparatives)."""
    if lemma in paired_comparisons and antonyms(lemma) & paired_comparisons and not correlative:
        return True  # "lower than it is today" / "higher than it used to be": the comparison check decides
    other_side = sorted(antonyms(lemma) & {c[0] for c in sentence.comparisons if c[2] == "cmp"})
    if not correlative and other_side and any(c[0] == lemma and c[2] == "cmp" for c in statement.comparisons):
        if undecided is not None:  # two comparatives the check could not align: maybe one seen from the other side
            undecided.append(f"cannot tell: the comparative '{lemma}' and '{other_side[0]}' in {where} are not "
                             "aligned (one may state the other from the other side)")
        return True
    return False


def _antonym_pair(statement: Facts, sentence: Facts, where: str, lemma: str, pos: str, other: str,
                  undecided: list[str] | None, mine: set[str], flipped: set[str],
                  degrees: dict[str, set[str]]) -> bool:
    """Whether a lemma and its antonym in the sentence are one claim reversed (noting what cannot be told)."""
    if synonyms(other) & mine - {lemma}:
        return False  # "breaks EMTALA ... to keep hospitals from": the statement says 'violate' as 'break'
    if other in degrees.get(lemma, ()) or (
            {lemma, other} <= _DEGREE_WORDS and bool(statement.comparisons) != bool(sentence.comparisons)):
        if undecided is not None:
            undecided.append(f"cannot tell: '{lemma}' and '{other}' in {where} are a comparative and a "
                             "superlative, or a comparison read on one side only (two frames, not one "
                             "claim reversed)")
        return False
    if (lemma in statement.negated) != (other in sentence.negated) or other in flipped:
        return False
    if "NOUN" in (pos, _lemma_pos(sentence, other)) and _lemma_pos(sentence, other) != pos:
        # "reduce output" vs "an increase in tariffs": not one head, no pairing
        if undecided is not None:
            undecided.append(f"cannot tell: '{lemma}' ({pos}) and '{other}' "
                             f"({_lemma_pos(sentence, other)}) in {where} are antonyms of different "
                             "parts of speech, not one claim reversed")
        return False
    return True


def _combined(statement: Facts, where: str, undecided: list[str] | None, correlative: bool, out: list[str],
              flips: list[str], pairs: list[str], paired: list[str]) -> list[str]:
    """The negations with the flipped comparisons and antonym pairs, or "cannot tell" where together they may agree."""
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
    return out


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
    by_places = _aligned_by_places(first, other, first2, other2)
    if by_places:
        return by_places
    same = _side(first, first2) and _side(other, other2)
    swapped = bool(first and other) and _side(first, other2) and _side(other, first2)
    if same and swapped:  # the closer reading by the words that tell each comparison's sides apart
        a, b, c, d = _telling(first, other), _telling(other, first), _telling(first2, other2), _telling(other2, first2)
        straight = _jaccard(a, c) + _jaccard(b, d)
        crossed = _jaccard(a, d) + _jaccard(b, c)
        return "same" if straight > crossed else "swapped" if crossed > straight else "ambiguous"
    if same or swapped:
        return "same" if same else "swapped"
    return _half_alignment(first, other, first2, other2)


def _aligned_by_places(first: str, other: str, first2: str, other2: str) -> str:
    """"same" or "swapped" when all four sides name places that align one way only; "" otherwise."""
    places = [_places(side) for side in (first, other, first2, other2)]
    if all(places):  # "German bonds ... than Greek bonds" / "Greek bonds ... than those issued in Germany"
        p1, o1, p2, o2 = places
        if p1 & o2 and o1 & p2 and not p1 & p2 and not o1 & o2:
            return "swapped"
        if p1 & p2 and o1 & o2 and not p1 & o2 and not o1 & p2:
            return "same"
    return ""


def _half_alignment(first: str, other: str, first2: str, other2: str) -> str:
    """How two comparisons align when a side is unsaid: "swapped", "half-same", "half-swapped" or ""."""
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
        full, half = _pairings(mine, sentence, consistent, paired)
        degree = ("more" if sign > 0 else "less") if kind == "cmp" else ("most" if sign > 0 else "least")
        said = f"'{first} {degree} {adjective}{f' than {other}' if other else ''}'"
        flip_name = "comparison" if kind == "cmp" else "superlative"
        if full and not any(full) and not any(half):
            out.append(f"{flip_name} flipped: {own} says {said}, {where} the opposite")
        elif undecided is not None and ((full and not all(full)) or (half and not full and not any(half))):
            undecided.append(f"cannot tell: the {flip_name} {said} and {where}'s are not aligned (their sides or "
                             "readings differ)")
    return consistent, out


def _pairings(mine: Comparison, sentence: Facts, consistent: set[str], paired: set[str] | None
              ) -> tuple[list[bool], list[bool]]:
    """(agreement of each pairing with both sides aligned, of each half-aligned or ambiguous one) for a comparison.

    Adds the agreeing adjectives (and their words) to ``consistent`` and the aligned ones to ``paired``.
    """
    adjective, sign, kind, _, _, attribute = mine
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
    return full, half


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
