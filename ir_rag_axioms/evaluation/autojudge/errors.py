"""What the judge refuses (errors naming file, line, run and topic) and what it warns about (abstentions, scripts)."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

import pandas as pd

from ir_rag_axioms.evaluation.leaderboard import AbstentionWarning as AbstentionWarning  # the judge's too
from ir_rag_axioms.evaluation.leaderboard import warn_abstentions, warn_outside


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


_warn = warn_outside
"""``warnings.warn`` pointing at the first caller outside this package (``leaderboard.warn_outside``)."""


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


_warn_abstentions = warn_abstentions
"""One AbstentionWarning naming the (run, topic) pairs and why the judge abstains on them (the leaderboard's)."""


def _warn_too_long(found: Sequence[tuple[str, str]]) -> None:
    """The AbstentionWarning for answers over the text limit (the axioms do not analyse them)."""
    from ir_rag_axioms.settings import MAX_TEXT_CHARS_ENV, max_text_chars

    _warn_abstentions(found, f"answer(s) longer than {max_text_chars():,} characters, which the axioms do not analyse "
                             f"(set {MAX_TEXT_CHARS_ENV} to raise the limit)")
