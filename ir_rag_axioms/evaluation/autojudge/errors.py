"""What the judge refuses (errors naming file, line, run and topic) and what it warns about (abstentions, scripts)."""

from __future__ import annotations

import functools
import os
import sys
import unicodedata
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import pandas as pd


class JudgeSettingsError(ValueError):
    """A judge setting that cannot work: unknown, or a method the axioms do not fit (named in the message)."""


class ReportInputError(ValueError):
    """Reports or topics the judge cannot take: an unknown topic, a duplicate, a bad id or file (named)."""


@functools.cache
def _runner_error(base: type[ValueError]) -> type[ValueError]:
    """``base`` that is also click's ClickException where click is installed, else ``base`` itself.

    autojudge-base's runner is a click command: it prints a ClickException's message, no traceback, and exits 1.
    """
    try:
        import click
    except ImportError:
        return base

    class RunnerError(base, click.ClickException):  # type: ignore[valid-type, misc]
        def __init__(self, message: str) -> None:
            click.ClickException.__init__(self, message)

    RunnerError.__name__ = RunnerError.__qualname__ = f"Runner{base.__name__}"
    return RunnerError


def _runner_settings_error() -> type[ValueError]:
    """JudgeSettingsError for autojudge-base's runner (``_runner_error``)."""
    return _runner_error(JudgeSettingsError)


class ScriptWarning(UserWarning):
    """Answers mostly in a non-Latin script: the axioms read English; they are scored as they are (named)."""


class AbstentionWarning(UserWarning):
    """A (run, topic) the judge abstains on (empty answer): NaN for every measure, named in the message."""


_PACKAGE = str(Path(__file__).resolve().parents[2]) + os.sep
"""The package's folder: warnings name the first frame outside it (the user's call)."""


def _warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first caller outside this package (the user's line, or the runner's)."""
    frame: FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


NON_LATIN_SHARE = 0.5
"""An answer is mostly in a non-Latin script when more than this share of its letters are not Latin letters."""


def non_latin_share(text: str) -> float:
    """The share of ``text``'s letters that are no Latin letters (Chinese, Cyrillic, Arabic, ...); 0 without letters."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if "LATIN" not in unicodedata.name(c, "")) / len(letters)


def non_latin_answers(answers: pd.DataFrame) -> list[tuple[str, str]]:
    """The (run, topic) of the answers mostly in a non-Latin script (``NON_LATIN_SHARE``)."""
    return [(str(r), str(t)) for r, t, text in zip(answers["run_id"], answers["topic"], answers["text"], strict=True)
            if non_latin_share(str(text)) > NON_LATIN_SHARE]


def _warn_scripts(found: Sequence[tuple[str, str]], total: int) -> None:
    if found:
        shown = ", ".join(f"run {r!r} topic {t!r}" for r, t in found[:5])
        more = f" and {len(found) - 5} more" if len(found) > 5 else ""
        _warn(f"the axioms read English: {len(found)} of the {total} answers are mostly in a non-Latin script and are "
              f"scored as they are, which may misjudge them (readability, coherence, coverage): {shown}{more}",
              ScriptWarning)


def too_long_answers(answers: pd.DataFrame) -> list[tuple[str, str]]:
    """The (run, topic) of the answers longer than the analysis reads (``settings.max_text_chars()``)."""
    from ir_rag_axioms.settings import max_text_chars

    limit = max_text_chars()
    return [(str(r), str(t)) for r, t, text in zip(answers["run_id"], answers["topic"], answers["text"], strict=True)
            if len(str(text)) > limit]


def _warn_abstentions(abstained: Sequence[tuple[str, str]], why: str = "empty answer(s)") -> None:
    """One AbstentionWarning naming the (run, topic) pairs (the first ten) and why the judge abstains on them."""
    if abstained:
        shown = ", ".join(f"run {r!r} topic {t!r}" for r, t in abstained[:10])
        more = f" and {len(abstained) - 10} more" if len(abstained) > 10 else ""
        _warn(f"the judge abstains on {len(abstained)} {why} (every measure NaN): {shown}{more}", AbstentionWarning)


def _warn_too_long(found: Sequence[tuple[str, str]]) -> None:
    """The AbstentionWarning for answers over the text limit (the axioms do not analyse them)."""
    from ir_rag_axioms.settings import MAX_TEXT_CHARS_ENV, max_text_chars

    _warn_abstentions(found, f"answer(s) longer than {max_text_chars():,} characters, which the axioms do not analyse "
                             f"(set {MAX_TEXT_CHARS_ENV} to raise the limit)")
