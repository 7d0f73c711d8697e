"""Citation axioms beyond the paper: any citation format (CORR2), citation validity (CORR3), citation support (CORR4).

One shared parser, ``find_citations(text)``, recognises the citation formats of generated answers: numbers in
brackets (``[1]``, ``[1, 2]``, ``[1-3]``), in parentheses (``(1)``, ``(1, 2)``), superscripts (``¹²``,
``<sup>3</sup>``), footnote markers (``[^1]``), labelled sources (``[Source 2]``, ``[Doc 3]``, ``(Passage 1)``),
markdown and bare URLs, and author-year references (``(Smith, 2020)``, ``[Smith et al., 2020]``).
``ANY_CITATION_PATTERN`` is the same parser as one regular expression, for ``CORR1(citation_pattern=...)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.features import SENTENCES, TERMS, Feature
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.analysis.text import sentences, term_tokens
from ir_rag_axioms.axioms.base import FeatureAxiom, Reads, feature_values
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, context_of

_NUMBERS = r"\d{1,3}(?:\s*(?:[-\u2013]|,|;)\s*\d{1,3})*"
_SUPERSCRIPTS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079"
_SUPERSCRIPT_DIGITS = str.maketrans(_SUPERSCRIPTS, "1230456789")
_LABELS = r"(?:source|sources|doc|document|documents|passage|passages|ref|reference|references|context)"
_AUTHOR = r"[A-Z][A-Za-z'\u2019-]+(?:\s+(?:et\s+al\.?|and\s+[A-Z][A-Za-z'\u2019-]+|&\s+[A-Z][A-Za-z'\u2019-]+))?"

CITATION_FORMATS: dict[str, str] = {
    "markdown_url": r"\[[^\[\]\n]{1,200}\]\((?P<markdown_url>https?://[^\s()]{1,500})\)",
    "footnote": r"\[\^(?P<footnote>\d{1,3})\]",
    "bracket": rf"\[(?P<bracket>{_NUMBERS})\]",
    "label": rf"[\[(](?i:{_LABELS})\s*(?P<label>{_NUMBERS})[\])]",
    "author_year": rf"[\[(](?P<author>{_AUTHOR}),?\s+(?P<year>(?:1[89]|20)\d\d)[a-z]?[\])]",
    "parenthesis": rf"\((?P<parenthesis>{_NUMBERS})\)",
    "sup": r"<sup>\s*(?P<sup>\d{1,3}(?:\s*,\s*\d{1,3})*)\s*</sup>",
    "superscript": rf"(?<=\w)(?P<superscript>[{_SUPERSCRIPTS}]+)",
    "url": r"(?P<url>https?://[^\s<>()\[\]]{1,500})",
}
"""Citation format -> regular expression (tried in this order at each position; the first that matches wins)."""

ANY_CITATION_PATTERN = "|".join(f"(?:{pattern})" for pattern in CITATION_FORMATS.values())
"""Every format as one regular expression (``CORR1(citation_pattern=ANY_CITATION_PATTERN)`` counts them all)."""

_ANY = re.compile(ANY_CITATION_PATTERN)
_MAX_RANGE = 50
"""A range wider than this (``[1-900]``) is read as its two ends only."""


@dataclass(frozen=True)
class Citation:
    """One citation in a text: its format, the passage numbers it names, or a URL, or an author and year."""

    kind: str
    """The format (a key of ``CITATION_FORMATS``)."""
    text: str
    """The matched text."""
    start: int
    """Character offset of the match."""
    numbers: tuple[int, ...] = ()
    """Passage numbers, as written (ranges expanded)."""
    url: str | None = None
    author: str | None = None
    year: str | None = None


def _numbers(text: str) -> tuple[int, ...]:
    """``1, 2; 5-7`` -> (1, 2, 5, 6, 7): lists and ranges of numbers."""
    out: list[int] = []
    for part in re.split(r"\s*[,;]\s*", text.strip()):
        ends = [int(x) for x in re.split(r"\s*[-\u2013]\s*", part) if x]
        if len(ends) == 2 and 0 <= ends[1] - ends[0] <= _MAX_RANGE:
            out.extend(range(ends[0], ends[1] + 1))
        else:
            out.extend(ends)
    return tuple(dict.fromkeys(out))


def find_citations(text: str) -> list[Citation]:
    """Every citation in ``text``, in order (the formats of ``CITATION_FORMATS``)."""
    found = []
    for match in _ANY.finditer(text):
        kind = next(k for k, v in match.groupdict().items() if v is not None and k != "year")
        value = match.group(kind)
        kind = "author_year" if kind == "author" else kind
        if kind in ("url", "markdown_url"):
            found.append(Citation(kind, match.group(0), match.start(), url=value.rstrip(".,;:!?")))
        elif kind == "author_year":
            found.append(Citation(kind, match.group(0), match.start(), author=value.split()[0],
                                  year=match.group("year")))
        elif kind == "superscript":
            found.append(Citation(kind, value, match.start(), numbers=(int(value.translate(_SUPERSCRIPT_DIGITS)),)))
        else:
            found.append(Citation(kind, match.group(0), match.start(), numbers=_numbers(value)))
    return found


def _normal_url(url: str) -> str:
    return url.rstrip("/").lower()


Numbering = Literal["auto", "zero", "one"]


def resolve(citation: Citation, passages: Sequence[str], numbering: Numbering, zero_based: bool) -> bool | None:
    """Whether a citation names one of the passages (None if it cannot be checked: no passage numbers or URLs).

    Numbers name passages 1..n (``one``) or 0..n-1 (``zero``; ``auto``: zero-based where the response cites a 0);
    a URL must occur in a passage; an author-year citation needs a passage with both the name and the year.
    """
    if not passages:
        return None
    if citation.numbers:
        base = 0 if numbering == "zero" or (numbering == "auto" and zero_based) else 1
        return all(base <= n < base + len(passages) for n in citation.numbers)
    if citation.url is not None:
        url = _normal_url(citation.url)
        return any(url in _normal_url(p) for p in passages)
    if citation.author is not None and citation.year is not None:
        return any(citation.author in p and citation.year in p for p in passages)
    return None


def _zero_based(citations: Sequence[Citation]) -> bool:
    return any(0 in c.numbers for c in citations)


def only_citations(text: str) -> bool:
    """Whether a text holds citations and nothing else but punctuation (``[2].``)."""
    found = find_citations(text)
    if not found:
        return False
    rest = _ANY.sub(" ", text)
    return not any(ch.isalnum() for ch in rest)


def merge_citation_sentences(texts: Sequence[str]) -> list[str]:
    """Sentences with a citation-only sentence (spaCy splits ``... hours [2]. Next``) joined to the one before."""
    out: list[str] = []
    for text in texts:
        if out and only_citations(text):
            out[-1] = f"{out[-1]} {text}"
        else:
            out.append(text)
    return out


def _sentence_terms(doc: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(sentence text, its terms outside citation markers) per sentence; citation-only sentences join the previous."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for sentence in sentences(doc):
        spans = [(sentence.start_char + c.start, sentence.start_char + c.start + len(c.text))
                 for c in find_citations(sentence.text)]
        kept = tuple(t.lemma_.lower() for t in term_tokens(sentence)
                     if not any(a <= t.idx < b for a, b in spans))
        if out and only_citations(sentence.text):
            out[-1] = (f"{out[-1][0]} {sentence.text}", out[-1][1])
        else:
            out.append((sentence.text, kept))
    return tuple(out)


SENTENCE_TERMS = Feature("sentence_terms_outside_citations", ("lemmas", "parse"), _sentence_terms)
"""Per sentence: its text and its terms, citation markers left out (CORR4)."""


class CitationFormatsCorrectnessAxiom(FeatureAxiom):
    """CORR2: prefer a higher share of sentences with a citation in any format, |S_ref|/|S| >_10% (new in this library).

    CORR1 with the shared citation parser: bracketed, parenthesised, superscript and footnote numbers, labelled
    sources, URLs and author-year references; a sentence of citations only (``[2].``) belongs to the one before.
    """

    name: ClassVar[str] = "CORR2"
    dimension: ClassVar[str] = "correctness"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.1
    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline that splits sentences."""
    undefined: ClassVar[str] = "no sentences"

    def reads(self) -> tuple[Reads, ...]:
        """The sentences of each response."""
        return (Reads(self.spacy_model, responses=(SENTENCES,)),)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Share of sentences with a citation (NaN without sentences); a citation-only sentence joins the previous."""
        out = []
        for found in feature_values(self.spacy_model, SENTENCES, [r.text for r in responses], analysis):
            found = merge_citation_sentences(found or ())
            out.append(sum(1 for s in found if find_citations(s)) / len(found) if found else float("nan"))
        return np.array(out, dtype=np.float64)

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """How many sentences cite, and in which formats."""
        (found,) = feature_values(self.spacy_model, SENTENCES, [response.text], analysis)
        found = merge_citation_sentences(found or ())
        kinds = sorted({c.kind for s in found for c in find_citations(s)})
        cited = sum(1 for s in found if find_citations(s))
        return {"sentences with a citation": f"{cited} of {len(found)}", "formats": ", ".join(kinds) or "none"}


class CitationValidityCorrectnessAxiom(FeatureAxiom):
    """CORR3: prefer a higher share of citations that name a context passage (new in this library).

    valid(c): a cited number has a passage (1..n, or 0..n-1 where the response cites a 0), a URL occurs in a
    passage, an author and year occur together in one; abstains without context or without checkable citations.
    """

    name: ClassVar[str] = "CORR3"
    dimension: ClassVar[str] = "correctness"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.0
    numbering: Numbering = "auto"
    """How numbers name passages: ``one`` (1..n), ``zero`` (0..n-1), ``auto`` (zero-based where a 0 is cited)."""
    undefined: ClassVar[str] = "no context or no checkable citation"

    def _checked(self, request: GenerationRequest, response: GenerationResponse) -> list[tuple[Citation, bool]]:
        passages = context_of(request, response) or ()
        citations = find_citations(response.text)
        zero = _zero_based(citations)
        checked = [(c, resolve(c, passages, self.numbering, zero)) for c in citations]
        return [(c, ok) for c, ok in checked if ok is not None]

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Valid citations / checkable citations (NaN without context or checkable citations)."""
        out = []
        for response in responses:
            checked = self._checked(request, response)
            out.append(sum(ok for _, ok in checked) / len(checked) if checked else float("nan"))
        return np.array(out, dtype=np.float64)

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The citations that name no passage."""
        checked = self._checked(request, response)
        invalid = [c.text for c, ok in checked if not ok]
        return {"valid citations": f"{len(checked) - len(invalid)} of {len(checked)}",
                "invalid": ", ".join(invalid) or "none"}


def _overlap(sentence: Sequence[str], passage: frozenset[str]) -> float:
    """Share of the sentence's distinct terms that occur in the passage."""
    distinct = set(sentence)
    return len(distinct & passage) / len(distinct) if distinct else 0.0


class CitationSupportCorrectnessAxiom(FeatureAxiom):
    """CORR4: prefer a higher share of citations whose passage matches the citing sentence best (new in this library).

    For each sentence and each passage number it cites, supported if no other passage shares a larger share of
    the sentence's terms (|T_s & T_p| / |T_s|, citation markers left out; ties support); abstains without context
    or without numbered citations of passages.
    """

    name: ClassVar[str] = "CORR4"
    dimension: ClassVar[str] = "correctness"
    citation: ClassVar[str] = NEW_IN_THIS_LIBRARY
    margin_fraction: float = 0.0
    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline of sentences and terms."""
    numbering: Numbering = "auto"
    """How numbers name passages: ``one`` (1..n), ``zero`` (0..n-1), ``auto`` (zero-based where a 0 is cited)."""
    undefined: ClassVar[str] = "no context or no numbered citation of a passage"

    def reads(self) -> tuple[Reads, ...]:
        """Sentences with their terms of each response, terms of each context passage."""
        return (Reads(self.spacy_model, responses=(SENTENCE_TERMS,), context=(TERMS,)),)

    def _pairs(self, request: GenerationRequest, response: GenerationResponse,
               found: Any, analysis: Analysis) -> list[tuple[str, int, bool]]:
        """(sentence, cited passage index, supported) for every numbered citation that names a passage."""
        passages = context_of(request, response) or ()
        if not passages or not found:
            return []
        vocabularies = [frozenset(t or ()) for t in feature_values(self.spacy_model, TERMS, list(passages), analysis)]
        zero = _zero_based(find_citations(response.text))
        base = 0 if self.numbering == "zero" or (self.numbering == "auto" and zero) else 1
        out = []
        for text, terms in found:
            cited = {n - base for c in find_citations(text) for n in c.numbers}
            cited = {k for k in cited if 0 <= k < len(passages)}
            if not cited or not terms:
                continue
            overlaps = [_overlap(terms, v) for v in vocabularies]
            best = max(overlaps)
            out += [(text, k, overlaps[k] >= best) for k in sorted(cited)]
        return out

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Supported citations / numbered citations of passages (NaN where there are none)."""
        found = feature_values(self.spacy_model, SENTENCE_TERMS, [r.text for r in responses], analysis)
        out = []
        for response, sentences_ in zip(responses, found, strict=True):
            pairs = self._pairs(request, response, sentences_, analysis)
            out.append(sum(ok for *_, ok in pairs) / len(pairs) if pairs else float("nan"))
        return np.array(out, dtype=np.float64)

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """The citations whose passage is not the best match of their sentence."""
        (found,) = feature_values(self.spacy_model, SENTENCE_TERMS, [response.text], analysis)
        pairs = self._pairs(request, response, found, analysis)
        unsupported = [f"passage {k} in {text[:40]!r}" for text, k, ok in pairs if not ok]
        return {"supported citations": f"{len(pairs) - len(unsupported)} of {len(pairs)}",
                "unsupported": "; ".join(unsupported) or "none"}


CORR2 = register(CitationFormatsCorrectnessAxiom())
CORR3 = register(CitationValidityCorrectnessAxiom())
CORR4 = register(CitationSupportCorrectnessAxiom())
