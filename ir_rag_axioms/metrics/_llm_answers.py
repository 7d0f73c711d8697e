"""What the LLM judge reads back: its errors, the JSON object of an answer, integers and verdicts, the usage meter.

``llm.py`` asks the server; this module reads what comes back (its public names are re-exported there: ``JudgeError``,
``JudgeOutputError``, ``parse_json``, ``integer`` and ``metered`` import from ``ir_rag_axioms.metrics.llm``).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import math
import re
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ir_rag_axioms.metrics.results import VERDICTS, Usage, Verdict


class JudgeError(RuntimeError):
    """The judge answered with an HTTP error that retrying does not fix."""


class JudgeOutputError(JudgeError, ValueError):
    """The judge's answer is not the JSON the prompt asked for (in a batch, the message names the request)."""

    batch_index: int | None = None
    """The position (0-based) of the failed request among the judge call's inputs (None when the call had one)."""
    case_index: int | None = None
    """The position of the case among the metric's cases, where the metric adds it (None where unknown)."""

    def locate(self, where: str) -> None:
        """Add where the answer was asked for to the message (the traceback and type stay)."""
        self.args = (f"{where}: {self.args[0]}" if self.args else where, *self.args[1:])


# -- reading answers ------------------------------------------------------------------------------------------------
_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_MAX_OBJECT_STARTS = 64
"""At most this many '{' positions are tried when looking for a JSON object in prose."""


def unique_keys(pairs: Iterable[tuple[Any, Any]], error: Callable[[Any, Any, Any], Exception]) -> dict[Any, Any]:
    """A JSON object's pairs as a dict; a key given twice raises ``error(key, first value, second value)``."""
    out: dict[Any, Any] = {}
    for key, value in pairs:
        if key in out:
            raise error(key, out[key], value)
        out[key] = value
    return out


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; ``JudgeOutputError`` when a key comes twice (which one counts is unsaid)."""
    return unique_keys(pairs, lambda key, first, second: JudgeOutputError(
        f"the judge's answer gives the key {key!r} twice ({first!r:.40} and {second!r:.40}): which one counts is not "
        "said"))


def parse_json(content: str, expected: str) -> dict[str, Any]:
    """The one JSON object in an answer: the whole answer, a ```json fence, or one object inside prose.

    Several different objects, or none, raise ``JudgeOutputError`` naming what was expected and what came back.
    """
    text = content.strip()
    with contextlib.suppress(json.JSONDecodeError):
        whole = json.loads(text, object_pairs_hook=_unique)
        if isinstance(whole, dict):
            return whole
        raise JudgeOutputError(f"the judge's answer is JSON but not an object; expected {expected}, got: "
                               f"{content[:300]!r}")
    found: list[dict[str, Any]] = []
    for block in _FENCE.findall(text):
        with contextlib.suppress(json.JSONDecodeError):
            value = json.loads(block.strip(), object_pairs_hook=_unique)
            if isinstance(value, dict):
                found.append(value)
    if not found:
        decoder, position, starts = json.JSONDecoder(object_pairs_hook=_unique), 0, 0
        while starts < _MAX_OBJECT_STARTS and (start := text.find("{", position)) >= 0:
            starts += 1
            try:
                value, end = decoder.raw_decode(text, start)
            except json.JSONDecodeError:
                position = start + 1
                continue
            if isinstance(value, dict):
                found.append(value)
            position = end
    distinct = [v for k, v in enumerate(found) if v not in found[:k]]
    if len(distinct) == 1:
        return distinct[0]
    what = "several different JSON objects" if distinct else "no JSON object"
    raise JudgeOutputError(f"the judge's answer has {what}; expected {expected}, got: {content[:300]!r}")


def integer(value: Any, low: int, high: int, what: str, expected: str) -> int:
    """An integer answer given as 3, 3.0 or "3" (or "3.0") within [low, high]; ``JudgeOutputError`` otherwise."""
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            number = float(value.strip())
    if number is None or not math.isfinite(number) or number != int(number) or not low <= number <= high:
        raise JudgeOutputError(f"expected {expected}: {what} must be an integer {low}-{high} (3, 3.0 or \"3\"), "
                               f"got {value!r:.80}")
    return int(number)


def _text(value: Any, what: str, expected: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise JudgeOutputError(f"expected {expected}: {what} must be a string, got {value!r:.80}")
    return value


# -- usage of one call, attributed to the cases of a batch -----------------------------------------------------------
_METER: contextvars.ContextVar[list[Usage] | None] = contextvars.ContextVar("ir_rag_axioms_judge_usage", default=None)


@contextlib.contextmanager
def metered(cases: int) -> Iterator[list[Usage]]:
    """Collect the usage of the judge calls inside the block: one ``Usage`` per case of each batched call.

    A meter of one case sums every answer; a meter of n cases adds answer k of an n-case call to case k.
    """
    meter = [Usage() for _ in range(cases)]
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


def _record(usages: Sequence[Usage]) -> None:
    meter = _METER.get()
    if meter is not None and len(meter) == 1:
        meter[0] = sum(usages, meter[0])
    elif meter is not None and len(meter) == len(usages):
        meter[:] = [total + usage for total, usage in zip(meter, usages, strict=True)]


def _cut(opened: list[socket.socket]) -> None:
    """Shut the request's socket (the request deadline passed): a blocked read returns at once."""
    for sock in opened:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def _seconds(header: str | None) -> float | None:
    """A Retry-After header in seconds (an HTTP date or garbage: None)."""
    try:
        value = float(header) if header is not None else math.nan
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _error_message(text: str) -> str:
    """The message of an OpenAI-style ({"error": {"message"}}) or vLLM-style ({"message"}) error body, else the text."""
    with contextlib.suppress(json.JSONDecodeError, AttributeError, TypeError):
        body = json.loads(text)
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str):
            return message[:300]
    return text[:300]


def _verdict(item: Any, expected: str) -> tuple[Verdict, str]:
    verdict = item.get("verdict") if isinstance(item, dict) else None
    verdict = verdict.strip().lower() if isinstance(verdict, str) else ""
    if verdict not in VERDICTS:
        raise JudgeOutputError(f"expected {expected}, got the verdict {item!r:.200}")
    return verdict, _text(item.get("reason"), "reason", expected)


def _verdicts(found: dict[str, Any], expected: str, count: int, unit: str) -> list[tuple[Verdict, str]]:
    """Exactly ``count`` (verdict, reason) pairs under "verdicts", one per statement or passage (``unit``)."""
    items = found.get("verdicts")
    if not isinstance(items, list) or len(items) != count:
        raise JudgeOutputError(f"expected {expected} for {count} {unit}, got {found!r:.300}")
    return [_verdict(item, expected) for item in items]
