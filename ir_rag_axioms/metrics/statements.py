"""Statements read off the shared spaCy parse: sentences, bullet items, and the clauses of long sentences.

A statement is kept with its terms (lemmas without stopwords, punctuation and citation markers), its text with a
leading subject pronoun resolved to the subject of the statement before ("It has 16GB RAM" -> "The laptop has 16GB
RAM"), and the facts the heuristic judge checks (``Facts``: entities, numbers, negations, lemmas, comparisons), so the
judge needs no second parse. The feature is declared with ``Feature`` and computed by the one planner.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.text import sentences, term_tokens
from ir_rag_axioms.metrics import _structure, quantities
from ir_rag_axioms.metrics._negation import _negated
from ir_rag_axioms.metrics._numbers import _in_citation, _lemma, _numbers, _trends, _valued

FACTS_VERSION = 16
"""Bumped when ``Facts`` changes, so that stored statements of an older version are not read back."""
_CITATION = re.compile(r"\[\s*\d+(?:\s*[,;-]\s*\d+)*\s*\]")
_BULLET = re.compile(r"^\s*(?:[-*•#>]+|\d+[.)])\s*")
_SPACE = re.compile(r"\s+")
_LEADING_LINK = re.compile(r"^(?:and|but|while|whereas|so|yet)\s+", re.IGNORECASE)
_CLAUSE_LINKS = frozenset({"and", "but", "while", "whereas", "so", "yet"})
_PRONOUNS = frozenset({"it", "they", "he", "she", "this", "these", "its"})
_NUMERIC_LABELS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "DATE", "TIME"})
_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "AUX", "ADJ", "ADV", "NUM", "ADP"})
_DIRECTIONS = frozenset({"east", "west", "north", "south", "up", "down", "inside", "outside", "ahead", "behind"})
_PREPOSITIONS = frozenset({"to", "for", "with", "in", "on", "at", "from", "by", "about", "of"})
_CLOCK_WORDS = frozenset({"am", "pm", "a.m.", "p.m.", "a.m", "p.m"})


class Facts(NamedTuple):
    """What the heuristic judge checks in one statement (all lowercased lemmas or texts)."""

    entities: tuple[tuple[str, str], ...] = ()
    """(text, label) of named entities (not numbers or dates) and of proper nouns outside them (label PROPN)."""
    numbers: tuple[tuple[float, float, str, bool], ...] = ()
    """(low, high, unit, hedged) of each number, range, year or month (unit "month"); low == high for one value."""
    negated: tuple[str, ...] = ()
    """Lemmas a negation cue applies to (the verb, or a copula's complement, or the noun after "no"/"without")."""
    lemmas: tuple[tuple[str, str], ...] = ()
    """(lemma, part of speech) of the content words."""
    comparisons: tuple[tuple[str, int, str, str, str, str], ...] = ()
    """(adjective lemma, +1 more / -1 less, "cmp" or "sup", first side, than-side, attribute compared).

    The attribute is the noun a comparative modifies ("lower levels of mood": "level mood"), or the subject when the
    sides are conditions ("more likely if alone than if with a group": sides "alone" and "group people"); "" if none.
    """
    roles: tuple[tuple[str, str, str], ...] = ()
    """(verb lemma, role, argument lemma): who did what to whom, passives turned active (``_structure.roles``)."""
    modals: tuple[tuple[str, str], ...] = ()
    """(verb lemma, "possible" / "necessary") of may/can/might and must/will/always."""
    parts: tuple[str, ...] = ()
    """The texts of the statement's added clauses: relative, adverbial and participle clauses, coordinated verbs."""
    trends: tuple[tuple[float, float, str], ...] = ()
    """(from value, to value, unit) of "from A to B" ("raised from 3% to 5%": (3, 5, "%"))."""
    valued: tuple[tuple[str, float, str], ...] = ()
    """(noun phrase lemmas, value, unit) of a number in parentheses after a noun ("SABIC (15 percent)")."""

    @classmethod
    def of(cls, value: Any) -> Facts:
        """Facts from a stored value (nested lists become tuples)."""
        if value is None:
            return cls()
        fields = (tuple(_tuples(x) for x in field) for field in value)
        return cls(*fields)


def _tuples(value: Any) -> Any:
    """Nested lists as nested tuples (a stored value read back)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list | tuple) else value


_HEDGE = re.compile(r"^(?:i'm|i am|we're|we are) not (?:entirely |completely |totally |fully |100% )?(?:sure|certain)"
                    r"(?: about this)?,? but (?:(?:i|we) (?:think|believe|guess|recall)(?: that)?,?\s+"
                    r"|it (?:seems|appears)(?: that)?,?\s+)?(?:the (?:article|text|passage|report|source|author) "
                    r"(?:seems to say|says|suggests|states|claims|argues)(?: that)?,?\s+)?"
                    r"|^(?:if (?:i|we) (?:remember|recall)(?: \w+){0,3} (?:right|correctly)|if memory serves(?: me)?"
                    r"(?: right| correctly| well)?|as far as (?:i|we) (?:know|can tell|remember|recall)"
                    r"|to (?:the best of )?(?:my|our) knowledge|from what (?:i|we) (?:remember|recall|know)"
                    r"|if (?:i'm|i am|we're|we are) (?:reading|understanding) (?:this|it|that) (?:right|correctly)"
                    r"|if (?:i|we) understand (?:this |it |that )?(?:right|correctly)|unless (?:i'm|i am) mistaken),\s+"
                    r"|^(?:i|we) (?:might|may|could) be wrong,? but,?\s+|^correct me if (?:i'm|i am) wrong,? but,?\s+",
                    re.IGNORECASE)


def unhedged(text: str) -> str:
    """A hedged claim without its hedge: a claim.

    "I'm not sure, but I think it was 1975" and "If I remember right, it was 1975" -> "it was 1975".
    """
    claim = _HEDGE.sub("", text)
    return claim[:1].upper() + claim[1:] if claim != text else text


def is_hedge(text: str) -> bool:
    """Whether a clause is a hedge only ("If I remember the figures right", "as far as I know")."""
    probe = text.strip(" ,;") + ", x"
    return unhedged(probe) == "X" or bool(_HEDGE_ALONE.fullmatch(text.strip(" ,.;:").lower()))


_HEDGE_ALONE = re.compile(r"(?:but )?(?:i|we) (?:might|may|could) be (?:wrong|mistaken)|correct me if (?:i'm|i am) "
                          r"wrong|(?:i|we) (?:think|believe)(?: so)?|(?:i'm|i am|we're|we are) not "
                          r"(?:entirely |completely |totally |fully |100% )?(?:sure|certain)(?: about this)?")


def clean(text: str) -> str:
    """A statement's text without citation markers, a leading bullet, number or clause link, emphasis, extra space.

    A number with nothing after it ("206.") is an answer, not a list number: it stays.
    """
    text = _CITATION.sub("", text).replace("**", "").replace("__", "")
    bare = _BULLET.sub("", text)
    text = _SPACE.sub(" ", bare if re.search(r"\w", bare) else text).strip(" \t\n:,;")
    return unhedged(_LEADING_LINK.sub("", text))


def _pieces(sentence: Any) -> list[Any]:
    """A sentence split at line breaks (bullet items and headings are their own pieces)."""
    cuts = [t.i for t in sentence if t.is_space and "\n" in t.text or _after_abbreviation(t)]
    doc = sentence.doc
    bounds = [sentence.start]
    for cut in cuts:  # "The U.S. Army ...": no cut after a verbless fragment ("at 9:57 p.m. She ...": a cut)
        if doc[cut].is_space or any(t.pos_ in ("VERB", "AUX") for t in doc[bounds[-1]: cut]):
            bounds.append(cut)
    bounds.append(sentence.end)
    return [doc[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _after_abbreviation(token: Any) -> bool:
    """Whether a token starts a sentence the parser glued to the one before after an abbreviation ("p.m. She")."""
    if token.i == 0 or token.is_sent_start or not token.is_title:
        return False
    before = token.doc[token.i - 1]
    return bool(re.fullmatch(r"(?:[A-Za-z]{1,3}\.){2,}|[A-Z][a-z]{0,3}\.", before.text)) and (
        token.pos_ in ("PRON", "DET", "SCONJ", "CCONJ", "ADV") or token.dep_ in ("nsubj", "nsubjpass"))


def _clauses(span: Any, max_words: int) -> list[Any]:
    """A long span split before ';' and before 'and'/'but'/... that join two clauses with their own verbs."""
    if sum(not t.is_punct and not t.is_space for t in span) <= max_words:
        return [span]
    cuts = []
    for token in span:
        if token.text == ";" or (
            token.lower_ in _CLAUSE_LINKS and token.dep_ == "cc" and token.head.pos_ in ("VERB", "AUX")
            and any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and c.i > token.i for c in token.head.children)
        ):
            cuts.append(token.i)
    bounds = [span.start, *cuts, span.end]
    doc = span.doc
    return [doc[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _subject(token: Any) -> Any:
    """The subject of the clause a token is in (walking up to the verb), None if there is none."""
    for _ in range(6):
        subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass", "csubj")]
        if subjects:
            return subjects[0]
        if token.head.i == token.i:
            return None
        token = token.head
    return None


def _phrase(token: Any, before: int | None = None) -> str:
    """The content lemmas of a token's phrase ("the flashy ads" -> "flashy ad"), or its lemma.

    Only the words before index ``before`` where given (a phrase the parse runs on into the than-part).
    """
    words = [_lemma(t) for t in token.subtree if t.pos_ in ("NOUN", "PROPN", "ADJ", "NUM", "VERB")
             and t.dep_ != "relcl" and t.lemma_ != "be" and (before is None or t.i < before)][:4]
    return " ".join(words) or token.lemma_.lower()


_CONDITION_MARKS = frozenset({"if", "when", "whenever", "unless"})


def _condition(verb: Any) -> str:
    """The content lemmas of a condition clause ("if you're with a group of people" -> "group people")."""
    nested = {t.i for c in verb.children if c.dep_ == "advcl" and c.i != verb.i for t in c.subtree}
    words = [_lemma(t) for t in verb.subtree if t.i not in nested and t.pos_ in ("NOUN", "PROPN", "ADJ", "NUM", "VERB")
             and t.lemma_ != "be" and t.is_alpha][:4]
    return " ".join(words)


def _conditions(span: Any, clause: Any) -> tuple[str, str] | None:
    """(condition of the first side, condition after "than") of a comparison between conditions, None if none.

    "more likely if you're alone than if you're with a group": ("alone", "group people"); a single condition
    ("less likely if you're with a group") gives (its condition, "").
    """
    found = [t for t in span if t.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in _CONDITION_MARKS
                                                          for c in t.children)
             and (t.head.i == clause.i or t.head.dep_ == "advcl")]
    if not found:
        return None
    than = [t for t in found if any(c.dep_ == "mark" and c.lower_ == "than" for c in t.children)]
    first = [t for t in found if t not in than]
    return (_condition(first[0]) if first else "", _condition(than[0]) if than else "")


def _attribute(adjective: Any) -> str:
    """The noun a comparative adjective modifies and its of-phrase ("lower levels of negative moods": "level mood")."""
    if adjective.dep_ != "amod" or adjective.head.pos_ not in ("NOUN", "PROPN"):
        return ""
    noun = adjective.head
    of = [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
    return " ".join([_lemma(noun), *(_lemma(g) for g in of[:1])])


def _comparisons(span: Any) -> list[tuple[str, int, str, str, str, str]]:
    """(adjective, sign, cmp/sup, first side, than-side, attribute) of comparatives and superlatives.

    The first side is the subject, or the object of the verb's preposition that the than-part repeats ("respond more
    favorably to A than to B": A and B), or a condition ("more likely if A than if B": A and B, the subject then
    being the attribute); "more value than" compares the noun "value".
    """
    out = []
    for token in span:
        compared = _compared(token, span)
        if compared is None:
            continue
        adjective, sign, kind = compared
        subject = _subject(adjective)
        first = _phrase(subject) if subject is not None else ""
        attribute = _attribute(adjective) if adjective is not token.head or token.dep_ != "amod" else ""
        than_token = next((t for t in span if t.i > token.i and t.lower_ == "than"), None)
        first, than = _than_sides(span, token, than_token, first) if than_token is not None else (first, "")
        clause = adjective.head if adjective.dep_ in ("acomp", "advmod", "amod", "attr") else adjective
        conditions = _conditions(span, clause) if kind == "cmp" else None
        if conditions is not None and (conditions[1] or than_token is None):
            attribute, (first, than) = first, conditions
        following = span.doc[adjective.i + 1] if adjective.i + 1 < len(span.doc) else None
        direction = f" {following.lower_}" if following is not None and following.lower_ in _DIRECTIONS else ""
        out.append((_lemma(adjective) + direction, sign, kind, first, than, attribute))
    return out


def _compared(token: Any, span: Any) -> tuple[Any, int, str] | None:
    """(the compared word, sign, "cmp"/"sup") where a token makes a comparison, else None.

    "more/less/most/least" + adjective or adverb; "more/less/fewer" + noun; "fetched more than X", "gain more by A
    than by B"; a comparative or superlative form ("taller", "best").
    """
    lower = token.lower_
    if lower in ("more", "less", "most", "least") and token.head.pos_ in ("ADJ", "ADV") and token.head.i != token.i:
        return token.head, -1 if lower in ("less", "least") else 1, "sup" if lower in ("most", "least") else "cmp"
    if lower in ("more", "less", "fewer") and token.dep_ == "amod" and token.head.pos_ == "NOUN":
        return token.head, -1 if lower != "more" else 1, "cmp"
    if lower in ("more", "less") and token.dep_ in ("dobj", "advmod", "npadvmod") \
            and token.head.pos_ == "VERB" and token.i + 2 < len(token.doc) and (
                token.nbor().lower_ == "than" and not token.nbor(2).like_num  # "fetched more than 'Balloon Girl'"
                or _than_preposition(span, token)):  # "gain more by appropriating than by producing"
        return token, -1 if lower == "less" else 1, "cmp"
    if token.tag_ in ("JJR", "RBR", "JJS", "RBS") and lower not in ("more", "less", "most", "least"):
        return token, 1, "sup" if token.tag_ in ("JJS", "RBS") else "cmp"
    return None


def _than_sides(span: Any, token: Any, than_token: Any, first: str) -> tuple[str, str]:
    """(first side, than-side) of a comparison with "than": its object, two doings, or the repeated preposition."""
    rest = [t for t in span if t.i > than_token.i and not t.is_punct]
    objects = [g for g in than_token.children if g.dep_ == "pobj"]
    named = objects or [t for t in rest if t.pos_ in ("NOUN", "PROPN", "PRON", "VERB", "NUM") and t.lemma_ != "be"]
    than = _phrase(named[0]) if objects else " ".join(_lemma(t) for t in named[:3])
    doings = _doings(span, token, than_token, rest)
    if doings is not None:
        return doings
    if rest and rest[0].lower_ in _PREPOSITIONS:
        return _preposition_sides(span, token, than_token, rest[0], first, than)
    return first, than


def _doings(span: Any, token: Any, than_token: Any, rest: list[Any]) -> tuple[str, str] | None:
    """The two doings as the sides: "easier to oust A than to get rid of B" (None where there are none)."""
    if not (rest and rest[0].lower_ == "to" and rest[0].pos_ == "PART"):
        return None
    verbs = [t for t in span if token.i < t.i < than_token.i and t.pos_ in ("VERB", "AUX")
             and any(c.lower_ == "to" and c.dep_ == "aux" for c in t.children)]
    if not verbs:
        return None
    doing = verbs[0].head if verbs[0].dep_ in ("aux", "auxpass") else verbs[0]  # "to get rid of"
    return _phrase(doing, than_token.i), _phrase(rest[0].head)


def _preposition_sides(span: Any, token: Any, than_token: Any, preposition: Any, first: str, than: str,
                       ) -> tuple[str, str]:
    """The sides of a repeated preposition: "respond more favorably to A than to B" (A: the verb's own "to A")."""
    inner = [g for g in preposition.children if g.dep_ in ("pobj", "pcomp")]
    than = _phrase(inner[0]) if inner else than
    own = (_phrase(t, than_token.i) for p in span if token.i < p.i < than_token.i and p.lower_ == preposition.lower_
           for t in p.children if t.dep_ in ("pobj", "pcomp"))
    return next(own, first), than


def _than_preposition(span: Any, token: Any) -> bool:
    """Whether "than" repeats a preposition said after ``token`` ("more by A than by B", "more to A than to B")."""
    than = next((t for t in span if t.i > token.i and t.lower_ == "than"), None)
    if than is None or than.i + 1 >= span.end or span.doc[than.i + 1].lower_ not in _PREPOSITIONS:
        return False
    return any(t.lower_ == span.doc[than.i + 1].lower_ for t in span.doc[token.i + 1: than.i])


def _trimmed(entity: Any) -> str:
    """An entity's lowercased text without the lowercase verbs, prepositions and numbers the recogniser ran on into.

    "the Revolution ended in 1921" -> "the revolution".
    """
    tokens = list(entity)

    def tail(token: Any) -> bool:
        return token.text.islower() and token.pos_ in ("VERB", "AUX", "ADP", "PART", "SCONJ", "CCONJ")

    end = len(tokens)
    while end and tokens[end - 1].like_num:
        end -= 1
    if end < len(tokens) and end and tail(tokens[end - 1]):  # "ended in 1921", not the 2 of "World War 2"
        tokens = tokens[:end]
    while tokens and tail(tokens[-1]):
        tokens.pop()
    return entity.doc[tokens[0].i: tokens[-1].i + 1].text.lower() if tokens else ""


def _entities(span: Any) -> list[tuple[str, str]]:
    """Named entities (not numeric) and proper nouns outside entities."""
    named = ((_trimmed(e), e.label_) for e in span.ents if e.label_ not in _NUMERIC_LABELS
             and not all(_unit_token(t) or t.like_num for t in e))
    out = [(text, label) for text, label in named if text]
    covered = {t.i for e in span.ents for t in e}
    out += [(t.text.lower(), "PROPN") for t in span if t.pos_ == "PROPN" and t.i not in covered and not _unit_token(t)
            and t.text[:1].isupper() and not t.is_sent_start and t.lower_ not in quantities.MONTHS
            and not _in_citation(t) and t.is_alpha]
    return out


def _unit_token(token: Any) -> bool:
    """Whether a token is the unit of a number ("km", "°", "F" of "degrees F", "p.m."): the number carries it."""
    doc = token.doc
    before = doc[token.i - 1] if token.i > 0 else None
    if token.lower_ in _CLOCK_WORDS or token.text == "°":
        return True
    if token.lower_ in quantities.FRACTIONS:  # "an hour and a half", "half an hour", "two and a quarter"
        after = [t.lower_ for t in doc[token.i + 1: token.i + 3]]
        if [t.lower_ for t in doc[max(token.i - 2, 0): token.i]] == ["and", "a"] or (
                len(after) == 2 and after[0] in ("a", "an") and quantities.unit(after[1])):
            return True
    if before is not None and before.lower_ in ("degree", "degrees", "°") and token.lower_ in ("c", "f", "celsius",
                                                                                              "fahrenheit"):
        return True
    if before is not None and before.text in ("-", "–") and token.i > 1:
        before = doc[token.i - 2]
    number = before is not None and (before.like_num or before.lower_ in quantities.NUMBER_WORDS
                                     or before.lower_ in ("an", "a", "half"))
    return number and quantities.unit(token.lower_) is not None


def facts(span: Any) -> Facts:
    """The checked facts of one statement span (the units of numbers are part of the numbers, not words)."""
    lemmas = tuple(dict.fromkeys((_lemma(t), t.pos_) for t in span if t.pos_ in _CONTENT_POS
                                 and not _in_citation(t) and not _unit_token(t)))
    return Facts(tuple(_entities(span)), tuple(_numbers(span)), tuple(dict.fromkeys(_negated(span))), lemmas,
                 tuple(_comparisons(span)), tuple(_structure.roles(span)), tuple(_structure.modals(span)),
                 tuple(_parts(span)), tuple(_trends(span)), tuple(_valued(span)))


_PART_DEPS = frozenset({"relcl", "advcl", "acl"})


def _parts(span: Any) -> list[str]:
    """The added clauses of a span ("..., which the countries repaid by 1960"; "... and is funded by X"): texts."""
    out = []
    for token in span:
        added = token.dep_ in _PART_DEPS or (token.dep_ == "conj" and token.head.i == span.root.i)
        if added and token.pos_ in ("VERB", "AUX"):
            tokens = [t for t in token.subtree if t.i >= span.start and t.i < span.end]
            if 3 <= len(tokens) < len(span) - 2:
                out.append(clean(span.doc[tokens[0].i: tokens[-1].i + 1].text))
    return list(dict.fromkeys(out))


def _definite(subject: Any, antecedent: Any) -> bool:
    """Whether a subject is a shorter mention of the antecedent, "the/this/that <its head noun>" ("The rule")."""
    left = subject.doc[subject.left_edge.i: subject.i]
    return (subject.pos_ == "NOUN" and len(left) == 1 and left[0].lower_ in ("the", "this", "that", "these", "those")
            and subject.lemma_.lower() == antecedent.root.lemma_.lower() and len(antecedent) > 2)


def _resolve(clause: Any, text: str, antecedent: Any) -> tuple[str, tuple[str, ...]]:
    """The text with a leading subject pronoun or shorter definite mention replaced by the antecedent; its terms."""
    subject = _subject(clause.root)
    if antecedent is None or subject is None or subject.i - clause.start > 2:
        return text, ()
    if subject.lower_ in _PRONOUNS:
        mention = subject.text
    elif _definite(subject, antecedent):
        mention = clause.doc[subject.left_edge.i: subject.i + 1].text
    else:
        return text, ()
    replacement = antecedent.text + ("'s" if subject.lower_ == "its" else "")
    resolved = re.sub(rf"\b{re.escape(mention)}\b", replacement, text, count=1)
    return resolved, tuple(t.lemma_.lower() for t in term_tokens(antecedent) if not t.is_space)


FOREIGN_SHARE = 0.25
"""The share of a text's words in a script other than Latin from which the heuristic judge does not read it."""
_IDEOGRAPHS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(rf"[{_IDEOGRAPHS}]|[^\W\d_{_IDEOGRAPHS}]+")
"""A word: one Chinese, Japanese or Korean character (a word is one or two of them), or a run of other letters."""


def non_latin_share(text: str) -> float:
    """Words in a script other than Latin / words (0.0 for a text without words): "埃菲尔铁塔" is five words."""
    words = _WORD.findall(text)
    return sum(any(c > "\u024f" for c in w) for w in words) / len(words) if words else 0.0


def foreign_script(text: str) -> bool:
    """Whether a quarter of a text's words or more are not in Latin script (``FOREIGN_SHARE``).

    Chinese, Cyrillic, Arabic, or half an answer in one of them: the heuristic judge reads English and does not
    judge such a text.
    """
    return non_latin_share(text) >= FOREIGN_SHARE


YES_NO_WORDS = frozenset({"yes", "no", "yeah", "yep", "nope", "absolutely", "definitely", "certainly", "correct",
                          "true", "false", "indeed", "never"})
"""One-word answers to a yes/no question ("Yes."): statements on their own."""


def _is_statement(clause: Any, text: str) -> bool:
    """A statement: two words or more, a number or name, a yes/no word, or a number ending its line.

    "Paris.", "Yes." (``YES_NO_WORDS``), "206." (not the list number of "1. X").
    """
    words = re.findall(r"[A-Za-z]+", text)
    if len(words) >= 2 or (len(words) == 1 and words[0].lower() in YES_NO_WORDS):
        return True
    if not re.search(r"[A-Za-z]", text):
        after = clause.doc[clause.end] if clause.end < len(clause.doc) else None
        line_end = after is None or (after.is_space and "\n" in after.text)
        return line_end and any(t.like_num and not _in_citation(t) for t in clause)
    return any(t.like_num or t.ent_type_ or t.pos_ == "PROPN" for t in clause if not _in_citation(t))


def statements(doc: Any, max_words: int, version: int = FACTS_VERSION,
               ) -> tuple[tuple[str, tuple[str, ...], str, Facts], ...]:
    """(text, terms, resolved text, facts) of every statement: pieces of two words or more, or of a number or name.

    ``version`` (``FACTS_VERSION``) only keys the stored value.
    """
    out = []
    antecedent = None
    for sentence in sentences(doc):
        for piece in _pieces(sentence):
            for clause in _clauses(piece, max_words):
                text = clean(clause.text)
                if not _is_statement(clause, text):
                    continue
                terms = tuple(t.lemma_.lower() for t in term_tokens(clause)
                              if not t.is_space and not _in_citation(t) and t.text not in "[]*#-•")
                resolved, extra = _resolve(clause, text, antecedent)
                out.append((text, tuple(dict.fromkeys(extra + terms)) if extra else terms, resolved, facts(clause)))
                subject = _subject(clause.root)
                if subject is not None and subject.lower_ not in _PRONOUNS and subject.pos_ in ("NOUN", "PROPN") \
                        and resolved == text:
                    antecedent = clause.doc[subject.left_edge.i: subject.right_edge.i + 1]
    return tuple(out)


@cache
def statement_feature(max_words: int = 25) -> Feature:
    """The statements feature (sentences, bullet items, clauses of sentences over ``max_words`` words)."""
    return Feature("rag_claims", ("lemmas", "parse", "ents"), statements, (max_words, FACTS_VERSION))
