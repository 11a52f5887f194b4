"""The public API's docstrings follow numpydoc: every argument documented, no argument
named that does not exist, a Returns section where a value is returned, and a Raises
section naming each exception the function raises itself.

The checks use numpydoc's own validator (``numpydoc.validate``) where it applies, and
parse the docstrings with ``numpydoc.docscrape`` for the rest:

- functions and methods: numpydoc's PR01 (argument not documented), PR02 (unknown
  argument), PR07 (argument without a description), PR10 (malformed parameter line),
  RT01 (no Returns section), RT03 (return without a description), YD01 (no Yields
  section) and GL08 (no docstring; a method that overrides a documented method of the
  same arguments inherits its docstring, as :func:`inspect.getdoc` does);
- classes: every argument of the constructor is documented under Parameters or
  Attributes (dataclasses document their fields as Attributes), Parameters names no
  argument the constructor does not take, and no name is described twice in a section;
- a ``raise SomeError(...)`` written in a public function or method (not in a nested
  function) needs a Raises section naming ``SomeError`` or one of its base classes
  (CrownsError and ValueError excepted: too wide to tell the reader anything).
  Errors raised by the helpers a function calls are not seen by this check.

Public means: listed in the ``__all__`` of a module below (a module without one: the
names without a leading underscore that it defines), or a public method of such a class.
Left out: the games' command-line modules (``*/cli.py``, ``*_cli.py``), whose functions
are argparse handlers documented by ``crowns ... --help``; properties (numpydoc gives
them no sections); the constructors of exception classes (all CrownsError's, documented
there) and of classes whose constructor is another library's.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import importlib
import inspect
import sys
import textwrap

import numpydoc.validate as numpydoc_validate
from numpydoc.docscrape import NumpyDocString

import crowns_solver.errors as errors

MODULES = [
    "crowns_solver",
    "crowns_solver.errors",
    "crowns_solver.cross_kings",
    "crowns_solver.cross_kings.cards",
    "crowns_solver.cross_kings.position",
    "crowns_solver.cross_kings.scoring",
    "crowns_solver.cross_kings.solver",
    "crowns_solver.cross_kings.players",
    "crowns_solver.cross_kings.play",
    "crowns_solver.cross_kings.match",
    "crowns_solver.cross_kings.review",
    "crowns_solver.cross_kings.parallel",
    "crowns_solver.five_crowns",
    "crowns_solver.five_crowns.advisor",
    "crowns_solver.five_crowns.cards",
    "crowns_solver.five_crowns.game",
    "crowns_solver.five_crowns.keeper",
    "crowns_solver.five_crowns.melds",
    "crowns_solver.five_crowns.players",
    "crowns_solver.five_crowns.rules",
    "crowns_solver.five_crowns.simulation",
    "crowns_solver.kings_crowns",
    "crowns_solver.kings_crowns.cards",
    "crowns_solver.kings_crowns.deck",
    "crowns_solver.kings_crowns.game",
    "crowns_solver.kings_crowns.policies",
    "crowns_solver.kings_crowns.rules",
    "crowns_solver.kings_crowns.simulation",
    "crowns_solver.montecarlo",
    "crowns_solver.report",
    "crowns_solver.cli",
    "crowns_solver.analysis",
    "crowns_solver.analysis.base",
    "crowns_solver.analysis.cross_kings_evaluation",
    "crowns_solver.analysis.cross_kings_strategy",
    "crowns_solver.analysis.five_crowns_hands",
    "crowns_solver.analysis.five_crowns_players",
    "crowns_solver.analysis.kings_crowns_deck",
    "crowns_solver.analysis.kings_crowns_length",
    "crowns_solver.analysis.kings_crowns_seats",
    "crowns_solver.analysis.kings_crowns_tournament",
]

#: numpydoc codes checked on functions and methods (see the module docstring).
CODES = {"PR01", "PR02", "PR07", "PR10", "RT01", "RT03", "YD01", "GL08"}
#: Base classes too wide for a Raises section to name instead of the error itself.
TOO_WIDE = {errors.CrownsError, ValueError, Exception, BaseException}
#: Not checked: raised by an abstract method for subclasses to override.
IGNORED_RAISES = {"NotImplementedError"}


def _public():
    """Yield (import path, object, defining class or None) for each public callable."""
    seen = set()
    for name in MODULES:
        module = importlib.import_module(name)
        names = getattr(module, "__all__", None)
        if names is None:   # no __all__: the public names the module defines itself
            names = [k for k, v in vars(module).items()
                     if not k.startswith("_") and getattr(v, "__module__", None) == name]
        for attr in names:
            obj = getattr(module, attr)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            path = f"{obj.__module__}.{obj.__qualname__}"
            if path in seen or not obj.__module__.startswith("crowns_solver"):
                continue
            seen.add(path)
            yield path, obj, None
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                for mname, member in vars(obj).items():
                    if mname.startswith("_") or isinstance(member, property):
                        continue
                    func = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                    if inspect.isfunction(func):
                        yield f"{path}.{mname}", func, obj


def _inherited(func, cls) -> bool:
    """Whether `func` (no docstring) overrides a documented method of the same arguments."""
    for base in cls.__mro__[1:]:
        other = vars(base).get(func.__name__)
        if other is None:
            continue
        other = other.__func__ if isinstance(other, (classmethod, staticmethod)) else other
        if getattr(other, "__doc__", None):
            same = list(inspect.signature(other).parameters) == list(inspect.signature(func).parameters)
            return same
    return False


def _doc_names(doc: NumpyDocString, *sections: str) -> set[str]:
    names = set()
    for section in sections:
        for param in doc[section]:
            # Raises and Returns items parse as a type with no name: "CardError, DeckError"
            for part in (param.name or param.type).split(","):
                names.add(part.strip().lstrip("*"))
    return names


def _raised(func) -> set[str]:
    """Names of the exception classes `func` raises itself (``raise Name(...)``)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return set()
    body = tree.body[0]
    names = set()
    stack = list(ast.iter_child_nodes(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name):
                names.add(exc.id)
            elif isinstance(exc, ast.Attribute):
                names.add(exc.attr)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _raises_problems(path: str, func, doc: NumpyDocString) -> list[str]:
    module = inspect.getmodule(func)
    documented = _doc_names(doc, "Raises")
    problems = []
    for name in sorted(_raised(func) - IGNORED_RAISES):
        exc = getattr(module, name, None) or getattr(builtins, name, None)
        if not (inspect.isclass(exc) and issubclass(exc, BaseException)):
            continue  # a variable holding an exception, e.g. ``raise err``
        ok = {c.__name__ for c in exc.__mro__ if c not in TOO_WIDE} | {name}
        if not ok & documented:
            problems.append(f"{path}: raises {name} but its Raises section does not say so")
    return problems


def _class_problems(path: str, cls) -> list[str]:
    doc = NumpyDocString(inspect.getdoc(cls) or "")
    if not (inspect.getdoc(cls) or "").strip():
        return [f"{path}: no docstring"]
    if issubclass(cls, BaseException):
        return []  # the constructor is CrownsError's (or ValueError's), documented there
    owner = next(c for c in cls.__mro__ if "__init__" in vars(c))
    if owner is not cls and not owner.__module__.startswith("crowns_solver"):
        return []  # e.g. an argparse.ArgumentParser subclass: the constructor is the library's
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    args = {n for n, p in sig.parameters.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    given = _doc_names(doc, "Parameters")
    problems = []
    for section in ("Parameters", "Attributes"):
        # one name described twice (Solution's pv_complete was, until session 21): the
        # reader cannot tell which description holds
        names = [part.strip().lstrip("*") for param in doc[section] for part in param.name.split(",")]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            problems.append(f"{path}: {section} describes {twice} more than once")
    missing = args - given - _doc_names(doc, "Attributes")
    if missing:
        problems.append(f"{path}: arguments {sorted(missing)} not documented (Parameters or Attributes)")
    unknown = given - args - {n.lstrip("*") for n in sig.parameters}
    if unknown and not dataclasses.is_dataclass(cls):
        problems.append(f"{path}: Parameters names {sorted(unknown)}, which the constructor does not take")
    elif unknown:
        problems.append(f"{path}: Parameters names {sorted(unknown)}, which are not fields")
    return problems


def _function_problems(path: str, func, cls) -> list[str]:
    if not func.__doc__:
        if cls is not None and _inherited(func, cls):
            return []
        return [f"{path}: no docstring"]
    result = numpydoc_validate.validate(path)
    problems = [f"{path}: {code} {msg}" for code, msg in result["errors"] if code in CODES]
    problems += _raises_problems(path, func, NumpyDocString(inspect.getdoc(func)))
    return problems


def all_problems() -> list[str]:
    """Every problem found, one line each (run this file as a script to print them)."""
    problems = []
    for path, obj, cls in _public():
        if inspect.isclass(obj):
            problems += _class_problems(path, obj)
        else:
            problems += _function_problems(path, obj, cls)
    return problems


def test_public_docstrings_follow_numpydoc():
    problems = all_problems()
    assert not problems, "\n".join(problems)


_PROBE = '''
from dataclasses import dataclass

from crowns_solver.errors import CardError, CrownsError


def f(card):
    """Do a thing.

    Returns
    -------
    int
        One.
    """
    if card:
        raise CardError("bad card")
    return 1


def g(card):
    """Do a thing.

    Parameters
    ----------
    card : str
        A card.
    colour : str
        Not an argument.

    Raises
    ------
    CrownsError
        Too wide to say which error it is.
    """
    if card:
        raise CardError("bad card")


def h(card):
    """Do a thing, saying it all.

    Parameters
    ----------
    card : str
        A card.

    Returns
    -------
    int
        One.

    Raises
    ------
    CardError
        If `card` is not empty.
    """
    if card:
        raise CardError("bad card")
    return 1


@dataclass
class Pair:
    """Two things.

    Attributes
    ----------
    a : int
        The first.
    """

    a: int
    b: int
'''


def test_the_checks_catch_what_they_claim_to(tmp_path, monkeypatch):
    # the checks themselves, on a module of known faults (and one function without any)
    (tmp_path / "docstring_probe_mod.py").write_text(_PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        mod = importlib.import_module("docstring_probe_mod")
        f = _function_problems("docstring_probe_mod.f", mod.f, None)
        g = _function_problems("docstring_probe_mod.g", mod.g, None)
        h = _function_problems("docstring_probe_mod.h", mod.h, None)
        pair = _class_problems("docstring_probe_mod.Pair", mod.Pair)
    finally:
        sys.modules.pop("docstring_probe_mod", None)
    assert any("PR01" in p and "card" in p for p in f), f
    assert any("raises CardError" in p for p in f), f
    assert any("PR02" in p and "colour" in p for p in g), g
    assert any("RT01" in p for p in g) is False, g          # g returns nothing: no Returns needed
    assert any("raises CardError" in p for p in g), g       # CrownsError is too wide to count
    assert h == [], h
    assert pair == ["docstring_probe_mod.Pair: arguments ['b'] not documented (Parameters or Attributes)"], pair


if __name__ == "__main__":  # python tests/test_docstrings.py [PREFIX]: print the problems
    import sys

    for line in all_problems():
        if line.startswith(tuple(sys.argv[1:]) or ""):
            print(line)
