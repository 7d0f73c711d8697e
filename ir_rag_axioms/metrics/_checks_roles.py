"""Findings read off the parse's structure: polarity of the same verb and argument, and modality.

Read off the parse (``_structure.py``): the same verb with the same argument negated in another sentence (a
contradiction), "must" for "may" (unsupported).
"""

from __future__ import annotations

from collections.abc import Sequence

from ir_rag_axioms.metrics._checks_lexicon import _PRONOUN_LEMMAS
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


def overgeneralised(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Unsupported strengthening: "must/will V" where the sentence says "may/can V"."""
    possible = {verb for verb, kind in sentence.modals if kind in ("possible", "optional")}
    necessary = {verb for verb, kind in sentence.modals if kind == "necessary"}
    out = [f"modality: {own} says '{verb}' is certain (must/will), {where} only possible (may/can)"
           for verb, kind in statement.modals if kind == "necessary" and verb in possible and verb not in necessary]
    return list(dict.fromkeys(out))
