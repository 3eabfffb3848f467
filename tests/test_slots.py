"""Buffers held per slot (`size * ratio` slots, HiSparse's index-K) are measured per slot when
the ratio parameter is named in `[parameters] slot-ratio`; a buffer that does not scale with the
ratio keeps its per-token figure. The static figures are checked against the pool built for
real on torch's meta device."""

from __future__ import annotations

import pytest
import torch
from helpers import build_index, find_class, settings, write_tree
from test_zero_config_oracle import imported

from auditor.evaluation.evaluate import PoolEvaluator
from auditor.evaluation.measure import BufferFigure
from auditor.evaluation.slots import per_slot, slot_ratio
from auditor.location import Location
from auditor.pipeline import audit
from auditor.settings import ConfigError, Settings, apply_pack

DEVICE = """
    import torch

    class SparseIndexPool:
        def __init__(self, size: int, layer_num: int, page_size: int = 64,
                     host_to_device_ratio: int = 2, device: str = "cpu"):
            self.size = size
            self.layer_num = layer_num
            self.page_size = page_size
            self.dtype = torch.bfloat16
            # the KV rows: one per device token
            self.kv_buffer = [
                torch.zeros((size + page_size, 576), dtype=self.dtype, device=device)
                for _ in range(layer_num)
            ]
            # index-K: one row per slot, host tokens included
            slots = size * host_to_device_ratio
            num_pages = (slots + page_size + 1) // page_size
            self.index_k_buffer = [
                torch.zeros((num_pages, page_size * {width}), dtype={dtype}, device=device)
                for _ in range(layer_num)
            ]
"""

HOST = """
    import torch

    from hs.device import SparseIndexPool

    class SparseIndexHost:
        def __init__(self, device_pool: SparseIndexPool, host_to_device_ratio: float = 2.0):
            self.size = int(device_pool.size * host_to_device_ratio)
            self.layer_num = device_pool.layer_num
            self.index_k_buffer = torch.empty(
                (self.layer_num, self.size, 128 + 128 // 128 * 4), dtype=torch.uint8
            )
"""


def _files(width: str, dtype: str) -> dict[str, str]:
    return {
        "hs/__init__.py": "",
        "hs/device.py": DEVICE.replace("{width}", width).replace("{dtype}", dtype),
        "hs/host.py": HOST,
    }


def _tree(tmp_path, width: str, dtype: str):
    return write_tree(tmp_path, _files(width, dtype))


def _settings(ratios: list[str]) -> Settings:
    return settings(
        slot_ratio_params=ratios,
        matrix={"host_to_device_ratio": [2, 3], "page_size": [64], "device": ["cpu"]},
        respect_gitignore=False,
        token_counts=(1024, 4096),  # whole pages: index-K is paged
    )


@pytest.mark.parametrize(
    ("width", "dtype", "per_slot_bytes"),
    [("128", "torch.bfloat16", 256), ("(128 + 128 // 128 * 4)", "torch.uint8", 132)],
)
def test_index_k_is_measured_per_slot_and_agrees_with_the_meta_device(
    tmp_path, width, dtype, per_slot_bytes
):
    root = _tree(tmp_path, width, dtype)
    result = audit([root / "hs"], _settings(["host_to_device_ratio"]))
    (evaluation,) = [e for e in result.evaluations if e.host is not None]
    assert evaluation.varied == ["host_to_device_ratio"]
    with imported(root):
        from hs.device import SparseIndexPool

        for point in evaluation.feasible:
            ratio = point.values["host_to_device_ratio"]
            index_k = point.device["index_k_buffer"]
            assert index_k.per_slot == "host_to_device_ratio"
            assert index_k.bytes_per_token_per_layer == per_slot_bytes
            assert "held per slot" in index_k.arithmetic
            kv = point.device["kv_buffer"]
            assert kv.per_slot is None and kv.bytes_per_token_per_layer == 576 * 2
            # the oracle: the real pool, on the meta device, per slot and layer
            real = SparseIndexPool(1024 * 64, 3, host_to_device_ratio=ratio, device="meta")
            pages = (1024 * 64 * ratio + 64 + 1) // 64
            per_layer = real.index_k_buffer[0].nbytes
            assert per_layer == pages * 64 * per_slot_bytes
            assert real.index_k_buffer[0].dtype == getattr(torch, dtype.split(".")[1])
    findings = [f for f in result.findings if f.code == "LA001"]
    if per_slot_bytes == 132:
        assert findings == []
    else:  # bf16 index-K on the device, the fp8 layout on the host: the incident, per slot
        assert findings and all(
            "132 B/token/layer vs 256 B/token/layer" in f.message for f in findings
        )


def test_without_the_setting_a_slot_buffer_is_per_device_token(tmp_path):
    """What `slot-ratio` is for: measured per device token, an agreeing host looks too small."""
    root = _tree(tmp_path, "(128 + 128 // 128 * 4)", "torch.uint8")
    result = audit([root / "hs"], _settings([]))
    (evaluation,) = [e for e in result.evaluations if e.host is not None]
    by_ratio = {
        p.values["host_to_device_ratio"]: p.device["index_k_buffer"] for p in evaluation.feasible
    }
    assert {r: f.bytes_per_token_per_layer for r, f in by_ratio.items()} == {2: 264, 3: 396}
    assert all(f.per_slot is None for f in by_ratio.values())
    assert [f.code for f in result.findings if f.code == "LA001"]


def test_a_device_built_at_twice_the_ratio_only_when_it_takes_the_parameter(tmp_path):
    index = build_index(tmp_path, _files("128", "torch.bfloat16"))
    device = find_class(index, "SparseIndexPool")
    host = find_class(index, "SparseIndexHost")
    assert slot_ratio(device, {"host_to_device_ratio": 2}, ["host_to_device_ratio"]) == (
        "host_to_device_ratio",
        2,
    )
    # a class not taking it; a float sizes nothing in whole slots; a bool is not a count
    assert slot_ratio(host, {"page_size": 2}, ["page_size"]) is None
    for value in (2.0, True, 0):
        assert slot_ratio(device, {"host_to_device_ratio": value}, ["host_to_device_ratio"]) is None
    evaluator = PoolEvaluator(index, _settings(["host_to_device_ratio"]))
    point, _ = evaluator.run_point(device, None, {"host_to_device_ratio": 2, "page_size": 64})
    assert point.device["index_k_buffer"].bytes_per_token_per_layer == 256


def _figure(per_layer: int, per_token: int = 0) -> BufferFigure:
    return BufferFigure(
        "b", Location("p.py", 1), bytes_per_token_per_layer=per_layer, bytes_per_token=per_token
    )


@pytest.mark.parametrize(
    ("at_ratio", "at_twice", "expected"),
    [
        (_figure(264), _figure(528), 132),  # doubles: per slot
        (_figure(264, 8), _figure(528, 16), 132),  # both parts double
        (_figure(264, 8), _figure(528, 8), 264),  # a part that does not double: per token
        (_figure(264), _figure(264), 264),  # does not scale: per token
        (_figure(264), _figure(792), 264),  # scales otherwise: per token
        (_figure(0), _figure(0), 0),  # nothing held
        (_figure(265), _figure(530), 265),  # not a whole number of bytes per slot
    ],
)
def test_per_slot_only_for_buffers_that_double(at_ratio, at_twice, expected):
    (figure,) = per_slot({"b": at_ratio}, {"b": at_twice}, "r", 2).values()
    assert figure.bytes_per_token_per_layer == expected
    assert (figure.per_slot == "r") == (expected != at_ratio.bytes_per_token_per_layer)


def test_a_buffer_missing_or_unresolved_at_twice_the_ratio_keeps_its_figure():
    from auditor.interpret.values import Unknown

    unresolved = BufferFigure("b", Location("p.py", 1), unknown=Unknown("x", None))
    assert per_slot({"b": _figure(264)}, {}, "r", 2)["b"].bytes_per_token_per_layer == 264
    assert per_slot({"b": _figure(264)}, {"b": unresolved}, "r", 2)["b"].per_slot is None


def test_slot_ratio_setting_is_a_list_of_names():
    settings_ = Settings()
    apply_pack(settings_, {"parameters": {"slot-ratio": ["ratio"]}}, "pack.toml")
    assert settings_.slot_ratio_params == ["ratio"]
    with pytest.raises(ConfigError, match="parameters.slot-ratio"):
        apply_pack(Settings(), {"parameters": {"slot-ratio": "ratio"}}, "pack.toml")


def test_the_table_and_the_figure_say_per_slot(tmp_path):
    import io

    from auditor.report import table

    root = _tree(tmp_path, "128", "torch.bfloat16")
    settings_ = _settings(["host_to_device_ratio"])
    result = audit([root / "hs"], settings_)
    out = io.StringIO()
    table.render_text(table.build(result, settings_), out)
    assert "132 != 256/slot *" in out.getvalue()
    (evaluation,) = [e for e in result.evaluations if e.host is not None]
    figure = evaluation.feasible[0].device["index_k_buffer"]
    assert figure.size_text() == "256 B/slot/layer"
    assert evaluation.feasible[0].device["kv_buffer"].size_text() == "1152 B/token/layer"


def test_a_pool_refusing_twice_the_ratio_keeps_its_per_token_figures(tmp_path):
    """The second build is a probe: when the pool refuses twice the ratio, the point stands,
    measured per device token (nothing says which buffers are per slot)."""
    files = _files("(128 + 128 // 128 * 4)", "torch.uint8")
    files["hs/device.py"] = files["hs/device.py"].replace(
        "            self.size = size\n",
        "            if host_to_device_ratio > 3:\n"
        '                raise ValueError("at most 3 host slots per device token")\n'
        "            self.size = size\n",
    )
    write_tree(tmp_path, files)
    result = audit([tmp_path / "hs"], _settings(["host_to_device_ratio"]))
    (evaluation,) = [e for e in result.evaluations if e.host is not None]
    figures = {
        p.values["host_to_device_ratio"]: p.device["index_k_buffer"] for p in evaluation.feasible
    }
    assert {r: f.bytes_per_token_per_layer for r, f in figures.items()} == {2: 264, 3: 396}
    assert all(f.per_slot is None for f in figures.values())
