"""Features of a claim against its best evidence: similarity, word overlap, and the checks as signals.

A check (``checks.py``) that failed names itself in its reason ("negation: ...", "entity 'x' vs 'y' ..."); each family
of checks is one pair of features: a finding (a contradiction or a missing name or number), weighted by the share of
the claim's content words in its evidence sentence (a finding against a close paraphrase counts fully), and a
"cannot tell" (0 or 1).
The verifier (``model.py``) learns how far each signal is to be trusted; the ablation (docs/metrics-development.md)
keeps a family only where it pays on data it was not fitted on.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

FAMILIES: dict[str, re.Pattern[str]] = {
    "numbers": re.compile(r"\bnumber\b|\btime \d|\bmonth\b|\bprice\b|\bcomputed\b|arithmetic|per \w+ is"),
    "entities": re.compile(r"\bentity\b|\bname '|may be another form|may be the '|calls 'the"),
    "negation": re.compile(r"\bnegat"),
    "antonyms": re.compile(r"\bantonym"),
    "comparisons": re.compile(r"comparison|comparative|flipped|\bthan\b"),
    "modality": re.compile(r"modality"),
    "content": re.compile(r"no matching sentence|content words|no single sentence"),
}
"""Family of checks -> the pattern its reasons match (the first family that matches takes a reason). Quantifiers and
roles reversed did not pay in the ablation (docs/metrics-development.md) and are no checks any more."""

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("""a an the of and or in on at to for by with from as is are was were be been being it its this that
these those which who whom whose what when where how has have had do does did not no can could will would shall should
may might must than then there their they them he she his her we our you your i me my also about into over under
after before between more most such only other some any all each very so""".split())
SIMILARITY = ("match", "overlap_best", "overlap_context", "numbers_in_context", "claim_words", "new_words",
              "new_names")
"""The similarity features: the judge's match score, the share of the claim's content words in its best sentence and
in the whole context, the share of its numbers in the context, log(1 + the claim's words), log(1 + its content words
the context lacks), and its capitalised words after the first that the context lacks."""
FEATURES: tuple[str, ...] = SIMILARITY + tuple(f"{family}{kind}" for family in FAMILIES for kind in ("", "_unsure"))
"""The feature names, in the order of ``features``."""


def fold(text: str) -> str:
    """Lowercased, without diacritics ("Medellín" -> "medellin")."""
    return unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()


def content_words(text: str) -> set[str]:
    """The folded words of a text that are not stopwords, each cut to its first 5 letters (a crude stem)."""
    return {w[:5] for w in _WORD.findall(fold(text)) if w not in _STOP}


def _share(mine: set[str], theirs: set[str]) -> float:
    return len(mine & theirs) / len(mine) if mine else 1.0


def family_of(reason: str) -> str | None:
    """The family of checks a reason comes from (None: none of the table)."""
    return next((name for name, pattern in FAMILIES.items() if pattern.search(reason)), None)


def features(row: Mapping[str, Any], context: str | Sequence[str]) -> list[float]:
    """One claim's (or reference fact's) features (``FEATURES``) from its row of the checks and its context."""
    claim, best = str(row.get("statement", row.get("reference fact"))), str(row.get("best_match") or "")
    text = context if isinstance(context, str) else " ".join(context)
    mine = content_words(claim)
    numbers = set(re.findall(r"\d+(?:\.\d+)?", claim))
    theirs = content_words(text)
    names = {fold(w) for w in re.findall(r"(?<=\S )[A-Z][a-zA-Z]+", claim)} - set(_WORD.findall(fold(text)))
    values = [float(row.get("score") or 0.0), _share(mine, content_words(best)), _share(mine, theirs),
              _share(numbers, set(re.findall(r"\d+(?:\.\d+)?", text))), math.log1p(len(_WORD.findall(claim))),
              math.log1p(len(mine - theirs)), float(len(names))]
    found = dict.fromkeys(FEATURES[len(SIMILARITY):], 0.0)
    for reason in row.get("reasons", ()):
        family = family_of(str(reason))
        if family is not None and str(reason).startswith("cannot tell"):
            found[f"{family}_unsure"] = 1.0
        elif family is not None:  # a finding against a close paraphrase counts fully, against a loose match less
            found[family] = max(found[family], values[1])
    return values + list(found.values())
