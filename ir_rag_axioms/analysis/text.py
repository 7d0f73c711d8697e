"""Features read off one spaCy parse: terms, sentences, aspects, subject-verb distances, readability, negation."""

from __future__ import annotations

from typing import Any, Literal

AspectExtraction = Literal["noun_chunks", "entities"]
"""How aspects are extracted: spaCy noun chunks (lowercased) or named entities (case kept)."""


def term_tokens(span: Any) -> list[Any]:
    """Tokens that count as terms: everything except punctuation and stopwords (whitespace tokens count)."""
    return [t for t in span if not t.is_punct and not t.is_stop]


def terms(span: Any) -> list[str]:
    """Lowercased lemmas of the term tokens of a Doc or Span."""
    return [t.lemma_.lower() for t in term_tokens(span)]


def sentences(doc: Any) -> list[Any]:
    """The sentence spans of a parsed Doc."""
    return list(doc.sents) if len(doc) else []


def sentence_texts(doc: Any) -> list[str]:
    """The texts of the non-blank sentences of a parsed Doc."""
    return [s.text for s in sentences(doc) if s.text.strip()]


def aspects(doc: Any, extraction: AspectExtraction) -> list[str]:
    """Distinct aspects in order of first mention: noun chunks lowercased, or entity texts."""
    if extraction == "noun_chunks":
        found = (chunk.text.lower() for chunk in doc.noun_chunks)
    elif extraction == "entities":
        found = (ent.text for ent in doc.ents)
    else:
        raise ValueError(f"aspect_extraction must be 'noun_chunks' or 'entities', got {extraction!r}")
    return list(dict.fromkeys(a for a in found if a.strip()))
