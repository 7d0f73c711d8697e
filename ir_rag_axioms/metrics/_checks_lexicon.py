"""Words the checks share: WordNet antonyms and synonyms, the words of a text and of a name, the pool of a text.

Antonyms come from WordNet (the loader REG and STMC use) plus a few pairs WordNet lacks; ``Pool`` holds everything
a text (the context, or the answer) says, for "is it anywhere" checks.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ir_rag_axioms.metrics import quantities
from ir_rag_axioms.metrics.statements import Facts

_EXTRA_ANTONYMS = (("before", "after"), ("above", "below"), ("more", "less"), ("most", "least"),
                   ("increase", "decrease"), ("rise", "fall"), ("gain", "lose"), ("inside", "outside"),
                   ("first", "last"), ("always", "never"), ("east", "west"), ("north", "south"), ("maximum", "minimum"),
                   ("close", "far"), ("near", "far"), ("import", "export"), ("higher", "lower"), ("success", "failure"),
                   ("benefit", "harm"), ("safe", "dangerous"), ("increase", "reduce"), ("raise", "lower"),
                   ("soon", "late"))
_WORDNET_POS = {"ADJ": ("a", "s"), "ADV": ("r",), "VERB": ("v",), "NOUN": ("n",)}
_PLACES = frozenset({"GPE", "LOC", "FAC"})
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


def fold(text: str) -> str:
    """Lowercased, without diacritics ("Zürich" -> "zurich"); a character without a decomposition stays.

    Unlike the verifier's ``signals.fold`` (its features as fitted), "Ma’aden" splits at "’" as "Ma'aden" does at "'".
    """
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def words(text: str) -> frozenset[str]:
    """Folded alphanumeric words of a text ("%" counts as "percent"; "u.s." also as "us"; "Zürich" as "zurich")."""
    found = set(re.findall(r"[a-z0-9]+", fold(text)))
    found |= set(re.findall(r"[a-z0-9]+", _undotted(fold(text))))
    found |= {f"{quantities.number_word_value(w):g}" for w in found if quantities.number_word_value(w) is not None}
    return frozenset(found | {"percent"} if "%" in text else found)


def _entity_words(entity: str) -> set[str]:
    """The folded words of an entity, number words as digits ("world war two" -> world, war, 2; "zürich" -> zurich)."""
    found = set(re.findall(r"[a-z0-9]+", re.sub(r"['’]s\b", "", _undotted(fold(entity))))) - _STOP  # "the house's"
    return {f"{quantities.number_word_value(w):g}" if quantities.number_word_value(w) is not None else w
            for w in found}


def _group(label: str) -> str:
    return "place" if label in _PLACES else label


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
        read = tuple(n for f in facts for n in f.numbers)
        told = {v for n in read if n[2] in quantities.CURRENCIES.values() for v in n[:2]}  # "25,000" of "¥25,000"
        clocks = tuple((v, v, kind, False) for text in raw for v, kind in
                       [*quantities.clock_times_in(text), *quantities.numbers_in(text)] if kind or v not in told)
        return cls(frozenset().union(lemmas, *(words(t) for t in [*texts, *raw])), read + clocks, names)


def _lemma_pos(facts: Facts, lemma: str) -> str:
    return next((pos for other, pos in facts.lemmas if other == lemma), "")


def _lemma_set(facts: Facts) -> set[str]:
    return {lemma for lemma, _ in facts.lemmas}


_PRONOUN_LEMMAS = frozenset({"they", "he", "she", "it", "we", "you", "i", "them", "him", "her", "us", "-pron-"})


@lru_cache(maxsize=10_000)
def _common_noun(word: str) -> bool:
    """Whether WordNet has the word as a lowercase noun ("queen", "pope"; not "texas"); False without WordNet."""
    wordnet = quantities.wordnet()
    if wordnet is None:  # WordNet missing: no word is known to be a title
        return False
    return any(lemma.name() == word for synset in wordnet.synsets(word, pos="n") for lemma in synset.lemmas())


def _said(facts: Facts) -> set[str]:
    """The words of a sentence's entities and lemmas."""
    return set().union(map(fold, _lemma_set(facts)), *(_entity_words(e) for e, _ in facts.entities))


_ENDINGS = frozenset(("", *"s es a e i n an ans ian ians ean eans ic ism ist ists us".split()))
"""What may follow the stem a person's name shares with its forms ("victoria-n", "darwin-ism", "mari-an" / "mari-us");
"harr-y" / "harr-is" ends otherwise, so Harry is not a form of Harris."""


def _stem_in(word: str, pool_words: Iterable[str], person: bool = False) -> str:
    """A pool word sharing a stem with a word ("marius" for "marian", "brazilian" for "brazil"); "" if none.

    A common prefix of 4 letters or more, at most 2 letters short of the shorter word, and for a ``person``'s name
    each word ending in one of ``_ENDINGS`` after it; the first such word in sorted order (the same in every process,
    whatever the hash seed).
    """
    if len(word) < 4 or not word.isalpha():
        return ""
    for other in sorted(pool_words):
        if other[:4] != word[:4] or not other.isalpha():
            continue
        common = len(os.path.commonprefix([word, other]))
        ends = {word[common:], other[common:]}
        if common >= max(4, min(len(word), len(other)) - 2) and (not person or ends <= _ENDINGS):
            return other
    return ""


def _content(facts: Facts) -> list[tuple[str, str]]:
    return [(lemma, pos) for lemma, pos in facts.lemmas if pos in ("NOUN", "PROPN", "ADJ", "VERB")
            and lemma not in ("be", "have", "do") and len(lemma) > 1 and lemma.isalpha()]


def pool_name(where: str) -> str:
    """The pool a place belongs to: "answer" for answer statements, else "context"."""
    return "answer" if where.startswith("the answer") else "context"


def describe(units: Sequence[str]) -> str:
    """A quoted, comma-separated list."""
    return ", ".join(f"'{u}'" for u in units)
