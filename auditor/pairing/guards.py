"""What holds on the path to a call: `isinstance` / `type(x) is` facts, and a walk of one
function that records every call with the facts that hold there, every assignment, and the
dicts built for `**kwargs`."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from auditor.frontend.index import ClassInfo, dotted
from auditor.frontend.scope import FunctionScope, code_of


@dataclass(frozen=True)
class Guard:
    """A fact on the path to a site: the device expression is (or is not) an instance of classes."""

    subject: str  # code of the tested expression, e.g. `self.kv_cache`
    classes: tuple[ClassInfo, ...]  # empty: a class outside the audited tree
    negated: bool = False
    exact: bool = False  # `type(x) is C`: C itself, not its subclasses
    text: str = ""  # as written, for the evidence

    def describe(self) -> str:
        return f"not ({self.text})" if self.negated else self.text

    def admits(self, device: ClassInfo) -> bool:
        if self.exact:
            hit = device in self.classes
        else:
            hit = any(cls in device.mro() for cls in self.classes)
        return not hit if self.negated else hit


def _classes(scope: FunctionScope, node: cst.BaseExpression) -> tuple[ClassInfo, ...]:
    items = [e.value for e in node.elements] if isinstance(node, cst.Tuple) else [node]
    return tuple(c for c in (scope.resolve_class(i) for i in items) if c is not None)


def type_subject(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`type(x)` or `x.__class__`: the x."""
    if (
        isinstance(node, cst.Call)
        and dotted(node.func) == "type"
        and len(node.args) == 1
        and node.args[0].keyword is None
    ):
        return node.args[0].value
    if isinstance(node, cst.Attribute) and node.attr.value == "__class__":
        return node.value
    return None


def guards_of(
    scope: FunctionScope,
    test: cst.BaseExpression,
    flags: dict[str, cst.BaseExpression] | None = None,
) -> tuple[list[Guard], list[Guard]]:
    """(facts when `test` is true, facts when it is false); only isinstance/type facts.

    `flags` maps a name or attribute to the test it was assigned earlier in the same function
    (`self.is_sparse = isinstance(kv, SparsePool)`): `if self.is_sparse:` tests that."""
    text = code_of(test)
    if flags and text in flags:
        return guards_of(scope, flags[text])
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        true, false = guards_of(scope, test.expression, flags)
        return false, true
    if isinstance(test, cst.BooleanOperation):
        left_true, left_false = guards_of(scope, test.left, flags)
        right_true, right_false = guards_of(scope, test.right, flags)
        if isinstance(test.operator, cst.And):
            return left_true + right_true, []
        # `a or b`: false means both false; true gives a union when both test the same subject
        union: list[Guard] = []
        if (
            len(left_true) == len(right_true) == 1
            and left_true[0].subject == right_true[0].subject
            and not left_true[0].negated
            and not right_true[0].negated
            and left_true[0].exact == right_true[0].exact
        ):
            first, second = left_true[0], right_true[0]
            union = [Guard(first.subject, first.classes + second.classes, False, first.exact, text)]
        return union, left_false + right_false
    if (
        isinstance(test, cst.Call)
        and dotted(test.func) == "isinstance"
        and len(test.args) == 2
        and all(a.keyword is None and not a.star for a in test.args)
    ):
        subject = code_of(test.args[0].value)
        classes = _classes(scope, test.args[1].value)
        guard = Guard(subject, classes, False, False, text)
        return [guard], [Guard(subject, classes, True, False, text)]
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        subject = type_subject(test.left)
        if subject is not None:
            operator = target.operator
            positive = isinstance(operator, (cst.Is, cst.Equal, cst.In))
            negative = isinstance(operator, (cst.IsNot, cst.NotEqual, cst.NotIn))
            if positive or negative:
                classes = _classes(scope, target.comparator)
                written = f"type({code_of(subject)}) in {code_of(target.comparator)}"
                if not isinstance(target.comparator, cst.Tuple):
                    written = f"type({code_of(subject)}) is {code_of(target.comparator)}"
                guard = Guard(code_of(subject), classes, False, True, written)
                flipped = Guard(guard.subject, classes, True, True, guard.text)
                return ([guard], [flipped]) if positive else ([flipped], [guard])
    return [], []


def always_leaves(block: cst.BaseSuite) -> bool:
    """Does the block end in return / raise / continue / break?"""
    statements = block.body
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return any(
            isinstance(s, (cst.Return, cst.Raise, cst.Continue, cst.Break)) for s in last.body
        )
    if isinstance(last, cst.If) and last.orelse is not None:
        other = last.orelse
        other_leaves = (
            always_leaves(other.body) if isinstance(other, cst.Else) else _if_leaves(other)
        )
        return always_leaves(last.body) and other_leaves
    return False


def _if_leaves(node: cst.If) -> bool:
    if node.orelse is None:
        return False
    other = node.orelse
    rest = always_leaves(other.body) if isinstance(other, cst.Else) else _if_leaves(other)
    return always_leaves(node.body) and rest


class _Calls(cst.CSTVisitor):
    """Calls in an expression or simple statement, not inside lambdas or nested definitions."""

    def __init__(self) -> None:
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


@dataclass
class _Binding:
    """An assignment `name = value` in a function, with the guards that hold where it is."""

    value: cst.BaseExpression
    guards: tuple[Guard, ...]
    annotated: bool = False  # `name: T = value`
    where: tuple[int, int] = (0, -1)  # (the block holding it, the statement's position there)


class FunctionWalk:
    """Collects, for one function body, every call with its guards, and every assignment."""

    def __init__(self, scope: FunctionScope) -> None:
        self.scope = scope
        self.calls: list[tuple[cst.Call, tuple[Guard, ...]]] = []
        self.assignments: dict[str, list[_Binding]] = {}
        self.annotations: dict[str, cst.BaseExpression] = {}
        self.dict_keys: dict[str, dict[str, cst.BaseExpression]] = {}
        self.dict_unfollowed: dict[str, str] = {}
        # `a, b, c = f(...)`: each name -> (the call, its position in the returned tuple)
        self.unpacked: dict[str, list[tuple[cst.Call, int, tuple[Guard, ...]]]] = {}
        # each call and assignment: (the block holding its statement, the position there)
        self.call_where: dict[int, tuple[int, int]] = {}
        self._where: tuple[int, int] = (0, -1)
        # a name or attribute assigned an isinstance/type test, while what it tests is not
        # reassigned: `if flag:` holds that test's facts
        self.flags: dict[str, cst.BaseExpression] = {}

    def block(self, statements, guards: tuple[Guard, ...]) -> None:
        for position, statement in enumerate(statements):
            self._where = (id(statements), position)
            if isinstance(statement, cst.If):
                guards = self.if_chain(statement, guards)
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                continue  # walked as functions of their own
            elif isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self.simple(small, guards)
            else:
                for name in ("body", "orelse", "finalbody"):
                    part = getattr(statement, name, None)
                    if isinstance(part, cst.BaseSuite):
                        self.block(part.body, guards)
                    elif isinstance(part, (cst.Else, cst.Finally)):
                        self.block(part.body.body, guards)
                for handler in getattr(statement, "handlers", ()):
                    self.block(handler.body.body, guards)
                header = getattr(statement, "iter", None) or getattr(statement, "test", None)
                if header is not None:
                    self.expression(header, guards)
                for item in getattr(statement, "items", ()):
                    self.expression(item.item, guards)

    def if_chain(self, node: cst.If, guards: tuple[Guard, ...]) -> tuple[Guard, ...]:
        """Walk an if/elif/else chain; return the guards that hold after it."""
        self.expression(node.test, guards)
        true, false = guards_of(self.scope, node.test, self.flags)
        self.block(node.body.body, guards + tuple(true))
        rest = guards + tuple(false)
        if isinstance(node.orelse, cst.If):
            after_else = self.if_chain(node.orelse, rest)
        elif isinstance(node.orelse, cst.Else):
            self.block(node.orelse.body.body, rest)
            after_else = rest
        else:
            after_else = rest
        if always_leaves(node.body):
            return after_else  # only paths where the test was false go on
        return guards

    def expression(self, node: cst.CSTNode, guards: tuple[Guard, ...]) -> None:
        collector = _Calls()
        node.visit(collector)
        self.calls.extend((call, guards) for call in collector.calls)
        self.call_where.update((id(call), self._where) for call in collector.calls)

    def simple(self, small: cst.BaseSmallStatement, guards: tuple[Guard, ...]) -> None:
        self.expression(small, guards)
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            self._unpack(small.targets[0].target, small.value, guards)
            target = code_of(small.targets[0].target)
            binding = _Binding(small.value, guards, where=self._where)
            self.assignments.setdefault(target, []).append(binding)
            self._dict_literal(target, small.value)
            self._flag(target, small.value)
        elif isinstance(small, cst.AnnAssign):
            target = code_of(small.target)
            self.annotations[target] = small.annotation.annotation
            if small.value is not None:
                binding = _Binding(small.value, guards, annotated=True, where=self._where)
                self.assignments.setdefault(target, []).append(binding)
                self._dict_literal(target, small.value)
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                key = _string_key(target)
                name = target.value.value
                if key is not None and name in self.dict_keys:
                    self.dict_keys[name][key] = small.value
                elif name in self.dict_keys:
                    self.dict_unfollowed[name] = f"{code_of(target)} has a key not written out"
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            func = call.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "update"
                and isinstance(func.value, cst.Name)
                and func.value.value in self.dict_keys
            ):
                name = func.value.value
                for arg in call.args:
                    if arg.keyword is not None:
                        self.dict_keys[name][arg.keyword.value] = arg.value
                    elif isinstance(arg.value, cst.Dict) and _literal_dict(arg.value) is not None:
                        self.dict_keys[name].update(_literal_dict(arg.value))
                    else:
                        self.dict_unfollowed[name] = f"{code_of(call)} is not followed"

    def _flag(self, target: str, value: cst.BaseExpression) -> None:
        """Remember `flag = isinstance(x, C)` (its first binding in the function); forget a
        flag bound again, or testing what `target` rebinds."""
        for name, test in list(self.flags.items()):
            subjects = {g.subject for g in guards_of(self.scope, test)[0]}
            if name == target or any(s == target or s.startswith(f"{target}.") for s in subjects):
                del self.flags[name]
        true, false = guards_of(self.scope, value)
        if (true or false) and len(self.assignments.get(target, ())) == 1:
            self.flags[target] = value  # its only binding so far: no other value reaches a test

    def _unpack(self, target, value: cst.BaseExpression, guards: tuple[Guard, ...]) -> None:
        """Remember `a, b = f(...)`: a helper returning (class, record, kwargs) chooses them."""
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, cst.Call):
            for position, element in enumerate(target.elements):
                if isinstance(element.value, cst.Name):
                    binding = (value, position, guards)
                    self.unpacked.setdefault(element.value.value, []).append(binding)

    def _dict_literal(self, target: str, value: cst.BaseExpression) -> None:
        keys = None
        if isinstance(value, cst.Dict):
            keys = _literal_dict(value)
        elif isinstance(value, cst.Call) and dotted(value.func) == "dict":
            if all(a.keyword is not None for a in value.args):
                keys = {a.keyword.value: a.value for a in value.args}
        if keys is not None:
            self.dict_keys[target] = dict(keys)
            self.dict_unfollowed.pop(target, None)


def _string_key(target: cst.Subscript) -> str | None:
    if len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return None
    key = target.slice[0].slice.value
    if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str):
        return key.evaluated_value
    return None


def _literal_dict(node: cst.Dict) -> dict[str, cst.BaseExpression] | None:
    found = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement):
            return None
        key = element.key
        if not (isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str)):
            return None
        found[key.evaluated_value] = element.value
    return found
