"""Does a statement answer the question? Features of a (question, statement) pair and the fitted relevance model.

The heuristic judge's AnswerRelevancy verdict reads, beside the similarity of statement and query, whether the
statement gives what the question asks for (a date for *when*, a cause for *why*, ...), whether it has any specific
content (a filler has none) and whether it dodges (evasion cues). A logistic model over these features, fitted by
``bench/fit_relevance.py`` on human labels (``data/relevance-model.json`` names the data, licences and held-out
figures), gives P(the statement addresses the question); below the model's cut-off the statement is "no".
The rubric's 1-5 answer-relevancy level (seed 003) follows from the statements' verdicts (``_relevancy_levels``).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ir_rag_axioms.metrics.interface import Statement
from ir_rag_axioms.metrics.statements import Facts
from ir_rag_axioms.settings import packaged_json

__all__ = ["CONJUNCTS", "EVENT_ENDS", "FEATURES", "FILLER_SHARE", "FILLER_WORDS", "OFF_QUESTION", "PRONOUN_START",
           "QUESTION_TYPE", "QUESTION_TYPES", "SHORT_ANSWERS", "SHORT_ANSWER_WORDS", "TOPIC_TALK", "WORD",
           "YES_NO_ANSWER", "YES_NO_QUESTION", "question_parts", "part_types", "short_number_answer",
           "AnswerType", "RelevanceModel", "answer_type_given", "asked", "content_words", "echo", "features", "filler",
           "fragment_answers", "gives", "last_line", "load_model", "non_answer", "not_direct", "other_event",
           "residual_texts", "same_stem", "shared", "short_typed_answer",
           "yes_no_answer"]

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_DATE_CUES = re.compile(r"\b(?:century|centuries|decades?|ago|today|yesterday|tomorrow|nowadays|recently|spring|"
                        r"summer|autumn|winter|mornings?|afternoons?|evenings?|nights?|midnight|noon|dawn|dusk|"
                        r"weekends?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|annually|"
                        r"(?:before|after|until|since) (?:the |his |her |its |their )?\w+)\b")
_COUNT_CUES = re.compile(r"\b(?:a (?:few|couple|dozen|handful)|several|dozens|hundreds|thousands|millions|billions|"
                         r"half|a third|a quarter|majority|minority|once|twice|daily|weekly|monthly|yearly|none|"
                         r"(?:a|an) (?:hour|day|week|month|year|minute)|free|nothing)\b")
_PLACE_CUES = re.compile(r"\b(?:north|south|east|west|northern|southern|eastern|western|central|coast(?:al)?|near|"
                         r"located|inland|abroad|overseas|islands?|regions?|province|border|downtown|underground|"
                         r"indoors|outdoors|worldwide|country|city|town|village|continent)\b")
_CAUSE_CUES = re.compile(r"\b(?:because|due to|caused? by|causes?|since|so that|leads? to|led to|result(?:s|ed)? "
                         r"(?:of|from|in)|reasons?|thanks to|as a result|in order to|owing to|which (?:makes|means|"
                         r"lets|helps)|helps?|allows?|protects?|makes?|when|by)\b")
_METHOD_CUES = re.compile(r"\b(?:you|your|by \w+ing|first|then|step|until|minutes?|hours?|instead|avoid|try|use|using|"
                          r"should|need to|must)\b|^\W*(?:go|add|put|place|turn|click|open|select|press|apply|fill|"
                          r"bring|pack|start|stop|increase|reduce|cut|remove|take|make|check|call|contact|visit|"
                          r"submit|pay|download|install|set|mix|stir|boil|bake|heat|cook|rinse|soak|wash|dry|"
                          r"replace|tighten|keep|ask|see|enter|sign|fill|write|read|practise|practice|learn|eat|"
                          r"drink|sleep|exercise|limit|steep|strain|wait|let|get|find|choose|pick|buy)\b",
                          re.IGNORECASE)
_DEFINITION_CUES = re.compile(r"\b(?:is|are|was|were) (?:a|an|the|one|any)\b|\brefers? to\b|\bmeans?\b|\bdefined as\b"
                              r"|\bknown as\b|\bconsists? of\b|\binvolves?\b|\bdescribes?\b|\bis when\b"
                              r"|\b(?:used|designed) (?:to|for)\b|\btype of\b|\bkind of\b|\bform of\b")

_BENEFIT_CUES = re.compile(r"\b(?:improv\w*|reduc\w*|lower\w*|boost\w*|help\w*|protect\w*|prevent\w*|increas\w*|"
                           r"better|strengthen\w*|reliev\w*|eas(?:e|es|ing)|support\w*|sav(?:e|es|ing)|cheaper|"
                           r"faster|healthier|benefits?|advantages?|good for|linked to)\b")
_RISK_CUES = re.compile(r"\b(?:safe|unsafe|risks?|risky|harm\w*|danger\w*|toxic|poison\w*|bacteria|infections?|"
                        r"damag\w*|caus\w*|lead(?:s)? to|increas\w*|side effects?|upset|pain|sick|illness|"
                        r"disease|injur\w*|allerg\w*|(?:can|may|might|could) (?:\w+ )?(?:be|cause|carry|lead|"
                        r"make|trigger)|yes|no|not|never|avoid|limit|moderation|fine|okay)\b")
YES_NO_QUESTION = re.compile(r"^\W*(?:is|are|was|were|am|isn't|aren't|do|does|did|don't|doesn't|can|could|should|"
                             r"would|will|shall|may|might|must|has|have|had)\b")
"""A yes/no question (its last line, lowercased)."""
_YES_NO_START = re.compile(r"^\W*(?:yes|no|yeah|yep|nope|not|absolutely|definitely|certainly|of course|sure|indeed|"
                           r"correct|true|false|never|rarely|usually|mostly|largely|generally|probably|sometimes)\b")
YES_NO_ANSWER = re.compile(r"^\W*(?:yes|no|yeah|yep|nope)\b\s*[,.;:!\u2013\u2014-]", re.IGNORECASE)
"""An explicit yes or no, then a pause ("Yes, most do.", "No. It is not."): to a yes/no question, a direct answer of
any length."""
_WHAT_THING = re.compile(r"^\W*(?:what|which)(?:'s)?\b(?!\s+(?:does|do|did|happens?|happened|should|can|could|would|"
                         r"will|causes?|caused|makes?|made|leads?)\b)")


@dataclass(frozen=True)
class AnswerType:
    """What a question word asks for, and what in a statement gives it (a row of ``QUESTION_TYPES``)."""

    name: str
    labels: frozenset[str] = frozenset()
    """Entity labels that give it."""
    short_labels: frozenset[str] = frozenset()
    """Entity labels that give it in a short answer only ("Paris.": PROPN)."""
    numbers: str = ""
    """Numbers that give it: "date" (a year 1000-2100, a month, a clock time, a century), "count" (any number but a
    year), "" none."""
    cues: re.Pattern[str] | None = None
    """Words that give it."""
    direct: bool = True
    """Whether a direct answer must give it (strict mode's ``not_direct``, the rubric's dodge cap); False for the
    cue-word types (cause, method, definition), whose cues are only a signal of the model."""


_THE = r"(?:the|its|their|his|her)"
"""The determiner of "what is the population of X" or "what is its population" in ``QUESTION_TYPES``."""
_PERSON = frozenset({"PERSON", "ORG", "NORP"})
_PLACE = frozenset({"GPE", "LOC", "FAC"})
QUESTION_TYPES: tuple[tuple[re.Pattern[str], AnswerType], ...] = (
    (re.compile(r"^\W*(?:when|since when|how long ago|(?:in |by |since |until )?(?:what|which) (?:year|date|time|day|"
                r"month|century|decade|age|era|season)|what(?:'s| is| was) " + _THE + r" (?:date|year|day|birthday|"
                r"anniversary|deadline))\b"),
     AnswerType("a date", frozenset({"EVENT"}), numbers="date", cues=_DATE_CUES)),
    (re.compile(r"^\W*(?:how (?:many|much|long|old|far|big|large|tall|high|deep|wide|heavy|fast|often|hot|cold|"
                r"warm|expensive)|what (?:percentage|percent|proportion|share|number|amount|size|temperature|height|"
                r"weight|length|distance|speed|price|cost|dose|dosage)|at what (?:age|temperature|speed)"
                r"|what(?:'s| is| was| are) " + _THE + r" (?:average |typical |normal |current )?(?:population|height|"
                r"weight|length|width|depth|distance|speed|price|cost|age|size|temperature|boiling point|melting point|"
                r"freezing point|number|percentage|rate|salary|dose|dosage|capacity|area|volume|lifespan|"
                r"life expectancy))\b"),
     AnswerType("a number", numbers="count", cues=_COUNT_CUES)),
    (re.compile(r"^\W*(?:who|whom|whose|which (?:person|people|company|team|artist|author|writer|scientist|"
                r"president|king|queen|player|band|singer|actor|actress)|what(?:'s| is| was) the name of the "
                r"(?:author|founder|inventor|president|ceo|leader|director|composer|artist|singer|writer|king|queen|"
                r"prime minister))\b"),
     AnswerType("a person or organisation", _PERSON, frozenset({"PROPN", "GPE"}))),
    (re.compile(r"^\W*(?:where|(?:what|which|in what|in which) (?:country|countries|city|cities|state|continent|"
                r"region|place|town|island|river|mountain|part of)|what(?:'s| is| was) " + _THE + r" (?:capital|"
                r"location|birthplace|hometown|headquarters|largest city|biggest city))\b"),
     AnswerType("a place", _PLACE, frozenset({"PROPN", "ORG"}), cues=_PLACE_CUES)),
    (re.compile(r"^\W*(?:why\b|what (?:causes|caused|makes|made|leads? to)\b|how come\b)"),
     AnswerType("a cause", cues=_CAUSE_CUES, direct=False)),
    (re.compile(r"^\W*(?:how (?:do|can|should|would|could) (?:i|you|we|one)\b|how to\b"
                r"|what(?:'s| is) the (?:best )?way to\b|what should (?:i|you|we) do\b)"),
     AnswerType("a method", cues=_METHOD_CUES, direct=False)),
    (re.compile(r"^\W*(?:what (?:is|are|was|were) (?:a |an )?(?!the\b|my\b|your\b|it\b|this\b|that\b)[\w'-]+"
                r"(?: [\w'-]+){0,2}\s*\?*\s*$|what does [\w' -]+ mean\b|define\b)"),
     AnswerType("a definition", cues=_DEFINITION_CUES, direct=False)),
    (re.compile(r"^\W*(?:what (?:are|is) (?:the |some )?(?:main |key |health |biggest )?(?:benefits?|advantages?|"
                r"pros)\b)"),
     AnswerType("a benefit", cues=_BENEFIT_CUES, direct=False)),
    (re.compile(r"^\W*(?:what (?:are|is) (?:the |some )?(?:main |possible |common |health )?(?:risks?|dangers?|"
                r"side effects?|disadvantages?|cons|downsides?|drawbacks?)\b|is it (?:safe|dangerous|bad|harmful|"
                r"healthy|ok|okay)\b|(?:is|are) \w+(?: \w+)? (?:safe|dangerous|bad|harmful|healthy|toxic)\b)"),
     AnswerType("a risk or its absence", cues=_RISK_CUES, direct=False)),
)
"""Question forms (first match of the query's last line, lowercased) -> the answer type they ask for."""
EVENT_ENDS = (re.compile(r"\b(?:begins?|began|beginning|begun|start(?:s|ed|ing)?|commenc\w*|broke out|outbreak|born|"
                         r"birth|founded|founding|launch(?:es|ed)?|rise|rises|rose|risen)\b"),
              re.compile(r"\b(?:ends?|ended|ending|finish(?:es|ed)?|conclu(?:de|des|ded|sion)|die|dies|died|death|"
                         r"(?<!the )(?<!this )(?<!last )(?<!next )fall|falls|fell|fallen|collaps\w*|dissolv\w*|"
                         r"abolish\w*)\b"))
"""The start and the end of an event: a statement that tells the one a question does not ask about, and not the one
it asks about ("World War II began in 1939." to "When did World War II end?"), answers another question
(``other_event``). Not "beginners", nor the season ("in the fall")."""
QUESTION_TYPE = re.compile("|".join(f"(?:{pattern.pattern})" for pattern, kind in QUESTION_TYPES if kind.direct))
"""A question whose direct answer must give its type (date, number, person or organisation, place)."""
SHORT_ANSWERS: tuple[tuple[re.Pattern[str], re.Pattern[str] | None], ...] = (
    (YES_NO_QUESTION, _YES_NO_START),
    (_WHAT_THING, None),
)
"""Question forms -> what makes a short verbless fragment (``short_fragment``) a direct answer on its own: its
opening yes/no word ("Yes, largely." to "Does ...?"), or (None) a noun of its own that is neither the question's
nor generic ("Avocado." to "What is the main ingredient of guacamole?")."""
CONJUNCTS = re.compile(r"\b([a-z]+) (?:and|as well as) (?:the |its |their )?([a-z]+)\b")
"""Two parts a question asks for at once ("symptoms and treatment"): an answer that gives one omits the other."""
PRONOUN_START = re.compile(r"^\W*(?:it|its|they|their|this|these|that|those|he|she|yes|no)\b", re.IGNORECASE)
"""A statement that starts with a pronoun (or yes/no) refers to the question without repeating its words."""
_QUESTION_FORM = frozenset({"long", "many", "much", "old", "often", "far", "way", "good", "best", "tell", "explain",
                            "know", "describe", "mean", "please"})
"""Query terms that shape the question rather than name its topic (left out of the direct-answer share)."""
GENERIC_WORDS = frozenset("""
important importance consider considering considered factor factors many various variety thing things people person
lot lots situation situations different differ difference choice choices right wrong essential good great informed
inform circumstance circumstances individual goal goals ultimately world today today's fast paced question questions
relevant topic topics issue issues common face faced point points aspect aspects worth carefully careful solution
solutions size fits wonder wondering keep mind matter matters depend depends depending case cases option options need
needs help helpful know knowing information detail details everyone everyone's someone time times really always
often key deal make makes making sure look looking mean means number approach process decision decisions experience
life journey unique certain certainly generally general overall various several numerous perspective perspectives
view views opinion opinions area areas field subject kind kinds type types sort way ways idea ideas plan planning
ahead step steps thing aware awareness remember note noting worthwhile value valuable benefit crucial vital part
role play plays play ever more less best better often usually every everybody anyone something anything interesting
interest understand understanding context approach research researching learn learning think find found
""".split())
"""Words that carry no specific content: a statement made only of these (and the query's words) is a filler."""
FILLER_WORDS = GENERIC_WORDS | frozenset("""
complex complexity complicated nuanced multifaceted topic consideration considerations factor various numerous
particular specific depend dependent vary varies varying individual personal circumstance outcome outcomes simple
easy straightforward answer answers discuss discussed discussion debate debated involved involve involves
""".split())
"""``GENERIC_WORDS`` and abstract words of stock fillers ("a complex topic"): ``filler``'s vocabulary. The model's
generic-share feature keeps ``GENERIC_WORDS`` (with these words its leave-one-out AUC on USR fell by 0.006-0.009)."""
TOPIC_TALK = frozenset("""
fascinating intriguing captivating scientist scientists researcher researchers scholar scholars expert experts study
studies studied researched explored decade decades centuries
""".split())
"""Words that talk about a topic as a subject of study, not about what is asked ("Sleep is a fascinating topic that
scientists have studied for decades."): generic to ``echo`` beside ``FILLER_WORDS`` (not to ``filler``, which needs
none of the query's words: "Researchers found that magnesium helps." says something)."""
_PROFESSIONALS = (r"(?:doctor|physician|pharmacist|lawyer|attorney|accountant|professional|expert|specialist|advisor|"
                  r"adviser|dealer|vet|veterinarian|therapist|counsell?or|dentist|nutritionist|dietitian|"
                  r"provider|gp)s?\b")
"""Whom an evasion sends the user to ("talk to a healthcare professional"), a modifier allowed before them."""
_NON_ANSWER = re.compile(
    r"\b(?:ask|consult|check with|talk to|speak (?:to|with)|see) (?:your|a|an) (?:[a-z-]+ )?" + _PROFESSIONALS +
    r"|\b(?:look (?:that|this|it) up|search (?:online|the web|for it)|(?:find|check) (?:that|this|it|the answer)"
    r"(?: information)? (?:online|on the (?:web|internet)))\b"
    r"|\b(?:up to you)\s*[.!]?$|\b(?:talk|chat) about something else\b|\bchange the subject\b"
    r"|\bbeyond (?:the scope|my (?:scope|knowledge|expertise))\b|\b(?:i'd|i would) rather not\b|\bprefer not to\b"
    r"|\b(?:can't|cannot|can not|no one can|nobody can) (?:predict|foresee|know) (?:the future|that|this)\b"
    r"|\bnot in a position to\b"
    r"|\b(?:it is|it's) (?:important|worth|essential|crucial) to (?:consider|remember|note|keep in mind|think about)"
    r"|\bno one-size-fits-all\b|\b(?:(?:everyone|everybody)(?:'s (?:situation|case|body|needs?|circumstances))?|"
    r"(?:every|each) (?:person|situation|case|body)) (?:is|are) (?:different|unique)\b"
    r"|\bcomes? down to (?:your|personal|individual)\b|\bmore (?:relevant|important) than ever\b"
    r"|\b(?:i'd|i would|i) (?:suggest|recommend|advise|encourage you) (?:looking|checking|searching|asking|consulting|"
    r"googling|doing (?:some|your own|a little|more) research|that you (?:look|check|search|ask|consult))\b"
    r"|\b(?:look|search|google) (?:that|this|it) up\b|\bgoogle it\b|\ba quick (?:web |online |google )?search\b"
    r"|\b(?:do|doing) (?:some|your own|a little|more) research\b"
    r"|\b(?:refer to|check|consult|see) (?:the|your|an?) (?:[a-z]+ )?(?:website|manual|"
    r"documentation|guidelines|resources?|sources?|listings)\b(?![^.]*\b(?:is|are|says?|shows?|lists?|states?|recommends?)\b)"
    r"|\b(?:reach out to|contact) (?:a|an|your) (?:[a-z-]+ )?" + _PROFESSIONALS +
    r"|\bthere(?:'s| is) no (?:simple|easy|single|one|right|definitive|clear|straightforward) answer\b"
    r"|\b(?:opinions|views|answers) (?:vary|differ)\s*[.!]?$|\bvaries (?:from person to person|by person)\b"
    r"|\b(?:i'll|i will|i'd|i would) (?:leave|let) (?:that|it|this) (?:to|up to|for) you\b"
    r"|\b(?:i'm|i am) not (?:able|allowed|going|the right (?:person|one)) to (?:say|comment|answer|discuss|"
    r"speculate|advise)\b|\b(?:i'd|i would) (?:prefer|rather) not (?:to )?(?:say|comment|answer|speculate)\b"
    r"|\blet(?:'s| us) (?:focus on|talk about|move on to|discuss) something else\b"
    r"|\bonly (?:you|time) (?:can|will) (?:decide|tell|say)\b|\bthat(?:'s| is) (?:a )?personal (?:choice|"
    r"decision|preference)\b|\bthat(?:'s| is) (?:a )?matter of (?:personal )?(?:taste|preference|opinion)\b",
    re.IGNORECASE)
"""Evasion and filler cues beyond ``checks.refusal``: send the user elsewhere, decline, or say nothing specific."""
FEATURES = ("cos", "overlap", "residual", "type_given", "type_missing", "cue_type_missing", "generic", "cue",
            "specific", "log_words")
"""The model's features, in order (``features``)."""
OFF_QUESTION = "it answers another question or says nothing specific"
"""The reason of a statement the model calls "no" (a rubric counts it as on the subject, half)."""
SHORT_ANSWER_WORDS = 5
"""A statement of at most this many words that gives what its question word asks for is a direct answer on its own."""


def last_line(query: str) -> str:
    """The last non-blank line of a query (a turn's own question after the history)."""
    lines = [line for line in query.strip().splitlines() if line.strip()]
    return lines[-1] if lines else query


def content_words(text: str) -> set[str]:
    """The lowercased words of a text that name its topic: no stopwords (spaCy's list), no question-form words."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return {w for w in WORD.findall(text.lower()) if w not in STOP_WORDS and w not in _QUESTION_FORM}


def same_stem(a: str, b: str) -> bool:
    """Equal, or a common prefix of at least 3 letters and of all but 2 letters of the shorter word."""
    if a == b:
        return True
    common = len(os.path.commonprefix([a, b]))
    return common >= max(3, min(len(a), len(b)) - 2)


def shared(query_words: set[str], words: set[str]) -> float:
    """Share of the query's content words that the statement has (same stem); 1 if the query has none."""
    if not query_words:
        return 1.0
    return sum(any(same_stem(q, w) for w in words) for q in query_words) / len(query_words)


_PARTS = re.compile(r",?\s+(?:and|or|but)\s+(?=(?:when|how|who|whom|whose|where|why|what|which)\b)")
"""Where a question asks a second question ("When was it built and how tall is it?")."""


def question_parts(query: str) -> list[str]:
    """The questions of the query's last line, lowercased ("when was it built", "how tall is it?": ``_PARTS``)."""
    return _PARTS.split(last_line(query).lower())


def part_types(query: str) -> list[AnswerType | None]:
    """The answer type each question of the query's last line asks for (``question_parts``; None: none)."""
    return [next((kind for pattern, kind in QUESTION_TYPES if pattern.match(part)), None)
            for part in question_parts(query)]


def asked(query: str) -> AnswerType | None:
    """The answer type the query's last line asks for (the first matching row of ``QUESTION_TYPES``; None: none).

    A question of several parts (``_PARTS``) asks for one type only if each part asks for it; else None.
    """
    kinds = set(part_types(query))
    return kinds.pop() if len(kinds) == 1 else None


def _year(low: float, high: float, unit: str, text: str) -> bool:
    """Whether a number is a year (1000-2100, no unit, four digits: "1868", not "1,500") or a decade or century."""
    return not unit and 1000 <= low <= high <= 2100 and (
        str(int(low)) in text if low == high else high - low in (9, 99))


def _numbers_give(kind: str, statement: Statement, question: str) -> bool:
    """Whether the statement's numbers give a date (a year, month, clock time or century) or a count (not a year).

    A number the question has ("in 2018") is its subject, not an answer.
    """
    numbers = [n for n in (statement.facts or Facts()).numbers if f"{n[0]:g}" not in question]
    if kind == "date":
        return any(unit in ("month", "clock") or (1000 <= low <= 2100 and not unit) for low, _, unit, _ in numbers)
    return kind == "count" and any(not _year(low, high, unit, statement.text) for low, high, unit, _ in numbers)


def _own_entities(statement: Statement, question: str) -> set[str]:
    """The entity labels of a statement's entities that the question (lowercased) does not name."""
    asked_words = set(WORD.findall(question))
    return {label for name, label in (statement.facts or Facts()).entities
            if not set(WORD.findall(name)) <= asked_words}


def other_event(question: str, text: str) -> str | None:
    """The word by which a text tells the other end of the event its question asks about (``EVENT_ENDS``), or None.

    "began" for "World War II began in 1939." to "When did World War II end?"; None when the question names both ends
    or the text also names the end asked about ("It began in 1939 and ended in 1945.").
    """
    question, text = question.lower(), text.lower()
    for asked_end, other_end in (EVENT_ENDS, EVENT_ENDS[::-1]):
        told = other_end.search(text)
        if told and asked_end.search(question) and not other_end.search(question) and not asked_end.search(text):
            return told.group(0)
    return None


def gives(kind: AnswerType, statement: Statement, question: str = "", entities: bool = True) -> bool:
    """Whether a statement gives an answer type: an entity label, a number of its kind or a cue word of its row.

    Entities and numbers of the question (its subject, "World War II") do not count; ``entities=False``: numbers and
    cue words only (an entity label may be a stray name: "Queensland" to "What is the capital of Australia?"). A
    statement about the other end of the event asked about gives nothing (``other_event``: "began in 1939" to "When
    did it end?").
    """
    text, question = statement.matched_text, question.lower()
    if other_event(question, text):
        return False
    labels = _own_entities(statement, question) if entities else set()
    short = len(WORD.findall(statement.text.lower())) <= SHORT_ANSWER_WORDS
    return bool(labels & (kind.labels | (kind.short_labels if short else frozenset()))) or (
        _numbers_give(kind.numbers, statement, question)) or bool(kind.cues and kind.cues.search(text))


def answer_type_given(query: str, statement: Statement, direct_only: bool = False) -> bool | None:
    """Whether a statement gives what the query's question asks for (``QUESTION_TYPES``; None: no type asked).

    when: a date; how many/much/long/...: a number (not a year); who: a person or organisation; where: a place; why:
    a cause cue; how to: a method cue; what is X: a definition cue. ``direct_only``: only the types a direct answer
    must give (None for cause, method and definition). A question of several parts (``question_parts``: "When was
    it completed and how tall is it?"): True when the statement gives the type of one part, False when every part
    asks for a type and it gives none, else None.
    """
    kinds = [k if k is not None and (k.direct or not direct_only) else None for k in part_types(query)]
    if any(k is not None and gives(k, statement, last_line(query)) for k in kinds):
        return True
    return None if None in kinds else False


def short_typed_answer(query: str, statement: Statement) -> bool:
    """A fragment ("In 1889.") or pronoun statement of at most ``SHORT_ANSWER_WORDS`` words giving the type asked.

    The date, number, person or place the question asks for; a short clause with its own subject ("Kangaroos are
    marsupials.", spaCy's GPE) is no such answer unless it gives the date or number asked (``short_number_answer``).
    To a yes/no question, a statement of any length that opens with an explicit yes or no is one (``yes_no_answer``:
    "Yes, most do.").
    """
    return yes_no_answer(query, statement) or short_number_answer(query, statement) or short_fragment(statement) and (
        bool(answer_type_given(query, statement, direct_only=True)) or fragment_answers(query, statement))


def short_number_answer(query: str, statement: Statement) -> bool:
    """A short statement (``SHORT_ANSWER_WORDS``) without a name of its own that gives the date or number asked.

    "Construction finished in March 1889." to "When was the Eiffel Tower completed?" (of any part of the question).
    A number of the asked kind is a reliable answer, verbs or not; a name of its own ("Paris has 2 million people.")
    may be another subject.
    """
    question = last_line(query).lower()
    if len(WORD.findall(statement.text.lower())) > SHORT_ANSWER_WORDS or _own_entities(statement, question) or \
            other_event(question, statement.matched_text):
        return False
    return any(k is not None and k.numbers and _numbers_give(k.numbers, statement, question) for k in part_types(query))


def yes_no_answer(query: str, statement: Statement) -> bool:
    """Whether the query is a yes/no question (``YES_NO_QUESTION``) and the statement opens with ``YES_NO_ANSWER``."""
    return bool(YES_NO_QUESTION.match(last_line(query).lower()) and YES_NO_ANSWER.match(statement.text))


def fragment_answers(query: str, statement: Statement) -> bool:
    """Whether a short verbless fragment answers the query by ``SHORT_ANSWERS`` ("Yes.", "Avocado.")."""
    question = last_line(query).lower()
    rows = [start for pattern, start in SHORT_ANSWERS if pattern.match(question)]
    lemmas = (statement.facts or Facts()).lemmas
    if not rows or any(pos in ("VERB", "AUX") for _, pos in lemmas) or \
            len(WORD.findall(statement.text.lower())) > SHORT_ANSWER_WORDS:
        return False
    if rows[0] is not None:
        return bool(rows[0].match(statement.text.lower()))
    words = set(WORD.findall(question))
    return any(pos in ("NOUN", "PROPN") and lemma not in FILLER_WORDS and not any(same_stem(lemma, w) for w in words)
               for lemma, pos in lemmas)


def filler(query: str, statement: Statement) -> bool:
    """A statement of ``FILLER_SHARE`` or more generic content words (two or more) and none of the query's: a filler.

    "This is a complex topic with many factors to consider." fits any question (``FILLER_WORDS``).
    """
    mine = content_words(statement.matched_text)
    if len(mine) < 2 or any(same_stem(w, q) for w in mine for q in content_words(query)):
        return False
    return sum(map(_generic, mine)) / len(mine) >= FILLER_SHARE - 1e-9


def _generic(word: str) -> bool:
    """Whether a content word is generic (``FILLER_WORDS``, also in the plural)."""
    return word in FILLER_WORDS or word.rstrip("s") in FILLER_WORDS


FILLER_SHARE = 0.75
"""The share of generic content words (``FILLER_WORDS``) from which a statement sharing no query word is a filler."""


_NAMED_ANSWERS = frozenset({"a date", "a number", "a person or organisation", "a place"})


def echo(query: str, statement: Statement) -> bool:
    """A restatement of a question that is not a yes/no question: the query's words and generic words only.

    Generic: ``FILLER_WORDS`` and ``TOPIC_TALK`` ("Sleep is a fascinating topic that scientists have studied for
    decades." to "How can I improve my sleep?" gives no method).

    "External factors can influence your own work role in a number of ways." to "explain how external factors
    influence own work role" says nothing the question does not. Not an echo: the same words to a yes/no question (an
    answer), a negation, a number, any words to a question for a date, number, person or place (the answer may be a
    stopword: "often"), and "To measure X:" (the lead of a list).
    """
    question, facts = last_line(query), statement.facts or Facts()
    kind = asked(query)
    if YES_NO_QUESTION.match(question.lower()) or facts.negated or facts.numbers or (
            kind is not None and kind.name in _NAMED_ANSWERS) or statement.text.lower().startswith("to "):
        return False  # "To measure product-market fit:" leads a list; "A spider has eight legs." gives a number
    mine, theirs = content_words(statement.matched_text), content_words(question)
    rest = {w for w in mine if not any(same_stem(w, q) for q in theirs)}
    return len(mine) >= 2 and rest != mine and all(w in TOPIC_TALK or _generic(w) for w in rest)


def short_fragment(statement: Statement) -> bool:
    """At most ``SHORT_ANSWER_WORDS`` words, and no verb ("In 1889.") or a leading pronoun ("It has eight.")."""
    short = len(WORD.findall(statement.text.lower())) <= SHORT_ANSWER_WORDS
    verbs = any(pos in ("VERB", "AUX") for _, pos in (statement.facts or Facts()).lemmas)
    return short and (not verbs or PRONOUN_START.match(statement.text) is not None)


def not_direct(query: str, query_terms: tuple[set[str], set[str]], statement: Statement,
               direct_share: float) -> str | None:
    """Why a statement is not a direct answer to the query (None if it is one; ``HeuristicJudge.direct_answer``).

    It shares less than ``direct_share`` of the query's content words (``query_terms``: of the whole query and of its
    last line), unless it gives what the question word asks for and is short or starts with a pronoun; or it lacks
    what the question word asks for; or it tells the other end of the event asked about (``other_event``).
    """
    other = other_event(last_line(query), statement.matched_text)
    if other:
        return f"'{other}': it tells the other end of the event the question asks about"
    mine = set(WORD.findall(statement.matched_text.lower()))
    share = max(shared(t, mine) for t in query_terms)
    given = answer_type_given(query, statement, direct_only=True)
    refers = (PRONOUN_START.match(statement.matched_text) or short_fragment(statement)
              or short_number_answer(query, statement))
    if share < direct_share - 1e-9 and not (given and refers):
        return f"{share:.2f} of the query's terms (< {direct_share:g})"
    if given is False:
        wanted = " or ".join(dict.fromkeys(k.name for k in part_types(query) if k is not None))
        return f"the question asks for {wanted}, the statement gives none"
    return None


def non_answer(text: str) -> bool:
    """Whether a statement sends the user elsewhere, declines, or is a stock filler phrase (``_NON_ANSWER``)."""
    return bool(_NON_ANSWER.search(text.strip()))


def residual_texts(query: str, statement: str) -> tuple[str, str]:
    """The query's last line without the statement's words and the statement without the query's (the subject out).

    What is left of the question is what it asks; what is left of the statement is what it says about the subject.
    """
    question, words = last_line(query).lower(), set(WORD.findall(statement.lower()))
    asks = [w for w in WORD.findall(question) if not any(same_stem(w, s) for s in words)]
    query_words = content_words(question)
    says = [w for w in WORD.findall(statement.lower()) if not any(same_stem(w, q) for q in query_words)]
    return " ".join(asks) or question, " ".join(says) or statement.lower()


def features(query: str, statement: Statement, cos: float, residual: float) -> np.ndarray:
    """The pair's features in ``FEATURES`` order; cos and residual are the encoder similarities of the two texts."""
    text = statement.matched_text
    words = WORD.findall(text.lower())
    query_words = content_words(last_line(query))
    own = content_words(text) - {w for w in content_words(text) if any(same_stem(w, q) for q in query_words)}
    kind = asked(query)
    given = None if kind is None else gives(kind, statement, last_line(query))
    facts = statement.facts or Facts()
    generic = sum(w in GENERIC_WORDS for w in own) / len(own) if own else 1.0
    direct = kind is not None and kind.direct
    return np.array([cos, shared(query_words, set(words)), residual, float(given is True),
                     float(given is False and direct), float(given is False and not direct), generic,
                     float(non_answer(text)), float(bool(facts.numbers or facts.entities)), math.log1p(len(words))])


@dataclass(frozen=True)
class RelevanceModel:
    """P(relevant) = sigmoid(intercept + coef . (x - mean) / scale), "no" below ``cutoff`` (``data/`` JSON)."""

    coef: tuple[float, ...]
    intercept: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    cutoff: float
    metadata: dict[str, Any]

    def probability(self, rows: np.ndarray) -> np.ndarray:
        """P(the statement addresses the question) for each row of features (``FEATURES`` order)."""
        rows = np.atleast_2d(rows)
        z = self.intercept + ((rows - np.array(self.mean)) / np.array(self.scale)) @ np.array(self.coef)
        return np.asarray(1 / (1 + np.exp(-z)))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RelevanceModel:
        """The model from its JSON; the features must be ``FEATURES``."""
        if tuple(data.get("features", ())) != FEATURES:
            raise ValueError(f"relevance model: features {data.get('features')!r} are not {FEATURES!r}")
        return cls(tuple(data["coef"]), float(data["intercept"]), tuple(data["mean"]), tuple(data["scale"]),
                   float(data["cutoff"]), dict(data.get("metadata", {})))


MODEL_FILE = "relevance-model.json"


@cache
def load_model() -> RelevanceModel:
    """The packaged relevance model (``ir_rag_axioms/data/relevance-model.json``)."""
    return RelevanceModel.from_dict(packaged_json(MODEL_FILE))
