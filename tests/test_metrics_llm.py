"""The LLM judge end to end against small OpenAI-compatible servers on the loopback address (they stop by themselves).

The servers answer in the response shapes of vLLM, Ollama (``/v1/chat/completions``) and llama.cpp's server
(``timings`` included), streaming off, with ``usage``; their "model" is a few rules that answer the project's prompts
as a well-behaved judge would.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ir_rag_axioms import ANSWER_RELEVANCY
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.metrics import (
    AnswerRelevancy,
    ContextRecall,
    Faithfulness,
    JudgeError,
    JudgeOutputError,
    LlmJudge,
    RubricAnswerRelevancy,
)
from ir_rag_axioms.metrics.interface import Statement
from ir_rag_axioms.metrics.llm import parse_json
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

OFF_TOPIC = {"Our company has excellent customer service.", "Our platform uses industry-standard encryption.",
             "We were founded in 2015.", "We have offices in 3 countries."}
"""The statements the seed judges "no"; the fake judge answers "yes" for every other statement."""
LIFETIME_S = 120.0
"""The server shuts itself down after this many seconds, whatever the test does."""
HANG_S = 2.0
"""How long a "hang" answer stalls (longer than the tests' read timeout, bounded)."""
PROMPT_TOKENS, COMPLETION_TOKENS = 100, 20
"""The usage every fake answer reports."""
SHAPES = ("vllm", "ollama", "llamacpp")


def _answer(messages: list[dict]) -> str:
    """What a well-behaved judge model would say to the project's prompts (and to the tests' custom templates)."""
    system, user = messages[0]["content"], messages[-1]["content"]
    if system.startswith("CUSTOM"):
        return json.dumps({"score": 2, "reason": "custom template"})
    if "atomic statements" in system:
        text = user.split("Response:\n", 1)[1]
        return json.dumps({"statements": [s.strip() for s in re.split(r"(?<=\.)\s+", text) if s.strip()]})
    if "relevant to the query" in system:
        statements = json.loads(user.split("Statements:\n", 1)[1])
        return json.dumps({"verdicts": [{"verdict": "no" if s in OFF_TOPIC else "yes", "reason": "seed"}
                                        for s in statements]})
    if "attributed to the retrieved context" in system:  # a statement is found when the context has all its words
        answer, context = user.split("Reference answer:\n", 1)[1].split("\n\nContext:\n", 1)
        return json.dumps({"verdicts": [{"statement": s, "verdict": "yes" if _words(s) <= _words(context) else "no",
                                         "reason": "words"} for s in re.split(r"(?<=\.)\s+", answer) if s.strip()]})
    if "judge each retrieved passage" in system:  # a passage is relevant when it shares 3 words with the answer
        answer = user.split("Expected answer:\n", 1)[1].split("\n\nPassages:\n", 1)[0]
        passages = json.loads(user.split("Passages:\n", 1)[1])
        return json.dumps({"verdicts": [{"verdict": "yes" if len(_words(p) & _words(answer)) >= 3 else "no",
                                         "reason": "shared words"} for p in passages]})
    if "compare two responses" in system:
        return _pairwise(system, user)
    if "explain an answer-relevancy score" in system:
        return json.dumps({"reason": "One statement is about customer service, not the laptop."})
    return "```json\n" + json.dumps({"score": 4, "reason": "mostly supported"}) + "\n```"


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _pairwise(system: str, user: str) -> str:
    """Prefer the response sharing more words with the context ("tie" on equal counts); "A" always if biased."""
    if "POSITION-BIASED" in system:
        return json.dumps({"preferred": "A", "reason": "A comes first"})
    context = user.split("Context:\n", 1)[1].split("\n\nResponse A:\n", 1)[0] if "Context:\n" in user else ""
    first, second = user.split("Response A:\n", 1)[1].split("\n\nResponse B:\n", 1)
    a, b = (len(_words(text) & _words(context)) for text in (first, second))
    return json.dumps({"preferred": "A" if a > b else "B" if b > a else "tie", "reason": f"{a} vs {b} shared words"})


def completion(shape: str, content: str | None, finish_reason: str = "stop") -> dict:
    """A non-streaming chat completion as vLLM, Ollama or llama.cpp's server sends it."""
    usage = {"prompt_tokens": PROMPT_TOKENS, "completion_tokens": COMPLETION_TOKENS,
             "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS}
    message = {"role": "assistant", "content": content}
    if shape == "vllm":
        return {"id": "chatcmpl-9b1f0e6c2d7a4c4e", "object": "chat.completion", "created": 1764590000,
                "model": "fake-judge",
                "choices": [{"index": 0, "message": {**message, "reasoning_content": None, "tool_calls": []},
                             "logprobs": None, "finish_reason": finish_reason, "stop_reason": None}],
                "usage": {**usage, "prompt_tokens_details": None}, "prompt_logprobs": None}
    if shape == "ollama":
        return {"id": "chatcmpl-417", "object": "chat.completion", "created": 1764590000, "model": "fake-judge",
                "system_fingerprint": "fp_ollama",
                "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}], "usage": usage}
    return {"choices": [{"finish_reason": finish_reason, "index": 0, "message": message}], "created": 1764590000,
            "model": "fake-judge", "system_fingerprint": "b5200-2d451c80", "object": "chat.completion",
            "usage": usage, "id": "chatcmpl-Xh3Qe0VhN7x2", "timings": {
                "prompt_n": PROMPT_TOKENS, "prompt_ms": 31.2, "prompt_per_token_ms": 0.312,
                "prompt_per_second": 3205.1, "predicted_n": COMPLETION_TOKENS, "predicted_ms": 290.4,
                "predicted_per_token_ms": 14.52, "predicted_per_second": 68.9}}


CONTENTS = {
    "malformed": "Sure! Here are the statements: one, two.",
    "prose": 'Let me think. It is mostly grounded.\n{"score": 4, "reason": "mostly supported"}\nHope this helps!',
    "float": '{"score": 4.0, "reason": "mostly supported"}',
    "string": '{"score": "4", "reason": "mostly supported"}',
    "fraction": '{"score": 3.5, "reason": "in between"}',
    "word": '{"score": "four", "reason": "mostly supported"}',
    "two": 'Either {"score": 2, "reason": "a"} or {"score": 5, "reason": "b"}.',
    "list": '[4, "mostly supported"]',
    "no_statements": '{"statements": []}',
}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server = self.server
        with server.lock:
            server.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
            behaviour = server.behaviours.pop(0) if server.behaviours else "ok"
            server.in_flight += 1
            server.max_in_flight = max(server.max_in_flight, server.in_flight)
        try:
            self._reply(behaviour, body)
        finally:
            self._leave()

    def _leave(self) -> None:
        """Count this request out of the flight, once: when its answer starts (the client may then send the next)."""
        if not getattr(self, "_left", False):
            self._left = True
            with self.server.lock:
                self.server.in_flight -= 1

    def _reply(self, behaviour: str, body: dict) -> None:
        time.sleep(self.server.delay)
        if behaviour == "hang":
            time.sleep(HANG_S)
        if behaviour == "429":
            return self._send(429, b'{"error": {"message": "slow down", "type": "rate_limit"}}',
                              {"Retry-After": self.server.retry_after})
        if behaviour == "404":
            return self._send(404, json.dumps({"error": {"message": 'model "fake-judge" not found, try pulling it '
                                                         "first", "type": "api_error"}}).encode())
        if behaviour == "cut":  # the connection drops after half the body its Content-Length announced
            payload = json.dumps(completion(self.server.shape, _answer(body["messages"]))).encode()
            return self._send(200, payload, cut=len(payload) // 2)
        if behaviour == "latin1":
            payload = json.dumps(completion(self.server.shape, '{"score": 4, "reason": "café"}')).encode()
            return self._send(200, payload.replace("é".encode(), b"\xe9").replace(b"\\u00e9", b"\xe9"))
        if behaviour == "trickle":
            return self._send(200, json.dumps(completion(self.server.shape, _answer(body["messages"]))).encode(),
                              trickle=True)
        content, finish = CONTENTS.get(behaviour) or _answer(body["messages"]), "stop"
        if behaviour == "truncated":
            content, finish = '{"statements": ["The laptop has', "length"
        if behaviour == "draft_cut":  # a complete draft object, then the final one cut at max_tokens
            content, finish = ('Draft: {"statements": ["The laptop has a display."]}\nFinal: {"statements": '
                               '["The laptop has a 15-inch display.", "It has'), "length"
        if behaviour == "null":
            content = None
        self._send(200, json.dumps(completion(self.server.shape, content, finish)).encode())

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None, trickle: bool = False,
              cut: int | None = None) -> None:
        self.send_response(status)
        for key, value in {"Content-Type": "application/json", **(headers or {})}.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self._leave()
        self.end_headers()
        try:
            if trickle:  # one byte every 50 ms: each read is quick, the whole answer takes ~50 s
                for k in range(len(payload)):
                    self.wfile.write(payload[k:k + 1])
                    self.wfile.flush()
                    time.sleep(0.05)
            elif cut is not None:
                self.wfile.write(payload[:cut])
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            else:
                self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up and left (the "hang" and "trickle" tests)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    requests: list[dict]
    behaviours: list[str]
    shape: str
    delay: float
    retry_after: str
    lock: threading.Lock
    in_flight: int
    max_in_flight: int


def _start(shape: str = "vllm") -> _Server:
    httpd = _Server(("127.0.0.1", 0), _Handler)
    httpd.requests, httpd.behaviours, httpd.shape, httpd.delay, httpd.retry_after = [], [], shape, 0.0, "0"
    httpd.lock, httpd.in_flight, httpd.max_in_flight = threading.Lock(), 0, 0
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    watchdog = threading.Timer(LIFETIME_S, httpd.shutdown)
    watchdog.daemon = True
    watchdog.start()
    httpd.watchdog = watchdog  # type: ignore[attr-defined]
    return httpd


def _stop(httpd: _Server) -> None:
    httpd.watchdog.cancel()  # type: ignore[attr-defined]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(params=SHAPES)
def any_server(request):
    """A server in each of the three shapes."""
    httpd = _start(request.param)
    yield httpd
    _stop(httpd)


@pytest.fixture()
def server():
    httpd = _start()
    yield httpd
    _stop(httpd)


def _url(server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def _judge(server, **options) -> LlmJudge:
    options.setdefault("cache_dir", None)
    return LlmJudge(_url(server), options.pop("model", "fake-judge"), "secret", **options)


LAPTOP = ("What features does this laptop have?",
          "The laptop has a 15-inch display. It has 16GB RAM. Our company has excellent customer service.")


# -- response shapes, usage and cost -----------------------------------------------------------------------------
def test_each_server_shape_gives_the_level_tokens_and_cost(any_server):
    judge = _judge(any_server, input_price=2.0, output_price=8.0)
    result = Faithfulness(judge=judge).measure("Tides come from the Moon.", ["The Moon causes tides."])
    assert (result.level, result.score, result.passed, result.reason) == (4, 0.75, True, "mostly supported")
    assert (result.usage.prompt_tokens, result.usage.completion_tokens, result.usage.answers) == (100, 20, 1)
    assert result.usage.cost == pytest.approx(100 * 2.0 / 1e6 + 20 * 8.0 / 1e6)
    assert result.to_dict()["usage"]["total_tokens"] == 120
    relevancy = AnswerRelevancy(judge=judge).measure(*LAPTOP)  # extraction, verdicts, written reason: 3 answers
    assert relevancy.usage.answers == 3 and relevancy.usage.prompt_tokens == 300
    assert relevancy.reason == "One statement is about customer service, not the laptop."
    assert judge.usage.answers == 4 and judge.usage.total_tokens == 480 and judge.requests_sent == 4
    assert judge.usage.cost == pytest.approx(4 * (200 + 160) / 1e6)


def test_without_prices_the_cost_is_none_and_offline_results_have_no_usage(server):
    result = RubricAnswerRelevancy(judge=_judge(server)).measure("Why?", "Because.")
    assert result.usage.cost is None and result.usage.total_tokens == 120
    from ir_rag_axioms.metrics import OFFLINE_JUDGE

    assert RubricAnswerRelevancy(judge=OFFLINE_JUDGE).measure("Why?", "Because it rains.").usage is None


def test_prompts_carry_query_and_statements_and_seed_scores(server):
    judge = _judge(server)
    laptop = AnswerRelevancy(judge=judge, include_reason=False).measure(*LAPTOP)
    assert laptop.score == pytest.approx(2 / 3) and laptop.judge == f"llm(fake-judge at {_url(server)})"
    assert [s.verdict for s in laptop.statement_breakdown] == ["yes", "yes", "no"] and laptop.reason is None
    password = AnswerRelevancy(judge=judge, include_reason=False).measure(
        "How do I reset my password?", "Our platform uses industry-standard encryption. We were founded in 2015. "
        "Password resets can be done via email. We have offices in 3 countries.")
    assert password.score == pytest.approx(0.25)
    verdict_request = server.requests[1]
    assert verdict_request["path"] == "/v1/chat/completions" and verdict_request["auth"] == "Bearer secret"
    body = verdict_request["body"]
    assert body["temperature"] == 0 and body["model"] == "fake-judge" and body["stream"] is False
    prompt = body["messages"][-1]["content"]
    assert "What features does this laptop have?" in prompt and "It has 16GB RAM." in prompt
    assert len(server.requests) == 4  # one extraction and one verdict request per answer, no reason request


def test_rubric_prompt_carries_anchors_and_debias(server):
    result = Faithfulness(judge=_judge(server)).measure("Tides come from the Moon.", ["The Moon causes tides."])
    assert (result.level, result.score, result.passed, result.explanation) == (4, 0.75, True, "mostly supported")
    system = server.requests[0]["body"]["messages"][0]["content"]
    assert "长度不是质量信号" in system and "Presentation is neutral" in system and "5 = every statement" in system
    assert "The Moon causes tides." in server.requests[0]["body"]["messages"][1]["content"]


# -- reading answers ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("behaviour", ["prose", "float", "string", "ok"])
def test_scores_as_numbers_strings_in_prose_or_fences_are_read(server, behaviour):
    server.behaviours = [behaviour]
    assert RubricAnswerRelevancy(judge=_judge(server)).measure("Why?", "Because.").level == 4


@pytest.mark.parametrize(("behaviour", "message"), [
    ("fraction", r"score must be an integer 1-5.*got 3\.5"), ("word", r"score must be an integer 1-5.*'four'"),
    ("two", "several different JSON objects"), ("list", "JSON but not an object"),
    ("malformed", "no JSON object.*Sure! Here are"),
])
def test_anything_else_is_refused_naming_what_came_back(server, behaviour, message):
    server.behaviours = [behaviour]
    with pytest.raises(JudgeOutputError, match=message):
        RubricAnswerRelevancy(judge=_judge(server)).measure("Why?", "Because.")


def test_a_key_given_twice_is_refused_whichever_way_the_object_is_written():
    for answer in ('{"score": 4, "score": 1, "reason": "ok"}', '```json\n{"score": 4, "score": 1}\n```',
                   'My answer: {"score": 4, "reason": "ok", "score": 1} as asked.'):
        with pytest.raises(JudgeOutputError, match="gives the key 'score' twice"):
            parse_json(answer, "x")


def test_parse_json_exact():
    assert parse_json('```json\n{"a": 1}\n```', "x") == {"a": 1}
    assert parse_json('Here: ```\n{"a": 1}\n``` done', "x") == {"a": 1}
    assert parse_json('I think {"a": {"b": [1, 2]}} is it, {"a": {"b": [1, 2]}} again', "x") == {"a": {"b": [1, 2]}}
    assert parse_json('{"a": "}"} trailing', "x") == {"a": "}"}
    with pytest.raises(JudgeOutputError, match='expected {"a": int}.*got'):
        parse_json("{not json}", '{"a": int}')


def test_a_truncated_answer_names_max_tokens_and_is_not_cached(server, tmp_path):
    server.behaviours = ["truncated"]
    with pytest.raises(JudgeOutputError, match="finish_reason 'length'.*raise max_tokens"):
        AnswerRelevancy(judge=_judge(server, cache_dir=tmp_path, max_tokens=8)).measure("Why?", "Because. So.")
    server.behaviours = ["null"]
    with pytest.raises(JudgeOutputError, match="no text content"):
        RubricAnswerRelevancy(judge=_judge(server)).measure("Why?", "Because.")


def test_a_cut_answer_is_refused_even_when_a_draft_object_in_it_parses(server, tmp_path):
    server.behaviours = ["draft_cut"]
    judge = _judge(server, cache_dir=tmp_path, max_tokens=30)
    with pytest.raises(JudgeOutputError, match=r"cut the answer at max_tokens=30 \(finish_reason 'length'"):
        judge.statements(["The laptop has a 15-inch display. It has 16GB RAM."])
    assert judge.statements(["The laptop has a 15-inch display. It has 16GB RAM."]) == [[  # asked again: not cached
        Statement("The laptop has a 15-inch display."), Statement("It has 16GB RAM.")]]
    assert len(server.requests) == 2


@pytest.mark.parametrize("word", ["none", "None", "NONE"])
def test_cache_dir_none_as_a_word_disables_the_cache(server, tmp_path, monkeypatch, word):
    monkeypatch.chdir(tmp_path)
    judge = _judge(server, cache_dir=word)
    assert judge.store is None
    judge.statements(["The laptop has a 15-inch display."])
    assert list(tmp_path.iterdir()) == []  # no folder ./none


def test_a_malformed_answer_is_never_cached_and_a_later_run_asks_again(server, tmp_path):
    server.behaviours = ["malformed"]
    judge = _judge(server, cache_dir=tmp_path)
    with pytest.raises(JudgeOutputError, match=r"expected \{\"statements\""):
        AnswerRelevancy(judge=judge).measure(*LAPTOP)
    again = AnswerRelevancy(judge=judge, include_reason=False).measure(*LAPTOP)  # same judge: the memo is clean
    assert again.score == pytest.approx(2 / 3) and len(server.requests) == 3
    rerun = _judge(server, cache_dir=tmp_path)  # a new judge on the same cache: only valid answers were kept
    assert AnswerRelevancy(judge=rerun, include_reason=False).measure(*LAPTOP).score == pytest.approx(2 / 3)
    assert rerun.requests_sent == 0


def test_no_statements_from_a_real_answer_is_undefined_with_the_reason(server):
    server.behaviours = ["no_statements"]
    result = AnswerRelevancy(judge=_judge(server)).measure("Why?", "Because the sky is blue.")
    assert math.isnan(result.score) and not result.passed and "no statements" in result.reason
    assert len(server.requests) == 1  # nothing to judge: no verdict or reason request


NO_JSON = ("the judge's answer has no JSON object; expected {\"score\": integer 1-5, \"reason\": string}, got: "
           "'Sure! Here are the statements: one, two.'")


def test_a_malformed_answer_in_a_batch_names_the_request_and_what_it_judged(server):
    server.behaviours = ["ok", "malformed"]  # one request at a time: the second case's answer is malformed
    metric = RubricAnswerRelevancy(judge=_judge(server, max_concurrency=1))
    with pytest.raises(JudgeOutputError) as raised:
        metric.measure_many([("Why?", "So 0."), ("Why?", "So 1."), ("Why?", "So 2.")])
    assert str(raised.value) == ("RubricAnswerRelevancy: case 2 of 3: judge request 2 of 3 in a batch (the output "
                                 f"'So 1.'): {NO_JSON}")
    assert (raised.value.batch_index, raised.value.case_index) == (1, 1)
    server.behaviours = ["ok", "malformed"]  # a blank output is asked of no judge: requests 1, 2 are cases 2, 3
    with pytest.raises(JudgeOutputError) as raised:
        metric.measure_many([("Why?", " "), ("Why?", "So 4."), ("Why?", "So 5.")])
    assert str(raised.value).startswith("RubricAnswerRelevancy: case 3 of 3: judge request 2 of 2 in a batch")
    assert (raised.value.batch_index, raised.value.case_index) == (1, 2)
    server.behaviours = ["malformed"]  # one case: the metric is named, no case number
    with pytest.raises(JudgeOutputError) as raised:
        metric.measure("Why?", "So 3.")
    assert str(raised.value) == f"RubricAnswerRelevancy: {NO_JSON}" and raised.value.batch_index is None
    assert raised.value.case_index == 0


def test_a_malformed_answer_names_the_turn_of_a_conversation_and_counts_unasked_cases(server):
    metric = AnswerRelevancy(judge=_judge(server, max_concurrency=1), multi_turn_strategy="all_turns")
    conversation = [("user", "Where is it?"), ("assistant", "In Paris."), ("user", "How tall?"),
                    ("assistant", "330 m."), ("user", "When built?"), ("assistant", "In 1889.")]
    server.behaviours = ["ok", "malformed"]  # the statements of turn 2 of 3
    with pytest.raises(JudgeOutputError) as raised:
        metric.measure(conversation=conversation)
    assert str(raised.value).startswith("AnswerRelevancy: turn 2 of 3: judge request 2 of 3 in a batch")
    assert (raised.value.batch_index, raised.value.case_index) == (1, 0)
    server.behaviours = ["ok", "malformed"]  # a query without words is asked of no judge: requests 1, 2: cases 2, 3
    with pytest.raises(JudgeOutputError) as raised:
        AnswerRelevancy(judge=_judge(server, max_concurrency=1)).measure_many(
            [("!!!", "In Paris."), ("Where is it?", "In Paris."), ("How tall?", "330 m.")])
    assert str(raised.value).startswith("AnswerRelevancy: case 3 of 3: judge request 2 of 2 in a batch")
    assert raised.value.case_index == 2


def test_a_malformed_answer_names_the_contextual_case_and_evaluate_names_the_metric_and_the_id(server):
    from ir_rag_axioms.metrics import ContextualPrecision, ContextualRecall, DatasetItem, evaluate

    judge = _judge(server, max_concurrency=1)
    context = ["The Eiffel Tower is in Paris."]
    no_json = "the judge's answer has no JSON object; expected {\"verdicts\": [{\"statement\": string, "
    server.behaviours = ["ok", "malformed"]  # the first case is blank (not asked): requests 1, 2 are cases 2, 3
    with pytest.raises(JudgeOutputError) as raised:
        ContextualRecall(judge=judge).measure_many([(" ", context), ("It is in Paris.", context),
                                                    ("It was built in 1889.", context)])
    assert str(raised.value).startswith("ContextualRecall: case 3 of 3: judge request 2 of 2 in a batch (the "
                                        f"expected output 'It was built in 1889.'): {no_json}")
    assert (raised.value.batch_index, raised.value.case_index) == (1, 2)
    items = [DatasetItem(id=f"row-{k}", query="Where is it?", actual_output=f"In Paris, {k}.",
                         retrieved_content=context, expected_output=f"It is in Paris, {k}.") for k in range(3)]
    server.behaviours = ["malformed"]
    with pytest.raises(JudgeOutputError) as raised:
        evaluate(items, [ContextualPrecision(judge=judge)])
    assert str(raised.value).startswith(
        "evaluate: contextual_precision, case 'row-0' (position 0): ContextualPrecision: case 1 of 3: judge request "
        "1 of 3 in a batch (the passages for 'Where is it?'): the judge's answer has no JSON object; expected "
        "{\"verdicts\": [{\"verdict\": \"yes\" | \"no\", \"reason\": string}, ...] (one per passage)}, got: "
        "'Sure! Here are")
    server.behaviours = ["ok", "malformed"]  # a seed metric names its case too
    with pytest.raises(JudgeOutputError) as raised:
        evaluate(items[:2], [Faithfulness(judge=judge)])
    assert str(raised.value) == ("evaluate: faithfulness, case 'row-1' (position 1): Faithfulness: case 2 of 2: judge "
                                 f"request 2 of 2 in a batch (the output 'In Paris, 1.'): {NO_JSON}")


# -- waits -------------------------------------------------------------------------------------------------------
def test_hanging_server_times_out(server):
    server.behaviours = ["hang", "hang"]
    start = time.perf_counter()
    with pytest.raises(ToolUnavailableError, match="did not answer after 2 attempts.*read timeout 0.3 s"):
        RubricAnswerRelevancy(judge=_judge(server, read_timeout=0.3, retries=1, backoff=0.01)).measure("Why?", "So.")
    assert time.perf_counter() - start < HANG_S


def test_a_trickling_server_is_cut_at_the_request_deadline(server):
    server.behaviours = ["trickle"]
    judge = _judge(server, read_timeout=0.3, request_timeout=0.6, retries=0)
    start = time.perf_counter()
    with pytest.raises(ToolUnavailableError, match="request deadline of 0.6 s"):
        RubricAnswerRelevancy(judge=judge).measure("Why?", "So.")
    assert time.perf_counter() - start < 2.0  # each byte came within the read timeout; the whole would take ~50 s


def test_retry_after_is_capped_and_never_slept_after_the_last_attempt(server):
    server.behaviours, server.retry_after = ["429"], "100"
    start = time.perf_counter()
    with pytest.raises(ToolUnavailableError, match="after 1 attempts.*HTTP 429: slow down"):
        RubricAnswerRelevancy(judge=_judge(server, retries=0)).measure("Why?", "Because.")
    assert time.perf_counter() - start < 1.0
    server.behaviours = ["429", "429"]
    start = time.perf_counter()
    result = RubricAnswerRelevancy(judge=_judge(server, backoff=0.01, max_retry_after=0.2)).measure("Why?", "So.")
    assert result.level == 4 and len(server.requests) == 4 and 0.4 <= time.perf_counter() - start < 2.0


def test_a_body_cut_short_of_its_content_length_is_retried(server):
    server.behaviours = ["cut"]
    result = RubricAnswerRelevancy(judge=_judge(server, backoff=0.01)).measure("Why?", "Because.")
    assert result.level == 4 and len(server.requests) == 2
    server.requests.clear()
    server.behaviours = ["cut", "cut"]
    with pytest.raises(ToolUnavailableError, match="after 2 attempts.*IncompleteRead"):
        RubricAnswerRelevancy(judge=_judge(server, retries=1, backoff=0.01)).measure("Why?", "Because.")


def test_a_body_that_is_not_utf8_is_refused_not_judged_with_replaced_characters(server):
    server.behaviours = ["latin1"]
    with pytest.raises(JudgeOutputError, match="not UTF-8"):
        RubricAnswerRelevancy(judge=_judge(server)).measure("Why?", "Because.")


def test_a_refusal_is_not_retried_and_quotes_the_servers_message(server):
    server.behaviours = ["404"]
    with pytest.raises(JudgeError, match='HTTP 404: model "fake-judge" not found'):
        RubricAnswerRelevancy(judge=_judge(server)).measure("Why?", "Because.")
    assert len(server.requests) == 1


def test_unreachable_server_says_how_to_configure():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens there
    judge = LlmJudge(f"http://127.0.0.1:{port}/v1", "m", cache_dir=None, retries=1, backoff=0.01, connect_timeout=0.5)
    with pytest.raises(ToolUnavailableError, match="IR_RAG_AXIOMS_JUDGE_BASE_URL"):
        RubricAnswerRelevancy(judge=judge).measure("Why?", "So.")


@pytest.mark.parametrize(("option", "value"), [
    ("retries", -1), ("retries", 1.5), ("read_timeout", 0), ("request_timeout", float("nan")),
    ("connect_timeout", -1.0), ("max_concurrency", 0), ("max_tokens", 0), ("backoff", -0.5),
    ("max_retry_after", float("inf")), ("input_price", -1.0), ("output_price", True),
])
def test_parameters_are_checked_with_their_names(option, value):
    with pytest.raises(ValueError, match=f"LlmJudge: {option} must be"):
        LlmJudge("http://127.0.0.1:9/v1", "m", cache_dir=None, **{option: value})


def test_numpy_numbers_are_numbers():
    import numpy as np

    judge = LlmJudge("http://127.0.0.1:9/v1", "m", cache_dir=None, retries=np.int64(2), request_timeout=np.float64(9))
    assert (judge.retries, judge.request_timeout) == (2, 9.0) and type(judge.retries) is int


def test_bad_arguments_to_the_metrics_are_type_errors_at_the_boundary():
    with pytest.raises(TypeError, match="AnswerRelevancy: query must be a string, got int 5"):
        AnswerRelevancy().measure(5, "an answer")
    with pytest.raises(TypeError, match="answer must be a string"):
        Faithfulness().measure(None, ["context"])
    with pytest.raises(TypeError, match="strict_mode must be True or False"):
        ContextRecall(strict_mode="yes")


# -- DeepEval's options: strict mode, reasons, templates, async and batches --------------------------------------
def test_strict_mode_is_binary(server):
    judge = _judge(server)
    rubric = Faithfulness(judge=judge, strict_mode=True).measure("Tides come from the Moon.", ["The Moon."])
    assert (rubric.level, rubric.threshold, rubric.passed, rubric.score) == (4, 5, False, 0.0)
    relevancy = AnswerRelevancy(judge=judge, strict_mode=True, include_reason=False)
    laptop = relevancy.measure(*LAPTOP)
    assert (laptop.score, laptop.passed, laptop.threshold) == (0.0, False, 1.0)
    perfect = relevancy.measure("What features does this laptop have?", "The laptop has a 15-inch display.")
    assert (perfect.score, perfect.passed) == (1.0, True)


def test_include_reason_false_keeps_the_evidence_but_no_reason(server):
    result = Faithfulness(judge=_judge(server), include_reason=False).measure("Tides.", ["The Moon causes tides."])
    assert result.reason is None and result.explanation == "mostly supported"


def test_a_custom_template_is_checked_and_used(server):
    for bad, message in [({"faithfulness": "CUSTOM {output}"}, r"missing placeholder\(s\) \['reference'\]"),
                         ({"faithfulness": 'CUSTOM {output} {reference} {secret} "score"'}, r"unknown.*\['secret'\]"),
                         ({"faithfulness": 'CUSTOM {output.__class__} {reference} "score"'}, "not a plain"),
                         ({"faithfulness": "CUSTOM {output} {reference} give a number"}, 'key "score"'),
                         ({"rubric": 'CUSTOM {output} "score"'}, "unknown task 'rubric'")]:
        with pytest.raises(ValueError, match=message):
            _judge(server, templates=bad)
    template = 'CUSTOM judge {output} against {reference}; answer {{"score": 1-5, "reason": "..."}}'
    result = Faithfulness(judge=_judge(server, templates={"faithfulness": template})).measure("A.", ["B", "C"])
    assert (result.level, result.reason) == (2, "custom template")
    from ir_rag_axioms.metrics.prompts import RAG_LENGTH_DEBIAS, RAG_PARAGRAPHS, RAG_PRESENTATION_NEUTRALITY

    assert server.requests[0]["body"]["messages"] == [
        {"role": "user", "content": 'CUSTOM judge A. against - B\n- C; answer {"score": 1-5, "reason": "..."}\n\n'
                                    + RAG_PARAGRAPHS}]  # seed 003: the two paragraphs are in every RAG prompt
    assert RAG_LENGTH_DEBIAS.encode() == ("## 重要：长度不是质量信号\n评分时聚焦内容实质，不要因输出更长就给更高分。\n"
                                          "简洁正确的回答与冗长正确的回答应得相同分数。").encode()
    own = f'CUSTOM {{output}} {{reference}} {{{{"score": 1}}}}\n{RAG_LENGTH_DEBIAS}\n{RAG_PRESENTATION_NEUTRALITY}'
    Faithfulness(judge=_judge(server, templates={"faithfulness": own})).measure("A.", ["B"])
    assert server.requests[-1]["body"]["messages"][0]["content"].count(RAG_LENGTH_DEBIAS) == 1  # not said twice
    from ir_rag_axioms.metrics.prompts import template_messages

    assert template_messages('split {response} "statements"', "statements", response="R") == [
        {"role": "user", "content": 'split R "statements"'}]  # not a RAG rubric prompt: as written


@pytest.mark.parametrize("has", [(), ("debias",), ("neutrality",), ("debias", "neutrality")])
def test_a_custom_rubric_template_gets_each_missing_paragraph_and_none_twice(has):
    from ir_rag_axioms.metrics.prompts import (
        RAG_LENGTH_DEBIAS,
        RAG_LENGTH_DEBIAS_EN,
        RAG_PRESENTATION_NEUTRALITY,
        check_template,
        template_messages,
    )

    debias, neutrality = f"{RAG_LENGTH_DEBIAS}\n{RAG_LENGTH_DEBIAS_EN}", RAG_PRESENTATION_NEUTRALITY
    own = {"debias": RAG_LENGTH_DEBIAS, "neutrality": neutrality}
    template = "\n\n".join(['Judge {output} against {reference}; answer {{"score": 1-5}}.', *(own[h] for h in has)])
    (message,) = template_messages(check_template("faithfulness", template), "faithfulness", output="A.",
                                   reference="B.")
    written = "\n\n".join(['Judge A. against B.; answer {"score": 1-5}.', *(own[h] for h in has)])
    appended = [p for name, p in (("debias", debias), ("neutrality", neutrality)) if name not in has]
    assert message == {"role": "user", "content": "\n\n".join([written, *appended])}
    assert message["content"].count(RAG_LENGTH_DEBIAS) == message["content"].count(neutrality) == 1


def test_a_measure_and_measure_many_honour_the_concurrency_limit(server):
    server.delay = 0.15
    judge = _judge(server, max_concurrency=2)
    metric = RubricAnswerRelevancy(judge=judge)

    async def many():
        return await asyncio.gather(*(metric.a_measure("Why?", f"Because {k}.") for k in range(6)))

    results = asyncio.run(many())
    assert [r.level for r in results] == [4] * 6 and server.max_in_flight == 2
    server.max_in_flight = 0
    batch = metric.measure_many([("Why?", f"So {k}.") for k in range(6)])
    assert [r.level for r in batch] == [4] * 6 and server.max_in_flight == 2 and len(server.requests) == 12
    assert [r.usage.answers for r in batch] == [1] * 6  # each result carries its own answer's usage
    together = asyncio.run(metric.a_measure_many([("Why?", f"So {k}.") for k in range(6)]))  # from the memo
    assert [r.level for r in together] == [4] * 6 and len(server.requests) == 12
    assert [r.usage.cached for r in together] == [1] * 6


# -- cache ---------------------------------------------------------------------------------------------------------
def test_disk_cache_answers_a_repeated_call_without_a_request(server, tmp_path):
    args = ("What features does this laptop have?", "The laptop has a 15-inch display. It has 16GB RAM.")
    first = AnswerRelevancy(judge=_judge(server, cache_dir=tmp_path)).measure(*args)
    sent = len(server.requests)
    rerun = _judge(server, cache_dir=tmp_path)  # a new judge: answers come from disk
    again = AnswerRelevancy(judge=rerun).measure(*args)
    assert len(server.requests) == sent == 3 and rerun.requests_sent == 0 and rerun.usage.answers == 0
    assert again.usage.cached == 3 and again.usage.total_tokens == first.usage.total_tokens == 360
    assert (again.score, again.reason, again.statement_breakdown) == (first.score, first.reason,
                                                                      first.statement_breakdown)


def test_a_cached_answer_keeps_its_tokens_but_costs_nothing(server, tmp_path):
    from ir_rag_axioms.metrics.results import Usage

    prices = {"input_price": 2.0, "output_price": 8.0}
    paid = 100 * 2.0 / 1e6 + 20 * 8.0 / 1e6
    judge = _judge(server, cache_dir=tmp_path, **prices)
    first = Faithfulness(judge=judge).measure("Tides come from the Moon.", ["The Moon causes tides."])
    assert first.usage == Usage(1, 100, 20, pytest.approx(paid), 0) and judge.usage.cost == pytest.approx(paid)
    memo = Faithfulness(judge=judge).measure("Tides come from the Moon.", ["The Moon causes tides."])  # same judge
    assert memo.usage == Usage(1, 100, 20, 0.0, 1) and judge.usage.cost == pytest.approx(paid)
    rerun = _judge(server, cache_dir=tmp_path, **prices)  # a new judge: the answer comes from disk
    disk = Faithfulness(judge=rerun).measure("Tides come from the Moon.", ["The Moon causes tides."])
    assert disk.usage == Usage(1, 100, 20, 0.0, 1) and rerun.usage == Usage(cost=0.0) and rerun.requests_sent == 0
    unpriced = Faithfulness(judge=_judge(server, cache_dir=tmp_path)).measure("Tides come from the Moon.",
                                                                              ["The Moon causes tides."])
    assert unpriced.usage == Usage(1, 100, 20, None, 1) and len(server.requests) == 1


def test_the_cache_key_includes_the_base_url_and_the_model(server, tmp_path):
    other = _start("ollama")
    try:
        for judge in (_judge(server, cache_dir=tmp_path), _judge(other, cache_dir=tmp_path),
                      _judge(server, cache_dir=tmp_path, model="another-model")):
            RubricAnswerRelevancy(judge=judge).measure("Why?", "Because.")
            assert judge.requests_sent == 1, judge
        assert len(server.requests) == 2 and len(other.requests) == 1
    finally:
        _stop(other)


def test_axiom_with_the_llm_judge_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_BASE_URL", _url(server))
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "fake-judge")
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_CACHE", "none")
    request = GenerationRequest("q", "What features does this laptop have?")
    responses = [GenerationResponse("a", "The laptop has a 15-inch display. Our company has excellent customer "
                                         "service."), GenerationResponse("b", "The laptop has a 15-inch display.")]
    assert ANSWER_RELEVANCY(judge="llm").preferences(request, responses).tolist() == [[0, -1], [1, 0]]
    assert len(server.requests) == 4  # the axiom asks for no written reasons


JUDGE_ENV = ("IR_RAG_AXIOMS_JUDGE_BASE_URL", "OPENAI_BASE_URL", "IR_RAG_AXIOMS_JUDGE_MODEL", "OPENAI_MODEL",
             "IR_RAG_AXIOMS_JUDGE_API_KEY", "OPENAI_API_KEY")


@pytest.fixture()
def judge_env(monkeypatch):
    """No judge variable set; the test sets the ones it needs."""
    for name in JUDGE_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_CACHE", "none")
    return monkeypatch


@pytest.mark.parametrize(("given", "message"), [
    ({"IR_RAG_AXIOMS_JUDGE_BASE_URL": "http://127.0.0.1:9/v1"},
     "the LLM judge is half configured: IR_RAG_AXIOMS_JUDGE_BASE_URL is set but no model variable is; set "
     "IR_RAG_AXIOMS_JUDGE_MODEL (or OPENAI_MODEL) to the model name the server knows, or unset "
     "IR_RAG_AXIOMS_JUDGE_BASE_URL to use the offline heuristic judge"),
    ({"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "k"},
     "the LLM judge is half configured: OPENAI_BASE_URL is set but no model variable is; set "
     "IR_RAG_AXIOMS_JUDGE_MODEL (or OPENAI_MODEL) to the model name the server knows, or unset OPENAI_BASE_URL to use "
     "the offline heuristic judge"),
    ({"OPENAI_MODEL": "m"},
     "the LLM judge is half configured: OPENAI_MODEL is set but no base URL variable is; set "
     "IR_RAG_AXIOMS_JUDGE_BASE_URL (or OPENAI_BASE_URL) to the server's base URL, e.g. http://localhost:8000/v1, or "
     "unset OPENAI_MODEL to use the offline heuristic judge"),
])
def test_a_half_configured_environment_is_an_error_naming_the_missing_variable(judge_env, given, message):
    from ir_rag_axioms.metrics import default_judge

    for name, value in given.items():
        judge_env.setenv(name, value)
    with pytest.raises(ValueError) as raised:
        default_judge()
    assert str(raised.value) == message
    with pytest.raises(ValueError, match="half configured"):  # the metrics too: no silent offline judge
        Faithfulness().measure("Snow is white.", ["Snow is white."])


def test_an_api_key_alone_keeps_the_heuristic_judge_with_one_warning(judge_env):
    import warnings

    from ir_rag_axioms.metrics import HEURISTIC_JUDGE, default_judge

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert default_judge() is HEURISTIC_JUDGE  # nothing set: no warning
    assert caught == []
    judge_env.setenv("OPENAI_API_KEY", "sk-test")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert default_judge() is HEURISTIC_JUDGE
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, (
        "OPENAI_API_KEY is set but no LLM judge is configured (no base URL, no model): the metrics use the offline "
        "heuristic judge. To use an LLM judge, set IR_RAG_AXIOMS_JUDGE_BASE_URL (or OPENAI_BASE_URL) and "
        "IR_RAG_AXIOMS_JUDGE_MODEL (or OPENAI_MODEL)"))]
    judge_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    judge_env.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "m")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        judge = default_judge()
    assert isinstance(judge, LlmJudge) and (judge.base_url, judge.model, judge.api_key) == (
        "http://127.0.0.1:9/v1", "m", "sk-test") and caught == []


def test_contextual_recall_and_precision_through_the_llm_judge(any_server):
    from ir_rag_axioms.metrics import ContextualPrecision, ContextualRecall

    judge = _judge(any_server)
    context = ["The Eiffel Tower is in Paris.", "Bananas are rich in potassium.", "The tower was completed in 1889."]
    expected = "The Eiffel Tower is in Paris. The tower was completed in 1889. It is 330 metres tall."
    recall = ContextualRecall(judge=judge).measure(expected, context)
    assert recall.score == pytest.approx(2 / 3) and [r["verdict"] for r in recall.breakdown] == ["yes", "yes", "no"]
    assert recall.usage.answers == 1 and "not found: 'It is 330 metres tall.'" in recall.explanation
    precision = ContextualPrecision(judge=judge).measure("Where is the Eiffel Tower?", expected, context)
    assert precision.score == pytest.approx((1 + 2 / 3) / 2) and precision.usage.answers == 1
    body = any_server.requests[-1]["body"]["messages"]
    assert json.loads(body[1]["content"].split("Passages:\n", 1)[1]) == context  # in rank order
    any_server.behaviours = ["malformed"]
    with pytest.raises(JudgeOutputError, match="no JSON object"):
        ContextualRecall(judge=judge).measure("Another answer.", context)
