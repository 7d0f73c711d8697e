"""Hardening of the command line (counts, duplicates, outputs on full disks) and of LanguageTool over the network."""

from __future__ import annotations

import http.server
import json
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hardening import (
    EVAL,
    GOOD,
    NUGGETS,
    REQUEST,
    Unclear,
    Wrong,
    cli,
    cli_subprocess,
    env,
    needs_data,
    refuses,
    within,
)

from ir_rag_axioms import GenerationResponse


# == CLI ================================================================================================
@pytest.mark.slow
@needs_data
def test_cli_empty_axioms() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "", "--out", tmp)
        if code == 0:
            raise Wrong("exit 0 for --axioms ''")
        if "axiom" not in err.lower():
            raise Unclear(err)


@pytest.mark.slow
@needs_data
def test_cli_duplicate_axiom_names() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "A=COH1,A=CORR1", "--out", tmp)
        if code == 0:
            raise Wrong("duplicate name accepted")
        if "duplicate" not in err.lower():
            raise Unclear(err)


@pytest.mark.slow
@needs_data
def test_cli_duplicate_plain_names() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "CORR1,CORR1", "--out", tmp)
        if code == 0:
            raise Wrong("duplicate name accepted")


@pytest.mark.slow
@needs_data
def test_cli_negative_topics() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL[:-4], "--topics", "-1", "--axioms", "CORR1", "--out", tmp)
        if code == 0:
            raise Wrong("--topics -1 accepted")
        if "topics" not in err.lower():
            raise Unclear(err)


@pytest.mark.slow
@pytest.mark.parametrize(("flag", "value"), [("--bootstrap", "-5"), ("--bootstrap", "1000000000"), ("--workers", "0"),
                                             ("--chunk-size", "0"), ("--workers", "-3"), ("--chunk-size", "-1")])
@needs_data
def test_cli_bad_count_refused_before_the_work(flag: str, value: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.monotonic()
        code, _, err = cli(*EVAL, "--axioms", "CORR1", flag, value, "--out", tmp)
        if code == 0:
            raise Wrong(f"{flag} {value} accepted")
        if flag.lstrip("-").split("-")[0] not in err.lower():
            raise Unclear(err)
        if time.monotonic() - start > 20:
            raise Wrong("refused only after the work")


@pytest.mark.slow
@needs_data
def test_cli_unknown_axiom_message() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "NOPE1", "--out", tmp)
        if code == 0 or "NOPE1" not in err:
            raise Unclear(err)


@pytest.mark.slow
@needs_data
def test_cli_positional_axiom_argument() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli(*EVAL, "--axioms", "COH1(0.5)", "--out", tmp)
        if code == 0 or "keyword" not in err.lower():
            raise Unclear(err)


@pytest.mark.slow
@needs_data
def test_cli_numpy_keyword_axiom_names() -> None:
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


@pytest.mark.slow
@needs_data
def test_cli_nugget_ragged_topics_kept() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _, err = cli("evaluate", "--data", str(NUGGETS), "--oracle", "nugget:vital", "--topics", "3",
                           "--axioms", "CORR1", "--no-figures", "--quiet", "--out", tmp)
        if code != 0:
            raise Wrong(err)
        stored = _read_npz(Path(tmp) / "preferences.npz")
        oracle = stored.get("ORACLE")
        if oracle is None or len(oracle) != 3 or any(np.asarray(m).size == 0 for m in oracle):
            raise Wrong(f"ragged topics lost: {oracle!r:.100}")


@pytest.mark.slow
@needs_data
def test_cli_cache_names_a_file() -> None:
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


@pytest.mark.slow
@needs_data
def test_cli_out_names_a_file() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "outfile").write_text("x")
        start = time.monotonic()
        code, _, err = cli(*EVAL, "--axioms", "CORR1", "--out", str(Path(tmp) / "outfile"))
        if code == 0 or "out" not in err.lower() or "Traceback" in err:
            raise Unclear(f"{code} {err}")
        if time.monotonic() - start > 20:
            raise Wrong("refused only after the work")


@pytest.mark.slow
@needs_data
def test_cli_out_on_full_disk() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = cli_subprocess(*EVAL, "--axioms", "CORR1", "--out", tmp, fsize=64)
        if "Traceback" in result.stderr:
            raise Wrong(result.stderr.strip().splitlines()[-1])
        half = [p.name for p in Path(tmp).iterdir() if p.stat().st_size in (0, 64)]
        if half:
            raise Wrong(f"half-written files: {half}")


@pytest.mark.slow
@needs_data
def test_cli_cache_on_full_disk_then_rerun() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        cli_subprocess(*EVAL, "--axioms", "CORR1", "--cache", str(cache), "--out", str(Path(tmp) / "o1"),
                       fsize=200)
        result = cli_subprocess(*EVAL, "--axioms", "CORR1", "--cache", str(cache), "--out", str(Path(tmp) / "o2"))
        if result.returncode != 0:
            raise Wrong(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed")


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


@within(30)
def test_languagetool_stalls() -> None:
    _languagetool("stall", ["He go home.", "She walks."])


@within(30)
def test_languagetool_stalls_after_first() -> None:
    _languagetool("stall-after-first", ["He go home.", "She walks."])


@within(30)
def test_languagetool_missing_fields() -> None:
    _languagetool("no-fields", ["He go home.", "She walks."])


@within(30)
def test_languagetool_not_json() -> None:
    _languagetool("not-json", ["He go home.", "She walks."])


@within(30)
def test_languagetool_bad_offsets() -> None:
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


@within(30)
def test_languagetool_html_reply() -> None:
    _languagetool("html", ["He go home.", "She walks."])


@within(30)
def test_languagetool_refused_port() -> None:
    from ir_rag_axioms import CLAR1
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    refuses(lambda: CLAR1(languagetool_url="http://127.0.0.1:1").preferences(REQUEST, GOOD),
            ToolUnavailableError, "127.0.0.1:1")


@within(60)
def test_download_from_a_stalling_server() -> None:
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



