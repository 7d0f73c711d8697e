"""Contradictions in a statement's structure: roles and causes reversed, polarity, modifiers, quantifiers, modality.

Read off the parse (``_structure.py``): who did what to whom, cause and effect, quantifiers, modals, a price for
"free".
"""

from __future__ import annotations

from collections.abc import Sequence

from ir_rag_axioms.metrics._checks_lexicon import (
    _PRONOUN_LEMMAS,
    _entity_words,
    _lemma_pos,
    _lemma_set,
    antonyms,
)
from ir_rag_axioms.metrics._checks_numbers import _MONEY_UNITS, _number
from ir_rag_axioms.metrics.statements import Facts

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
