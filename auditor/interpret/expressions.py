"""Expression evaluation, one function per libcst expression type."""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any

import libcst as cst

from auditor import dtypes
from auditor.interpret import environment, lanes, library
from auditor.interpret.control import Infeasible, ReturnSignal, SiteReached
from auditor.interpret.iteration import items_of
from auditor.interpret.memos import MEMOS
from auditor.interpret.scopes import Frame
from auditor.interpret.syntax import location_of, source_of
from auditor.interpret.values import (
    LANES_ACTIVE,
    ClassRef,
    DefaultDict,
    ExternalRef,
    FunctionRef,
    Instance,
    Lambda,
    OneShot,
    Partial,
    PartialSequence,
    RuntimeObject,
    StandInSample,
    SuperProxy,
    Tensor,
    Unknown,
    Why,
    is_unknown,
)

if TYPE_CHECKING:
    from auditor.interpret.machine import Interpreter


def _location(frame: Frame, node: cst.CSTNode):
    return location_of(frame.module.parsed, node)


_LITERALS = MEMOS.literals  # memos.py: a literal's value (immutable), once per node
_NOT_UNDERSTOOD = object()


def _literal(interp: Interpreter, node, frame: Frame) -> Any:
    value = _LITERALS.get(node, _LITERALS)
    if value is _LITERALS:
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = _NOT_UNDERSTOOD
        if len(_LITERALS) >= MEMOS.limits["literals"]:
            _LITERALS.clear()
        _LITERALS[node] = value
    if value is _NOT_UNDERSTOOD:
        return Unknown("literal not understood", _location(frame, node))
    return interp.bounded(value, _location(frame, node))


def _imaginary(interp: Interpreter, node, frame: Frame) -> Any:
    return Unknown("complex numbers are not modelled", _location(frame, node))


def _concatenated(interp: Interpreter, node: cst.ConcatenatedString, frame: Frame) -> Any:
    left = interp.eval(node.left, frame)
    right = interp.eval(node.right, frame)
    if isinstance(left, str) and isinstance(right, str):
        return left + right
    if all(isinstance(side, (str, lanes.TokenLanes)) for side in (left, right)):
        return lanes.joined([left, right])  # `"kv" f"{size}"`: each build's text
    return (  # as each build: an f-string with lanes is a text in each
        left
        if is_unknown(left)
        else Unknown("string concatenation not modelled", _location(frame, node))
    )


def _fstring(interp: Interpreter, node: cst.FormattedString, frame: Frame) -> Any:
    pieces = []
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            pieces.append(part.value)
            continue
        value = interp.eval(part.expression, frame)
        if is_unknown(value):
            return value
        if part.conversion is not None or part.format_spec is not None:
            return Unknown(
                "formatted value with a conversion is not modelled", _location(frame, node)
            )
        if type(value) is lanes.TokenLanes:  # each build writes its own text: joined per lane
            pieces.append(value)
            continue
        if not isinstance(value, (int, float, str, bool, type(None))):
            return Unknown("formatted value of a non-scalar", _location(frame, node))
        pieces.append(str(value))
    if any(type(piece) is lanes.TokenLanes for piece in pieces):
        return lanes.joined(pieces)
    return "".join(pieces)


def _name(interp: Interpreter, node: cst.Name, frame: Frame) -> Any:
    return interp.lookup_name(node.value, frame, node)


def _attribute(interp: Interpreter, node: cst.Attribute, frame: Frame) -> Any:
    obj = interp.eval(node.value, frame)
    return interp.get_attribute(obj, node.attr.value, _location(frame, node))


def _text_keys(table: dict) -> bool:
    return bool(table) and all(type(k) is str for k in table)


def _subscript(interp: Interpreter, node: cst.Subscript, frame: Frame) -> Any:
    container = interp.eval(node.value, frame)
    if isinstance(container, ExternalRef) and container.name == "os.environ":
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            name = interp.eval(node.slice[0].slice.value, frame)
            return environment.environment_item(interp.point, name, _location(frame, node))
    if isinstance(container, ExternalRef):  # typing: Optional[int], Dict[str, int] ...
        return ExternalRef(f"{container.name}[]")
    if is_unknown(container):
        return container
    if isinstance(container, OneShot):  # (`reversed(x)[0]`: Python refuses it)
        return Unknown("an iterator is not subscriptable", _location(frame, node))
    keys = []
    for element in node.slice:
        index = element.slice
        if isinstance(index, cst.Index):
            keys.append(interp.eval(index.value, frame))
        else:
            parts = [
                interp.eval(p, frame) if p is not None else None
                for p in (index.lower, index.upper, index.step)
            ]
            unknown = library.first_unknown(parts)
            if unknown is not None:
                return unknown
            keys.append(slice(*parts))
    key = keys[0] if len(keys) == 1 else tuple(keys)
    if is_unknown(key):
        return key
    if isinstance(container, DefaultDict) and not isinstance(key, slice):
        try:
            if key not in container:  # as Python does: the new value is stored under the key
                value = interp.call(container.factory, [], {}, _location(frame, node))
                if not is_unknown(value):
                    container[key] = value
                return value
        except TypeError:
            return Unknown("unhashable dict key", _location(frame, node))
    if isinstance(container, (dict, list, tuple, str)):
        if type(container) is dict:
            if (
                isinstance(key, RuntimeObject)
                and (key.loose or key.given)
                and _text_keys(container)
            ):
                # a value after all (`KV_DTYPES[cache_cfg.cache_dtype]`, nothing gives it):
                # sampled next round, the table's texts then demanded (ConfigPoint.looked_up)
                interp.point.pending.add(key.path)
                return Unknown(
                    f"{key.path}, looked up in a table of texts, has no value yet",
                    _location(frame, node),
                )
            if interp.point.looked_up(key, container) and key not in container:
                # a number standing in for a text the table does not hold: as Python does
                # (`KeyError`), decided by the value, so the point is refused (its texts
                # are demanded: tried next)
                raise Infeasible(
                    f"{key!r} is not a key of the table (KeyError)",
                    _location(frame, node),
                    raised="KeyError",
                )
        try:
            return container[key]
        except (KeyError, IndexError, TypeError) as error:
            return Unknown(
                f"lookup failed: {type(error).__name__} {key!r}",
                _location(frame, node),
                Why.LOOKUP,
            )
    if isinstance(container, RuntimeObject) and isinstance(key, str) and key.isidentifier():
        # a config given as a dict (`cfg["head_dim"]`): its keys are its attributes
        return interp.get_attribute(container, key, _location(frame, node))
    if isinstance(container, Tensor):
        location = _location(frame, node)
        if LANES_ACTIVE[0] and (lanes.has_lanes(container) or lanes.has_lanes(keys)):
            return lanes.per_lane(
                lambda a, _: tensor_view(interp, a[0], a[1], location), [container, keys], {}
            )
        return tensor_view(interp, container, keys, location)
    return Unknown(
        f"subscript of {type(container).__name__} is not modelled", _location(frame, node)
    )


def tensor_view(interp: Interpreter, tensor: Tensor, keys: list, location) -> Any:
    """Basic indexing (`buf[0, :rows]`): a view whose shape Python's own rules give; integers
    drop a dimension, slices keep a shortened one. Other indexing is not modelled."""
    if len(keys) > len(tensor.shape):
        return Unknown(f"too many indices for a tensor of shape {tensor.shape}", location)
    shape: list[int] = []
    for dim, key in zip(tensor.shape, keys):
        if isinstance(key, bool) or not isinstance(key, (int, slice)):
            return Unknown(f"tensor indexing with {key!r} is not modelled", location)
        if isinstance(key, int):
            if not -dim <= key < dim:
                return Unknown(f"index {key} out of range for a dimension of {dim}", location)
            continue
        if any(
            part is not None and (isinstance(part, bool) or not isinstance(part, int))
            for part in (key.start, key.stop, key.step)
        ):
            return Unknown(f"tensor slice {key!r} is not modelled", location)
        if key.step is not None and key.step <= 0:
            return Unknown(f"tensor slice step {key.step} is not allowed", location)
        shape.append(len(range(dim)[key]))
    shape.extend(tensor.shape[len(keys) :])
    return Tensor(
        tuple(shape),
        tensor.dtype,
        math.prod(shape) * dtypes.itemsize(tensor.dtype),
        location,
        trace=tuple(interp.call_sites),
        view_of=tensor.view_of if tensor.view_of is not None else tensor.ident,
        device=tensor.device,
    )


def _binary(interp: Interpreter, node: cst.BinaryOperation, frame: Frame) -> Any:
    left = interp.eval(node.left, frame)
    right = interp.eval(node.right, frame)
    return interp.binary(type(node.operator), left, right, _location(frame, node))


def _unary(interp: Interpreter, node: cst.UnaryOperation, frame: Frame) -> Any:
    value = interp.eval(node.expression, frame)
    if isinstance(node.operator, cst.Not):
        verdict = interp.truth(value)
        if verdict is None:
            return (
                value
                if is_unknown(value)
                else Unknown("truth value not modelled", _location(frame, node))
            )
        return not verdict
    if is_unknown(value):
        return value
    if type(value) is lanes.TokenLanes:
        if isinstance(node.operator, cst.Minus):
            return -value
        if isinstance(node.operator, cst.Plus):
            return value
        return lanes.inverted(value)
    if not isinstance(value, (int, float)):
        return Unknown("unary operator on a non-number", _location(frame, node))
    if isinstance(node.operator, cst.Minus):
        return -value
    if isinstance(node.operator, cst.Plus):
        return +value
    if isinstance(node.operator, cst.BitInvert) and isinstance(value, int):
        return ~value
    return Unknown("unary operator not modelled", _location(frame, node))


def _boolean(interp: Interpreter, node: cst.BooleanOperation, frame: Frame) -> Any:
    left = interp.eval(node.left, frame)
    verdict = interp.truth(left)
    is_and = isinstance(node.operator, cst.And)
    if verdict is None:
        right = interp.eval(node.right, frame)
        right_verdict = interp.truth(right)
        why = f": {left.reason}" if is_unknown(left) else ""
        cause = left if is_unknown(left) else None
        if is_and and right_verdict is False:
            text = f"`and` with an undecided left side{why}"
            return Unknown(text, _location(frame, node), Why.UNDECIDED, cause)
        if not is_and and right_verdict is True:
            text = f"`or` with an undecided left side{why}"
            return Unknown(text, _location(frame, node), Why.UNDECIDED, cause)
        return (
            left
            if is_unknown(left)
            else Unknown("truth value not modelled", _location(frame, node))
        )
    if is_and:
        return interp.eval(node.right, frame) if verdict else left
    return left if verdict else interp.eval(node.right, frame)


_LITERAL_NODES = (cst.Integer, cst.SimpleString)
_EQUALITY = (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot)
_MEMBERSHIP = (cst.In, cst.NotIn)


def _is_literal(node: cst.BaseExpression) -> bool:
    """A literal, or a constant's name (`MSA_V1_PAGE_SIZE`, `consts.PAGE_SIZE`: upper case by
    convention), which holds one as surely: `if page_size != MSA_V1_PAGE_SIZE: raise`. Runs at
    every `==`: a type test and `str.isupper`, no pattern."""
    if isinstance(node, _LITERAL_NODES):
        return True
    if isinstance(node, cst.Name):
        return node.value.isupper()
    return isinstance(node, cst.Attribute) and node.attr.value.isupper()


def _note_literals(interp: Interpreter, left_node, left, operator, right_node, right) -> None:
    """Tell the config point which literals a value is compared with (ConfigPoint.demands)."""
    if isinstance(operator, _EQUALITY):
        if _is_literal(right_node):
            interp.point.compared_with_literal(left, right)
        elif _is_literal(left_node):
            interp.point.compared_with_literal(right, left)
        elif type(left) is StandInSample and type(right) is str:
            # a number standing in for a text the code compares with a text it computed
            # (`member.flag == flag` over an enum's members): that text is one it accepts
            interp.point.compared_with_literal(left, right)
        elif type(right) is StandInSample and type(left) is str:
            interp.point.compared_with_literal(right, left)
    elif isinstance(operator, _MEMBERSHIP) and isinstance(right, (tuple, list, frozenset)):
        if isinstance(right_node, (cst.Tuple, cst.List, cst.Set)) and all(
            isinstance(e.value, _LITERAL_NODES) for e in right_node.elements
        ):
            for literal in right:
                interp.point.compared_with_literal(left, literal)


def _comparison(interp: Interpreter, node: cst.Comparison, frame: Frame) -> Any:
    left = interp.eval(node.left, frame)
    left_node = node.left
    result: Any = True
    for target in node.comparisons:
        right = interp.eval(target.comparator, frame)
        _note_literals(interp, left_node, left, target.operator, target.comparator, right)
        left_node = target.comparator
        outcome = interp.compare(type(target.operator), left, right, _location(frame, node))
        if is_unknown(outcome):
            return outcome
        if not outcome:
            return False
        result = outcome
        left = right
    return result


def _if_expression(interp: Interpreter, node: cst.IfExp, frame: Frame) -> Any:
    test = interp.eval(node.test, frame)
    verdict = interp.truth(test)
    if verdict is None:
        return (
            test if is_unknown(test) else Unknown("condition not decided", _location(frame, node))
        )
    return interp.eval(node.body if verdict else node.orelse, frame)


def _elements(interp: Interpreter, elements, frame: Frame) -> list | Unknown:
    values: list = []
    for element in elements:
        value = interp.eval(element.value, frame)
        if isinstance(element, cst.StarredElement):
            if is_unknown(value) and values:  # `(info, *drafts)`: the head is still known
                known = values + list(getattr(value, "known", ()))
                return PartialSequence(
                    value.reason,
                    value.location,
                    value.why,
                    value.cause,
                    value.detail,
                    known=tuple(known),
                )
            if not isinstance(value, (list, tuple)):
                lanes.refuse(value)
                return value if is_unknown(value) else Unknown("starred value not modelled", None)
            values.extend(value)
        else:
            values.append(value)
        if len(values) > interp.limits.max_sequence_length:
            return Unknown("sequence over the length limit", None)
    return values


def _tuple(interp: Interpreter, node: cst.Tuple, frame: Frame) -> Any:
    values = _elements(interp, node.elements, frame)
    return values if is_unknown(values) else tuple(values)


def _list(interp: Interpreter, node: cst.List, frame: Frame) -> Any:
    return _elements(interp, node.elements, frame)


def _set(interp: Interpreter, node: cst.Set, frame: Frame) -> Any:
    values = _elements(interp, node.elements, frame)
    if is_unknown(values):
        return values
    try:
        return frozenset(values)
    except TypeError:
        return Unknown("set of unhashable values", _location(frame, node))


def _dict(interp: Interpreter, node: cst.Dict, frame: Frame) -> Any:
    result: dict = {}
    for element in node.elements:
        if isinstance(element, cst.StarredDictElement):
            value = interp.eval(element.value, frame)
            if not isinstance(value, dict):
                return (
                    value
                    if is_unknown(value)
                    else Unknown("** of a non-dict", _location(frame, node))
                )
            result.update(value)
            continue
        key = interp.eval(element.key, frame)
        if is_unknown(key):
            return key
        try:
            result[key] = interp.eval(element.value, frame)
        except TypeError:
            return Unknown("unhashable dict key", _location(frame, node))
    return result


def _comprehension_items(interp: Interpreter, comp: cst.CompFor, frame: Frame, produce, out: list):
    """Run a comprehension's `for ... in ... if ...` clauses, calling `produce` per item."""
    iterable = items_of(interp, interp.eval(comp.iter, frame), _location(frame, comp))
    if not isinstance(iterable, tuple):
        raise _Undetermined(
            iterable
            if is_unknown(iterable)
            else Unknown("comprehension over a value not modelled", _location(frame, comp))
        )
    for item in iterable:
        interp.assign(comp.target, item, frame)
        keep = True
        for condition in comp.ifs:
            verdict = interp.truth(interp.eval(condition.test, frame))
            if verdict is None:
                raise _Undetermined(
                    Unknown("comprehension filter not decided", _location(frame, condition))
                )
            if not verdict:
                keep = False
                break
        if not keep:
            continue
        if comp.inner_for_in is not None:
            _comprehension_items(interp, comp.inner_for_in, frame, produce, out)
        else:
            out.append(produce(frame))
        if len(out) > interp.limits.max_sequence_length:
            raise _Undetermined(
                Unknown("comprehension over the length limit", _location(frame, comp))
            )


class _Undetermined(Exception):  # noqa: N818
    def __init__(self, unknown: Unknown) -> None:
        self.unknown = unknown


def _child_frame(frame: Frame) -> Frame:
    child = Frame(frame.module, locals_=dict(frame.locals), function=frame.function)
    child.parent_scope = frame.parent_scope
    child.sources = dict(frame.sources)
    child.receiver = frame.receiver
    child.owner = frame.owner
    return child


def _list_comprehension(interp: Interpreter, node, frame: Frame) -> Any:
    child = _child_frame(frame)
    out: list = []
    try:
        _comprehension_items(interp, node.for_in, child, lambda f: interp.eval(node.elt, f), out)
    except _Undetermined as stop:
        return stop.unknown
    if isinstance(node, cst.SetComp):
        try:
            return frozenset(out)
        except TypeError:
            return Unknown("set of unhashable values", _location(frame, node))
    return out


def _dict_comprehension(interp: Interpreter, node: cst.DictComp, frame: Frame) -> Any:
    child = _child_frame(frame)
    out: list = []
    try:
        _comprehension_items(
            interp,
            node.for_in,
            child,
            lambda f: (interp.eval(node.key, f), interp.eval(node.value, f)),
            out,
        )
    except _Undetermined as stop:
        return stop.unknown
    result = {}
    for key, value in out:
        if is_unknown(key):
            return key
        result[key] = value
    return result


def _lambda(interp: Interpreter, node: cst.Lambda, frame: Frame) -> Any:
    scope = frame.locals if frame.parent_scope is None else {**frame.parent_scope, **frame.locals}
    return Lambda(node, frame.module, dict(scope))


def _named(interp: Interpreter, node: cst.NamedExpr, frame: Frame) -> Any:
    value = interp.eval(node.value, frame)
    interp.assign(node.target, value, frame)
    return value


def _super(interp: Interpreter, node: cst.Call, frame: Frame) -> Any:
    location = _location(frame, node)
    if node.args:
        if len(node.args) != 2:
            return Unknown("super() with one argument is not modelled", location)
        cls = interp.eval(node.args[0].value, frame)
        obj = interp.eval(node.args[1].value, frame)
        if isinstance(cls, ClassRef) and isinstance(obj, (Instance, ClassRef)):
            return SuperProxy(obj, cls.cls)
        return Unknown("super(X, obj) with unresolved arguments", location)
    if frame.owner is None or frame.receiver is None:
        return Unknown("super() outside a method", location)
    return SuperProxy(frame.receiver, frame.owner)


def _call(interp: Interpreter, node: cst.Call, frame: Frame) -> Any:
    location = _location(frame, node)
    if (
        isinstance(node.func, cst.Name)
        and node.func.value == "super"
        and "super" not in frame.locals
    ):
        return _super(interp, node, frame)
    func = interp.eval(node.func, frame)
    args: list = []
    kwargs: dict = {}
    sources: dict = {}
    positional_nodes: list = []
    opened: Unknown | None = None  # at a site being run: `**x` / `*x` of an unknown value
    for arg in node.args:
        value = interp.eval(arg.value, frame)
        if arg.star and is_unknown(value) and node is interp.site_call:
            opened = value
            continue
        if arg.star == "*":
            if not isinstance(value, (list, tuple)):
                lanes.refuse(value)
                return (
                    value
                    if is_unknown(value)
                    else Unknown("*args of a value not modelled", location)
                )
            args.extend(value)
        elif arg.star == "**":
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                lanes.refuse(value)
                return (
                    value
                    if is_unknown(value)
                    else Unknown("**kwargs of a value not modelled", location)
                )
            kwargs.update(value)
        elif arg.keyword is not None:
            kwargs[arg.keyword.value] = value
            sources[arg.keyword.value] = (arg.value, frame)
        else:
            sources[len(args)] = (arg.value, frame)
            positional_nodes.append(arg.value)
            args.append(value)
    if node is interp.site_call:  # site_run.py: the host is built there, not here
        raise SiteReached(func, args, kwargs, sources, opened)
    arg_texts: tuple = ()
    allocator = func.func if isinstance(func, Partial) and not func.args else func
    if (
        isinstance(allocator, ExternalRef)
        and allocator.name in library.ALLOCATORS
        and positional_nodes
    ):
        if len(positional_nodes) == 1 or allocator.name in ("torch.full", "torch.empty_strided"):
            arg_texts = tuple(shape_texts(positional_nodes[0], frame))
        else:
            arg_texts = tuple(dim_text(n, frame) for n in positional_nodes)
    if isinstance(func, FunctionRef):
        return interp.call_function(
            func.function,
            func.bound,
            args,
            kwargs,
            location,
            func.owner,
            arg_sources=sources,
            closure=func.closure,
        )
    if isinstance(func, ClassRef):
        return interp.instantiate(func.cls, args, kwargs, location, arg_sources=sources)
    return interp.call(func, args, kwargs, location, arg_texts)


_MAX_TEXT = 120


def shape_texts(node: cst.BaseExpression, frame: Frame, depth: int = 0) -> list[str]:
    """Source text of each dimension of a shape expression, following simple local names."""
    if isinstance(node, cst.Name) and node.value in frame.sources and depth < 6:
        source, source_frame = frame.sources[node.value]
        return shape_texts(source, source_frame, depth + 1)
    if isinstance(node, (cst.Tuple, cst.List)):
        if any(isinstance(e, cst.StarredElement) for e in node.elements):
            return [dim_text(node, frame)]
        return [dim_text(e.value, frame) for e in node.elements]
    return [dim_text(node, frame)]


def dim_text(node: cst.BaseExpression, frame: Frame, depth: int = 0) -> str:
    """One dimension's source, with a bare local name replaced by what it was assigned."""
    if isinstance(node, cst.Name) and node.value in frame.sources and depth < 6:
        source, source_frame = frame.sources[node.value]
        text = dim_text(source, source_frame, depth + 1)
        if len(text) <= _MAX_TEXT:
            return text
    text = " ".join(source_of(frame.module.parsed, node).replace("self.", "").split())
    text = text.replace("( ", "(").replace(" )", ")")
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1]
    return text


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _yield(interp: Interpreter, node: cst.Yield, frame: Frame) -> Any:
    """`yield x` / `yield from xs` in a generator run whole (machine.call_function): the
    item(s) kept in order; what the caller would send back is None."""
    location = _location(frame, node)
    if frame.yielded is None:
        return Unknown("yield outside a generator run", location)
    if node.value is None:
        items: list = [None]
    elif isinstance(node.value, cst.From):
        found = interp.eval(node.value.item, frame)
        if isinstance(found, dict):
            found = list(found)
        if not isinstance(found, (list, tuple, str)):
            frame.undecided_return = Unknown("yield from a value not modelled", location)
            return None
        items = list(found)
    else:
        items = [interp.eval(node.value, frame)]
    if len(frame.yielded) + len(items) > interp.limits.max_generator_items:
        # (a stream with no end, `while True: yield n`): stopped here, its items unknown
        limit = interp.limits.max_generator_items
        frame.undecided_return = Unknown(f"a generator yields more than {limit} items", location)
        raise ReturnSignal(None)
    frame.yielded.extend(items)
    return None


EXPRESSIONS = {
    cst.Yield: _yield,
    cst.Integer: _literal,
    cst.Float: _literal,
    cst.Imaginary: _imaginary,
    cst.SimpleString: _literal,
    cst.ConcatenatedString: _concatenated,
    cst.FormattedString: _fstring,
    cst.Name: _name,
    cst.Attribute: _attribute,
    cst.Subscript: _subscript,
    cst.BinaryOperation: _binary,
    cst.UnaryOperation: _unary,
    cst.BooleanOperation: _boolean,
    cst.Comparison: _comparison,
    cst.IfExp: _if_expression,
    cst.Tuple: _tuple,
    cst.List: _list,
    cst.Set: _set,
    cst.Dict: _dict,
    cst.ListComp: _list_comprehension,
    cst.GeneratorExp: _list_comprehension,
    cst.SetComp: _list_comprehension,
    cst.DictComp: _dict_comprehension,
    cst.Lambda: _lambda,
    cst.NamedExpr: _named,
    cst.Call: _call,
}
