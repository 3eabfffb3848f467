"""Statement execution: blocks, loops, undecided branches, assignment targets.

Kept apart from expressions because statements carry control flow (signals, undecided paths).
"""

from __future__ import annotations

from collections import ChainMap
from typing import Any

import libcst as cst

from auditor.frontend.index import ClassInfo, FunctionInfo, dotted
from auditor.interpret.control import (
    BreakSignal,
    ContinueSignal,
    Infeasible,
    ReturnSignal,
)
from auditor.interpret.handlers import catching, raised_class
from auditor.interpret.iteration import items_of
from auditor.interpret.scopes import (
    Frame,
    assigned_targets,
    changed_in_place,
    raises_in,
    self_method_calls,
    yields_in,
)
from auditor.interpret.syntax import location_of, source_of
from auditor.interpret.values import (
    AttributeBag,
    FunctionRef,
    Instance,
    PartialSequence,
    Tensor,
    Unknown,
    Why,
    is_unknown,
)


def enclosing_names(frame: Frame) -> dict:
    """What a function defined in `frame` can see besides its own locals and its module."""
    if frame.parent_scope is None:
        return frame.locals
    return ChainMap(frame.locals, frame.parent_scope)


class Statements:
    """Mixin of `Interpreter`: executes statements in a frame."""

    def exec_block(self, statements, frame: Frame) -> None:
        for statement in statements:
            self.exec_statement(statement, frame)

    def exec_statement(self, statement: cst.CSTNode, frame: Frame) -> None:
        self.tick(lambda: frame.module.parsed.location(statement))
        # `type(x) is` rather than isinstance: libcst node classes are ABCs (slow isinstance)
        # and the statement classes tested here have no subclasses
        kind = type(statement)
        if kind is cst.SimpleStatementLine:
            for small in statement.body:
                self.exec_small(small, frame)
        elif kind is cst.If:
            test = self.eval(statement.test, frame)
            verdict = self.truth(test)
            if verdict is None and id(statement) in self.site_path:
                self.toward_site(statement, frame)
            elif verdict is None:
                why = test.reason if is_unknown(test) else "condition cannot be decided"
                self.mark_undecided([statement], frame, why, _cause(test))
            elif verdict:
                self.exec_block(statement.body.body, frame)
            elif type(statement.orelse) is cst.If:
                self.exec_statement(statement.orelse, frame)
            elif type(statement.orelse) is cst.Else:
                self.exec_block(statement.orelse.body.body, frame)
        elif kind is cst.For:
            self.exec_for(statement, frame)
        elif kind is cst.While:
            self.exec_while(statement, frame)
        elif kind is cst.With:
            for item in statement.items:
                if item.asname is not None:
                    self.assign(item.asname.name, Unknown("context manager value", None), frame)
            self.exec_block(statement.body.body, frame)
        elif kind is cst.Try:
            try:
                self.exec_block(statement.body.body, frame)
            except Infeasible as signal:
                if not statement.handlers:
                    raise
                handler = catching(statement.handlers, signal.raised)
                if handler is None:  # no handler catches what Python raises there
                    raise
                if handler is not False:
                    # the handler Python runs: raising again, it refuses the point. One that
                    # falls back (`return DEFAULT`) decides nothing: the refusal may be of a
                    # sample standing for a text (`FORMATS[96]`), whose real values the
                    # refusal has the table give next, which the fallback would hide
                    if handler.name is not None:  # (`except KeyError as error:`)
                        caught = Unknown(f"the exception caught: {signal.reason}", signal.location)
                        self.assign(handler.name.name, caught, frame)
                    try:
                        self.exec_block(handler.body.body, frame)
                    except (ReturnSignal, BreakSignal, ContinueSignal):
                        pass
                # what the try/except assigns is undecided, not infeasible
                why = f"exception may be caught: {signal.reason}"
                self.mark_undecided([statement], frame, why)
                return
            if statement.orelse is not None:
                self.exec_block(statement.orelse.body.body, frame)
            if statement.finalbody is not None:
                self.exec_block(statement.finalbody.body.body, frame)
        elif kind is cst.Match:
            self.exec_match(statement, frame)
        elif kind is cst.FunctionDef:
            info = FunctionInfo(statement.name.value, statement.name.value, frame.module, statement)
            frame.locals[statement.name.value] = FunctionRef(info, closure=enclosing_names(frame))
        elif kind is cst.ClassDef:
            frame.locals[statement.name.value] = Unknown(
                "class defined inside a function", frame.module.parsed.location(statement)
            )
        else:
            self.mark_undecided([statement], frame, f"{type(statement).__name__} is not followed")

    def exec_match(self, statement: cst.Match, frame: Frame) -> None:
        """`match fmt: case "fp8" | "fp8_e4m3": ...`: the first case whose pattern matches
        runs, as an `if`/`elif` chain would. Value, singleton, capture, wildcard and `|`
        patterns are followed (a literal compared is noted, as `==` notes it); where a pattern
        or a guard cannot be decided, or is of another kind (sequence, mapping, class), the
        cases from there on are undecided."""
        subject = self.eval(statement.subject, frame)
        location = frame.module.parsed.location(statement)
        cases = list(statement.cases)
        for at, case in enumerate(cases):
            verdict, why = self.match_pattern(case.pattern, subject, frame, location)
            if verdict and case.guard is not None:
                guard = self.eval(case.guard, frame)
                verdict = self.truth(guard)
                why = guard.reason if is_unknown(guard) else "guard cannot be decided"
            if verdict is None:
                self.mark_undecided(cases[at:], frame, why, _cause(subject))
                return
            if verdict:
                self.exec_block(case.body.body, frame)
                return

    def match_pattern(
        self, pattern: cst.MatchPattern, subject: Any, frame: Frame, location
    ) -> tuple[bool | None, str]:
        """Does `subject` match `pattern` (binding a capture's name)? None when it cannot be
        told, with why."""
        kind = type(pattern)
        if kind is cst.MatchAs:
            if pattern.pattern is not None:
                verdict, why = self.match_pattern(pattern.pattern, subject, frame, location)
                if not verdict:
                    return verdict, why
            if pattern.name is not None:
                self.assign(pattern.name, subject, frame)
            return True, ""
        if kind is cst.MatchOr:
            undecided = None
            for element in pattern.patterns:
                verdict, why = self.match_pattern(element.pattern, subject, frame, location)
                if verdict:
                    return True, ""
                if verdict is None and undecided is None:
                    undecided = why
            return (None, undecided) if undecided is not None else (False, "")
        if kind is cst.MatchValue or kind is cst.MatchSingleton:
            value = self.eval(pattern.value, frame)
            if kind is cst.MatchValue:
                self.point.compared_with_literal(subject, value)
            outcome = self.compare(
                cst.Equal if kind is cst.MatchValue else cst.Is, subject, value, location
            )
            if is_unknown(outcome):
                return None, outcome.reason
            verdict = self.truth(outcome)
            return verdict, "" if verdict is not None else "pattern cannot be decided"
        return None, f"a {kind.__name__} pattern is not followed"

    def toward_site(self, statement: cst.If, frame: Frame) -> None:
        """An undecided `if` on the way to a construction site being run (site_run.py): take
        the branch that holds the call, and say so (the site's guards hold on that path)."""
        test = source_of(frame.module.parsed, statement.test)
        if id(statement.body) in self.site_path:
            self.site_branches.append(f"{test}: taken as true")
            self.exec_block(statement.body.body, frame)
            return
        self.site_branches.append(f"{test}: taken as false")
        if type(statement.orelse) is cst.If:
            self.exec_statement(statement.orelse, frame)
        elif type(statement.orelse) is cst.Else:
            self.exec_block(statement.orelse.body.body, frame)

    def exec_for(self, statement: cst.For, frame: Frame) -> None:
        value = self.eval(statement.iter, frame)
        iterable = items_of(self, value, location_of(frame.module.parsed, statement))
        if isinstance(iterable, PartialSequence):  # the known head runs, the rest is undecided
            if self.loop_items(statement, iterable.known, frame):
                self.mark_undecided([statement], frame, iterable.reason, iterable)
            return
        if not isinstance(iterable, tuple):
            why = iterable.reason if is_unknown(iterable) else "loop over a value not modelled"
            self.mark_undecided([statement], frame, why, _cause(iterable))
            return
        if len(iterable) > self.limits.max_loop_iterations:
            self.mark_undecided([statement], frame, "loop over too many items")
            return
        if self.loop_items(statement, iterable, frame) and statement.orelse is not None:
            self.exec_block(statement.orelse.body.body, frame)

    def loop_items(self, statement: cst.For, items, frame: Frame) -> bool:
        """Run the loop body over `items`; False if it left by `break`."""
        for item in items:
            self.assign(statement.target, item, frame)
            try:
                self.exec_block(statement.body.body, frame)
            except BreakSignal:
                return False
            except ContinueSignal:
                continue
        return True

    def exec_while(self, statement: cst.While, frame: Frame) -> None:
        for _ in range(self.limits.max_loop_iterations):
            test = self.eval(statement.test, frame)
            verdict = self.truth(test)
            if verdict is None:
                why = test.reason if is_unknown(test) else "loop condition cannot be decided"
                self.mark_undecided([statement], frame, why, _cause(test))
                return
            if not verdict:
                return
            try:
                self.exec_block(statement.body.body, frame)
            except BreakSignal:
                return
            except ContinueSignal:
                continue
        self.mark_undecided(
            [statement], frame, f"loop ran past {self.limits.max_loop_iterations} iterations"
        )

    def mark_undecided(
        self, statements: list, frame: Frame, why: str, cause: Unknown | None = None
    ) -> None:
        """A block the interpreter could not follow: everything it might assign becomes Unknown.
        `why` words it; `cause` is the Unknown that left it undecided, when there is one."""
        location = frame.module.parsed.location(statements[0])
        text = f"set on a path that could not be decided: {why}"
        unknown = Unknown(text, location, Why.UNDECIDED, cause)
        names, self_attrs, returns, calls = assigned_targets(statements)
        if frame.yielded is not None and yields_in(statements):  # its items undecided
            returns = True
        for name in names:
            frame.locals[name] = unknown
        receiver = frame.receiver
        for kind, name in changed_in_place(statements):
            # a list, dict or set the block fills (`out.append(x)`, `d[k] = v`) is no longer
            # known whole; a tensor written into, or a list of tensors given another (a
            # layer of the same shape), keeps its shapes and dtypes, which is what is measured
            held = frame.locals if kind == "name" else getattr(receiver, "attrs", None)
            if held is not None and name in held and not _holds_tensors(held[name]):
                held[name] = unknown
        if isinstance(receiver, Instance):
            self_attrs = self_attrs + self.attributes_set_by_calls(receiver, statements)
            for attr in list(self_attrs):  # what a property setter assigns is undecided too
                setter = self.property_setter(receiver.cls, attr)
                if setter is not None:
                    body = setter.node.body.body
                    self_attrs += assigned_targets(body)[1]
                    self_attrs += self.attributes_set_by_calls(receiver, body)
            for attr in self_attrs:
                receiver.attrs[attr] = unknown
            if calls and receiver.incomplete is None:
                receiver.incomplete = unknown
            if raises_in(statements):
                receiver.may_raise.append(
                    Unknown(
                        f"may raise on a path that could not be decided: {why}",
                        location,
                        Why.UNDECIDED,
                        cause,
                    )
                )
        if returns and frame.undecided_return is None and not frame.declarative:
            frame.undecided_return = Unknown(
                f"return value depends on an undecided path: {why}", location, Why.UNDECIDED, cause
            )

    def attributes_set_by_calls(self, receiver: Instance, statements: list) -> list[str]:
        """`self.` attributes that the methods called from a block may set (a few levels deep).

        So a buffer built by `self._create_buffers()` under an undecided branch is reported as
        Unknown instead of silently keeping an earlier placeholder value.
        """
        found: list[str] = []
        seen: set[str] = set()
        pending = [(name, 0) for name in self_method_calls(statements)]
        while pending:
            name, depth = pending.pop()
            if name in seen or depth > 4:
                continue
            seen.add(name)
            method = receiver.cls.find_method(name)
            if method is None:
                continue
            body = method.node.body.body
            found.extend(assigned_targets(body)[1])
            pending.extend((callee, depth + 1) for callee in self_method_calls(body))
        return found

    def exec_small(self, small: cst.BaseSmallStatement, frame: Frame) -> None:
        module = frame.module
        kind = type(small)  # as in exec_statement: these classes have no subclasses
        if kind is cst.Expr:
            value = self.eval(small.value, frame)
            if is_unknown(value) and type(small.value) is cst.Call:
                if isinstance(frame.receiver, Instance) and frame.receiver.incomplete is None:
                    if value.why is Why.UNRESOLVED_CALL:
                        frame.receiver.incomplete = value
        elif kind is cst.Assign:
            value = self.eval(small.value, frame)
            for target in small.targets:
                self.assign(target.target, value, frame, small.value)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                self.assign(small.target, self.eval(small.value, frame), frame, small.value)
        elif kind is cst.AugAssign:
            current = self.eval(small.target, frame)
            operand = self.eval(small.value, frame)
            op_type = _AUG_TO_BINARY.get(type(small.operator))
            value = self.binary(op_type, current, operand, location_of(module.parsed, small))
            self.assign(small.target, value, frame)
        elif kind is cst.Return:
            raise ReturnSignal(self.eval(small.value, frame) if small.value is not None else None)
        elif kind is cst.Assert:
            verdict = self.truth(self.eval(small.test, frame))
            if verdict is False:
                what = f"assert {source_of(module.parsed, small.test)} fails"
                self.fail(frame, what, small, "AssertionError")
        elif kind is cst.Raise:
            what = source_of(module.parsed, small.exc) if small.exc is not None else "raise"
            self.fail(frame, f"raises {what}", small, raised_class(small.exc))
        elif kind is cst.Import or kind is cst.ImportFrom:
            self.bind_import(small, frame)
        elif kind is cst.Break:
            raise BreakSignal()
        elif kind is cst.Continue:
            raise ContinueSignal()
        elif kind is cst.Del:
            for name in assigned_targets([cst.SimpleStatementLine([small])])[0]:
                frame.locals.pop(name, None)

    def property_setter(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        """The `@name.setter` of the property `name` that `cls` resolves to, if any."""
        key = (id(cls), name)
        if key not in self._setters:
            self._setters[key] = None
            for klass in cls.mro():
                getter = klass.methods.get(name)
                if getter is None:
                    continue
                if getter.has_decorator("property"):
                    self._setters[key] = _find_setter(klass, name)
                break
        return self._setters[key]

    def _pinned_first(self, target, frame: Frame, source) -> bool:
        """`first, *rest = pools` in a site run (site_run.py) whose device variable is `first`,
        the pools coming from the callers: the device is `first` and `rest` is taken empty, the
        case of one pool, said in the pair's assumptions. False (nothing bound) otherwise."""
        pin = self.site_pin
        elements = target.elements
        if pin is None or self.site_branches is None or not _runs(frame, pin[0]):
            return False
        if len(elements) != 2 or not isinstance(elements[1], cst.StarredElement):
            return False
        first, rest = elements[0].value, elements[1].value
        if not (isinstance(first, cst.Name) and first.value == pin[1]):
            return False
        if not isinstance(rest, cst.Name):
            return False
        self.assign(first, pin[2], frame)
        self.assign(rest, [], frame)
        what = frame.module.parsed.code(source) if source is not None else "the sequence"
        note = f"{rest.value} taken empty ({first.value} the only pool of {what})"
        if note not in self.site_branches:
            self.site_branches.append(note)
        return True

    def fail(self, frame: Frame, reason: str, node: cst.CSTNode, raised: str | None = None) -> None:
        """A decided `raise` or failing `assert`: the config point is infeasible.

        Unless an undecided branch earlier in the function may already have returned: then
        the raise is not certain, and the call's result is Unknown instead.
        """
        location = frame.module.parsed.location(node)
        if frame.undecided_return is not None:
            raise ReturnSignal(frame.undecided_return)
        raise Infeasible(reason, location, raised=raised)

    def assign(self, target: cst.BaseExpression, value: Any, frame: Frame, source=None) -> None:
        module = frame.module
        kind = type(target)
        if kind is cst.Name:
            pin = self.site_pin
            if pin is not None and target.value == pin[1] and _runs(frame, pin[0]):
                value = pin[2]  # site_run.py: the variable holding the device at the call
            frame.locals[target.value] = value
            if source is not None:
                frame.sources[target.value] = (source, frame)
            else:
                frame.sources.pop(target.value, None)
        elif kind is cst.Attribute:
            obj = self.eval(target.value, frame)
            if isinstance(obj, Instance):
                setter = self.property_setter(obj.cls, target.attr.value)
                if setter is not None:  # `self.width = 7` runs `@width.setter`
                    location = location_of(module.parsed, target)
                    self.call_function(setter, obj, [value], {}, location, setter.owner)
                    return
                obj.attrs[target.attr.value] = value
                obj.set_sites[target.attr.value] = location_of(module.parsed, target)
            elif type(obj) is AttributeBag:  # `args.model = json.loads(args.model_config)`
                obj.attrs[target.attr.value] = value
        elif kind is cst.Tuple or kind is cst.List:
            elements = [e.value for e in target.elements]
            if is_unknown(value) and self._pinned_first(target, frame, source):
                return
            starred = [
                i for i, e in enumerate(target.elements) if isinstance(e, cst.StarredElement)
            ]
            if (  # `n_layers, _, *row = dev.kv.shape`: the rest as a list
                len(starred) == 1
                and isinstance(value, (tuple, list))
                and len(value) >= len(elements) - 1
            ):
                at, after = starred[0], len(elements) - starred[0] - 1
                items = list(value)
                middle = items[at : len(items) - after]
                for element, item in zip(
                    elements, [*items[:at], middle, *items[len(items) - after :]]
                ):
                    self.assign(element, item, frame)
            elif isinstance(value, (tuple, list)) and len(value) == len(elements):
                for element, item in zip(elements, value):
                    self.assign(element, item, frame)
            else:
                reason = (
                    value
                    if is_unknown(value)
                    else Unknown("cannot unpack value", module.parsed.location(target))
                )
                for element in elements:
                    self.assign(element, reason, frame)
        elif kind is cst.Subscript:
            container = self.eval(target.value, frame)
            if isinstance(container, (dict, list)) and len(target.slice) == 1:
                index = target.slice[0].slice
                if isinstance(index, cst.Index):
                    key = self.eval(index.value, frame)
                    if not is_unknown(key):
                        try:
                            container[key] = value
                        except (TypeError, IndexError):
                            pass


def _runs(frame: Frame, node: cst.FunctionDef) -> bool:
    function = getattr(frame, "function", None)
    return function is not None and function.node is node


def _find_setter(klass: ClassInfo, name: str) -> FunctionInfo | None:
    for statement in klass.node.body.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
            if any(dotted(d.decorator) == f"{name}.setter" for d in statement.decorators):
                qualname = f"{klass.qualname}.{name}"
                return FunctionInfo(name, qualname, klass.module, statement, klass)
    return None


_AUG_TO_BINARY = {
    cst.AddAssign: cst.Add,
    cst.SubtractAssign: cst.Subtract,
    cst.MultiplyAssign: cst.Multiply,
    cst.FloorDivideAssign: cst.FloorDivide,
    cst.DivideAssign: cst.Divide,
    cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power,
    cst.LeftShiftAssign: cst.LeftShift,
    cst.RightShiftAssign: cst.RightShift,
    cst.BitAndAssign: cst.BitAnd,
    cst.BitOrAssign: cst.BitOr,
    cst.BitXorAssign: cst.BitXor,
}


def _holds_tensors(value: object) -> bool:
    """A tensor, or a non-empty list or tuple of tensors (a per-layer list)."""
    if isinstance(value, Tensor):
        return True
    return (
        isinstance(value, (list, tuple))
        and bool(value)
        and all(isinstance(v, Tensor) for v in value)
    )


def _cause(value: object) -> Unknown | None:
    """The Unknown a test or iterable is, to be the cause of what it leaves undecided."""
    return value if isinstance(value, Unknown) else None
