"""An LLM judge over the OpenAI-compatible chat-completions HTTP API (vLLM, Ollama, llama.cpp, LM Studio, hosted).

Temperature 0, the prompts of ``prompts.py``, strict JSON parsing, bounded connect/read timeouts, bounded retries with
exponential back-off on 429 and 5xx, a concurrency limit, and a content-addressed cache of answers keyed by
(base URL, model, messages, temperature) in a ``DiskStore`` so that a rerun sends no request.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.analysis.store import DiskStore, namespace, text_key
from ir_rag_axioms.metrics import prompts
from ir_rag_axioms.metrics.judges import Judge, RelevancyMode, RubricCase, Statement
from ir_rag_axioms.metrics.results import VERDICTS, RubricJudgment, Verdict

T = TypeVar("T")
R = TypeVar("R")

BASE_URL_ENV = ("IR_RAG_AXIOMS_JUDGE_BASE_URL", "OPENAI_BASE_URL")
"""Environment variables with the server's base URL (e.g. ``http://localhost:8000/v1``), first one set wins."""
MODEL_ENV = ("IR_RAG_AXIOMS_JUDGE_MODEL", "OPENAI_MODEL")
"""Environment variables with the model name the server knows."""
API_KEY_ENV = ("IR_RAG_AXIOMS_JUDGE_API_KEY", "OPENAI_API_KEY")
"""Environment variables with the API key (optional for local servers)."""
CACHE_DIR_ENV = "IR_RAG_AXIOMS_JUDGE_CACHE"
"""Directory of the judge's answer cache (default ``~/.cache/ir_rag_axioms/judge``; ``none`` disables it)."""

_HOW = (f"Pass base_url= and model= (and api_key= if the server needs one) to LlmJudge, or set {BASE_URL_ENV[0]}, "
        f"{MODEL_ENV[0]} (and {API_KEY_ENV[0]}); without them the metrics use the offline judge.")


class JudgeError(RuntimeError):
    """The judge answered with an HTTP error that retrying does not fix."""


class JudgeOutputError(JudgeError, ValueError):
    """The judge's answer is not the JSON the prompt asked for."""


def _env(names: Sequence[str]) -> str | None:
    return next((os.environ[n] for n in names if os.environ.get(n, "").strip()), None)


def configured() -> bool:
    """Whether the environment names a judge server and model."""
    return bool(_env(BASE_URL_ENV) and _env(MODEL_ENV))


def parse_json(content: str, expected: str) -> dict[str, Any]:
    """The JSON object in an answer (a ```json fence is allowed); ``JudgeOutputError`` naming what was expected."""
    text = content.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
    try:
        value = json.loads(fenced.group(1) if fenced else text)
    except json.JSONDecodeError as error:
        raise JudgeOutputError(f"the judge's answer is not valid JSON ({error.msg}); expected {expected}, got: "
                               f"{content[:300]!r}") from None
    if not isinstance(value, dict):
        raise JudgeOutputError(f"the judge's answer is not a JSON object; expected {expected}, got: {content[:300]!r}")
    return value


class LlmJudge(Judge):
    """A judge that asks an OpenAI-compatible chat-completions server; every answer is cached by content."""

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key: str | None = None, *,
                 connect_timeout: float = 5.0, read_timeout: float = 120.0, retries: int = 3, backoff: float = 1.0,
                 max_concurrency: int = 4, cache_dir: str | os.PathLike | None = "default",
                 max_tokens: int = 1024) -> None:
        """Configure the server (parameters, else environment variables), timeouts, retries, concurrency and cache."""
        self.base_url = (base_url or _env(BASE_URL_ENV) or "").rstrip("/")
        self.model = model or _env(MODEL_ENV) or ""
        if not self.base_url or not self.model:
            raise ToolUnavailableError(f"no LLM judge configured (base URL {self.base_url or 'missing'}, model "
                                       f"{self.model or 'missing'}). {_HOW}")
        url = urllib.parse.urlsplit(self.base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"LlmJudge: base_url must be an http(s) URL such as http://localhost:8000/v1, got "
                             f"{self.base_url!r}")
        self._url = url
        self.api_key = api_key if api_key is not None else _env(API_KEY_ENV)
        self.connect_timeout, self.read_timeout = float(connect_timeout), float(read_timeout)
        self.retries, self.backoff, self.max_tokens = int(retries), float(backoff), int(max_tokens)
        self.max_concurrency = max(1, int(max_concurrency))
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        self.store = _open_cache(cache_dir)
        self._memo: dict[str, str] = {}
        self.requests_sent = 0
        """HTTP requests sent so far (cache hits send none)."""
        self._count = threading.Lock()

    def __repr__(self) -> str:
        return f"LlmJudge(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def name(self) -> str:
        """``llm(<model> at <base URL>)``."""
        return f"llm({self.model} at {self.base_url})"

    # -- the three questions --------------------------------------------------------------------------------
    def statements(self, texts: Sequence[str]) -> list[list[Statement]]:
        """One extraction request per non-blank text."""
        def one(text: str) -> list[Statement]:
            if not text.strip():
                return []
            found = self._ask(prompts.extraction_messages(text), '{"statements": [strings]}')
            items = found.get("statements")
            if not isinstance(items, list) or not all(isinstance(s, str) for s in items):
                raise JudgeOutputError(f'expected {{"statements": [strings]}}, got {found!r:.300}')
            return [Statement(s.strip()) for s in items if s.strip()]

        return self._map(one, texts)

    def verdicts(self, cases: Sequence[tuple[str, Sequence[Statement]]],
                 mode: RelevancyMode) -> list[list[tuple[Verdict, str]]]:
        """One verdict request per case with all its statements; exactly one verdict per statement."""
        expected = '{"verdicts": [{"verdict": "yes" | "no" | "idk", "reason": string}, ...] (one per statement)}'

        def one(case: tuple[str, Sequence[Statement]]) -> list[tuple[Verdict, str]]:
            query, statements = case
            if not statements:
                return []
            found = self._ask(prompts.verdict_messages(query, [s.text for s in statements], mode), expected)
            items = found.get("verdicts")
            if not isinstance(items, list) or len(items) != len(statements):
                raise JudgeOutputError(f"expected {expected} for {len(statements)} statements, got {found!r:.300}")
            return [_verdict(item, expected) for item in items]

        return self._map(one, cases)

    def rubric(self, metric: prompts.RubricName, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """One rubric request per case; the score must be an integer 1-5."""
        expected = '{"score": integer 1-5, "reason": string}'

        def one(case: RubricCase) -> RubricJudgment:
            found = self._ask(prompts.rubric_messages(metric, case.output, case.question, case.reference), expected)
            score, reason = found.get("score"), found.get("reason", "")
            if isinstance(score, str) and score.strip().isdigit():
                score = int(score)
            if isinstance(score, bool) or not isinstance(score, int) or not 1 <= score <= 5:
                raise JudgeOutputError(f"expected {expected}, got score {score!r} in {found!r:.300}")
            return RubricJudgment(score, str(reason))

        return self._map(one, cases)

    # -- requests ---------------------------------------------------------------------------------------------
    def _map(self, function: Callable[[T], R], inputs: Sequence[T]) -> list[R]:
        if len(inputs) <= 1:
            return [function(x) for x in inputs]
        with ThreadPoolExecutor(self.max_concurrency) as pool:
            return list(pool.map(function, inputs))

    def _ask(self, messages: list[dict[str, str]], expected: str) -> dict[str, Any]:
        return parse_json(self.complete(messages), expected)

    def complete(self, messages: list[dict[str, str]]) -> str:
        """The answer's content: from the cache, else from the server (then cached)."""
        body = {"model": self.model, "messages": messages, "temperature": 0, "max_tokens": self.max_tokens}
        key = text_key(json.dumps(body, sort_keys=True, ensure_ascii=False))
        space = namespace("llm-judge", self.base_url, self.model)
        if key in self._memo:
            return self._memo[key]
        cached = self.store.get(space, key) if self.store is not None else None
        if isinstance(cached, str):
            self._memo[key] = cached
            return cached
        with self._slots:
            content = self._post(body)
        self._memo[key] = content
        if self.store is not None:
            self.store.put(space, key, content)
        return content

    def _post(self, body: dict[str, Any]) -> str:
        """POST /chat/completions with retries on connection errors, timeouts, 429 and 5xx."""
        payload = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        problem = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                status, text, retry_after = self._send(payload, headers)
            except (OSError, http.client.HTTPException) as error:
                problem = f"{type(error).__name__}: {error}"
                continue
            if status == 200:
                return _content(text)
            problem = f"HTTP {status}: {text[:300]}"
            if status != 429 and status < 500:
                raise JudgeError(f"the judge at {self.base_url} refused the request ({problem}). {_HOW}")
            if retry_after:
                time.sleep(min(retry_after, 30.0))
        raise ToolUnavailableError(f"the LLM judge at {self.base_url} (model {self.model}) did not answer after "
                                   f"{self.retries + 1} attempts (last: {problem}; connect timeout "
                                   f"{self.connect_timeout:g} s, read timeout {self.read_timeout:g} s). Start the "
                                   f"server or point the judge elsewhere: {_HOW}")

    def _send(self, payload: bytes, headers: dict[str, str]) -> tuple[int, str, float]:
        """One request: connect within ``connect_timeout``, then each read within ``read_timeout``."""
        url = self._url
        kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        connection = kind(url.hostname or "", url.port, timeout=self.connect_timeout)
        with self._count:
            self.requests_sent += 1
        try:
            connection.connect()
            if connection.sock is not None:
                connection.sock.settimeout(self.read_timeout)
            connection.request("POST", f"{url.path.rstrip('/')}/chat/completions", payload, headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            retry_after = response.getheader("Retry-After") or ""
            return response.status, text, float(retry_after) if retry_after.replace(".", "", 1).isdigit() else 0.0
        finally:
            connection.close()


def _content(text: str) -> str:
    """The first choice's message content of a chat-completions response."""
    try:
        return str(json.loads(text)["choices"][0]["message"]["content"])
    except (json.JSONDecodeError, KeyError, IndexError, TypeError):
        raise JudgeOutputError(f"the server's answer is not a chat completion: {text[:300]!r}") from None


def _verdict(item: Any, expected: str) -> tuple[Verdict, str]:
    verdict = str(item.get("verdict", "")).strip().lower() if isinstance(item, dict) else ""
    if verdict not in VERDICTS:
        raise JudgeOutputError(f"expected {expected}, got the verdict {item!r:.200}")
    return verdict, str(item.get("reason", ""))


def _open_cache(cache_dir: str | os.PathLike | None) -> DiskStore | None:
    if cache_dir == "default":
        configured_dir = os.environ.get(CACHE_DIR_ENV, "").strip()
        if configured_dir.lower() == "none":
            return None
        cache_dir = configured_dir or Path.home() / ".cache" / "ir_rag_axioms" / "judge"
    return None if cache_dir is None else DiskStore(cache_dir)
