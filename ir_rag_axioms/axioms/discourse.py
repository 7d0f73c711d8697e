"""Clarity axioms beyond the paper: discourse structure (CLAR3), varied sentence openings (CLAR4), easy co-reference.

CLAR5 resolves no co-reference with a model (no co-reference component installs offline here); its heuristic: a
third-person pronoun is hard to resolve if no noun of the same grammatical number precedes it in its own or the
previous sentence (its antecedent is far away or missing), or if two or more distinct such nouns that are
subjects or objects do (ambiguous). All three are new in this library.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.text import sentences
from ir_rag_axioms.axioms.base import ParsedAxiom
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register

CONNECTIVES = (
    "first", "firstly", "second", "secondly", "third", "thirdly", "finally", "lastly", "next", "then", "however",
    "therefore", "thus", "hence", "consequently", "moreover", "furthermore", "additionally", "also", "in addition",
    "for example", "for instance", "in contrast", "on the other hand", "similarly", "likewise", "meanwhile",
    "instead", "nevertheless", "nonetheless", "overall", "in summary", "in conclusion", "to summarize", "in short",
    "as a result", "because", "since", "although", "while", "in fact", "indeed", "specifically", "notably",
    "in particular", "by contrast", "otherwise", "accordingly", "besides", "ultimately", "importantly",
)
"""Discourse connectives that open a signposted sentence (lowercased; multi-word ones as phrases)."""

_CONNECTIVE = re.compile(r"^\W*(?:" + "|".join(re.escape(c) for c in sorted(CONNECTIVES, key=len, reverse=True))
                         + r")\b", re.IGNORECASE)
_STRUCTURE = re.compile(r"^[ \t]*(?:[-*\u2022+]\s|\d{1,2}[.)]\s|#{1,6}\s|\*\*[^*\n]+\*\*)")
_HEADING = re.compile(r"^[^\n.!?]{1,80}:[ \t]*$")


def _line_of(text: str, start: int) -> tuple[str, bool]:
    """The line in which the sentence starting at ``start`` begins, and whether the sentence begins that line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    return text[line_start:line_end if line_end >= 0 else len(text)], not text[line_start:start].strip(" \t-*#\u2022")


def signposted_share(doc: Any) -> float:
    """Share of sentences opened by a connective, or starting a list item, heading or paragraph (NaN without any).

    A paragraph is a sentence after a blank line; a heading a line that starts with ``#`` or ends with a colon.
    """
    text, found = doc.text, [s for s in sentences(doc) if s.text.strip()]
    if not found:
        return float("nan")
    marked = 0
    for k, sentence in enumerate(found):
        line, begins = _line_of(text, sentence.start_char)
        paragraph = k > 0 and re.search(r"\n[ \t]*\n\s*$", text[:sentence.start_char]) is not None
        structure = begins and (_STRUCTURE.match(line) is not None or _HEADING.match(line.strip()) is not None)
        marked += bool(_CONNECTIVE.match(sentence.text) or structure or paragraph)
    return marked / len(found)


def _opening(sentence: Any) -> str | None:
    words = [t for t in sentence if t.is_alpha]
    return words[0].lower_ if words else None


def opening_variety(doc: Any) -> float:
    """Distinct first words / sentences with a word (lowercased); NaN with fewer than two such sentences."""
    openings = [o for o in (_opening(s) for s in sentences(doc)) if o is not None]
    return len(set(openings)) / len(openings) if len(openings) >= 2 else float("nan")


PRONOUNS = {"he": "Sing", "him": "Sing", "his": "Sing", "she": "Sing", "her": "Sing", "hers": "Sing",
            "it": "Sing", "its": "Sing", "they": "Plur", "them": "Plur", "their": "Plur", "theirs": "Plur"}
"""Third-person pronouns and the grammatical number of their antecedent."""
_ARGUMENTS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr", "appos", "conj", "dative", "ROOT"})


def _number(token: Any) -> str:
    number = token.morph.get("Number")
    return str(number[0]) if number else "Sing"


def hard_pronouns(doc: Any) -> list[tuple[str, str]]:
    """(pronoun, why) for each third-person pronoun without a unique compatible antecedent nearby.

    Candidates: nouns and proper nouns of the pronoun's number before it in its sentence or the previous one;
    why = "far" without candidates, "ambiguous" with two or more distinct candidate subjects or objects.
    """
    found = sentences(doc)
    out = []
    for k, sentence in enumerate(found):
        window_start = found[k - 1].start if k else sentence.start
        for token in sentence:
            number = PRONOUNS.get(token.lower_)
            if number is None or token.pos_ != "PRON" or token.dep_ == "expl":
                continue
            candidates = [t for t in doc[window_start:token.i] if t.pos_ in ("NOUN", "PROPN") and _number(t) == number]
            salient = {t.lemma_.lower() for t in candidates if t.dep_ in _ARGUMENTS}
            if not candidates:
                out.append((token.text, "far"))
            elif len(salient) >= 2:
                out.append((token.text, "ambiguous"))
    return out


def hard_pronouns_per_sentence(doc: Any) -> float:
    """Hard-to-resolve third-person pronouns / sentences (NaN without sentences)."""
    count = len([s for s in sentences(doc) if s.text.strip()])
    return len(hard_pronouns(doc)) / count if count else float("nan")


SIGNPOSTED_SHARE = Feature("signposted_share", ("parse",), signposted_share)
"""CLAR3's value."""
OPENING_VARIETY = Feature("opening_variety", ("parse",), opening_variety)
"""CLAR4's value."""
HARD_PRONOUNS = Feature("hard_pronouns_per_sentence", ("parse",), hard_pronouns_per_sentence)
"""CLAR5's value."""


class DiscourseStructureClarityAxiom(ParsedAxiom):
    """CLAR3: prefer more signposted sentences, |S_marked|/|S| >_10% (new in this library).

    A sentence is marked if it opens with a discourse connective or starts a list item, a heading or a paragraph.
    """

    name: ClassVar[str] = "CLAR3"
    dimension: ClassVar[str] = "clarity"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    undefined: ClassVar[str] = "no sentences"

    def feature(self) -> Feature:
        """Share of sentences opened by a connective or starting a list item, heading or paragraph."""
        return SIGNPOSTED_SHARE


class SentenceOpeningVarietyClarityAxiom(ParsedAxiom):
    """CLAR4: prefer more varied sentence openings, |distinct first words| / |S| >_10% (new in this library)."""

    name: ClassVar[str] = "CLAR4"
    dimension: ClassVar[str] = "clarity"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    undefined: ClassVar[str] = "fewer than two sentences"

    def feature(self) -> Feature:
        """Distinct first words per sentence."""
        return OPENING_VARIETY


class CoreferenceClarityAxiom(ParsedAxiom):
    """CLAR5: prefer fewer hard-to-resolve pronouns per sentence (new in this library).

    A third-person pronoun is hard if no noun of its number precedes it in its or the previous sentence, or two or
    more distinct such subjects or objects do (a heuristic on the spaCy parse, no co-reference model).
    """

    name: ClassVar[str] = "CLAR5"
    dimension: ClassVar[str] = "clarity"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    higher_is_better: bool = False
    undefined: ClassVar[str] = "no sentences"

    def feature(self) -> Feature:
        """Hard-to-resolve third-person pronouns per sentence."""
        return HARD_PRONOUNS


CLAR3 = register(DiscourseStructureClarityAxiom())
CLAR4 = register(SentenceOpeningVarietyClarityAxiom())
CLAR5 = register(CoreferenceClarityAxiom())
