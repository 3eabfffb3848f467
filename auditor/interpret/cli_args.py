"""Command lines the audited code parses with `argparse`: the options it declares are config.

An in-house server sizes its pools from `parser.parse_args()`: `--kv-dtype` with its choices,
`--tp` with its default. Unmodelled, everything behind the namespace was unknown. The parser is
recorded as the code declares it (never run as the code's own); `parse_args` of a command line
the code spells out (`parse_args(["--tp", "2"])`) is parsed by the standard library's own
argparse from those declarations, and of the process's command line (`parse_args()`, or one
the interpreter does not know) gives each option its default, the choices of an option that
has them (and both values of a flag) being a config dimension named by its flag
(`--kv-dtype`), varied by the evaluation as any other (ConfigPoint.options).
"""

from __future__ import annotations

import argparse
import contextlib
import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from auditor.interpret.values import AttributeBag, ExternalRef, Unknown, is_unknown

if TYPE_CHECKING:
    from auditor.interpret.library import CallContext

_TYPES = {"builtins.int": int, "builtins.float": float, "builtins.str": str}
_SIMPLE = (str, int, float, bool, type(None))
_FLAG_ACTIONS = {"store_true": False, "store_false": True}  # action -> its default
_NO_VALUE = frozenset({"help", "version"})  # actions that set nothing


@dataclass
class Option:
    """One `add_argument(...)` as declared: its flags, destination, default and choices."""

    flags: tuple[str, ...]
    dest: str
    default: Any = None
    kind: type | None = None
    choices: tuple | None = None
    action: str | None = None
    const: Any = None
    refused: str | None = None  # why its value is not modelled (nargs, a callable type...)

    @property
    def dimension(self) -> str:
        return next((f for f in self.flags if f.startswith("--")), self.flags[0])


@dataclass(eq=False)
class ArgParser:
    """An `argparse.ArgumentParser` the audited code builds: the options it declares."""

    options: list[Option] = field(default_factory=list)
    defaults: dict = field(default_factory=dict)  # `set_defaults(...)`
    refused: str | None = None  # a declaration not modelled: what it parses is unknown


def new_parser(args: list, kwargs: dict, ctx: CallContext) -> ArgParser:
    parser = ArgParser()
    for name in ("argument_default", "parents", "fromfile_prefix_chars"):
        if kwargs.get(name) is not None:  # (defaults or options from elsewhere)
            parser.refused = f"{name}= given"
    return parser


@dataclass(frozen=True)
class OptionValue:
    """An option's value in a namespace parsed from the process's command line, read from
    the config point when the code reads it (so only the options read are varied)."""

    dimension: str
    values: tuple  # the default first


def resolved(point: Any, value: Any) -> Any:
    """The value of a namespace's attribute at this point (OptionValue: the point's value of
    its option, the default until the evaluation varies it)."""
    if type(value) is not OptionValue:
        return value
    point.options.setdefault(value.dimension, value.values)
    return point.read(value.dimension) if value.dimension in point.values else value.values[0]


def call(parser: ArgParser, name: str, args: list, kwargs: dict, ctx: CallContext) -> Any:
    """A method of the parser (or of one of its groups, which are the parser here)."""
    if name in ("add_argument_group", "add_mutually_exclusive_group"):
        return parser
    if name == "add_argument":
        _declare(parser, args, kwargs)
        return None
    if name == "set_defaults":
        if args or any(is_unknown(v) or not isinstance(v, _SIMPLE) for v in kwargs.values()):
            parser.refused = "set_defaults() of values not modelled"
        parser.defaults.update(kwargs)
        return None
    if name in ("parse_args", "parse_known_args"):
        namespace = _parse(parser, args, kwargs, ctx)
        if is_unknown(namespace) or name == "parse_args":
            return namespace
        return (namespace, [])
    return ctx.unknown(f"ArgumentParser.{name}() is not modelled")


def _declare(parser: ArgParser, args: list, kwargs: dict) -> None:
    if not args or not all(isinstance(a, str) and a for a in args):
        parser.refused = "add_argument() with flags that are not known texts"
        return
    long = next((a for a in args if a.startswith("--")), None)
    dest = kwargs.get("dest") or (long or args[0]).lstrip("-").replace("-", "_")
    if not isinstance(dest, str):
        parser.refused = "add_argument() with a destination that is no known text"
        return
    action = kwargs.get("action")
    option = Option(tuple(args), dest, action=action if isinstance(action, str) else None)
    if action is not None and not isinstance(action, str):
        option.refused = "an action class"
    elif action in _NO_VALUE:
        return
    elif action in _FLAG_ACTIONS:
        option.default = kwargs.get("default", _FLAG_ACTIONS[action])
    elif action not in (None, "store", "store_const"):
        option.refused = f"action={action!r}"
    else:
        option.default = kwargs.get("default")
        option.const = kwargs.get("const")
    kind = kwargs.get("type")
    if kind is not None:
        option.kind = _TYPES.get(kind.name) if isinstance(kind, ExternalRef) else None
        if option.kind is None:
            option.refused = option.refused or "a type= the interpreter does not model"
    choices = kwargs.get("choices")
    if choices is not None:
        if isinstance(choices, (list, tuple)) and all(isinstance(c, _SIMPLE) for c in choices):
            option.choices = tuple(choices)
        else:
            option.refused = option.refused or "choices the interpreter does not know"
    if "nargs" in kwargs or "required" in kwargs and kwargs["required"] is not False:
        option.refused = option.refused or "nargs= or required="
    if not args[0].startswith("-"):
        option.refused = option.refused or "a positional argument, given on the command line"
    if is_unknown(option.default) or not isinstance(option.default, _SIMPLE):
        option.refused = option.refused or "a default the interpreter does not know"
    elif isinstance(option.default, str) and option.kind in (int, float):
        try:  # (argparse converts a text default with type=, as here)
            option.default = option.kind(option.default)
        except ValueError:
            option.refused = option.refused or "a default its type= refuses"
    parser.options.append(option)


def _parse(parser: ArgParser, args: list, kwargs: dict, ctx: CallContext) -> Any:
    if parser.refused is not None:
        return ctx.unknown(f"parse_args() of a parser with {parser.refused}")
    if set(kwargs) - {"args"} or len(args) > 1:
        return ctx.unknown("parse_args() with a namespace= is not modelled")
    argv = args[0] if args else kwargs.get("args")
    if isinstance(argv, (list, tuple)) and all(isinstance(a, str) for a in argv):
        return _parse_known(parser, list(argv), ctx)
    # the process's own command line (`parse_args()`), or one not known: the defaults, and
    # the options with choices varied over them, each destination as argparse fills it
    attrs: dict[str, Any] = {}
    for dest in dict.fromkeys(o.dest for o in parser.options):
        attrs[dest] = _destination(parser, [o for o in parser.options if o.dest == dest], ctx)
    for name, value in parser.defaults.items():
        attrs.setdefault(name, value)
    return AttributeBag("argparse.Namespace", attrs)


def _destination(parser: ArgParser, options: list[Option], ctx: CallContext) -> Any:
    """A destination's value: its parser-level default (`set_defaults`) over the first
    option's, as argparse gives it, and what the options sharing it may set it to (a
    flag's other truth, the choices, a constant) varied as one dimension."""
    refused = next((o.refused for o in options if o.refused is not None), None)
    if refused is not None:
        return ctx.unknown(f"{options[0].dimension}: {refused}")
    default = parser.defaults.get(options[0].dest, options[0].default)
    others: list = []
    for option in options:
        if option.action in _FLAG_ACTIONS:
            others.append(not _FLAG_ACTIONS[option.action])  # (store_true sets True)
        elif option.action == "store_const":
            others.append(option.const)
        elif option.choices is not None:
            others.extend(option.choices)
    values = tuple(dict.fromkeys([default, *others]))
    if len(values) == 1 or not all(isinstance(v, _SIMPLE) for v in values):
        return default
    return OptionValue(options[0].dimension, values)


def _parse_known(parser: ArgParser, argv: list[str], ctx: CallContext) -> Any:
    """A command line the code spells out, parsed by argparse itself from the declarations
    (types only int, float and str; no callable of the audited code runs)."""
    if any(o.refused is not None for o in parser.options):
        refused = next(o for o in parser.options if o.refused is not None)
        return ctx.unknown(f"parse_args() of an option with {refused.refused}")
    try:
        real = argparse.ArgumentParser(add_help=False, exit_on_error=False)
        for option in parser.options:
            extra: dict[str, Any] = {"dest": option.dest}
            if option.action in _FLAG_ACTIONS:
                extra.update(action=option.action, default=option.default)
            elif option.action == "store_const":
                extra.update(action="store_const", const=option.const, default=option.default)
            else:
                extra["default"] = option.default
                if option.choices is not None:
                    extra["choices"] = option.choices
                if option.kind is not None:
                    extra["type"] = option.kind
            real.add_argument(*option.flags, **extra)
        real.set_defaults(**parser.defaults)
        with contextlib.redirect_stderr(io.StringIO()):
            found = real.parse_args(argv)
    except (SystemExit, argparse.ArgumentError, ValueError, TypeError) as error:
        return Unknown(f"argparse refuses the command line {argv}: {error}", ctx.location)
    return AttributeBag("argparse.Namespace", dict(vars(found)))
