"""The registry's parse(): literal arguments only, limits, paths only where allowed, parseable reprs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ir_rag_axioms import (
    COH1,
    CONS3,
    CORR1,
    parse,
)


def test_a_1000_term_expression_and_the_repr_of_a_170_term_sum():
    long = parse(" + ".join(["COH1"] * 1000))
    assert len(long.axioms) == 1000
    total = COH1
    for k in range(170):
        total = total + (CORR1 if k % 2 else COH1)
    assert repr(parse(repr(total))) == repr(total) and len(total.axioms) == 171
    negated = COH1
    for _ in range(5000):
        negated = -negated
    assert repr(negated) == "COH1()"


def test_expressions_over_the_limits_are_refused():
    with pytest.raises(ValueError, match="over the limit of 200,000"):
        parse(" + ".join(["COH1"] * 50_000))
    with pytest.raises(ValueError, match="parser's limit"):
        parse(" + ".join(["COH1"] * 4000))
    nested = COH1
    with pytest.raises(ValueError, match="more than the limit of 200"):
        for _ in range(150):
            nested = (nested + CORR1) * COH1


# -- parse: literal arguments, no paths, no division by zero, the same whatever was imported (issue 20) ------
@pytest.mark.parametrize("spec, words", [
    ("COH1 / 0", "dividing an axiom by the number 0"),
    ("COH1 / 0.0", "dividing an axiom by the number 0"),
    ("COH1(spacy_model='a' * 100000000 * 5)", "operators join axioms"),
    ("COH1(spacy_model='a' + 'b')", "operators join axioms"),
    ("COH1 * (10 ** 100)", "unsupported syntax"),
    ("COH1 * (999999999999999999999 * 999999999999999999999)", "operators join axioms"),
    ("COH1(margin_fraction=1j)", "is not a string, number"),
    ("COH1(margin_fraction=b'1')", "is not a string, number"),
    ("COH1(**{'margin_fraction': 0.5})", "unsupported syntax"),
    ("-'a' + COH1", "a sign applies to numbers and axioms"),
])
def test_parse_accepts_only_literal_arguments(spec: str, words: str):
    with pytest.raises(ValueError, match=words):
        parse(spec)


def test_parse_refuses_file_system_paths_unless_allowed(tmp_path: Path):
    target = tmp_path / "store"
    for spec in (f"Cached(axiom=CORR1, path={str(target)!r})", f"CORR1.cached({str(target)!r})",
                 f"CROWD(data_dir={str(tmp_path)!r})", "COH1(spacy_model='/etc')", "COV1(sentence_model='../x')"):
        with pytest.raises(ValueError, match="names a file system path"):
            parse(spec)
    assert not target.exists()  # refused before a store was created
    allowed = parse(f"Cached(axiom=CORR1, path={str(target)!r})", allow_paths=True)
    assert repr(allowed) == f"CORR1().cached({str(target)!r})" and parse(repr(allowed), allow_paths=True) == allowed
    assert parse("COV1(sentence_model='sentence-transformers/all-MiniLM-L6-v2')")  # a hub name is no path


def test_what_parse_accepts_does_not_depend_on_import_state():
    code = ("import sys, ir_rag_axioms; assert 'ir_rag_axioms.axioms.wrappers' not in sys.modules; "
            "from ir_rag_axioms import parse\n"
            "try:\n    parse(\"Cached(axiom=CORR1, path='/tmp/x')\")\nexcept ValueError as e:\n    print(e)\n"
            "p = parse('Parallel(CORR1, n_jobs=2)')\n"
            "print(p, parse('CORR1.parallel(2)') == p)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[1], env={**os.environ})
    assert result.returncode == 0, result.stderr
    assert "names a file system path" in result.stdout and "CORR1().parallel(2) True" in result.stdout


def test_numpy_scalars_are_numbers_and_print_parseably():
    axiom = COH1(margin_fraction=np.float64(0.5), higher_is_better=np.bool_(False))
    assert type(axiom.margin_fraction) is float and type(axiom.higher_is_better) is bool
    assert parse(repr(axiom)) == axiom and "margin_fraction=0.5" in repr(axiom)
    assert CORR1(margin_fraction=np.int64(1)).margin_fraction == 1
    with pytest.raises(ValueError, match="COH1: margin_fraction must be a number, got NaN"):
        COH1(margin_fraction=float("nan"))
    with pytest.raises(ValueError, match="must be a number, got NaN"):
        COH1(margin_fraction=np.float64("nan"))


def test_parameters_are_checked_for_type_choice_and_range():
    with pytest.raises(TypeError, match="COH1: higher_is_better must be bool, got str 'no'"):
        COH1(higher_is_better="no")
    with pytest.raises(TypeError, match="keyword arguments only"):
        COH1(0.5)
    with pytest.raises(ValueError, match="COV1: aspect_extraction must be one of 'noun_chunks', 'entities'"):
        parse("COV1(aspect_extraction='verbs')")
    with pytest.raises(ValueError, match=r"aSL: min_sentence_length must be in \[0, inf\], got -3"):
        parse("aSL(min_sentence_length=-3)")
    with pytest.raises(ValueError, match=r"b in \[0, 1\]"):
        parse("GEN_TFC3(statistics=ContextStatistics(b=5.0))")
    with pytest.raises(TypeError, match="REG: similarity must be TermSimilarity"):
        parse("REG(similarity=3)")
    with pytest.raises(ValueError, match="unknown negation_termset 'klingon'.*'en'"):
        CONS3(negation_termset="klingon")


def test_an_unknown_name_is_a_key_error_for_get_and_a_value_error_for_parse() -> None:
    from ir_rag_axioms.axioms.registry import get, parse

    with pytest.raises(KeyError, match="unknown axiom 'NOPE'"):
        get("NOPE")
    for spec in ("COH1 * (inf)", "CORR1(citation_pattern=inf)", "NOPE"):  # repr(float('inf')) reads as a name
        with pytest.raises(ValueError, match="unknown axiom"):
            parse(spec)
