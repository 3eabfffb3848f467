"""Fuzzing: the interpreter's integer arithmetic is Python's, or Unknown, never another number;
and no bytes (random, or a fixture file mutated) make the pipeline raise or run long.

Deterministic (`derandomize=True`, no example database), so CI runs the same examples each time.
"""

from __future__ import annotations

import io
import operator
import shutil
import tempfile
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from helpers import evaluate
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from auditor.interpret.values import Unknown
from auditor.limits import DEFAULT_LIMITS
from auditor.pipeline import AuditResult, audit
from auditor.report import github, json_report, sarif, table, text
from auditor.settings import Settings, find_config, load_settings

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
SECONDS = 10.0  # per example; generous for loaded CI machines, a hang takes far longer


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=SECONDS * 1000,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---- arithmetic: random expressions, the interpreter against Python ----------------------
#
# An expression is a tree of tuples: ("lit", n), ("neg", e), ("bin", op, a, b),
# ("pow", base, exponent), ("call", "min"|"max", args, as_tuple), ("abs", e),
# ("cmp", first, [(op, e), ...]), ("if", test, body, orelse).

BITS = DEFAULT_LIMITS.max_int_bits
MAX_EXPONENT = DEFAULT_LIMITS.max_power_exponent

BINARY_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
}
COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}

literals = st.one_of(
    st.integers(-12, 12),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**BITS - 1, 2**BITS, -(2 ** (BITS - 1)), 2**128 + 1, 2**300]),
).map(lambda n: ("lit", n))
exponents = st.one_of(
    st.integers(0, 8),
    st.integers(-3, -1),  # int ** negative int is a float in Python
    st.integers(100, 300),
    st.sampled_from([MAX_EXPONENT, MAX_EXPONENT + 1, 10**6]),
)


def _extend(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.just("neg"), inner),
        st.tuples(st.just("bin"), st.sampled_from(sorted(BINARY_OPS)), inner, inner),
        st.tuples(st.just("pow"), inner, exponents),
        st.tuples(
            st.just("call"),
            st.sampled_from(["min", "max"]),
            st.lists(inner, min_size=1, max_size=3),
            st.booleans(),
        ),
        st.tuples(st.just("abs"), inner),
        st.tuples(
            st.just("cmp"),
            inner,
            st.lists(
                st.tuples(st.sampled_from(sorted(COMPARISONS)), inner), min_size=1, max_size=2
            ),
        ),
        st.tuples(st.just("if"), inner, inner, inner),
    )


expressions = st.recursive(literals, _extend, max_leaves=12)


def render(node: tuple) -> str:
    """Python source for an expression tree, fully parenthesised."""
    kind = node[0]
    if kind == "lit":
        return str(node[1]) if node[1] >= 0 else f"(-{-node[1]})"
    if kind == "neg":
        return f"(-{render(node[1])})"
    if kind == "bin":
        return f"({render(node[2])} {node[1]} {render(node[3])})"
    if kind == "pow":
        return f"({render(node[1])} ** ({node[2]}))"
    if kind == "call":
        args = ", ".join(render(a) for a in node[2])
        return f"{node[1]}(({args},))" if node[3] else f"{node[1]}({args})"
    if kind == "abs":
        return f"abs({render(node[1])})"
    if kind == "cmp":
        return "(" + render(node[1]) + "".join(f" {op} {render(e)}" for op, e in node[2]) + ")"
    if kind == "if":
        return f"({render(node[2])} if {render(node[1])} else {render(node[3])})"
    raise AssertionError(node)


class Limit(Exception):  # noqa: N818 - a signal: the interpreter must answer Unknown
    """Python has no value within the limits here; `words` must appear in the reason."""

    def __init__(self, words: str | None) -> None:
        super().__init__(words)
        self.words = words


def _checked(value: Any) -> Any:
    if isinstance(value, int) and value.bit_length() > BITS:
        raise Limit("bits")
    if isinstance(value, float) and value != value:
        raise Limit("not a number")
    return value


def _apply(function: Callable, *args: Any) -> Any:
    try:
        return _checked(function(*args))
    except ZeroDivisionError:
        raise Limit("division by zero") from None
    except (ArithmeticError, TypeError, ValueError):
        raise Limit(None) from None  # Python raises: no value to agree with


def python_value(node: tuple) -> Any:
    """The expression's value by Python's own operators, evaluating exactly what Python
    evaluates (conditional branches and comparison chains short-circuit); Limit when an
    evaluated literal or intermediate integer is over the bit limit, an exponent is over the
    exponent limit, or Python itself raises."""
    kind = node[0]
    if kind == "lit":
        return _checked(abs(node[1])) * (1 if node[1] >= 0 else -1)
    if kind == "neg":
        return _apply(operator.neg, python_value(node[1]))
    if kind == "bin":
        left = python_value(node[2])
        right = python_value(node[3])
        return _apply(BINARY_OPS[node[1]], left, right)
    if kind == "pow":
        base, exponent = python_value(node[1]), node[2]
        if abs(exponent) > MAX_EXPONENT:
            raise Limit("exponent")
        # exact: |base| < 2 ** 257 and exponent <= 4096 keep this around a million bits
        return _apply(operator.pow, base, exponent)
    if kind == "call":
        args = [python_value(a) for a in node[2]]
        function = min if node[1] == "min" else max
        return _apply(function, tuple(args)) if node[3] else _apply(function, *args)
    if kind == "abs":
        return _apply(abs, python_value(node[1]))
    if kind == "cmp":
        left = python_value(node[1])
        outcome: Any = True
        for op, expression in node[2]:
            right = python_value(expression)
            outcome = _apply(COMPARISONS[op], left, right)
            if not outcome:
                return outcome
            left = right
        return outcome
    if kind == "if":
        return python_value(node[2] if python_value(node[1]) else node[3])
    raise AssertionError(node)


def interpreted(source: str) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        return evaluate(Path(folder), source)


def assert_agrees(source: str, expected: Any, value: Any) -> None:
    if isinstance(expected, Limit):
        assert isinstance(value, Unknown), f"{source}: interpreter {value!r}, Python has none"
        assert value.reason
        if expected.words is not None:
            assert expected.words in value.reason, f"{source}: {value.reason!r}"
        return
    assert not isinstance(value, Unknown), (
        f"{source}: Unknown ({value.reason}), Python {expected!r}"
    )
    assert type(value) is type(expected), f"{source}: {value!r} vs Python {expected!r}"
    assert value == expected, f"{source}: {value!r} vs Python {expected!r}"


@fuzz_settings(300)
@given(expressions)
def test_interpreter_arithmetic_is_pythons_or_unknown(tree):
    source = render(tree)
    try:
        expected: Any = python_value(tree)
    except Limit as limit:
        expected = limit
        event(f"Unknown: {limit.words or 'Python raises'}")
    else:
        event(f"a {type(expected).__name__}")
        # the tree walker and the rendered source agree (rendering keeps Python's meaning);
        # cheap, as everything Python evaluates here stayed within the limits
        assert eval(source, {"__builtins__": {}, "min": min, "max": max, "abs": abs}) == expected
    assert_agrees(source, expected, interpreted(source))


@fuzz_settings(60)
@given(
    st.one_of(st.integers(-12, 12), st.integers(-(2**80), 2**80)),
    st.lists(
        st.tuples(
            st.sampled_from(["+=", "-=", "*=", "//=", "%=", "**="]),
            st.one_of(st.integers(-12, 12), st.integers(-(2**40), 2**40)),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_augmented_assignment_in_a_function_is_pythons_or_unknown(start, steps):
    """The same arithmetic through locals, parameters and augmented assignment."""
    lines = ["def f(x):"]
    tree: tuple = ("lit", start)
    for op, operand in steps:
        if op == "**=":
            operand = abs(operand) % 300
            tree = ("pow", tree, operand)
        else:
            tree = ("bin", op[:-1], tree, ("lit", operand))
        lines.append(f"    x {op} {operand if operand >= 0 else f'({operand})'}")
    lines.append("    return x")
    try:
        expected: Any = python_value(tree)
    except Limit as limit:
        expected = limit
    with tempfile.TemporaryDirectory() as folder:
        value = evaluate(Path(folder), f"f({start})", "\n".join(lines) + "\n")
    assert_agrees("\n".join(lines), expected, value)


def test_the_oracle_itself():
    """The reference agrees with Python and flags limits where the interpreter must."""
    assert python_value(("pow", ("lit", 2), 200)) == 2**200
    assert python_value(("pow", ("lit", -1), 4001)) == -1
    assert python_value(("call", "max", [("lit", 3), ("lit", 9)], True)) == 9
    for tree, words in [
        (("pow", ("lit", 2), 256), "bits"),
        (("pow", ("lit", 1), MAX_EXPONENT + 1), "exponent"),
        (("bin", "//", ("lit", 1), ("lit", 0)), "division by zero"),
        (("call", "max", [("lit", 5)], False), None),  # max(5): Python raises TypeError
    ]:
        try:
            python_value(tree)
        except Limit as limit:
            assert limit.words == words
        else:
            raise AssertionError(tree)


# ---- the whole pipeline on random and mutated files --------------------------------------

INCIDENT = FIXTURES / "incident_buggy"
MUTATED_TREES = ["incident_buggy", "mha_v_head_dim_buggy", "mla_fp4_kv_buggy", "never_run"]


def _python_files(tree: Path) -> list[str]:
    return sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*.py"))


def _settings(tree: Path) -> Settings:
    loaded = load_settings(find_config([tree]))
    loaded.respect_gitignore = False  # no git subprocess per example
    return loaded


def _audit(tree: Path) -> AuditResult:
    started = time.perf_counter()
    result = audit([tree], _settings(tree))
    elapsed = time.perf_counter() - started
    assert elapsed < SECONDS, f"audit took {elapsed:.1f}s"
    return result


def _render_everything(result: AuditResult, tree: Path) -> None:
    """Every output format copes with whatever the audit produced."""
    out, err = io.StringIO(), io.StringIO()
    text.render(result, out, err, show_unresolved=True)
    json_report.render(result, out)
    github.render(result, out, summary_path=None)
    sarif.render(result, out)
    grids = table.build(result, _settings(tree))
    table.render_text(grids, out)
    table.render_html(grids, out)


def _check_errors(result: AuditResult, hostile: Path) -> None:
    """Only the hostile file is reported, each time as one line with a position."""
    for error in result.errors:
        assert Path(error.path).resolve() == hostile.resolve(), error
        assert error.line >= 1 and error.column >= 1, error
        assert error.message and "\n" not in error.message, error


def _key(result: AuditResult) -> list[tuple]:
    return sorted(
        (f.code, Path(f.location.path).name, f.location.line, f.message) for f in result.findings
    )


@cache
def _findings_without(fixture: str, relative: str) -> list[tuple]:
    """The fixture's findings when `relative` is a file that cannot be parsed: what a mutated
    file that turns into an E902 must leave behind (nothing else may be lost)."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        shutil.copytree(FIXTURES / fixture, tree)
        (tree / relative).write_bytes(b"\x00 layout-audit reads this file\n")
        result = audit([tree], _settings(tree))
        assert [Path(e.path).name for e in result.errors] == [Path(relative).name]
        return _key(result)


def _mutate(data: bytes, mutations: list[tuple[str, int, int, bytes]]) -> bytes:
    for kind, a, b, extra in mutations:
        lines = data.splitlines(keepends=True)
        if kind in ("delete", "duplicate", "swap") and lines:
            i, j = a % len(lines), b % len(lines)
            if kind == "delete":
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"".join(lines)
        elif kind == "flip" and data:
            i = a % len(data)
            data = data[:i] + bytes([b % 256]) + data[i + 1 :]
        elif kind == "truncate":
            data = data[: a % (len(data) + 1)]
        elif kind == "insert":
            i = a % (len(data) + 1)
            data = data[:i] + extra + data[i:]
    return data


mutation_lists = st.lists(
    st.tuples(
        st.sampled_from(["delete", "duplicate", "swap", "flip", "truncate", "insert"]),
        st.integers(0, 2**16),
        st.integers(0, 2**16),
        st.binary(max_size=6),
    ),
    min_size=1,
    max_size=5,
)


@fuzz_settings(60)
@given(st.sampled_from(MUTATED_TREES), st.data(), mutation_lists)
def test_a_mutated_fixture_file_never_breaks_the_audit(fixture, data, mutations):
    files = _python_files(FIXTURES / fixture)
    relative = data.draw(st.sampled_from(files), label="file")
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        shutil.copytree(FIXTURES / fixture, tree)
        target = tree / relative
        target.write_bytes(_mutate(target.read_bytes(), mutations))
        result = _audit(tree)
        _check_errors(result, target)
        assert result.files_read + len(result.errors) == len(files)
        event("E902" if result.errors else "parsed, audited")
        if result.errors:
            # an unparseable file costs its own findings and nothing else
            assert _key(result) == _findings_without(fixture, relative)
        _render_everything(result, tree)


INCIDENT_FINDING = "host and device disagree, 132 B/token/layer vs 256 B/token/layer"

# pieces of Python, for files that often parse and so reach the index and the interpreter
TOKENS = (
    ["class ", "def ", "self.", "return ", "import torch\n", "lambda: ", "not ", "if ", "else"]
    + ["elif ", "while ", "for ", " in ", "range(", "super().__init__(", "torch.zeros(", "("]
    + [")", "[", "]", ":", ",", " = ", " + ", " * ", " // ", " ** ", "\n", "\n    ", "\n        "]
    + ["size", "layer_num", "device_pool", "dtype=torch.uint8", "Pool", "Host", "x", "0", "1"]
    + ["64", "-", ".", "__init__", "@property\n", "'a'", "assert ", "raise ", "*", "**"]
)


@fuzz_settings(40)
@given(
    st.one_of(
        st.binary(max_size=3000),
        st.lists(st.sampled_from(TOKENS), max_size=120).map(lambda parts: "".join(parts).encode()),
    )
)
def test_random_bytes_beside_the_incident_lose_nothing(data):
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        shutil.copytree(INCIDENT, tree)
        hostile = tree / "sglang" / "srt" / "mem_cache" / "fuzzed.py"
        hostile.write_bytes(data)
        result = _audit(tree)
        _check_errors(result, hostile)
        assert result.files_read + len(result.errors) == 6
        event("E902" if result.errors else "parsed, audited")
        assert any(INCIDENT_FINDING in f.message for f in result.findings)
        _render_everything(result, tree)
