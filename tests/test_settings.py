"""Settings from the environment: a value that cannot be used is named with its variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


# -- unclear errors -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, value", [("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "lots"), ("IR_RAG_AXIOMS_WORKERS", "1.5")])
def test_garbage_environment_variables_are_named(name, value):
    result = subprocess.run([sys.executable, "-c", "import ir_rag_axioms; ir_rag_axioms.COH1.preferences("
                             "ir_rag_axioms.GenerationRequest('q', 'Why?'), [ir_rag_axioms.GenerationResponse("
                             "'a', 'A.')])"], capture_output=True, text=True,
                            env={**os.environ, name: value}, cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert result.returncode != 0
    assert f"environment variable {name}={value!r}" in result.stderr.strip().splitlines()[-1]
