"""The cold path's guard: importing the package pulls in no heavy library it does not need (counted, not timed).

Importing ``ir_rag_axioms`` and building the ten ICTIR axioms must not import the model libraries (torch, spaCy,
sentence-transformers, ...), the integrations (PyTerrier, ir_datasets, Ray, autojudge) or the optional judges' tools
(units, number words, countries, NLTK, LanguageTool): those load on first use. Seconds vary with the machine's load;
which modules are imported does not, so this check fails on the commit that adds an eager import.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

HEAVY = (
    "torch", "spacy", "thinc", "sentence_transformers", "transformers", "sklearn", "scipy", "textacy", "textstat",
    "rouge_score", "rouge_score_rs", "pyterrier", "ir_datasets", "ir_measures", "pyterrier_rag", "nltk",
    "language_tool_python", "matplotlib", "ray", "autojudge_base", "autojudge_evaluate", "pint", "pycountry",
    "number_parser", "word2number", "numerizer", "text2num", "quantulum3", "dateparser", "wn", "requests", "httpx",
    "jinja2", "ir_rag_axioms.compat", "ir_rag_axioms.pyterrier", "ir_rag_axioms.cli",
)
"""Modules (and their submodules) that ``import ir_rag_axioms`` and the ten axioms' construction never import."""

MODULE_CEILING = 800
"""Modules in ``sys.modules`` after the import (732 on 8f729a6: Python, numpy, pandas and the package itself)."""

_PROBE = """
import json, sys
import ir_rag_axioms
from ir_rag_axioms.axioms.presets import ictir2025
ictir2025(include_clar1=False)
print(json.dumps(sorted(sys.modules)))
"""


@pytest.fixture(scope="module")
def imported() -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=300)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_no_heavy_module_is_imported_with_the_package(imported: list[str]) -> None:
    pulled = sorted({m for m in imported for heavy in HEAVY if m == heavy or m.startswith(heavy + ".")})
    assert not pulled, f"import ir_rag_axioms pulled in {pulled[:20]}: import them inside the function that uses them"


def test_the_package_import_stays_under_its_module_ceiling(imported: list[str]) -> None:
    assert len(imported) <= MODULE_CEILING, (
        f"import ir_rag_axioms now loads {len(imported)} modules (ceiling {MODULE_CEILING}); new top-level imports: "
        "move them into the functions that need them, or raise the ceiling with the reason")


def test_the_probe_can_see_an_eager_import(tmp_path) -> None:
    """The check is not vacuous: a module importing scipy at the top shows up in the same probe."""
    (tmp_path / "eager_mod.py").write_text("import scipy\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    out = subprocess.run([sys.executable, "-c", "import json, sys, eager_mod; print(json.dumps(sorted(sys.modules)))"],
                         env=env, capture_output=True, text=True, check=True, timeout=120)
    assert "scipy" in json.loads(out.stdout.strip().splitlines()[-1])
