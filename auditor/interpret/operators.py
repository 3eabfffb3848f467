"""Expression dispatch and operators: arithmetic and comparisons on known values only.

Operands that are Unknown, or of types outside the closed set below, give Unknown.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import libcst as cst

from auditor.interpret import enums, environment, lanes
from auditor.interpret.scopes import (
    Frame,
)
from auditor.interpret.values import (
    LANES_ACTIVE,
    AttributeBag,
    ClassRef,
    ExternalRef,
    FunctionRef,
    Instance,
    ModuleRef,
    RuntimeObject,
    Unknown,
    Why,
    is_unknown,
)
from auditor.location import Location

BINARY: dict[type, Callable[[Any, Any], Any]] = {
    cst.Add: operator.add,
    cst.Subtract: operator.sub,
    cst.Multiply: operator.mul,
    cst.FloorDivide: operator.floordiv,
    cst.Divide: operator.truediv,
    cst.Modulo: operator.mod,
    cst.Power: operator.pow,
    cst.LeftShift: operator.lshift,
    cst.RightShift: operator.rshift,
    cst.BitAnd: operator.and_,
    cst.BitOr: operator.or_,
    cst.BitXor: operator.xor,
}
COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    cst.Equal: operator.eq,
    cst.NotEqual: operator.ne,
    cst.LessThan: operator.lt,
    cst.LessThanEqual: operator.le,
    cst.GreaterThan: operator.gt,
    cst.GreaterThanEqual: operator.ge,
    cst.Is: operator.is_,
    cst.IsNot: operator.is_not,
    cst.In: lambda a, b: a in b,
    cst.NotIn: lambda a, b: a not in b,
}
COMPARABLE = (int, float, bool, str, type(None), tuple, list, dict, frozenset)


class Operators:
    """Mixin of `Interpreter`: evaluates expressions, truth values and operators."""

    def eval(self, node: cst.BaseExpression, frame: Frame) -> Any:
        self.steps += 1  # `tick`, inlined: this is the interpreter's hottest call
        if self.steps > self.limits.max_steps_per_evaluation:
            self.tick(lambda: frame.module.parsed.location(node))
        handler = _EXPRESSIONS.get(type(node))
        if handler is None:
            return Unknown(
                f"{type(node).__name__} expressions are not modelled",
                frame.module.parsed.location(node),
            )
        return handler(self, node, frame)

    def truth(self, value: Any) -> bool | None:
        """Python truthiness of a known value; None when it cannot be decided."""
        if is_unknown(value):
            return None
        if type(value) is lanes.TokenLanes:
            return bool(value)  # the lanes agree, or the build diverges
        if isinstance(value, (int, float, str, tuple, list, dict, frozenset, type(None))):
            return bool(value)
        if isinstance(value, ExternalRef):
            return True if value.name == "typing.TYPE_CHECKING" else None
        if isinstance(value, (Instance, ClassRef, FunctionRef, ModuleRef, AttributeBag)):
            return True
        if isinstance(value, RuntimeObject) and value.given:  # an object the run is given
            return True
        from auditor.dtypes import is_dtype

        if is_dtype(value):
            return True
        return None

    def binary(self, op_type: type | None, left: Any, right: Any, location: Location) -> Any:
        if is_unknown(left):
            return left
        if is_unknown(right):
            return right
        if type(left) is lanes.TokenLanes or type(right) is lanes.TokenLanes:
            return lanes.per_lane(
                lambda a, _: self.binary(op_type, a[0], a[1], location), [left, right], {}
            )
        function = BINARY.get(op_type) if op_type else None
        if function is None:
            return Unknown("operator not modelled", location)
        numeric = (int, float)
        if op_type is cst.Power:
            if not (isinstance(left, numeric) and isinstance(right, numeric)):
                return Unknown("** on non-numbers", location)
            if isinstance(right, int) and abs(right) > self.limits.max_power_exponent:
                return Unknown(f"exponent {right} is over the limit", location)
            if isinstance(left, int) and isinstance(right, int) and right > 0:
                # |left| >= 2 ** (bits - 1), so the power has at least (bits - 1) * right + 1
                # bits; below that bound it is cheap to compute and `bounded` decides
                if (abs(left).bit_length() - 1) * right >= self.limits.max_int_bits:
                    return Unknown(f"integer over {self.limits.max_int_bits} bits", location)
        if (
            op_type in (cst.LeftShift,)
            and isinstance(right, int)
            and right > self.limits.max_int_bits
        ):
            return Unknown(f"integer over {self.limits.max_int_bits} bits", location)
        sequences = (str, list, tuple)
        if op_type is cst.Multiply and (
            isinstance(left, sequences) or isinstance(right, sequences)
        ):
            sequence, count = (left, right) if isinstance(left, sequences) else (right, left)
            if isinstance(count, int) and (
                count > self.limits.max_sequence_length
                or len(sequence) * count > self.limits.max_sequence_length
            ):
                return Unknown("sequence repetition over the limit", location)
        if (
            op_type is cst.Add
            and isinstance(left, sequences)
            and isinstance(right, sequences)
            and len(left) + len(right) > self.limits.max_sequence_length
        ):
            return Unknown("sequence concatenation over the length limit", location)
        if not isinstance(left, (*COMPARABLE, float)) or not isinstance(
            right, (*COMPARABLE, float)
        ):
            for side in (left, right):
                if isinstance(side, RuntimeObject) and side.loose:  # a number after all
                    self.point.pending.add(side.path)
            return Unknown(
                f"arithmetic on {type(left).__name__} and {type(right).__name__}", location
            )
        try:
            result = function(left, right)
        except ZeroDivisionError:
            return Unknown("division by zero", location)
        except (TypeError, ValueError, OverflowError) as error:
            return Unknown(f"arithmetic error: {error}", location)
        return self.bounded(result, location)

    def compare(self, op_type: type, left: Any, right: Any, location: Location) -> Any:
        if is_unknown(left):
            return left
        if is_unknown(right):
            return right
        if LANES_ACTIVE[0] and (lanes.has_lanes(left) or lanes.has_lanes(right)):
            return lanes.per_lane(
                lambda a, _: self.compare(op_type, a[0], a[1], location), [left, right], {}
            )
        function = COMPARE[op_type]
        if op_type in (cst.In, cst.NotIn) and _is_environ(right):
            found = environment.environment_contains(self.point, left, location)
            return found if is_unknown(found) or op_type is cst.In else not found
        if (
            op_type in (cst.In, cst.NotIn)
            and isinstance(right, RuntimeObject)
            and right.keys is not None
            and isinstance(left, str)
        ):  # a stand-in for the code's own mapping: its keys are the code's
            return (left in right.keys) == (op_type is cst.In)
        if op_type in (cst.Is, cst.IsNot):
            if isinstance(left, ExternalRef) != isinstance(right, ExternalRef):
                # `torch.version.hip is None`: what a name outside the tree holds is unknown
                external = left if isinstance(left, ExternalRef) else right
                return Unknown(
                    f"identity of {external.name} (outside the audited tree)",
                    location,
                    Why.OUTSIDE_CALL,
                )
            return function(left, right)
        if op_type in (cst.Equal, cst.NotEqual) and enums.is_member(left) != enums.is_member(right):
            left, right = enums.mixin_value(left), enums.mixin_value(right)
        if (
            op_type in (cst.In, cst.NotIn)
            and isinstance(right, (tuple, list, frozenset))
            and any(enums.is_member(v) != enums.is_member(left) for v in right)
        ):
            found = False
            for item in right:
                same = self.compare(cst.Equal, left, item, location)
                if is_unknown(same):
                    return same
                found = found or same
            return found if op_type is cst.In else not found
        from auditor.dtypes import is_dtype

        def plain(value: Any) -> bool:
            if isinstance(value, (tuple, list, frozenset)):
                return all(plain(v) for v in value)
            if isinstance(value, dict):
                return all(plain(k) for k in value)
            return (
                isinstance(value, COMPARABLE)
                or is_dtype(value)
                or isinstance(value, (Instance, ClassRef))
            )

        if not (plain(left) and plain(right)):
            return Unknown(
                f"comparison of {type(left).__name__} with {type(right).__name__} is not modelled",
                location,
            )
        try:
            return function(left, right)
        except TypeError as error:
            return Unknown(f"comparison error: {error}", location)


def _is_environ(value: Any) -> bool:
    return isinstance(value, ExternalRef) and value.name == "os.environ"


from auditor.interpret.expressions import EXPRESSIONS as _EXPRESSIONS  # noqa: E402
