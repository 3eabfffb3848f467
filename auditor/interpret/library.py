"""What the interpreter knows of code outside the audited tree: builtins, math, torch allocators.

Each entry computes on known values only and returns Unknown otherwise; dtype facts come from
torch itself. Anything not listed here is Unknown ("call to X outside the audited tree").
"""

from __future__ import annotations

import builtins
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from auditor import dtypes
from auditor.interpret import cli_args, closed_classes, environment, folds, lanes
from auditor.interpret.iteration import items_of
from auditor.interpret.values import (
    LANES_ACTIVE,
    AttributeBag,
    BoundBuiltin,
    ClassRef,
    DefaultDict,
    DeviceText,
    ExternalRef,
    FunctionRef,
    Instance,
    Lambda,
    OneShot,
    Partial,
    PartialSequence,
    RuntimeObject,
    StandInSample,
    Tensor,
    Unknown,
    UnknownAllocation,
    Why,
    is_unknown,
)
from auditor.location import Location

if sys.version_info >= (3, 11):
    import tomllib
else:  # (the package's own dependency there)
    import tomli as tomllib

if TYPE_CHECKING:
    from auditor.interpret.machine import Interpreter

ALLOCATORS = frozenset(
    {"torch.zeros", "torch.empty", "torch.ones", "torch.full", "torch.empty_strided"}
)
SIMPLE = (int, float, bool, str, type(None))


@dataclass(frozen=True)
class Record:
    """A plain read-only object from outside the tree, such as `torch.finfo(d)`."""

    kind: str
    fields: dict


class CallContext:
    """What a library function may use: the interpreter (for bounds), the call's location."""

    def __init__(self, interpreter: Interpreter, location: Location, arg_texts: list) -> None:
        self.interpreter = interpreter
        self.location = location
        self.arg_texts = arg_texts

    def unknown(
        self, reason: str, why: Why = Why.NOT_MODELLED, cause: Unknown | None = None, detail=""
    ) -> Unknown:
        return Unknown(reason, self.location, why, cause, detail)


def first_unknown(values) -> Unknown | None:
    for value in values:
        if is_unknown(value):
            return value
    return None


def _ints(values, ctx: CallContext, what: str) -> list[int] | Unknown:
    result = []
    for value in values:
        if is_unknown(value):
            return value
        if isinstance(value, ExternalRef):  # a module outside the tree, or one not parsed
            return ctx.unknown(f"{what} {value.name} is not defined in the audited code")
        if isinstance(value, bool) or not isinstance(value, int):
            return ctx.unknown(f"{what} is not an integer: {value!r}")
        result.append(value)
    return result


def shape_of(args: list, ctx: CallContext) -> tuple[int, ...] | Unknown:
    """The size argument(s) of an allocator: a tuple/list/torch.Size or ints given one by one."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        dims = list(args[0])
    elif len(args) == 1 and is_unknown(args[0]):
        return args[0]
    else:
        dims = list(args)
    limits = ctx.interpreter.limits
    if len(dims) > limits.max_shape_rank:
        return ctx.unknown(
            f"shape has {len(dims)} dimensions, over the limit of {limits.max_shape_rank}"
        )
    checked = _ints(dims, ctx, "shape dimension")
    if is_unknown(checked):
        return checked
    if any(d < 0 for d in checked):
        return ctx.unknown(f"negative dimension in shape {tuple(checked)}")
    return tuple(checked)


def numel(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def allocate(name: str, args: list, kwargs: dict, ctx: CallContext) -> Tensor | Unknown:
    """The tensor `name(*args, **kwargs)` allocates; an UnknownAllocation if its size or dtype
    cannot be determined (it is still a buffer: measure.buffers_of reports it)."""
    made = _allocate(name, args, kwargs, ctx)
    if is_unknown(made) and not isinstance(made, UnknownAllocation):
        return UnknownAllocation(made.reason, made.location, made.why, made.cause, made.detail)
    return made


def _allocate(name: str, args: list, kwargs: dict, ctx: CallContext) -> Tensor | Unknown:
    fill_value = None
    if name == "torch.full":
        fill_value = args[1] if len(args) > 1 else kwargs.get("fill_value")
        args = args[:1]
    if name == "torch.empty_strided":
        size_arg = args[0] if args else kwargs.get("size")
        stride_arg = args[1] if len(args) > 1 else kwargs.get("stride")
        shape = shape_of([size_arg], ctx)
        stride = shape_of([stride_arg], ctx)
        if is_unknown(shape):
            return shape
        if is_unknown(stride):
            return stride
        elements = 0 if 0 in shape else 1 + sum((s - 1) * st for s, st in zip(shape, stride))
    else:
        if not args and "size" in kwargs:
            args = [kwargs["size"]]
        shape = shape_of(args, ctx)
        if is_unknown(shape):
            return shape
        elements = numel(shape)
    dtype = kwargs.get("dtype", None)
    if dtype is None and name == "torch.full":
        fill = fill_value
        if is_unknown(fill):
            return Unknown(
                f"dtype of torch.full() follows an unresolved fill value: {fill.reason}",
                ctx.location,
                cause=fill,
            )
        if isinstance(fill, bool):
            dtype = dtypes.dtype_by_name("bool")
        elif isinstance(fill, int):
            dtype = dtypes.dtype_by_name("int64")
        elif isinstance(fill, complex):
            dtype = dtypes.dtype_by_name("complex64")
    if dtype is None:
        dtype = dtypes.default_dtype()
    if is_unknown(dtype):
        return Unknown(
            f"dtype of the allocation is unresolved: {dtype.reason}",
            dtype.location or ctx.location,
            cause=dtype,
        )
    if not dtypes.is_dtype(dtype):
        return ctx.unknown(f"dtype of the allocation is not a torch dtype: {dtype!r}")
    nbytes = elements * dtypes.itemsize(dtype)
    if nbytes.bit_length() > ctx.interpreter.limits.max_int_bits:
        return ctx.unknown("allocation size exceeds the integer limit")
    return Tensor(
        shape,
        dtype,
        nbytes,
        ctx.location,
        dims_text=tuple(ctx.arg_texts),
        trace=tuple(ctx.interpreter.call_sites),
        device=kwargs.get("device"),
    )


def _frombuffer(args: list, kwargs: dict, ctx: CallContext):
    """`torch.frombuffer(buf, dtype=d, count=n)`: n elements of d (the buffer's own length,
    often an mmap the interpreter cannot follow, matters only when count is not given)."""
    count = kwargs.get("count", args[2] if len(args) > 2 else -1)
    dtype = kwargs.get("dtype", args[1] if len(args) > 1 else None)
    for value in (count, dtype):
        if is_unknown(value):
            return value
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        return ctx.unknown("torch.frombuffer() without a known element count")
    if not dtypes.is_dtype(dtype):
        return ctx.unknown("torch.frombuffer() without a torch dtype")
    return Tensor(
        (count,),
        dtype,
        count * dtypes.itemsize(dtype),
        ctx.location,
        trace=tuple(ctx.interpreter.call_sites),
    )


def _tensor_from_data(args: list, kwargs: dict, ctx: CallContext):
    """`torch.tensor([...], dtype=d, device=x)`: a small table built from data (pointer and
    stride tables): its shape, dtype and device are known, its values need not be. Never a
    buffer of the pool (measure.py leaves tables out)."""
    data = args[0] if args else kwargs.get("data")
    dtype = kwargs.get("dtype")
    if is_unknown(data) or is_unknown(dtype):
        return data if is_unknown(data) else dtype
    if not isinstance(data, (list, tuple)) or any(isinstance(v, (list, tuple)) for v in data):
        return ctx.unknown("torch.tensor() of data other than a flat sequence is not modelled")
    if not dtypes.is_dtype(dtype):
        return ctx.unknown("torch.tensor() without a torch dtype is not modelled")
    device = kwargs.get("device", "cpu")
    return Tensor(
        (len(data),),
        dtype,
        len(data) * dtypes.itemsize(dtype),
        ctx.location,
        trace=tuple(ctx.interpreter.call_sites),
        device=device,
        metadata=True,
    )


def _min_max(fn: Callable) -> Callable:
    def run(args: list, kwargs: dict, ctx: CallContext):
        if len(args) == 1 and is_unknown(args[0]):
            return args[0]
        if set(kwargs) - {"key", "default"}:
            return ctx.unknown(f"{fn.__name__}() with these keyword arguments is not modelled")
        if len(args) == 1:  # one argument: Python iterates it, and an int is an error
            if not isinstance(args[0], (list, tuple, frozenset, str, dict)):
                return ctx.unknown(f"{fn.__name__}() of one {type(args[0]).__name__}")
            items = list(args[0])
        elif "default" in kwargs:
            return ctx.unknown(f"{fn.__name__}() with default= and several arguments")
        else:
            items = args
        unknown = first_unknown(items)
        if unknown is not None:
            return unknown
        if not items:
            return kwargs.get("default", ctx.unknown(f"{fn.__name__}() of an empty sequence"))
        keys = _keys_of(items, kwargs.get("key"), ctx)
        if is_unknown(keys):
            return keys
        try:
            return items[fn(range(len(items)), key=keys.__getitem__)]
        except TypeError as error:
            return ctx.unknown(f"{fn.__name__}(): {error}")

    return run


def _keys_of(items: list, key: Any, ctx: CallContext) -> list | Unknown:
    """What `min`, `max` and `sorted` compare: the items, or `key(item)` of each, called
    through the interpreter (`max(specs, key=lambda s: s.page_size)`)."""
    if key is None:
        return list(items)
    keys = []
    for item in items:
        found = ctx.interpreter.call(key, [item], {}, ctx.location)
        if is_unknown(found):
            return found
        keys.append(found)
    return keys


def _numeric(fn: Callable, name: str) -> Callable:
    def run(args: list, kwargs: dict, ctx: CallContext):
        unknown = first_unknown(list(args) + list(kwargs.values()))
        if unknown is not None:
            return unknown
        if not all(isinstance(a, SIMPLE) for a in args):
            return ctx.unknown(f"{name}() of a value the interpreter does not model")
        try:
            result = fn(*args, **kwargs)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError) as error:
            return ctx.unknown(f"{name}(): {error}")
        return ctx.interpreter.bounded(result, ctx.location)

    return run


def _range(args: list, kwargs: dict, ctx: CallContext):
    bounds = _ints(args, ctx, "range() argument")
    if is_unknown(bounds):
        return bounds
    try:
        values = range(*bounds)
    except (TypeError, ValueError) as error:
        return ctx.unknown(f"range(): {error}")
    limit = ctx.interpreter.limits.max_sequence_length
    if len(values) > limit:
        return ctx.unknown(f"range of {len(values)} items, over the limit of {limit}")
    return list(values)


def _isinstance(args: list, kwargs: dict, ctx: CallContext):
    if len(args) != 2:
        return ctx.unknown("isinstance() needs two arguments")
    obj, classes = args
    if is_unknown(obj) or is_unknown(classes):
        return obj if is_unknown(obj) else classes
    options = classes if isinstance(classes, tuple) else (classes,)
    undecided = None
    for option in options:
        verdict = instance_of(obj, option, ctx)
        if verdict is True:
            return True
        if verdict is None:
            undecided = ctx.unknown(f"isinstance() against {option!r} cannot be decided")
    return undecided if undecided is not None else False


_BUILTIN_TYPES = {
    "builtins.int": int,
    "builtins.float": float,
    "builtins.bool": bool,
    "builtins.str": str,
    "builtins.tuple": tuple,
    "builtins.list": list,
    "builtins.dict": dict,
}


def instance_of(obj: Any, option: Any, ctx: CallContext) -> bool | None:
    if isinstance(option, ClassRef):
        if isinstance(obj, Instance):
            return option.cls in obj.cls.mro()
        return False if isinstance(obj, (*SIMPLE, tuple, list, dict)) else None
    if isinstance(option, ExternalRef):
        if option.name in _BUILTIN_TYPES:
            if isinstance(obj, Instance):
                return None if obj.cls.has_opaque_base() else False
            return isinstance(obj, _BUILTIN_TYPES[option.name])
        if option.name == "torch.dtype":
            return dtypes.is_dtype(obj)
        if option.name == "torch.Tensor":
            return isinstance(obj, Tensor)
        if option.name == "torch.device":
            if isinstance(obj, DeviceText):
                return True
            simple = isinstance(obj, (*SIMPLE, tuple, list, dict, Tensor))
            return False if simple or dtypes.is_dtype(obj) else None
    return None


def _element_size(args: list, kwargs: dict, ctx: CallContext):
    if len(args) != 1:
        return ctx.unknown("_element_size() needs one dtype")
    if is_unknown(args[0]):
        return args[0]
    if not dtypes.is_dtype(args[0]):
        return ctx.unknown(f"_element_size() of a non-dtype {args[0]!r}")
    return dtypes.itemsize(args[0])


def _finfo(kind: str) -> Callable:
    def run(args: list, kwargs: dict, ctx: CallContext):
        if len(args) != 1 or is_unknown(args[0]) or not dtypes.is_dtype(args[0]):
            return (
                args[0]
                if args and is_unknown(args[0])
                else ctx.unknown(f"torch.{kind}() of a non-dtype")
            )
        info = args[0].info(kind)  # what torch.finfo/iinfo gave for it (dtypes.read_facts)
        if "raise" in info:  # as torch raised it (not a TypeError)
            kind_of = getattr(builtins, str(info["raise"]), None)
            ok = isinstance(kind_of, type) and issubclass(kind_of, Exception)
            raise (kind_of if ok else RuntimeError)(info["error"])
        if "error" in info:
            return ctx.unknown(f"torch.{kind}({dtypes.dtype_name(args[0])}): {info['error']}")
        fields = {"bits": info["bits"], "max": info["max"], "min": info["min"]}
        return Record(kind, {**fields, "dtype": info["dtype"]})

    return run


def _device(args: list, kwargs: dict, ctx: CallContext):
    """`torch.device("cuda")`, `torch.device("cuda", 0)`: its text (values.DeviceText)."""
    if not args or is_unknown(args[0]):
        return args[0] if args else ctx.unknown("torch.device() without a device")
    if isinstance(args[0], str) and ":" not in args[0] and len(args) == 2:
        if isinstance(args[1], int) and not isinstance(args[1], bool):
            return DeviceText(f"{args[0]}:{args[1]}")
        return ctx.unknown("torch.device() with an index not modelled")
    if isinstance(args[0], str) and len(args) == 1:
        return DeviceText(args[0])
    return ctx.unknown("torch.device() of a value not modelled")


def unbind(tensor: Tensor, dim: Any, ctx: CallContext) -> Any:
    """`slab.unbind(0)`: one view per index of `dim`, each of the shape without it."""
    if is_unknown(dim):
        return dim
    rank = len(tensor.shape)
    if isinstance(dim, bool) or not isinstance(dim, int) or not -rank <= dim < rank:
        return ctx.unknown(f"unbind() over dimension {dim!r} of a {rank}-dimensional tensor")
    dim %= rank
    count = tensor.shape[dim]
    if count > ctx.interpreter.limits.max_sequence_length:
        return ctx.unknown(f"unbind() into {count} tensors, over the length limit")
    shape = tensor.shape[:dim] + tensor.shape[dim + 1 :]
    nbytes = numel(shape) * dtypes.itemsize(tensor.dtype)
    trace = tuple(ctx.interpreter.call_sites)
    base = tensor.view_of if tensor.view_of is not None else tensor.ident
    return [
        Tensor(
            shape,
            tensor.dtype,
            nbytes,
            ctx.location,
            trace=trace,
            view_of=base,
            device=tensor.device,
        )
        for _ in range(count)
    ]


def _to_tuple(args: list, kwargs: dict, ctx: CallContext):
    if not args:
        return ()
    items = items_of(ctx.interpreter, args[0], ctx.location)
    if items is not None:  # (a sequence known in part is unknown here)
        return items
    if isinstance(args[0], Tensor) and args[0].shape:  # iterating a tensor: its rows, as unbind
        rows = unbind(args[0], 0, ctx)
        return rows if is_unknown(rows) else tuple(rows)
    return ctx.unknown("tuple() of a value the interpreter does not model")


def _wrapped_tensor(args: list, kwargs: dict, ctx: CallContext):
    """`nn.Parameter(t, requires_grad=False)`, `nn.Buffer(t)`: `t` itself (the same storage)."""
    data = args[0] if args else kwargs.get("data")
    if data is None:
        return ctx.unknown("a parameter made without its tensor (an empty one)")
    if isinstance(data, Tensor) or is_unknown(data):
        return data
    return ctx.unknown(f"a parameter of a {type(data).__name__}, not of a tensor")


def _to_list(args: list, kwargs: dict, ctx: CallContext):
    result = _to_tuple(args, kwargs, ctx)
    return result if is_unknown(result) else list(result)


def _to_frozenset(args: list, kwargs: dict, ctx: CallContext, name: str):
    """`set(items)` / `frozenset(items)` of known hashable items, for membership tests (`i not
    in set(local_layers)`): a frozenset, so that changing it (`s.add(x)`) stays unknown."""
    if kwargs or len(args) > 1:
        return ctx.unknown(f"{name}() takes one iterable")
    items = _to_tuple(args, {}, ctx)
    if is_unknown(items):
        return items
    try:
        return frozenset(items)
    except TypeError:  # (Python refuses unhashable items too)
        return ctx.unknown(f"{name}() of unhashable items")


def _to_dict(args: list, kwargs: dict, ctx: CallContext):
    if args and is_unknown(args[0]):
        return args[0]
    if args and isinstance(args[0], dict):
        return {**args[0], **kwargs}
    if args and isinstance(args[0], (list, tuple)):  # `dict(zip(names, sizes))`: of pairs
        unknown = first_unknown(args[0])
        if unknown is not None:
            return unknown
        if not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in args[0]):
            return ctx.unknown("dict() of items that are not pairs")
        try:
            return {**dict(args[0]), **kwargs}
        except TypeError:  # (an unhashable key: Python refuses it too)
            return ctx.unknown("dict() of pairs with an unhashable key")
    if args:
        return ctx.unknown("dict() from a value the interpreter does not model")
    return dict(kwargs)


def _sum(args: list, kwargs: dict, ctx: CallContext):
    if not args:
        return ctx.unknown("sum() needs an iterable")
    if is_unknown(args[0]):
        return args[0]
    if not isinstance(args[0], (list, tuple)):
        return ctx.unknown("sum() of a value the interpreter does not model")
    return _checked_sum(args, ctx)


def _checked_sum(args: list, ctx: CallContext):
    items = list(args[0])
    unknown = first_unknown(items)
    if unknown is not None:
        return unknown
    if not all(isinstance(i, (int, float)) for i in items):
        return ctx.unknown("sum() of non-numbers")
    start = args[1] if len(args) > 1 else 0
    return ctx.interpreter.bounded(sum(items, start), ctx.location)


def _zip(args: list, kwargs: dict, ctx: CallContext):
    if kwargs:
        return ctx.unknown("zip() with keyword arguments is not modelled")
    unknown = first_unknown(args)
    if unknown is not None:
        return unknown
    if not all(isinstance(a, (list, tuple, str)) for a in args):
        return ctx.unknown("zip() of a value the interpreter does not model")
    return list(zip(*args))


def _map(args: list, kwargs: dict, ctx: CallContext):
    """`map(f, items, ...)`: f called on each item, through the interpreter (a lambda, a
    function or method of the audited tree, a modelled library function), as a list."""
    if kwargs or len(args) < 2:
        return ctx.unknown("map() needs a function and an iterable")
    unknown = first_unknown(args)
    if unknown is not None:
        return unknown
    if not all(isinstance(a, (list, tuple, str)) for a in args[1:]):
        return ctx.unknown("map() over a value the interpreter does not model")
    results = []
    for items in zip(*args[1:]):
        result = ctx.interpreter.call(args[0], list(items), {}, ctx.location)
        results.append(result)
    return results


def _sorted(args: list, kwargs: dict, ctx: CallContext):
    """`sorted(items, key=..., reverse=...)` of numbers or text (or items whose keys are),
    as a list."""
    if len(args) != 1 or set(kwargs) - {"reverse", "key"}:
        return ctx.unknown("sorted() takes one iterable, a key and reverse")
    unknown = first_unknown([args[0], *kwargs.values()])
    if unknown is not None:
        return unknown
    items = list(args[0].keys()) if isinstance(args[0], dict) else args[0]
    if isinstance(items, frozenset):  # (a set: sorted gives its items in order)
        items = list(items)
    if not isinstance(items, (list, tuple, str, range)):
        return ctx.unknown("sorted() of a value the interpreter does not model")
    keys = _keys_of(list(items), kwargs.get("key"), ctx)
    if is_unknown(keys):
        return keys
    if not all(isinstance(k, (int, float, str)) and not isinstance(k, bool) for k in keys):
        return ctx.unknown("sorted() of values other than numbers and text")
    try:
        order = sorted(
            range(len(keys)), key=keys.__getitem__, reverse=bool(kwargs.get("reverse", False))
        )
    except TypeError:
        return ctx.unknown("sorted() of numbers mixed with text")
    return [items[i] for i in order]


def _reversed(args: list, kwargs: dict, ctx: CallContext):
    """`reversed(items)` of a sequence (a dict: its keys): the items it yields (OneShot)."""
    if len(args) != 1 or kwargs:
        return ctx.unknown("reversed() takes one sequence")
    if is_unknown(args[0]):  # (a sequence known in part is not reversed by its head)
        return ctx.unknown("reversed() of a sequence not known whole")
    items = list(args[0].keys()) if isinstance(args[0], dict) else args[0]
    if isinstance(items, OneShot) or not isinstance(items, (list, tuple, str, range)):
        return ctx.unknown("reversed() of a value the interpreter does not model")
    return OneShot(reversed(items))


def _repeat(args: list, kwargs: dict, ctx: CallContext):
    """`itertools.repeat(x, n)`: n times x, as a list (without n it never ends: unknown)."""
    times = kwargs.get("times", args[1] if len(args) > 1 else None)
    if not args or times is None:
        return ctx.unknown("itertools.repeat() without a count")
    if is_unknown(times):
        return times
    if not isinstance(times, int) or isinstance(times, bool):
        return ctx.unknown("itertools.repeat() with a count that is not an int")
    limit = ctx.interpreter.limits.max_sequence_length
    if times > limit:
        return ctx.unknown(f"itertools.repeat() of {times} items, over the limit of {limit}")
    return [args[0]] * max(times, 0)


def _enumerate(args: list, kwargs: dict, ctx: CallContext):
    start = kwargs.get("start", args[1] if len(args) > 1 else 0)
    if args and isinstance(args[0], PartialSequence) and isinstance(start, int):
        known = tuple(enumerate(args[0].known, start))
        first = args[0]
        return PartialSequence(
            first.reason, first.location, first.why, first.cause, first.detail, known=known
        )
    if not args or is_unknown(args[0]) or is_unknown(start):
        return args[0] if args and is_unknown(args[0]) else ctx.unknown("enumerate() not modelled")
    if not isinstance(args[0], (list, tuple, str)) or not isinstance(start, int):
        return ctx.unknown("enumerate() of a value the interpreter does not model")
    return list(enumerate(args[0], start))


def _next(args: list, kwargs: dict, ctx: CallContext):
    """`next(iter)` over a known sequence (a generator expression is one): its first item."""
    if args and isinstance(args[0], OneShot):
        return ctx.unknown("next() of an iterator: each call moves it on, not modelled")
    if not args or not isinstance(args[0], (list, tuple)):
        return args[0] if args and is_unknown(args[0]) else ctx.unknown("next() not modelled")
    if args[0]:
        return args[0][0]
    return args[1] if len(args) > 1 else ctx.unknown("next() of an empty sequence raises")


def _any_all(which: Callable) -> Callable:
    """`any`/`all` over a known sequence of plain values; an Unknown item decides nothing
    unless a known item already decides the answer."""

    def call(args: list, kwargs: dict, ctx: CallContext):
        name = which.__name__
        if len(args) != 1 or not isinstance(args[0], (list, tuple)):
            return (
                args[0]
                if args and is_unknown(args[0])
                else ctx.unknown(f"{name}() of a value not modelled")
            )
        known = [v for v in args[0] if isinstance(v, (bool, int, float, str, type(None)))]
        decisive = which is all and not all(known) or which is any and any(known)
        if decisive or len(known) == len(args[0]):
            return which(known)
        unknown = next((v for v in args[0] if is_unknown(v)), None)
        if unknown is not None:
            return unknown
        return ctx.unknown(f"{name}() of values the interpreter does not model")

    return call


def _len(args: list, kwargs: dict, ctx: CallContext):
    if args and isinstance(args[0], OneShot):
        return ctx.unknown("len() of an iterator raises TypeError")
    if args and isinstance(args[0], (tuple, list, dict, str)):
        return len(args[0])
    if args and is_unknown(args[0]):
        return args[0]
    if args and isinstance(args[0], Tensor) and args[0].shape:
        return args[0].shape[0]  # torch: the length of the first dimension
    return ctx.unknown("len() of a value the interpreter does not model")


def _simple_namespace(args: list, kwargs: dict, ctx: CallContext):
    """`types.SimpleNamespace(tp=2, kv_dtype="fp8")`: an object holding those attributes."""
    if len(args) > 1 or (args and not isinstance(args[0], dict)):
        return ctx.unknown("SimpleNamespace() of a value that is not a known mapping")
    attrs = dict(args[0]) if args else {}
    if not all(isinstance(k, str) for k in attrs):
        return ctx.unknown("SimpleNamespace() of a mapping with keys that are not texts")
    attrs.update(kwargs)
    return AttributeBag("types.SimpleNamespace", attrs)


def _defaultdict(args: list, kwargs: dict, ctx: CallContext):
    factory = args[0] if args else None
    if len(args) > 1 and not isinstance(args[1], dict):
        return args[1] if is_unknown(args[1]) else ctx.unknown("defaultdict() from a non-dict")
    return DefaultDict(factory, args[1] if len(args) > 1 else {}, **kwargs)


def _str(args: list, kwargs: dict, ctx: CallContext):
    """`str(x)` of a number or text, and of a torch dtype as torch writes it ("torch.bfloat16":
    a layout record that carries its dtype as text, read back with `getattr(torch, name)`)."""
    if len(args) == 1 and not kwargs and dtypes.is_dtype(args[0]):
        return "torch." + dtypes.dtype_name(args[0])
    return _STR(args, kwargs, ctx)


_STR = _numeric(str, "str")


def _ignore(args: list, kwargs: dict, ctx: CallContext):
    return None


def _hasattr(args: list, kwargs: dict, ctx: CallContext):
    if len(args) != 2 or not isinstance(args[1], str):
        return ctx.unknown("hasattr() needs an object and a constant name")
    if _scalar_lacks(args[0], args[1]):
        return False
    found = ctx.interpreter.lookup_attribute(args[0], args[1], ctx.location)
    if found is ABSENT:
        return False
    return found if is_unknown(found) else True


def _getattr(args: list, kwargs: dict, ctx: CallContext):
    if len(args) not in (2, 3) or not isinstance(args[1], str):
        return ctx.unknown("getattr() needs an object and a constant name")
    if _scalar_lacks(args[0], args[1]):
        found = ABSENT
    else:
        found = ctx.interpreter.lookup_attribute(args[0], args[1], ctx.location)
    if found is ABSENT:
        return args[2] if len(args) == 3 else ctx.unknown(f"object has no attribute {args[1]!r}")
    if len(args) == 3 and _never_given(args[0], args[1], found):
        # a stand-in's attribute its class never gives its instances: the code's fallback
        what = f"{args[0].path}.{args[1]}"
        if what not in ctx.interpreter.point.absent:
            ctx.interpreter.point.absent.append(what)
        return args[2]
    return found


def _never_given(obj: Any, name: str, found: Any) -> bool:
    """`getattr(settings, "quant_group", 64)` of a config object's stand-in, which the point
    has no value for, where the object's class cannot have it (closed_classes.py)."""
    return (
        isinstance(obj, RuntimeObject)
        and obj.klass is not None
        and is_unknown(found)
        and found.why is Why.CONFIG_NOT_LISTED
        and closed_classes.lacks(obj.klass, name)
    )


def set_attribute(args: list, kwargs: dict, ctx: CallContext):
    """`setattr(self, name, torch.empty(...))` in a loop over a table of buffers: the
    attribute set, as `self.<name> = ...` sets it. A name not known makes the object
    incomplete (what it holds may be set on that path), never guessed."""
    if len(args) != 3 or kwargs:
        return ctx.unknown("setattr() needs an object, a name and a value")
    obj, name, value = args
    if isinstance(obj, AttributeBag) and isinstance(name, str):
        obj.attrs[name] = value
        return None
    if not isinstance(obj, Instance):
        return ctx.unknown("setattr() on an object the interpreter does not model")
    if not isinstance(name, str):
        why = name if is_unknown(name) else ctx.unknown("setattr() with a name that is no text")
        if obj.incomplete is None:
            obj.incomplete = why
        return None
    setter = ctx.interpreter.property_setter(obj.cls, name)
    if setter is not None:
        ctx.interpreter.call_function(setter, obj, [value], {}, ctx.location, setter.owner)
        return None
    obj.attrs[name] = value
    obj.set_sites[name] = ctx.location
    return None


def _scalar_lacks(value: Any, name: str) -> bool:
    """`getattr(None, "x", d)`: None, booleans and numbers have a fixed set of attributes, so
    whether one exists is known (a config object left None: `getattr(quant_config, ...)`)."""
    plain = value is None or type(value) in (bool, int, float, StandInSample)
    return plain and not hasattr(int(value) if type(value) is StandInSample else value, name)


def _callable(args: list, kwargs: dict, ctx: CallContext):
    if len(args) != 1:
        return ctx.unknown("callable() needs one argument")
    value = args[0]
    if is_unknown(value):
        return value
    if isinstance(value, (*SIMPLE, tuple, list, dict, Tensor, Record)) or dtypes.is_dtype(value):
        return False
    if isinstance(value, (ClassRef, BoundBuiltin, ExternalRef, FunctionRef, Lambda, Partial)):
        return True
    if isinstance(value, Instance):
        found = ctx.interpreter.lookup_attribute(value, "__call__", ctx.location)
        return found if is_unknown(found) else found is not ABSENT
    return ctx.unknown(f"callable() of a {type(value).__name__} is not modelled")


def _type(args: list, kwargs: dict, ctx: CallContext):
    if len(args) == 1 and isinstance(args[0], Instance):
        return ClassRef(args[0].cls)
    return ctx.unknown("type() of a value the interpreter does not model")


def _divmod(args: list, kwargs: dict, ctx: CallContext):
    return _numeric(divmod, "divmod")(args, kwargs, ctx)


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()


JSON_TEXT_LIMIT = 65536  # characters: a config embedded in a module, not a data file


def _plain_data(value: Any, depth: int = 0) -> bool:
    """Whether a value is JSON-like data (dicts, lists, tuples of scalars), which copying or
    parsing cannot give behaviour to."""
    if isinstance(value, SIMPLE):
        return True
    if depth > 20:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, SIMPLE) and _plain_data(v, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_plain_data(v, depth + 1) for v in value)
    return False


def _json_loads(args: list, kwargs: dict, ctx: CallContext):
    """`json.loads(TEXT)` of a known text: configs embedded in a module as JSON. Parsing data
    runs none of the audited code; hooks (`object_hook=`...) are not modelled."""
    if kwargs or len(args) != 1 or not isinstance(args[0], str):
        return ctx.unknown("json.loads() of a value that is not a known text, or with hooks")
    if len(args[0]) > JSON_TEXT_LIMIT:
        return ctx.unknown(f"json.loads() of a text over {JSON_TEXT_LIMIT} characters")
    try:
        return json.loads(args[0])
    except ValueError as error:  # the code would raise here too: no layout to read
        return ctx.unknown(f"json.loads() of a text that is no JSON: {error}")


_JSON_DUMPS_OPTIONS = frozenset({"indent", "sort_keys", "separators", "ensure_ascii"})


def _json_dumps(args: list, kwargs: dict, ctx: CallContext):
    """`json.dumps(data)` of plain data: the text, as a layout sent through JSON is (read back
    by `json.loads`, tuples become lists, as they do). Hooks (`default=`, `cls=`) are not
    modelled."""
    if len(args) != 1 or set(kwargs) - _JSON_DUMPS_OPTIONS:
        return ctx.unknown("json.dumps() of one value, with options other than formatting")
    unknown = first_unknown([args[0], *kwargs.values()])
    if unknown is not None:
        return unknown
    if not _plain_data(args[0]) or not all(_plain_data(v) for v in kwargs.values()):
        return ctx.unknown("json.dumps() of a value that is not plain data")
    try:
        text = json.dumps(args[0], **kwargs)
    except (TypeError, ValueError) as error:  # (a key JSON refuses: the code raises too)
        return ctx.unknown(f"json.dumps(): {error}")
    if len(text) > JSON_TEXT_LIMIT:
        return ctx.unknown(f"json.dumps() of a text over {JSON_TEXT_LIMIT} characters")
    return text


def _toml_loads(args: list, kwargs: dict, ctx: CallContext):
    """`tomllib.loads(TEXT)` of a known text: a config embedded in a module as TOML. Values
    TOML gives that are not plain data (dates, times) leave the result unknown."""
    if kwargs or len(args) != 1 or not isinstance(args[0], str):
        return ctx.unknown("tomllib.loads() of a value that is not a known text")
    if len(args[0]) > JSON_TEXT_LIMIT:
        return ctx.unknown(f"tomllib.loads() of a text over {JSON_TEXT_LIMIT} characters")
    try:
        value = tomllib.loads(args[0])
    except tomllib.TOMLDecodeError as error:  # the code would raise here too
        return ctx.unknown(f"tomllib.loads() of a text that is no TOML: {error}")
    if not _plain_data(value):
        return ctx.unknown("tomllib.loads() gave dates or times, which are not modelled")
    return value


def _copy_of(deep: bool) -> Callable:
    """`copy.copy` / `copy.deepcopy` of plain data (a dict of settings): an equal new value.
    Anything else (an instance, a tensor) is not modelled."""

    def copy_value(args: list, kwargs: dict, ctx: CallContext):
        if kwargs or len(args) != 1 or not _plain_data(args[0]):
            return ctx.unknown(f"copy.{'deepcopy' if deep else 'copy'}() of a non-data value")
        value = args[0]
        if not deep:
            return type(value)(value) if isinstance(value, (dict, list)) else value
        return json_copy(value)

    return copy_value


def json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(json_copy(v) for v in value)
    return value


def _cdiv(args: list, kwargs: dict, ctx: CallContext):
    return _numeric(lambda a, b: -(-a // b), "cdiv")(args, kwargs, ctx)


def _partial(args: list, kwargs: dict, ctx: CallContext):
    """`functools.partial(torch.zeros, device=device)`, called later as the function is."""
    if not args:
        return ctx.unknown("functools.partial() needs a function")
    return Partial(args[0], tuple(args[1:]), dict(kwargs))


def _dataclass_replace(args: list, kwargs: dict, ctx: CallContext):
    """`dataclasses.replace(cfg, cache_dtype="fp8")` of a dataclass of the tree."""
    from auditor.interpret.records import is_dataclass_of_tree

    old = args[0] if len(args) == 1 else None
    if (  # a stand-in for a config object whose fields are the point's: those fields
        isinstance(old, RuntimeObject)
        and old.klass is not None
        and old.known is None
        and is_dataclass_of_tree(old.klass)
    ):
        return replaced(_fields_read(old, ctx), kwargs, ctx, "dataclasses.replace()")
    if not isinstance(old, Instance) or not is_dataclass_of_tree(old.cls):
        return ctx.unknown("dataclasses.replace() of a value that is no dataclass of the tree")
    return replaced(old, kwargs, ctx, "dataclasses.replace()")


def _fields_read(standin: RuntimeObject, ctx: CallContext) -> Instance:
    """A stand-in's fields, each read as the code would read it (`cfg.block_size`), held by an
    object of its class: what `replace` copies."""
    from auditor.interpret.records import dataclass_fields

    held = Instance(standin.klass)
    for name, _, _ in dataclass_fields(standin.klass):
        held.attrs[name] = ctx.interpreter.get_attribute(standin, name, ctx.location)
    return held


def replaced(old: Instance, changes: dict, ctx: CallContext, how: str) -> Any:
    """A new object of `old`'s class built by its constructor from `old`'s fields with
    `changes` in place, as `dataclasses.replace` and a NamedTuple's `_replace` build it. A
    field not given to the constructor (`field(init=False)`, `ClassVar`, `InitVar`), a field
    `old` lacks, or a change naming no field is not modelled."""
    from auditor.interpret.records import annotation_head, declared_fields, field_spec

    if old.incomplete is not None:
        return ctx.unknown(f"{how} of an object built in part", cause=old.incomplete)
    own = [m for m in ("__init__", "__new__") if old.cls.find_method(m) is not None]
    if own:  # (it may take other arguments than the fields, or none of them)
        return ctx.unknown(f"{how} of {old.cls.name}, which has its own {own[0]}")
    fields = declared_fields(old.cls)
    for name, default, klass, annotation in fields:
        if not field_spec(default, klass).init or annotation_head(annotation) in (
            "ClassVar",
            "InitVar",
        ):
            return ctx.unknown(f"{how} of {old.cls.name}: field {name!r} is not an argument")
    names = [name for name, _, _, _ in fields]
    unnamed = [key for key in changes if key not in names]
    if unnamed:
        return ctx.unknown(f"{how} of {old.cls.name}: {unnamed[0]!r} names no field")
    missing = [name for name in names if name not in changes and name not in old.attrs]
    if missing:
        return ctx.unknown(f"{how} of {old.cls.name}: field {missing[0]!r} is not set")
    given = {name: changes[name] if name in changes else old.attrs[name] for name in names}
    return ctx.interpreter.instantiate(old.cls, [], given, ctx.location)


def register_buffer(args: list, kwargs: dict, ctx: CallContext):
    """`self.register_buffer("conv_state", torch.zeros(...), persistent=False)` of a class
    deriving from torch's `nn.Module` (or `nn.Module.register_buffer(self, ...)`): the
    attribute set, as `setattr` sets it."""
    module = args[0] if args else None
    name = args[1] if len(args) > 1 else kwargs.get("name")
    value = args[2] if len(args) > 2 else kwargs.get("tensor")
    return set_attribute([module, name, value], {}, ctx)


FUNCTIONS: dict[str, Callable] = {
    "builtins.int": _numeric(int, "int"),
    "builtins.float": _numeric(float, "float"),
    "builtins.bool": _numeric(bool, "bool"),
    "builtins.str": _str,
    "builtins.abs": _numeric(abs, "abs"),
    "builtins.round": _numeric(round, "round"),
    "builtins.divmod": _divmod,
    "builtins.min": _min_max(min),
    "builtins.max": _min_max(max),
    "builtins.sum": _sum,
    "builtins.len": _len,
    "builtins.zip": _zip,
    "builtins.enumerate": _enumerate,
    "builtins.map": _map,
    "builtins.sorted": _sorted,
    "builtins.reversed": _reversed,
    "itertools.repeat": _repeat,
    "functools.partial": _partial,
    "builtins.next": _next,
    "builtins.any": _any_all(any),
    "builtins.all": _any_all(all),
    "builtins.range": _range,
    "builtins.isinstance": _isinstance,
    "builtins.hasattr": _hasattr,
    "builtins.getattr": _getattr,
    "builtins.setattr": set_attribute,
    "torch.nn.Module.register_buffer": register_buffer,
    "builtins.type": _type,
    "builtins.callable": _callable,
    "builtins.tuple": _to_tuple,
    "builtins.list": _to_list,
    "builtins.dict": _to_dict,
    "builtins.set": lambda args, kwargs, ctx: _to_frozenset(args, kwargs, ctx, "set"),
    "builtins.frozenset": lambda args, kwargs, ctx: _to_frozenset(args, kwargs, ctx, "frozenset"),
    "builtins.print": _ignore,
    "collections.defaultdict": _defaultdict,
    "types.SimpleNamespace": _simple_namespace,
    "argparse.ArgumentParser": cli_args.new_parser,
    "json.loads": _json_loads,
    "json.dumps": _json_dumps,
    "tomllib.loads": _toml_loads,
    "tomli.loads": _toml_loads,
    "dataclasses.replace": _dataclass_replace,
    "builtins.object.__setattr__": lambda args, kwargs, ctx: set_attribute(args, kwargs, ctx),
    "copy.copy": _copy_of(deep=False),
    "copy.deepcopy": _copy_of(deep=True),
    "math.ceil": _numeric(math.ceil, "math.ceil"),
    "math.floor": _numeric(math.floor, "math.floor"),
    "math.prod": lambda args, kwargs, ctx: _checked_prod(args, ctx),
    # of a shape (`np.prod(t.shape[2:])`): an int, but 1.0 for an empty one, as numpy gives
    "numpy.prod": lambda args, kwargs, ctx: _numpy_prod(args, kwargs, ctx),
    "math.log2": _numeric(math.log2, "math.log2"),
    "math.sqrt": _numeric(math.sqrt, "math.sqrt"),
    "math.isqrt": _numeric(math.isqrt, "math.isqrt"),
    "math.gcd": _numeric(math.gcd, "math.gcd"),
    "math.lcm": _numeric(math.lcm, "math.lcm"),
    "math.log": _numeric(math.log, "math.log"),
    "triton.cdiv": _cdiv,
    "torch.Size": _to_tuple,
    # a module's parameters and their lists hold the tensors they are given (no copy): the
    # bytes a pool keeps in `nn.ParameterList([nn.Parameter(torch.empty(...)), ...])`
    "torch.nn.Parameter": _wrapped_tensor,
    "torch.nn.parameter.Parameter": _wrapped_tensor,
    "torch.nn.Buffer": _wrapped_tensor,
    "torch.nn.ParameterList": _to_list,
    "torch.nn.ParameterDict": _to_dict,
    "torch.device": _device,
    "torch.tensor": _tensor_from_data,
    "torch.finfo": _finfo("finfo"),
    "torch.iinfo": _finfo("iinfo"),
    "torch._utils._element_size": _element_size,
    "torch.frombuffer": _frombuffer,
    "torch.get_default_dtype": lambda args, kwargs, ctx: dtypes.default_dtype(),
    # logging: a logger's calls write a line and return None (a pool's `logger.info(...)` in
    # its constructor is no call that could set its attributes)
    "logging.getLogger": lambda args, kwargs, ctx: ExternalRef("logging.Logger"),
    **{
        f"{owner}.{level}": _ignore
        for owner in ("logging", "logging.Logger")
        for level in ("debug", "info", "warning", "warn", "error", "exception", "critical", "log")
    },
    **folds.FUNCTIONS,
}


def _numpy_prod(args: list, kwargs: dict, ctx: CallContext):
    """`np.prod(shape)`: the product of a shape's ints (1.0 for an empty one, as numpy)."""
    if kwargs or len(args) != 1:
        return ctx.unknown("numpy.prod() with an axis, dtype or other argument")
    if isinstance(args[0], (list, tuple)) and not args[0]:
        return 1.0
    return _checked_prod(args, ctx)


def _checked_prod(args: list, ctx: CallContext):
    if not args or not isinstance(args[0], (list, tuple)):
        return (
            args[0]
            if args and is_unknown(args[0])
            else ctx.unknown("math.prod() of a non-sequence")
        )
    items = _ints(args[0], ctx, "math.prod() item")
    if is_unknown(items):
        return items
    result = 1
    for item in items:
        result = ctx.interpreter.bounded(result * item, ctx.location)
        if is_unknown(result):
            return result
    return result


# functions whose result does not depend on the numbers lanes hold, given them as they are:
# run per lane, `getattr` would run a property once per lane (lanes.py)
_WHATEVER_THE_LANES = frozenset(
    {
        "builtins.getattr",
        "builtins.hasattr",
        "builtins.callable",
        "builtins.setattr",
        "torch.nn.Module.register_buffer",  # (sets what it is given, lanes and all)
        "functools.partial",  # (holds what it is given)
        "dataclasses.replace",  # (a constructor's call, given what it is given)
    }
)


def call_external(name: str, args: list, kwargs: dict, ctx: CallContext):
    if (
        LANES_ACTIVE[0]
        and name not in _WHATEVER_THE_LANES
        and (lanes.has_lanes(args) or lanes.has_lanes(kwargs))
    ):
        return lanes.per_lane(
            lambda a, k: call_external(name, a, k, ctx),
            args,
            kwargs,
            lambda: ctx.interpreter.steps,
        )
    if name in ALLOCATORS:
        return allocate(name, args, kwargs, ctx)
    if name in environment.ENV_GETTERS:
        return environment.read_environment(args, kwargs, ctx)
    if not args and not kwargs:  # a probe asks the machine; `is_cuda(tensor)` is something else
        answer = environment.probe_answer(ctx.interpreter.point, name.rsplit(".", 1)[-1])
        if answer is not environment.NOT_A_PROBE:
            return answer
    function = FUNCTIONS.get(name)
    if function is None:
        text = f"call to {name}() (outside the audited tree)"
        unknown = ctx.unknown(text, Why.OUTSIDE_CALL, detail=name)
        for given in [*args, *kwargs.values()]:  # (it may set what it is given: not ABSENT)
            if isinstance(given, Instance) and given.incomplete is None:
                given.incomplete = unknown
        return unknown
    return function(args, kwargs, ctx)


DTYPE_ATTRIBUTES = frozenset({"itemsize", "is_floating_point", "is_complex", "is_signed"})


def external_attribute(base: str, name: str, location: Location | None = None):
    """`torch.bfloat16` -> the real dtype; anything else stays a named external reference."""
    full = f"{base}.{name}"
    if base == "torch":
        dtype = dtypes.dtype_by_name(name)
        if dtype is not None:
            return dtype
        if dtypes.looks_like_dtype_name(name):  # a dtype of a newer torch than the one here
            return Unknown(dtypes.missing_dtype_reason(name), location)
    return ExternalRef(full)


def value_attribute(value: Any, name: str, location: Location):
    """Attributes and methods of known non-audited values (dtypes, tensors, containers)."""
    if dtypes.is_dtype(value):
        if name in DTYPE_ATTRIBUTES:
            return getattr(value, name)
        return Unknown(f"dtype attribute {name!r} is not modelled", location)
    if isinstance(value, Tensor):
        if name == "dtype":
            return value.dtype
        if name == "shape":
            return value.shape
        if name == "nbytes":
            return value.nbytes
        if name == "device" and value.device is not None:
            device = value.device
            return DeviceText(device) if type(device) is str else device
        return BoundBuiltin(value, name)
    if isinstance(value, str) and name == "type":  # torch.device is modelled as its text
        return value.split(":", 1)[0]
    if isinstance(value, Record):
        if name in value.fields:
            return value.fields[name]
        return Unknown(f"{value.kind} attribute {name!r} is not modelled", location)
    if isinstance(value, (list, tuple, dict, str, cli_args.ArgParser)):
        return BoundBuiltin(value, name)
    return Unknown(f"attribute {name!r} of {type(value).__name__} is not modelled", location)
