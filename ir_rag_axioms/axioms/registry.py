"""Short names of configured axiom instances, and ``parse()`` for specs such as ``"COV1(margin_fraction=0.5)"``."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any, TypeVar, overload

from ir_rag_axioms.axioms.base import Axiom

REGISTRY: dict[str, Axiom] = {}
"""Short name -> default instance (each callable to reconfigure: ``REGISTRY["COH1"](margin_fraction=0.5)``)."""

A = TypeVar("A", bound=Axiom)


@overload
def register(axiom: type[A]) -> type[A]: ...
@overload
def register(axiom: A) -> A: ...
def register(axiom: type[A] | A) -> type[A] | A:
    """Register a class (as a decorator: its default instance) or an instance under its short name ``name``.

    A name can be registered once; registering it again with a different axiom raises ``ValueError``.
    """
    instance = axiom() if isinstance(axiom, type) else axiom
    name = instance.name
    if not name:
        raise ValueError(f"{type(instance).__name__} has no short name to register (set name = '...')")
    if name in REGISTRY and REGISTRY[name] != instance:
        raise ValueError(f"short name {name!r} is already registered for {REGISTRY[name]!r}")
    REGISTRY[name] = instance
    return axiom


def unregister(name: str) -> None:
    """Forget the axiom registered under ``name`` (for tests and interactive redefinition)."""
    REGISTRY.pop(name, None)


def names() -> list[str]:
    """All registered short names, in registration order."""
    _load_all()
    return list(REGISTRY)


def get(name: str) -> Axiom:
    """The default instance registered under ``name`` (``-`` and ``_`` are interchangeable)."""
    _load_all()
    for candidate in (name, name.replace("-", "_"), name.replace("_", "-")):
        if candidate in REGISTRY:
            return REGISTRY[candidate]
    import difflib

    close = difflib.get_close_matches(name.upper(), {n.upper(): n for n in REGISTRY}, n=3, cutoff=0.5)
    upper = {n.upper(): n for n in REGISTRY}
    if close:
        raise KeyError(f"unknown axiom {name!r}; did you mean {', '.join(upper[c] for c in close)}? "
                       "(every name: ir_rag_axioms.names() or `ir-rag-axioms list`)")
    raise KeyError(f"unknown axiom {name!r}; known: {', '.join(REGISTRY)}")


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.Mod: operator.mod, ast.Div: operator.truediv,
}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitOr: "|", ast.BitAnd: "&", ast.Mod: "%", ast.Div: "/"}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}


MAX_SPEC_CHARS = 200_000
"""Longest axiom spec ``parse`` reads; Python's parser also limits a spec to about 2,500 operators."""


def parse(spec: str) -> Axiom:
    """Build an axiom from its ``repr``-style spec, e.g. ``"COV1(aspect_extraction='entities') | ORIG()"``.

    Chains of operators are evaluated iteratively, within ``MAX_SPEC_CHARS`` characters, about 2,500 operators
    and ``combinators.MAX_DEPTH`` levels of nesting (ValueError beyond); no code in the spec is run.
    """
    _load_all()
    if not isinstance(spec, str):
        raise TypeError(f"an axiom spec must be a string, got {type(spec).__name__}")
    if len(spec) > MAX_SPEC_CHARS:
        raise ValueError(f"axiom spec of {len(spec):,} characters is over the limit of {MAX_SPEC_CHARS:,}; "
                         "build very long combinations in Python (e.g. Sum.of(*axioms))")
    try:
        tree = ast.parse(spec.strip(), mode="eval")
    except SyntaxError as error:
        hint = "; over the parser's limit of nesting: write chains with one operator (a + b + c), which stay flat" \
            if "nested" in str(error.msg) else ""
        raise ValueError(f"cannot parse axiom spec {spec[:200]!r}: {error.msg}{hint}") from error
    except (RecursionError, MemoryError) as error:
        raise ValueError(f"axiom spec over the parser's limit (about 2,500 operators or deep nesting): "
                         f"{spec[:100]!r}...; build long combinations in Python (e.g. Sum.of(*axioms))") from error
    result = _evaluate(tree.body, spec)
    if not isinstance(result, Axiom):
        raise ValueError(f"axiom spec {spec!r} does not describe an axiom")
    return result


def _constructors() -> dict[str, type]:
    """Public classes a spec may call besides registered axioms: every public subclass of the configurable kinds."""
    from ir_rag_axioms.analysis.similarity import TermSimilarity
    from ir_rag_axioms.axioms.preconditions import Precondition
    from ir_rag_axioms.axioms.retrieval.statistics import StatisticsSource

    found: dict[str, type] = {}
    todo: list[type] = [Axiom, Precondition, StatisticsSource, TermSimilarity]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if not cls.__name__.startswith("_") and cls.__module__.startswith("ir_rag_axioms."):
            found.setdefault(cls.__name__, cls)
    return found


def _evaluate(node: ast.AST, spec: str) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        constructors = _constructors()
        if node.id in constructors and node.id not in REGISTRY:
            return constructors[node.id]
        return get(node.id)
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_evaluate(e, spec) for e in node.elts)
    if isinstance(node, ast.Call):
        target = _evaluate(node.func, spec)
        args = [_evaluate(a, spec) for a in node.args]
        kwargs = {k.arg: _evaluate(k.value, spec) for k in node.keywords if k.arg}
        if isinstance(target, type):
            return target(*args, **kwargs)
        if isinstance(target, Axiom) and callable(target):
            return target(*args, **kwargs)
        raise ValueError(f"in {spec!r}: {ast.unparse(node.func)} is not a configurable axiom")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _evaluate_chain(node, spec)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        operand = _evaluate(node.operand, spec)
        if isinstance(operand, (int, float)) and isinstance(node.op, ast.USub):
            return -operand
        return _UNARY[type(node.op)](operand)
    raise ValueError(f"unsupported syntax in axiom spec {spec!r}: {ast.unparse(node)}")


def _evaluate_chain(node: ast.BinOp, spec: str) -> Any:
    """A left-nested chain ``a + b - c | d ...`` evaluated iteratively (the left spine), not recursively."""
    spine: list[ast.BinOp] = []
    left: ast.AST = node
    while isinstance(left, ast.BinOp) and type(left.op) in _BINARY:
        spine.append(left)
        left = left.left
    value = _evaluate(left, spec)
    for step in reversed(spine):
        right = _evaluate(step.right, spec)
        numbers = not isinstance(value, Axiom) and not isinstance(right, Axiom)
        try:
            if numbers and not isinstance(step.op, (ast.Add, ast.Sub, ast.Mult)):
                raise TypeError("only + - * between numbers")
            value = _BINARY[type(step.op)](value, right)
        except (TypeError, ArithmeticError):
            raise ValueError(f"in axiom spec {spec[:200]!r}: cannot combine {value!r:.60} and {right!r:.60} with "
                             f"{_SYMBOLS[type(step.op)]}; operators join axioms (numbers only weigh them with "
                             "+ - *)") from None
    return value


def _load_all() -> None:
    import ir_rag_axioms.axioms  # noqa: F401  (importing the axioms registers every one)
