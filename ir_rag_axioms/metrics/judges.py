"""The heuristic judge: statements from the shared spaCy parse, matched by similarity, checked, then verified.

Matching: ``_judge_matching.py``; checks: ``checks.py``; findings to verdicts and levels: ``_judge_verdicts.py``;
the fitted verifier: ``verifier/`` (docs/metrics.md).
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ir_rag_axioms.analysis.cache import default_analysis
from ir_rag_axioms.analysis.features import TERMS
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, DEFAULT_SPACY_MODEL
from ir_rag_axioms.axioms.base import Reads
from ir_rag_axioms.metrics import checks
from ir_rag_axioms.metrics import relevance as rel
from ir_rag_axioms.metrics._judge_matching import credited, distinct, match, overlap_matrix
from ir_rag_axioms.metrics._judge_verdicts import (
    claim_verdict,
    fact_verdict,
    faithfulness_level,
    findings,
    level_from_fraction,
    merge,
    recall_level,
)
from ir_rag_axioms.metrics._judge_verdicts import verify as _verify
from ir_rag_axioms.metrics._relevancy_levels import relevancy_judgment
from ir_rag_axioms.metrics.interface import Judge, RelevancyMode, RubricCase, Statement
from ir_rag_axioms.metrics.prompts import RubricName
from ir_rag_axioms.metrics.results import RubricJudgment, Verdict
from ir_rag_axioms.metrics.statements import (
    Facts,
    foreign_script,
    has_statement_text,
    is_hedge,
    is_signpost,
    statement_feature,
)
from ir_rag_axioms.metrics.verifier import features, load_verifier

__all__ = ["HEURISTIC_JUDGE", "OFFLINE_JUDGE", "HeuristicJudge", "Judge", "OfflineJudge", "RelevancyMode",
           "RubricCase", "Statement", "Units", "level_from_fraction", "overlap_matrix", "verdict_of"]

def verdict_of(relevance: float, no_threshold: float, yes_threshold: float) -> Verdict:
    """"no" below ``no_threshold``, "yes" at or above ``yes_threshold``, "idk" between."""
    return "no" if relevance < no_threshold else "yes" if relevance >= yes_threshold else "idk"


FOREIGN_REASON = ("undefined: the text is mostly in a script other than Latin; the heuristic judge reads English "
                  "(use an LLM judge)")
"""The reason of a case the heuristic judge does not read (level None, NaN)."""
Units = list[tuple[Statement, int]]
"""Statements of a context with the index of the passage each comes from."""


@dataclass(frozen=True, kw_only=True)
class HeuristicJudge(Judge):
    """Deterministic offline judge: statements from the spaCy parse, matched by similarity, then checked.

    Match of statements s and c: cos(s, c) + w * |T(s) & T(c)| / |T(s)|; the checks' findings are signals of the fitted
    verifier (``verified=False``: the checks' verdicts alone). The rules: docs/metrics.md, "Heuristic judge".
    """

    spacy_model: str = DEFAULT_SPACY_MODEL
    sentence_model: str = DEFAULT_SENTENCE_MODEL
    max_clause_words: int = 25
    """Sentences with more words are split into clauses (at ';' and at 'and'/'but' joining clauses)."""
    overlap_weight: float = 0.5
    no_threshold: float = 0.325
    """Relevance below this: "no" (task mode). Chosen on the crowd topics among the thresholds that reproduce the
    seed's verdicts (``bench/calibration.py``)."""
    yes_threshold: float = 0.7
    """Relevance at or above this: "yes" (task mode); between the two: "idk"."""
    strict_no_threshold: float = 0.4
    """Strict mode: relevance below this is "no" (related but not direct information)."""
    strict_yes_threshold: float = 0.75
    """Strict mode: relevance at or above this is "yes" (a direct answer)."""
    support_threshold: float = 0.85
    """The checks' verdict (the verifier's signals; the verdict with ``verified=False``): a statement is supported
    when its best context match reaches this and every check passes."""
    recall_threshold: float = 0.8
    """``verified=False``: a reference fact is covered when its best answer match reaches this and no check fails
    (else the verifier decides in its place)."""
    idk_margin: float = 0.15
    """Matches within this below a support or recall threshold are "cannot tell" (idk)."""
    check_threshold: float = 0.5
    """Matches from this on are close enough for a differing number, entity or negation to be a contradiction."""
    content_share: float = 0.5
    """A covered fact has at least this share of its content words in the answer."""
    level_bands: tuple[float, ...] = (0.25, 0.5, 0.75, 1.0)
    """Fraction (supported, covered, relevant) -> level: 1 + the number of edges reached."""
    contradiction_cap: int = 1
    """Faithfulness level at most this when any statement contradicts the context (seed 003: a contradiction is 1)."""
    direct_share: float = 0.4
    """Strict mode: a direct answer shares at least this share of the query's terms (else it is only related)."""
    minor_unsupported: int = 2
    """Faithfulness: more than half supported and at most this many claims not supported is level 4 at least (seed
    003: "4 = mostly supported, one or two minor unsupported")."""
    unsure_margin: float = 0.1
    """A claim whose P(supported) is within this below the verifier's threshold is "cannot tell" (idk)."""
    verifier: str | None = None
    """Path of a fitted verifier (JSON written by ``bench/fit_verifier.py``); None: the packaged one."""
    verified: bool = True
    """False: the checks' verdicts alone decide (``signals``), as before the verifier (for ablations)."""
    duplicate_threshold: float = 0.9
    """Rubric levels count near-duplicate statements (cosine >= this) once, so repetition cannot raise a level."""

    def __post_init__(self) -> None:
        self._check_numbers()
        self._check_options()

    def _check_numbers(self) -> None:
        """The number settings: finite, ordered thresholds, four increasing band edges (ValueError naming one)."""
        for name in _NUMBERS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{type(self).__name__}: {name} must be a finite number, got {value!r}")
        if not all(isinstance(e, (int, float)) and not isinstance(e, bool) and math.isfinite(e)
                   for e in self.level_bands):
            raise ValueError(f"{type(self).__name__}: level_bands must be 4 increasing finite numbers, got "
                             f"{self.level_bands!r}")
        if not (self.no_threshold <= self.yes_threshold and self.strict_no_threshold <= self.strict_yes_threshold):
            raise ValueError(f"{type(self).__name__}: each no threshold must be <= its yes threshold")
        if self.strict_no_threshold < self.no_threshold or self.strict_yes_threshold < self.yes_threshold:
            raise ValueError(f"{type(self).__name__}: strict thresholds must be >= the task thresholds (strict is "
                             "never more lenient)")
        if len(self.level_bands) != 4 or list(self.level_bands) != sorted(self.level_bands):
            raise ValueError(f"{type(self).__name__}: level_bands must be 4 increasing edges, got "
                             f"{self.level_bands!r}")

    def _check_options(self) -> None:
        """The other settings: margins, counts, the verifier's file and the caps (an error naming the setting)."""
        if isinstance(self.unsure_margin, bool) or not isinstance(self.unsure_margin, (int, float)) or not (
                0 <= self.unsure_margin < 1):
            raise ValueError(f"{type(self).__name__}: unsure_margin must be a number in [0, 1), got "
                             f"{self.unsure_margin!r}")
        if isinstance(self.minor_unsupported, bool) or not isinstance(self.minor_unsupported, int) or \
                self.minor_unsupported < 0:
            raise ValueError(f"{type(self).__name__}: minor_unsupported must be an int >= 0, got "
                             f"{self.minor_unsupported!r}")
        if not isinstance(self.verified, bool):
            raise TypeError(f"{type(self).__name__}: verified must be True or False, got {self.verified!r}")
        if self.verifier is not None and not (isinstance(self.verifier, str) and os.path.isfile(self.verifier)):
            raise ValueError(f"{type(self).__name__}: verifier must be the path of a fitted verifier file (JSON from "
                             f"bench/fit_verifier.py) or None, got {self.verifier!r}")
        if not (0 <= self.idk_margin and 0 <= self.content_share <= 1 and 1 <= self.contradiction_cap <= 5):
            raise ValueError(f"{type(self).__name__}: idk_margin >= 0, content_share in [0, 1] and "
                             "contradiction_cap in 1-5 are required")

    @property
    def name(self) -> str:
        """``heuristic(<encoder>)``."""
        return f"heuristic({self.sentence_model})"

    @property
    def statement_feature(self) -> Any:
        """The spaCy feature that holds each text's statements with their terms and facts."""
        return statement_feature(self.max_clause_words)

    def reads(self, metric: str) -> tuple[Reads, ...]:
        """Query terms and answer statements; the context's statements (faithfulness, context recall)."""
        statements = (self.statement_feature,)
        context = statements if metric in ("faithfulness", "context_recall") else ()
        request = (TERMS,) if metric in ("answer_relevancy", "rubric_answer_relevancy") else ()
        return (Reads(self.spacy_model, request=request, responses=statements, context=context,
                      encoder=self.sentence_model),)

    # -- the three questions --------------------------------------------------------------------------------
    def statements(self, texts: Sequence[str]) -> list[list[Statement]]:
        """Sentences, bullet items and clauses of long sentences, from the shared parse."""
        found = self._features(self.statement_feature, texts)
        return [[Statement(text, tuple(terms), resolved, Facts.of(facts)) for text, terms, resolved, facts in
                 value or ()] for value in found]

    def verdicts(self, cases: Sequence[tuple[str, Sequence[Statement]]],
                 mode: RelevancyMode) -> list[list[tuple[Verdict, str]]]:
        """Refusals and evasions "no"; else thresholded relevance to the query (strict: the stricter thresholds)."""
        low, high = ((self.no_threshold, self.yes_threshold) if mode == "task"
                     else (self.strict_no_threshold, self.strict_yes_threshold))
        model = rel.load_model()
        out = []
        for (query, found), scores, fit in zip(cases, self.relevance(cases), self.question_fit(cases), strict=True):
            judged: list[tuple[Verdict, str]] = []
            terms = (rel.content_words(query), rel.content_words(rel.last_line(query)))
            for statement, r, p in zip(found, scores, fit, strict=True):
                kind = checks.refusal(statement.text) or ("evasion" if rel.non_answer(statement.text) else None)
                verdict = verdict_of(r, low, high)
                if kind:
                    judged.append(("no", f"{kind}: the statement does not address the query"))
                    continue
                why = f"relevance {r:.3f} (no < {low:g} <= idk < {high:g} <= yes; {mode} mode)"
                if rel.short_typed_answer(query, statement):
                    judged.append(("yes", f"{why}; a short answer that gives what the question word asks for"))
                    continue
                if rel.filler(query, statement):
                    judged.append(("no", f"{why}; filler: generic words only, none of the query's"))
                    continue
                if rel.echo(query, statement):
                    judged.append(("no", f"{why}; echo: the question's words and generic words only"))
                    continue
                if verdict != "no" and p < model.cutoff:
                    verdict = "no"
                    why = f"{why}; P(answers the question) {p:.2f} < {model.cutoff:g}: {rel.OFF_QUESTION}"
                if mode == "strict" and verdict != "no":
                    indirect = self.direct_answer(query, terms, statement)
                    if indirect:
                        verdict, why = "no", f"{why}; not a direct answer: {indirect}"
                judged.append((verdict, why))
            out.append(judged)
        return out

    def question_fit(self, cases: Sequence[tuple[str, Sequence[Statement]]]) -> list[np.ndarray]:
        """Per case, each statement's P(it answers the question) by the packaged relevance model (``relevance.py``)."""
        pairs = [(rel.last_line(query), s) for query, found in cases for s in found]
        residual = [rel.residual_texts(q, s.matched_text) for q, s in pairs]
        vectors = self._embed([q for q, _ in pairs] + [s.matched_text for _, s in pairs]
                              + [x for r in residual for x in r])
        n = len(pairs)
        rows = [rel.features(q, s, float(vectors[k] @ vectors[n + k]),
                                    float(vectors[2 * n + 2 * k] @ vectors[2 * n + 2 * k + 1]))
                for k, (q, s) in enumerate(pairs)]
        p = rel.load_model().probability(np.array(rows)) if rows else np.zeros(0)
        out, offset = [], 0
        for _, found in cases:
            out.append(p[offset: offset + len(found)])
            offset += len(found)
        return out

    def direct_answer(self, query: str, query_terms: tuple[set[str], set[str]], statement: Statement) -> str | None:
        """Why a statement is not a direct answer to the query (None if it is one)."""
        return rel.not_direct(query, query_terms, statement, self.direct_share)

    def relevance(self, cases: Sequence[tuple[str, Sequence[Statement]]]) -> list[np.ndarray]:
        """Per case, each statement's relevance cos(s, q) + w * |T(s) & T(q)| / |T(q)| (best of query, last line)."""
        whole = self._relevance(cases)
        last = [(query.strip().splitlines()[-1] if query.strip() else query, found) for query, found in cases]
        multi = [i for i, (query, _) in enumerate(cases) if "\n" in query.strip()]
        if not multi:
            return whole
        for i, scores in zip(multi, self._relevance([last[i] for i in multi]), strict=True):
            whole[i] = np.maximum(whole[i], scores)
        return whole

    def _relevance(self, cases: Sequence[tuple[str, Sequence[Statement]]]) -> list[np.ndarray]:
        queries = [query for query, _ in cases]
        query_terms = self._terms(queries)
        statements = [[self._with_terms(s) for s in found] for _, found in cases]
        vectors = self._embed(queries + [s.matched_text for found in statements for s in found])
        query_vectors, offset, out = vectors[: len(queries)], len(queries), []
        for k, found in enumerate(statements):
            own = vectors[offset: offset + len(found)]
            offset += len(found)
            overlap = overlap_matrix([query_terms[k]], [s.terms or () for s in found])[0]
            out.append(own @ query_vectors[k] + self.overlap_weight * overlap if found else np.zeros(0))
        return out

    def rubric(self, metric: RubricName, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """A level from the share of supported statements, covered facts or relevant (yes or idk) statements."""
        foreign = [foreign_script(" ".join([c.output, c.question or "", *_raw(c)])) for c in cases]
        if any(foreign):
            warnings.warn(f"{self.name}: {sum(foreign)} of {len(cases)} case(s) are mostly in a script other than "
                          "Latin and are not judged (NaN): the heuristic judge reads English; use an LLM judge "
                          "(LlmJudge) for other languages", UserWarning, stacklevel=4)
            kept = [c for c, f in zip(cases, foreign, strict=True) if not f]
            judged = iter(self.rubric(metric, kept) if kept else [])
            return [RubricJudgment(None, FOREIGN_REASON, (), 0.0) if f else next(judged) for f in foreign]
        if metric == "answer_relevancy":
            return self._relevancy_levels(cases)
        if metric == "faithfulness":
            return [self._faithfulness_level(units) for units in self.support(cases)]
        return [recall_level(units, self.level_bands) for units in self.coverage(cases)]

    # -- faithfulness ---------------------------------------------------------------------------------------------
    def signals(self, cases: Sequence[RubricCase]) -> list[list[dict[str, Any]]]:
        """Per case, each claim (no refusals, hedges, signposts) with the checks' verdict, best match and reasons."""
        outputs = [[s for s in found if not (checks.refusal(s.text) or is_hedge(s.text) or is_signpost(s.text))]
                   for found in self._distinct(self.statements([c.output for c in cases]))]
        contexts = [self._reference_units(c.reference) for c in cases]
        out = []
        for case, claims, units, (scores, best, every) in zip(cases, outputs, contexts,
                                                             match(outputs, contexts, self._embed,
                                                                   self.overlap_weight), strict=True):
            pool = checks.Pool.of([u.text for u, _ in units], [u.facts or Facts() for u, _ in units], _raw(case))
            rows = []
            for k, (claim, score, b) in enumerate(zip(claims, scores, best, strict=True)):
                matched, passage = units[b] if units else (Statement(""), -1)
                where = f"passage {passage + 1}"
                others = tuple((u.facts or Facts(), float(every[k, j])) for j, (u, _) in enumerate(units) if j != b)
                window = tuple((u.facts or Facts(), float(every[k, j])) for j, (u, p) in enumerate(units)
                               if p == passage and j != b)
                contradicted, unsupported, undecided = self._findings(claim, matched, float(score), pool, where,
                                                                      "the statement", others, window)
                failed = bool(contradicted or unsupported)
                absent = checks.missing_content(claim.facts or Facts(), pool, self.content_share) \
                    if score < self.support_threshold else []
                verdict, unsupported = claim_verdict(float(score), contradicted, unsupported, undecided, absent,
                                                     self.support_threshold, self.idk_margin)
                rows.append({"statement": claim.text, "verdict": verdict, "best_match": matched.text,
                             "passage": passage + 1 if units else None, "score": round(float(score), 4),
                             "reasons": contradicted + unsupported, "ok": verdict == "supported",
                             "checks_failed": failed})
            out.append(rows)
        return out

    def _findings(self, claim: Statement, matched: Statement, score: float, pool: checks.Pool, where: str,
                  own: str, others: Sequence[tuple[Facts, float]] = (), window: Sequence[tuple[Facts, float]] = ()
                  ) -> tuple[list[str], list[str], list[str]]:
        return findings(claim, matched, score, pool, where, own, others, self.check_threshold,
                        self.support_threshold, self.idk_margin, window)

    def _faithfulness_level(self, rows: list[dict[str, Any]]) -> RubricJudgment:  # also bench/fit_verifier.py
        return faithfulness_level(rows, self.level_bands, self.minor_unsupported, self.contradiction_cap)

    def support(self, cases: Sequence[RubricCase]) -> list[list[dict[str, Any]]]:
        """Per case, each claim with the verifier's verdict, P(supported), P(contradicted) and its best evidence."""
        found = self.signals(cases)
        self._verify([(row, _raw(case)) for case, rows in zip(cases, found, strict=True) for row in rows])
        return found

    def _verify(self, flat: Sequence[tuple[dict[str, Any], str | tuple[str, ...]]]) -> None:
        """Each (row, its context) decided by the verifier's P(supported), P(contradicted) (if ``verified``)."""
        if not flat or not self.verified:
            return
        model = load_verifier(self.verifier)
        supported, contradicted = model.probabilities(np.array([features(row, raw) for row, raw in flat]))
        for (row, _), p, q in zip(flat, supported, contradicted, strict=True):
            _verify(row, float(p), float(q), model.threshold, model.contradiction_threshold, self.unsure_margin)

    # -- context recall -------------------------------------------------------------------------------------------
    def coverage(self, cases: Sequence[RubricCase]) -> list[list[dict[str, Any]]]:
        """Per case, each reference fact with its verdict, best match in the answer and reasons.

        A fact a check fails (contradicted; a name, number or most content words the answer lacks) keeps the checks'
        verdict; the verifier decides the others (P(supported) of the fact against the answer) in place of the
        match thresholds.
        """
        facts = [self._facts(c.reference) for c in cases]
        answers = self.statements([c.output for c in cases])
        out, open_rows = [], []
        for case, found, answer in zip(cases, facts, answers, strict=True):
            pool = checks.Pool.of([s.text for s in answer], [s.facts or Facts() for s in answer])
            scores, best = credited(found, answer, self._embed, self.overlap_weight)
            bounds = np.cumsum([0, *(len(fact_units) for _, fact_units in found)])
            rows = []
            for (text, fact_units), a, b in zip(found, bounds[:-1], bounds[1:], strict=True):
                k = int(a + np.argmax(scores[a:b]))
                score = float(scores[k])
                matched = answer[best[k]] if answer else Statement("")
                merged = merge([u.facts or Facts() for u in fact_units])
                contradicted, missing, _ = self._findings(Statement(text, facts=merged), matched, score, pool,
                                                          "the answer", "the fact")
                absent = checks.missing_content(merged, pool, self.content_share)
                if absent:
                    missing.append(f"content words missing from the answer: {checks.describe(absent)}")
                failed = bool(contradicted or missing)
                verdict, missing = fact_verdict(score, contradicted, missing, self.recall_threshold, self.idk_margin)
                rows.append({"reference fact": text, "verdict": verdict, "best_match": matched.text,
                             "score": round(score, 4), "reasons": contradicted + missing, "ok": verdict == "covered",
                             "checks_failed": failed})
                if not failed:
                    open_rows.append((rows[-1], case.output))
            out.append(rows)
        self._verify(open_rows)
        return out

    # -- answer relevancy -------------------------------------------------------------------------------------
    def _relevancy_levels(self, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """Seed 003's answer-relevancy scale from the task-mode verdicts of the distinct statements."""
        every = self.statements([c.output for c in cases])
        statements = self._distinct(every)
        verdicts = self.verdicts([(c.question or "", s) for c, s in zip(cases, statements, strict=True)], "task")
        return [relevancy_judgment(case.question or "", found, judged, len(all_found) - len(found),
                                       self.direct_share)
                for case, found, judged, all_found in zip(cases, statements, verdicts, every, strict=True)]

    # -- RAGAS / DeepEval context recall and precision --------------------------------------------------------------
    def attributions(self, cases: Sequence[tuple[str, tuple[str, ...]]]) -> list[list[tuple[str, Verdict, str]]]:
        """Each statement of the reference answer: "yes" if the passages support it (``support``), else "idk" / "no"."""
        rows = self.support([RubricCase(answer, reference=passages) for answer, passages in cases])
        return [[(r["statement"], _ATTRIBUTED[r["verdict"]], "; ".join(r["reasons"]) or
                  f"supported by passage {r['passage']} (match {r['score']:.3f})") for r in found] for found in rows]

    def node_relevance(self, cases: Sequence[tuple[str, str, tuple[str, ...]]]) -> list[list[tuple[Verdict, str]]]:
        """Each passage: "yes" if it supports a statement of the reference answer, "idk" if nearly, else "no"."""
        flat = [RubricCase(answer, reference=(passage,)) for _, answer, passages in cases for passage in passages]
        rows = iter(self.support(flat))
        out = []
        for _, _, passages in cases:
            judged: list[tuple[Verdict, str]] = []
            for _ in passages:
                found = next(rows)
                yes = [r["statement"] for r in found if r["verdict"] == "supported"]
                unsure = [r["statement"] for r in found if r["verdict"] == "idk"]
                judged.append(("yes", f"supports '{yes[0]}'") if yes else
                              ("idk", f"nearly supports '{unsure[0]}' (cannot tell)") if unsure else
                              ("no", "supports no statement of the reference answer"))
            out.append(judged)
        return out

    # -- helpers ------------------------------------------------------------------------------------------------
    def _reference_units(self, reference: str | tuple[str, ...] | None) -> Units:
        """The statements of a context text or of every passage of a list, with their passage index."""
        if reference is None:
            return []
        texts = [reference] if isinstance(reference, str) else list(reference)
        return [(s, k) for k, found in enumerate(self.statements(texts)) for s in found]

    def _facts(self, reference: str | tuple[str, ...] | None) -> list[tuple[str, list[Statement]]]:
        """(fact, its statements): a list's non-blank items; a text split at ';' and line breaks, then statements."""
        if reference is None:
            return []
        if isinstance(reference, str):
            pieces = [p.strip() for p in re.split(r"[;\n]", reference) if has_statement_text(p)]
            out: list[tuple[str, list[Statement]]] = []
            for piece, found in zip(pieces, self.statements(pieces), strict=True):
                out += [(s.text, [s]) for s in found] if found else [(piece, [Statement(piece, ())])]
            return out
        items = [r for r in reference if has_statement_text(r)]
        return [(item, found or [Statement(item, ())]) for item, found in
                zip(items, self.statements(items), strict=True)]

    def _distinct(self, groups: list[list[Statement]]) -> list[list[Statement]]:
        """Each group without near-duplicate statements (cosine >= ``duplicate_threshold`` to an earlier one)."""
        return distinct(groups, self._embed, self.duplicate_threshold)

    def _with_terms(self, statement: Statement) -> Statement:
        if statement.terms is not None:
            return statement
        return statement._replace(terms=self._terms([statement.text])[0])

    def _terms(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        return [tuple(t or ()) for t in self._features(TERMS, texts)]

    def _features(self, feature: Any, texts: Sequence[str]) -> list[Any]:
        """A feature of each text from the shared analysis, asked for in chunks of at most ``max_docs`` texts.

        (An in-process parse of more texts than the analysis keeps Docs for loses the first ones on this branch.)
        """
        analysis, texts = default_analysis(), list(texts)
        step = analysis.max_docs
        return [v for start in range(0, len(texts), step)
                for v in analysis.features(self.spacy_model, feature, texts[start:start + step])]

    def _embed(self, strings: Sequence[str]) -> np.ndarray:
        return default_analysis().embed(list(strings), self.sentence_model)


_NUMBERS = ("overlap_weight", "no_threshold", "yes_threshold", "strict_no_threshold", "strict_yes_threshold",
            "support_threshold", "recall_threshold", "idk_margin", "check_threshold", "content_share", "direct_share",
            "duplicate_threshold")
"""The judge's number parameters: each a finite number (not a bool, a text or NaN)."""
_ATTRIBUTED: dict[str, Verdict] = {"supported": "yes", "idk": "idk", "unsupported": "no", "contradicted": "no"}
"""Support verdict -> attribution verdict (ContextualRecall)."""


def _raw(case: RubricCase) -> tuple[str, ...]:
    """The raw passages of a case's reference (a text or a list of passages)."""
    reference = case.reference
    return () if reference is None else (reference,) if isinstance(reference, str) else tuple(reference)


@dataclass(frozen=True, kw_only=True)
class OfflineJudge(HeuristicJudge):
    """Deprecated name of ``HeuristicJudge`` (same parameters and behaviour)."""

    def __post_init__(self) -> None:
        warnings.warn("OfflineJudge is deprecated: use HeuristicJudge (same parameters)", DeprecationWarning,
                      stacklevel=3)
        super().__post_init__()


HEURISTIC_JUDGE = HeuristicJudge()
"""The heuristic judge with its default thresholds (README "Thresholds of the heuristic judge")."""
OFFLINE_JUDGE = HEURISTIC_JUDGE
"""Deprecated name of ``HEURISTIC_JUDGE``."""
