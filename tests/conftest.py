"""Shared fixtures: offline settings and the real data beside the repository in ../shared."""

from __future__ import annotations

import contextlib
import gzip
import http.server
import importlib.util
import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"
REFERENCE = SHARED / "reference" / "ir_axioms-1.2.5"


def load_script(name: str, path: Path):
    """A script outside the package (bench/, docs/, examples/) as a module, registered in sys.modules as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not available (set IR_RAG_AXIOMS_SHARED to the shared folder)")
    return path


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared data folder (../shared/data)."""
    return _require(DATA)


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """The golden reference matrices (../shared/reference/ir_axioms-1.2.5)."""
    return _require(REFERENCE)


@pytest.fixture(scope="session")
def judged_items(reference_dir: Path, data_dir: Path):
    """The 65 judged crowd topics as (request, 6 responses), in the order of the golden matrices."""
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    index = json.loads((reference_dir / "index.json").read_text())
    by_topic: dict[str, dict[str, dict]] = {}
    with gzip.open(data_dir / "trec-rag-24-crowd" / "responses.jsonl.gz", "rt") as lines:
        for line in lines:
            row = json.loads(line)
            by_topic.setdefault(row["topic"], {})[f"{row['kind']}-{row['style']}"] = row
    items = []
    for topic in index["topics_judged"]:
        rows = by_topic[topic]
        first = next(iter(rows.values()))
        request = GenerationRequest(topic, first["query"], first["references_texts"])
        responses = [GenerationResponse(name, rows[name]["raw_text"]) for name in index["response_names"]]
        items.append((request, responses))
    return items


# -- small HTTP servers on the loopback address (stand-ins for LanguageTool) ----------------------------------
class JsonHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that answers JSON bytes and logs nothing."""

    def send_json(self, body: bytes) -> None:
        """200 with ``body`` as application/json."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def loopback_server(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on 127.0.0.1 (a free port) in a thread; yields the base URL, shuts down afterwards."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def run_cli(*argv: str) -> tuple[int, str]:
    """Run the command line in this process: (exit status, standard error)."""
    import contextlib
    import io

    from ir_rag_axioms import cli as cli_module

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli_module.main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, err.getvalue()


def write_jsonl(path: Path, rows: list[dict], gz: bool = False) -> Path:
    """Write rows as JSON lines (gzip-compressed, reproducibly, with ``gz``)."""
    import gzip
    import json

    text = "".join(json.dumps(r) + "\n" for r in rows)
    if gz:
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        path.write_text(text)
    return path
