"""The heuristic judge's rules from findings to verdicts: the checks of a claim or fact, its verdict, its 1-5 level.

``findings`` runs the checks (``checks.py``) of a claim against its matched sentence and the pool; ``claim_verdict``
and ``fact_verdict`` turn findings and match scores into verdicts; ``verify`` turns the fitted verifier's
probabilities into one; ``faithfulness_level`` and ``recall_level`` turn verdicts into levels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ir_rag_axioms.metrics import checks
from ir_rag_axioms.metrics.interface import Statement
from ir_rag_axioms.metrics.results import RubricJudgment
from ir_rag_axioms.metrics.statements import Facts


def level_from_fraction(fraction: float, bands: Sequence[float]) -> int:
    """1 + the number of band edges the fraction reaches (bands (.25, .5, .75, 1): 1 for < .25 ... 5 for 1.0)."""
    return 1 + sum(fraction >= b - 1e-9 for b in bands)


def merge(found: Sequence[Facts]) -> Facts:
    """The facts of several statements as one."""
    return Facts(*(tuple(x for f in found for x in getattr(f, name)) for name in Facts._fields))


def findings(claim: Statement, matched: Statement, score: float, pool: checks.Pool, where: str, own: str,
             others: Sequence[tuple[Facts, float]], check_threshold: float, support_threshold: float,
             idk_margin: float, window: Sequence[tuple[Facts, float]] = ()) -> tuple[list[str], list[str], list[str]]:
    """(contradicted, unsupported, cannot tell) reasons of a claim against its matched sentence and the pool.

    ``others``: the other context sentences with their match scores. A number the matched sentence lacks, where it
    gives a comparable one instead, is read against them (``checks.differences``) when the match is strong
    (``support_threshold``). ``window``: the matched sentence's neighbours in its passage, with their scores.
    """
    mine, theirs = claim.facts or Facts(), matched.facts or Facts()
    close = score >= check_threshold
    has_match = own == "the statement" and score >= support_threshold - idk_margin
    aligned = others if score >= support_threshold else None  # numbers and names: a strong match only
    contradicted, unsupported, undecided = checks.differences(mine, theirs if close else Facts(), pool, where,
                                                              claim.text, has_match, aligned, score)
    if others and own == "the statement":
        _elsewhere(mine, theirs, score, where, own, others, check_threshold, contradicted, window)
    if close:
        contradicted += checks.contradictions(mine, theirs, where, own, undecided)
        unsupported += checks.overgeneralised(mine, theirs, where, own)
    return contradicted, unsupported, undecided



def _elsewhere(mine: Facts, theirs: Facts, score: float, where: str, own: str, others: Sequence[tuple[Facts, float]],
               check_threshold: float, contradicted: list[str], window: Sequence[tuple[Facts, float]] = ()) -> None:
    """``findings``' conflicts with the matched sentence and the sentences near it, added to ``contradicted``.

    Near: its neighbours in its passage (``window``) and the other sentences that match about as well (within
    ``ALIGN_MARGIN``), not any sentence of the context that shares a word.
    """
    close = [f for f, s in window if s >= check_threshold] + [
        f for f, s in others if s >= max(check_threshold, score - checks.ALIGN_MARGIN)]
    near = [(theirs, where), *((f, "another sentence of the context") for f in close)]
    contradicted += checks.polarity_conflicts(mine, near, own)


def claim_verdict(score: float, contradicted: list[str], unsupported: list[str], undecided: list[str],
                  absent: list[str], support_threshold: float, idk_margin: float) -> tuple[str, list[str]]:
    """(verdict, reasons) of a claim from its findings and best match: contradicted, unsupported, idk, supported.

    Below ``support_threshold - idk_margin`` a claim is unsupported when content words (``absent``) are not in the
    context, else "cannot tell"; below ``support_threshold`` it is "cannot tell".
    """
    low = support_threshold - idk_margin
    if contradicted:
        verdict = "contradicted"
    elif unsupported or (score < low and not undecided and absent):
        verdict = "unsupported"
        unsupported = unsupported or [f"no matching sentence in the context (best {score:.3f} < "
                                      f"{low:g}) and content words not in it: {checks.describe(absent)}"]
    elif score < low and not undecided:
        verdict, unsupported = "idk", [f"cannot tell: no single sentence matches (best {score:.3f} < "
                                       f"{low:g}), but the statement's content words are in the "
                                       "context (it may join several sentences)"]
    elif undecided:
        verdict, unsupported = "idk", undecided
    elif score < support_threshold and absent:  # a different wording alone is no evidence
        verdict, unsupported = "idk", [f"cannot tell: content words not in the context: "
                                       f"{checks.describe(absent)} (best match {score:.3f} in [{low:g}, "
                                       f"{support_threshold:g}); other wording, or a claim the "
                                       "context lacks)"]
    elif score < support_threshold:
        verdict, unsupported = "idk", [f"cannot tell: best match {score:.3f} in [{low:g}, "
                                       f"{support_threshold:g})"]
    else:
        verdict = "supported"
    return verdict, unsupported


def fact_verdict(score: float, contradicted: list[str], missing: list[str], recall_threshold: float,
                 idk_margin: float) -> tuple[str, list[str]]:
    """(verdict, reasons) of a reference fact: contradicted, missing, idk or covered.

    Missing below ``recall_threshold - idk_margin``, "cannot tell" (idk) below ``recall_threshold``.
    """
    low = recall_threshold - idk_margin
    if contradicted:
        verdict = "contradicted"
    elif missing or score < low:
        verdict = "missing"
        missing = missing or [f"no matching statement in the answer (best {score:.3f} < {low:g})"]
    elif score < recall_threshold:
        verdict, missing = "idk", [f"cannot tell: best match {score:.3f} in [{low:g}, "
                                   f"{recall_threshold:g})"]
    else:
        verdict = "covered"
    return verdict, missing


def verify(row: dict[str, Any], supported: float, contradicted: float, threshold: float, contradiction: float,
           margin: float) -> None:
    """A checks' row turned into the verifier's: verdict from the two probabilities, the evidence named.

    A claim a check contradicts is not supported whatever P(supported) (it is *contradicted* only from
    ``contradiction`` on). A reference fact's row (ContextRecall) is checked against the answer: "covered" /
    "missing" for supported / unsupported.
    """
    fact = "reference fact" in row
    where = (f"passage {row['passage']}: '{row['best_match']}'" if row.get("passage") else
             f"the answer: '{row['best_match']}'" if fact and row.get("best_match") else "no evidence sentence")
    checked, vetoed = row["reasons"], row["verdict"] == "contradicted"  # a check found a contradiction
    if contradicted >= contradiction:
        verdict, reasons = "contradicted", [f"P(contradicted) {contradicted:.2f} >= {contradiction:g} against "
                                            f"{where}", *checked]
    elif vetoed:
        verdict, reasons = "unsupported", [f"a check contradicts it (P(supported) {supported:.2f}, P(contradicted) "
                                           f"{contradicted:.2f} < {contradiction:g}; evidence {where})", *checked]
    elif supported >= threshold:
        verdict, reasons = "supported", []
    elif supported >= threshold - margin:
        verdict, reasons = "idk", [f"cannot tell: P(supported) {supported:.2f} just below {threshold:g} (best "
                                   f"evidence {where})", *checked]
    else:
        verdict, reasons = "unsupported", [f"P(supported) {supported:.2f} < {threshold:g} (best evidence {where})",
                                           *checked]
    verdict = _FACT_VERDICTS.get(verdict, verdict) if fact else verdict
    row.update(signals={"verdict": row["verdict"], "reasons": checked}, verdict=verdict, reasons=reasons,
               ok=verdict in ("supported", "covered"), p_supported=round(supported, 4),
               p_contradicted=round(contradicted, 4),
               evidence={"passage": row.get("passage"), "sentence": row.get("best_match")})


_FACT_VERDICTS = {"supported": "covered", "unsupported": "missing"}
"""The verifier's verdict -> a reference fact's (ContextRecall)."""


def faithfulness_level(rows: list[dict[str, Any]], level_bands: Sequence[float], minor_unsupported: int,
                       contradiction_cap: int) -> RubricJudgment:
    """Faithfulness 1-5 from the claims' verdicts: the band of the supported share.

    At least 4 when more than half are supported and at most ``minor_unsupported`` are not; at most
    ``contradiction_cap`` with a contradiction.
    """
    if not rows:
        return RubricJudgment(None, "undefined: the output makes no claim to check (empty, or only refusals)",
                              (), 0.0)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("supported", "contradicted", "unsupported", "idk")}
    share = counts["supported"] / len(rows)
    level = level_from_fraction(share, level_bands)
    if share > 0.5 and len(rows) - counts["supported"] <= minor_unsupported:  # seed 003: "4 = mostly
        level = max(level, 4)  # supported, one or two minor unsupported"
    if counts["contradicted"]:
        level = min(level, contradiction_cap)
    named = "; ".join(f"{r['verdict']}: '{r['statement']}' ({', '.join(r['reasons'])})" for r in rows
                      if r["verdict"] != "supported")
    reason = (f"{counts['supported']} of {len(rows)} statements supported by the context ({counts['contradicted']}"
              f" contradicted, {counts['unsupported']} unsupported, {counts['idk']} cannot tell); share "
              f"{share:.2f} -> level {level}" + (f" (capped at {contradiction_cap}: a contradiction)"
                                                 if counts["contradicted"] and level == contradiction_cap
                                                 else "") + (f". {named}" if named else ""))
    return RubricJudgment(level, reason, tuple(rows), 1 - counts["idk"] / len(rows))


def recall_level(rows: list[dict[str, Any]], level_bands: Sequence[float]) -> RubricJudgment:
    """Context recall 1-5 from the reference facts' verdicts: the covered share's band."""
    if not rows:
        return RubricJudgment(None, "undefined: no reference fact to look for", (), 0.0)
    covered = sum(r["ok"] for r in rows)
    idk = sum(r["verdict"] == "idk" for r in rows)
    share = covered / len(rows)
    level = level_from_fraction(share, level_bands)
    named = "; ".join(f"{r['verdict']}: '{r['reference fact']}' ({', '.join(r['reasons'])})" for r in rows
                      if not r["ok"])
    reason = (f"{covered} of {len(rows)} reference facts covered by the output ({idk} cannot tell); share "
              f"{share:.2f} -> level {level}" + (f". {named}" if named else ""))
    return RubricJudgment(level, reason, tuple(rows), 1 - idk / len(rows))
