"""The LLM judge end to end against a small OpenAI-compatible server on the loopback address (it stops by itself)."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ir_rag_axioms import ANSWER_RELEVANCY
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.metrics import AnswerRelevancy, Faithfulness, JudgeOutputError, LlmJudge, RubricAnswerRelevancy
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

OFF_TOPIC = {"Our company has excellent customer service.", "Our platform uses industry-standard encryption.",
             "We were founded in 2015.", "We have offices in 3 countries."}
"""The statements the seed judges "no"; the fake judge answers "yes" for every other statement."""
LIFETIME_S = 120.0
"""The server shuts itself down after this many seconds, whatever the test does."""
HANG_S = 2.0
"""How long a "hang" answer stalls (longer than the tests' read timeout, bounded)."""


def _answer(messages: list[dict]) -> str:
    """What a well-behaved judge model would say to the project's prompts."""
    system, user = messages[0]["content"], messages[-1]["content"]
    if "atomic statements" in system:
        text = user.split("Response:\n", 1)[1]
        return json.dumps({"statements": [s.strip() for s in re.split(r"(?<=\.)\s+", text) if s.strip()]})
    if "relevant to the query" in system:
        statements = json.loads(user.split("Statements:\n", 1)[1])
        return json.dumps({"verdicts": [{"verdict": "no" if s in OFF_TOPIC else "yes", "reason": "seed"}
                                        for s in statements]})
    return "```json\n" + json.dumps({"score": 4, "reason": "mostly supported"}) + "\n```"


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        behaviour = self.server.behaviours.pop(0) if self.server.behaviours else "ok"
        if behaviour == "hang":
            time.sleep(HANG_S)
        if behaviour == "429":
            return self._send(429, b'{"error": "slow down"}', {"Retry-After": "0"})
        content = "Sure! Here are the statements: one, two." if behaviour == "malformed" else _answer(body["messages"])
        reply = {"choices": [{"message": {"role": "assistant", "content": content}}]}
        self._send(200, json.dumps(reply).encode())

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for key, value in {"Content-Type": "application/json", **(headers or {})}.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and left (the "hang" test)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    requests: list[dict]
    behaviours: list[str]


@pytest.fixture()
def server():
    httpd = _Server(("127.0.0.1", 0), _Handler)
    httpd.requests, httpd.behaviours = [], []
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    watchdog = threading.Timer(LIFETIME_S, httpd.shutdown)
    watchdog.daemon = True
    watchdog.start()
    yield httpd
    watchdog.cancel()
    httpd.shutdown()
    httpd.server_close()


def _judge(server, **options) -> LlmJudge:
    options.setdefault("cache_dir", None)
    return LlmJudge(f"http://127.0.0.1:{server.server_address[1]}/v1", "fake-judge", "secret", **options)


def test_prompts_carry_query_and_statements_and_seed_scores(server):
    judge = _judge(server)
    laptop = AnswerRelevancy(judge=judge).measure(
        "What features does this laptop have?",
        "The laptop has a 15-inch display. It has 16GB RAM. Our company has excellent customer service.")
    port = server.server_address[1]
    assert laptop.score == pytest.approx(2 / 3) and laptop.judge == f"llm(fake-judge at http://127.0.0.1:{port}/v1)"
    assert [s.verdict for s in laptop.statement_breakdown] == ["yes", "yes", "no"]
    password = AnswerRelevancy(judge=judge).measure(
        "How do I reset my password?", "Our platform uses industry-standard encryption. We were founded in 2015. "
        "Password resets can be done via email. We have offices in 3 countries.")
    assert password.score == pytest.approx(0.25)
    verdict_request = server.requests[1]
    assert verdict_request["path"] == "/v1/chat/completions" and verdict_request["auth"] == "Bearer secret"
    body = verdict_request["body"]
    assert body["temperature"] == 0 and body["model"] == "fake-judge"
    prompt = body["messages"][-1]["content"]
    assert "What features does this laptop have?" in prompt and "It has 16GB RAM." in prompt
    assert len(server.requests) == 4  # one extraction and one verdict request per answer


def test_rubric_prompt_carries_anchors_and_debias(server):
    result = Faithfulness(judge=_judge(server)).measure("Tides come from the Moon.", ["The Moon causes tides."])
    assert (result.level, result.score, result.passed, result.explanation) == (4, 0.75, True, "mostly supported")
    system = server.requests[0]["body"]["messages"][0]["content"]
    assert "长度不是质量信号" in system and "Presentation is neutral" in system and "5 = every statement" in system
    assert "The Moon causes tides." in server.requests[0]["body"]["messages"][1]["content"]


def test_malformed_output_is_a_clear_error(server):
    server.behaviours = ["malformed"]
    with pytest.raises(JudgeOutputError, match=r"not valid JSON.*expected \{\"statements\""):
        AnswerRelevancy(judge=_judge(server)).measure("Why?", "Because. It is so.")


def test_429_is_retried(server):
    server.behaviours = ["429", "429"]
    result = RubricAnswerRelevancy(judge=_judge(server, backoff=0.01)).measure("Why?", "Because.")
    assert result.level == 4 and len(server.requests) == 3


def test_hanging_server_times_out(server):
    server.behaviours = ["hang", "hang"]
    start = time.perf_counter()
    with pytest.raises(ToolUnavailableError, match="did not answer after 2 attempts.*read timeout 0.3 s"):
        RubricAnswerRelevancy(judge=_judge(server, read_timeout=0.3, retries=1, backoff=0.01)).measure("Why?", "So.")
    assert time.perf_counter() - start < HANG_S


def test_unreachable_server_says_how_to_configure(monkeypatch):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens there
    judge = LlmJudge(f"http://127.0.0.1:{port}/v1", "m", cache_dir=None, retries=1, backoff=0.01, connect_timeout=0.5)
    with pytest.raises(ToolUnavailableError, match="IR_RAG_AXIOMS_JUDGE_BASE_URL"):
        RubricAnswerRelevancy(judge=judge).measure("Why?", "So.")


def test_disk_cache_answers_a_repeated_call_without_a_request(server, tmp_path):
    args = ("What features does this laptop have?", "The laptop has a 15-inch display. It has 16GB RAM.")
    first = AnswerRelevancy(judge=_judge(server, cache_dir=tmp_path)).measure(*args)
    sent = len(server.requests)
    rerun = _judge(server, cache_dir=tmp_path)  # a new judge: answers come from disk
    again = AnswerRelevancy(judge=rerun).measure(*args)
    assert len(server.requests) == sent == 2 and rerun.requests_sent == 0 and again.to_dict() == first.to_dict()


def test_axiom_with_the_llm_judge_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "fake-judge")
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_CACHE", "none")
    request = GenerationRequest("q", "What features does this laptop have?")
    responses = [GenerationResponse("a", "The laptop has a 15-inch display. Our company has excellent customer "
                                         "service."), GenerationResponse("b", "The laptop has a 15-inch display.")]
    assert ANSWER_RELEVANCY(judge="llm").preferences(request, responses).tolist() == [[0, -1], [1, 0]]
