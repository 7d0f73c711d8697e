"""The rubric's 1-5 answer-relevancy level (seed 003) of an answer from the verdicts of its distinct statements."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ir_rag_axioms.metrics.interface import Statement
from ir_rag_axioms.metrics.relevance import (
    CONJUNCTS,
    OFF_QUESTION,
    PRONOUN_START,
    QUESTION_TYPE,
    WORD,
    answer_type_given,
    content_words,
    gives,
    last_line,
    not_direct,
    part_types,
    question_parts,
    same_stem,
    shared,
    short_typed_answer,
)
from ir_rag_axioms.metrics.results import VERDICTS, RubricJudgment, Verdict

Judged = tuple[Verdict, str]
"""A statement's verdict and its reason."""
_PRO_CUES = re.compile(r"\b(?:pros?|advantages?|benefits?|upsides?|strengths?|positives?|good|better|low(?:er)?|less|"
                       r"cheap\w*|clean\w*|reliab\w*|efficien\w*|safe|safer|renewable|improv\w*|reduc\w*|"
                       r"sav(?:e|es|ing|ings)|boost\w*|help\w*|protect\w*|prevent\w*|eas(?:y|ier|ily)|fast\w*|"
                       r"flexib\w*|convenien\w*|abundant|stable|durable|powerful)\b")
_CON_CUES = re.compile(r"\b(?:cons|disadvantages?|drawbacks?|downsides?|weakness\w*|negatives?|risks?|risky|however|"
                       r"although|expensive|costly|high(?:er)? (?:\w+ )?costs?|waste|dangers?|dangerous|harm\w*|"
                       r"problems?|concerns?|accidents?|pollut\w*|difficult\w*|unsafe|bad|worse|lack\w*|limit\w*|"
                       r"unreliable|intermittent|slow\w*|toxic|side effects?|vulnerab\w*)\b")
PART_CUES = {**dict.fromkeys(("pros", "pro", "advantages", "advantage", "benefits", "upsides", "strengths"), _PRO_CUES),
             **dict.fromkeys(("cons", "con", "disadvantages", "disadvantage", "drawbacks", "downsides", "weaknesses",
                              "risks"), _CON_CUES)}
"""Parts of "A and B" that an answer gives in other words ("pros and cons": "low emissions ... however, waste")."""
SHARE_LEVELS: tuple[tuple[float, int], ...] = ((1 - 1e-9, 5), (0.75, 4), (0.4, 3))
"""On-topic share f -> level: the first (edge, level) with f >= edge (f = 1: 5, from 0.75: 4, from 0.4: 3); below
them 2 above 0 and 1 at 0."""


def share_level(fraction: float) -> int:
    """The level of an on-topic share (``SHARE_LEVELS``): 5 at 1, 4 from 0.75, 3 from 0.4, 2 above 0, 1 at 0."""
    return next((level for edge, level in SHARE_LEVELS if fraction >= edge), 2 if fraction > 0 else 1)


@dataclass(frozen=True)
class _Answer:
    """An answer's distinct statements with their rubric verdicts, its query, and the repeats left out."""

    query: str
    words: tuple[set[str], set[str]]
    """The content words of the whole query and of its last line."""
    found: Sequence[Statement]
    judged: list[Judged]
    repeats: int
    direct_share: float

    @property
    def on_topic(self) -> list[Statement]:
        """The statements not judged "no"."""
        return [st for st, j in zip(self.found, self.judged, strict=True) if j[0] != "no"]


def _on_subject(judged: Judged) -> Judged:
    """A statement the relevance model calls "no" (on the subject, but not an answer) is "idk": it dodges (anchor 3)."""
    verdict, why = judged
    if verdict == "no" and OFF_QUESTION in why:
        return "idk", f"{why}; on the subject: half on topic"
    return judged


def _off_topic(query: str, words: tuple[set[str], set[str]], statement: Statement, judged: Judged,
               direct_share: float) -> Judged:
    """An "idk" statement that shares no content word with the query is off topic ("no").

    Unless it starts with a pronoun or yes/no (which refer to the query), is a direct answer ("In 1889."), or gives
    what the question asks for by a number or cue word ("100 degrees Celsius at sea level." to "What is the boiling
    point of water?", "Keep a regular bedtime." to "How can I improve my sleep?"; a name alone may be a stray one).
    """
    verdict, why = judged
    text, line = statement.matched_text, last_line(query)
    if (verdict == "idk" and any(words) and not PRONOUN_START.match(text)
            and not max(shared(w, set(WORD.findall(text.lower()))) for w in words if w)
            and not_direct(query, words, statement, direct_share) is not None
            and not any(k is not None and gives(k, statement, line, entities=False) for k in part_types(query))):
        return "no", f"{why}; shares no word of the query: off topic"
    return judged


def _redundant(answer: _Answer, level: int) -> tuple[int, str | None]:
    """A statement said again: at most 4, at most 3 when half the statements or more are repeats."""
    if not answer.repeats or level <= 3:
        return level, None
    cap = 3 if answer.repeats >= len(answer.found) else 4
    return min(level, cap), f"{answer.repeats} repeated statement(s): redundant (at most {cap})"


def _says(word: str, text: str, said: set[str]) -> bool:
    """Whether statements (their lowercased text and words) give a part "word" of "A and B": the word, or its cues.

    The word in another form ("treatments"), not a longer word it begins ("cons" is not "construction");
    ``PART_CUES`` words for pros, cons, advantages, risks ...
    """
    cues = PART_CUES.get(word)
    return any(same_stem(word, w) and (min(len(w), len(word)) > 4 or abs(len(w) - len(word)) <= 2) for w in said) \
        or bool(cues and cues.search(text))


def _left_out(answer: _Answer, on_topic: Sequence[Statement]) -> list[str]:
    """The parts of the question the on-topic statements leave out (quoted for the note).

    A part: one of "A and B" within a question (``CONJUNCTS``), or a question of several ("When was it completed and
    how tall is it?": ``question_parts``) whose date, number, person or place no on-topic statement gives.
    """
    text = " ".join(st.matched_text.lower() for st in on_topic)
    said = set(WORD.findall(text))
    questions = question_parts(answer.query)
    parts = [repr(w) for part in questions for pair in CONJUNCTS.findall(part) for w in pair
             if w in answer.words[1] and not _says(w, text, said)]
    if len(questions) > 1:
        line = last_line(answer.query)
        parts += [repr(q.strip(" ?,")) for q, kind in zip(questions, part_types(answer.query), strict=True)
                  if kind is not None and kind.direct and not any(gives(kind, st, line) for st in on_topic)]
    return parts


def _omits(answer: _Answer, level: int) -> tuple[int, str | None]:
    """An omission: at most 4 (the on-topic statements have < ``direct_share`` of the query's words, or omit a part).

    A part (``_left_out``): one of "A and B" in the question, or one question of several; a short typed answer
    ("In 1889.") is complete without the query's words.
    """
    on_topic = answer.on_topic
    said = {w for st in on_topic for w in WORD.findall(st.matched_text.lower())}
    covered = max(shared(w, said) for w in answer.words)
    parts = _left_out(answer, on_topic)
    short = any(short_typed_answer(answer.query, st) for st in on_topic)
    if not (on_topic and level > 4 and ((covered < answer.direct_share - 1e-9 and not short) or parts)):
        return level, None
    return 4, (f"the on-topic statements leave out {', '.join(parts)} of the question" if parts
               else f"the on-topic statements have {covered:.2f} of the query's words: an omission (at most 4)")


def _direct(answer: _Answer, statement: Statement) -> bool:
    """A direct answer for the dodge cap: one that gives what is asked, or that ``not_direct`` passes.

    The date, number, person or place asked (of one part), in any words: "Work on the tower ended on 31 March 1889."
    """
    return bool(answer_type_given(answer.query, statement, direct_only=True)) or \
        not_direct(answer.query, answer.words, statement, answer.direct_share) is None


def _dodges(answer: _Answer, level: int) -> tuple[int, str | None]:
    """No direct answer (``_direct``) to a when/who/where/how-many question (or part): at most 3 (it dodges)."""
    on_topic = answer.on_topic
    wanted = next((m for m in map(QUESTION_TYPE.match, question_parts(answer.query)) if m), None)
    if on_topic and wanted and level >= 3 and not any(_direct(answer, st) for st in on_topic):
        word = re.sub(r"^\W+", "", wanted.group(0))
        return 3, f"no statement gives what '{word}' asks for: it dodges (at most 3)"
    return level, None


def _evasive(answer: _Answer, level: int) -> tuple[int, str | None]:
    """Refusals and evasions only: 1; partly evasive: at most 3 (anchor 3: partly on topic, partly evasive)."""
    refused = [j for j in answer.judged if j[1].startswith(("refusal", "evasion"))]
    if refused and len(refused) == len(answer.judged):
        return 1, None
    if refused and level > 3:
        return 3, f"{len(refused)} refusal or evasion (at most 3)"
    return level, None


CAPS = (_redundant, _omits, _dodges, _evasive)
"""The anchors' caps on the level, applied in this order: redundancy, omission, dodging, evasion."""


def relevancy_judgment(query: str, found: Sequence[Statement], judged: Sequence[Judged], repeats: int,
                       direct_share: float) -> RubricJudgment:
    """Seed 003's answer-relevancy level of an answer from the task-mode verdicts of its distinct statements.

    A statement the relevance model calls "no" (on the subject, but not an answer) counts as "idk" here. An "idk"
    statement that shares no content word with the query (and does not start with a pronoun or yes/no, which refer
    to it) is off topic. On-topic share f = (yes + idk / 2) / distinct statements: 5 at f = 1, 4 from 0.75, 3 from
    0.4, 2 above 0, 1 at 0 or for an answer of refusals and evasions only. Then the caps of the anchors (``CAPS``):
    redundancy (``repeats`` statements said again) at most 4, at most 3 when half the statements or more are repeats;
    an omission at most 4 (the on-topic statements have less than ``direct_share`` of the query's content words, or
    leave out one part of "A and B"); no statement that gives the date, number, person or place a when/who/where/
    how-many question asks for, nor a direct answer by ``not_direct``, at most 3 (it dodges); partly evasive at most 3.
    """
    if not judged:
        return RubricJudgment(1, "the output has no statements: it answers nothing (level 1)", (), 1.0)
    words = (content_words(query), content_words(last_line(query)))
    judged = [_off_topic(query, words, st, _on_subject(j), direct_share) for st, j in zip(found, judged, strict=True)]
    answer = _Answer(query, words, found, judged, repeats, direct_share)
    counts = {v: sum(j[0] == v for j in judged) for v in VERDICTS}
    fraction = (counts["yes"] + counts["idk"] / 2) / len(judged)
    level, notes = share_level(fraction), []
    for cap in CAPS:
        level, note = cap(answer, level)
        notes += [note] if note else []
    details = tuple({"statement": st.text, "verdict": j[0], "reason": j[1]}
                    for st, j in zip(found, judged, strict=True))
    reason = (f"{counts['yes']} yes, {counts['idk']} idk, {counts['no']} no of {len(judged)} distinct "
              f"statements (on-topic share {fraction:.2f}, idk counting half) -> level {level}"
              + (f"; {'; '.join(notes)}" if notes else ""))
    return RubricJudgment(level, reason, details, 1 - counts["idk"] / len(judged))
