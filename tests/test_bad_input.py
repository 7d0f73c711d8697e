"""Bad input gets a defined result or a clear error: blank, missing, huge, non-English, duplicate, NaN."""

from __future__ import annotations

import json
import math
import warnings
from urllib.parse import parse_qs

import numpy as np
import pytest
from conftest import JsonHandler, loopback_server

from ir_rag_axioms import (
    CLAR1,
    CLAR2,
    COH1,
    CONS1,
    CONS2,
    CORR1,
    COV1,
    GenerationRequest,
    GenerationResponse,
)
from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.resources import ToolUnavailableError

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])
GOOD = [
    GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
    GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr."),
]


@pytest.mark.parametrize("blank", ["", "   ", "\n\t", float("nan"), None])
def test_blank_responses_abstain(blank):
    responses = [*GOOD, GenerationResponse("c", blank)]
    assert responses[2].text == ("" if blank is None or isinstance(blank, float) else blank)
    for axiom in (COH1, COV1, CONS2, CORR1, CLAR2):
        matrix = axiom.preferences(REQUEST, responses)
        assert not matrix[2].any() and not matrix[:, 2].any(), axiom


def test_missing_context_makes_context_axioms_abstain():
    for context in (None, [], ["", "  "], float("nan")):
        request = GenerationRequest("q", "Why do cats purr?", context if not isinstance(context, float) else None)
        assert request.context is None
        assert not CONS1.preferences(request, GOOD).any()
        assert not CONS2.preferences(request, GOOD).any()


def test_huge_response_abstains_with_a_warning():
    huge = GenerationResponse("huge", "Cats purr. " * 100_000)  # 1.1 MB
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        matrix = COV1.preferences(REQUEST, [*GOOD, huge])
    assert any("not analysed" in str(w.message) for w in caught)
    assert not matrix[2].any() and not matrix[:, 2].any()
    assert matrix[0, 1] != 0  # the others are still compared


def test_non_english_text_gives_a_defined_matrix():
    responses = [*GOOD, GenerationResponse("de", "Katzen schnurren, wenn sie zufrieden sind [1]."),
                 GenerationResponse("zh", "猫在满足时会发出呼噜声。")]
    for axiom in (COH1, COV1, CONS2, CORR1, CLAR2):
        matrix = axiom.preferences(REQUEST, responses)
        assert matrix.shape == (4, 4) and np.isfinite(matrix).all()
        assert np.array_equal(matrix, -matrix.T)


def test_duplicate_ids_and_wrong_types_are_clear_errors():
    with pytest.raises(ValueError, match="duplicate response ids.*'a'"):
        COH1.preferences(REQUEST, [GOOD[0], GenerationResponse("a", "Other text.")])
    with pytest.raises(TypeError, match="GenerationResponse"):
        COH1.preferences(REQUEST, ["just a string"])
    with pytest.raises(TypeError, match="GenerationRequest"):
        COH1.preferences("why?", GOOD)
    with pytest.raises(TypeError, match="must be a string"):
        GenerationResponse("x", 42)


def test_zero_and_one_response():
    assert COH1.preferences(REQUEST, []).shape == (0, 0)
    assert COH1.preferences(REQUEST, GOOD[:1]).tolist() == [[0.0]]
    assert COH1.preferences_batch([(REQUEST, []), (REQUEST, GOOD)])[0].shape == (0, 0)


def test_pairwise_preference_is_read_from_the_matrix():
    matrix = CORR1.preferences(REQUEST, GOOD)
    assert CORR1.preference(REQUEST, GOOD[0], GOOD[1]) == matrix[0, 1] == 1.0
    assert CORR1.preference(REQUEST, GOOD[0], GOOD[0]) == 0.0


class _LanguageToolHandler(JsonHandler):
    """The /v2/check endpoint of a LanguageTool server, with two rules: "he go" (grammar), "teh" (spelling)."""

    def do_POST(self):  # noqa: N802 - http.server's naming
        length = int(self.headers["Content-Length"])
        text = parse_qs(self.rfile.read(length).decode())["text"][0]
        matches = []
        for needle, issue, category in (("he go", "grammar", "GRAMMAR"), ("teh", "misspelling", "TYPOS")):
            start = text.find(needle)
            while start >= 0:
                matches.append({
                    "message": "m", "shortMessage": "", "replacements": [], "offset": start,
                    "length": len(needle), "context": {"text": text, "offset": start, "length": len(needle)},
                    "sentence": text, "type": {"typeName": "Other"},
                    "rule": {"id": "R", "description": "d", "issueType": issue,
                             "category": {"id": category, "name": category}},
                })
                start = text.find(needle, start + 1)
        self.send_json(json.dumps({"matches": matches}).encode())

    def do_GET(self):  # noqa: N802 - /v2/languages and health checks
        languages = [{"name": "English (US)", "code": "en", "longCode": "en-US"}]
        body = languages if "languages" in self.path else {"matches": []}
        self.send_json(json.dumps(body).encode())


@pytest.fixture(scope="module")
def languagetool_url():
    with loopback_server(_LanguageToolHandler) as url:
        yield url


def test_clar1_counts_grammar_error_characters_only(languagetool_url):
    clar1 = CLAR1(languagetool_url=languagetool_url)
    responses = [
        GenerationResponse("ok", "She walks home."),  # no error
        GenerationResponse("grammar", "Then he go home."),  # 5 of 16 characters
        GenerationResponse("typo", "Then teh cat left."),  # a spelling error does not count
    ]
    values = clar1.values(REQUEST, responses, Analysis(store=None))
    assert values.tolist() == [0.0, 5 / 16, 0.0]
    assert clar1.preferences(REQUEST, responses).tolist() == [[0, 1, 0], [-1, 0, -1], [0, 1, 0]]


def test_clar1_without_languagetool_fails_before_any_work_and_says_how_to_fix():
    with pytest.raises(ToolUnavailableError, match="IR_RAG_AXIOMS_LANGUAGETOOL") as error:
        CLAR1(languagetool_url="http://127.0.0.1:9").preferences(REQUEST, GOOD)
    assert "languagetool_url" in str(error.value)
    assert not math.isnan(0.0)
