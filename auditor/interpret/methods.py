"""Methods of known values: containers, strings and tensors (`.view(dtype)` keeps the bytes)."""

from __future__ import annotations

from typing import Any

from auditor import dtypes
from auditor.frontend.behaviour import TENSOR_ALLOCATORS
from auditor.interpret import cli_args, environment, lanes
from auditor.interpret.expressions import tensor_view
from auditor.interpret.library import (
    CallContext,
    allocate,
    first_unknown,
    numel,
    register_buffer,
    replaced,
    shape_of,
    unbind,
)
from auditor.interpret.values import (
    LANES_ACTIVE,
    BoundBuiltin,
    Instance,
    RuntimeObject,
    StandInSample,
    Tensor,
    Unknown,
    UnknownAllocation,
    Why,
    is_unknown,
)

_LIST_METHODS = frozenset({"append", "extend", "insert", "pop", "index", "count", "copy"})
_DICT_METHODS = frozenset({"get", "items", "keys", "values", "setdefault", "update", "copy", "pop"})
_STR_METHODS = frozenset(
    {"upper", "lower", "startswith", "endswith", "strip", "split", "replace", "join", "format"}
)
_TENSOR_SAME_BYTES = frozenset(
    {
        "contiguous",
        "pin_memory",
        "cuda",
        "cpu",
        "detach",
        "clone",
        "share_memory_",
        "requires_grad_",
    }
)


def _config_get(
    receiver: RuntimeObject, name: str, args: list, kwargs: dict, ctx: CallContext
) -> Any:
    """`cfg.get("head_dim", 128)` of a config given as a dict: the point's value of that key
    where the matrix has one (the keys the pool reads are its dimensions), else the code's own
    fallback, as a dict without the key gives. `cp.getint("model", "num_layers", fallback=0)`
    (and `cp.get("cache", "dtype")` where the matrix has `cache.dtype`) of a configparser:
    the value of that section's option, else the fallback; `model.getint("depth")` of a
    section (`model = cp["model"]`): its option's."""
    point = ctx.interpreter.point
    if set(kwargs) - {"fallback"} or not 1 <= len(args) <= 2 or not isinstance(args[0], str):
        return ctx.unknown(f"{receiver.path}.{name}() with these arguments is not modelled")
    sectioned = len(args) == 2 and isinstance(args[1], str)
    if sectioned and (name != "get" or "fallback" in kwargs or _listed(point, receiver, args)):
        found = environment.runtime_attribute(point, receiver, args[0], ctx.location)
        if isinstance(found, RuntimeObject):
            found = environment.runtime_attribute(point, found, args[1], ctx.location)
        if is_unknown(found) and found.why is Why.CONFIG_NOT_LISTED and "fallback" in kwargs:
            return kwargs["fallback"]
        return found
    if name == "get" and receiver.keys is not None and args[0] not in receiver.keys:
        return args[1] if len(args) == 2 else None  # the code's own mapping has no such key
    found = environment.runtime_attribute(point, receiver, args[0], ctx.location)
    if (
        name == "get"
        and len(args) == 2
        and isinstance(args[1], str)
        and isinstance(found, RuntimeObject)
        and found.given
        and found.path in point.pending
    ):  # no value yet: sampled next with the code's own fallback text (evaluate.py)
        point.fallbacks.setdefault(found.path, args[1])
    if is_unknown(found) and found.why is Why.CONFIG_NOT_LISTED:
        if name != "get":  # a section's own read (`model.getint("depth", fallback=32)`)
            fallback = args[1:] or [kwargs.get("fallback", found)]
            return fallback[0]
        return args[1] if len(args) == 2 else None
    return found


def _listed(point: Any, receiver: RuntimeObject, args: list) -> bool:
    """Does the matrix hold the section's option `args` of this config (`cp.get("cache",
    "dtype")` read as a configparser's, not as a dict's key with a fallback)?"""
    return f"{receiver.path}.{args[0]}.{args[1]}" in point.values


def call_method(method: BoundBuiltin, args: list, kwargs: dict, ctx: CallContext) -> Any:
    receiver, name = method.receiver, method.name
    if type(receiver) is cli_args.ArgParser:
        return cli_args.call(receiver, name, args, kwargs, ctx)
    if isinstance(receiver, RuntimeObject):
        if name in environment.CONFIG_READS and "()" not in receiver.path:
            return _config_get(receiver, name, args, kwargs, ctx)
        if receiver.klass is not None:  # the class's own method, run on the stand-in as
            # the code computes it (`quant.groups(head_dim, quant.k_group)`), never a sample
            # apart from the fields it reads; where that leaves it unknown, the sample
            computed = ctx.interpreter.stand_in_method(receiver, name, args, kwargs, ctx.location)
            if computed is not None and not is_unknown(computed):
                return computed
        return ctx.interpreter.point.read(f"{receiver.path}.{name}()")  # sampled as a value
    if LANES_ACTIVE[0] and (lanes.has_lanes(args) or lanes.has_lanes(kwargs)):
        if isinstance(receiver, str):
            raise lanes.Diverged  # text made of a lanes value: each build writes its own
    if isinstance(receiver, Tensor):
        if LANES_ACTIVE[0] and lanes.has_lanes([receiver, args, kwargs]):
            return lanes.per_lane(
                lambda a, k: _tensor_method(a[0], name, a[1:], k, ctx), [receiver, *args], kwargs
            )
        return _tensor_method(receiver, name, args, kwargs, ctx)
    if isinstance(receiver, Instance) and name == "register_buffer":
        return register_buffer([receiver, *args], kwargs, ctx)
    if isinstance(receiver, Instance) and name == "_replace":  # a NamedTuple's
        if args:
            return ctx.unknown("_replace() given positional arguments")
        return replaced(receiver, kwargs, ctx, "_replace()")
    unknown = first_unknown(args)
    if isinstance(receiver, list) and name in _LIST_METHODS:
        if name in ("append", "insert", "extend") and unknown is None:
            extend = name == "extend" and args and isinstance(args[0], (list, tuple, str, dict))
            added = len(args[0]) if extend else 1
            if len(receiver) + added > ctx.interpreter.limits.max_sequence_length:
                return ctx.unknown("list grew over the length limit")
        try:
            return getattr(receiver, name)(*args, **kwargs)
        except (TypeError, ValueError, IndexError) as error:
            return ctx.unknown(f"list.{name}(): {error}")
    if isinstance(receiver, dict) and name in _DICT_METHODS:
        if name in ("get", "pop", "setdefault") and args and is_unknown(args[0]):
            return args[0]
        try:
            result = getattr(receiver, name)(*args, **kwargs)
        except (TypeError, KeyError) as error:
            return ctx.unknown(f"dict.{name}(): {error}")
        return list(result) if name in ("items", "keys", "values") else result
    if isinstance(receiver, tuple) and name in ("index", "count"):
        try:
            return getattr(receiver, name)(*args)
        except (TypeError, ValueError) as error:
            return ctx.unknown(f"tuple.{name}(): {error}")
    if isinstance(receiver, str) and name in _STR_METHODS:
        if unknown is not None:
            return unknown
        if not all(isinstance(a, (str, int, float, bool, type(None), list, tuple)) for a in args):
            return ctx.unknown(f"str.{name}() with arguments not modelled")
        try:
            result = getattr(receiver, name)(*args)
        except (TypeError, ValueError, IndexError, KeyError) as error:
            return ctx.unknown(f"str.{name}(): {error}")
        return list(result) if name == "split" else result
    return ctx.unknown(f"method {type(receiver).__name__}.{name}() is not modelled")


# `proto.new_empty(shape)`: a new tensor, of the receiver's dtype and device unless told
_MADE_LIKE = {name: "torch." + name.removeprefix("new_") for name in TENSOR_ALLOCATORS}


def _tensor_method(tensor: Tensor, name: str, args: list, kwargs: dict, ctx: CallContext) -> Any:
    if name in _TENSOR_SAME_BYTES:
        return tensor
    if name in _MADE_LIKE:
        # (`dtype=None`, `device=None`: the receiver's, as torch reads them)
        given = {k: v for k, v in kwargs.items() if not (k in ("dtype", "device") and v is None)}
        made = {"dtype": tensor.dtype, "device": tensor.device, **given}
        return allocate(_MADE_LIKE[name], args, made, ctx)
    if name == "element_size":
        return dtypes.itemsize(tensor.dtype)
    if name == "numel":
        return numel(tensor.shape)
    if name == "dim":
        return len(tensor.shape)
    if name == "size":
        if not args:
            return tensor.shape
        if isinstance(args[0], int) and -len(tensor.shape) <= args[0] < len(tensor.shape):
            return tensor.shape[args[0]]
        return ctx.unknown("size() of an unknown dimension")
    if name == "view" and len(args) == 1 and (dtypes.is_dtype(args[0]) or is_unknown(args[0])):
        return _still_storage(_reinterpret(tensor, args[0], ctx))
    if name in ("view", "reshape", "flatten", "unflatten", "permute", "transpose"):
        if name in ("view", "reshape"):
            return _still_storage(_reshape(tensor, args, ctx))
        return (
            Tensor(
                tensor.shape,
                tensor.dtype,
                tensor.nbytes,
                tensor.site,
                tensor.dims_text,
                tensor.ident,
                view_of=tensor.view_of,
                device=tensor.device,
            )
            if name != "flatten"
            else Tensor(
                (numel(tensor.shape),),
                tensor.dtype,
                tensor.nbytes,
                tensor.site,
                (),
                tensor.ident,
                view_of=tensor.view_of,
                device=tensor.device,
            )
        )
    if name == "unbind":
        return unbind(tensor, kwargs.get("dim", args[0] if args else 0), ctx)
    if name == "narrow":
        return _narrow(tensor, args, kwargs, ctx)
    if name == "to":
        target = kwargs.get("dtype", args[0] if args else None)
        if is_unknown(target):
            return target
        if dtypes.is_dtype(target):
            nbytes = numel(tensor.shape) * dtypes.itemsize(target)
            return Tensor(
                tensor.shape, target, nbytes, ctx.location, tensor.dims_text, device=tensor.device
            )
        return tensor
    return ctx.unknown(f"tensor method {name}() is not modelled")


def _still_storage(view: Any) -> Any:
    """A view of a tensor whose shape could not be determined is still storage the code
    holds: unknown, and reported wherever it is kept (measure.buffers_of), never left out."""
    if is_unknown(view) and not isinstance(view, UnknownAllocation):
        return UnknownAllocation(view.reason, view.location, view.why, view.cause, view.detail)
    return view


def _narrow(tensor: Tensor, args: list, kwargs: dict, ctx: CallContext) -> Any:
    """`t.narrow(dim, start, length)`: a view of `length` entries of one dimension, as the
    slice `t[..., start : start + length]` (a part of a region carved into fields)."""
    names = ("dim", "start", "length")
    if len(args) > 3 or set(kwargs) - set(names):
        return ctx.unknown("narrow() with these arguments is not modelled")
    values = [*args, *(kwargs[n] for n in names[len(args) :] if n in kwargs)]
    unknown = next((v for v in values if is_unknown(v)), None)
    if unknown is not None:
        return unknown
    if len(values) != 3:
        return ctx.unknown("narrow() without a dimension, a start and a length")
    if not all(type(v) in (int, StandInSample) for v in values):  # (no bools)
        return ctx.unknown("narrow() of values that are not integers")
    dim, start, length = values
    rank = len(tensor.shape)
    if not -rank <= dim < rank:
        return ctx.unknown(f"narrow() of dimension {dim} of a {rank}-dimensional tensor")
    dim %= rank
    if start < 0 or length < 0 or start + length > tensor.shape[dim]:
        return ctx.unknown(
            f"narrow({dim}, {start}, {length}) outside a dimension of {tensor.shape[dim]}"
        )
    keys = [slice(None)] * dim + [slice(start, start + length)]
    return tensor_view(ctx.interpreter, tensor, keys, ctx.location)  # (a slice clamps: checked)


def _reinterpret(tensor: Tensor, dtype: Any, ctx: CallContext) -> Any:
    """`.view(dtype)`: same bytes, last dimension rescaled."""
    if is_unknown(dtype):
        return dtype
    old, new = dtypes.itemsize(tensor.dtype), dtypes.itemsize(dtype)
    shape = tensor.shape
    if shape and (shape[-1] * old) % new == 0:
        shape = (*shape[:-1], shape[-1] * old // new)
    elif shape:
        return ctx.unknown("view(dtype) does not divide the last dimension")
    return Tensor(
        shape,
        dtype,
        tensor.nbytes,
        tensor.site,
        tensor.dims_text,
        tensor.ident,
        view_of=tensor.view_of,
        device=tensor.device,
    )


def _reshape(tensor: Tensor, args: list, ctx: CallContext) -> Any:
    shape = (
        shape_of(args, ctx)
        if not (len(args) == 1 and isinstance(args[0], (tuple, list)) and -1 in args[0])
        and -1 not in args
        else None
    )
    total = numel(tensor.shape)
    if shape is None:
        dims = list(args[0]) if len(args) == 1 else list(args)
        known = [d for d in dims if d != -1]
        checked = shape_of(known, ctx)
        if is_unknown(checked):
            return checked
        rest = numel(checked)
        if rest == 0 or total % rest:
            return ctx.unknown("reshape with -1 does not divide")
        shape = tuple(total // rest if d == -1 else d for d in dims)
    if is_unknown(shape):
        return shape
    if numel(shape) != total:
        return Unknown(
            f"reshape from {tensor.shape} to {shape} changes the element count", ctx.location
        )
    return Tensor(
        shape,
        tensor.dtype,
        tensor.nbytes,
        tensor.site,
        tensor.dims_text,
        tensor.ident,
        view_of=tensor.view_of,
        device=tensor.device,
    )
