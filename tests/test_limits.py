"""Bounds: no audited input can hang the interpreter or exhaust memory; limits give Unknown."""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from helpers import assert_unknown, build, build_index, evaluate, find_class, settings

from auditor.evaluation.evaluate import PoolEvaluator
from auditor.interpret.control import BudgetExceeded
from auditor.interpret.values import Tensor
from auditor.limits import Limits

SECONDS = 10.0  # generous for loaded CI machines; a hang takes far longer


@contextmanager
def fast(limit: float = SECONDS):
    started = time.perf_counter()
    yield
    elapsed = time.perf_counter() - started
    assert elapsed < limit, f"took {elapsed:.1f}s"


@pytest.mark.parametrize(
    "expression, words",
    [
        ("2 ** 10 ** 10", ["exponent"]),
        ("10 ** 100 * 10 ** 100", ["bits"]),
        ("1 << 10 ** 6", ["bits"]),
        ("(1 << 200) << 200", ["bits"]),
        ("2 ** 300", ["bits"]),
        ("7 // 0", ["division by zero"]),
        ("7 % 0", ["division by zero"]),
        ("7 / 0", ["division by zero"]),
        ("divmod(7, 0)", ["divmod"]),
        ("math.ceil(1 / 0)", ["division by zero"]),
        ("int(float('inf'))", ["int"]),
        ("[0] * 10 ** 9", ["limit"]),
        ("'ab' * 10 ** 9", ["limit"]),
        ("list(range(10 ** 12))", ["range", "limit"]),
        ("[i for i in range(10 ** 12)]", ["range", "limit"]),
        ("{i: i for i in range(10 ** 12)}", ["range", "limit"]),
        ("sum(i for i in range(10 ** 12))", ["range", "limit"]),
        ("math.prod([2 ** 200, 2 ** 200])", ["bits"]),
    ],
)
def test_oversized_or_undefined_arithmetic_is_unknown(tmp_path, expression, words):
    with fast():
        value = evaluate(tmp_path, expression, "import math\n")
    unknown = assert_unknown(value, *words)
    assert unknown.location is not None


@pytest.mark.parametrize(
    "shape",
    [
        "[1] * 10 ** 9",
        "(1,) * 10 ** 9",
        "(1,) * 100",
        "[1 for _ in range(10 ** 9)]",
        "(2 ** 200, 2 ** 200)",
        "(-1, 4)",
    ],
)
def test_a_shape_with_absurd_dimensions_is_unknown(tmp_path, shape):
    with fast():
        value = evaluate(tmp_path, f"torch.zeros({shape}, dtype=torch.uint8)", "import torch\n")
    assert_unknown(value)


def test_allocation_bytes_over_the_integer_limit_are_unknown(tmp_path):
    shape = "(2 ** 120, 2 ** 120, 2 ** 20)"
    value = evaluate(tmp_path, f"torch.zeros({shape}, dtype=torch.float64)", "import torch\n")
    assert_unknown(value, "integer limit")


def test_sequences_doubled_by_addition_stay_bounded(tmp_path):
    prelude = """
        def grow():
            x = [1] * 1000
            for _ in range(60):
                x = x + x
            return x

        def grow_in_place():
            s = "a" * 1000
            for _ in range(60):
                s += s
            return s

        def extend():
            x = [1] * 1000
            for _ in range(60):
                x.extend(x)
            return len(x)
    """
    with fast():
        assert_unknown(evaluate(tmp_path / "a", "grow()", prelude), "limit")
        assert_unknown(evaluate(tmp_path / "b", "grow_in_place()", prelude), "limit")
        length = evaluate(tmp_path / "c", "extend()", prelude)
    assert not isinstance(length, int) or length <= 2 * Limits().max_sequence_length


def test_a_helper_that_recurses_forever(tmp_path):
    prelude = """
        def forever(n):
            return forever(n + 1) + 1
    """
    with fast():
        value = evaluate(tmp_path, "forever(0)", prelude)
    assert_unknown(value, "call depth")


def test_mutual_recursion_through_methods(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        self.size = self.ping(size)

                    def ping(self, n):
                        return self.pong(n) * 2

                    def pong(self, n):
                        return self.ping(n) + 1
            """
        },
    )
    with fast():
        built = build(index, "Pool", {"size": 1})
    assert_unknown(built["size"], "call depth")


def test_exponential_recursion_runs_out_of_steps(tmp_path):
    prelude = """
        def fib(n):
            if n < 2:
                return n
            return fib(n - 1) + fib(n - 2)
    """
    with fast():
        with pytest.raises(BudgetExceeded) as caught:
            evaluate(tmp_path, "fib(40)", prelude)
    assert "step budget" in caught.value.reason
    assert caught.value.location is not None


def test_while_true_stops_and_leaves_its_targets_unknown(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        self.size = size
                        n = 0
                        while True:
                            n += 1
                            self.rows = n
                        self.after = n
            """
        },
    )
    with fast():
        built = build(index, "Pool", {"size": 4})
    assert built["size"] == 4
    assert_unknown(built["rows"], "iterations")
    assert_unknown(built["after"], "iterations")


def test_while_true_with_an_empty_body(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        while True:
                            pass
                        self.size = size
            """
        },
    )
    with fast():
        built = build(index, "Pool", {"size": 4})
    assert built["size"] == 4


def test_for_over_a_huge_range_is_not_followed(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class Pool:
                    def __init__(self, size):
                        total = 0
                        for i in range(10 ** 12):
                            total += i
                        self.total = total
                        self.size = size
            """
        },
    )
    with fast():
        built = build(index, "Pool", {"size": 4})
    assert_unknown(built["total"], "range")
    assert built["size"] == 4


def test_nested_comprehensions_run_out_of_steps(tmp_path):
    with fast():
        with pytest.raises(BudgetExceeded):
            evaluate(tmp_path, "[[i * j for i in range(9000)] for j in range(9000)]")


def test_a_small_budget_is_respected(tmp_path):
    limits = Limits(max_steps_per_evaluation=50)
    prelude = """
        def count(n):
            total = 0
            for i in range(n):
                total += i
            return total
    """
    assert evaluate(tmp_path / "a", "count(3)", prelude, limits=limits) == 3
    with pytest.raises(BudgetExceeded):
        evaluate(tmp_path / "b", "count(1000)", prelude, limits=limits)


def test_self_referential_module_names_do_not_loop(tmp_path):
    prelude = """
        A = B + 1
        B = A + 1
    """
    with fast():
        value = evaluate(tmp_path, "A", prelude)
    assert_unknown(value, "in terms of itself")


def test_circular_imports_do_not_loop(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import X\nY = X\n",
            "pkg/b.py": "from pkg.a import Y as X\n",
            "pkg/pool.py": """
                from pkg.a import Y

                class Pool:
                    def __init__(self):
                        self.y = Y
            """,
        },
    )
    with fast():
        built = build(index, "Pool")
    cycle = assert_unknown(built["y"])
    assert "circular" in cycle.reason or "in terms of itself" in cycle.reason


def test_class_hierarchy_cycle_does_not_loop(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                class A(B):
                    def __init__(self, size):
                        super().__init__(size)

                class B(A):
                    def __init__(self, size):
                        super().__init__(size)
                        self.size = size
            """
        },
    )
    with fast():
        built = build(index, "B", {"size": 2})
    assert built["size"] == 2


def test_a_pool_that_never_terminates_is_reported_not_hung(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                def fib(n):
                    return n if n < 2 else fib(n - 1) + fib(n - 2)

                class Pool:
                    def __init__(self, size, layer_num):
                        self.size = size
                        self.layer_num = layer_num
                        self.k_buffer = torch.zeros((size, layer_num, fib(60)))
            """
        },
    )
    evaluator = PoolEvaluator(index, settings())
    with fast():
        evaluation = evaluator.evaluate(find_class(index, "Pool"))
    assert evaluation.points and evaluation.feasible == []
    failure = evaluation.points[0].failure
    assert failure is not None and "step budget" in failure.reason


def test_deep_expressions_in_deep_calls_are_a_failure_not_a_crash(tmp_path):
    # a 300-term sum parses, and is evaluated 45 audited calls deep
    helpers = "\n".join(f"def h{i}(x):\n    return h{i + 1}(x)\n" for i in range(45))
    total = "x" + " + 1" * 300
    index = build_index(
        tmp_path,
        {
            "pool.py": f"""
import torch

{helpers}
def h45(x):
    return {total}

class Pool:
    def __init__(self, size, layer_num):
        self.size = size
        self.layer_num = layer_num
        self.k_buffer = torch.zeros((h0(size), layer_num), dtype=torch.uint8)
"""
        },
    )
    evaluator = PoolEvaluator(index, settings())
    with fast():
        evaluation = evaluator.evaluate(find_class(index, "Pool"))
    point = evaluation.points[0]
    if point.failure is None:
        assert point.device["k_buffer"].bytes_per_token_per_layer == 1
    else:
        assert "nests too deeply" in point.failure.reason


def test_huge_literal_is_unknown(tmp_path):
    value = evaluate(tmp_path, "1" + "0" * 200)
    assert_unknown(value, "bits")


def test_tensor_is_still_built_under_the_limits(tmp_path):
    value = evaluate(
        tmp_path, "torch.zeros((2 ** 40, 2 ** 20), dtype=torch.uint8)", "import torch\n"
    )
    assert isinstance(value, Tensor) and value.nbytes == 2**60
