"""Contradictions in words: a negation, an antonym, a comparison flipped.

``contradictions`` is the checks' entry for one statement against one sentence. A comparison is read by word order
(``flipped``): "B is smaller than A" agrees with "A is larger than B".
"""

from __future__ import annotations

from ir_rag_axioms.metrics._checks_lexicon import _WORDNET_POS, _lemma_pos, _lemma_set, antonyms, synonyms
from ir_rag_axioms.metrics.statements import Facts


def contradictions(statement: Facts, sentence: Facts, where: str, own: str = "the statement",
                   undecided: list[str] | None = None) -> list[str]:
    """How the sentence contradicts the statement: negation, antonyms, comparisons (reasons).

    ``own`` names the statement in the reasons ("the statement", "the fact"); what the checks cannot tell (an antonym
    of another part of speech: "reduce" / "an increase", a negation beside an antonym) is appended to ``undecided``.
    """
    mine, theirs = _lemma_set(statement), _lemma_set(sentence)
    out = _negations(statement, sentence, where, own, mine, theirs)
    if out and statement.negated and sentence.negated and undecided is not None and not _swapped(
            statement, sentence, mine, theirs):  # "never speaks a line of dialogue" / "has no dialogue": both
        # negate, the paraphrase moved the negation to another word ("X, not Y" / "Y, not X" stays a conflict)
        undecided += [f"cannot tell: {r} (both negate something; a paraphrase may move the negation)" for r in out]
        out = []
    pairs = [f"antonym '{lemma}' vs '{other}' in {where}" for lemma, pos in statement.lemmas
             if pos in _WORDNET_POS and lemma not in theirs
             for other in sorted(o for o in theirs - mine if o in antonyms(lemma) or lemma in antonyms(o))
             if _antonym_pair(statement, sentence, where, lemma, pos, other, undecided, mine)]
    if pairs and out:  # "not treated fairly" / "treated unfairly": a negation and an antonym may say the same
        if undecided is not None:
            undecided.append(f"cannot tell: a negation and an antonym together ({'; '.join(out + pairs)}) may say the "
                             "same")
        out, pairs = [], []
    out += pairs
    out += flipped(statement, sentence, where, own)
    return list(dict.fromkeys(out))


def _swapped(statement: Facts, sentence: Facts, mine: set[str], theirs: set[str]) -> bool:
    """Whether each side negates a word the other affirms ("the president, not Congress" / "Congress, not him")."""
    return any(w in theirs and w not in sentence.negated for w in statement.negated) and any(
        w in mine and w not in statement.negated for w in sentence.negated)


def _negations(statement: Facts, sentence: Facts, where: str, own: str, mine: set[str], theirs: set[str]
               ) -> list[str]:
    """The negation reasons: a lemma negated on one side and affirmed (or affirmed as a synonym) on the other."""
    out: list[str] = []
    for lemma in statement.negated:
        if lemma in theirs and lemma not in sentence.negated:
            out.append(f"negation: {own} negates '{lemma}', {where} affirms it")
    for lemma in sentence.negated:
        if lemma in mine and lemma not in statement.negated:
            out.append(f"negation: {where} negates '{lemma}', {own} affirms it")
        elif lemma not in mine and lemma not in statement.negated:
            pos = _lemma_pos(sentence, lemma)
            alike = sorted(o for o in synonyms(lemma) & mine if o not in statement.negated and o not in theirs
                           and _lemma_pos(statement, o) == pos)  # "do not consider" / "carry out studies": no
            if alike and pos in ("ADJ", "VERB"):
                out.append(f"negation: {where} negates '{lemma}', {own} affirms '{alike[0]}'")
    return out


def _antonym_pair(statement: Facts, sentence: Facts, where: str, lemma: str, pos: str, other: str,
                  undecided: list[str] | None, mine: set[str]) -> bool:
    """Whether a lemma and its antonym in the sentence are one claim reversed (noting what cannot be told)."""
    if synonyms(other) & mine - {lemma}:
        return False  # "breaks EMTALA ... to keep hospitals from": the statement says 'violate' as 'break'
    if {lemma, other} & _graded(statement, sentence):  # "B is smaller than A" / "A is larger than B": ``flipped``
        return False
    note = None
    if "NOUN" in (pos, _lemma_pos(sentence, other)) and _lemma_pos(sentence, other) != pos:
        note = f"cannot tell: the antonyms '{lemma}' ({pos}) and '{other}' ({_lemma_pos(sentence, other)}) in " \
               f"{where} are different parts of speech, not one claim reversed"  # "reduce output" / "an increase"
    if note is not None and undecided is not None:
        undecided.append(note)
    return note is None and (lemma in statement.negated) == (other in sentence.negated)


def _graded(statement: Facts, sentence: Facts) -> set[str]:
    """The lemmas either side grades (comparatives, superlatives, "more", "less"): ``flipped`` reads them."""
    return {c[0] for c in statement.comparisons + sentence.comparisons} | {"more", "less", "most", "least", "few"}


def flipped(statement: Facts, sentence: Facts, where: str, own: str = "the statement") -> list[str]:
    """Comparisons of the statement the sentence states the other way round (reasons, may be empty).

    Two comparisons of one kind pair when their graded words are the same or antonyms (``_relation``) and their
    sides align (``_order``; the parts of comparative correlatives, kind "cor", in the order they are said). A
    pairing agrees when sign x sign x relation x order is positive. A comparison is flipped when it pairs and no
    pairing agrees. An even number of flips in a statement of several comparisons ("the higher the income, the
    smaller the share" / "the lower the income, the greater the share") says the same relation: none.
    """
    out = []
    for word, sign, kind, near, first, than in statement.comparisons:
        agreements = [sign * sign2 * relation * order > 0 for word2, sign2, kind2, near2, first2, than2
                      in sentence.comparisons if kind == kind2 and (relation := _relation(word, word2))
                      and (order := 1 if kind == "cor" else _order((near, first, than), (near2, first2, than2)))]
        if agreements and not any(agreements):
            said = f"'{' '.join(first[-3:])}' is {'more' if sign > 0 else 'less'} '{word}'"
            said += f" than '{' '.join(than[:3])}'" if than else ""
            out.append(f"comparison flipped: {own} says {said}, {where} the opposite")
    return [] if len(statement.comparisons) > 1 and len(out) % 2 == 0 else out


def _relation(word: str, word2: str) -> int:
    """1 for the same graded word, -1 for antonyms ("small" / "large", "far west" / "far east"), else 0."""
    if word == word2:
        return 1
    base, _, direction = word.partition(" ")
    base2, _, direction2 = word2.partition(" ")
    if direction and direction2:
        return -1 if base == base2 and direction2 in antonyms(direction) else 0
    return -1 if word2 in antonyms(word) or word in antonyms(word2) else 0


def _order(mine: tuple[str, tuple[str, ...], tuple[str, ...]], theirs: tuple[str, tuple[str, ...], tuple[str, ...]]
           ) -> int:
    """1 where two comparisons' sides align straight, -1 crossed ("B smaller than A" / "A larger than B"), 0 unread.

    With both than-sides: the words each side has and its other side lacks; a than-side that meets the other's
    than-side is straight (counted twice), one that meets the other's first side is crossed. Without either: straight
    when the words nearest before them are the same ("A is less likely" / "A is more likely"). One than-side only: 0.
    """
    (near, first, than), (near2, first2, than2) = mine, theirs
    if not than and not than2:
        return int(bool(near) and near == near2)
    if not than or not than2:
        return 0
    one, other, one2, other2 = (set(first) - set(than), set(than) - set(first), set(first2) - set(than2),
                                set(than2) - set(first2))
    straight, crossed = 2 * len(other & other2), len(other & one2) + len(one & other2)
    return (straight > crossed) - (crossed > straight)
