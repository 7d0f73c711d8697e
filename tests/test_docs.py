"""The documentation site: the Development page lists every file, the rendered notebooks are current, and the built
site works in headless Chromium (no console errors, the search finds pages, the catalogue lists every axiom)."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import ROOT, load_script

DOCS = ROOT / "docs"
PACKAGE = ROOT / "ir_rag_axioms"
ROW = re.compile(r"^\| `([^`]+)` \| (.*) \|$", re.M)


hooks = load_script("docs_hooks", DOCS / "hooks.py")
render_notebooks = load_script("docs_render_notebooks", DOCS / "render_notebooks.py")


def package_files() -> set[str]:
    """Every file of the package, relative to it (no bytecode)."""
    return {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def test_the_development_page_lists_every_file_of_the_package_once() -> None:
    rows = ROW.findall((DOCS / "development.md").read_text())
    listed = [name for name, _ in rows]
    assert len(listed) == len(set(listed)), "a file is listed twice"
    assert set(listed) - package_files() == set(), "listed in docs/development.md but not in the package"
    assert package_files() - set(listed) == set(), "add these files to docs/development.md, one line each"
    assert all(len(what.strip()) > 10 for _, what in rows), "every file needs its line"


def test_the_development_page_catches_a_new_file(tmp_path: Path) -> None:
    page = (DOCS / "development.md").read_text().replace("| `demo.py` |", "| `gone.py` |")
    listed = {name for name, _ in ROW.findall(page)}
    assert package_files() - listed == {"demo.py"} and listed - package_files() == {"gone.py"}


def test_the_catalogue_page_is_generated_from_the_registry() -> None:
    from ir_rag_axioms.axioms.catalogue import catalogue, markdown

    page = (DOCS / "axioms.md").read_text()
    assert page.count(hooks.CATALOGUE) == 1 and "| COH1 |" not in page  # nothing pasted by hand
    rendered = hooks.on_page_markdown(page, page=None)
    assert markdown() in rendered and hooks.CATALOGUE not in rendered
    rows = [line for line in markdown().splitlines() if line.startswith("| ") and not line.startswith("| axiom |")]
    listed = {name.strip() for row in rows for name in row.split(" | ")[0][2:].split(",")}
    assert {e["name"] for e in catalogue() if e["dimension"] != "user-defined"} <= listed


def test_the_api_reference_is_one_page_per_public_module() -> None:
    rendered = hooks.on_page_markdown((DOCS / "api.md").read_text(), page=None)
    linked = re.findall(r"^- \[`([\w.]+)`\]\(api/([\w.]+)\.md\): \S", rendered, re.M)
    assert linked and all(name == page for name, page in linked)  # each module links its own page, with its line
    names = [name for name, _ in linked]
    documented = {found for name in names for found in re.findall(r"^::: (\S+)$", hooks.module_markdown(name), re.M)}
    assert documented == set(names) and len(names) == len(set(names))  # one page per module, one module per page
    assert {"ir_rag_axioms", "ir_rag_axioms.axioms.base", "ir_rag_axioms.pyterrier.transformers"} <= documented
    assert not {name for name in documented if any(part.startswith("_") for part in name.split("."))}
    modules = [f.removesuffix(".py").removesuffix("__init__").rstrip("/") for f in package_files() if f.endswith(".py")]
    assert len(documented) == len([m for m in modules if "/_" not in f"/{m}"])  # the root is "" here
    nav = hooks.on_config({"nav": [{"Home": "index.md"}, {"API reference": "api.md"}]})["nav"]
    section = nav[1]["API reference"]
    assert nav[0] == {"Home": "index.md"} and section[0] == "api.md"
    in_nav = [page for group in section[1:] for entries in group.values() for entry in entries
              for page in entry.values()]
    assert sorted(in_nav) == sorted(hooks.module_page(name) for name in names)  # every page in the navigation, once


@pytest.mark.slow
def test_the_writing_an_axiom_page_runs_without_the_shared_data(tmp_path: Path) -> None:
    """Its blocks (the three kinds, a context-reading matrix axiom with an encoder call) in a fresh process, in order;
    then check_axiom on each registered example. tests/test_readme.py runs them too, with every page (shared data)."""
    from test_readme import blocks

    codes = blocks(("python",), (DOCS / "writing-an-axiom.md").read_text())
    assert len(codes) >= 3 and any("analysis.embed(" in c and "context_of(" in c and "def matrix" in c for c in codes)
    script = tmp_path / "page.py"
    script.write_text("codes = " + repr(codes) + "\nfor k, code in enumerate(codes):\n"
                      "    exec(compile(code, f'block {k}', 'exec'), {})\n"
                      "from ir_rag_axioms import REGISTRY\nfrom ir_rag_axioms.testing import check_axiom\n"
                      "for name in ('CALM', 'SHOUT', 'GROUNDED'):\n    check_axiom(REGISTRY[name])\n"
                      "print('ran', len(codes))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"ran {len(codes)}" in done.stdout


def test_the_rendered_notebooks_are_current() -> None:
    pytest.importorskip("nbformat")
    assert render_notebooks.stale() == [], "run `python docs/render_notebooks.py` (it runs the notebooks)"


def test_no_rendered_notebook_imports_a_moved_path() -> None:
    """A notebook teaches the current import paths: its rendered outputs show no DeprecationWarning of ours."""
    import re

    moved = re.compile(r"DeprecationWarning: ir_rag_axioms\.[\w.]+ moved to")
    found = [p.name for p in sorted((DOCS / "notebooks").glob("*.ipynb")) if moved.search(p.read_text("utf-8"))]
    assert found == [], f"these notebooks import from a moved module: {found}"


# -- the built site in a browser ------------------------------------------------------------------------------
CHECK = """<script>
(() => {
  let tries = 0;
  const done = () => {
    const names = [...document.querySelectorAll("article table tr td:first-child")].map(td => td.textContent);
    const results = [...document.querySelectorAll(".md-search-result__item")].map(li => li.textContent);
    document.body.setAttribute("data-check", JSON.stringify({names, results: results.slice(0, 20),
                                                             count: results.length}));
  };
  const poll = () => {
    const waiting = new URLSearchParams(location.search).has("q")
      && !document.querySelector(".md-search-result__item");
    // wait in real time (a pending request holds the browser's virtual clock) while the search worker indexes
    if (waiting && tries++ < 150) { fetch("/sleep").then(poll, poll); } else { done(); }
  };
  window.addEventListener("load", poll);
})();
</script></body>"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site; adds the check script to HTML pages (``?check``) and keeps quiet."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def send_head(self):  # type: ignore[no-untyped-def]
        if self.path.startswith("/sleep"):
            import time

            time.sleep(0.2)
            self.send_response(204)
            self.end_headers()
            return None
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if "check" in self.path and path.suffix == ".html" and path.is_file():
            body = path.read_text().replace("</body>", CHECK).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            import io

            return io.BytesIO(body)
        return super().send_head()

    def log_message(self, *args: object) -> None:
        pass


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)  # type: ignore[return-value]
    pytest.skip("no Chromium here: install it with `apt-get install -y chromium` (make install does as root)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    """The site built from the repository (``mkdocs build --strict``), served on 127.0.0.1."""
    if importlib.util.find_spec("mkdocs") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must build the site: mkdocs is missing (make install installs the docs extra)")
        pytest.skip("mkdocs is not installed: `pip install -e '.[docs]'` (make install does)")
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                           capture_output=True, text=True, timeout=900,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr[-4000:]
    assert not re.search(r"^WARNING", built.stderr, re.M), built.stderr[-4000:]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", out
    server.shutdown()
    server.server_close()


def _open(url: str, profile: Path) -> tuple[dict, list[str]]:
    """The check's findings on the page at ``url`` and the browser console's messages."""
    import json

    done = subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-extensions", "--enable-logging=stderr", "--v=0", f"--user-data-dir={profile}",
                           "--virtual-time-budget=30000", "--dump-dom", url],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'data-check="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:]
    import html

    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return json.loads(html.unescape(found.group(1))), console


@pytest.mark.slow
def test_the_site_opens_in_headless_chromium(site, tmp_path: Path) -> None:
    from ir_rag_axioms.axioms.catalogue import catalogue

    url, out = site
    assert (out / "index.html").is_file() and (out / "search" / "search_index.json").is_file()
    for page in ("", "getting-started/", "api/", "api/ir_rag_axioms.aggregation/",
                 "notebooks/01_axioms_on_the_demo_sample/"):
        _, console = _open(f"{url}/{page}?check", tmp_path / "profile")
        assert not console, (page, console)
    found, console = _open(f"{url}/axioms/?check", tmp_path / "profile")
    assert not console, console
    listed = {name.strip() for cell in found["names"] for name in cell.split(",")}
    assert {e["name"] for e in catalogue() if e["dimension"] != "user-defined"} <= listed  # every registered axiom


@pytest.mark.slow
def test_the_site_search_finds_pages(site, tmp_path: Path) -> None:
    url, _ = site
    found, console = _open(f"{url}/?q=KwikSort&check", tmp_path / "profile")
    assert not console, console
    assert found["count"] > 0, found
    assert any("PyTerrier" in result or "kwiksort" in result.lower() for result in found["results"]), found
    nothing, _ = _open(f"{url}/?q=zzqxjv&check", tmp_path / "profile")
    assert nothing["count"] == 0  # the search answers, and not with every page
