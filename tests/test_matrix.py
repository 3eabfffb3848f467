"""Config matrix: which constructor parameters vary, and explore() varying only what is read."""

from __future__ import annotations

import itertools

import pytest
from helpers import build_index, find_class, settings

from auditor.dtypes import torch_module
from auditor.evaluation.evaluate import PoolEvaluator
from auditor.evaluation.matrix import Dimension, describe_value, dimensions, explore, json_value

torch = torch_module()


def recorder(reads_of):
    """An `evaluate` for explore(): records each point, returns `reads_of(point)`."""
    calls: list[dict] = []

    def run(values):
        calls.append(dict(values))
        return set(reads_of(values))

    return run, calls


DIMS = {
    "a": Dimension("a", (1, 2, 3)),
    "b": Dimension("b", ("x", "y")),
    "c": Dimension("c", (True, False)),
    "single": Dimension("single", (7,)),
}


def test_nothing_read_means_one_point():
    run, calls = recorder(lambda values: set())
    points, varied, truncated = explore(DIMS, run, 100)
    assert calls == [{"a": 1, "b": "x", "c": True, "single": 7}]
    assert points == calls and varied == [] and truncated is False


def test_only_read_dimensions_are_varied():
    run, calls = recorder(lambda values: {"a", "single", "not_a_dimension"})
    points, varied, truncated = explore(DIMS, run, 100)
    assert varied == ["a"]
    assert sorted(p["a"] for p in points) == [1, 2, 3]
    assert all(p["b"] == "x" and p["c"] is True and p["single"] == 7 for p in points)
    assert len(calls) == 3 and truncated is False


def test_a_dimension_read_only_on_some_branch_is_found():
    # `c` is read only when a == 3 (an `if` reached at one value of `a`)
    run, calls = recorder(lambda values: {"a"} | ({"c"} if values["a"] == 3 else set()))
    points, varied, truncated = explore(DIMS, run, 100)
    assert varied == ["a", "c"]
    combos = {(p["a"], p["c"]) for p in points}
    assert combos == set(itertools.product((1, 2, 3), (True, False)))
    assert len(points) == 6 and len(calls) == len({tuple(sorted(c.items())) for c in calls})
    assert all(p["b"] == "x" for p in points)


def test_every_read_dimension_gives_the_full_product():
    run, _ = recorder(lambda values: {"a", "b", "c"})
    points, varied, truncated = explore(DIMS, run, 100)
    assert sorted(varied) == ["a", "b", "c"]
    assert len(points) == 12 and truncated is False


@pytest.mark.parametrize("limit", [1, 2, 5, 11])
def test_max_points_is_respected_and_reported(limit):
    run, calls = recorder(lambda values: {"a", "b", "c"})
    points, varied, truncated = explore(DIMS, run, limit)
    assert len(calls) <= limit and len(points) <= limit
    assert truncated is True


def test_exactly_max_points_is_not_truncated():
    run, calls = recorder(lambda values: {"a", "b", "c"})
    points, _, truncated = explore(DIMS, run, 12)
    assert len(points) == 12 and truncated is False


def test_no_dimensions():
    run, calls = recorder(lambda values: {"anything"})
    points, varied, truncated = explore({}, run, 10)
    assert points == [{}] and varied == [] and truncated is False


POOLS = """
    import torch
    from typing import Optional

    class Base:
        def __init__(self, size, layer_num, page_size, dtype: torch.dtype, head_dim, unknown):
            pass

    class Derived(Base):
        pass

    class Pool:
        def __init__(
            self,
            size,
            layer_num,
            page_size,
            dtype: torch.dtype,
            index_k_dtype=torch.float8_e4m3fn,
            scale_dtype: Optional[torch.dtype] = None,
            name="x",
            other=None,
        ):
            pass

    class Host:
        def __init__(self, device_pool, page_size, pin_memory=False, host_dtype=torch.uint8):
            pass
"""


def test_dimensions_come_from_the_matrix_and_dtype_parameters(tmp_path):
    index = build_index(tmp_path, {"pool.py": POOLS})
    conf = settings(
        matrix={"page_size": [1, 64], "index_k_dtype": [torch.bfloat16], "pin_memory": [False]},
        default_dtypes=[torch.bfloat16, torch.float16],
    )
    dims = dimensions([find_class(index, "Pool")], conf)
    assert set(dims) == {"page_size", "dtype", "index_k_dtype", "scale_dtype"}
    assert dims["page_size"].values == (1, 64)
    assert dims["dtype"].values == (torch.bfloat16, torch.float16)
    assert dims["index_k_dtype"].values == (torch.bfloat16,)  # the matrix wins
    assert dims["scale_dtype"].values == (torch.bfloat16, torch.float16)


def test_dimensions_of_a_pair_and_of_an_inherited_constructor(tmp_path):
    index = build_index(tmp_path, {"pool.py": POOLS})
    conf = settings(matrix={"page_size": [1, 64], "pin_memory": [False]}, default_dtypes=[])
    pair = dimensions([find_class(index, "Pool"), find_class(index, "Host")], conf)
    assert set(pair) == {"page_size", "pin_memory"}
    conf.default_dtypes = [torch.float16]
    derived = dimensions([find_class(index, "Derived")], conf)
    assert set(derived) == {"page_size", "dtype"}


def test_token_layer_and_device_parameters_are_never_dimensions(tmp_path):
    index = build_index(tmp_path, {"pool.py": POOLS})
    conf = settings(matrix={"size": [1, 2], "layer_num": [3], "device_pool": [1]})
    assert dimensions([find_class(index, "Pool"), find_class(index, "Host")], conf) == {}


def test_values_are_described_by_dtype_name():
    assert describe_value(torch.float8_e4m3fn) == "float8_e4m3fn"
    assert describe_value(64) == "64"
    assert json_value(torch.bfloat16) == "bfloat16" and json_value(True) is True


def test_evaluation_varies_only_what_the_pool_reads(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num, dtype: torch.dtype, page_size, mode):
                        self.size = size
                        self.layer_num = layer_num
                        if mode == "paged":
                            rows = size + page_size
                        else:
                            rows = size
                        self.k_buffer = [
                            torch.zeros((rows, 8), dtype=dtype) for _ in range(layer_num)
                        ]
            """
        },
    )
    conf = settings(
        matrix={"page_size": [1, 64], "mode": ["flat", "paged"]},
        default_dtypes=[torch.bfloat16, torch.float8_e5m2],
    )
    evaluation = PoolEvaluator(index, conf).evaluate(find_class(index, "Pool"))
    assert sorted(evaluation.varied) == ["dtype", "mode", "page_size"]
    assert evaluation.truncated is False
    figures = {
        (p.values["dtype"], p.values["mode"], p.values["page_size"]): (
            p.device["k_buffer"].bytes_per_token_per_layer
        )
        for p in evaluation.points
    }
    assert len(figures) == len(evaluation.points) == 8
    assert figures[(torch.bfloat16, "paged", 64)] == 16
    assert figures[(torch.float8_e5m2, "flat", 1)] == 8


def test_evaluation_does_not_vary_what_is_never_read(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num, page_size, dtype: torch.dtype):
                        self.size = size
                        self.layer_num = layer_num
                        self.k_buffer = torch.zeros((layer_num, size, 4), dtype=torch.uint8)
            """
        },
    )
    conf = settings(matrix={"page_size": [1, 64]}, default_dtypes=[torch.bfloat16, torch.float16])
    evaluation = PoolEvaluator(index, conf).evaluate(find_class(index, "Pool"))
    assert evaluation.varied == []
    assert len(evaluation.points) == 1


def test_evaluation_stops_at_the_point_limit(tmp_path):
    from auditor.limits import Limits

    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num, a, b, c):
                        self.size = size
                        self.layer_num = layer_num
                        self.k_buffer = torch.zeros((layer_num, size, a + b + c), dtype=torch.uint8)
            """
        },
    )
    conf = settings(matrix={"a": [1, 2, 3], "b": [1, 2, 3], "c": [1, 2, 3]})
    evaluator = PoolEvaluator(index, conf, Limits(max_config_points=5))
    evaluation = evaluator.evaluate(find_class(index, "Pool"))
    assert evaluation.truncated is True
    assert 1 <= len(evaluation.points) <= 5
