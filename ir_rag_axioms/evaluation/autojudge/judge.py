"""``AxiomJudge``: autojudge-base's ``AutoJudge`` protocol for ``auto-judge run``, and its workflow file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ir_rag_axioms.evaluation.autojudge.engine import judge_reports
from ir_rag_axioms.evaluation.autojudge.errors import (
    JudgeSettingsError,
    ReportInputError,
    _runner_error,
    _runner_settings_error,
)
from ir_rag_axioms.evaluation.autojudge.offline import import_autojudge
from ir_rag_axioms.evaluation.autojudge.scoring import Scorer, _parse_axioms, judge_method

RUNNER_SETTINGS = frozenset({"filebase", "outdir", "description"})
"""Settings autojudge-base's runner passes to ``judge`` besides the judge's own (ignored)."""
JUDGE_SETTINGS = frozenset({"axioms", "method", "by_topic", "ray", "progress", "scorer"})
"""The judge's settings (workflow ``judge_settings`` or ``--jset key=value``)."""


def workflow_path() -> Path:
    """The workflow file shipped in the package, for ``auto-judge run --workflow``."""
    return Path(__file__).resolve().parents[2] / "data" / "autojudge-workflow.yml"


FLAGS = ("by_topic", "ray", "progress")
"""The yes/no settings: a bool, or (from ``--jset key=value``) one of the words of ``_FLAG_WORDS``."""
_FLAG_WORDS = {"true": True, "yes": True, "1": True, "on": True, "false": False, "no": False, "0": False,
               "off": False}


def flag(name: str, value: Any) -> bool:
    """A yes/no setting: a bool (or 0/1) as it is, ``true/yes/on/1`` or ``false/no/off/0`` (any case) as words.

    JudgeSettingsError for anything else (``bool("false")`` would be true).
    """
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    word = str(value).strip().lower()
    if word not in _FLAG_WORDS:
        raise JudgeSettingsError(f"{name}={value!r} is no yes/no value: use true or false")
    return _FLAG_WORDS[word]


def judge_settings(kwargs: Mapping[str, Any], scorer: Scorer | None = None) -> tuple[Scorer | None, dict[str, Any]]:
    """(the scorer, the settings for ``judge_reports``) from the runner's keyword arguments, checked.

    JudgeSettingsError for an unknown setting, a scorer that does not import or is not callable, a yes/no setting
    that is neither, axioms that do not parse or a method they do not fit.
    """
    unknown = set(kwargs) - JUDGE_SETTINGS - RUNNER_SETTINGS
    if unknown:
        raise JudgeSettingsError(f"unknown judge setting(s) {sorted(unknown)}; known: {sorted(JUDGE_SETTINGS)}")
    settings = {k: v for k, v in kwargs.items() if k in JUDGE_SETTINGS}
    scorer = settings.pop("scorer", None) or scorer
    if isinstance(scorer, str):
        scorer = _import_object(scorer)
    if scorer is not None and not callable(scorer):
        raise JudgeSettingsError(f"scorer {kwargs.get('scorer')!r} is a {type(scorer).__name__}, not a function")
    for name in FLAGS:
        if name in settings:
            settings[name] = flag(name, settings[name])
    try:
        settings["axioms"] = _parse_axioms(settings.get("axioms"))
        settings["method"] = judge_method(settings.get("method"), settings["axioms"], scorer)
    except JudgeSettingsError:
        raise
    except (ValueError, KeyError, TypeError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        raise JudgeSettingsError(f"axioms {kwargs.get('axioms')!r}: {message}") from None
    return scorer, settings


class AxiomJudge:
    """autojudge-base's ``AutoJudge``: a leaderboard from the reports by axioms and consensus nuggets; no qrels.

    ``create_nuggets`` returns the consensus nuggets (autojudge-base ``NuggetBanks``, one bank per topic) that the
    headline reads; ``judge`` computes them itself from the reports (the same ones), so it needs no nugget input.
    The axioms judge no document's relevance: ``create_qrels`` returns None, as the protocol allows.
    """

    @property
    def nugget_banks_type(self) -> Any:
        """autojudge-base's ``NuggetBanks`` (the container ``create_nuggets`` returns; imported offline)."""
        import_autojudge()
        from autojudge_base.nugget_data import NuggetBanks

        return NuggetBanks

    def __init__(self, scorer: Scorer | None = None) -> None:
        self.scorer = scorer

    def judge(self, rag_responses: Iterable[Any], rag_topics: Sequence[Any], llm_config: Any = None,
              nugget_banks: Any = None, qrels: Any = None, corpus: str | None = None, **kwargs: Any) -> Any:
        """The leaderboard (``judge_reports``); settings: axioms, method, by_topic, ray, progress, scorer."""
        try:  # a setting that cannot work: the runner prints the message, no traceback
            scorer, settings = judge_settings(kwargs, self.scorer)
        except JudgeSettingsError as error:
            raise _runner_settings_error()(f"AxiomJudge: {error}") from None
        try:  # reports or topics it cannot take: the runner prints the message (file, line, run, topic), no traceback
            return judge_reports(rag_responses, rag_topics, scorer=scorer, **settings)
        except ReportInputError as error:
            raise _runner_error(ReportInputError)(f"AxiomJudge: {error}") from None

    def create_qrels(self, rag_responses: Iterable[Any], rag_topics: Sequence[Any], llm_config: Any = None,
                     nugget_banks: Any = None, corpus: str | None = None, **kwargs: Any) -> None:
        """None: axioms judge no document's relevance."""
        return None

    def create_nuggets(self, rag_responses: Iterable[Any], rag_topics: Sequence[Any], llm_config: Any = None,
                       nugget_banks: Any = None, corpus: str | None = None, **kwargs: Any) -> Any:
        """The consensus nuggets of the reports: ``NuggetBanks``, one bank per topic (``autojudge.nuggets``)."""
        from ir_rag_axioms.evaluation.autojudge.nuggets import create_nuggets

        try:
            return create_nuggets(rag_responses, rag_topics, progress=bool(kwargs.get("progress", True)))
        except ReportInputError as error:
            raise _runner_error(ReportInputError)(f"AxiomJudge: {error}") from None


def _import_object(dotted: str) -> Any:
    """``module.path:name`` or ``module.path.name`` imported (a scorer named in a workflow file).

    JudgeSettingsError naming it if the module does not import or has no such name.
    """
    import importlib

    module, _, name = dotted.replace(":", ".").rpartition(".")
    if not module:
        raise JudgeSettingsError(f"scorer {dotted!r}: give module.path.function")
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise JudgeSettingsError(f"scorer {dotted!r}: module {module!r} does not import ({error})") from None
    except AttributeError:
        raise JudgeSettingsError(f"scorer {dotted!r}: module {module!r} has no {name!r}") from None
