"""Short names of configured axiom instances, and ``parse()`` for specs such as ``"COV1(margin_fraction=0.5)"``."""

from __future__ import annotations

import ast
import operator
import warnings
from collections.abc import Callable
from typing import Any, TypeVar, overload

from ir_rag_axioms.axioms.base import Axiom, ConfigurableAxiom

REGISTRY: dict[str, Axiom] = {}
"""Short name -> default instance (each callable to reconfigure: ``REGISTRY["COH1"](margin_fraction=0.5)``)."""

A = TypeVar("A", bound=Axiom)


@overload
def register(axiom: type[A]) -> type[A]: ...
@overload
def register(axiom: A) -> A: ...
def register(axiom: type[A] | A) -> type[A] | A:
    """Register an instance under its short name ``name`` and return that instance.

    The package writes every axiom as ``COH1 = register(CohAxiom())``, so the module-level name is the registered
    instance. ``@register`` on a class is the decorator form for users (it registers the default instance and
    returns the class). A registered axiom is a ``ConfigurableAxiom`` (its short name reconfigures it and its repr
    parses back). Registering a name again with the same axiom does nothing; with a class defined anew under the
    same module and name (a notebook cell run again) replaces it with a warning; with any other axiom raises
    ``ValueError`` (``unregister(name)`` first to replace it on purpose).
    """
    instance = axiom() if isinstance(axiom, type) else axiom
    name = instance.name
    if not name:
        raise ValueError(f"{type(instance).__name__} has no short name to register (set name = '...')")
    if not isinstance(instance, ConfigurableAxiom):
        raise TypeError(f"register: {type(instance).__name__} subclasses Axiom; subclass ConfigurableAxiom instead "
                        "(the same matrix hook), so that its short name reconfigures it and its repr parses back")
    old = REGISTRY.get(name)
    if old is not None and old != instance:
        if not _redefined(old, instance):
            raise ValueError(f"short name {name!r} is already registered for {old!r}; choose another name, or "
                             f"unregister({name!r}) first (ir_rag_axioms.unregister)")
        warnings.warn(f"register: {name!r} now names the new definition of {type(instance).__qualname__} (the class "
                      f"was defined again, e.g. a notebook cell run twice); unregister({name!r}) removes it",
                      UserWarning, stacklevel=2)
    REGISTRY[name] = instance
    return axiom


DEPRECATED: dict[str, str] = {}
"""Deprecated short name -> the registered name that replaces it (``get`` resolves it with a RenamedAxiomWarning)."""


class RenamedAxiomWarning(FutureWarning):
    """A deprecated axiom name was resolved to the axiom that replaced it (shown by default: its rule may differ)."""


def deprecate(old: str, new: str) -> None:
    """Let ``get(old)`` (and specs naming ``old``) return the axiom registered as ``new`` (with a warning)."""
    if old in REGISTRY:
        raise ValueError(f"{old!r} is a registered name; unregister it before deprecating it")
    DEPRECATED[old] = new


def renamed(old: str, stacklevel: int = 3) -> str:
    """The name that replaces the deprecated ``old``, with a visible ``RenamedAxiomWarning``."""
    new = DEPRECATED[old]
    warnings.warn(f"axiom name {old} is deprecated and now runs {new}, whose rule may differ from what {old} computed "
                  f"in earlier versions, and its results and columns are named {new}; use {new}", RenamedAxiomWarning,
                  stacklevel=stacklevel)
    return new


def _redefined(old: Axiom, new: Axiom) -> bool:
    """Whether ``new`` is of a class defined again under the old one's module and name (not one of the package's)."""
    before, after = type(old), type(new)
    return (before is not after and (before.__module__, before.__qualname__) == (after.__module__, after.__qualname__)
            and not before.__module__.startswith("ir_rag_axioms."))


def unregister(name: str) -> None:
    """Forget the axiom registered under ``name`` (nothing if none is): to redefine or rename it interactively."""
    REGISTRY.pop(name, None)


def names() -> list[str]:
    """All registered short names, in registration order."""
    return list(REGISTRY)


class UnknownAxiomError(KeyError, ValueError):
    """No axiom is registered under the name: a KeyError for ``get``, a ValueError for a spec ``parse`` refuses."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def get(name: str) -> Axiom:
    """The default instance registered under ``name`` (``-`` and ``_`` are interchangeable).

    A deprecated name returns its replacement with a ``RenamedAxiomWarning``; ``UnknownAxiomError`` (a KeyError and
    a ValueError) with the closest names (deprecated ones included) otherwise.
    """
    for candidate in (name, name.replace("-", "_"), name.replace("_", "-")):
        if candidate in REGISTRY:
            return REGISTRY[candidate]
    for candidate in (name, name.replace("-", "_")):
        if candidate in DEPRECATED and DEPRECATED[candidate] in REGISTRY:
            return REGISTRY[renamed(candidate)]
    import difflib

    upper = {n.upper(): n for n in REGISTRY} | {n.upper(): f"{n} (deprecated: {new})" for n, new in DEPRECATED.items()
                                                 if new in REGISTRY}
    close = difflib.get_close_matches(name.upper(), upper, n=3, cutoff=0.5)
    if close:
        raise UnknownAxiomError(f"unknown axiom {name!r}; did you mean {', '.join(upper[c] for c in close)}? "
                       "(every name: ir_rag_axioms.names() or `ir-rag-axioms list`)")
    raise UnknownAxiomError(f"unknown axiom {name!r}; known: {', '.join(REGISTRY)}")


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.Mod: operator.mod, ast.Div: operator.truediv,
}
_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitOr: "|", ast.BitAnd: "&", ast.Mod: "%", ast.Div: "/"}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}


MAX_SPEC_CHARS = 200_000
"""Longest axiom spec ``parse`` reads; Python's parser also limits a spec to about 2,500 operators."""

PATH_FIELDS = frozenset({"path", "data_dir", "ratings_path", "responses_path", "cache_dir", "directory"})
"""Parameters that name a file system location: a spec may set them only where the caller allows paths."""
MODEL_FIELDS = frozenset({"spacy_model", "sentence_model", "model", "encoder"})
"""Parameters that name a model: a package name, or (where the caller allows paths) a folder."""
_LITERALS = (str, int, float, bool, type(None))
"""The constants a spec may hold (no bytes, complex numbers or ``...``)."""


def parse(spec: str, *, allow_paths: bool = False) -> Axiom:
    """Build an axiom from its ``repr``-style spec, e.g. ``"COV1(aspect_extraction='entities') | ORIG()"``.

    Arguments are literals (strings, numbers, booleans, None, tuples) and axioms; numbers combine with + - * only
    with numbers or axioms (no ``'a' * 10**8``), so nothing larger than the spec is built. Chains of operators are
    evaluated iteratively, within ``MAX_SPEC_CHARS`` characters, about 2,500 operators and
    ``combinators.MAX_DEPTH`` levels of nesting (ValueError beyond); no code in the spec is run. A spec that names
    a file system path (``Cached(path=...)``, ``data_dir=``, a model folder) is refused unless ``allow_paths``
    (the command line allows them: its specs are the user's own). What is accepted never depends on which
    modules were imported before.
    """
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
    result = _evaluate(tree.body, spec, allow_paths)
    if not isinstance(result, Axiom):
        raise ValueError(f"axiom spec {spec!r} does not describe an axiom")
    return result


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of axiom specs at top-level commas (not inside parentheses or quotes)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    quote: str | None = None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


KINDS: list[type] = []
"""Configurable kinds besides axioms, preconditions and term similarities whose subclasses a spec may call."""

K = TypeVar("K", bound=type)


def constructible(kind: K) -> K:
    """Class decorator: the public subclasses of ``kind`` may be called in specs (``TFC3(statistics=Corpus(...))``)."""
    if kind not in KINDS:
        KINDS.append(kind)
    return kind


def _constructors() -> dict[str, type]:
    """Public classes a spec may call besides registered axioms: every public subclass of the configurable kinds."""
    from ir_rag_axioms.analysis.similarity import TermSimilarity
    from ir_rag_axioms.axioms import wrappers  # noqa: F401  (Cached, Parallel: known whatever was imported before)
    from ir_rag_axioms.axioms.preconditions import Precondition

    found: dict[str, type] = {}
    todo: list[type] = [Axiom, Precondition, TermSimilarity, *KINDS]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if not cls.__name__.startswith("_") and cls.__module__.startswith("ir_rag_axioms."):
            found.setdefault(cls.__name__, cls)
    return found


def _evaluate(node: ast.AST, spec: str, allow_paths: bool) -> Any:
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, _LITERALS):
            raise ValueError(f"in axiom spec {spec[:200]!r}: {ast.unparse(node)[:60]} is not a string, number, "
                             "boolean or None")
        return node.value
    if isinstance(node, ast.Name):
        constructors = _constructors()
        if node.id in constructors and node.id not in REGISTRY:
            return constructors[node.id]
        return get(node.id)
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_evaluate(e, spec, allow_paths) for e in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _method(node, spec, allow_paths)
    if isinstance(node, ast.Call):
        return _call(node, spec, allow_paths)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _evaluate_chain(node, spec, allow_paths)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _unary(node, spec, allow_paths)
    raise ValueError(f"unsupported syntax in axiom spec {spec!r}: {ast.unparse(node)}")


def _call(node: ast.Call, spec: str, allow_paths: bool) -> Any:
    """A call of an axiom class or configurable axiom with literal arguments (no * or **)."""
    target = _evaluate(node.func, spec, allow_paths)
    args = [_evaluate(a, spec, allow_paths) for a in node.args]
    kwargs = {k.arg: _evaluate(k.value, spec, allow_paths) for k in node.keywords if k.arg}
    if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        raise ValueError(f"unsupported syntax in axiom spec {spec[:200]!r}: ** and * arguments")
    if isinstance(target, type) or (isinstance(target, Axiom) and callable(target)):
        built = target(*args, **kwargs)
        if not allow_paths:
            _refuse_paths(built, spec)
        return built
    raise ValueError(f"in {spec!r}: {ast.unparse(node.func)} is not a configurable axiom")


def _unary(node: ast.UnaryOp, spec: str, allow_paths: bool) -> Any:
    """A sign on a number (its value) or on an axiom (``_UNARY``)."""
    operand = _evaluate(node.operand, spec, allow_paths)
    if _is_number(operand):
        return -operand if isinstance(node.op, ast.USub) else operand
    if not isinstance(operand, Axiom):
        raise ValueError(f"in axiom spec {spec[:200]!r}: a sign applies to numbers and axioms, "
                         f"not {type(operand).__name__}")
    return _UNARY[type(node.op)](operand)


_METHODS = ("cached", "parallel", "normalized")
"""Axiom methods a spec may call (their results' reprs use them): ``CORR1().cached('dir')``, ``.parallel(2)``."""


def _method(node: ast.Call, spec: str, allow_paths: bool) -> Any:
    """``<axiom>.cached(path)``, ``.parallel(n_jobs)`` or ``.normalized()``, as the wrappers' reprs write them."""
    func = node.func
    assert isinstance(func, ast.Attribute)
    owner = _evaluate(func.value, spec, allow_paths)
    if not isinstance(owner, Axiom) or func.attr not in _METHODS or node.keywords and any(
            k.arg is None for k in node.keywords):
        raise ValueError(f"unsupported syntax in axiom spec {spec[:200]!r}: {ast.unparse(func)[:80]} (an axiom's "
                         f"methods {', '.join(_METHODS)} only)")
    args = [_evaluate(a, spec, allow_paths) for a in node.args]
    kwargs = {k.arg: _evaluate(k.value, spec, allow_paths) for k in node.keywords if k.arg}
    built = getattr(owner, func.attr)(*args, **kwargs)
    if not allow_paths:
        _refuse_paths(built, spec)
    return built


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _looks_like_path(value: str) -> bool:
    """Whether a model name is a location on disk rather than a package or hub name (``org/name``).

    Absolute, ``~`` or ``.`` first, a backslash, ``..``, more than one ``/``, or an existing folder.
    """
    import os

    return (value.startswith(("/", "~", ".")) or "\\" in value or ".." in value or value.count("/") > 1
            or os.path.isdir(value))


def _refuse_paths(built: Any, spec: str) -> None:
    """ValueError if an object built from a spec names a file system path (see ``parse``'s ``allow_paths``)."""
    import dataclasses

    if not dataclasses.is_dataclass(built):
        return
    for f in dataclasses.fields(built):
        value = getattr(built, f.name, None)
        if not isinstance(value, str) or not value:
            continue
        if f.name in PATH_FIELDS or (f.name in MODEL_FIELDS and _looks_like_path(value)):
            raise ValueError(f"axiom spec {spec[:200]!r} names a file system path ({type(built).__name__}."
                             f"{f.name}={value!r:.80}); specs from others may not: build it in Python, or "
                             "parse(spec, allow_paths=True) for a spec you trust (the command line does)")


def _evaluate_chain(node: ast.BinOp, spec: str, allow_paths: bool) -> Any:
    """A left-nested chain ``a + b - c | d ...`` evaluated iteratively (the left spine), not recursively."""
    spine: list[ast.BinOp] = []
    left: ast.AST = node
    while isinstance(left, ast.BinOp) and type(left.op) in _BINARY:
        spine.append(left)
        left = left.left
    value = _evaluate(left, spec, allow_paths)
    for step in reversed(spine):
        right = _evaluate(step.right, spec, allow_paths)
        operands_ok = all(isinstance(v, Axiom) or _is_number(v) for v in (value, right))
        numbers = _is_number(value) and _is_number(right)
        try:
            if not operands_ok or (numbers and not isinstance(step.op, (ast.Add, ast.Sub, ast.Mult))):
                raise TypeError("operators join axioms and numbers only")
            if numbers and any(isinstance(v, int) and abs(v) > 10**18 for v in (value, right)):
                raise TypeError("whole numbers beyond 10**18")
            value = _BINARY[type(step.op)](value, right)
        except (TypeError, ArithmeticError):
            raise ValueError(f"in axiom spec {spec[:200]!r}: cannot combine {value!r:.60} and {right!r:.60} with "
                             f"{_SYMBOLS[type(step.op)]}; operators join axioms (numbers only weigh them with "
                             "+ - *)") from None
    return value
