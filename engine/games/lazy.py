"""Game packages that load their game object at once and their other names on first use: the registry
imports every game's package to list its options, and a command uses one game."""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import Any


class _LazyPackage(ModuleType):
    _names: dict[str, str] = {}      # name -> the submodule that defines it

    def __getattr__(self, name: str) -> Any:
        # Called only for a name the package does not hold yet.
        module = self._names.get(name)
        if module is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{self.__name__}.{module}"), name)
        self.__dict__[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        # The import system sets a package's attribute of a submodule's name when the submodule loads;
        # a name that is also its module's (`grade`, the function of grade.py) stays the name, as when
        # the package imported it eagerly.
        if isinstance(value, ModuleType) and self._names.get(name) == name:
            return
        super().__setattr__(name, value)


def load_on_first_use(package: str, names: dict[str, str]) -> None:
    """Give the package named `package` the `names` (name -> the submodule that defines it), each
    imported when it is first asked for."""
    sys.modules[package].__class__ = type("LazyPackage", (_LazyPackage,), {"_names": dict(names)})
