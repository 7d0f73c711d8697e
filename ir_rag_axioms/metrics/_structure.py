"""Structure read off a statement's dependency parse: who did what to whom, cause and effect, quantifiers, modality.

- roles: (verb lemma, role, argument lemma) with passives turned active (the agent "by X" is the subject, the
  passive subject an object) and an xcomp verb given its governor's subject ("X wanted to rid France of Y");
- causes: (cause lemmas, effect lemmas) of "E because C", "E is due to C", "C causes / leads to E", "C made X E",
  "C is the reason E", and (``linked_causes``) "S1. For this reason, S2" and "S1. This is because S2";
- quantifiers: (noun lemma, "all" / "most" / "some" / "few" / "none" / "only") of "all N", "every N", "no N", "none
  of N", "some N", "only N", "one-third of N", "most N", "the majority of N", "(only a) few N", "a small share of N";
- modals: (verb lemma, "possible" / "necessary") of "may / might / can / could" and "must / will / always / has to".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_SUBJECTS = frozenset({"nsubj", "csubj"})
_OBJECTS = frozenset({"dobj", "dative", "attr", "oprd", "nsubjpass"})
_ALL = frozenset({"all", "every", "each", "always"})
_SOME = frozenset({"some", "several", "many", "few", "most", "certain"})
_NONE = frozenset({"no", "none", "neither"})
_POSSIBLE = frozenset({"may", "might", "can", "could", "possibly", "perhaps", "sometimes", "occasionally", "likely",
                       "probably", "often", "usually", "generally", "typically", "frequently"})
_NECESSARY = frozenset({"must", "will", "always", "certainly", "definitely", "necessarily", "invariably", "shall",
                        "inevitably", "surely", "undoubtedly", "unavoidably"})
_SOME_CASES = frozenset({"case", "instance", "situation"})
_CAUSE_VERBS = frozenset({"cause", "lead", "produce", "trigger", "result", "bring", "create", "prompt", "spark",
                          "unleash", "fuel", "spur", "provoke", "force"})
_CONTENT = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "NUM"})
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


def _content(tokens: Any) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.lemma_.lower() for t in tokens if t.pos_ in _CONTENT
                               and t.lemma_.lower() not in ("be", "have", "do")))


def _subtree_without(token: Any, cut: Any) -> list[Any]:
    cut_ids = {t.i for t in cut.subtree} if cut is not None else set()
    return [t for t in token.subtree if t.i not in cut_ids]


def _cleft_subject(verb: Any, subject: Any) -> Any:
    """The cause a verb's subject stands for: "X is what led", "X, which led": X (the token); else the subject."""
    if subject.lower_ == "what" and verb.head.lemma_ == "be" and verb.dep_ in ("ccomp", "attr", "acomp", "xcomp"):
        found = [c for c in verb.head.children if c.dep_ in _SUBJECTS and c.i < verb.i]
        return found[0] if found and found[0].lower_ not in _RELATIVE else None
    if subject.lower_ in _RELATIVE and verb.dep_ == "relcl" and verb.head.pos_ in ("NOUN", "PROPN"):
        return verb.head
    return subject


def _clause_of(token: Any) -> Any:
    """The verb of the clause a token sits in (itself, if it is one)."""
    while token.pos_ not in ("VERB", "AUX") and token.head.i != token.i:
        token = token.head
    return token


def _reason_links(token: Any) -> list[tuple[list[Any], list[Any]]]:
    """(cause tokens, effect tokens) of "X is (part of) the reason (that/why) Y" and "the reason for Y is X"."""
    return _reason_is(token) + _reason_for(token)


def _reason_is(token: Any) -> list[tuple[list[Any], list[Any]]]:
    """(cause, effect) of "X is (part of) the reason (that/why) Y" and "..., which is the reason Y"."""
    effects = [c for c in token.children if c.dep_ in ("relcl", "acl")]
    holder = token.head.head if token.dep_ == "pobj" and token.head.lower_ == "of" else token  # "part of the reason"
    copula = holder.head
    if not (effects and holder.dep_ == "attr" and copula.lemma_ == "be"):
        return []
    subjects = [c for c in copula.children if c.dep_ in _SUBJECTS]
    if subjects and subjects[0].lower_ in _RELATIVE and copula.dep_ == "relcl":  # "..., which is the reason Y"
        cut = {t.i for t in copula.subtree}
        return [([t for t in _clause_of(copula.head).subtree if t.i not in cut], list(effects[0].subtree))]
    return [(list(subjects[0].subtree), list(effects[0].subtree))] if subjects else []


def _reason_for(token: Any) -> list[tuple[list[Any], list[Any]]]:
    """(cause, effect) of "the reason for the delay was the storm"."""
    if not (token.dep_ in _SUBJECTS and token.head.lemma_ == "be"):
        return []
    of = [g for c in token.children if c.dep_ == "prep" and c.lower_ == "for" for g in c.children
          if g.dep_ == "pobj"]
    causes = [c for c in token.head.children if c.dep_ in ("attr", "acomp")]
    return [(list(causes[0].subtree), list(of[0].subtree))] if of and causes else []


Link = tuple[tuple[str, ...], tuple[str, ...]]
"""(cause lemmas, effect lemmas) of one causal link."""


def causes(span: Any) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(cause lemmas, effect lemmas) of the causal links of a span.

    "E because (of) C", "E is due to C", "C causes / leads to / triggers E", "C led X to do E", "C made X E" (make
    with a clause), the clefts "C is what led to E" and "C, which led to E", and "C is (part of) the reason (that) E",
    "the reason for E is C". Each token is read by the first rule of ``_CAUSE_RULES`` that applies to it.
    """
    out: list[Link] = []
    for token in span:
        out += next((found for rule in _CAUSE_RULES if (found := rule(token)) is not None), [])
    return [(c, e) for c, e in out if c and e]


def _because(token: Any) -> list[Link] | None:
    """Link rule for "E because C": the clause is the cause, the rest of the sentence the effect."""
    if not (token.lower_ == "because" and token.dep_ == "mark" and token.head.dep_ == "advcl"):
        return None
    clause = token.head
    return [(_content(clause.subtree), _content(_subtree_without(clause.head, clause)))]


def _because_of(token: Any) -> list[Link] | None:
    """Link rule for "E because of C"."""
    if not (token.lower_ == "because" and token.dep_ == "prep"):
        return None
    of = [c for c in token.children if c.lower_ == "of"] or [token]
    cause = [g for o in of for g in o.children if g.dep_ == "pobj"]
    return [(_content(cause[0].subtree), _content(_subtree_without(token.head, token)))] if cause else []


def _due_to(token: Any) -> list[Link] | None:
    """Link rule for "E is due to C" (the subject is the effect)."""
    to = next((c for c in token.children if c.lower_ == "to"), None) if token.lower_ == "due" else None
    if to is None:
        return None
    cause = [g for g in to.children if g.dep_ == "pobj"]
    verb = token.head if token.dep_ in ("acomp", "amod", "prep", "advmod") else token
    subject = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return [(_content(cause[0].subtree), _content(subject[0].subtree))] if cause and subject else []


def _reason(token: Any) -> list[Link] | None:
    """Link rule for "C is (part of) the reason (that) E" and "the reason for E is C"."""
    if not (token.lemma_.lower() == "reason" and token.pos_ == "NOUN"):
        return None
    return [(_content(c), _content(e)) for c, e in _reason_links(token)]


def _made(token: Any) -> list[Link] | None:
    """Link rule for causative "make" only: "made the roads dangerous", "made Johnson unwilling to ..."."""
    if not (token.lemma_.lower() == "make" and token.pos_ == "VERB"):
        return None
    subjects = [c for c in token.children if c.dep_ == "nsubj"]
    causer = _cleft_subject(token, subjects[0]) if subjects else None
    clauses = [c for c in token.children if c.dep_ in ("ccomp", "xcomp", "oprd")
               and any(g.dep_ in _SUBJECTS for g in c.children)]
    return [(_content(causer.subtree), _content(clauses[0].subtree))] if causer is not None and clauses else []


def _caused(token: Any) -> list[Link] | None:
    """Link rule for "C causes / leads to / triggers E", "C led X to do E", "C, which led to E"."""
    lemma = token.lemma_.lower()
    if not (lemma in _CAUSE_VERBS and token.pos_ == "VERB"):
        return None
    subjects = [c for c in token.children if c.dep_ == "nsubj"]
    causer = _cleft_subject(token, subjects[0]) if subjects else None
    objects, clauses = _caused_objects(token, lemma)
    if causer is None or not objects or lemma in ("bring", "create", "produce"):
        return []
    effect = list(objects[0].subtree)
    if lemma in ("lead", "prompt", "force", "cause") and objects[0] not in clauses:  # "led Congress to pass the Act"
        effect += [t for c in token.children if c.dep_ == "xcomp" for t in c.subtree]
    cause = _subtree_without(causer, token) if causer.i == token.head.i else list(causer.subtree)
    return [(_content(cause), _content(effect))]  # "X, which led to E": X without the clause


def _caused_objects(token: Any, lemma: str) -> tuple[list[Any], list[Any]]:
    """(what a cause verb affects, its clauses with a subject): objects, "to / in" objects, else such a clause."""
    objects = [c for c in token.children if c.dep_ == "dobj"]
    objects += [g for c in token.children if c.dep_ == "prep" and c.lower_ in ("to", "in")
                for g in c.children if g.dep_ == "pobj"]
    clauses = [c for c in token.children if c.dep_ in ("ccomp", "xcomp")
               and any(g.dep_ in _SUBJECTS for g in c.children)]
    if not objects and clauses and lemma in ("cause", "force", "prompt"):  # "caused its population to decline"
        objects = clauses  # the clause is the effect
    return objects, clauses


_CAUSE_RULES: tuple[Callable[[Any], list[Link] | None], ...] = (
    _because, _because_of, _due_to, _reason, _made, _caused)
"""The rules of ``causes`` in order: each answers None where it does not apply to a token."""


_CONNECTIVES_FORWARD = re.compile(r"^(?:for (?:this|these|that) reasons?|as a (?:result|consequence)|consequently|"
                                  r"therefore|thus|hence|because of (?:this|that)|due to (?:this|that)|"
                                  r"(?:this|that) is why|this (?:led|leads) to)\b[,\s]*", re.I)
_CONNECTIVES_BACKWARD = re.compile(r"^(?:this|that) (?:is|was) (?:\w+ )?(?:because(?: of)?|due to|caused by)\b\s*",
                                   re.I)


def linked_causes(previous: Any, sentence: Any) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(cause lemmas, effect lemmas) a sentence links to the one before ("For this reason, S2": S1 causes S2).

    Forward: "For this reason / As a result / Therefore / Thus, S2"; backward: "This is (largely) because / due to
    S2" (S2 causes S1).
    """
    text = sentence.text.strip()
    for pattern, forward in ((_CONNECTIVES_FORWARD, True), (_CONNECTIVES_BACKWARD, False)):
        found = pattern.match(text)
        if found:
            start = sentence.char_span(sentence.start_char, sentence.start_char + found.end(), alignment_mode="expand")
            skip = {t.i for t in start} if start is not None else set()
            rest = _content([t for t in sentence if t.i not in skip])
            before = _content(list(previous))
            if rest and before:
                return [(before, rest) if forward else (rest, before)]
    return []


_NOUNS = {"people": "person", "persons": "person"}
"""One noun for "people" and "person" (spaCy lemmatises "people" as itself)."""


def quantifiers(span: Any) -> list[tuple[str, str]]:
    """(noun lemma, "all" / "most" / "some" / "few" / "none" / "only") of the quantified nouns of a span.

    "people" is "person"; "most" for "most" and "the majority of", "few" for "few", "only a few" and "a small share
    of", "some" for the other words of some ("a few", "many", "several").
    """
    return list(dict.fromkeys((_NOUNS.get(noun, noun), kind) for noun, kind in _quantified(span)))


Quantified = list[tuple[str, str]]
"""(noun lemma, quantifier kind) pairs."""


def _quantified(span: Any) -> list[tuple[str, str]]:
    """(noun lemma, kind) of each quantified noun: the always-rules, then a floating "all", else the first rule."""
    out: Quantified = []
    for token in span:
        out += _everyone(token) + _always(token)
        floating = _floating_all(token)
        out += floating or next((found for rule in _QUANTIFIER_RULES if (found := rule(token, span)) is not None), [])
    return list(dict.fromkeys(out))


def _everyone(token: Any) -> Quantified:
    """Quantifier rule: "everyone", "everybody": all persons; "nobody": none."""
    word = token.lower_
    if word in ("everyone", "everybody", "nobody") and token.pos_ == "PRON":
        return [("person", "none" if word == "nobody" else "all")]
    return []


def _always(token: Any) -> Quantified:
    """Quantifier rule: "A phishing attack will always try": every phishing attack (a generic subject with "always")."""
    if not (token.lower_ == "always" and token.dep_ == "advmod" and token.head.pos_ in ("VERB", "AUX")):
        return []
    generic = [c for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass") and c.pos_ == "NOUN" and (
        any(d.lower_ in ("a", "an") for d in c.children if d.dep_ == "det") or c.tag_ == "NNS" and not any(
            d.dep_ in ("det", "poss") for d in c.children))]
    return [(generic[0].lemma_.lower(), "all")] if generic else []


def _floating_all(token: Any) -> Quantified:
    """Quantifier rule: "the borders have all survived": all the borders (a floating "all" or "each")."""
    if not (token.lower_ in ("all", "each") and token.dep_ in ("dep", "advmod", "appos", "nsubj")
            and token.head.pos_ in ("VERB", "AUX") and not list(token.children)):
        return []
    subjects = [c for c in token.head.children if c.dep_ in ("nsubj", "nsubjpass") and c.i < token.i
                and c.pos_ in ("NOUN", "PROPN")]
    return [(subjects[0].lemma_.lower(), "all")] if subjects else []


def _determiner(token: Any, span: Any) -> Quantified | None:
    """Quantifier rule: "all / every / no / some / most N": the noun and its kind."""
    word = token.lower_
    if not (word in ("all", "every", "each", "no", "some", "several", "many", "few", "most")
            and token.dep_ in ("det", "predet", "amod", "nummod") and token.head.pos_ in ("NOUN", "PROPN")):
        return None
    kind = "all" if word in _ALL else "none" if word in _NONE else _proportion(token)
    return [(token.head.lemma_.lower(), kind)]


def _pronoun(token: Any, span: Any) -> Quantified | None:
    """Quantifier rule: "none of the N", "most of them": the noun the pronoun stands for."""
    word = token.lower_
    if not (word in ("none", "all", "some", "most", "many", "few") and (
            token.pos_ in ("NOUN", "PRON", "DET") or word in ("most", "few") and token.pos_ == "ADJ")):
        return None
    noun = _head_lemma(token)
    kind = "all" if word == "all" else "none" if word == "none" else _proportion(token)
    return [(noun, kind)] if noun != word else []


def _only(token: Any, span: Any) -> Quantified | None:
    """Quantifier rule: "only N", "just N" (not "not only")."""
    if token.lower_ in ("only", "just") and token.head.pos_ in ("NOUN", "PROPN") and not any(
            c.dep_ == "neg" for c in token.children) and span.doc[max(token.i - 1, 0)].lower_ not in ("not",):
        return [(token.head.lemma_.lower(), "only")]
    return None


_SMALL_SHARES = frozenset({"share", "fraction", "number", "proportion", "portion", "percentage", "part"})
_SOME_SHARES = frozenset({"third", "half", "quarter", "percent", "%", "fraction", "portion", "part"})


def _share_of(token: Any, span: Any) -> Quantified | None:
    """Quantifier rule: "the majority of N" (most), "a small share of N" (few), "one-third of N" (some)."""
    if not (token.dep_ == "pobj" and token.head.lower_ == "of" and token.pos_ in ("NOUN", "PROPN")):
        return None
    share = token.head.head
    small = any(c.dep_ == "amod" and c.lower_ in ("small", "tiny") for c in share.children)
    if share.lower_ in ("majority", "bulk", "minority") or small and share.lower_ in _SMALL_SHARES:
        return [(token.lemma_.lower(), "most" if share.lower_ in ("majority", "bulk") else "few")]
    if share.pos_ == "NUM" or share.lower_ in _SOME_SHARES:
        return [(token.lemma_.lower(), "some")]
    return []


_QUANTIFIER_RULES: tuple[Callable[[Any, Any], Quantified | None], ...] = (_determiner, _pronoun, _only, _share_of)
"""The rules of ``_quantified`` in order: the first that applies to a token (answers not None) reads it."""


def _proportion(token: Any) -> str:
    """"most" for most, "few" for "few" and "only a few", "some" for "a few" and the other words of some."""
    if token.lower_ == "most":
        return "most"
    if token.lower_ != "few":
        return "some"
    article = any(c.lower_ == "a" for c in token.children) or token.i > 0 and token.nbor(-1).lower_ == "a"
    only = any(c.lower_ in ("only", "just") for c in token.children) or token.i > 1 and token.nbor(-2).lower_ in (
        "only", "just")
    return "few" if only or not article else "some"


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
