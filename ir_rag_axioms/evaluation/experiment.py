"""Post-hoc analysis of a run against qrels: how often the run's order and the judgments agree with each axiom."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from ir_rag_axioms.axioms.naming import Axioms, named_axioms


@dataclass(frozen=True)
class AxiomaticExperiment:
    """Axiom preferences on the top ``depth`` responses of a run, compared with the run's order and with qrels.

    ``run``: qid, query, docno, text (and rank or score); ``qrels``: qid, docno, label (or relevance).
    """

    run: pd.DataFrame = field(repr=False)
    qrels: pd.DataFrame = field(repr=False)
    axioms: Axioms = ()
    depth: int | None = 10
    axiom_names: Sequence[str] | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and (isinstance(self.depth, bool) or not isinstance(self.depth, int)
                                       or self.depth < 2):
            raise ValueError(f"AxiomaticExperiment: depth must be an integer >= 2 or None, got {self.depth!r}")
        from ir_rag_axioms.pyterrier.frames import PAIR_KEYS, check_pair_columns

        check_pair_columns(list(named_axioms(self.axioms, self.axiom_names)), who="AxiomaticExperiment",
                           reserved=(*PAIR_KEYS, "ORIG", "ORACLE"))  # ORIG / ORACLE: the run's and the qrels'

    @property
    def names(self) -> list[str]:
        """The axioms' column names."""
        return list(named_axioms(self.axioms, self.axiom_names))

    @cached_property
    def preferences(self) -> pd.DataFrame:
        """One row per ordered pair of a query's top responses: ORIG (the run), ORACLE (the qrels), each axiom."""
        from ir_rag_axioms.axioms.utility import ORIG, OracleAxiom
        from ir_rag_axioms.pyterrier import AxiomaticPreferences

        run = self.run
        if "rank" not in run.columns:
            run = run.assign(rank=run.groupby("qid")["score"].rank(ascending=False, method="first").astype(int) - 1)
        if self.depth is not None:
            run = run[run["rank"] < run.groupby("qid")["rank"].transform("min") + self.depth]
        named = {"ORIG": ORIG, "ORACLE": OracleAxiom(qrels=self.qrels),
                 **named_axioms(self.axioms, self.axiom_names)}
        return AxiomaticPreferences(named).transform(run)

    @cached_property
    def preference_consistency(self) -> pd.DataFrame:
        """Per axiom: decisiveness, and the share of its decided pairs on which the run (ORIG) and qrels agree."""
        p = self.preferences
        orig, oracle = np.sign(p["ORIG"]), np.sign(p["ORACLE"])
        rows = []
        for name in self.names:
            a = np.sign(p[name])
            decided = a != 0
            rows.append({
                "axiom": name,
                "pairs": int(len(a)),
                "decisiveness": float(decided.mean()) if len(a) else float("nan"),
                "orig_consistency": _share(a == orig, decided & (orig != 0)),
                "oracle_consistency": _share(a == oracle, decided & (oracle != 0)),
            })
        return pd.DataFrame(rows)

    @cached_property
    def inconsistent_pairs(self) -> pd.DataFrame:
        """The pairs the run orders against the qrels that a given axiom (not ORIG, not ORACLE) would correct.

        One row per pair (the better response first) where at least one given axiom prefers what the qrels prefer.
        """
        p = self.preferences
        orig, oracle = np.sign(p["ORIG"]), np.sign(p["ORACLE"])
        wrong = (orig != 0) & (oracle != 0) & (orig != oracle)
        helps = np.zeros(len(p), dtype=bool)
        for name in self.names:
            helps |= np.sign(p[name]).to_numpy() == oracle.to_numpy()
        keep = wrong.to_numpy() & helps & (oracle.to_numpy() > 0)  # each unordered pair once: the better one first
        return p[keep].reset_index(drop=True)


def _share(hits: pd.Series, among: pd.Series) -> float:
    """mean(hits) over ``among`` (NaN if empty)."""
    return float(hits[among].mean()) if among.any() else float("nan")
