"""Platform probes and environment switches, answered from the config point.

`_is_hip = is_hip()` and `os.getenv("SGLANG_X")` describe the machine the engine runs on, not
the one auditing it: their answers are config dimensions whose values come from the rule pack
(`[flags]`, `[switches]`). A probe or variable the pack does not list stays Unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from auditor.interpret.values import BoundBuiltin, RuntimeObject, Unknown, Why, is_unknown

if TYPE_CHECKING:
    from auditor.interpret.library import CallContext
    from auditor.interpret.machine import ConfigPoint

NOT_A_PROBE = object()
NOT_LISTED = object()  # an attribute an object of listed attributes does not have

# How code reads the environment: os.getenv(name[, default]), os.environ.get(name[, default])
ENV_GETTERS = frozenset({"os.getenv", "os.environ.get", "posix.getenv"})


def flag_dimension(probe: str) -> str:
    """The config dimension of a platform probe: `is_hip()`."""
    return f"{probe}()"


def switch_dimension(variable: str) -> str:
    """The config dimension of an environment switch: `$USE_HND_KVCACHE`."""
    return f"${variable}"


def probe_answer(point: ConfigPoint, name: str) -> Any:
    """The configured answer of probe `name()` (called without arguments) at this point (a runtime getter's object for
    `get_parallel()`), or NOT_A_PROBE."""
    dimension = flag_dimension(name)
    if dimension in point.values:
        return point.read(dimension)
    if name in point.runtime_getters:
        return RuntimeObject(f"{name}()")
    return NOT_A_PROBE


# reads of a config given as a dict (`get`) or a configparser (`getint("model", "layers")`)
CONFIG_READS = frozenset({"get", "getint", "getfloat", "getboolean"})


# methods of `str`: called on an attribute of an object a function run is given, they say the
# attribute is a text
TEXT_METHODS = frozenset(n for n in dir(str) if not n.startswith("_"))


def runtime_attribute(point: ConfigPoint, obj: RuntimeObject, name: str, location) -> Any:
    """`get_parallel().attn_dcp_size`: the configured value, an object holding configured
    values (`get_exec().kernel`), or Unknown when the pack lists nothing there."""
    dimension = f"{obj.path}.{name}"
    known = isinstance(obj.known, dict) and name in obj.known and dimension not in point.counts
    if known:  # the code's own mapping's (a count the build varies stays the point's)
        value = obj.known[name]
        if value is None or isinstance(value, (int, float)):  # (bools too: the code's flags)
            return value
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return RuntimeObject(dimension, obj.listed, given=obj.given, known=value)
    if dimension in point.values:
        return point.read(dimension)
    if f"{dimension}()" in point.values:  # `cfg.get_num_layers()`: read when called
        return BoundBuiltin(obj, name)
    if any(key.startswith(dimension + ".") for key in point.values):
        return RuntimeObject(dimension, obj.listed, given=obj.given)
    if obj.listed:  # the matrix lists every attribute it has
        return NOT_LISTED
    if name in CONFIG_READS and "()" not in obj.path:  # `cfg.get("k", d)`, `cp.getint(s, o)`
        return BoundBuiltin(obj, name)
    if obj.given and "()" not in obj.path and name in TEXT_METHODS and obj.path.count("."):
        # `args.kv_cache_dtype.startswith("fp8")`: the attribute is a text, a value of its
        # own (sampled later, then the texts the code looks it up or compares it with are
        # demanded), not an object whose `startswith` is a value
        point.pending.add(obj.path)
        return Unknown(f"{obj.path}, used as a text (.{name}), has no value yet", location)
    if obj.given and "()" not in obj.path:  # composed.py: what a function run is given
        point.pending.add(dimension)  # an object or a value: sampled later if a value
        return RuntimeObject(dimension, given=True)
    if "()" not in obj.path:  # a constructor's config object (roles.objects)
        return Unknown(
            f"{dimension}: no value for this attribute of {obj.path} (attributes that size "
            "buffers, dtypes and flags tested where a buffer is allocated are sampled)",
            location,
            Why.CONFIG_NOT_LISTED,
            detail=dimension,
        )
    getter = obj.path.split("()", 1)[0]
    return Unknown(
        f"{dimension} is not in the rule pack's [runtime.{getter}] table",
        location,
        Why.CONFIG_NOT_LISTED,
        detail=dimension,
    )


def variable_text(point: ConfigPoint, name: Any, location) -> Any:
    """The text of environment variable `name` at this point (None when unset; also when
    the pack lists no value for it), or Unknown."""
    if is_unknown(name):
        return name
    if not isinstance(name, str):
        return Unknown(f"environment variable named by a non-string {name!r}", location)
    dimension = switch_dimension(name)
    if dimension not in point.values:
        # not a switch of the pack: unset, as on a machine that does not set it (the code's
        # own default, as a parameter's default is), and said as an assumption in the report
        if name not in point.unset:
            point.unset.append(name)
        return None
    return point.read(dimension)


_UNSET = "environment variable {} taken as unset"


def unset_note(name: str) -> str:
    """How a point notes a variable read as unset (variable_text); `merge_unset` joins them."""
    return _UNSET.format(name)


def merge_unset(notes: list[str]) -> list[str]:
    """Notes with the variables read as unset said once, in one note, where the first was:
    `environment variables taken as unset (no value in the rule pack's [switches]): A, B`."""
    head, _, tail = _UNSET.partition("{}")
    names = list(
        dict.fromkeys(
            n[len(head) : -len(tail)] for n in notes if n.startswith(head) and n.endswith(tail)
        )
    )
    if not names:
        return notes
    plural = "s" if len(names) > 1 else ""
    joined = (
        f"environment variable{plural} taken as unset (no value in the rule pack's "
        f"[switches]): {', '.join(names)}"
    )
    merged: list[str] = []
    for note in notes:
        if note.startswith(head) and note.endswith(tail):
            if joined not in merged:
                merged.append(joined)
        else:
            merged.append(note)
    return merged


def read_environment(args: list, kwargs: dict, ctx: CallContext) -> Any:
    """`os.getenv(name, default=None)` and `os.environ.get(name, default=None)`."""
    if not args and "key" not in kwargs:
        return ctx.unknown("environment read without a variable name")
    name = args[0] if args else kwargs["key"]
    default = args[1] if len(args) > 1 else kwargs.get("default")
    text = variable_text(ctx.interpreter.point, name, ctx.location)
    if is_unknown(text):
        return text
    return default if text is None else text


def environment_item(point: ConfigPoint, name: Any, location) -> Any:
    """`os.environ[name]`: the text, or Unknown when unset (a KeyError is not followed)."""
    text = variable_text(point, name, location)
    if text is None:
        return Unknown(f"os.environ[{name!r}] with {name} unset raises KeyError", location)
    return text


def environment_contains(point: ConfigPoint, name: Any, location) -> Any:
    """`name in os.environ`."""
    text = variable_text(point, name, location)
    return text if is_unknown(text) else text is not None
