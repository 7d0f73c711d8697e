"""What a statement gives that the text lacks or gives otherwise: numbers, named entities, names, nouns.

``differences`` sorts them into contradicted, unsupported and "cannot tell" (a number or name only in a sentence
about something else, one that may be computed, an alias); ``missing_content`` reads content words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ir_rag_axioms.metrics import quantities
from ir_rag_axioms.metrics._checks_lexicon import (
    _PRONOUN_LEMMAS,
    Pool,
    _common_noun,
    _content,
    _entity_words,
    _group,
    _lemma_pos,
    _said,
    _stem_in,
    antonyms,
    describe,
    pool_name,
    synonyms,
    words,
)
from ir_rag_axioms.metrics._checks_numbers import (
    _CLOCKS,
    _COMPUTING,
    _MONEY_UNITS,
    _RELATIVE,
    _TOTAL,
    _arithmetic,
    _comparable,
    _computed,
    _matches,
    _number,
    _per_unit,
    _present,
    _same_value,
    _year,
)
from ir_rag_axioms.metrics.statements import Facts


def differences(statement: Facts, sentence: Facts, pool: Pool, where: str, text: str = "", matched: bool = False,
                others: Sequence[tuple[Facts, float]] | None = None, score: float = 0.0,
                ) -> tuple[list[str], list[str], list[str]]:
    """(contradicted, unsupported, cannot tell) reasons from the statement's numbers and named entities.

    A number or entity the pool has anywhere is fine (an entity also as an alias: the same country, an acronym of a
    name there); a number the sum or difference of two of the pool's is "cannot tell" (arithmetic the checks do not
    verify); one it lacks contradicts when the matched sentence has a comparable one (same unit / year / entity
    type) the statement does not, is "cannot tell" when the statement's ``text`` says it was computed and one step
    from the sentence's numbers gives it (``_computed``), else it is unsupported. ``matched`` (the statement has a
    matching sentence): precision first, a number, entity, name or noun the pool lacks without a conflicting
    counterpart in that sentence is "cannot tell" with the reason, never unsupported on its own. An entity whose
    missing words are short forms of names there ("UC" for "University of California") is an alias; one whose missing
    words share a stem with words there ("Marian" / "Marius", "Brazil" / "Brazilian") is "cannot tell".

    ``others`` (the other sentences with their match ``score``s, given for a strong match): a number the pool has
    only outside the matched sentence, where that sentence gives a comparable one the statement lacks ("adopted the
    dollar in 2001" against "... in 2000"; 2001 elsewhere), contradicts when every sentence holding it matches the
    statement at least ``ALIGN_MARGIN`` worse (it is about something else); else it is "cannot tell". The same for a
    named entity where the matched sentence names another of its type (``_misplaced_entity``).
    """
    found = _Findings([], [], [], [])
    for k, n in enumerate(statement.numbers):
        _number_finding(k, n, statement, sentence, pool, where, text, matched, others, score, found)
    statement_words = set().union(*(_entity_words(e) for e, _ in statement.entities)) if statement.entities else set()
    for entity, label in statement.entities:
        _entity_finding(entity, label, statement_words, statement, sentence, pool, where, others, score, found)
    for why, lemma in _swapped_nouns(statement, sentence, pool, where):
        slot = _same_slot(lemma, statement, sentence)  # "made by the liver" / "by the pancreas", or a synonym
        found.missing.append(f"{why}; the same role: {slot} (another noun, or another word for it)" if slot else why)
    named = {w for e, _ in statement.entities for w in _entity_words(e)}
    for lemma, pos in statement.lemmas:
        if pos == "PROPN" and lemma.isalpha() and lemma not in pool.words and lemma not in named \
                and lemma not in quantities.MONTHS and quantities.alias_in(lemma, pool.names) is None:
            found.missing.append(f"name '{lemma}' is not in the {pool_name(where)}")
    if matched:
        found.undecided += [f"cannot tell: {why}, and {where} gives no conflicting counterpart"
                            for why in found.missing]
    else:
        found.unsupported += found.missing
    return found.contradicted, found.unsupported, found.undecided


@dataclass
class _Findings:
    """The reasons ``differences`` collects, in the order found."""

    contradicted: list[str]
    unsupported: list[str]
    undecided: list[str]
    missing: list[str]
    """Unsupported without a matched sentence, "cannot tell" with one."""


def _number_finding(k: int, n: tuple[float, float, str, bool], statement: Facts, sentence: Facts, pool: Pool,
                    where: str, text: str, matched: bool, others: Sequence[tuple[Facts, float]] | None, score: float,
                    found: _Findings) -> None:
    """``differences`` for the statement's k-th number n: its reason, if any, added to ``found``."""
    exact = (n[0], n[1], n[2], False)
    own = [m for j, m in enumerate(statement.numbers) if j != k]
    # a hedged number ("about 8.6 million") is near a number only when the statement does not give that one itself
    near = [m for m in pool.numbers if not any(_matches((o[0], o[1], o[2], False), (m[0], m[1], m[2], False))
                                                 for o in own)]
    if _present(exact, pool.numbers) or _present(n, near):
        _present_number(n, exact, statement, sentence, where, others, score, found)
        return
    derived = _arithmetic(n, pool.numbers)
    rivals = [m for m in sentence.numbers if _comparable(n, m) and not any(_matches(m, k) for k in
                                                                          statement.numbers)]
    lowered = text.lower()
    if derived and matched and rivals and not (_TOTAL.search(lowered) or _COMPUTING.search(lowered)
                                               or _RELATIVE.search(lowered)):
        found.contradicted.append(f"number {_number(n)} vs {', '.join(_number(m) for m in rivals)} in {where} (the "
                                  f"statement says nothing of computing it, though {derived} gives it)")
        return
    if derived:
        found.undecided.append(f"cannot tell: {_number(n)} may be computed ({derived}); arithmetic is not checked")
        return
    computed = _computed(n, text, sentence) if not rivals else ""
    converted = _per_unit(n, text, rivals)
    if converted:
        found.undecided.append(f"cannot tell: {converted}")
        return
    _absent_number(n, statement, sentence, pool, where, text, others, score, rivals, computed, found)


def _present_number(n: tuple[float, float, str, bool], exact: tuple[float, float, str, bool], statement: Facts,
                    sentence: Facts, where: str, others: Sequence[tuple[Facts, float]] | None, score: float,
                    found: _Findings) -> None:
    """``_number_finding`` for a number the context gives: misplaced when the matched sentence has a rival."""
    if others is not None and not (_present(exact, sentence.numbers)
                                                 or _present(n, sentence.numbers)
                                                 or _arithmetic(n, sentence.numbers)):
        misplaced = _misplaced(n, statement, sentence, others, score, where)
        if misplaced:
            (found.contradicted if misplaced.startswith("number") else found.undecided).append(misplaced)


def _absent_number(n: tuple[float, float, str, bool], statement: Facts, sentence: Facts, pool: Pool, where: str,
                   text: str, others: Sequence[tuple[Facts, float]] | None, score: float,
                   rivals: list[tuple[float, float, str, bool]], computed: str, found: _Findings) -> None:
    """``_number_finding`` for a number neither given, derived nor converted: rivals first, then the rest."""
    clocks = [m for m in pool.numbers if n[2] in _CLOCKS and m[2] in _CLOCKS]
    addends = [m for m in sentence.numbers if m[0] == m[1] and not _year(m) and m[2] not in _CLOCKS]
    elsewhere = (_covered_rivals(n, statement, others) or _unit_rivals(n, statement, others, score)
                 ) if not rivals and not computed else []
    if rivals:
        found.contradicted.append(f"number {_number(n)} vs {', '.join(_number(m) for m in rivals)} in {where}")
    elif elsewhere:
        found.contradicted.append(f"number {_number(n)} vs {', '.join(_number(m) for m in elsewhere)} in another "
                                  f"sentence of the {pool_name(where)} (the statement's words, or its counted unit)")
    elif computed:
        found.undecided.append(f"cannot tell: {_number(n)} may be computed ({computed}); arithmetic is not checked")
    elif clocks:  # the context gives other times (a header line): a time it lacks conflicts with them
        found.unsupported.append(f"number {_number(n)} is not in the {pool_name(where)}, which gives "
                                 f"{', '.join(dict.fromkeys(_number(m) for m in clocks[:3]))}")
    elif _TOTAL.search(text.lower()) and len(addends) >= 2 and n[0] == n[1] and not _year(n):
        found.unsupported.append(f"number {_number(n)} is not in the {pool_name(where)}, nor the sum of "
                                 f"{' + '.join(_number(m) for m in addends[:4])} in {where}")
    else:
        found.missing.append(f"number {_number(n)} is not in the {pool_name(where)}")


def _entity_finding(entity: str, label: str, statement_words: set[str], statement: Facts, sentence: Facts, pool: Pool,
                    where: str, others: Sequence[tuple[Facts, float]] | None, score: float, found: _Findings) -> None:
    """``differences`` for one named entity of the statement: its reason, if any, added to ``found``."""
    needed = _entity_words(entity)
    if not needed or needed <= pool.words:
        if needed and others is not None and label != "PROPN":
            misplaced = _misplaced_entity(entity, label, statement, sentence, others, score, where)
            if misplaced:
                (found.contradicted if misplaced.startswith("entity") else found.undecided).append(misplaced)
        return
    alias = quantities.alias_in(entity, pool.names)
    if " " not in entity and quantities.demonym_places(entity) & pool.words:
        return  # "American" for "... of USA"
    if alias is not None or all(any(quantities.acronym_of(w, name) for name in pool.names)
                                for w in needed - pool.words):
        return
    stems = {w: _stem_in(w, pool.words, person=label == "PERSON") for w in needed - pool.words}
    if all(stems.values()):
        found.undecided.append(f"cannot tell: '{entity}' may be another form of "
                               f"{', '.join(repr(v) for v in stems.values())} in the {pool_name(where)}")
        return
    _absent_entity(entity, label, statement_words, needed, sentence, pool, where, found)


def _absent_entity(entity: str, label: str, statement_words: set[str], needed: set[str], sentence: Facts, pool: Pool,
                   where: str, found: _Findings) -> None:
    """``_entity_finding`` for a name the context lacks in every form: a rival name first, then the rest."""
    rival_names = [e for e, lab in sentence.entities if (_group(lab) == _group(label) or "PROPN" in (lab, label))
                   and not _entity_words(e) <= statement_words and _entity_words(e)]
    rival_names.sort(key=lambda e: -len(_entity_words(e) & needed))
    head = entity.split()[-1] if entity.split() else ""
    if rival_names:
        found.contradicted.append(f"entity '{entity}' vs '{rival_names[0]}' in {where}")
    elif len(entity.split()) > 1 and (head, "NOUN") in sentence.lemmas:
        found.undecided.append(f"cannot tell: '{entity}' may be what {where} calls 'the {head}'")
    elif label == "PERSON" and len(entity.split()) > 1 and head.lower() in pool.words \
            and head.lower() not in needed - pool.words:
        found.undecided.append(f"cannot tell: '{entity}' may be the '{head}' of the {pool_name(where)} (a first name "
                               "it does not give)")
    else:  # a name the whole context lacks, in none of its forms: unsupported even with a matched sentence
        found.unsupported.append(f"entity '{entity}' is not in the {pool_name(where)}")


def _covered_rivals(n: tuple[float, float, str, bool], statement: Facts,
                    others: Sequence[tuple[Facts, float]] | None) -> list[tuple[float, float, str, bool]]:
    """The comparable numbers of another sentence whose content words the statement all repeats, n lacking there.

    "South Africa was officially colonised in 1625, while also experiencing migrations" matches the migration
    sentence; "South Africa was officially colonised in 1652." is another, said word for word but for its year.
    """
    if not others:
        return []
    mine = {lemma for lemma, _ in statement.lemmas}
    out = []
    for facts, _ in others:
        words = {lemma for lemma, pos in facts.lemmas if pos != "NUM"}
        if len(words) < 3 or not words <= mine or any(_matches(n, m) for m in facts.numbers):
            continue
        out += [m for m in facts.numbers if _comparable(n, m) and not any(_matches(m, k) for k in statement.numbers)]
    return list(dict.fromkeys(out))


def _unit_rivals(n: tuple[float, float, str, bool], statement: Facts, others: Sequence[tuple[Facts, float]] | None,
                 score: float) -> list[tuple[float, float, str, bool]]:
    """The one number of n's own counted unit in the other sentences that match about as well as the matched one.

    "some two million enslaved people" matches the sentence of the proclamation; "These three million enslaved
    people were declared free" is the next one. Only a unit that is a noun counted ("people", "gender"), never a
    year, a share or a bare number; only when exactly one such number is there.
    """
    if not others or not n[2] or n[2] in ("%", "month") or _year(n) or n[2] in _MONEY_UNITS:
        return []
    found = list(dict.fromkeys(m for facts, s in others if s >= score - ALIGN_MARGIN for m in facts.numbers
                               if m[2] == n[2] and not _year(m) and not any(_matches(m, k) for k in statement.numbers)))
    return found if len(found) == 1 else []


ALIGN_MARGIN = 0.15
"""How much worse than the matched sentence every sentence holding a number must match for it to be misplaced."""


def _misplaced(n: tuple[float, float, str, bool], statement: Facts, sentence: Facts,
               others: Sequence[tuple[Facts, float]], score: float, where: str) -> str:
    """A reason when the matched sentence gives a comparable number instead of n, which only other sentences hold.

    "number ... vs ..." (contradicted) when each sentence holding n matches ``ALIGN_MARGIN`` worse than the matched
    one; "cannot tell: ..." when one of them matches about as well (the statement may join the two); "" when the
    matched sentence has no rival for n.
    """
    rivals = [m for m in sentence.numbers if _comparable(n, m)
              and not any(_matches(m, k) or _matches(k, m) for k in statement.numbers)]
    if not rivals:
        return ""
    holders = [(facts, s) for facts, s in others if _present(n, facts.numbers)]
    near = _nearly_as_good([s for _, s in holders], score) or _joined(set(), statement, sentence, holders, n)
    if near:
        return f"cannot tell: {_number(n)} is in another sentence that {near}; {where} gives {_number(rivals[0])}"
    return (f"number {_number(n)} vs {', '.join(_number(m) for m in rivals)} in {where} ({_number(n)} is only in "
            "sentences about something else)")


def _nearly_as_good(holding: Sequence[float], score: float) -> str:
    """"matches about as well (best vs score)" when a holding sentence is within ``ALIGN_MARGIN``; "" otherwise."""
    if holding and max(holding) >= score - ALIGN_MARGIN:
        return f"matches about as well ({max(holding):.3f} vs {score:.3f})"
    return ""


def _joined(needed: set[str], statement: Facts, sentence: Facts, holders: Sequence[tuple[Facts, float]],
            number: tuple[float, float, str, bool] | None = None) -> str:
    """"also says ..." when a sentence holding the number or name shares two more content words with the statement.

    Two words or numbers of the statement outside the matched sentence, the name itself and the number checked
    ("Prussia and Austria were the strongest members", joined to the matched sentence on the German Confederation),
    or one specific number (100 or more, not a year: "five thousand a year ... the Gold Coast"): the statement joins
    the two sentences.
    """
    extra = {lemma for lemma, _ in _content(statement)} - _said(sentence) - needed
    numbers = [n for n in statement.numbers if not _present(n, sentence.numbers) and n != number]
    for facts, _ in holders:
        said = _said(facts)
        shared = sorted(w for w in extra if w in said or synonyms(w) & said or _stem_in(w, said))
        both = [n for n in numbers if any(_same_value(n[0], m[0]) and _same_value(n[1], m[1]) for m in facts.numbers)]
        shared += [_number(n) for n in both]  # "five thousand a year" there
        if len(shared) >= 2 or any(abs(n[0]) >= 100 and not _year(n) for n in both):  # a specific number: enough
            return f"also says {describe(shared[:3])} of it (the statement joins two sentences)"
    return ""


def _misplaced_entity(entity: str, label: str, statement: Facts, sentence: Facts,
                      others: Sequence[tuple[Facts, float]], score: float, where: str) -> str:
    """``_misplaced`` for a named entity: the matched sentence names another of its type where the statement names it.

    "used by Joe Biden in 1992" against "used by Bill Clinton in 1992" (Biden elsewhere): contradicted when each
    sentence naming it matches ``ALIGN_MARGIN`` worse; "cannot tell" when one matches about as well; "" without a
    rival of the same type (``_group``) in the matched sentence.
    """
    needed = _entity_words(entity)
    if needed <= _said(sentence):
        return ""
    mine = set().union(*(_entity_words(e) for e, _ in statement.entities))
    rivals = [e for e, lab in sentence.entities if _group(lab) == _group(label) and _entity_words(e)
              and not all(_common_noun(w) for w in _entity_words(e))  # "the Queen": a title, maybe of the name
              and _entity_words(e) - needed and not (_entity_words(e) - needed) & mine
              and quantities.alias_in(entity, (e,)) is None
              and quantities.alias_in(e, (entity,)) is None
              and not any(quantities.acronym_of(w, entity) for w in _entity_words(e))
              and not any(quantities.acronym_of(w, e) for w in needed)]
    if not rivals:
        return ""
    holders = [(facts, s) for facts, s in others if needed <= _said(facts)]
    near = _nearly_as_good([s for _, s in holders], score) or _joined(needed, statement, sentence, holders)
    if near:
        return f"cannot tell: '{entity}' is in another sentence that {near}; {where} names '{rivals[0]}'"
    return f"entity '{entity}' vs '{rivals[0]}' in {where} ('{entity}' is only in sentences about something else)"


_GENERIC_NOUNS = frozenset({"people", "person", "individual", "someone", "thing", "way", "one", "part", "kind", "type"})


def _swapped_nouns(statement: Facts, sentence: Facts, pool: Pool, where: str) -> list[tuple[str, str]]:
    """(reason, noun) of a noun the pool lacks (nor a WordNet synonym) where the sentence has another ("liver").

    "liver" for "pancreas". Only in a statement otherwise like the sentence (60 % of its content words there).
    """
    content = _content(statement)
    theirs = {lemma for lemma, _ in sentence.lemmas}
    if not content or sum(lemma in theirs for lemma, _ in content) < 0.6 * len(content):
        return []
    mine = {lemma for lemma, _ in statement.lemmas}
    others = [lemma for lemma, pos in sentence.lemmas if pos == "NOUN" and lemma not in mine
              and not synonyms(lemma) & mine]
    out = []
    for lemma, pos in content:
        if pos == "NOUN" and lemma not in pool.words and not synonyms(lemma) & pool.words and others \
                and lemma not in _GENERIC_NOUNS and not antonyms(lemma) & theirs:  # an antonym: checked apart
            out.append((f"'{lemma}' is not in the {pool_name(where)} ({where} has '{others[0]}')", lemma))
    return out


def _same_slot(lemma: str, statement: Facts, sentence: Facts) -> str:
    """The verb and role a noun fills where the sentence fills them with another noun ("produce agent"); "" if none.

    The other noun is a common noun the statement lacks, outside the sentence's names ("'produce' agent: 'liver' vs
    'pancreas'").
    """
    mine = {lemma for lemma, _ in statement.lemmas}
    named = {w for e, _ in sentence.entities for w in _entity_words(e)}  # "the Department of Education": a name
    for verb, role, argument in statement.roles:
        if argument != lemma or verb in ("be", "have"):
            continue
        rivals = [a for v, r, a in sentence.roles if v == verb and r == role and a != lemma and a not in mine
                  and a not in _PRONOUN_LEMMAS and a not in named and _lemma_pos(sentence, a) == "NOUN"]
        if rivals:
            return f"'{verb}' {role}: '{lemma}' vs '{rivals[0]}'"
    return ""


def missing_content(fact: Facts, pool: Pool, share: float) -> list[str]:
    """Content nouns, verbs and adjectives of a fact the pool lacks, when more than ``1 - share`` of them are."""
    content = [lemma for lemma, pos in fact.lemmas if pos in ("NOUN", "PROPN", "ADJ", "VERB") and lemma not in
               ("be", "have", "do") and len(lemma) > 1 and lemma.isalpha()]
    absent = [lemma for lemma in content if lemma not in pool.words and not (words(lemma) <= pool.words)
              and not synonyms(lemma) & pool.words and not {lemma + "s", lemma + "es"} & pool.words]  # "Slave Forts":
    # a capitalised plural is a proper noun's own lemma
    if content and len(absent) > (1 - share) * len(content) + 1e-9:
        return absent
    return []
