"""The checks of an axiom's fields at construction: values against their annotated types, numpy scalars made plain.

Used by ``ConfigurableAxiom`` (``base.py``): a value that does not fit its annotation is a TypeError (a ValueError for
a string outside its ``Literal`` choices) naming the axiom, the field and what it accepts.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import typing
from typing import Any

import numpy as np

SIMPLE_TYPES: dict[Any, tuple[type, ...]] = {bool: (bool,), int: (int,), float: (int, float), str: (str, os.PathLike)}
"""Annotated type -> accepted value types (a path may stand for a string: model and data locations)."""
_UnionType = type(int | None)


def options(hint: Any) -> tuple[Any, ...]:
    """The alternatives of an annotation (``X | None`` -> X, None; ``Literal["a", "b"]`` -> itself)."""
    return typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, _UnionType) else (hint,)


def fits_option(option: Any, value: Any) -> bool | None:
    """Whether ``value`` fits one alternative; None if the alternative is not checked here."""
    if option is type(None):
        return value is None
    if typing.get_origin(option) is typing.Literal:
        return isinstance(value, str | int) and value in typing.get_args(option)
    if option in SIMPLE_TYPES:
        return isinstance(value, SIMPLE_TYPES[option]) and not (isinstance(value, bool) and option is not bool)
    if isinstance(option, type):
        return isinstance(value, option)
    return None


def describe(option: Any) -> str:
    """An alternative as the error names it ("one of 'a', 'b'", "None", a class name)."""
    if typing.get_origin(option) is typing.Literal:
        return "one of " + ", ".join(repr(c) for c in typing.get_args(option))
    return "None" if option is type(None) else getattr(option, "__name__", str(option))


def field_error(owner: str, name: str, hint: Any, value: Any) -> str | None:
    """Why ``value`` does not fit the annotated type; None if it fits.

    Checked: bool, int, float, str, Literal choices, classes, and unions of them (``X | None``).
    """
    fits = [fits_option(option, value) for option in options(hint)]
    if not fits or None in fits or any(fits):
        return None  # it fits, or the annotation is not one we check (the axiom checks it itself)
    names = " or ".join(describe(o) for o in options(hint))
    return f"{owner}: {name} must be {names}, got {type(value).__name__} {value!r:.80}"


@functools.cache
def type_hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a class (cached per class)."""
    return typing.get_type_hints(cls)



def plain(value: Any) -> Any:
    """A numpy scalar (``np.float64``, ``np.int64``, ``np.bool_``, ``np.str_``) as the Python value; others as given."""
    if isinstance(value, np.generic) and isinstance(value, (np.bool_, np.integer, np.floating, np.str_)):
        return value.item() if not isinstance(value, np.str_) else str(value)
    return value


def field_default(f: dataclasses.Field) -> Any:
    """A field's default (its factory's value), or ``dataclasses.MISSING``."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING
