"""Contradictions read off the parse's structure: polarity and modifiers of the same verb and argument, modality, price.

Read off the parse (``_structure.py``): the same verb with the same argument negated or modified by an antonym in
another sentence, an obligation against its absence, "must" for "may", a price for "free".
"""

from __future__ import annotations

from collections.abc import Sequence

from ir_rag_axioms.metrics._checks_lexicon import (
    _PRONOUN_LEMMAS,
    _lemma_pos,
    _lemma_set,
    antonyms,
)
from ir_rag_axioms.metrics._checks_numbers import _MONEY_UNITS, _number
from ir_rag_axioms.metrics.statements import Facts


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


def obligation_conflicts(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """An obligation against its absence: "must V" where the sentence says "does not have to V", or the reverse."""
    theirs = {(verb, kind) for verb, kind in sentence.modals}
    out = [f"modality: {own} says '{verb}' is {'required' if kind == 'necessary' else 'optional'}, {where} "
           f"{'that it need not be' if kind == 'necessary' else 'that it must be'}"
           for verb, kind in statement.modals if kind in ("necessary", "optional")
           and (verb, "optional" if kind == "necessary" else "necessary") in theirs and (verb, kind) not in theirs]
    return list(dict.fromkeys(out))


def overgeneralised(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Unsupported strengthening: "must/will V" where the sentence says "may/can V"."""
    possible = {verb for verb, kind in sentence.modals if kind in ("possible", "optional")}
    necessary = {verb for verb, kind in sentence.modals if kind == "necessary"}
    out = [f"modality: {own} says '{verb}' is certain (must/will), {where} only possible (may/can)"
           for verb, kind in statement.modals if kind == "necessary" and verb in possible and verb not in necessary]
    return list(dict.fromkeys(out))


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
