"""The clarity axioms (CLAR1 with a LanguageTool server on the loopback address, CLAR2): exact values, errors."""

from __future__ import annotations

import json
import math
import time
from urllib.parse import parse_qs

import numpy as np
import pytest
from conftest import JsonHandler, loopback_server

from ir_rag_axioms import (
    CLAR1,
    CLAR2,
    GenerationRequest,
    GenerationResponse,
)
from ir_rag_axioms.analysis import resources
from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.resources import ToolUnavailableError

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


def _abstains(matrix: np.ndarray, index: int) -> bool:
    return not matrix[index].any() and not matrix[:, index].any()


# -- hangs --------------------------------------------------------------------------------------------------
class _LanguageTool(JsonHandler):
    """A LanguageTool stand-in: answers the connection check, then stalls or replies with ``body``."""

    body: bytes | None = None
    posts = 0

    def do_GET(self):  # noqa: N802 - http.server's naming
        self.send_json(json.dumps([{"name": "English", "code": "en", "longCode": "en-US"}]).encode())

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).posts += 1
        if type(self).body is None and type(self).posts > 1:
            time.sleep(5)  # stalls after the first check
            return
        self.send_json(type(self).body or b'{"matches": []}')


@pytest.fixture()
def languagetool(monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT", "1")
    _LanguageTool.body, _LanguageTool.posts = None, 0
    with loopback_server(_LanguageTool) as url:
        resources.load_languagetool.cache_clear()
        yield url
        resources.load_languagetool.cache_clear()


# -- crashes on input that passed validation ----------------------------------------------------------------
@pytest.mark.parametrize("text", ["...", "?", ":)"])
def test_clar2_on_punctuation_abstains(text):
    matrix = CLAR2.preferences(REQUEST, [*GOOD, GenerationResponse("p", text)])
    assert _abstains(matrix, 2) and matrix[0, 1] != 0


def test_a_stalling_languagetool_server_times_out_with_a_clear_error(languagetool):
    start = time.monotonic()
    with pytest.raises(ToolUnavailableError, match=f"LanguageTool at {languagetool} gave no usable reply.*"
                                                   "IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT"):
        CLAR1(languagetool_url=languagetool).preferences(REQUEST, GOOD)
    assert time.monotonic() - start < 8  # 2 tries of 1 s, not 600 s


def test_a_reply_without_the_expected_fields_is_reported_as_malformed(languagetool):
    _LanguageTool.body = json.dumps({"matches": [{"offset": 0}]}).encode()
    with pytest.raises(ToolUnavailableError, match=f"{languagetool}.*malformed reply"):
        CLAR1(languagetool_url=languagetool).preferences(REQUEST, GOOD)


def test_match_offsets_outside_the_text_are_clipped():
    from ir_rag_axioms.axioms.clarity import grammar_error_share

    class Match:
        def __init__(self, offset: int, length: int) -> None:
            self.offset, self.errorLength, self.ruleIssueType = offset, length, "grammar"

    text = "He go home."  # 11 characters
    assert grammar_error_share([Match(-5, 10**9)], text) == 1.0
    assert grammar_error_share([Match(10**6, 5), Match(3, -4)], text) == 0.0
    assert grammar_error_share([Match(-2, 5)], text) == 3 / 11


# -- errors and edge cases ----------------------------------------------------------------------------
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
