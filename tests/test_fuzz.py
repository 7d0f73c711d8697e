"""Fuzz tests of the hardening contract (issue 8): any input gives a defined result or a documented, actionable error.

Documented errors: TypeError/ValueError (DataFileError is one) naming what to fix, ToolUnavailableError naming the
server; nothing is written half; network waits are bounded. ``slow`` marks the parts that start processes.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import JsonHandler, loopback_server
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ir_rag_axioms import CLAR2, COH1, CORR1, AxiomaticReranker, GenerationRequest, GenerationResponse, parse
from ir_rag_axioms.aggregation import aggregate
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.datasets.files import DataFileError, DataFileWarning

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content."])
GOOD = [GenerationResponse("a", "Cats purr when content [1]. They purr."), GenerationResponse("b", "A sound.")]

texts = st.text(st.characters(codec=None), max_size=60) | st.sampled_from(["...", "?", ":)", "[1]", "\u200b", "🙂"])
missing = st.sampled_from([None, float("nan"), np.float32("nan"), pd.NA])


def _is_preference_matrix(matrix: np.ndarray, n: int) -> bool:
    return (matrix.shape == (n, n) and bool(np.isfinite(matrix).all()) and np.array_equal(matrix, -matrix.T)
            and not np.diag(matrix).any())


# -- texts and the data model ---------------------------------------------------------------------------------
@FAST
@given(st.lists(texts | missing, min_size=1, max_size=3))
def test_any_unicode_text_gives_a_preference_matrix(values):
    responses = [*GOOD, *(GenerationResponse(f"x{k}", v) for k, v in enumerate(values))]
    for response in responses:
        assert type(response.text) is str
        response.text.encode("utf-8")  # lone surrogates are replaced
    for axiom in (COH1, CORR1, CLAR2):
        assert _is_preference_matrix(axiom.preferences(REQUEST, responses), len(responses))


@FAST
@given(st.one_of(st.none(), st.text(max_size=10), st.lists(texts | missing, max_size=3),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.sets(st.text(max_size=3)),
                 st.integers(), st.binary(max_size=5), st.floats()))
def test_context_is_passages_or_a_type_error(context):
    try:
        request = GenerationRequest("q", "query", context)
    except TypeError as error:
        assert "context" in str(error)
        assert isinstance(context, (dict, set, int, bytes, float)) and not pd.isna(context)
        return
    assert request.context is None or all(type(p) is str and p.strip() for p in request.context)


@FAST
@given(st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=5), st.integers(), st.booleans(),
                 st.just(pd.NA), st.lists(st.integers(), max_size=2)))
def test_ids_are_text_or_refused(value):
    try:
        response = GenerationResponse(value, "text")
    except (TypeError, ValueError) as error:
        assert "GenerationResponse.id" in str(error)
        return
    assert type(response.id) is str and response.id.strip()


# -- frames ---------------------------------------------------------------------------------------------------
id_cells = st.one_of(st.text(max_size=3), st.integers(-3, 3), missing)


@FAST
@given(st.lists(st.tuples(id_cells, id_cells, texts | missing), min_size=1, max_size=5),
       st.sampled_from([None, "string", "object", "category"]))
def test_frames_with_any_ids_and_na_kinds(rows, dtype):
    frame = pd.DataFrame(rows, columns=["qid", "docno", "text"]).assign(query="Why do cats purr?")
    if dtype is not None:
        frame = frame.astype({"qid": dtype, "docno": dtype})
    try:
        out = AxiomaticReranker(CORR1)(frame)
    except ValueError as error:
        assert any(word in str(error) for word in ("qid", "docno")), error
        return
    assert len(out) == len(frame) and sorted(out["docno"].astype(str)) == sorted(frame["docno"].astype(str))


# -- matrices -------------------------------------------------------------------------------------------------
@FAST
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 5)).map(lambda s: (s[0], s[1], s[1])),
                  elements=st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([-1.0, 0.0, 1.0])),
       st.sampled_from(["borda", "copeland", "kwiksort", "bradley_terry"]))
def test_aggregation_of_any_matrices_is_a_permutation(stack, method):
    order = aggregate(stack, method)
    assert sorted(order.tolist()) == list(range(stack.shape[1]))


@FAST
@given(hnp.arrays(np.float64, (3, 3), elements=st.floats(allow_nan=True, allow_infinity=True)))
def test_evaluation_of_any_matrix_is_a_defined_score(matrix):
    from ir_rag_axioms.evaluation import evaluate_preferences

    oracle = np.array([[0, 1, 1], [-1, 0, 0], [-1, 0, 0.0]])
    scores = evaluate_preferences([matrix], [oracle])
    assert 0 <= scores["decisiveness"] <= 1 and 0 <= scores["effectiveness"] <= 1


# -- expressions ----------------------------------------------------------------------------------------------
leaves = st.sampled_from(["COH1", "CORR1", "CLAR2(margin_fraction=0.5)", "ORIG()", "2"])
expressions = st.recursive(leaves, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["+", "-", "*", "|", "&", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    inner.map(lambda e: f"-{e}")), max_leaves=25)


@FAST
@given(expressions)
def test_any_expression_parses_to_a_repr_that_parses_back(spec):
    try:
        axiom = parse(spec)
    except (ValueError, TypeError) as error:
        assert "axiom" in str(error) or "combine" in str(error), error
        return
    assert repr(parse(repr(axiom))) == repr(axiom)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 2400), st.sampled_from(["+", "|", "%", "-", "*"]))
def test_long_chains_stay_flat_and_cheap(length, operator):
    start = time.monotonic()
    axiom = parse(f" {operator} ".join(["COH1", "CORR1"] * (length // 2) + ["COH1"]))
    repr(axiom)
    assert time.monotonic() - start < 10


# -- records --------------------------------------------------------------------------------------------------
json_values = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                        max_size=3), max_leaves=8)
rating_fields = {"query_id": st.text(max_size=3), "response_a": st.text(max_size=3), "response_b": st.text(max_size=3),
                 "quality_overall_p_a": json_values, "quality_overall_p_b": json_values}


@FAST
@given(st.lists(st.fixed_dictionaries({}, optional=rating_fields) | json_values, min_size=1, max_size=4),
       st.booleans())
def test_malformed_ratings_records_are_refused_with_file_and_line(records, truncate):
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings

    with _folder() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore", DataFileWarning)  # not the published file: a checksum warning
        data = gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode())
        (folder / "ratings.jsonl.gz").write_bytes(data[: len(data) // 2] if truncate else data)
        try:
            frame = load_crowd_ratings(folder)
        except DataFileError as error:
            assert "ratings.jsonl.gz" in str(error)
            return
    for row in frame.itertuples():
        assert row.response_a != row.response_b
        assert 0 <= row.quality_overall_p_a <= 1 and 0 <= row.quality_overall_p_b <= 1


def _folder():
    import tempfile

    class Folder:
        def __enter__(self) -> Path:
            self.tmp = tempfile.TemporaryDirectory()
            return Path(self.tmp.name)

        def __exit__(self, *exc: object) -> None:
            self.tmp.cleanup()
    return Folder()


# -- writes ---------------------------------------------------------------------------------------------------
@FAST
@given(st.integers(0, 5000))
def test_an_interrupted_write_leaves_the_old_file_or_none(fail_after):
    from ir_rag_axioms.output import OutputError, atomic_write

    with _folder() as folder:
        target = folder / "table.csv"
        target.write_text("old")

        def write(path: Path) -> None:
            with open(path, "w") as handle:
                handle.write("x" * fail_after)
                raise OSError(28, "No space left on device")
        with pytest.raises(OutputError, match="table.csv"):
            atomic_write(target, write)
        assert target.read_text() == "old" and [p.name for p in folder.iterdir()] == ["table.csv"]


# -- the command line -----------------------------------------------------------------------------------------
@FAST
@given(st.sampled_from(["--topics", "--bootstrap", "--workers", "--chunk-size"]),
       st.one_of(st.integers(-10**12, 10**12).map(str), st.text(max_size=4)))
def test_cli_counts_are_checked_before_any_work(flag, value):
    from ir_rag_axioms import cli

    start, stderr = time.monotonic(), io.StringIO()
    with contextlib.redirect_stderr(stderr), tempfile.TemporaryDirectory() as folder:  # --out is made before work
        code = _exit_code(cli.main, ["evaluate", "--data", f"{folder}/no-data", "--axioms", "CORR1", "--out",
                                     f"{folder}/out", flag, value])
    err = stderr.getvalue()
    assert code == 2 and "error" in err and "Traceback" not in err
    assert time.monotonic() - start < 10


@FAST
@given(st.lists(st.sampled_from(["COH1", "CORR1", "A=COH1", "A=CORR1", "", " ", "COH1(0.5)", "NOPE"]), max_size=4))
def test_cli_axiom_lists_are_named_and_unique(items):
    from ir_rag_axioms.cli import parse_axioms

    try:
        axioms = parse_axioms(",".join(items))
    except (ValueError, TypeError, KeyError) as error:
        assert str(error)
        return
    assert axioms and len(axioms) == len([i for i in items if i.strip()])


def _exit_code(main, argv) -> int:
    try:
        return main(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)


# -- a misbehaving LanguageTool server ------------------------------------------------------------------------
class _Misbehaving(JsonHandler):
    reply: bytes | None = b"{}"

    def do_GET(self):  # noqa: N802 - http.server's naming
        self.send_json(json.dumps([{"name": "English", "code": "en", "longCode": "en-US"}]).encode())

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if type(self).reply is None:
            time.sleep(3)  # longer than the timeout of the test
            return
        self.send_json(type(self).reply)


@pytest.fixture(scope="module")
def misbehaving_server():
    with loopback_server(_Misbehaving) as url:
        yield url


match_objects = st.fixed_dictionaries({}, optional={
    "offset": st.integers(-10**6, 10**6) | json_values, "length": st.integers(-10**6, 10**6) | json_values,
    "message": st.text(max_size=3), "context": st.just({"text": "x", "offset": 0, "length": 1}),
    "rule": st.fixed_dictionaries({"id": st.just("R"), "issueType": st.sampled_from(["grammar", "style"]),
                                   "category": st.just({"id": "GRAMMAR", "name": "G"})}),
})
replies = st.one_of(st.none(), st.binary(max_size=20), json_values.map(lambda v: json.dumps(v).encode()),
                    st.lists(match_objects, max_size=3).map(lambda m: json.dumps({"matches": m}).encode()))


@settings(max_examples=15, deadline=None)
@given(replies)
def test_languagetool_replies_give_a_share_or_a_clear_error(misbehaving_server, short_timeout, reply):
    from ir_rag_axioms import CLAR1
    from ir_rag_axioms.analysis import cache, resources

    _Misbehaving.reply = reply
    resources.load_languagetool.cache_clear()
    start = time.monotonic()
    try:
        with cache.Analysis() as analysis:
            values = CLAR1(languagetool_url=misbehaving_server).values(REQUEST, [GenerationResponse("x", "He go.")],
                                                                       analysis)
    except ToolUnavailableError as error:
        assert misbehaving_server in str(error)
    else:
        assert np.isnan(values).all() or ((values >= 0) & (values <= 1)).all()
    assert time.monotonic() - start < 15  # 1 s read timeout, 2 tries each for the connection check and the text


@pytest.fixture(scope="module")
def short_timeout():
    old = os.environ.get("IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT")
    os.environ["IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT"] = "1"
    yield
    if old is None:
        os.environ.pop("IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT", None)
    else:
        os.environ["IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT"] = old


# -- a full disk (slow: separate processes) -------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("limit", [0, 100, 2_000, 20_000])
def test_a_full_disk_leaves_no_half_written_report(limit, data_dir: Path, tmp_path: Path):
    code = ("import resource, signal, sys\nsignal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
            "from ir_rag_axioms.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    out = tmp_path / "out"
    argv = ["evaluate", "--data", str(data_dir / "trec-rag-24-crowd"), "--topics", "1", "--axioms", "CORR1",
            "--no-figures", "--quiet", "--out", str(out), "--cache", str(tmp_path / "cache")]
    result = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=600,
                            env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert "Traceback" not in result.stderr
    for file in out.iterdir() if out.is_dir() else ():
        assert not file.name.endswith(".tmp") and file.stat().st_size > 0
    again = subprocess.run([sys.executable, "-m", "ir_rag_axioms.cli", *argv], capture_output=True, text=True,
                           timeout=600, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert again.returncode == 0, again.stderr
    assert (out / "table.csv").read_text().startswith("axiom,")


# -- issue 20: parse builds nothing larger than the spec, caches key on every field -----------------------------
literals = st.one_of(st.integers(-10**6, 10**6).map(repr), st.floats(allow_nan=False).map(repr),
                     st.text(max_size=5).map(repr), st.sampled_from(["True", "None", "1j", "b'x'", "..."]))
operators = st.sampled_from(["+", "-", "*", "/", "%", "|", "&", "**", "//", "<<"])


@FAST
@given(st.lists(st.tuples(operators, literals), min_size=1, max_size=6), st.booleans())
def test_spec_arguments_are_literals_and_never_larger_than_the_spec(steps, as_weight):
    argument = steps[0][1] + "".join(f" {op} {value}" for op, value in steps[1:])
    spec = f"COH1 * ({argument})" if as_weight else f"CORR1(citation_pattern={argument})"
    try:
        axiom = parse(spec)
    except (ValueError, TypeError) as error:
        assert str(error)  # refused with a message
        return
    assert len(repr(axiom)) <= 4 * len(spec) + 64  # nothing built beyond the spec's own size


@FAST
@given(st.sampled_from(["id", "text", "context", "rank", "score", "request_id", "request_text", "request_context"]),
       st.text(min_size=1, max_size=8), st.integers(1, 50))
def test_the_cache_key_changes_with_every_field(field, text, number):
    import dataclasses

    from ir_rag_axioms.analysis.cache import item_key

    request = GenerationRequest("q", "Why?", ["P."])
    responses = [GenerationResponse("a", "A.", rank=1, score=0.5, context=["C."]), GenerationResponse("b", "B.")]
    before = item_key(request, responses)
    changes = {"id": text + "\x00", "text": text + "!", "context": [text + "?"], "rank": number + 1,
               "score": number + 0.25}
    if field.startswith("request_"):
        name = field.removeprefix("request_")
        request = dataclasses.replace(request, **{name: changes.get(name, text)})
    else:
        responses = [dataclasses.replace(responses[0], **{field: changes[field]}), responses[1]]
    assert item_key(request, responses) != before
