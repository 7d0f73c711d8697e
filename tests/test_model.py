"""The data model: requests and responses normalise their fields and refuse what they cannot hold."""

from __future__ import annotations

import numpy as np
import pytest

from ir_rag_axioms import (
    COH1,
    CONS2,
    GenerationRequest,
    GenerationResponse,
)

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


def test_numpy_strings_are_plain_strings():
    response = GenerationResponse(np.str_("n"), np.str_("Cats purr [1]. Really."))
    request = GenerationRequest("q", np.str_("Why?"), np.array(["Cats purr.", "Lions roar."]))
    assert type(response.text) is str and type(response.id) is str and type(request.text) is str
    assert request.context == ("Cats purr.", "Lions roar.") and all(type(p) is str for p in request.context)
    assert CONS2.preferences(request, [*GOOD, response]).shape == (3, 3)


def test_a_bare_response_is_a_clear_error():
    with pytest.raises(TypeError, match="got a single GenerationResponse: wrap it in a list"):
        COH1.preferences(REQUEST, GOOD[0])


def test_lone_surrogates_are_replaced_with_a_warning_naming_the_response():
    with pytest.warns(UserWarning, match="GenerationResponse 's': text holds lone surrogates"):
        response = GenerationResponse("s", "Cats \ud800 purr.")
    assert response.text == "Cats \ufffd purr."


# -- silently wrong -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("context", [{"Cats purr.": 1}, {"Cats purr."}, b"Cats purr.", 42])
def test_a_dict_or_other_non_sequence_as_context_is_refused(context):
    with pytest.raises(TypeError, match="GenerationRequest 'q': context must be a string or a sequence"):
        GenerationRequest("q", "Why?", context)
