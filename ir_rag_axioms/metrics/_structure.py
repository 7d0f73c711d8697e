"""Structure read off a statement's dependency parse: who did what to whom, and modality.

- roles: (verb lemma, role, argument lemma) with passives turned active (the agent "by X" is the subject, the
  passive subject an object) and an xcomp verb given its governor's subject ("X wanted to rid France of Y");
- modals: (verb lemma, "possible" / "necessary") of "may / might / can / could" and "must / will / always / has to".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_SUBJECTS = frozenset({"nsubj", "csubj"})
_OBJECTS = frozenset({"dobj", "dative", "attr", "oprd", "nsubjpass"})
_POSSIBLE = frozenset({"may", "might", "can", "could", "possibly", "perhaps", "sometimes", "occasionally", "likely",
                       "probably", "often", "usually", "generally", "typically", "frequently"})
_NECESSARY = frozenset({"must", "will", "always", "certainly", "definitely", "necessarily", "invariably", "shall",
                        "inevitably", "surely", "undoubtedly", "unavoidably"})
_SOME_CASES = frozenset({"case", "instance", "situation"})
_NOT_ROLES = frozenset({"than", "in", "at", "during", "since", "until", "for", "like", "as", "after", "before"})


def _head_lemma(token: Any) -> str:
    """The lemma an argument stands for: the noun of "none of the N", else the token's own lemma."""
    if token.lower_ in ("none", "all", "some", "most", "many", "each", "few") and token.pos_ in ("NOUN", "PRON", "DET",
                                                                                            "ADJ"):
        for child in token.children:
            if child.dep_ == "prep" and child.lower_ == "of":
                objects = [g for g in child.children if g.dep_ == "pobj"]
                if objects:
                    return str(objects[0].lemma_.lower())
    return str(token.lemma_.lower())


_RELATIVE = frozenset({"who", "that", "which", "whom"})


def _subject_lemma(verb: Any, subject: Any) -> str:
    """A subject's lemma: a relative pronoun as the noun its clause modifies, a cleft's "what" as the copula's subject.

    "two employees who withheld": employee; "X is what causes Y": X.
    """
    word = subject.lower_
    if word in _RELATIVE and verb.dep_ == "relcl" and verb.head.pos_ in ("NOUN", "PROPN"):
        return str(verb.head.lemma_.lower())
    if word == "what" and verb.head.lemma_ == "be" and verb.dep_ in ("ccomp", "attr", "acomp", "xcomp"):
        subjects = [c for c in verb.head.children if c.dep_ in _SUBJECTS and c.i < verb.i]
        if subjects and subjects[0].lower_ not in _RELATIVE:
            return _head_lemma(subjects[0])
    return _head_lemma(subject)


def _arguments(verb: Any, inherited: Any = None) -> list[tuple[str, str]]:
    """(role, argument lemma) of a verb: subject, objects, prepositional objects ("prep:on"), agents as subjects."""
    out: list[tuple[str, str]] = []
    has_subject = False
    for child in verb.children:
        if child.dep_ in _SUBJECTS:
            out.append(("subj", _subject_lemma(verb, child)))
            has_subject = True
        elif child.dep_ in _OBJECTS and child.pos_ in ("NOUN", "PROPN", "PRON"):
            out.append(("pred" if child.dep_ == "oprd" else "obj", _head_lemma(child)))  # "a group called X": X names
        elif child.dep_ == "agent":
            out += [("subj", _head_lemma(g)) for g in child.children if g.dep_ == "pobj"]
            has_subject = True
        elif child.dep_ == "prep" and child.lower_ not in _NOT_ROLES:
            out += [(f"prep:{child.lower_}", _head_lemma(g)) for g in child.children if g.dep_ == "pobj"]
        if child.dep_ in ("acomp", "advmod", "oprd", "ccomp", "dobj", "attr") and child.pos_ != "VERB":
            for prep in child.children:  # "make life tough on X", "rid France of X"
                if prep.dep_ == "prep" and prep.lower_ not in _NOT_ROLES:
                    out += [(f"prep:{prep.lower_}", _head_lemma(g)) for g in prep.children if g.dep_ == "pobj"]
    if not has_subject and inherited is not None:
        out.append(("subj", _head_lemma(inherited)))
    return [(role, lemma) for role, lemma in out if lemma not in ("-pron-",)]


def roles(span: Any) -> list[tuple[str, str, str]]:
    """(verb lemma, role, argument lemma) of every verb of a span (see the module docstring)."""
    out = []
    for token in span:
        if token.pos_ not in ("VERB", "AUX") or token.dep_ in ("aux", "auxpass"):
            continue
        inherited = None
        if token.dep_ in ("xcomp", "conj") and token.head.i != token.i:
            subjects = [c for c in token.head.children if c.dep_ in _SUBJECTS]
            agents = [g for c in token.head.children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
            inherited = (subjects or agents or [None])[0]
        out += [(token.lemma_.lower(), role, lemma) for role, lemma in _arguments(token, inherited)]
    return list(dict.fromkeys(out))


def _conjuncts(verb: Any) -> list[Any]:
    """The verbs coordinated with a verb ("accepted, amended, or rejected") without an auxiliary of their own."""
    out, todo = [], [verb]
    while todo:
        for c in todo.pop().children:
            if c.dep_ == "conj" and c.pos_ == "VERB" and not any(a.dep_ in ("aux", "auxpass") and a.lower_ not in
                                                                 ("be", "been") for a in c.children):
                out.append(c)
                todo.append(c)
    return out


def _chain(verb: Any, top: Any) -> bool:
    """Whether a verb hangs from ``top`` by open complements only ("may end up drawing": draw from end)."""
    while verb.i != top.i and verb.dep_ == "xcomp":
        verb = verb.head
    return verb.i == top.i


_MODAL_ADJECTIVES = {"certain": "necessary", "sure": "necessary", "bound": "necessary", "likely": "possible",
                     "possible": "possible", "able": "possible", "unlikely": "possible",
                     "guaranteed": "necessary", "inevitable": "necessary"}


def modals(span: Any) -> list[tuple[str, str]]:
    """(verb lemma, "possible" / "necessary" / "optional") of the modal verbs and adverbs of a span.

    "optional": "does not have to V", "need not V", "does not need to V". Each token is read by the first rule of
    ``_MODAL_RULES`` that applies to it.
    """
    out: list[tuple[str, str]] = []
    for token in span:
        out += next((found for rule in _MODAL_RULES if (found := rule(token)) is not None), [])
    return list(dict.fromkeys(out))


def _modal_word(token: Any) -> list[tuple[str, str]] | None:
    """Modal rule for "may / might / can / could" (possible) and "must / will / always" (necessary) and the verb."""
    word = token.lower_
    if not (token.dep_ in ("aux", "advmod") and (word in _POSSIBLE or word in _NECESSARY) and token.head.i != token.i):
        return None
    verb = token.head
    kind = "possible" if word in _POSSIBLE else "necessary"
    if word in ("can", "could", "ca") and any(c.dep_ == "neg" for c in verb.children):
        kind = "necessary"  # "cannot turn you away": certainly not, as "will not"
    out = [(verb.lemma_.lower(), kind)]
    if kind == "possible":  # "may end up drawing", "can begin to counter": what follows is only possible too
        out += [(x.lemma_.lower(), kind) for x in verb.subtree if x.dep_ == "xcomp" and x.pos_ == "VERB"
                and _chain(x, verb)]
    if verb.lemma_ == "be":  # "may be a sign": the complement too
        out += [(c.lemma_.lower(), kind) for c in verb.children if c.dep_ in ("attr", "acomp")]
    return out + [(c.lemma_.lower(), kind) for c in _conjuncts(verb)]  # "may be accepted, amended, or rejected"


def _modal_adjective(token: Any) -> list[tuple[str, str]] | None:
    """Modal rule for "they are certain to accept", "(more) likely to accept"."""
    word = token.lower_
    if not (word in _MODAL_ADJECTIVES and token.pos_ == "ADJ" and not any(c.dep_ == "neg" for c in token.children)):
        return None
    kind = _MODAL_ADJECTIVES[word]
    return [(v.lemma_.lower(), kind) for x in token.children if x.dep_ == "xcomp" and x.pos_ == "VERB"
            for v in (x, *_conjuncts(x))]


def _guaranteed(token: Any) -> list[tuple[str, str]] | None:
    """Modal rule for "it is guaranteed to eliminate"."""
    if not (token.lemma_.lower() == "guarantee" and token.pos_ == "VERB"
            and any(c.dep_ == "auxpass" for c in token.children)):
        return None
    return [(x.lemma_.lower(), "necessary") for x in token.children if x.dep_ == "xcomp" and x.pos_ == "VERB"]


def _in_some_cases(token: Any) -> list[tuple[str, str]] | None:
    """Modal rule for "In many cases, a business ... is more successful": only sometimes."""
    if not (token.dep_ == "pobj" and token.lemma_.lower() in _SOME_CASES and token.head.lower_ == "in" and any(
            c.dep_ == "amod" and c.lower_ in ("many", "some", "most", "certain") for c in token.children)):
        return None
    verb = token.head.head
    if verb.pos_ not in ("VERB", "AUX"):
        return []
    return [(verb.lemma_.lower(), "possible")] + [(c.lemma_.lower(), "possible") for c in verb.children
                                                   if c.dep_ in ("attr", "acomp")]


def _have_to(token: Any) -> list[tuple[str, str]] | None:
    """Modal rule for "has to V" (necessary) and "does not have / need to V" (optional)."""
    lemma = token.lemma_.lower()
    if not (lemma in ("have", "need") and any(c.dep_ == "xcomp" for c in token.children)
            and any(c.lower_ == "to" for x in token.children if x.dep_ == "xcomp" for c in x.children)):
        return None
    negated = any(c.dep_ == "neg" for c in token.children)  # "does not have to conduct": optional
    if not (negated or lemma == "have"):
        return []
    return [(x.lemma_.lower(), "optional" if negated else "necessary") for x in token.children if x.dep_ == "xcomp"]


def _need_not(token: Any) -> list[tuple[str, str]] | None:
    """Modal rule for "a city need not conduct": optional."""
    if token.lower_ == "need" and token.dep_ == "aux" and any(c.dep_ == "neg" for c in token.head.children):
        return [(token.head.lemma_.lower(), "optional")]
    return None


_MODAL_RULES: tuple[Callable[[Any], list[tuple[str, str]] | None], ...] = (
    _modal_word, _modal_adjective, _guaranteed, _in_some_cases, _have_to, _need_not)
"""The rules of ``modals`` in order: the first that applies to a token (answers not None) reads it."""
