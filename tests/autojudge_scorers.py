"""Small scorers of the AutoJudge tests: a real axiom's per-topic win rate, computed through the library."""

from __future__ import annotations

import gc

import numpy as np
import pandas as pd

from ir_rag_axioms.axioms import registry
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


def win_rate_scorer(answers: pd.DataFrame, axioms=None, *, method: str = "default", progress: bool = True):
    """Per topic and axiom (default CORR2 and CLAR4): win rate (wins + ties/2)/(n-1); the headline their mean."""
    names = list(axioms) if axioms else ["CORR2", "CLAR4"]
    rows = []
    for topic, group in answers.groupby("topic", sort=False):
        request = GenerationRequest(str(topic), str(group["query"].iloc[0]))
        responses = [GenerationResponse(str(r), str(t)) for r, t in zip(group["run_id"], group["text"], strict=True)]
        rates = {}
        for name in names:
            axiom = axioms[name] if isinstance(axioms, dict) else registry.get(name)
            matrix = np.sign(np.nan_to_num(axiom.preferences(request, responses)))
            n = len(responses)
            wins, losses = (matrix > 0).sum(axis=1), (matrix < 0).sum(axis=1)
            rates[name] = (wins + (n - 1 - wins - losses) / 2) / (n - 1) if n > 1 else np.full(n, np.nan)
        for k, run_id in enumerate(group["run_id"]):
            values = {name: float(rates[name][k]) for name in names}
            rows.append((run_id, topic, "headline", float(np.mean(list(values.values())))))
            rows.extend((run_id, topic, name, value) for name, value in values.items())
    frame = pd.DataFrame(rows, columns=["run_id", "topic", "measure", "value"])
    # the system level: a median over topics (not a mean), so a test can tell the judge keeps the scorer's rows
    aggregate = frame.groupby(["run_id", "measure"], sort=False)["value"].median().reset_index().assign(topic="all")
    return pd.concat([frame, aggregate[frame.columns]], ignore_index=True)


LIVE: list[int] = []
"""The number of autojudge-base Report objects alive at each call of ``counting_scorer``."""


def counting_scorer(answers: pd.DataFrame, axioms=None, *, method: str = "default", progress: bool = True):
    """Records how many Reports are alive (gc), then scores each answer by its length in words (no model)."""
    from autojudge_base import Report

    LIVE.append(sum(type(o) is Report for o in gc.get_objects()))
    words = answers["text"].str.split().str.len().astype(float)
    frame = pd.DataFrame({"run_id": answers["run_id"], "topic": answers["topic"], "measure": "words",
                          "value": words})
    return pd.concat([frame, frame.groupby("run_id")["value"].mean().reset_index().assign(topic="all",
                                                                                          measure="words")])
