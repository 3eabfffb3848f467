"""Stage 5: bytes per token per layer of each buffer, from builds at two token and layer counts."""

from __future__ import annotations

import pytest
from helpers import build, build_index, find_class, settings

from auditor.dtypes import torch_module
from auditor.evaluation.evaluate import PoolEvaluator
from auditor.evaluation.measure import BufferFigure, buffers_of, measure

torch = torch_module()


def figures(tmp_path, source: str, cls: str = "Pool", host: str | None = None, **conf):
    """Evaluate one pool (or pair) at its single config point: (device figures, host figures)."""
    index = build_index(tmp_path, {"pool.py": source})
    evaluator = PoolEvaluator(index, settings(**conf))
    evaluation = evaluator.evaluate(
        find_class(index, cls), find_class(index, host) if host else None
    )
    assert len(evaluation.points) == 1
    point = evaluation.points[0]
    assert point.infeasible is None and point.failure is None, point
    return point.device, point.host


def test_padding_drops_out(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num, page_size=64):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = torch.zeros(
                    (layer_num + 1, size + page_size, 8), dtype=torch.bfloat16
                )
        """,
    )
    figure = device["k_buffer"]
    assert figure.bytes_per_token_per_layer == 16
    assert figure.bytes_per_token == 16  # the extra layer: per token, not per layer
    assert figure.dtype == "bfloat16"


def test_per_layer_list_counts_once_per_layer(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num, page_size=16):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = [
                    torch.zeros((size + page_size, 2, 64), dtype=torch.float16)
                    for _ in range(layer_num)
                ]
                self.v_buffer = torch.zeros((layer_num, size + page_size, 2, 64), dtype=torch.float16)
        """,
    )
    assert device["k_buffer"].bytes_per_token_per_layer == 2 * 64 * 2
    assert device["k_buffer"].bytes_per_token == 0
    assert device["k_buffer"].same_size(device["v_buffer"])


def test_token_and_layer_counts_are_read_off_the_built_pool(tmp_path):
    # a host sized at twice its device is still measured per its own token
    _, host = figures(
        tmp_path,
        """
        import torch

        class Device:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = torch.zeros((layer_num, size, 4), dtype=torch.uint8)

        class Host:
            def __init__(self, device_pool: Device, ratio=2):
                self.size = device_pool.size * ratio
                self.layer_num = device_pool.layer_num
                self.k_buffer = torch.zeros((self.layer_num, self.size, 4), dtype=torch.uint8)
        """,
        cls="Device",
        host="Host",
    )
    assert host["k_buffer"].bytes_per_token_per_layer == 4


def test_paged_buffer_at_page_aligned_token_counts(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num, page_size=64, index_head_dim=128):
                self.size = size
                self.layer_num = layer_num
                row = index_head_dim + index_head_dim // 128 * 4
                num_pages = (size + page_size + 1) // page_size
                self.index_k_with_scale_buffer = [
                    torch.zeros((num_pages, page_size * row), dtype=torch.uint8)
                    for _ in range(layer_num)
                ]
        """,
        token_counts=(8192, 16384),
    )
    figure = device["index_k_with_scale_buffer"]
    assert figure.bytes_per_token_per_layer == 132
    assert "132" in figure.arithmetic and "uint8 (1 B)" in figure.arithmetic


def test_arithmetic_shows_the_formula(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num, head_num=8, head_dim=128):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = [
                    torch.zeros((size + 1, head_num, head_dim), dtype=torch.bfloat16)
                    for _ in range(layer_num)
                ]
        """,
    )
    text = device["k_buffer"].arithmetic
    assert text == "head_num * head_dim = 1024 x bfloat16 (2 B) = 2048 B/token/layer"


def test_non_linear_sizes_are_unknown(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = torch.zeros((size * size, layer_num), dtype=torch.uint8)
        """,
    )
    figure = device["k_buffer"]
    assert not figure.resolved and "not linear" in figure.unknown.reason


def test_a_pool_that_ignores_its_counts_is_unknown(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num):
                self.size = 7
                self.layer_num = layer_num
                self.k_buffer = torch.zeros((size, layer_num), dtype=torch.uint8)
        """,
    )
    assert "did not follow" in device["k_buffer"].unknown.reason


def test_unknown_buffer_attributes_become_unresolved_figures(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch
        import os

        class Pool:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = torch.zeros((size, os.cpu_count()), dtype=torch.uint8)
                self.scratch = os.cpu_count()
                self.v_buffer = [torch.zeros((size, 2)), os.cpu_count()]
        """,
    )
    assert set(device) == {"k_buffer", "v_buffer"}
    for name in ("k_buffer", "v_buffer"):
        figure = device[name]
        assert not figure.resolved and figure.bytes_per_token_per_layer is None
        assert "os.cpu_count" in figure.unknown.reason
        assert figure.location.path == "pool.py"


def test_an_allocation_of_unknown_size_is_a_buffer_whatever_its_name(tmp_path):
    """Unknown is not zero: a tensor the code certainly allocates is reported as unresolved
    even when its attribute's name does not look like a buffer's; an unknown non-tensor is not."""
    device, _ = figures(
        tmp_path,
        """
        import torch
        from elsewhere import WIDTH, make

        class Pool:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                self.rows = torch.zeros((layer_num, size, WIDTH), dtype=torch.uint8)
                self.per_layer = [torch.empty((size, WIDTH)) for _ in range(layer_num)]
                self.dtype_unknown = torch.zeros((layer_num, size, 8), dtype=make())
                self.helper = make()
                self.known = torch.zeros((layer_num, size, 8), dtype=torch.uint8)
        """,
    )
    assert set(device) == {"rows", "per_layer", "dtype_unknown", "known"}
    for name in ("rows", "per_layer"):
        assert not device[name].resolved
        assert "elsewhere.WIDTH is not defined in the audited code" in device[name].unknown.reason
    assert (
        not device["dtype_unknown"].resolved and "dtype" in device["dtype_unknown"].unknown.reason
    )
    assert device["known"].bytes_per_token_per_layer == 8


def test_a_buffer_present_at_some_counts_only_is_unknown(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                if layer_num > 2:
                    self.extra_buffer = torch.zeros((size, layer_num), dtype=torch.uint8)
        """,
    )
    assert "some token/layer counts only" in device["extra_buffer"].unknown.reason


def test_the_location_is_the_allocation_inside_the_pool_classes(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        def alloc(dims, dtype):
            return torch.empty(dims, dtype=dtype)

        class Pool:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                self.k_buffer = alloc((layer_num, size, 2), torch.float32)
                self.v_buffer = torch.empty((layer_num, size, 2), dtype=torch.float32)
        """,
    )
    assert device["k_buffer"].bytes_per_token_per_layer == 8
    assert device["k_buffer"].location.line == 10  # the call in Pool, not inside alloc()
    assert device["v_buffer"].location.line == 11


def test_a_storage_named_by_its_views_keeps_its_own_figure(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
import torch

class Pool:
    def __init__(self, size, layer_num):
        self._store = torch.zeros((layer_num, size, 8), dtype=torch.bfloat16)
        self.k_buffer_tensor = self._store
        self.k_buffer = [self._store[i].view(-1, 1, 8) for i in range(layer_num)]
"""
        },
    )
    builds = [
        (build(index, "Pool", {"size": s, "layer_num": n}).instance, s, n)
        for s, n in ((10, 2), (20, 2), (10, 3), (20, 3))
    ]
    figures = measure(builds, find_class(index, "Pool"), ["size"], ["layer_num"])
    assert list(figures) == ["k_buffer"]
    assert figures["k_buffer"].bytes_per_token_per_layer == 16


def test_view_as_another_dtype_keeps_the_figure(tmp_path):
    device, _ = figures(
        tmp_path,
        """
        import torch

        class Pool:
            def __init__(self, size, layer_num):
                self.size = size
                self.layer_num = layer_num
                raw = torch.zeros((layer_num, size, 256), dtype=torch.uint8)
                self.k_buffer = raw.view(torch.bfloat16)
        """,
    )
    assert device["k_buffer"].bytes_per_token_per_layer == 256
    assert device["k_buffer"].dtype == "bfloat16"


def test_measure_needs_four_builds_and_reads_each_count(tmp_path):
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Pool:
                    def __init__(self, size, layer_num):
                        self.size = size
                        self.layer_num = layer_num
                        self.kv_buffer = torch.zeros((layer_num * size * 3 + size + layer_num,))
            """
        },
    )
    builds = [
        (build(index, "Pool", {"size": s, "layer_num": n}).instance, s, n)
        for s, n in ((10, 2), (20, 2), (10, 3), (20, 3))
    ]
    result = measure(builds, find_class(index, "Pool"), ["size"], ["layer_num"])
    figure = result["kv_buffer"]
    assert isinstance(figure, BufferFigure)
    assert (figure.bytes_per_token_per_layer, figure.bytes_per_token) == (12, 4)
    assert figure.size_text() == "12 B/token/layer + 4 B/token"


@pytest.mark.parametrize(
    "attrs, expected",
    [
        ("self.k_buffer = torch.zeros(4)", {"k_buffer"}),
        ("self.size = 3", set()),
        ("self.rows = [1, 2]", set()),
        ("self.layers = [torch.zeros(1), torch.zeros(2)]", {"layers"}),
        ("self.nested = [[torch.zeros(1)], [torch.zeros(1)]]", {"nested"}),
        ("self.mixed = [torch.zeros(1), 2]", set()),
        # one storage under three names (SGLang 0.5.23's Ascend MHA pool): one buffer
        (
            "self._hicache_k_buffer = torch.zeros(4); self.k_buffer_tensor = "
            "self._hicache_k_buffer; self.k_buffer = self._hicache_k_buffer",
            {"k_buffer"},
        ),
        ("self._k = torch.zeros(4); self._kv = self._k", {"_k"}),
        # a buffer's name before a shorter one of another kind (0.5.10's NSA host)
        (
            "self.index_k_buffer = torch.zeros(4); self.data_refs = self.index_k_buffer",
            {"index_k_buffer"},
        ),
        # views covering one storage entirely are one more name of it (0.5.23's Ascend FIA
        # mode keeps per-layer `view`s of the contiguous tensor as k_buffer)
        (
            "self._h = torch.zeros((2, 4)); self.k_buffer_tensor = self._h; "
            "self.k_buffer = [self._h[i].view(4) for i in range(2)]",
            {"k_buffer"},
        ),
        # a part of a storage is not another name of it, reshaped or not
        ("self.kv = torch.zeros((2, 4)); self.k = self.kv[0]", {"kv"}),
        ("self.kv = torch.zeros((2, 4)); self.k = self.kv[0].view(2, 2)", {"kv"}),
        ("self.kv = torch.zeros((2, 4)); self.k = self.kv[0].permute(0)", {"kv"}),
        # two allocations of the same shape are two buffers
        (
            "self.k_buffer = torch.zeros(4); self.v_buffer = torch.zeros(4)",
            {"k_buffer", "v_buffer"},
        ),
    ],
)
def test_buffers_are_the_attributes_holding_tensors(tmp_path, attrs, expected):
    index = build_index(
        tmp_path,
        {
            "pool.py": f"""
import torch

class Pool:
    def __init__(self):
        {attrs}
"""
        },
    )
    assert set(buffers_of(build(index, "Pool").instance)) == expected
