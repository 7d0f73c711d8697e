"""Negation in a statement: which lemmas a cue ("not", "no", "without", "lacks", "failed to") applies to.

The rules are data and small functions: tests for cues that negate nothing (``_NOT_NEGATING``), what a cue negates
(``_CUE_RULES``, the first that answers wins) and the passes over a span's words (``_WORD_RULES``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_NEGATION_EXTRA = frozenset({"none", "nothing", "nobody", "neither", "nor", "never", "no", "not", "without",
                             "cannot", "n't"})


def negation_cues() -> frozenset[str]:
    """Single-word negation cues: negspaCy's English preceding negations and none/nothing/nobody/neither/nor.

    'versus', 'declined', 'denied' and 'doubt' are left out: they do not negate a fact.
    """
    try:
        from negspacy.termsets import termset

        words = {w for w in termset("en").get_patterns()["preceding_negations"] if " " not in w}
    except ImportError:  # pragma: no cover - negspaCy is a dependency
        words = set()
    return frozenset(words - {"versus", "declined", "denied", "denies", "denying", "doubt"}) | _NEGATION_EXTRA


_CUES = negation_cues()
_AS_DEGREES = frozenset({"much", "many", "well", "often", "long", "far", "good", "high", "large", "big", "fast",
                         "likely", "quickly", "early", "strong", "important", "effective"})
_FAILING = frozenset({"fail", "refuse", "decline", "cease", "neglect", "impossible", "unable"})

_NOT_ONLY = frozenset({"just", "only", "merely", "simply", "solely"})
_NEGATIVE_WORDS = frozenset({"no", "none", "nothing", "nobody"})
_COMPLEMENT_DEPS = frozenset({"acomp", "attr", "oprd"})
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_ANY_DETERMINERS = frozenset({"a", "an", "any"})
_ALMOST_NOT = frozenset({"hardly", "scarcely", "barely"})
_ANY_PRONOUNS = frozenset({"anything", "anyone", "anybody"})


def _lemmas(tokens: Any) -> list[str]:
    """The lower-cased lemmas of tokens."""
    return [t.lemma_.lower() for t in tokens]


def _complements(verb: Any) -> list[Any]:
    """A verb's complements ("is red", "became a doctor")."""
    return [c for c in verb.children if c.dep_ in _COMPLEMENT_DEPS]


def _complements_or_verb(verb: Any) -> list[str]:
    """The lemmas of a verb's complements, else the verb's own lemma."""
    return _lemmas(_complements(verb)) or [verb.lemma_.lower()]


def _indefinite_objects(verb: Any) -> list[str]:
    """A verb's direct objects with "a", "an" or "any" ("does not have a PAC" = "has no PAC")."""
    return [o.lemma_.lower() for o in verb.children if o.dep_ == "dobj"
            and any(d.lower_ in _ANY_DETERMINERS for d in o.children if d.dep_ == "det")]


def _is_cue(token: Any) -> bool:
    """A negation cue: a "neg" dependency, a cue word, or a curly "n’t" (which gets no "neg")."""
    return token.dep_ == "neg" or token.lower_ in _CUES or token.lower_ == "n’t"


def _not_only(token: Any, span: Any) -> bool:
    """Cue rule: "how to think, not just what to think": "not only", no negation."""
    return token.lower_ == "not" and token.i + 1 < len(token.doc) and token.nbor().lower_ in _NOT_ONLY


def _need_not(token: Any, span: Any) -> bool:
    """Cue rule: "a city need not conduct": no obligation (a modality), not "does not conduct"."""
    return any(c.dep_ == "aux" and c.lower_ == "need" for c in token.head.children)


def _as_comparison(token: Any, span: Any) -> bool:
    """Cue rule: "did not receive as much training as white teachers": a comparison (less), not a negation."""
    return any(t.lower_ == "as" and t.head.lower_ in _AS_DEGREES and t.i > token.i
               and any(u.lower_ == "as" for u in span.doc[t.head.i + 1: span.end]) for t in token.head.subtree)


_NOT_NEGATING: tuple[Callable[[Any, Any], bool], ...] = (
    lambda token, span: _hyphenated(token),  # "not-for-profit", "no-fly": a word, not a negation
    _not_only, _need_not, _as_comparison)
"""Cues that negate nothing, each a test of (cue, span)."""


def _no_object(token: Any, span: Any) -> list[str]:
    """Cue rule: "has no PAC" = "does not have a PAC": the verb is negated too (the object follows in the rules)."""
    head = token.head
    if token.lower_ == "no" and token.dep_ == "det" and head.dep_ == "dobj" and head.head.pos_ == "VERB":
        return [head.head.lemma_.lower()]
    return []


def _no_longer(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "no longer X": X is negated (its complements, else the verb and an indefinite object)."""
    if not (token.lower_ == "no" and token.head.lower_ == "longer"):
        return None
    verb = token.head.head
    complements = _complements(verb)
    return (_lemmas(complements) or [verb.lemma_.lower()]) + ([] if complements else _indefinite_objects(verb))


def _negative_subject(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "no N is X", "nothing is X": X is negated."""
    if token.lower_ not in _NEGATIVE_WORDS:
        return None
    if token.dep_ in _SUBJECT_DEPS:
        return _complements_or_verb(token.head)
    if token.dep_ == "det" and token.head.dep_ in _SUBJECT_DEPS:
        return _complements_or_verb(token.head.head)
    return None


def _without_clause(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "sends emails without knowing": what follows "without" is negated, not 'send'."""
    if token.lower_ == "without" and token.dep_ == "prep":
        return [c.lemma_.lower() for c in token.children if c.dep_ in ("pobj", "pcomp")]
    return None


def _negative_word(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "no", "without", "none" not as "neg": their object, else the word they attach to."""
    if token.lower_ in (_NEGATIVE_WORDS | {"without"}) and token.dep_ != "neg":
        head = token.head
        return _lemmas([c for c in token.children if c.dep_ == "pobj"] or ([head] if head.i != token.i else []))
    return None


def _before_preposition(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "not as a way to help", "not for profit": the preposition's object."""
    head = token.head
    if head.pos_ == "ADP" and head.i > token.i:
        return [c.lemma_.lower() for c in head.children if c.dep_ in ("pobj", "pcomp")]
    return None


def _elided_do(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "most do not": an elided verb, nothing to compare."""
    head = token.head
    if head.lemma_ == "do" and not any(c.dep_ in ("dobj", "xcomp", "ccomp") for c in head.children):
        return []
    return None


def _copula(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "is not red", "is not in Paris": the complements (and an attribute's adjectives), else the verb."""
    head = token.head
    if not (head.lemma_ == "be" or head.pos_ == "AUX"):
        return None
    complements = _complements(head)
    complements += [g for c in head.children if c.dep_ == "prep" and c.i > head.i  # not "For the most part,"
                    for g in c.children if g.dep_ == "pobj"]
    if not complements and not any(c.dep_ in ("xcomp", "ccomp", "dobj", "advcl") for c in head.children) \
            and _last_word(span.doc[max(token.i, head.i)], span):
        return []  # "1% think it isn't", "some they are not": an elided predicate, nothing to compare
    complements += [a for c in complements if c.dep_ == "attr" for a in c.children if a.dep_ == "amod"]
    return _lemmas(complements) or [head.lemma_.lower()]


def _verb(token: Any, span: Any) -> list[str] | None:
    """Cue rule: "does not have a PAC or make donations": each negated verb and its indefinite objects."""
    head = token.head
    if head.i == token.i:
        return []
    verbs = [head]
    if any(c.dep_ == "cc" and c.lower_ == "or" for c in head.children):
        verbs += [c for c in head.children if c.dep_ == "conj" and c.pos_ == "VERB"]
    return [w for verb in verbs for w in [verb.lemma_.lower(), *_indefinite_objects(verb)]]


_CUE_RULES: tuple[Callable[[Any, Any], list[str] | None], ...] = (
    _no_longer, _negative_subject, _without_clause, _negative_word, _before_preposition, _elided_do, _copula, _verb)
"""What a negation cue negates: the first rule that answers (a list of lemmas) wins."""


def _cue_targets(token: Any, span: Any) -> list[str]:
    """The lemmas one negation cue applies to (none for a cue that negates nothing)."""
    if not _is_cue(token) or any(test(token, span) for test in _NOT_NEGATING):
        return []
    out = _no_object(token, span)
    for rule in _CUE_RULES:
        found = rule(token, span)
        if found is not None:
            return out + found
    return out  # pragma: no cover - _verb always answers


def _lacked(token: Any, span: Any) -> list[str]:
    """Cue rule: "a lack of X", "lacks a supportive relationship": X is negated."""
    if token.lemma_.lower() != "lack" or any(c.dep_ == "neg" for c in token.children):
        return []
    return ([g.lemma_.lower() for c in token.children if c.dep_ == "prep" and c.lower_ == "of"
             for g in c.children if g.dep_ == "pobj"]
            + [t.lemma_.lower() for c in token.children if c.dep_ == "dobj"
               for t in (c, *c.children) if t.dep_ in ("dobj", "amod", "compound")])


def _hardly_any(token: Any, span: Any) -> list[str]:
    """Cue rule: "hardly anything gets done" = "almost nothing gets done": the verb is negated."""
    if token.lower_ in _ANY_PRONOUNS and token.dep_ in _SUBJECT_DEPS and token.i > span.start \
            and span.doc[token.i - 1].lower_ in _ALMOST_NOT:
        return _complements_or_verb(token.head)
    return []


def _failed(token: Any, span: Any) -> list[str]:
    """Cue rule: "failed to X", "refused to X", "it seems impossible to live": X is negated (unless the verb is)."""
    if token.lemma_.lower() not in _FAILING or any(c.dep_ == "neg" for c in token.children):
        return []
    siblings = [x for x in token.head.children if x.i > token.i] if token.dep_ in ("oprd", "acomp") and \
        not any(x.dep_ == "xcomp" for x in token.children) else []
    return [w for x in [*token.children, *siblings] if x.dep_ == "xcomp" and x.pos_ in ("VERB", "AUX")
            for w in [x.lemma_.lower(), *_lemmas(_complements(x))]]


_WORD_RULES: tuple[Callable[[Any, Any], list[str]], ...] = (_cue_targets, _lacked, _hardly_any, _failed)
"""Each pass over a span's tokens, in order: negation cues, "lack", "hardly any", "fail to"."""


def _ends_in_elided_do(span: Any) -> bool:
    """Cue rule: "... than people who do": a bare "do" ends the span (the verb is said both ways)."""
    return any(t.lemma_ == "do" and t.pos_ in ("AUX", "VERB") and not any(
        c.dep_ in ("dobj", "xcomp", "ccomp", "neg", "acomp", "attr", "prep") for c in t.children)
        and _last_word(t, span) for t in span)


def _negated(span: Any) -> list[str]:
    """The lemmas negation cues apply to: the verb, a copula's complements, the noun after no/without/none."""
    out = [lemma for rule in _WORD_RULES for token in span for lemma in rule(token, span)]
    if _ends_in_elided_do(span):  # "people who do not like to shop ... than people who do": said both ways
        said = {t.lemma_.lower() for t in span if t.pos_ == "VERB"}
        out = [lemma for lemma in out if lemma not in said]
    kept: list[str] = []
    for lemma in out:
        both = _both_ways(span, lemma)
        kept += [w for w in (both if both is not None else [lemma]) if not _also_affirmed(span, w)]
    return kept


def _last_word(token: Any, span: Any) -> bool:
    """Whether only punctuation follows a token in its span ("1% think it isn't.": an elided predicate)."""
    return all(t.is_punct for t in span.doc[token.i + 1: span.end])


def _hyphenated(token: Any) -> bool:
    """Whether a token is part of a hyphenated word ("not-for-profit")."""
    doc = token.doc
    after = token.i + 1 < len(doc) and not token.whitespace_ and doc[token.i + 1].text in ("-", "–")
    before = token.i > 0 and doc[token.i - 1].text in ("-", "–") and not doc[token.i - 1].whitespace_
    return after or before


def _both_ways(span: Any, lemma: str) -> list[str] | None:
    """What is negated where a verb is said both ways in a span, None where it is not.

    The same objects both ways ("students who have a relationship ... those who don't have a relationship"):
    nothing. Other objects ("regulates public railways but does not regulate closed railways"): the negated verb's
    own object words ("closed", "railway"), not the verb.
    """
    verbs = [t for t in span if t.pos_ == "VERB" and t.lemma_.lower() == lemma]
    said = [(any(c.dep_ == "neg" for c in v.children) or v.head.lemma_.lower() in _FAILING
             or v.dep_ == "xcomp" and any(c.dep_ == "neg" for c in v.head.children), _objects(v)) for v in verbs]
    affirmed = [objects for negated, objects in said if not negated]
    if not affirmed or len(affirmed) == len(said):
        return None
    told = frozenset().union(*affirmed)
    return sorted({w for negated, objects in said if negated for w in objects - told})


def _also_affirmed(span: Any, lemma: str) -> bool:
    """Whether a negated noun also occurs un-negated in the span ("with the gene ... without the gene": neither)."""
    nouns = [t for t in span if t.pos_ in ("NOUN", "PROPN") and t.lemma_.lower() == lemma]
    if len(nouns) < 2:
        return False

    def negated(token: Any) -> bool:
        verb = next((a for a in token.ancestors if a.pos_ in ("VERB", "AUX")), None)
        return (any(c.lower_ in ("no", "none") for c in token.children) or token.head.lower_ in ("without", "no")
                or (verb is not None and any(c.dep_ == "neg" for c in verb.children)))

    return any(not negated(t) for t in nouns)


def _objects(verb: Any) -> frozenset[str]:
    """The lemmas of a verb's objects and complements ("have a favorable relationship": relationship)."""
    objects = [c for c in verb.children if c.dep_ in ("dobj", "attr", "acomp", "xcomp", "oprd")]
    return frozenset(t.lemma_.lower() for o in objects for t in (o, *o.children) if t.dep_ in (
        o.dep_, "amod", "compound"))  # "public railways" is not "private railways"
