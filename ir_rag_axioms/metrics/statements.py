"""Statements read off the shared spaCy parse: sentences, bullet items, and the clauses of long sentences.

A statement is kept with its terms (lemmas without stopwords, punctuation and citation markers), so the offline judge
needs no second parse. The feature is declared with ``Feature`` and computed by the one planner.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.text import sentences, term_tokens

_CITATION = re.compile(r"\[\s*\d+(?:\s*[,;-]\s*\d+)*\s*\]")
_BULLET = re.compile(r"^\s*(?:[-*•#>]+|\d+[.)])\s*")
_SPACE = re.compile(r"\s+")
_LEADING_LINK = re.compile(r"^(?:and|but|while|whereas|so|yet)\s+", re.IGNORECASE)
_CLAUSE_LINKS = frozenset({"and", "but", "while", "whereas", "so", "yet"})


def clean(text: str) -> str:
    """A statement's text without citation markers, a leading bullet, number or clause link, emphasis, extra space."""
    text = _CITATION.sub("", text).replace("**", "").replace("__", "")
    text = _SPACE.sub(" ", _BULLET.sub("", text)).strip(" \t\n:,;")
    return _LEADING_LINK.sub("", text)


def _pieces(sentence: Any) -> list[Any]:
    """A sentence split at line breaks (bullet items and headings are their own pieces)."""
    cuts = [t.i for t in sentence if t.is_space and "\n" in t.text]
    bounds = [sentence.start, *cuts, sentence.end]
    doc = sentence.doc
    return [doc[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _clauses(span: Any, max_words: int) -> list[Any]:
    """A long span split before ';' and before 'and'/'but'/... that join two clauses with their own verbs."""
    if sum(not t.is_punct and not t.is_space for t in span) <= max_words:
        return [span]
    cuts = []
    for token in span:
        if token.text == ";" or (
            token.lower_ in _CLAUSE_LINKS and token.dep_ == "cc" and token.head.pos_ in ("VERB", "AUX")
            and any(c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") and c.i > token.i for c in token.head.children)
        ):
            cuts.append(token.i)
    bounds = [span.start, *cuts, span.end]
    doc = span.doc
    return [doc[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _in_citation(token: Any) -> bool:
    """Whether a token is inside a citation marker such as ``[1, 2]``."""
    doc, i = token.doc, token.i
    while i > 0 and re.fullmatch(r"[\d,;\- ]+", doc[i].text):
        i -= 1
    return doc[i].text == "[" and i != token.i


def statements(doc: Any, max_words: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(text, terms) of every statement: non-empty pieces with at least two words."""
    out = []
    for sentence in sentences(doc):
        for piece in _pieces(sentence):
            for clause in _clauses(piece, max_words):
                text = clean(clause.text)
                if sum(c.isalpha() for c in text.split()) == 0 or len(re.findall(r"[A-Za-z]+", text)) < 2:
                    continue
                terms = tuple(t.lemma_.lower() for t in term_tokens(clause)
                              if not t.is_space and not _in_citation(t) and t.text not in "[]*#-•")
                out.append((text, terms))
    return tuple(out)


@cache
def statement_feature(max_words: int = 25) -> Feature:
    """The statements feature (sentences, bullet items, clauses of sentences over ``max_words`` words)."""
    return Feature("rag_statements", ("lemmas", "parse"), statements, (max_words,))
