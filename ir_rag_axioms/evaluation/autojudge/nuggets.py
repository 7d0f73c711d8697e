"""The judge's consensus nuggets as autojudge-base nugget banks (``AxiomJudge.create_nuggets``), one bank per topic.

Each topic's bank holds its consensus nuggets (``evaluation.consensus_nuggets``, with the packaged model's settings:
the nuggets the headline reads) as ``NuggetClaim``s: ``claim`` the nugget's text (its group's medoid claim),
``claim_id`` ``<topic>-n<k>`` (most support first), ``importance`` ``vital`` or ``okay``, ``metadata`` the support
(distinct voices), the runs that state it and each run's evidence claim and assignment. Written by autojudge-base's
``write_nugget_banks`` (JSONL, one bank per line) and read back by its ``load_nugget_banks_from_file``.

autojudge-base's runner refuses an empty bank, so a topic without a consensus nugget (no group stated by
``min_support`` distinct voices) holds one ``NuggetQuestion``, the topic's query, with ``metadata`` ``{"consensus":
false, ...}``: it is no nugget and no score reads it (the topic's nugget scores are NaN).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ir_rag_axioms.evaluation.autojudge.offline import import_autojudge
from ir_rag_axioms.evaluation.autojudge.reports import answers_frame

CREATOR = "ir_rag_axioms consensus nuggets (no LLM)"
"""The creator named in every bank and claim."""


def nugget_bank(topic: Any) -> Any:
    """autojudge-base's ``NuggetBank`` of one ``TopicNuggets`` (its claims in the bank's ``claim_bank``)."""
    from autojudge_base.nugget_data import Creator, NuggetBank, NuggetClaim

    creator = [Creator(contributor=CREATOR, is_human=False)]
    bank = NuggetBank(query_id=topic.topic, title_query=topic.query or None, creator=creator,
                      metadata={"voices": len(set(topic.voices.values())), "runs": len(topic.runs)})
    claims = []
    for row in topic.nuggets.itertuples(index=False):
        got = topic.assignments[topic.assignments["nugget_id"] == row.nugget_id]
        stated = got[got["assignment"] != "not_support"]
        claims.append(NuggetClaim(
            query_id=topic.topic, claim=row.text, claim_id=row.nugget_id, importance=row.importance, creator=creator,
            metadata={"support": int(row.support), "runs": list(row.runs),
                      "evidence": {r: {"assignment": a, "claim": e} for r, a, e in
                                   zip(stated["run_id"], stated["assignment"], stated["evidence"], strict=True)}}))
    if not claims:
        from autojudge_base.nugget_data import NuggetQuestion

        return bank.add_nuggets(NuggetQuestion(
            query_id=topic.topic, question=topic.query or topic.topic, question_id=f"{topic.topic}-none",
            creator=creator, metadata={"consensus": False, "reason": "no claim is stated by enough distinct voices "
                                       "(runs with near-copied answers count once)"}))
    return bank.add_nuggets(claims)


def nugget_banks(topics: Sequence[Any]) -> Any:
    """autojudge-base's ``NuggetBanks`` (one bank per topic, keyed by topic id) of ``consensus_nuggets``' topics."""
    import_autojudge()
    from autojudge_base.nugget_data import NuggetBanks

    return NuggetBanks.from_banks_list([nugget_bank(t) for t in topics])


def create_nuggets(reports: Iterable[Any], topics: Sequence[Any], *, progress: bool = True) -> Any:
    """The consensus nugget banks of autojudge-base reports on ``topics`` (packaged settings; empty answers skipped).

    Every topic gets a bank, an empty one where no group is stated by enough voices.
    """
    from ir_rag_axioms.evaluation.consensus_nuggets import TopicNuggets, consensus_nuggets
    from ir_rag_axioms.evaluation.leaderboard import nugget_settings

    frame, _ = answers_frame(reports, topics)
    found = {t.topic: t for t in consensus_nuggets(frame, nugget_settings(), progress=progress)} if len(frame) else {}
    out = []
    for topic in topics:
        topic_id = str(topic.request_id)
        out.append(found.get(topic_id) or TopicNuggets(topic_id, str(topic.title or ""), [], {}, _no_nuggets(),
                                                       _no_assignments()))
    return nugget_banks(out)


def _no_nuggets() -> Any:
    import pandas as pd

    return pd.DataFrame(columns=["nugget_id", "text", "importance", "support", "runs"])


def _no_assignments() -> Any:
    import pandas as pd

    return pd.DataFrame(columns=["run_id", "nugget_id", "assignment", "evidence", "similarity"])


__all__ = ["CREATOR", "create_nuggets", "nugget_bank", "nugget_banks"]
