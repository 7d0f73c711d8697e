"""The package's exports: every registered short name imported explicitly, the same objects as the registry."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ir_rag_axioms
from ir_rag_axioms import REGISTRY
from ir_rag_axioms.axioms.base import Axiom

ROOT = Path(__file__).resolve().parent.parent


def _package_registry() -> dict[str, Axiom]:
    """The registry without the axioms other tests of the suite registered (defined in test modules)."""
    def ours(axiom: Axiom) -> bool:
        inner = getattr(axiom, "axiom", axiom)
        return all(type(a).__module__.startswith("ir_rag_axioms.") for a in (axiom, inner))
    return {name: axiom for name, axiom in REGISTRY.items() if ours(axiom)}


def _exported_axioms() -> dict[str, Axiom]:
    return {name: value for name, value in vars(ir_rag_axioms).items() if isinstance(value, Axiom)}


def test_the_registry_and_the_exported_names_agree():
    exported, registry = _exported_axioms(), _package_registry()
    assert set(exported) == set(registry)
    assert len(registry) >= 109
    for name, axiom in registry.items():
        assert exported[name] is axiom, name  # one instance: the module-level name IS the registered axiom
    assert ir_rag_axioms.COH1 is REGISTRY["COH1"] and ir_rag_axioms.GEN_TFC1 is REGISTRY["GEN_TFC1"]


def test_all_lists_every_short_name_once_and_only_real_attributes():
    names = ir_rag_axioms.__all__
    assert len(names) == len(set(names))
    assert set(_package_registry()) <= set(names)
    for name in names:
        assert getattr(ir_rag_axioms, name) is not None  # the lazy transformers resolve too


def test_each_short_name_is_the_module_level_name_of_its_defining_module():
    for name, axiom in _package_registry().items():
        module = sys.modules[type(axiom).__module__] if not name.startswith("GEN_") \
            else sys.modules["ir_rag_axioms.axioms.generative"]
        assert getattr(module, name) is axiom, name


def test_no_globals_update_in_the_package():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "ir_rag_axioms").rglob("*.py")
                 if "globals().update" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_registering_the_decorator_form_and_the_instance_form():
    from ir_rag_axioms.axioms.registry import register, unregister
    from ir_rag_axioms.axioms.utility import NopAxiom

    class _Quiet(NopAxiom):
        """QUIET_TEST: never prefer (a test axiom)."""

        name = "QUIET_TEST"

    try:
        assert register(_Quiet) is _Quiet and REGISTRY["QUIET_TEST"] == _Quiet()  # decorator form: the class back
        unregister("QUIET_TEST")
        instance = _Quiet()
        assert register(instance) is instance and REGISTRY["QUIET_TEST"] is instance  # instance form: itself
    finally:
        unregister("QUIET_TEST")


def test_compat_names_do_not_depend_on_what_was_registered_before_its_import():
    code = ("import numpy as np\nfrom typing import ClassVar\nfrom ir_rag_axioms import register\n"
            "from ir_rag_axioms.axioms.base import FeatureAxiom\n"
            "class Mine(FeatureAxiom):\n    name: ClassVar[str] = 'MINE_FIRST'\n"
            "    def values(self, request, responses, analysis):\n        return np.zeros(len(responses))\n"
            "register(Mine())\nfrom ir_rag_axioms.compat import axiom\n"
            "print('MINE_FIRST' in axiom._NAMES, 'COH1' in axiom._NAMES)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]


def test_compat_axiom_names_are_explicit_and_complete():
    from ir_rag_axioms.compat import axiom as compat_axiom

    explicit = {n: v for n, v in vars(compat_axiom).items() if isinstance(v, compat_axiom.SpecName)}
    assert set(explicit) == set(compat_axiom._NAMES)
    assert all(explicit[n] is compat_axiom._NAMES[n] for n in explicit)


@pytest.mark.skipif(shutil.which("mypy") is None and not (Path(sys.executable).parent / "mypy").exists(),
                    reason="mypy is not installed")
def test_mypy_types_an_exported_short_name_as_its_class(tmp_path):
    snippet = tmp_path / "snippet.py"
    snippet.write_text("from ir_rag_axioms import COH1, GEN_TFC1\n\nx: int = COH1\ny: int = GEN_TFC1\n")
    mypy = Path(sys.executable).parent / "mypy"
    command = [str(mypy) if mypy.exists() else "mypy", "--no-incremental", "--follow-imports=silent",
               "--ignore-missing-imports", "--cache-dir", str(tmp_path / "cache"), str(snippet)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600,
                            env={"PATH": "/usr/bin:/bin", "MYPYPATH": str(ROOT), "HOME": str(tmp_path)})
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert '"WordLengthDeviationCoherenceAxiom"' in out and '"Generative"' in out, out  # not Any
    assert out.count("error:") == 2, out
