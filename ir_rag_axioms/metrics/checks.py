"""The heuristic judge's checks of one statement against one sentence and the whole text it is judged against.

A statement can be contradicted (a number, date or quantity given differently, another named entity where the
matched sentence has one, a negation the sentence does not have or the reverse, an antonym) or unsupported (a number
or named entity the text does not have anywhere). Each finding is a short reason naming both sides ("number 1925 vs
1889"). Antonyms come from WordNet (the loader REG and STMC use) plus a few pairs WordNet lacks. Structural checks
read the parse (``_structure.py``): a verb negated in another sentence; "must" for "may" is unsupported. Quantities,
clock times, number words and aliases (acronyms, demonyms) are normalised (``quantities.py``). A number that is the
sum or difference of two of the context's is "cannot tell", as is an antonym said as a comparative ("B is smaller
than A" against "A is larger than B": which side is which is not read) or a surname for a full name. A contradiction
in other words is still not found.

The checks live in private modules by family: ``_checks_lexicon`` (antonyms, words, the pool), ``_checks_numbers``,
``_checks_contradictions`` (negation, antonyms), ``_checks_roles`` (polarity and modality off the parse) and
``_checks_differences`` (numbers and names the text lacks); this module is their public place and reads refusals.
"""

from __future__ import annotations

import re

from ir_rag_axioms.metrics._checks_contradictions import contradictions
from ir_rag_axioms.metrics._checks_differences import ALIGN_MARGIN, differences, missing_content
from ir_rag_axioms.metrics._checks_lexicon import Pool, describe
from ir_rag_axioms.metrics._checks_roles import overgeneralised, polarity_conflicts

__all__ = ["ALIGN_MARGIN", "Pool", "contradictions", "describe", "differences", "missing_content",
           "overgeneralised", "polarity_conflicts", "refusal"]


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
