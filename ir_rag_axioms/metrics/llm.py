"""An LLM judge over the OpenAI-compatible chat-completions HTTP API (vLLM, Ollama, llama.cpp, LM Studio, hosted).

Temperature 0, streaming off, the prompts of ``prompts.py`` (or checked custom templates), tolerant JSON reading (a
fence or prose around one object; scores as 3, 3.0 or "3"), a total deadline per HTTP attempt, bounded retries with
exponential back-off on connection errors, timeouts, 429 and 5xx (``Retry-After`` capped, never slept after the last
attempt), a concurrency limit, token and cost accounting from the server's ``usage``, and a content-addressed cache of
answers keyed by (base URL, model, messages, temperature, max_tokens) in a ``DiskStore``: an answer is cached only
after it validated, so a malformed or failed answer is never replayed.
"""

from __future__ import annotations

import contextlib
import contextvars
import http.client
import json
import math
import numbers
import os
import socket
import threading
import time
import urllib.parse
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.analysis.store import DiskStore, namespace, text_key
from ir_rag_axioms.metrics import prompts
from ir_rag_axioms.metrics._llm_answers import JudgeError as JudgeError
from ir_rag_axioms.metrics._llm_answers import JudgeOutputError as JudgeOutputError
from ir_rag_axioms.metrics._llm_answers import _cut, _error_message, _record, _seconds, _text, _verdict, _verdicts
from ir_rag_axioms.metrics._llm_answers import integer as integer
from ir_rag_axioms.metrics._llm_answers import metered as metered
from ir_rag_axioms.metrics._llm_answers import parse_json as parse_json
from ir_rag_axioms.metrics.interface import Judge, PairCase, RelevancyMode, RubricCase, Statement
from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE
from ir_rag_axioms.metrics.results import Preferred, RubricJudgment, Usage, Verdict

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
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
"""Longest HTTP response body read from the server (a longer one is an error, not a memory problem)."""

_HOW = (f"Pass base_url= and model= (and api_key= if the server needs one) to LlmJudge, or set {BASE_URL_ENV[0]}, "
        f"{MODEL_ENV[0]} (and {API_KEY_ENV[0]}); without them the metrics use the offline judge.")


def _env(names: Sequence[str]) -> str | None:
    return next((os.environ[n] for n in names if os.environ.get(n, "").strip()), None)


def _env_name(names: Sequence[str]) -> str | None:
    """The first of the variables that is set (not blank), else None."""
    return next((n for n in names if os.environ.get(n, "").strip()), None)


def configured() -> bool:
    """Whether the environment names a judge server and model."""
    return bool(_env(BASE_URL_ENV) and _env(MODEL_ENV))


def default_judge() -> Judge:
    """The LLM judge if the environment configures one (base URL and model), else the heuristic judge.

    Half a configuration is an error, not a silent fallback: a base URL without a model, or a model without a base
    URL, raises ValueError naming the missing variable. An API key alone (no base URL, no model) keeps the heuristic
    judge with a warning saying which variables select the LLM judge.
    """
    base_url, model, api_key = _env_name(BASE_URL_ENV), _env_name(MODEL_ENV), _env_name(API_KEY_ENV)
    if base_url and model:
        return LlmJudge()
    if base_url:
        raise ValueError(f"the LLM judge is half configured: {base_url} is set but no model variable is; set "
                         f"{MODEL_ENV[0]} (or {MODEL_ENV[1]}) to the model name the server knows, or unset "
                         f"{base_url} to use the offline heuristic judge")
    if model:
        raise ValueError(f"the LLM judge is half configured: {model} is set but no base URL variable is; set "
                         f"{BASE_URL_ENV[0]} (or {BASE_URL_ENV[1]}) to the server's base URL, e.g. "
                         f"http://localhost:8000/v1, or unset {model} to use the offline heuristic judge")
    if api_key:
        warnings.warn(f"{api_key} is set but no LLM judge is configured (no base URL, no model): the metrics use the "
                      f"offline heuristic judge. To use an LLM judge, set {BASE_URL_ENV[0]} (or {BASE_URL_ENV[1]}) "
                      f"and {MODEL_ENV[0]} (or {MODEL_ENV[1]})", UserWarning, stacklevel=2)
    return HEURISTIC_JUDGE


# -- the judge --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Answer:
    content: str
    usage: Usage
    finish_reason: str | None


def _finite(name: str, value: Any, what: str = "a finite number of seconds > 0", zero: bool = False) -> float:
    """A finite real number > 0 (``zero``: >= 0; numpy scalars too, never a bool), else ValueError saying ``what``."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool | np.bool_) or not math.isfinite(value) \
            or value < 0 or (value == 0 and not zero):
        raise ValueError(f"LlmJudge: {name} must be {what}, got {value!r}")
    return float(value)


def _count(name: str, value: Any, low: int) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool | np.bool_) or value < low:
        raise ValueError(f"LlmJudge: {name} must be an integer >= {low}, got {value!r}")
    return int(value)


class LlmJudge(Judge):
    """A judge that asks an OpenAI-compatible chat-completions server; every valid answer is cached by content."""

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key: str | None = None, *,
                 connect_timeout: float = 5.0, read_timeout: float = 60.0, request_timeout: float = 120.0,
                 retries: int = 3, backoff: float = 1.0, max_retry_after: float = 30.0, max_concurrency: int = 4,
                 cache_dir: str | os.PathLike | None = "default", max_tokens: int = 1024,
                 input_price: float | None = None, output_price: float | None = None,
                 templates: Mapping[str, str] | None = None) -> None:
        """Configure the server (parameters, else environment variables), waits, retries, concurrency, prices, cache.

        ``request_timeout`` is the total deadline of one HTTP attempt, from connecting to the last byte (a server that
        trickles bytes is cut off); ``read_timeout`` bounds each wait for bytes within it. The longest a call can
        take is (retries + 1) x request_timeout plus the back-off sleeps (each <= max(backoff x 2^k,
        max_retry_after)). ``input_price`` / ``output_price`` are per 1M prompt / completion tokens. ``templates``
        maps a task (``prompts.TEMPLATE_FIELDS``) to a custom prompt, sent as one user message.
        """
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
        self.connect_timeout = _finite("connect_timeout", connect_timeout)
        self.read_timeout = _finite("read_timeout", read_timeout)
        self.request_timeout = _finite("request_timeout", request_timeout)
        self.max_retry_after = _finite("max_retry_after", max_retry_after)
        self.backoff = _finite("backoff", backoff, "a finite number of seconds >= 0", zero=True)
        self.retries = _count("retries", retries, 0)
        self.max_concurrency = _count("max_concurrency", max_concurrency, 1)
        self.max_tokens = _count("max_tokens", max_tokens, 1)
        price = "a finite price >= 0 per 1M tokens (or None)"
        self.input_price = None if input_price is None else _finite("input_price", input_price, price, zero=True)
        self.output_price = None if output_price is None else _finite("output_price", output_price, price, zero=True)
        if templates is not None and not isinstance(templates, Mapping):
            raise TypeError(f"LlmJudge: templates must be a mapping task -> template, got {type(templates).__name__}")
        self.templates = {task: prompts.check_template(task, t) for task, t in (templates or {}).items()}
        self._slots = threading.BoundedSemaphore(self.max_concurrency)
        self.store = _open_cache(cache_dir)
        self._memo: dict[str, dict[str, Any]] = {}
        self.requests_sent = 0
        """HTTP requests sent so far (cache hits send none)."""
        self.usage = Usage(cost=0.0 if self._priced else None)
        """Running total over the answers this judge received from the server (cache hits are not counted)."""
        self._lock = threading.Lock()

    reports_usage = True
    writes_reasons = True

    def __repr__(self) -> str:
        return f"LlmJudge(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def name(self) -> str:
        """``llm(<model> at <base URL>)``."""
        return f"llm({self.model} at {self.base_url})"

    @property
    def _priced(self) -> bool:
        return self.input_price is not None or self.output_price is not None

    # -- the questions ------------------------------------------------------------------------------------------
    def statements(self, texts: Sequence[str]) -> list[list[Statement]]:
        """One extraction request per non-blank text."""
        expected = '{"statements": [strings]}'

        def read(found: dict[str, Any]) -> list[Statement]:
            items = found.get("statements")
            if not isinstance(items, list) or not all(isinstance(s, str) for s in items):
                raise JudgeOutputError(f"expected {expected}, got {found!r:.300}")
            return [Statement(s.strip()) for s in items if s.strip()]

        def one(text: str) -> tuple[list[Statement], Usage]:
            if not text.strip():
                return [], Usage()
            messages = self._messages("statements", prompts.extraction_messages(text), response=text)
            return self._ask(messages, expected, read)

        return self._map(one, texts, lambda text: f"the response {_short(text)}")

    def verdicts(self, cases: Sequence[tuple[str, Sequence[Statement]]],
                 mode: RelevancyMode) -> list[list[tuple[Verdict, str]]]:
        """One verdict request per case with all its statements; exactly one verdict per statement."""
        expected = '{"verdicts": [{"verdict": "yes" | "no" | "idk", "reason": string}, ...] (one per statement)}'

        def one(case: tuple[str, Sequence[Statement]]) -> tuple[list[tuple[Verdict, str]], Usage]:
            query, statements = case
            if not statements:
                return [], Usage()

            texts = [s.text for s in statements]
            if mode == "strict" and "verdicts" in self.templates:
                raise ValueError("LlmJudge: a custom 'verdicts' template has no strict mode; use relevancy_mode="
                                 "'task' with it, or put the strict rule in the template")
            messages = self._messages("verdicts", prompts.verdict_messages(query, texts, mode), query=query,
                                      statements=json.dumps(texts, ensure_ascii=False))
            return self._ask(messages, expected, lambda found: _verdicts(found, expected, len(texts), "statements"))

        return self._map(one, cases, lambda case: f"the statements of the answer to {_short(case[0])}")

    def rubric(self, metric: prompts.RubricName, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """One rubric request per case; the score must be an integer 1-5 (3, 3.0 or "3")."""
        expected = '{"score": integer 1-5, "reason": string}'

        def read(found: dict[str, Any]) -> RubricJudgment:
            score = integer(found.get("score"), 1, 5, "score", expected)
            return RubricJudgment(score, _text(found.get("reason"), "reason", expected))

        def one(case: RubricCase) -> tuple[RubricJudgment, Usage]:
            reference = case.reference if case.reference is None or isinstance(case.reference, str) else \
                "\n".join(f"- {r}" for r in case.reference)
            default = prompts.rubric_messages(metric, case.output, case.question, case.reference)
            return self._ask(self._messages(metric, default, output=case.output, question=case.question or "",
                                            reference=reference or ""), expected, read)

        return self._map(one, cases, lambda case: f"the output {_short(case.output)}")

    def attributions(self, cases: Sequence[tuple[str, tuple[str, ...]]]) -> list[list[tuple[str, Verdict, str]]]:
        """One request per (reference answer, passages): its statements, each "yes" if the passages support it."""
        expected = '{"verdicts": [{"statement": string, "verdict": "yes" | "no", "reason": string}, ...]}'

        def read(found: dict[str, Any]) -> list[tuple[str, Verdict, str]]:
            items = found.get("verdicts")
            if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("statement"), str)
                                                      for i in items):
                raise JudgeOutputError(f"expected {expected}, got {found!r:.300}")
            return [(item["statement"].strip(), *_verdict(item, expected)) for item in items]

        def one(case: tuple[str, tuple[str, ...]]) -> tuple[list[tuple[str, Verdict, str]], Usage]:
            answer, passages = case
            if not answer.strip():
                return [], Usage()
            return self._ask(prompts.attribution_messages(answer, passages), expected, read)

        return self._map(one, cases, lambda case: f"the expected output {_short(case[0])}")

    def node_relevance(self, cases: Sequence[tuple[str, str, tuple[str, ...]]]) -> list[list[tuple[Verdict, str]]]:
        """One request per (question, reference answer, passages); exactly one verdict per passage."""
        expected = '{"verdicts": [{"verdict": "yes" | "no", "reason": string}, ...] (one per passage)}'

        def one(case: tuple[str, str, tuple[str, ...]]) -> tuple[list[tuple[Verdict, str]], Usage]:
            question, answer, passages = case
            if not passages:
                return [], Usage()
            return self._ask(prompts.node_relevance_messages(question, answer, passages), expected,
                             lambda found: _verdicts(found, expected, len(passages), "passages"))

        return self._map(one, cases, lambda case: f"the passages for {_short(case[0])}")

    def pairwise(self, criterion: str, cases: Sequence[PairCase]) -> list[tuple[Preferred, str]]:
        """For each (question, context, first, second): which response better satisfies ``criterion``, and why."""
        expected = '{"preferred": "A" | "B" | "tie", "reason": string}'
        choices: dict[str, Preferred] = {"a": "first", "b": "second", "tie": "tie"}

        def read(found: dict[str, Any]) -> tuple[Preferred, str]:
            preferred = found.get("preferred")
            choice = choices.get(preferred.strip().lower()) if isinstance(preferred, str) else None
            if choice is None:
                raise JudgeOutputError(f'expected {expected}, got "preferred" = {preferred!r:.80}')
            return choice, _text(found.get("reason"), "reason", expected)

        def one(case: tuple[str | None, tuple[str, ...] | None, str, str]) -> tuple[tuple[Preferred, str], Usage]:
            question, context, first, second = case
            messages = self._messages(
                "pairwise", prompts.pairwise_messages(criterion, first, second, question, context),
                criterion=criterion, first=first, second=second, question=question or "",
                context="\n".join(f"- {c}" for c in context or ()))
            return self._ask(messages, expected, read)

        return self._map(one, cases, lambda case: f"the responses {_short(case[2])} and {_short(case[3])}")

    def reason(self, query: str, score: float, verdicts: Sequence[tuple[str, str, str]]) -> str:
        """A written reason for an AnswerRelevancy score (one request), from its (statement, verdict, reason)."""
        expected = '{"reason": string}'

        def read(found: dict[str, Any]) -> str:
            text = _text(found.get("reason"), "reason", expected).strip()
            if not text:
                raise JudgeOutputError(f"expected {expected} with a non-empty reason, got {found!r:.300}")
            return text

        messages = self._messages("reason", prompts.reason_messages(query, score, verdicts), query=query,
                                  score=f"{score:.2f}", statements=json.dumps(
                                      [{"statement": s, "verdict": v, "reason": r} for s, v, r in verdicts],
                                      ensure_ascii=False))
        return self._map(lambda _: self._ask(messages, expected, read), [None])[0]

    # -- requests ---------------------------------------------------------------------------------------------
    def _messages(self, task: str, default: list[dict[str, str]], **values: str) -> list[dict[str, str]]:
        """The task's custom template filled in (a rubric's with the RAG paragraphs), else the default messages."""
        template = self.templates.get(task)
        return default if template is None else prompts.template_messages(template, task, **values)

    def _map(self, function: Callable[[T], tuple[R, Usage]], inputs: Sequence[T],
             describe: Callable[[T], str] | None = None) -> list[R]:
        """``function`` over the inputs (concurrently when there are several); their usage goes to the meter.

        A malformed answer to one of several inputs names it: its position in the batch and ``describe(input)``.
        """
        if len(inputs) <= 1:
            results = [function(x) for x in inputs]
        else:
            def located(k: int, x: T) -> tuple[R, Usage]:
                try:
                    return function(x)
                except JudgeOutputError as error:
                    error.batch_index = k
                    error.locate(f"judge request {k + 1} of {len(inputs)} in a batch"
                                 + (f" ({describe(x)})" if describe is not None else ""))
                    raise

            context = contextvars.copy_context()
            with ThreadPoolExecutor(self.max_concurrency) as pool:
                results = list(pool.map(lambda kx: context.copy().run(located, *kx), enumerate(inputs)))
        _record([usage for _, usage in results])
        return [value for value, _ in results]

    def _ask(self, messages: list[dict[str, str]], expected: str, read: Callable[[dict[str, Any]], R]
             ) -> tuple[R, Usage]:
        """The validated answer to the messages and its usage: from the cache, else from the server (then cached).

        A cached entry that no longer validates is asked again; an answer that does not validate is not cached.
        """
        body = {"model": self.model, "messages": messages, "temperature": 0, "max_tokens": self.max_tokens,
                "stream": False}
        key = text_key(json.dumps(body, sort_keys=True, ensure_ascii=False))
        space = namespace("llm-judge", self.base_url, self.model)
        entry = self._memo.get(key)
        if entry is None and self.store is not None:
            entry = _entry(self.store.get(space, key))
        if entry is not None:
            with contextlib.suppress(JudgeOutputError):
                value = read(parse_json(entry["content"], expected))
                self._memo[key] = entry
                return value, self._usage(entry.get("usage"), cached=True)
        with self._slots:
            answer = self._post(body)
        if answer.finish_reason == "length":  # a cut answer is refused, even where a draft object in it parses
            raise JudgeOutputError(f"expected {expected}, but the server cut the answer at max_tokens="
                                   f"{self.max_tokens} (finish_reason 'length'; raise max_tokens): "
                                   f"{answer.content[:300]!r}")
        value = read(parse_json(answer.content, expected))
        usage = answer.usage
        entry = {"content": answer.content, "usage": None if usage.unreported else
                 {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens}}
        self._memo[key] = entry
        if self.store is not None:
            self.store.put(space, key, entry)
        return value, answer.usage

    def _usage(self, fields: Any, cached: bool = False) -> Usage:
        """A Usage from the server's usage object (or a cached copy), priced with this judge's prices.

        A cached copy keeps its token counts and ``cached=1`` but costs 0: nothing was spent on it (``judge.usage``
        does not count it at all).
        """
        fields = fields if isinstance(fields, Mapping) else {}
        prompt_tokens, completion_tokens = fields.get("prompt_tokens"), fields.get("completion_tokens")
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                   for n in (prompt_tokens, completion_tokens)):
            # not reported: a cached copy cost nothing now, a fresh answer cost what no one told (None: not known)
            return Usage(1, cost=0.0 if self._priced and cached else None, cached=int(cached), unreported=1)
        assert isinstance(prompt_tokens, int) and isinstance(completion_tokens, int)
        cost = None
        if self._priced:  # a cached answer keeps its tokens (its size) but cost nothing now: nothing was spent
            cost = 0.0 if cached else (prompt_tokens * (self.input_price or 0.0)
                                       + completion_tokens * (self.output_price or 0.0)) / 1e6
        return Usage(1, prompt_tokens, completion_tokens, cost, int(cached))

    def _post(self, body: dict[str, Any]) -> _Answer:
        """POST /chat/completions with retries on connection errors, timeouts, 429 and 5xx (no sleep after the last)."""
        payload = json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        problem = ""
        for attempt in range(self.retries + 1):
            wait = self.backoff * 2 ** attempt
            try:
                status, raw, retry_after = self._send(payload, headers)
            except (OSError, http.client.HTTPException) as error:
                problem = f"{type(error).__name__}: {error}"
            else:
                if status == 200:
                    answer = self._completion(raw)
                    with self._lock:
                        self.usage += answer.usage
                    return answer
                problem = f"HTTP {status}: {_error_message(raw.decode('utf-8', 'replace'))}"
                if status != 429 and status < 500:
                    raise JudgeError(f"the judge at {self.base_url} (model {self.model}) refused the request "
                                     f"({problem}). {_HOW}")
                if retry_after is not None:
                    wait = max(wait, min(retry_after, self.max_retry_after))
            if attempt < self.retries:
                time.sleep(wait)
        raise ToolUnavailableError(f"the LLM judge at {self.base_url} (model {self.model}) did not answer after "
                                   f"{self.retries + 1} attempts (last: {problem}; connect timeout "
                                   f"{self.connect_timeout:g} s, read timeout {self.read_timeout:g} s, request "
                                   f"deadline {self.request_timeout:g} s). Start the server or point the judge "
                                   f"elsewhere: {_HOW}")

    def _send(self, payload: bytes, headers: dict[str, str]) -> tuple[int, bytes, float | None]:
        """One attempt within ``request_timeout`` in total: a timer shuts the socket at the deadline.

        A body shorter than its Content-Length (the connection dropped) is an ``IncompleteRead``: retried.
        """
        url = self._url
        kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        connection = kind(url.hostname or "", url.port, timeout=min(self.connect_timeout, self.request_timeout))
        deadline = time.monotonic() + self.request_timeout
        opened: list[socket.socket] = []  # the socket, kept: the connection forgets it once the response owns it
        timer = threading.Timer(self.request_timeout, _cut, (opened,))
        timer.daemon = True
        with self._lock:
            self.requests_sent += 1
        timer.start()
        try:
            connection.connect()
            if connection.sock is not None:
                connection.sock.settimeout(min(self.read_timeout, self.request_timeout))
                opened.append(connection.sock)
            connection.request("POST", f"{url.path.rstrip('/')}/chat/completions", payload, headers)
            response = connection.getresponse()
            chunks, size = [], 0
            while chunk := response.read(65536):
                size += len(chunk)
                if size > MAX_RESPONSE_BYTES:
                    raise http.client.HTTPException(f"response over {MAX_RESPONSE_BYTES} bytes")
                chunks.append(chunk)
            if time.monotonic() >= deadline:
                raise TimeoutError
            if response.length:  # http.client's read(amt) returns short at an early close
                raise http.client.IncompleteRead(b"".join(chunks), response.length)
            return response.status, b"".join(chunks), _seconds(response.getheader("Retry-After"))
        except (OSError, http.client.HTTPException, ValueError) as error:
            if time.monotonic() >= deadline - 1e-3:
                raise TimeoutError(f"no complete answer within the request deadline of {self.request_timeout:g} s"
                                   ) from None
            if isinstance(error, ValueError):  # http.client on a garbled status line, header or chunk size
                raise http.client.HTTPException(f"malformed HTTP response ({error})") from None
            raise
        finally:
            timer.cancel()
            connection.close()

    def _completion(self, raw: bytes) -> _Answer:
        """The first choice's content, finish reason and usage of a chat completion (not UTF-8: JudgeOutputError)."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JudgeOutputError(f"the server's answer is not UTF-8 ({error.reason} at byte {error.start}): "
                                   f"{raw[:300]!r}") from None
        try:
            body = json.loads(text)
            choice = body["choices"][0]
            content = choice["message"]["content"]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError):
            raise JudgeOutputError(f"the server's answer is not a chat completion (expected choices[0].message."
                                   f"content): {text[:300]!r}") from None
        if not isinstance(content, str):
            raise JudgeOutputError(f"the server's chat completion has no text content (content {content!r:.80}, "
                                   f"finish_reason {choice.get('finish_reason')!r}): {text[:300]!r}")
        reason = choice.get("finish_reason")
        return _Answer(content, self._usage(body.get("usage")), reason if isinstance(reason, str) else None)


def _short(text: str | None) -> str:
    """A text's start, quoted, to name what a request judged."""
    text = " ".join((text or "").split())
    return repr(text if len(text) <= 60 else f"{text[:57]}...")


def _entry(cached: Any) -> dict[str, Any] | None:
    """A cache entry ({"content", "usage"}); an entry of the older format (the bare content) reads as one."""
    if isinstance(cached, str):
        return {"content": cached, "usage": None}
    if isinstance(cached, dict) and isinstance(cached.get("content"), str):
        return cached
    return None


def _open_cache(cache_dir: str | os.PathLike | None) -> DiskStore | None:
    """The answer cache: None or "none" (any case) disables it; "default" reads ``CACHE_DIR_ENV``, else ~/.cache."""
    if isinstance(cache_dir, str) and cache_dir.strip().lower() == "none":
        return None
    if cache_dir == "default":
        configured_dir = os.environ.get(CACHE_DIR_ENV, "").strip()
        if configured_dir.lower() == "none":
            return None
        cache_dir = configured_dir or Path.home() / ".cache" / "ir_rag_axioms" / "judge"
    return None if cache_dir is None else DiskStore(cache_dir)
