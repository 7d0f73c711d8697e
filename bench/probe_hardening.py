"""Adversarial probes of issue 8: bad, odd or large input; prints one table row per kind of probe.

Run from the repository root: ``HF_HUB_OFFLINE=1 python bench/probe_hardening.py [--verbose]``. Each probe states the
contract (a defined result, or an error of a documented type whose message says what to fix, nothing written half,
no wait beyond its bound); a probe that breaks it is classified as a crash (unexpected exception), an unclear error,
a silently wrong result, lost output, a hang (over the probe's time limit) or a security problem (a spec that
imports a module, writes a path or builds values without bound). ``PROBE_ROOT=/other/checkout`` probes another
checkout with this script's probes (the before/after table of issue 20).
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import io
import json
import math
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(os.environ.get("PROBE_ROOT") or Path(__file__).resolve().parents[1])
"""The checkout whose package is probed (``PROBE_ROOT=/path/to/other/checkout`` probes another one)."""
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from ir_rag_axioms import (  # noqa: E402
    CLAR2,
    COH1,
    CONS2,
    CORR1,
    COV1,
    AxiomaticReranker,
    GenerationRequest,
    GenerationResponse,
    parse,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
if not DATA.is_dir():
    DATA = Path("/work/shared/data")
CROWD = DATA / "trec-rag-24-crowd"
NUGGETS = DATA / "trec-rag-24-nuggets"

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])
GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]

PROBES: list[tuple[str, str, Callable[[], None], float]] = []


class Wrong(AssertionError):
    """The probe got a result, but a wrong one (or output was lost)."""


class Unclear(AssertionError):
    """The probe got an error of the right kind whose message does not say what to fix."""


class Hang(AssertionError):
    """The probe ran over its time limit."""


class Lost(Wrong):
    """Output was lost or overwritten, or the work ran before a failure it could have reported first."""


class Insecure(Wrong):
    """A spec or setting reached beyond what it names: code imported, a path written, memory without bound."""


def probe(kind: str, timeout: float = 60.0) -> Callable[[Callable[[], None]], Callable[[], None]]:
    """Register a probe of ``kind``."""
    def decorate(fn: Callable[[], None]) -> Callable[[], None]:
        PROBES.append((kind, fn.__name__, fn, timeout))
        return fn
    return decorate


def refuses(fn: Callable[[], object], types: type | tuple[type, ...], *words: str) -> None:
    """``fn`` must raise ``types`` with every word of ``words`` in its message (case-insensitive)."""
    try:
        result = fn()
    except types as error:
        message = str(error).lower()
        missing = [w for w in words if w.lower() not in message]
        if missing:
            raise Unclear(f"message lacks {missing}: {error}") from error
        return
    raise Wrong(f"accepted, returned {result!r:.200}")


def same(a: object, b: object) -> None:
    if not np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True):
        raise Wrong(f"{a!r:.200} != {b!r:.200}")


def abstains(matrix: np.ndarray, index: int) -> None:
    if matrix[index].any() or matrix[:, index].any() or not np.isfinite(matrix).all():
        raise Wrong(f"response {index} does not abstain: {matrix.tolist()}")


@contextlib.contextmanager
def env(**values: str) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def cli(*argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; (exit code, stdout, stderr)."""
    from ir_rag_axioms import cli as module

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = module.main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def cli_subprocess(*argv: str, env_vars: dict[str, str] | None = None, fsize: int | None = None,
                   timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the CLI in a fresh process (optionally with a file size limit: a disk that fills up)."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", **(env_vars or {})}
    return subprocess.run([sys.executable, "-m", "ir_rag_axioms.cli", *argv], capture_output=True, text=True,
                          env=environment, timeout=timeout, preexec_fn=limit,
                          cwd=ROOT)


EVAL = ("evaluate", "--data", str(CROWD), "--oracle", "crowd:overall", "--topics", "1", "--no-figures", "--quiet")


# == data model =========================================================================================
@probe("data model")
def numpy_string_response() -> None:
    r = GenerationResponse("n", np.str_("Cats purr [1]. Really."))
    if type(r.text) is not str:
        raise Wrong(f"text kept as {type(r.text).__name__}")
    CORR1.preferences(REQUEST, [*GOOD, r])


@probe("data model")
def numpy_array_context() -> None:
    request = GenerationRequest("q", "Why?", np.array(["Cats purr.", "Lions roar."]))
    if request.context != ("Cats purr.", "Lions roar."):
        raise Wrong(f"context {request.context!r}")
    CONS2.preferences(request, GOOD)


@probe("data model")
def dict_context_refused() -> None:
    refuses(lambda: GenerationRequest("q", "Why?", {"Cats purr.": 1, "Lions roar.": 2}), TypeError, "context")


@probe("data model")
def set_context_refused() -> None:
    refuses(lambda: GenerationRequest("q", "Why?", {"Cats purr.", "Lions roar."}), TypeError, "context")


@probe("data model")
def bytes_text_refused() -> None:
    refuses(lambda: GenerationResponse("x", b"Cats purr."), TypeError, "string")


@probe("data model")
def bytes_context_refused() -> None:
    refuses(lambda: GenerationRequest("q", "Why?", b"Cats purr."), TypeError, "context")


@probe("data model")
def lone_surrogate_text() -> None:
    r = GenerationResponse("s", "Cats \ud800 purr.")
    r.text.encode("utf-8")  # must be encodable (replaced) or refused above
    CORR1.preferences(REQUEST, [*GOOD, r])


@probe("data model")
def bare_response_refused() -> None:
    refuses(lambda: COH1.preferences(REQUEST, GOOD[0]), TypeError, "list")


@probe("data model")
def nan_id_refused() -> None:
    refuses(lambda: GenerationResponse(float("nan"), "Cats purr."), (TypeError, ValueError), "id")


@probe("data model")
def none_id_refused() -> None:
    refuses(lambda: GenerationRequest(None, "Why?"), (TypeError, ValueError), "id")


@probe("data model")
def pd_na_text_abstains() -> None:
    r = GenerationResponse("na", pd.NA)
    abstains(COH1.preferences(REQUEST, [*GOOD, r]), 2)


@probe("data model")
def numpy_float_nan_text_abstains() -> None:
    r = GenerationResponse("na", np.float32("nan"))
    abstains(COH1.preferences(REQUEST, [*GOOD, r]), 2)


@probe("data model")
def str_subclass_text() -> None:
    class Text(str):
        pass
    r = GenerationResponse(Text("x"), Text("Cats purr [1]."))
    if type(r.text) is not str or type(r.id) is not str:
        raise Wrong("str subclass kept")


@probe("data model")
def series_context_with_na() -> None:
    request = GenerationRequest("q", "Why?", pd.Series(["Cats purr.", pd.NA, None]))
    if request.context != ("Cats purr.",):
        raise Wrong(f"context {request.context!r}")


@probe("data model")
def rank_string_refused() -> None:
    refuses(lambda: GenerationResponse("a", "t", rank="first"), TypeError, "rank")


@probe("data model")
def score_bool_refused() -> None:
    refuses(lambda: GenerationResponse("a", "t", score=True), TypeError, "score")


@probe("data model")
def blank_id_refused() -> None:
    refuses(lambda: GenerationResponse("  ", "t"), ValueError, "id")


# == feature axioms on undefined values ==================================================================
def _every_parsed_axiom():
    from ir_rag_axioms.axioms import registry
    from ir_rag_axioms.axioms.base import FeatureAxiom
    skip = {"CLAR1", "ORIG", "RANDOM", "NOP"}
    return [registry.get(n) for n in registry.names() if n not in skip and not n.startswith(("Q", "Arg"))
            and isinstance(registry.get(n), FeatureAxiom)]


for _text in ("...", "?", ":)", "!!!", "-- --", "[1]", "1 2 3", "\u200b\u200b", "🙂🙂🙂", "e.g.", "\x00"):
    def _undefined(text: str = _text) -> None:
        responses = [*GOOD, GenerationResponse("odd", text)]
        for axiom in _every_parsed_axiom():
            matrix = axiom.preferences(REQUEST, responses)
            if matrix.shape != (3, 3) or not np.isfinite(matrix).all():
                raise Wrong(f"{axiom!r}: {matrix.tolist()}")
    _undefined.__name__ = f"feature_axioms_on_{_text!r}"
    probe("undefined values")(_undefined)


@probe("undefined values")
def clar2_punctuation_abstains() -> None:
    abstains(CLAR2.preferences(REQUEST, [*GOOD, GenerationResponse("p", "...")]), 2)


@probe("undefined values")
def term_axioms_on_punctuation() -> None:
    from ir_rag_axioms.axioms import registry
    responses = [*GOOD, GenerationResponse("p", "?!")]
    for name in registry.names():
        if name.startswith("GEN_") and "Arg" not in name:
            matrix = registry.get(name).preferences(REQUEST, responses)
            if not np.isfinite(matrix).all():
                raise Wrong(f"{name}: {matrix.tolist()}")


@probe("undefined values")
def punctuation_query_and_context() -> None:
    from ir_rag_axioms.axioms import registry
    request = GenerationRequest("q", "?", ["...", "?!"])
    responses = [GenerationResponse("a", "..."), GenerationResponse("b", "Cats purr."), GenerationResponse("c", ":)")]
    for name in registry.names():
        if name in ("CLAR1", "CROWD", "NUGGET", "LLM_ORIG") or "Arg" in name:
            continue
        matrix = registry.get(name).preferences(request, responses)
        if not np.isfinite(matrix).all() or not np.array_equal(matrix, -matrix.T):
            raise Wrong(f"{name}: {matrix.tolist()}")


# == axiom parameters ===================================================================================
@probe("axiom parameters")
def bool_from_string_refused() -> None:
    refuses(lambda: COH1(higher_is_better="no"), TypeError, "higher_is_better")


@probe("axiom parameters")
def positional_refused() -> None:
    refuses(lambda: COH1(0.5), TypeError, "keyword")


@probe("axiom parameters")
def negative_margin_refused() -> None:
    refuses(lambda: COH1(margin_fraction=-1), ValueError, "margin_fraction")


@probe("axiom parameters")
def nan_margin_refused() -> None:
    refuses(lambda: COH1(margin_fraction=float("nan")), ValueError, "margin_fraction")


@probe("axiom parameters")
def unknown_aspect_extraction_refused() -> None:
    refuses(lambda: COV1(aspect_extraction="verbs"), ValueError, "aspect_extraction", "entities")


@probe("axiom parameters")
def unknown_termset_refused() -> None:
    from ir_rag_axioms import CONS3
    refuses(lambda: CONS3(negation_termset="klingon"), ValueError, "negation_termset", "en")


@probe("axiom parameters")
def unknown_oracle_choice_refused() -> None:
    from ir_rag_axioms.axioms.oracles import NuggetOracle
    refuses(lambda: NuggetOracle(score_type="best"), ValueError, "score_type", "vital")


@probe("axiom parameters")
def unknown_duplicates_refused() -> None:
    from ir_rag_axioms.axioms.oracles import CrowdOracle
    refuses(lambda: CrowdOracle(duplicates="first"), ValueError, "duplicates", "mean")


@probe("axiom parameters")
def citation_pattern_invalid_regex() -> None:
    refuses(lambda: CORR1(citation_pattern="[").preferences(REQUEST, GOOD), ValueError, "citation_pattern")


@probe("axiom parameters")
def random_seed_wrong_type() -> None:
    from ir_rag_axioms.axioms import registry
    refuses(lambda: registry.get("RANDOM")(seed="x"), TypeError, "seed")


@probe("axiom parameters")
def majority_minimum_votes_nan() -> None:
    from ir_rag_axioms.axioms.combinators import MajorityVote
    refuses(lambda: MajorityVote((COH1, CORR1), minimum_votes=float("nan")), ValueError, "minimum_votes")


@probe("axiom parameters")
def len_precondition_negative() -> None:
    refuses(lambda: parse("TFC1(precondition=LEN(margin_fraction=-0.5))"), ValueError, "margin_fraction")


@probe("axiom parameters")
def bm25_b_out_of_range() -> None:
    refuses(lambda: parse("GEN_TFC3(statistics=ContextStatistics(b=5.0))"), ValueError, "b")


@probe("axiom parameters")
def asl_negative_length() -> None:
    refuses(lambda: parse("aSL(min_sentence_length=-3)"), ValueError, "min_sentence_length")


@probe("axiom parameters")
def similarity_wrong_type() -> None:
    refuses(lambda: parse("REG(similarity=3)"), TypeError, "similarity")


@probe("axiom parameters")
def reranker_nan_weight() -> None:
    refuses(lambda: AxiomaticReranker(CORR1, weights=[float("nan")]), ValueError, "weights")


@probe("axiom parameters")
def reranker_string_seed() -> None:
    refuses(lambda: AxiomaticReranker(CORR1, seed="x"), ValueError, "seed")


# == expressions ========================================================================================
@probe("expressions")
def long_sum_parses() -> None:
    axiom = parse(" + ".join(["COH1"] * 1000))
    if len(axiom.axioms) != 1000:
        raise Wrong("not flat")


@probe("expressions")
def long_mixed_chain_parses() -> None:
    parse(" - ".join(["COH1", "CORR1"] * 400))


@probe("expressions")
def long_cascade_parses() -> None:
    parse(" | ".join(["COH1"] * 1000))


@probe("expressions")
def long_product_repr() -> None:
    axiom = COH1
    for _ in range(500):
        axiom = axiom * CORR1
    repr(axiom)


@probe("expressions")
def long_negation_chain() -> None:
    axiom = COH1
    for _ in range(3000):
        axiom = -axiom
    repr(axiom)
    axiom.preferences(REQUEST, GOOD)


@probe("expressions")
def deeply_nested_parentheses() -> None:
    refuses(lambda: parse("(" * 500 + "COH1" + ")" * 500), ValueError, "axiom spec")


@probe("expressions")
def huge_expression_refused() -> None:
    refuses(lambda: parse(" + ".join(["COH1"] * 200_000)), ValueError, "limit")


@probe("expressions")
def positional_in_expression() -> None:
    refuses(lambda: parse("COH1(0.5)"), (TypeError, ValueError), "keyword")


@probe("expressions")
def code_is_not_run() -> None:
    refuses(lambda: parse("__import__('os').system('true')"), (ValueError, KeyError), "")


@probe("expressions")
def unknown_name_in_expression() -> None:
    refuses(lambda: parse("COH9"), (ValueError, KeyError), "unknown axiom")


@probe("expressions")
def sum_of_170_repr_round_trip() -> None:
    axiom = COH1
    for k in range(170):
        axiom = axiom + (CORR1 if k % 2 else COH1)
    if repr(parse(repr(axiom))) != repr(axiom):
        raise Wrong("repr does not parse back")


@probe("expressions")
def number_minus_axiom() -> None:
    axiom = parse("2 - COH1")
    if repr(parse(repr(axiom))) != repr(axiom):
        raise Wrong(repr(axiom))


@probe("expressions")
def bitwise_between_numbers_refused() -> None:
    refuses(lambda: parse("COH1 + (2 | 1)"), ValueError, "cannot combine")


@probe("expressions")
def modulo_by_zero_refused() -> None:
    refuses(lambda: parse("COH1 + 2 % (2 - 2)"), ValueError, "cannot combine")


@probe("expressions")
def double_negative_constant_round_trip() -> None:
    axiom = parse("COH1 - -2")
    if repr(parse(repr(axiom))) != repr(axiom):
        raise Wrong(repr(axiom))


@probe("expressions")
def alternating_operators_nested_too_deep() -> None:
    spec = "COH1"
    for _ in range(300):
        spec = f"({spec} + CORR1) * COH1"
    refuses(lambda: parse(spec), ValueError, "limit")


# == environment ========================================================================================
def _import_with(**values: str) -> subprocess.CompletedProcess:
    """Run COV1 (spaCy, the encoder, the cache if set) and CLAR1's URL lookup in a fresh process with ``values``."""
    code = ("import ir_rag_axioms\n"
            "from ir_rag_axioms import CLAR1, COV3, GenerationRequest as Q, GenerationResponse as R\n"
            "from ir_rag_axioms.analysis.resources import languagetool_url, ToolUnavailableError\n"
            "from ir_rag_axioms.datasets.crowd import load_crowd_topics\n"
            f"load_crowd_topics({str(CROWD)!r})\nlanguagetool_url()\n"
            "try:\n    CLAR1(languagetool_url='http://127.0.0.1:1').prefetch([], ir_rag_axioms.default_analysis())\n"
            "except ToolUnavailableError:\n    pass\n"
            "COV3.preferences(Q('q','Why do cats purr?'), [R('a','Cats purr. Yes.'), R('b','Dogs bark.')])\n")
    with tempfile.TemporaryDirectory() as cache:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "IR_RAG_AXIOMS_CACHE": cache, **values},
                              cwd=ROOT, timeout=120)


for _name, _value in (("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "lots"), ("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "-5"),
                      ("IR_RAG_AXIOMS_TORCH_THREADS", "two"), ("IR_RAG_AXIOMS_WORKERS", "1.5"),
                      ("IR_RAG_AXIOMS_CACHE_MAX_BYTES", "big"), ("IR_RAG_AXIOMS_LANGUAGETOOL", "not a url"),
                      ("IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT", "soon"), ("IR_RAG_AXIOMS_ACCEPT_MODIFIED_DATA", "maybe")):
    def _env(name: str = _name, value: str = _value) -> None:
        result = _import_with(**{name: value})
        if result.returncode == 0:
            raise Wrong(f"{name}={value!r} accepted")
        last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
        if name not in last:
            raise Unclear(last)
    _env.__name__ = f"env_{_name}={_value!r}"
    probe("environment", 120)(_env)


# == frames =============================================================================================
def _frame(**columns: object) -> pd.DataFrame:
    base = {"qid": ["1", "1"], "query": ["Why do cats purr?"] * 2, "docno": ["a", "b"],
            "text": [GOOD[0].text, GOOD[1].text]}
    base.update(columns)
    return pd.DataFrame(base)


@probe("frames")
def nan_qid_refused() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(qid=["1", float("nan")])), ValueError, "qid")


@probe("frames")
def na_docno_refused() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(docno=pd.array(["a", pd.NA], dtype="string"))),
            ValueError, "docno")


@probe("frames")
def none_qid_refused() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(qid=[None, "1"])), ValueError, "qid")


@probe("frames")
def string_dtype_na_text_abstains() -> None:
    frame = _frame(qid=["1"] * 3, query=["Why?"] * 3, docno=["a", "b", "c"],
                   text=pd.array([GOOD[0].text, GOOD[1].text, pd.NA], dtype="string"))
    out = AxiomaticReranker(CORR1)(frame)
    if len(out) != 3:
        raise Wrong("rows lost")


@probe("frames")
def numeric_text_column() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(text=[1.5, 2.5])), TypeError, "text")


@probe("frames")
def mixed_int_str_qids() -> None:
    frame = _frame(qid=[1, "1"])
    out = AxiomaticReranker(CORR1)(frame)
    if len(out) != 2:
        raise Wrong("rows lost")


@probe("frames")
def dict_context_cell_refused() -> None:
    frame = _frame(context=[{"Cats purr.": 1}, {"Cats purr.": 1}])
    refuses(lambda: AxiomaticReranker(CONS2)(frame), TypeError, "context")


@probe("frames")
def categorical_qid() -> None:
    out = AxiomaticReranker(CORR1)(_frame(qid=pd.Categorical(["1", "1"])))
    if len(out) != 2:
        raise Wrong("rows lost")


@probe("frames")
def na_query_abstains() -> None:
    out = AxiomaticReranker(CORR1)(_frame(query=pd.array([pd.NA, pd.NA], dtype="string")))
    if len(out) != 2:
        raise Wrong("rows lost")


@probe("frames")
def second_tie_breaker_refused() -> None:
    refuses(lambda: AxiomaticReranker(COH1, tie_breaker=[CORR1, CONS2]), (TypeError, ValueError), "tie_breaker")


@probe("frames")
def write_trec_run_whitespace_ids() -> None:
    from ir_rag_axioms.datasets.runs import write_trec_run
    with tempfile.TemporaryDirectory() as tmp:
        frame = pd.DataFrame({"qid": ["1", "1"], "docno": ["a b", "c\n1 Q0 evil 1 99 x"], "score": [2.0, 1.0]})
        refuses(lambda: write_trec_run(frame, Path(tmp) / "run.txt"), ValueError, "docno")


@probe("frames")
def write_trec_run_empty_qid() -> None:
    from ir_rag_axioms.datasets.runs import write_trec_run
    with tempfile.TemporaryDirectory() as tmp:
        frame = pd.DataFrame({"qid": ["", "1"], "docno": ["a", "b"], "score": [2.0, 1.0]})
        refuses(lambda: write_trec_run(frame, Path(tmp) / "run.txt"), ValueError, "qid")


@probe("frames")
def responses_frame_nan_qid() -> None:
    from ir_rag_axioms.datasets.runs import responses_frame
    refuses(lambda: responses_frame([{"qid": float("nan"), "query": "q", "docno": "a", "text": "t"}]),
            ValueError, "qid")


@probe("frames")
def preferences_transformer_na_docno() -> None:
    from ir_rag_axioms import AxiomaticPreferences
    frame = _frame(docno=["a", None])
    refuses(lambda: AxiomaticPreferences(CORR1)(frame), ValueError, "docno")


@probe("frames")
def features_transformer_na_text() -> None:
    from ir_rag_axioms import AxiomFeatures
    out = AxiomFeatures([CORR1, COH1])(_frame(text=pd.array([GOOD[0].text, pd.NA], dtype="string")))
    if len(out) != 2:
        raise Wrong("rows lost")


@probe("frames")
def string_rank_column() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(rank=["first", "second"])), TypeError, "rank")


@probe("frames")
def integer_docnos() -> None:
    out = AxiomaticReranker(CORR1)(_frame(docno=[1, 2]))
    if sorted(out["docno"].tolist()) != [1, 2]:
        raise Wrong("docnos changed")


# == matrices and aggregation ===========================================================================
@probe("aggregation")
def bradley_terry_nan_prior() -> None:
    from ir_rag_axioms.aggregation import bradley_terry
    refuses(lambda: bradley_terry(np.array([[0, 1], [-1, 0.0]]), prior=float("nan")), ValueError, "prior")


@probe("aggregation")
def bradley_terry_inf_prior() -> None:
    from ir_rag_axioms.aggregation import bradley_terry
    refuses(lambda: bradley_terry(np.array([[0, 1], [-1, 0.0]]), prior=float("inf")), ValueError, "prior")


@probe("aggregation")
def nan_in_preferences_abstains() -> None:
    from ir_rag_axioms.aggregation import aggregate
    for method in ("borda", "copeland", "kwiksort", "bradley_terry"):
        order = aggregate(np.array([[0, np.nan, 1], [np.nan, 0.0, np.inf], [-1, -np.inf, 0]]), method)
        if sorted(order.tolist()) != [0, 1, 2]:
            raise Wrong(f"{method}: {order}")


@probe("aggregation")
def nan_weights() -> None:
    from ir_rag_axioms.aggregation import aggregate
    refuses(lambda: aggregate(np.array([[[0, 1], [-1, 0.0]]]), "borda", [float("nan")]), ValueError, "weight")


@probe("aggregation")
def evaluation_nan_matrix_abstains() -> None:
    from ir_rag_axioms.evaluation import evaluate_preferences
    scores = evaluate_preferences([np.array([[0, np.nan], [np.nan, 0.0]])], [np.array([[0, 1], [-1, 0.0]])])
    if scores["decisiveness"] != 0.0 or scores["effectiveness"] != 0.0:
        raise Wrong(f"{scores}")


@probe("aggregation")
def evaluation_shape_mismatch() -> None:
    from ir_rag_axioms.evaluation import evaluate_preferences
    refuses(lambda: evaluate_preferences([np.zeros((2, 2))], [np.zeros((3, 3))]), ValueError, "shape")


@probe("aggregation")
def bootstrap_absurd_samples() -> None:
    from ir_rag_axioms.evaluation import evaluation_table
    m = [np.array([[0, 1], [-1, 0.0]])]
    refuses(lambda: evaluation_table({"A": m}, m, samples=10**9), ValueError, "samples")


# == files ==============================================================================================
def _gz(path: Path, lines: list[str]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return path


def _ratings(rows: list[dict]) -> list[str]:
    base = {"query_id": "t", "response_a": "r1", "response_b": "r2", "quality_overall_p_a": 0.7,
            "quality_overall_p_b": 0.2, "quality_overall_p_n": 0.1}
    return [json.dumps({**base, **row}) for row in rows]


def _crowd_with(rows: list[dict]) -> Callable[[], object]:
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "ratings.jsonl.gz", _ratings(rows))
    return lambda: load_crowd_ratings(tmp)


@probe("files")
def ratings_negative_probability() -> None:
    refuses(_crowd_with([{"quality_overall_p_a": -0.5}]), ValueError, "line 1", "quality_overall_p_a")


@probe("files")
def ratings_string_probability() -> None:
    refuses(_crowd_with([{"quality_overall_p_a": "high"}]), ValueError, "line 1", "quality_overall_p_a")


@probe("files")
def ratings_probability_over_one() -> None:
    refuses(_crowd_with([{}, {"quality_overall_p_b": 3}]), ValueError, "line 2", "quality_overall_p_b")


@probe("files")
def ratings_self_pair() -> None:
    refuses(_crowd_with([{"response_b": "r1"}]), ValueError, "line 1", "response_b")


@probe("files")
def ratings_unknown_response_ids() -> None:
    from ir_rag_axioms.datasets.crowd import read_judgments
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "ratings.jsonl.gz", _ratings([{"response_a": "nope"}]))
    _gz(tmp / "responses.jsonl.gz", [json.dumps({"response": r, "topic": "t", "query": "q", "kind": "human",
                                                  "style": "bullet", "raw_text": "x", "references_texts": []})
                                      for r in ("r1", "r2")])
    refuses(lambda: read_judgments(data_dir=tmp), ValueError, "nope")


@probe("files")
def ratings_not_an_object() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "ratings.jsonl.gz", ["[1, 2, 3]"])
    refuses(lambda: load_crowd_ratings(tmp), ValueError, "line 1")


@probe("files")
def truncated_gzip_is_not_swallowed() -> None:
    from ir_rag_axioms.datasets.files import DataFileError
    if issubclass(DataFileError, FileNotFoundError):
        raise Wrong("DataFileError subclasses FileNotFoundError, which ir_datasets swallows")


@probe("files")
def truncated_gzip_reported() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings
    tmp = Path(tempfile.mkdtemp())
    data = (CROWD / "ratings.jsonl.gz").read_bytes()
    (tmp / "ratings.jsonl.gz").write_bytes(data[: len(data) // 2])
    refuses(lambda: load_crowd_ratings(tmp), Exception, "ratings.jsonl.gz", "corrupt")


@probe("files")
def modified_local_file_checked() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_topics
    tmp = Path(tempfile.mkdtemp())
    text = (CROWD / "topics.rag24.test.txt").read_text()
    (tmp / "topics.rag24.test.txt").write_text(text.replace("\t", "\t ", 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            load_crowd_topics(tmp)
        except Exception as error:
            if "checksum" not in str(error).lower() and "md5" not in str(error).lower():
                raise Unclear(str(error)) from error
            return
    if not any("checksum" in str(w.message).lower() or "md5" in str(w.message).lower() for w in caught):
        raise Wrong("a modified data file is read without a checksum warning")


@probe("files")
def nugget_file_bad_record() -> None:
    from ir_rag_axioms.datasets.runs import nugget_qrels
    tmp = Path(tempfile.mkdtemp())
    path = _gz(tmp / "nugget_assignment.x.jsonl.gz", [json.dumps({"qid": "1", "run_id": "r", "nuggets": "none"})])
    refuses(lambda: nugget_qrels(path), ValueError, "line 1", "nuggets")


@probe("files")
def crowd_responses_context_not_a_list() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_responses
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "responses.jsonl.gz", [json.dumps({"response": "r", "topic": "t", "query": "q", "kind": "human",
                                                  "style": "bullet", "raw_text": "x", "references_texts": {"a": 1}})])
    refuses(lambda: load_crowd_responses(tmp), ValueError, "line 1", "references_texts")


@probe("files")
def llm_rating_string_probability() -> None:
    from ir_rag_axioms.datasets.llm import load_llm_ratings
    tmp = Path(tempfile.mkdtemp())
    (tmp / "ratings-m.jsonl").write_text(json.dumps({"topic": "t", "response": "r", "probability": "high"}) + "\n")
    refuses(lambda: load_llm_ratings("m", tmp), ValueError, "line 1", "probability")


@probe("files")
def nugget_unknown_assignment() -> None:
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments
    tmp = Path(tempfile.mkdtemp())
    record = {"qid": "1", "query": "q", "run_id": "r", "answer_text": "a",
              "nuggets": [{"text": "n", "importance": "vital", "assignment": "supported"}]}
    (tmp / "nugget_assignment.x.jsonl").write_text(json.dumps(record) + "\n")
    refuses(lambda: load_nugget_assignments(tmp), ValueError, "line 1", "assignment")


@probe("files")
def topics_without_tab() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_topics
    tmp = Path(tempfile.mkdtemp())
    (tmp / "topics.rag24.test.txt").write_text("1 no tab here\n")
    refuses(lambda: load_crowd_topics(tmp), ValueError, "line 1")


@probe("files")
def damaged_cached_download_replaced() -> None:
    from ir_rag_axioms.datasets import files
    with tempfile.TemporaryDirectory() as home, env(IR_DATASETS_HOME=home, IR_RAG_AXIOMS_DATA=""):
        cached = files.cache_root() / files.CROWD_TOPICS.folder / files.CROWD_TOPICS.download_name
        cached.parent.mkdir(parents=True)
        cached.write_text("1\ttruncated")
        try:
            files.resolve(files.CROWD_TOPICS, download=False)
        except files.DataFileError:
            pass
        if cached.exists():
            raise Wrong("a damaged cached download is used")


# == CLI ================================================================================================
@probe("cli", 600)
def cli_empty_axioms() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "", "--out", tmp)
        if code == 0:
            raise Wrong("exit 0 for --axioms ''")
        if "axiom" not in err.lower():
            raise Unclear(err)


@probe("cli", 600)
def cli_duplicate_axiom_names() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "A=COH1,A=CORR1", "--out", tmp)
        if code == 0:
            raise Wrong("duplicate name accepted")
        if "duplicate" not in err.lower():
            raise Unclear(err)


@probe("cli", 600)
def cli_duplicate_plain_names() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "CORR1,CORR1", "--out", tmp)
        if code == 0:
            raise Wrong("duplicate name accepted")


@probe("cli", 600)
def cli_negative_topics() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL[:-4], "--topics", "-1", "--axioms", "CORR1", "--out", tmp)
        if code == 0:
            raise Wrong("--topics -1 accepted")
        if "topics" not in err.lower():
            raise Unclear(err)


for _flag, _value in (("--bootstrap", "-5"), ("--bootstrap", "1000000000"), ("--workers", "0"),
                      ("--chunk-size", "0"), ("--workers", "-3"), ("--chunk-size", "-1")):
    def _count(flag: str = _flag, value: str = _value) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            code, _, err = cli(*EVAL, "--axioms", "CORR1", flag, value, "--out", tmp)
            if code == 0:
                raise Wrong(f"{flag} {value} accepted")
            if flag.lstrip("-").split("-")[0] not in err.lower():
                raise Unclear(err)
            if time.monotonic() - start > 20:
                raise Wrong("refused only after the work")
    _count.__name__ = f"cli_{_flag}_{_value}"
    probe("cli", 600)(_count)


@probe("cli", 600)
def cli_unknown_axiom_message() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "NOPE1", "--out", tmp)
        if code == 0 or "NOPE1" not in err:
            raise Unclear(err)


@probe("cli", 600)
def cli_positional_axiom_argument() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "COH1(0.5)", "--out", tmp)
        if code == 0 or "keyword" not in err.lower():
            raise Unclear(err)


@probe("cli", 600)
def cli_numpy_keyword_axiom_names() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "file=CORR1,allow_pickle=CORR1(margin_fraction=0.5)", "--out", tmp)
        if code != 0:
            raise Wrong(err)
        stored = _read_npz(Path(tmp) / "preferences.npz")
        if not {"file", "allow_pickle"} <= set(stored):
            raise Wrong(f"names lost from preferences.npz: {sorted(stored)}")


def _read_npz(path: Path) -> dict:
    from ir_rag_axioms.evaluation import report
    reader = getattr(report, "read_preferences", None)
    if reader is not None:
        return reader(path)
    with np.load(path, allow_pickle=False) as stored:
        return {k: stored[k] for k in stored.files}


@probe("lost output", 600)
def cli_nugget_ragged_topics_kept() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli("evaluate", "--data", str(NUGGETS), "--oracle", "nugget:vital", "--topics", "3",
                           "--axioms", "CORR1", "--no-figures", "--quiet", "--out", tmp)
        if code != 0:
            raise Wrong(err)
        stored = _read_npz(Path(tmp) / "preferences.npz")
        oracle = stored.get("ORACLE")
        if oracle is None or len(oracle) != 3 or any(np.asarray(m).size == 0 for m in oracle):
            raise Wrong(f"ragged topics lost: {oracle!r:.100}")


@probe("lost output", 600)
def cli_cache_names_a_file() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "cachefile").write_text("x")
        start = time.monotonic()
        code, _, err = cli(*EVAL, "--axioms", "CORR1", "--cache", str(Path(tmp) / "cachefile"), "--out",
                           str(Path(tmp) / "out"))
        if code == 0:
            if not (Path(tmp) / "out" / "table.csv").is_file():
                raise Wrong("exit 0 without output")
            return  # a warning and the output is fine too
        if "cache" not in err.lower() or "Traceback" in err:
            raise Unclear(err)
        if time.monotonic() - start > 20:
            raise Wrong("refused only after the work")


@probe("lost output", 600)
def cli_out_names_a_file() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "outfile").write_text("x")
        start = time.monotonic()
        code, _, err = cli(*EVAL, "--axioms", "CORR1", "--out", str(Path(tmp) / "outfile"))
        if code == 0 or "out" not in err.lower() or "Traceback" in err:
            raise Unclear(f"{code} {err}")
        if time.monotonic() - start > 20:
            raise Wrong("refused only after the work")


@probe("lost output", 600)
def cli_out_on_full_disk() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = cli_subprocess(*EVAL, "--axioms", "CORR1", "--out", tmp, fsize=64)
        if "Traceback" in result.stderr:
            raise Wrong(result.stderr.strip().splitlines()[-1])
        half = [p.name for p in Path(tmp).iterdir() if p.stat().st_size in (0, 64)]
        if half:
            raise Wrong(f"half-written files: {half}")


@probe("lost output", 600)
def cli_cache_on_full_disk_then_rerun() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        cli_subprocess(*EVAL, "--axioms", "CORR1", "--cache", str(cache), "--out", str(Path(tmp) / "o1"),
                       fsize=200)
        result = cli_subprocess(*EVAL, "--axioms", "CORR1", "--cache", str(cache), "--out", str(Path(tmp) / "o2"))
        if result.returncode != 0:
            raise Wrong(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed")


@probe("lost output", 600)
def truncated_matrix_cache_recomputed() -> None:
    from ir_rag_axioms.analysis.store import FILE_NAME
    from ir_rag_axioms.axioms.oracles import CrowdOracle
    from ir_rag_axioms.datasets import judged_items
    from ir_rag_axioms.evaluation import compute_preferences
    items = judged_items(CrowdOracle(data_dir=str(CROWD)), str(CROWD), None)[:1]
    with tempfile.TemporaryDirectory() as tmp:
        first = compute_preferences({"CORR1": CORR1}, items, cache_dir=tmp)
        with sqlite3.connect(Path(tmp) / FILE_NAME) as conn:  # truncate the stored matrix
            conn.execute("UPDATE entries SET value = substr(value, 1, 10)")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            again = compute_preferences({"CORR1": CORR1}, items, cache_dir=tmp)
        same(np.stack(first["CORR1"]), np.stack(again["CORR1"]))


@probe("lost output")
def cache_key_includes_env_settings() -> None:
    from ir_rag_axioms.analysis.cache import matrices_key
    items = [(REQUEST, GOOD)]
    plain = matrices_key(CORR1, items)
    with env(IR_RAG_AXIOMS_LANGUAGETOOL="http://127.0.0.1:1"):
        other = matrices_key(CORR1, items)
    code = ("from ir_rag_axioms import CORR1, GenerationRequest as Q, GenerationResponse as R\n"
            "from ir_rag_axioms.analysis.cache import matrices_key\n"
            "print(matrices_key(CORR1, [(Q('q', 'Why?'), [R('a', 'Cats.')])]))\n")
    keys = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "IR_RAG_AXIOMS_MAX_TEXT_CHARS": limit},
                           cwd=ROOT).stdout for limit in ("50", "200000")}
    if plain == other or len(keys) != 2:
        raise Wrong("the cache key ignores a setting from the environment")


# == network ============================================================================================
class _Server:
    """A loopback HTTP server whose handler misbehaves as asked."""

    def __init__(self, behaviour: str) -> None:
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _reply(self, body: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                if owner.stall_get:
                    owner.release.wait(30)
                    return
                self._reply(json.dumps([{"name": "English", "code": "en", "longCode": "en-US"}]).encode())

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                self.rfile.read(length)
                owner.posts += 1
                if behaviour == "stall" or (behaviour == "stall-after-first" and owner.posts > 1):
                    owner.release.wait(30)
                    return
                bodies = {"no-fields": {"matches": [{"offset": 0}]}, "not-json": None,
                          "offsets": {"matches": [{
                              "offset": offset, "length": length, "message": "m", "shortMessage": "",
                              "replacements": [], "sentence": "s", "type": {"typeName": "Other"},
                              "context": {"text": "He go home.", "offset": 0, "length": 2},
                              "rule": {"id": "R", "description": "d", "issueType": "grammar",
                                       "category": {"id": "GRAMMAR", "name": "Grammar"}}}
                              for offset, length in ((-5, 10**9), (10**6, 5), (3, -4))]},
                          "html": None}
                if behaviour in ("not-json", "html"):
                    self._reply(b"<html>oops</html>")
                elif behaviour in bodies:
                    self._reply(json.dumps(bodies[behaviour]).encode())
                else:
                    self._reply(json.dumps({"matches": []}).encode())

            def log_message(self, *args: object) -> None:
                pass

        self.posts = 0
        self.stall_get = False
        self.release = threading.Event()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def _languagetool(behaviour: str, texts: list[str]) -> None:
    from ir_rag_axioms import CLAR1
    from ir_rag_axioms.analysis import resources
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    server = _Server(behaviour)
    try:
        with env(IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT="2"):
            resources.load_languagetool.cache_clear()
            responses = [GenerationResponse(str(k), t) for k, t in enumerate(texts)]
            CLAR1(languagetool_url=server.url).preferences(REQUEST, responses)
    except ToolUnavailableError as error:
        if server.url not in str(error):
            raise Unclear(str(error)) from error
    finally:
        server.close()


@probe("network", 30)
def languagetool_stalls() -> None:
    _languagetool("stall", ["He go home.", "She walks."])


@probe("network", 30)
def languagetool_stalls_after_first() -> None:
    _languagetool("stall-after-first", ["He go home.", "She walks."])


@probe("network", 30)
def languagetool_missing_fields() -> None:
    _languagetool("no-fields", ["He go home.", "She walks."])


@probe("network", 30)
def languagetool_not_json() -> None:
    _languagetool("not-json", ["He go home.", "She walks."])


@probe("network", 30)
def languagetool_bad_offsets() -> None:
    from ir_rag_axioms import CLAR1, default_analysis
    server = _Server("offsets")
    try:
        from ir_rag_axioms.analysis import resources
        resources.load_languagetool.cache_clear()
        values = CLAR1(languagetool_url=server.url).values(REQUEST, [GenerationResponse("x", "He go home.")],
                                                           default_analysis())
        if not (np.isnan(values).all() or ((values >= 0) & (values <= 1)).all()):
            raise Wrong(f"share {values}")
    finally:
        server.close()


@probe("network", 30)
def languagetool_html_reply() -> None:
    _languagetool("html", ["He go home.", "She walks."])


@probe("network", 30)
def languagetool_refused_port() -> None:
    from ir_rag_axioms import CLAR1
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    refuses(lambda: CLAR1(languagetool_url="http://127.0.0.1:1").preferences(REQUEST, GOOD),
            ToolUnavailableError, "127.0.0.1:1")


@probe("network", 60)
def download_from_a_stalling_server() -> None:
    import dataclasses

    from ir_rag_axioms.datasets import files
    server = _Server("stall")
    try:
        with tempfile.TemporaryDirectory() as home, env(IR_DATASETS_HOME=home, IR_RAG_AXIOMS_DATA="",
                                                         IR_DATASETS_DL_TIMEOUT="2", NO_PROXY="127.0.0.1"):
            spec = dataclasses.replace(files.CROWD_TOPICS, url=server.url + "/topics.rag24.test.txt")
            server.stall_get = True
            refuses(lambda: files.resolve(spec), files.DataFileError, server.url)
    finally:
        server.close()



# == issue 20: caches, each answer's own context, parse, outputs, waits, boundaries ==========================
def _judge_server(models: list[str]) -> tuple[http.server.ThreadingHTTPServer, str]:
    """An OpenAI-compatible judge on the loopback: statements split at full stops, every verdict "yes"."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            models.append(body["model"])
            system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
            if "atomic statements" in system:
                content = json.dumps({"statements": [x for x in user.split("Response:\n", 1)[1].split(". ") if x]})
            else:
                statements = json.loads(user.split("Statements:\n", 1)[1])
                content = json.dumps({"verdicts": [{"verdict": "yes", "reason": "r"} for _ in statements]})
            data = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"


def _swapped_cache(name: str, field: str, how: str) -> None:
    """A matrix cache must miss when ranks or scores are swapped: the second result is the opposite preference."""
    from ir_rag_axioms.evaluation import compute_preferences
    axiom = parse(name)
    first = [GenerationResponse("a", "Cats purr.", **{field: 1}), GenerationResponse("b", "Dogs.", **{field: 2})]
    second = [GenerationResponse("a", "Cats purr.", **{field: 2}), GenerationResponse("b", "Dogs.", **{field: 1})]
    with tempfile.TemporaryDirectory() as folder:
        def run(responses: list[GenerationResponse]) -> np.ndarray:
            if how == "npz":
                return compute_preferences({"a": axiom}, [(REQUEST, responses)], cache_dir=folder)["a"][0]
            return axiom.cached(folder).preferences(REQUEST, responses)
        run(first)
        same(run(second), axiom.preferences(REQUEST, second))


for _name, _field in (("ORIG", "rank"), ("GT", "score")):
    for _how in ("npz", "cached"):
        def _swap(name: str = _name, field: str = _field, how: str = _how) -> None:
            _swapped_cache(name, field, how)
        _swap.__name__ = f"{_how}_cache_misses_after_{_name}_{_field}s_swapped"
        probe("caches")(_swap)


def _judge_cache(how: str, change: str) -> None:
    """A matrix cache must miss when the LLM judge's model or URL changes: the new judge is asked."""
    from ir_rag_axioms import ANSWER_RELEVANCY
    from ir_rag_axioms.evaluation import compute_preferences
    axiom = ANSWER_RELEVANCY(judge="llm")
    item = (GenerationRequest("q", "What does the laptop have?"),
            [GenerationResponse("a", "The laptop has a screen. It is light."), GenerationResponse("b", "A screen.")])
    seen_a: list[str] = []
    seen_b: list[str] = []
    (server_a, url_a), (server_b, url_b) = _judge_server(seen_a), _judge_server(seen_b)
    try:
        with tempfile.TemporaryDirectory() as folder, env(IR_RAG_AXIOMS_JUDGE_CACHE="none",
                                                          IR_RAG_AXIOMS_JUDGE_BASE_URL=url_a,
                                                          IR_RAG_AXIOMS_JUDGE_MODEL="model-1"):
            def run() -> np.ndarray:
                if how == "npz":
                    return compute_preferences({"a": axiom}, [item], cache_dir=folder)["a"][0]
                return axiom.cached(folder).preferences(*item)
            run()
            with env(**({"IR_RAG_AXIOMS_JUDGE_MODEL": "model-2"} if change == "model"
                        else {"IR_RAG_AXIOMS_JUDGE_BASE_URL": url_b})):
                asked = len(seen_a), len(seen_b)
                run()
                if change == "model" and (len(seen_a) == asked[0] or seen_a[-1] != "model-2"):
                    raise Wrong("the judge's model changed but the cache answered with the old one's matrix")
                if change == "url" and len(seen_b) == asked[1]:
                    raise Wrong("the judge's URL changed but the cache answered with the old server's matrix")
    finally:
        server_a.shutdown()
        server_b.shutdown()


for _how in ("npz", "cached"):
    for _change in ("model", "url"):
        def _judge(how: str = _how, change: str = _change) -> None:
            _judge_cache(how, change)
        _judge.__name__ = f"{_how}_cache_misses_after_the_judge_{_change}_changed"
        probe("caches", 60)(_judge)


def _jsonl_file(folder: str, name: str, rows: list[dict]) -> Path:
    path = Path(folder) / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


_CATS, _LIONS = ["Cats purr when they are content."], ["Lions roar at night."]


@probe("contexts")
def flat_jsonl_keeps_each_rows_context() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "flat.jsonl", [
            {"qid": "q", "query": "Why?", "docno": "a", "text": "Cats purr.", "context": _CATS},
            {"qid": "q", "query": "Why?", "docno": "b", "text": "Lions roar.", "context": _LIONS}])
        [(request, responses)] = read_requests(path)
    from ir_rag_axioms.model import context_of
    if context_of(request, responses[1]) != tuple(_LIONS):
        raise Wrong(f"row 2's context became {context_of(request, responses[1])}")


@probe("contexts")
def nested_jsonl_keeps_a_responses_context() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    from ir_rag_axioms.model import context_of
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "nested.jsonl", [{"id": "q", "query": "Why?", "context": _CATS, "responses": [
            {"id": "a", "text": "Cats purr."}, {"id": "b", "text": "Lions roar.", "context": _LIONS}]}])
        [(request, responses)] = read_requests(path)
    if context_of(request, responses[1]) != tuple(_LIONS):
        raise Wrong(f"response b's context became {context_of(request, responses[1])}")


@probe("contexts")
def two_query_texts_for_one_qid_refused() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "flat.jsonl", [{"qid": "q", "query": q, "docno": d, "text": "x"}
                                                  for d, q in (("a", "Why do cats purr?"), ("b", "Why do dogs bark?"))])
        refuses(lambda: read_requests(path), ValueError, "flat.jsonl line 2", "line 1")


@probe("contexts")
def duplicated_response_id_names_file_and_line() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "flat.jsonl", [{"qid": "q", "query": "Q?", "docno": "a", "text": "x"},
                                                  {"qid": "q", "query": "Q?", "docno": "a", "text": "y"}])
        refuses(lambda: read_requests(path), ValueError, "flat.jsonl line 2", "'a'")


@probe("contexts")
def duplicated_crowd_response_id_names_file_and_line() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_responses
    lines = gzip.decompress((CROWD / "responses.jsonl.gz").read_bytes()).splitlines()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "responses.jsonl"
        copy.write_bytes(b"\n".join([lines[0], lines[1], lines[0]]) + b"\n")
        refuses(lambda: load_crowd_responses(copy), ValueError, "responses.jsonl line 3", "duplicated")


@probe("contexts")
def regzipped_identical_copy_does_not_warn() -> None:
    from ir_rag_axioms.datasets import files
    with tempfile.TemporaryDirectory() as folder:
        again = Path(folder) / "ratings.jsonl.gz"
        again.write_bytes(gzip.compress(gzip.decompress((CROWD / "ratings.jsonl.gz").read_bytes()), 1, mtime=1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            files.resolve(files.CROWD_RATINGS, again)
        if caught:
            raise Unclear(f"an identical content warned: {caught[0].message}")


@probe("expressions")
def division_by_zero_refused() -> None:
    refuses(lambda: parse("COH1 / 0"), ValueError, "0")


@probe("security", 30)
def string_multiplication_in_a_spec_refused() -> None:
    try:
        result = parse("COH1(spacy_model='a' * 1000000 * 50)")
    except ValueError:
        return
    raise Insecure(f"built a {len(result.spacy_model):,}-character argument from a 40-character spec")


@probe("security")
def cached_path_from_a_spec_refused() -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "made-by-a-spec"
        with contextlib.suppress(ValueError, KeyError):
            parse(f"Cached(axiom=CORR1, path={str(target)!r})").preferences(REQUEST, GOOD)
        if target.exists():
            raise Insecure("a spec created a store at a path of its choosing")


@probe("security", 120)
def parse_does_not_depend_on_import_state() -> None:
    code = ("import ir_rag_axioms as i\nfrom ir_rag_axioms import parse\ndef outcome(s):\n    try:\n"
            "        parse(s)\n        return 'ok'\n    except Exception as e:\n        return type(e).__name__\n"
            "a = outcome('Parallel(CORR1, n_jobs=2)')\nimport ir_rag_axioms.axioms.wrappers\n"
            "print(a, outcome('Parallel(CORR1, n_jobs=2)'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=100, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    words = result.stdout.split()
    if len(words) != 2 or words[0] != words[1]:
        raise Insecure(f"before and after importing the wrappers: {result.stdout.strip() or result.stderr[-200:]}")


@probe("axiom parameters")
def numpy_float_parameter_repr_parses_back() -> None:
    axiom = COH1(margin_fraction=np.float64(0.5))
    if parse(repr(axiom)) != axiom:
        raise Wrong(f"{axiom!r} does not parse back")


@probe("axiom parameters")
def numpy_bool_parameter_accepted() -> None:
    COH1(higher_is_better=np.bool_(True))


@probe("axiom parameters")
def nan_margin_message_names_nan() -> None:
    refuses(lambda: COH1(margin_fraction=float("nan")), ValueError, "margin_fraction", "nan")


def _must_not_work(module: str, name: str, kind: type[AssertionError] = Lost) -> contextlib.AbstractContextManager:
    """Patch ``module.name`` to raise ``kind``: a command that checks its arguments first never gets there."""
    import importlib
    from unittest import mock

    def started(*args: object, **kwargs: object) -> None:
        raise kind("the work started before the arguments and outputs were checked")

    return mock.patch.object(importlib.import_module(module), name, started)


def _requests(folder: str) -> Path:
    return _jsonl_file(folder, "in.jsonl", [{"qid": "q", "query": "Why?", "docno": d, "text": t}
                                           for d, t in (("a", "Cats purr [1]."), ("b", "Dogs bark."))])


@probe("lost output")
def preferences_output_is_its_input() -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = _requests(folder)
        before = source.read_bytes()
        code, _, _ = cli("preferences", "--input", str(source), "--axioms", "CORR1", "--quiet", "-o", str(source))
        if source.read_bytes() != before:
            raise Lost(f"the input was overwritten (exit {code})")


for _command in ("preferences", "rerank"):
    def _below_a_file(command: str = _command) -> None:
        with tempfile.TemporaryDirectory() as folder, _must_not_work("ir_rag_axioms.axioms.execution",
                                                                     "preference_stacks"):
            (Path(folder) / "afile").write_text("x")
            code, _, err = cli(command, "--input", str(_requests(folder)), "--axioms", "CORR1", "--quiet",
                               "-o", str(Path(folder) / "afile" / "out.csv"))
            if code != 2 or "afile" not in err:
                raise Unclear(f"exit {code}: {err[-200:]}")
    _below_a_file.__name__ = f"{_command}_output_below_a_file_fails_first"
    probe("lost output")(_below_a_file)


def _compare_first(*extra: str, kind: type[AssertionError] = Lost) -> None:
    nuggets = str(DATA / "trec-rag-24-nuggets")
    with (tempfile.TemporaryDirectory() as folder,
          _must_not_work("ir_rag_axioms.evaluation.systems", "compare_systems", kind)):
        (Path(folder) / "afile").write_text("x")
        arguments = ["compare", "--data", nuggets, "--axioms", "CORR1", "--quiet", "--no-figures"]
        if "--out" not in extra:
            arguments += ["--out", str(Path(folder) / "out")]
        code, _, err = cli(*arguments, *[e.replace("AFILE", str(Path(folder) / "afile")) for e in extra])
        if code != 2 or "error" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


@probe("lost output")
def compare_out_naming_a_file_fails_first() -> None:
    _compare_first("--out", "AFILE")


@probe("lost output")
def compare_bogus_reference_fails_first() -> None:
    _compare_first("--reference", "nugget:bogus")


@probe("lost output")
def explicit_cache_naming_a_file_is_refused() -> None:
    with tempfile.TemporaryDirectory() as folder, _must_not_work("ir_rag_axioms.evaluation", "compute_preferences"):
        (Path(folder) / "afile").write_text("x")
        code, _, err = cli(*EVAL, "--axioms", "CORR1", "--cache", str(Path(folder) / "afile"),
                           "--out", str(Path(folder) / "out"))
        if code != 2 or "--cache" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


@probe("lost output")
def read_only_store_serves_reads() -> None:
    from unittest import mock

    from ir_rag_axioms.analysis import store as stores
    with tempfile.TemporaryDirectory() as folder:
        writer = stores.DiskStore(folder)
        writer.put("ns", "k", [1, 2])
        writer.close()
        connect = sqlite3.connect

        def read_only_fs(file: object, *args: object, **kwargs: object) -> sqlite3.Connection:
            if not (kwargs.get("uri") and "mode=ro" in str(file)):
                raise sqlite3.OperationalError("unable to open database file")
            return connect(file, *args, **kwargs)  # type: ignore[arg-type]

        with mock.patch.object(stores.sqlite3, "connect", read_only_fs), \
                mock.patch.object(os, "access", lambda *a, **k: False):
            value = stores.DiskStore(folder).get("ns", "k")
        if value != [1, 2]:
            raise Lost(f"a populated read-only store served {value!r}")


@probe("waits")
def compare_bootstrap_capped_up_front() -> None:
    _compare_first("--bootstrap", "1000000000", kind=Hang)  # a billion resamples: found only after the work


@probe("waits")
def compare_negative_bootstrap_up_front() -> None:
    _compare_first("--bootstrap", "-5", kind=Hang)


@probe("waits")
def rerank_negative_seed_up_front() -> None:
    with tempfile.TemporaryDirectory() as folder, _must_not_work("ir_rag_axioms.axioms.execution", "preference_stacks",
                                                                 Hang):
        code, _, err = cli("rerank", "--input", str(_requests(folder)), "--axioms", "CORR1", "--seed", "-1",
                           "--quiet")
        if code != 2 or "seed" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


def _in_subprocess(code: str, timeout: float, **variables: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter on the probed checkout; over ``timeout``: a hang."""
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **variables})
    except subprocess.TimeoutExpired:
        raise Hang(f"over {timeout:.0f} s") from None


@probe("waits", 90)
def silent_ray_address_fails_within_seconds() -> None:
    code = ("import socket\nfrom ir_rag_axioms import CORR1, GenerationRequest, GenerationResponse\n"
            "from ir_rag_axioms.axioms.execution import preference_stacks\n"
            "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8)\n"
            "items = [(GenerationRequest('q', 'Why?'), [GenerationResponse('a', 'A.'), "
            "GenerationResponse('b', 'B.')])]\n"
            "try:\n    list(preference_stacks([CORR1], items, backend='ray', "
            "ray_address=f'127.0.0.1:{s.getsockname()[1]}'))\nexcept Exception as e:\n    print('refused:', e)")
    result = _in_subprocess(code, 60, IR_RAG_AXIOMS_RAY_CONNECT_TIMEOUT="3")
    if "refused:" not in result.stdout:
        raise Wrong(result.stdout[-200:] + result.stderr[-200:])


@probe("waits", 100)
def backtracking_citation_pattern_is_bounded() -> None:
    code = ("from ir_rag_axioms import CORR1, GenerationRequest, GenerationResponse\n"
            "r = [GenerationResponse('a', 'a' * 32 + '!'), GenerationResponse('b', 'Dogs bark.')]\n"
            "for p in (r'(a+)+$', r'(a|aa)+$'):\n"
            "    try:\n        CORR1(citation_pattern=p).preferences(GenerationRequest('q', 'Why?'), r)\n"
            "        print('answered')\n    except ValueError as e:\n        print('refused:', e)")
    result = _in_subprocess(code, 75)  # each pattern answered or refused within its bound, not after minutes
    lines = [line for line in result.stdout.splitlines() if line.startswith(("answered", "refused:"))]
    if len(lines) != 2 or any(line.startswith("refused:") and "citation_pattern" not in line for line in lines):
        raise Unclear(result.stdout[-200:] + result.stderr[-200:])


@probe("security", 120)
def spacy_model_names_no_arbitrary_module() -> None:
    code = ("import sys\nfrom ir_rag_axioms import COH1, GenerationRequest, GenerationResponse\n"
            "sys.modules.pop('tabulate', None)\n"
            "try:\n    COH1(spacy_model='tabulate').preferences(GenerationRequest('q', 'Why?'), "
            "[GenerationResponse('a', 'A b.'), GenerationResponse('b', 'C d.')])\nexcept Exception as e:\n"
            "    print(type(e).__name__)\nprint('imported' if 'tabulate' in sys.modules else 'clean')")
    result = _in_subprocess(code, 100)
    if "clean" not in result.stdout:
        raise Insecure(f"spacy_model='tabulate' imported that module: {result.stdout.strip()[-200:]}")


@probe("environment")
def sentence_model_naming_a_folder_that_is_no_model() -> None:
    from ir_rag_axioms import COV2
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    responses = [GenerationResponse("a", "Cats purr and dogs bark."), GenerationResponse("b", "Mice squeak.")]
    refuses(lambda: COV2(sentence_model="/etc").preferences(REQUEST, responses), ToolUnavailableError,
            "sentence_model", "/etc")


@probe("environment", 120)
def max_text_chars_zero_is_a_message_not_an_import_error() -> None:
    code = ("import ir_rag_axioms\nprint('imported')\nfrom ir_rag_axioms import COH1, GenerationRequest, "
            "GenerationResponse\ntry:\n    COH1.preferences(GenerationRequest('q', 'Why?'), "
            "[GenerationResponse('a', 'A.')])\nexcept ValueError as e:\n    print('refused:', e)")
    result = _in_subprocess(code, 100, IR_RAG_AXIOMS_MAX_TEXT_CHARS="0")
    if "imported" not in result.stdout:
        raise RuntimeError(f"the import failed with a traceback: {result.stderr.strip().splitlines()[-1:]}")
    if "IR_RAG_AXIOMS_MAX_TEXT_CHARS" not in result.stdout:
        raise Unclear(result.stdout[-200:])


@probe("environment")
def ir_datasets_home_naming_a_file() -> None:
    from ir_rag_axioms.datasets import files
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        home.write_text("x")
        with env(IR_DATASETS_HOME=str(home), IR_RAG_AXIOMS_DATA=""):
            refuses(lambda: files.resolve(files.CROWD_TOPICS, download=False), ValueError, "IR_DATASETS_HOME")


# == running ============================================================================================
def _alarm(timeout: float, *_: object) -> None:
    raise Hang(f"over {timeout:.0f} s")


OUTCOMES = ("ok", "crash", "unclear", "silent wrong", "lost output", "hang", "security")
"""The columns of the table: a held contract, then the kinds of breaking it."""


def run(verbose: bool) -> dict[str, Counter]:
    table: dict[str, Counter] = defaultdict(Counter)
    for kind, name, fn, timeout in PROBES:
        outcome, detail = "ok", ""
        signal.signal(signal.SIGALRM, functools.partial(_alarm, timeout))
        signal.alarm(int(math.ceil(timeout)))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn()
        except Hang as error:
            outcome, detail = "hang", str(error)
        except Unclear as error:
            outcome, detail = "unclear", str(error)
        except Insecure as error:
            outcome, detail = "security", str(error)
        except Lost as error:
            outcome, detail = "lost output", str(error)
        except Wrong as error:
            outcome, detail = "lost output" if kind == "lost output" else "silent wrong", str(error)
        except Exception as error:  # noqa: BLE001 - a crash is what we count
            outcome, detail = "crash", f"{type(error).__name__}: {error}"
        finally:
            signal.alarm(0)
        table[kind][outcome] += 1
        if verbose or outcome != "ok":
            print(f"[{outcome}] {kind} / {name}: {detail[:300]}", file=sys.stderr)
    return table


def main() -> None:
    table = run("--verbose" in sys.argv)
    print(f"probed: {ROOT}")
    print("| area | probes | " + " | ".join(OUTCOMES) + " |")
    print("|---|---|" + "---|" * len(OUTCOMES))
    for kind, counts in table.items():
        print(f"| {kind} | {sum(counts.values())} | " + " | ".join(str(counts[o]) for o in OUTCOMES) + " |")
    total = sum((c for c in table.values()), Counter())
    print(f"| all | {sum(total.values())} | " + " | ".join(str(total[o]) for o in OUTCOMES) + " |")


if __name__ == "__main__":
    main()
