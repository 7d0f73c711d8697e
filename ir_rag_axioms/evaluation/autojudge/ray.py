"""Scoring topics as Ray tasks (a local Ray unless an address is given), a bounded number in flight."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from ir_rag_axioms.evaluation.autojudge.reports import ALL
from ir_rag_axioms.evaluation.autojudge.scoring import Scorer, _checked_scores


def _ray_score(answers: pd.DataFrame, axioms: Any, scorer: Scorer, method: str) -> pd.DataFrame:
    scores = _checked_scores(scorer(answers, axioms, method=method, progress=False), answers)
    return scores[scores["topic"] != ALL]


def score_topics_on_ray(groups: Iterable[pd.DataFrame], axioms: Any, scorer: Scorer, method: str,
                        progress: bool, address: str | None = None) -> pd.DataFrame:
    """As ``score_topics``, each topic a Ray task (a local Ray unless ``address``); at most 2 x CPUs in flight."""
    import ray

    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
        except Exception as error:  # noqa: BLE001 (Ray raises many kinds; the message names it)
            raise ToolUnavailableError(f"Ray did not start ({type(error).__name__}: {error})") from error
    task = ray.remote(_ray_score)
    limit = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    pending: list[Any] = []
    parts: list[pd.DataFrame] = []
    for answers in groups:
        if answers.empty:
            continue
        if len(pending) >= limit:
            done, pending = ray.wait(pending, num_returns=1)
            parts.extend(ray.get(done))
        pending.append(task.remote(answers, axioms, scorer, method))
    parts.extend(ray.get(pending))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["run_id", "topic", "measure",
                                                                                    "value"])
