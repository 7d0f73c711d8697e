"""``evaluate --report`` writes one self-contained HTML page; opened in headless Chromium: no console errors, the
table and every figure shown (a screenshot is written to the test's temporary folder)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ir_rag_axioms import cli

CHECK = """<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const shown = images.filter(i => i.complete && i.naturalWidth > 100 && i.getBoundingClientRect().height > 100);
  const rows = document.querySelectorAll("#evaluation tr").length;
  document.body.setAttribute("data-check", `images=${images.length} shown=${shown.length} rows=${rows}`);
});
</script></body>"""


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)  # type: ignore[return-value]
    pytest.skip("no Chromium here: install it with `apt-get install -y chromium` (make install does as root)")


@pytest.mark.slow
def test_report_opens_in_headless_chromium(data_dir: Path, tmp_path: Path, capsys):
    browser = _browser()
    page = tmp_path / "report.html"
    crowd = data_dir / "trec-rag-24-crowd"
    assert cli.main(["evaluate", "--data", str(crowd), "--axioms", "CORR1,COV1", "--topics", "3", "--bootstrap",
                     "20", "--quiet", "--out", str(tmp_path / "out"), "--report", str(page)]) == 0
    text = page.read_text()
    assert "http://" not in text and "https://" not in text  # self-contained: nothing to fetch when viewed
    assert text.count('src="data:image/png;base64,') == 2
    assert '<details class="agreed">' in text and '<details class="disagreed">' in text
    assert "rule: CORR1: prefer a higher share of sentences containing a citation" in text
    checked = tmp_path / "checked.html"
    checked.write_text(text.replace("</body>", CHECK))
    common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
              "--enable-logging=stderr", "--v=0", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([*common, "--virtual-time-budget=5000", "--dump-dom", checked.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    state = re.search(r'data-check="images=(\d+) shown=(\d+) rows=(\d+)"', dom.stdout)
    assert state, dom.stdout[-2000:]
    assert state.groups() == ("2", "2", "3")  # both figures decoded and laid out; header + 2 axioms
    console = [line for line in dom.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert not console, console
    shot = tmp_path / "report.png"
    result = subprocess.run([*common, f"--screenshot={shot}", "--window-size=1280,2400", page.as_uri()],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
    assert not [line for line in result.stderr.splitlines() if "CONSOLE" in line]
