"""Model and tool resources: names resolve only to spaCy pipelines or sentence-transformers folders."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ir_rag_axioms import (
    COH1,
    GenerationRequest,
    GenerationResponse,
)
from ir_rag_axioms.analysis.resources import ToolUnavailableError

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


# -- errors at the boundary (issue 20) -----------------------------------------------------------------------
def test_a_model_name_never_imports_an_arbitrary_module():
    code = ("import sys; from ir_rag_axioms import COH1, GenerationRequest, GenerationResponse\n"
            "from ir_rag_axioms.analysis.resources import ToolUnavailableError\n"
            "sys.modules.pop('tabulate', None)\n"
            "try:\n    COH1(spacy_model='tabulate').preferences(GenerationRequest('q', 'Why?'), "
            "[GenerationResponse('a', 'A b.'), GenerationResponse('b', 'C d.')])\n"
            "except ToolUnavailableError as e:\n    print(e)\n"
            "print('imported' if 'tabulate' in sys.modules else 'not imported')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[1], env={**os.environ})
    assert result.returncode == 0, result.stderr
    assert "no spaCy pipeline package (no meta.json)" in result.stdout and "not imported" in result.stdout


def test_a_folder_that_is_no_model_is_a_clear_error(tmp_path: Path):
    from ir_rag_axioms import COV2

    responses = [GenerationResponse("a", "Cats purr and dogs bark."), GenerationResponse("b", "Mice squeak.")]
    with pytest.raises(ToolUnavailableError, match="sentence_model '/etc' is a path but no sentence-transformers"):
        COV2(sentence_model="/etc").preferences(REQUEST, responses)
    with pytest.raises(ToolUnavailableError, match="no spaCy pipeline folder"):
        COH1(spacy_model=str(tmp_path)).preferences(REQUEST, responses)
