"""A package's names loaded on first use (PEP 562): the registry imports every game's package to list
its options, and a command uses one game, so a package loads its other modules only when asked."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import Any


def on_first_use(package: str, defined_in: Mapping[str, str],
                 exported: Iterable[str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module `__getattr__` and `__dir__` of the package named `package`: a name of `defined_in`
    (name -> the submodule that defines it) is imported from its submodule when first asked for, and
    kept; dir() lists `exported` too."""
    namespace = sys.modules[package].__dict__
    shown = frozenset(exported)

    def __getattr__(name: str) -> Any:
        module = defined_in.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *shown})

    return __getattr__, __dir__
