"""Statements read off the shared spaCy parse: sentences, bullet items, and the clauses of long sentences.

A statement is kept with its terms (lemmas without stopwords, punctuation and citation markers), its text with a
leading subject pronoun resolved to the subject of the statement before ("It has 16GB RAM" -> "The laptop has 16GB
RAM"), and the facts the heuristic judge checks (``Facts``: entities, numbers, negations, lemmas, comparisons), so the
judge needs no second parse. The feature is declared with ``Feature`` and computed by the one planner.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any, NamedTuple

from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.text import sentences, term_tokens
from ir_rag_axioms.metrics import _structure, _tables, quantities
from ir_rag_axioms.metrics._negation import _negated
from ir_rag_axioms.metrics._numbers import CITATION_WORDS, Number, _in_citation, _lemma, _numbers

FACTS_VERSION = 33
"""Bumped when ``Facts`` changes, so that stored statements of an older version are not read back."""
ANTECEDENT = "ANTECEDENT"
"""The part of speech of the words a resolved pronoun stands for, kept with the lemmas (said, but no content word)."""
LABEL = "LABEL"
"""The part of speech of a table row's label under a generic header ("| Fact | Value |"): said, but no content word."""
_NAME = r"[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*"
_AUTHORS = rf"{_NAME}(?:\s+et\s+al\.?|(?:,\s+{_NAME})*,?\s+(?:and|&)\s+{_NAME})?"
_AUTHOR_YEAR = rf"\(\s*{_AUTHORS},?\s+\d{{4}}[a-z]?(?:\s*;\s*{_AUTHORS},?\s+\d{{4}}[a-z]?)*\s*\)"
"""An author-year citation: "(Smith, 2020)", "(Smith et al., 2020)", "(Smith and Jones 2019; Lee, 2018a)"."""
CITED = rf"(?:(?:{'|'.join(CITATION_WORDS)})\s*)?\d+"
"""What a citation marker holds: a number, after a word or not ("1", "Source 1", "Doc 2")."""
_CITATIONS = (re.compile(rf"\[\s*{CITED}(?:\s*[,;-]\s*{CITED})*\s*\]", re.IGNORECASE),
              re.compile(rf"\s*{_AUTHOR_YEAR}"))
"""Citation markers dropped from a statement's text: "[1]", "[2, 3]", "[Source 1]", and author-year citations."""
_ENDING_CITATION = re.compile(rf"\s*{_AUTHOR_YEAR}[\s.,;:!?]*$")
"""An author-year citation that ends a clause: its tokens are no part of the statement's facts."""
_LINE_BREAK_HYPHEN = re.compile(r"(?<=[a-z])-[ \t]*\n\s*(?=[a-z])")
"""A word hyphenated at a line end ("com-\npleted"): joined to one word ("completed")."""
_HEADING = re.compile(r"^\s*#{1,6}\s")
"""A markdown heading line ("## Answer", "### 1. Recruitment"): no statement."""
_SOURCE_ENTRY = re.compile(r"^\s*\[\s*\d+\s*\]\s+\S")
"""An entry of a source list ("[1] NOAA, Climate.gov"): no statement when it has no verb."""
_LABEL = re.compile(r"^\s*[^\n:]+:\s*$")
"""A label line ("Answer:", "**Key facts:**" without its emphasis): no statement when short and verbless."""
LABEL_WORDS = 4
"""The most words of a label line ending with ":" that is not a statement ("To measure X:" has a verb: it is one)."""
_BULLET = re.compile(r"^\s*(?:[-*•#>]+|\d+[.)])\s*")
_SPACE = re.compile(r"\s+")
_LEADING_LINK = re.compile(r"^(?:and|but|while|whereas|so|yet)\s+", re.IGNORECASE)
_CLAUSE_LINKS = frozenset({"and", "but", "while", "whereas", "so", "yet"})
_PRONOUNS = frozenset({"it", "they", "he", "she", "this", "these", "its"})
_NUMERIC_LABELS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "DATE", "TIME"})
_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "AUX", "ADJ", "ADV", "NUM", "ADP"})
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
    comparisons: tuple[tuple[str, int, str, str, tuple[str, ...], tuple[str, ...]], ...] = ()
    """(graded lemma, +1 more / -1 less, "cmp"/"sup"/"cor", nearest word, first side, than-side): ``_comparisons``.

    "cor" is a comparative correlative ("the higher the income, the smaller the share")."""
    roles: tuple[tuple[str, str, str], ...] = ()
    """(verb lemma, role, argument lemma): who did what to whom, passives turned active (``_structure.roles``)."""
    modals: tuple[tuple[str, str], ...] = ()
    """(verb lemma, "possible" / "necessary") of may/can/might and must/will/always."""

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


_POINTS = r"(?:facts|points|details|steps|reasons|options|results|highlights|examples|ways|things|features|findings)"
_SIGNPOST = re.compile(r"[^.:;!?]*\b(?:are|is) (?:listed|shown|given|summari[sz]ed|outlined|described|detailed) "
                       rf"(?:below|above)|(?:here (?:are|is)|the following)(?: \w+){{0,3}} {_POINTS}(?: \w+){{0,3}}:?"
                       r"|[^.;!?]*\bas follows:?", re.IGNORECASE)


def is_signpost(text: str) -> bool:
    """Whether a statement only points to the answer's other parts ("The towers are listed below.", "Here are ...:")."""
    return bool(_SIGNPOST.fullmatch(text.strip().rstrip(".")))


def clean(text: str) -> str:
    """A statement's text without citation markers, a leading bullet, number or clause link, emphasis, extra space.

    A number with nothing after it ("206.") is an answer, not a list number: it stays. A word hyphenated at a line
    end is joined ("com-" and "pleted" on the next line -> "completed").
    """
    for citation in _CITATIONS:
        text = citation.sub("", text)
    text = _LINE_BREAK_HYPHEN.sub("", text).replace("**", "").replace("__", "")
    bare = _BULLET.sub("", text)
    text = _SPACE.sub(" ", bare if re.search(r"\w", bare) else text).strip(" \t\n:,;")
    return unhedged(_LEADING_LINK.sub("", text))


def _pieces(sentence: Any) -> list[Any]:
    """A sentence split at line breaks (bullet items and headings are their own pieces)."""
    cuts = [t.i for t in sentence if t.is_space and "\n" in t.text and not _hyphen_break(t) or _after_abbreviation(t)]
    doc = sentence.doc
    bounds = [sentence.start]
    for cut in cuts:  # "The U.S. Army ...": no cut after a verbless fragment ("at 9:57 p.m. She ...": a cut)
        if doc[cut].is_space or any(t.pos_ in ("VERB", "AUX") for t in doc[bounds[-1]: cut]):
            bounds.append(cut)
    bounds.append(sentence.end)
    return [doc[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _hyphen_break(token: Any) -> bool:
    """Whether a line break token is inside a word hyphenated at the line end ("com-" / "pleted")."""
    text = token.doc.text
    start, end = token.idx, token.idx + len(token.text)
    return bool(_LINE_BREAK_HYPHEN.search(text, max(start - 8, 0), min(end + 1, len(text))))


def _heading(piece: Any) -> bool:
    """Whether a piece is a markdown heading or a short label line without a verb ("Answer:"): not a statement."""
    text = piece.text.replace("**", "").replace("__", "")
    start = piece.start_char + len(piece.text) - len(piece.text.lstrip())
    line = piece.doc.text[piece.doc.text.rfind("\n", 0, start) + 1: start]  # "### 1. " before "Recruitment"
    if _HEADING.match(text) or _HEADING.match(line):
        return True
    verbless = not any(t.pos_ in ("VERB", "AUX") for t in piece)
    return verbless and (bool(_LABEL.match(text)) and len(re.findall(r"\w+", text)) <= LABEL_WORDS
                         or bool(_SOURCE_ENTRY.match(text)))


def _uncited(clause: Any) -> Any:
    """A clause without the author-year citation that ends it ("... in 1889 (Smith et al., 2020).")."""
    found = _ENDING_CITATION.search(clause.text)
    cut = clause.char_span(0, found.start(), alignment_mode="contract") if found else None
    return cut if cut is not None and len(cut) else clause


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
    out += [(t.text.lower(), "PROPN") for t in span if t.i not in covered and not _unit_token(t) and t.is_alpha
            and (t.pos_ == "PROPN" and t.text[:1].isupper() and not _starts(t) or _acronym(t))
            and t.lower_ not in quantities.MONTHS and not _in_citation(t)]
    return out


def _starts(token: Any) -> bool:
    """Whether a token opens a sentence or a table cell ("| Area | 344,400 km² |"): capitalised there by position."""
    return bool(token.is_sent_start) or _opens_cell(token)


def _opens_cell(token: Any) -> bool:
    """Whether a token follows a table's cell border ("| Area |")."""
    return token.i > 0 and token.doc[token.i - 1].text == "|"


def _pos(token: Any) -> str:
    """A token's part of speech, a capitalised word opening a table cell ("| Area |") a noun unless it is an entity."""
    cell_label = token.pos_ == "PROPN" and not token.ent_type_ and _opens_cell(token)
    return "NOUN" if cell_label else token.pos_


def _acronym(token: Any) -> bool:
    """An all-capitals word of two letters or more that is no stop word ("UNICEF" opening a sentence, "NOT" is none)."""
    return len(token.text) >= 2 and token.text.isupper() and not token.is_stop


def _unit_token(token: Any) -> bool:
    """Whether a token is the unit of a number ("km", "°", "F" of "degrees F", "p.m."): the number carries it."""
    doc = token.doc
    before = doc[token.i - 1] if token.i > 0 else None
    if token.lower_ in _CLOCK_WORDS or token.text == "°" or _fraction_unit(token) or _degrees(token):
        return True
    if before is not None and (before.text in ("-", "–") or before.lower_ in _POWERS) and token.i > 1:
        before = doc[token.i - 2]  # "10-km", "344,400 square kilometres"
    number = before is not None and (before.like_num or before.lower_ in quantities.NUMBER_WORDS
                                     or before.lower_ in ("an", "a", "half"))
    unit = doc[token.i + 1].lower_ if token.lower_ in _POWERS and token.i + 1 < len(doc) else token.lower_
    return number and quantities.unit(unit) is not None


def _fraction_unit(token: Any) -> bool:
    """Whether a fraction word is part of a measure: "an hour and a half", "half an hour", "two and a quarter"."""
    if token.lower_ not in quantities.FRACTIONS:
        return False
    doc = token.doc
    after = [t.lower_ for t in doc[token.i + 1: token.i + 3]]
    return [t.lower_ for t in doc[max(token.i - 2, 0): token.i]] == ["and", "a"] or (
        len(after) == 2 and after[0] in ("a", "an") and quantities.unit(after[1]) is not None)


def _degrees(token: Any) -> bool:
    """Whether a token is "degrees" before a scale or the scale after it ("5 degrees Celsius": both the unit)."""
    doc = token.doc
    after = doc[token.i + 1].lower_ if token.i + 1 < len(doc) else ""
    before = doc[token.i - 1].lower_ if token.i > 0 else ""
    return token.lower_ in ("degree", "degrees") and after in _SCALES or before in ("degree", "degrees", "°") \
        and token.lower_ in _SCALES


_SCALES = frozenset({"c", "f", "celsius", "fahrenheit"})
_POWERS = frozenset({"square", "sq", "cubic", "cu"})
"""Words that make a length unit an area or a volume ("square kilometres"): part of the unit."""


def facts(span: Any) -> Facts:
    """The checked facts of one statement span (the units of numbers are part of the numbers, not words)."""
    lemmas = tuple(dict.fromkeys((_lemma(t), _pos(t)) for t in span if t.pos_ in _CONTENT_POS
                                 and not _in_citation(t) and not _unit_token(t)))
    return Facts(tuple(_entities(span)), tuple(_numbers(span)), tuple(dict.fromkeys(_negated(span))), lemmas,
                 tuple(_comparisons(span)), tuple(_structure.roles(span)), tuple(_structure.modals(span)))


_DEGREE_TAGS = {"JJR": "cmp", "RBR": "cmp", "JJS": "sup", "RBS": "sup"}
_DEGREE_WORDS = {"more": (1, "cmp"), "less": (-1, "cmp"), "fewer": (-1, "cmp"), "most": (1, "sup"),
                 "least": (-1, "sup"), "fewest": (-1, "sup")}
_SIDE_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM"})
_DIRECTIONS = frozenset({"east", "west", "north", "south", "up", "down", "inside", "outside", "ahead", "behind"})
_REACH = 8
"""How many words before a comparative, and after its "than", make its two sides."""
Comparison = tuple[str, int, str, str, tuple[str, ...], tuple[str, ...]]


def _comparisons(span: Any) -> list[Comparison]:
    """(graded word, +1 more / -1 less, kind, nearest word before, first side, than-side) of each comparison.

    "smaller than B": ("small", 1, ...); "less likely than B": ("likely", -1, ...); "further west": ("far west", ...).
    The first side is the content lemmas from ``_REACH`` words before the comparison to its "than" (so "respond more
    favorably to A than to B" has A in it); the than-side the ``_REACH`` words after a "than" at most 12 words on,
    empty without one.
    """
    out = []
    for token in span:
        graded = _graded(token)
        if graded is None:
            continue
        word, sign, kind = graded
        if kind == "cmp" and token.i > span.start and span.doc[token.i - 1].lower_ == "the":
            kind = "cor"  # "the higher the income, the smaller the share": a comparative correlative
        than = next((t.i for t in span.doc[word.i + 1: min(span.end, word.i + 13)] if t.lower_ == "than"), None)
        following = span.doc[word.i + 1] if word.i + 1 < span.end else None
        direction = f" {following.lower_}" if following is not None and following.lower_ in _DIRECTIONS else ""
        first = _side(span, max(span.start, token.i - _REACH), than if than is not None else token.i)
        near = _side(span, max(span.start, token.i - 3), token.i)
        after = _side(span, than + 1, min(span.end, than + 1 + _REACH)) if than is not None else ()
        out.append((_lemma(word) + direction, sign, kind, near[-1] if near else "", first, after))
    return out


def _graded(token: Any) -> tuple[Any, int, str] | None:
    """(the graded word, sign, kind) where a token makes a comparative or superlative ("more likely", "taller")."""
    if token.lower_ in _DEGREE_WORDS:
        sign, kind = _DEGREE_WORDS[token.lower_]
        graded = token.head.i != token.i and token.head.pos_ in ("ADJ", "ADV", "NOUN")
        return (token.head, sign, kind) if graded else (token, 1, kind)
    if token.tag_ in _DEGREE_TAGS:
        return token, 1, _DEGREE_TAGS[token.tag_]
    return None


def _side(span: Any, start: int, end: int) -> tuple[str, ...]:
    """The content lemmas of a stretch of a span, without graded words (one side of a comparison)."""
    return tuple(dict.fromkeys(_lemma(t) for t in span.doc[start:end] if t.pos_ in _SIDE_POS and t.lemma_ != "be"
                               and t.tag_ not in _DEGREE_TAGS and t.lower_ not in _DEGREE_WORDS))


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
    """Words in a script other than Latin / words (0.0 for a text without words): "埃菲尔铁塔" is five words.

    A word is in another script when one of its letters is: a letter is Latin up to U+024F or when its Unicode name
    says so ("ễ" LATIN SMALL LETTER E WITH CIRCUMFLEX AND TILDE, fullwidth "Ａ"); modifier letters ("ʻ" of Hawaiʻi)
    and combining marks are no letters of any script.
    """
    words = _WORD.findall(text)
    return sum(any(_foreign_letter(c) for c in w) for w in words) / len(words) if words else 0.0


def _foreign_letter(char: str) -> bool:
    """Whether a character is a letter of a script other than Latin (not a modifier letter, mark or digit)."""
    if char <= "\u024f" or not unicodedata.category(char).startswith("L") or unicodedata.category(char) == "Lm":
        return False
    return "LATIN" not in unicodedata.name(char, "").split()


def foreign_script(text: str) -> bool:
    """Whether a quarter of a text's words or more are not in Latin script (``FOREIGN_SHARE``).

    Chinese, Cyrillic, Arabic, or half an answer in one of them: the heuristic judge reads English and does not
    judge such a text.
    """
    return non_latin_share(text) >= FOREIGN_SHARE


YES_NO_WORDS = frozenset({"yes", "no", "yeah", "yep", "nope", "absolutely", "definitely", "certainly", "correct",
                          "true", "false", "indeed", "never"})
"""One-word answers to a yes/no question ("Yes."): statements on their own."""


def has_statement_text(text: str) -> bool:
    """Whether a text can hold a statement: it has a letter or digit ("!!!", "🎉", " ; " have none)."""
    return any(c.isalnum() for c in text)


def _is_statement(clause: Any, text: str) -> bool:
    """A statement: a letter or digit, and two words or more, a number or name, a yes/no word, a number ending its line.

    "Paris.", "Yes." (``YES_NO_WORDS``), "206." (not the list number of "1. X").
    """
    if not has_statement_text(text):
        return False
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
    out: list[tuple[str, tuple[str, ...], str, Facts]] = []
    antecedent = None
    tables, done = _tables.tables(doc.text), set()
    for sentence in sentences(doc):
        for piece in _pieces(sentence):
            table = _table_of(piece, tables)
            if table is not None:
                if table not in done:  # its rows once, where the table starts
                    out += _row_statements(doc, table)
                    done.add(table)
                continue
            if _heading(piece):
                continue
            for whole in _clauses(piece, max_words):
                text, clause = clean(whole.text), _uncited(whole)
                if not _is_statement(clause, text):
                    continue
                terms = tuple(t.lemma_.lower() for t in term_tokens(clause)
                              if not t.is_space and not _in_citation(t) and t.text not in "[]*#-•")
                resolved, extra = _resolve(clause, text, antecedent)
                found = facts(clause)
                if extra:  # "It is 330 metres tall": the tower it stands for is said there (no rival name of it)
                    found = found._replace(lemmas=tuple(dict.fromkeys(found.lemmas + tuple(
                        (word, ANTECEDENT) for name, _ in _entities(antecedent) for word in name.split()))))
                out.append((text, tuple(dict.fromkeys(extra + terms)) if extra else terms, resolved, found))
                subject = _subject(clause.root)
                if subject is not None and subject.lower_ not in _PRONOUNS and subject.pos_ in ("NOUN", "PROPN") \
                        and resolved == text:
                    antecedent = clause.doc[subject.left_edge.i: subject.right_edge.i + 1]
    return tuple(out)


def _table_of(piece: Any, tables: list[_tables.Table]) -> _tables.Table | None:
    """The table a piece of text starts in (its first character that is not a space), or None."""
    start = piece.start_char + len(piece.text) - len(piece.text.lstrip())
    return next((t for t in tables if t.start <= start < t.end), None) if tables else None


def _row_statements(doc: Any, table: _tables.Table) -> list[tuple[str, tuple[str, ...], str, Facts]]:
    """The statements of a table's body rows: "Eiffel Tower (City: Paris; Height: 330 m).", facts from the row."""
    out = []
    for row in table.rows:
        span = doc.char_span(row.start, row.end, alignment_mode="expand")
        text = clean(row.text)
        if span is None or not _is_statement(span, text):
            continue
        terms = tuple(t.lemma_.lower() for t in term_tokens(span)
                      if not t.is_space and not _in_citation(t) and t.text not in "[]*#-•|")
        found = facts(span)  # the cell borders are no words, and no name runs across one
        found = found._replace(numbers=_with_header_units(found.numbers, row.units)) if row.units else found
        label = _label_words(span) if table.labels else set()
        found = found._replace(lemmas=tuple((w, LABEL if w in label else pos) for w, pos in found.lemmas if w != "|"),
                               entities=tuple(x for x in found.entities if "|" not in x[0] and x[0] not in label))
        out.append((text, terms, text, found))
    return out


def _with_header_units(numbers: tuple[Number, ...], units: tuple[tuple[float, str], ...]) -> tuple[Number, ...]:
    """A row's numbers, a bare one in its header's unit ("Height (m)" over "532": 532 m) or count ("Floors": floor)."""
    out = []
    for number in numbers:
        unit = next((u for v, u in units if number[0] == number[1] == v and number[2] in ("", "|")), None)
        out.append(quantities.in_unit(number, unit) if unit is not None else number)
    return tuple(out)


def _label_words(row: Any) -> set[str]:
    """The lemmas of a table row's first cell ("| Area | 344,400 km² |" -> {"area"}), its label."""
    cells = [t for t in row if not t.is_space]
    cells = cells[1:] if cells and cells[0].text == "|" else cells
    first = cells[:next((k for k, t in enumerate(cells) if t.text == "|"), len(cells))]
    return {_lemma(t) for t in first} | {" ".join(t.lower_ for t in first)}


@cache
def statement_feature(max_words: int = 25) -> Feature:
    """The statements feature (sentences, bullet items, clauses of sentences over ``max_words`` words)."""
    return Feature("rag_claims", ("lemmas", "parse", "ents"), statements, (max_words, FACTS_VERSION))
