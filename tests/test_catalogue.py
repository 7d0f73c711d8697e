"""The catalogue reads each axiom's ``dimension`` and ``citation`` class attributes (not its module or docstring)."""

from __future__ import annotations

import re
from typing import ClassVar

import numpy as np

from ir_rag_axioms import REGISTRY, GenerationRequest, GenerationResponse
from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.axioms.catalogue import GENERATIVE, RAG_DIMENSIONS, describe, dimension_of
from ir_rag_axioms.axioms.explanation import NEW_IN_THIS_LIBRARY, citation_of
from ir_rag_axioms.axioms.generative import Generative

KNOWN = {*RAG_DIMENSIONS, GENERATIVE, "retrieval", "utility", "oracle", "metric", "consensus"}


def test_every_registered_axiom_declares_its_dimension_and_citation_on_its_class():
    package = {n: a for n, a in REGISTRY.items() if type(a).__module__.startswith("ir_rag_axioms.")}
    assert len(package) >= 109  # the package's own axioms (tests may register more)
    for name, axiom in package.items():
        cls = type(axiom)
        assert "dimension" in vars(cls) and "citation" in vars(cls), name  # its own, not Axiom's default
        assert cls.dimension in KNOWN, (name, cls.dimension)
        assert cls.citation.strip(), name
        assert describe(name)["dimension"] == cls.dimension and describe(name)["citation"] == cls.citation


def test_a_citation_in_the_docstring_is_the_citation_attribute():
    year = re.compile(r"\[([^\[\]]*\d{4}[^\[\]]*)\]")
    for name, axiom in REGISTRY.items():
        found = year.findall(" ".join((type(axiom).__doc__ or "").split()))
        if found:
            assert found[-1] == type(axiom).citation, name
        elif NEW_IN_THIS_LIBRARY in (type(axiom).__doc__ or ""):
            assert type(axiom).citation == NEW_IN_THIS_LIBRARY, name


def test_dimensions_by_kind():
    assert dimension_of(REGISTRY["COH1"]) == "coherence" and dimension_of(REGISTRY["COH3"]) == "coherence"
    assert dimension_of(REGISTRY["CORR2"]) == "correctness" and dimension_of(REGISTRY["TFC1"]) == "retrieval"
    assert all(isinstance(REGISTRY[n], Generative) == (dimension_of(REGISTRY[n]) == GENERATIVE) for n in REGISTRY)
    assert citation_of(REGISTRY["GEN_TFC1"]) == "Merker et al., 2025" and citation_of(REGISTRY["NUGGET"]) == \
        "Pradeep et al., 2024"


class _Shouty(Axiom):
    """SHOUTY_TEST: a user's axiom without catalogue metadata."""

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis=None) -> np.ndarray:
        """All zeros."""
        return np.zeros((len(responses), len(responses)))


class _Cited(_Shouty):
    """A user's axiom with catalogue metadata."""

    dimension: ClassVar[str] = "clarity"
    citation: ClassVar[str] = "Someone et al., 2030"


def test_a_user_axiom_without_metadata_is_user_defined_and_uncited():
    assert dimension_of(_Shouty()) == "user-defined" and citation_of(_Shouty()) == ""
    assert dimension_of(_Cited()) == "clarity" and citation_of(_Cited()) == "Someone et al., 2030"
    assert dimension_of(object()) == "user-defined" and citation_of(object()) == ""
