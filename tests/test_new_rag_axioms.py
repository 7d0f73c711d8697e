"""The RAG axioms beyond the paper: exact values on crafted texts, the shared citation parser, explanations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ir_rag_axioms import CORR1, GenerationRequest, GenerationResponse, default_analysis, get
from ir_rag_axioms.axioms.citations import ANY_CITATION_PATTERN, find_citations


def _values(name, texts, request="Why do cats sleep so much?", context=None, **changes):
    axiom = get(name)(**changes) if changes else get(name)
    req = GenerationRequest("q", request, context)
    responses = [GenerationResponse(f"r{i}", t) for i, t in enumerate(texts)]
    return axiom.checked_values(req, responses, default_analysis()) if _analysed(axiom, req, responses) else None


def _analysed(axiom, request, responses):
    from ir_rag_axioms.axioms.base import analyse

    analyse([axiom], [(request, responses)])
    return True


def _same(found, expected):
    assert len(found) == len(expected)
    for a, b in zip(found, expected, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12), (found, expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("See [1], [1, 2] and [1-3].", [("bracket", (1,)), ("bracket", (1, 2)), ("bracket", (1, 2, 3))]),
    ("As (1) and (2, 3) say.", [("parenthesis", (1,)), ("parenthesis", (2, 3))]),
    ("Cats sleep\u00b2 a lot<sup>3</sup>.", [("superscript", (2,)), ("sup", (3,))]),
    ("Noted[^4].", [("footnote", (4,))]),
    ("[Source 2] says so (Passage 1), [Doc 3].", [("label", (2,)), ("label", (1,)), ("label", (3,))]),
    ("Cats sleep [1\u20133].", [("bracket", (1, 2, 3))]),
    ("Not citations: [a], (2020), (one) and 3 cats.", []),
])
def test_the_parser_reads_numbered_formats(text, expected):
    assert [(c.kind, c.numbers) for c in find_citations(text)] == expected


def test_the_parser_reads_urls_and_author_year():
    found = find_citations("See [the docs](https://example.org/cats) or https://cats.org/a. Cats sleep "
                           "(Smith, 2020) and [Jones et al., 2019].")
    assert [(c.kind, c.url, c.author, c.year) for c in found] == [
        ("markdown_url", "https://example.org/cats", None, None), ("url", "https://cats.org/a", None, None),
        ("author_year", None, "Smith", "2020"), ("author_year", None, "Jones", "2019")]


TEXTS = ["Cats sleep a lot [1]. They hunt at night.",
         "Cats sleep a lot (1). They hunt at night [Source 2].",
         "Cats sleep a lot. They hunt at night.",
         "Cats sleep (Smith, 2020). See https://cats.org/a for more."]


def test_corr2_counts_every_format_and_corr1_can_use_the_parser():
    _same(_values("CORR2", TEXTS), [0.5, 1.0, 0.0, 1.0])
    _same(_values("CORR1", TEXTS), [0.5, 0.0, 0.0, 0.0])  # the published default is unchanged: [n] only
    # CORR1 splits as spaCy does: "[Source 2]." after "night" is a sentence of its own (3 sentences, 2 cite)
    _same(_values("CORR1", TEXTS, citation_pattern=ANY_CITATION_PATTERN), [0.5, 2 / 3, 0.0, 1.0])
    assert CORR1.citation_pattern == r"\[[0-9]+\]"


CONTEXT = ("Domestic cats sleep 12 to 16 hours a day, Smith wrote in 2020.",
           "Kittens sleep even more. More at https://cats.org/a.")


def test_corr3_citation_validity():
    texts = ["Cats sleep [1]. Kittens sleep more [2].", "Cats sleep [2]. Kittens sleep more [5].",
             "Cats sleep [0]. Kittens sleep more [1].", "Cats sleep [0]. Kittens sleep more [2].",
             "Cats sleep (Smith, 2020). See https://cats.org/a and https://dogs.org/b.",
             "Cats sleep a lot."]
    _same(_values("CORR3", texts, context=CONTEXT), [1.0, 0.5, 1.0, 0.5, 2 / 3, np.nan])
    _same(_values("CORR3", texts[2:4], context=CONTEXT, numbering="one"), [0.5, 0.5])
    _same(_values("CORR3", texts[:1], context=None), [np.nan])  # no context: abstains


def test_corr4_citation_support():
    context = ("Cats sleep sixteen hours every day.", "Kittens play with wool.")
    texts = ["Cats sleep sixteen hours [1]. Kittens play with wool [2].",
             "Cats sleep sixteen hours [2]. Kittens play with wool [2].",
             "Cats sleep sixteen hours [3].", "Cats sleep sixteen hours."]
    _same(_values("CORR4", texts, context=context), [1.0, 0.5, np.nan, np.nan])


def test_coh3_tense_switches():
    texts = ["Cats sleep a lot. They hunt at night.", "Cats sleep a lot. They slept in Paris. They will sleep more.",
             "Cats slept a lot. They hunted at night. They sleep now.", "Cats sleep."]
    _same(_values("COH3", texts), [0.0, 1.0, 0.5, np.nan])
    assert get("COH3").preferences(GenerationRequest("q", "cats"), [
        GenerationResponse("a", texts[0]), GenerationResponse("b", texts[1])])[0, 1] == 1


def test_coh4_sentence_length_variation():
    _same(_values("COH4", ["Cats sleep. Dogs bark.", "Cats sleep. Dogs bark loudly at night.", "Cats sleep."]),
          [0.0, 1.5 / 3.5, np.nan])


def test_coh5_register_mixing():
    _same(_values("COH5", ["Cats sleep. Dogs bark.", "Cats sleep. I love cats.", "I love cats. You'd too!",
                           "Cats sleep. Dogs bark. I love cats. Birds sing."]), [0.0, 1.0, 0.0, 0.5])


def test_clar3_discourse_structure():
    texts = ["Cats sleep. Dogs bark.", "Cats sleep. However, dogs bark.",
             "First, cats sleep to save energy. However, kittens differ.\n\nIn summary, sleep matters.",
             "Cats:\n- sleep a lot\n- hunt at night", "Cats sleep.\n\nDogs bark. Birds sing."]
    _same(_values("CLAR3", texts), [0.0, 0.5, 1.0, 1.0, 1 / 3])


def test_clar4_opening_variety():
    _same(_values("CLAR4", ["Cats sleep. Cats eat. Dogs bark.", "Cats sleep. Dogs bark.", "Cats sleep."]),
          [2 / 3, 1.0, np.nan])


def test_clar5_hard_pronouns():
    from ir_rag_axioms.analysis.resources import load_spacy
    from ir_rag_axioms.axioms.discourse import hard_pronouns

    texts = ["The dog chased the cat in the garden. It was fast.", "The cat sleeps. It dreams.",
             "They sleep all day.", "It is raining. The cats sleep."]
    # a limit of the heuristic: the expletive "it" of "It is raining" (parsed as a subject) counts as far
    _same(_values("CLAR5", texts), [0.5, 0.0, 1.0, 0.5])
    nlp = load_spacy("en_core_web_sm")
    assert hard_pronouns(nlp(texts[0])) == [("It", "ambiguous")]
    assert hard_pronouns(nlp(texts[2])) == [("They", "far")]


def test_cov4_query_facets():
    from ir_rag_axioms.analysis.resources import load_spacy
    from ir_rag_axioms.axioms.facets import request_facets

    request = "Why do cats sleep and how do kittens differ?"
    assert request_facets(load_spacy("en_core_web_sm")(request)) == (("cat",), ("kitten",), ("sleep",), ("differ",))
    texts = ["The cat sleeps. A kitten differs.", "The cat sleeps.", "Dogs bark."]
    _same(_values("COV4", texts, request=request), [1.0, 0.5, 0.0])
    _same(_values("COV4", texts, request="Why?"), [np.nan] * 3)  # no facets: abstains


def test_cons4_and_cons5_grounding():
    context = ("Domestic cats sleep 16 hours a day in Paris.", "The average cat weighs 4.5 kg.")
    texts = ["Smith says cats in Paris sleep 16 hours a day [1].", "Cats in London sleep 20 hours a day.",
             "Cats sleep a lot."]
    _same(_values("CONS4", texts, context=context), [0.5, 0.0, np.nan])
    _same(_values("CONS5", texts, context=context), [1.0, 0.0, np.nan])
    _same(_values("CONS5", texts[:1], context=None), [np.nan])


@pytest.mark.parametrize("name", ["CORR2", "CORR3", "CORR4", "COH3", "COH4", "COH5", "CLAR3", "CLAR4", "CLAR5",
                                  "COV4", "CONS4", "CONS5"])
def test_catalogue_row_says_new_in_this_library(name):
    from ir_rag_axioms.axioms.catalogue import describe

    entry = describe(name)
    assert entry["citation"] == "new in this library"
    assert entry["dimension"] in ("coherence", "coverage", "consistency", "correctness", "clarity")


def test_explanations_name_the_evidence():
    request = GenerationRequest("q", "Why do cats sleep?", CONTEXT)
    a = GenerationResponse("a", "Cats sleep [1]. Kittens sleep more [2].")
    b = GenerationResponse("b", "Cats sleep [2]. Kittens sleep more [5].")
    explained = get("CORR3").explain(request, a, b)
    assert explained.decision == 1 and explained.details["invalid"] == ("none", "[5]")
