"""Pools whose base names their storages at run time, built from a format enum the caller
names by value (session 41, probe47 r05).

Four idioms of one tree, each of which alone left it "0 device pools" or never compared:
- the pools have no `__init__` of their own; the base's calls a hook that allocates through a
  method of the base (`[self._empty(shape, dtype) for _ in range(self.depth)]`);
- the shape comes from a method returning tuples of different lengths, all led by the token
  count (a buffer's and its scales');
- both pools name their storages at run time (`setattr(self, name, ...)` over the base's
  `buffer_names`): they hold the same storages;
- the building function turns a text parameter nothing gives into an enum member
  (`KVFormat(kv_format)`): the enum's values are the values the code accepts, each tried.
Checked against the tensors the tree's own code builds on torch's meta device.
"""

from __future__ import annotations

import pytest
from helpers import audit_json, built_by_the_tree, finding_figures, write_tree


def _tree(host_scale_dtype: str) -> dict[str, str]:
    return {
        "ef/__init__.py": "",
        "ef/formats.py": """
            from enum import Enum

            import torch


            class Storage(str, Enum):
                HALF = "half"
                INT8 = "int8"

                @property
                def dtype(self):
                    return torch.int8 if self is Storage.INT8 else torch.float16

                @property
                def scaled(self):
                    return self is Storage.INT8
        """,
        "ef/base.py": """
            import torch


            class Slots:
                NAMES = ("keys", "values")

                def __init__(self, n_slots, depth, heads, width, dtype, scaled=False,
                             device="cuda"):
                    self.n_slots, self.depth, self.heads, self.width = n_slots, depth, heads, width
                    self.dtype, self.scaled, self.device = dtype, scaled, device
                    self._build()

                @property
                def buffer_names(self):
                    return self.NAMES + (("key_scales", "value_scales") if self.scaled else ())

                def _shape(self, name):
                    if name.endswith("_scales"):
                        return (self.n_slots, self.heads)
                    return (self.n_slots, self.heads, self.width)

                def _empty(self, shape, dtype=None):
                    return torch.empty(shape, dtype=dtype or self.dtype, device=self.device)

                def _build(self):
                    raise NotImplementedError
        """,
        "ef/gpu.py": """
            import torch

            from .base import Slots


            class GpuSlots(Slots):
                scale_dtype = torch.float32

                def _build(self):
                    for name in self.buffer_names:
                        kind = self.scale_dtype if name.endswith("_scales") else self.dtype
                        setattr(self, name,
                                [self._empty(self._shape(name), kind) for _ in range(self.depth)])
        """,
        "ef/cpu.py": f"""
            import torch

            from .base import Slots


            class CpuSlots(Slots):
                def _build(self):
                    for name in self.buffer_names:
                        kind = {host_scale_dtype} if name.endswith("_scales") else self.dtype
                        setattr(self, name,
                                [self._empty(self._shape(name), kind) for _ in range(self.depth)])
        """,
        "ef/setup.py": """
            from .cpu import CpuSlots
            from .formats import Storage
            from .gpu import GpuSlots


            def tiers(model, kv_format, gpu_slots, cpu_slots, device="cuda", host="cpu"):
                fmt = Storage(kv_format)
                dims = (model["layers"], model["kv_heads"], model["head_dim"])
                gpu = GpuSlots(gpu_slots, *dims, fmt.dtype, scaled=fmt.scaled, device=device)
                cpu = CpuSlots(cpu_slots, *dims, fmt.dtype, scaled=fmt.scaled, device=host)
                return gpu, cpu
        """,
    }


def _per_slot(pool, name: str) -> int:
    return getattr(pool, name)[0].nbytes // pool.n_slots


def _audited_and_built(root, capsys, monkeypatch):
    """The audit's report (one pair, compared), the pools the tree's own `tiers` builds on
    the meta device at int8, and the buffers whose bytes per slot differ between them."""
    report = audit_json(root, capsys)
    assert report["summary"]["pairs_compared"] == 1
    model = {"layers": 4, "kv_heads": 8, "head_dim": 128}
    gpu, cpu = built_by_the_tree(
        root,
        monkeypatch,
        "ef",
        "setup",
        "tiers",
        model=model,
        kv_format="int8",
        gpu_slots=64,
        cpu_slots=256,
        device="meta",
        host="meta",
    )
    drift = {n for n in cpu.buffer_names if _per_slot(cpu, n) != _per_slot(gpu, n)}
    return report, gpu, cpu, drift


@pytest.mark.parametrize("scale_dtype, drifted", [("self.dtype", True), ("torch.float32", False)])
def test_storages_named_at_run_are_compared_at_each_flag_value(
    tmp_path, capsys, monkeypatch, scale_dtype, drifted
):
    """Built from the same arguments: the flag the names depend on (`scaled`, tested in the
    property that returns them) is explored; each point of a finding is the real tensors'."""
    import torch

    root = write_tree(tmp_path, _tree(scale_dtype))
    report, gpu, cpu, drift = _audited_and_built(root, capsys, monkeypatch)
    assert bool(drift) == drifted
    assert set(finding_figures(report)) == drift
    gpu_cls, cpu_cls = type(gpu), type(cpu)
    for finding in report["findings"]:  # every point, built for real at its values
        name = finding["host"]["buffer"]
        dims = finding["model_dimensions"]
        assert "scaled=True" in finding["message"]
        for point in finding["points"]:
            dtype = getattr(torch, point["config"]["dtype"])
            args = (8, 2, dims["heads"], dims["width"], dtype)
            kwargs = {"scaled": point["config"]["scaled"], "device": "meta"}
            real_cpu = _per_slot(cpu_cls(*args, **kwargs), name)
            real_gpu = _per_slot(gpu_cls(*args, **kwargs), name)
            assert (point["host_bytes_per_token"], point["device_bytes_per_token"]) == (
                real_cpu,
                real_gpu,
            )


def _mirrored_tree(host_scale_dtype: str) -> dict[str, str]:
    """The host built off the device by a classmethod: the building function is run, and
    the text it turns into an enum member is what decides the flag."""
    files = _tree(host_scale_dtype)
    files["ef/cpu.py"] = files["ef/cpu.py"].replace(
        "    def _build(self):",
        """    @classmethod
                def mirror(cls, gpu, n_slots, device="cpu"):
                    return cls(n_slots, gpu.depth, gpu.heads, gpu.width, gpu.dtype,
                               scaled=gpu.scaled, device=device)

                def _build(self):""",
        1,
    )
    files["ef/setup.py"] = files["ef/setup.py"].replace(
        "cpu = CpuSlots(cpu_slots, *dims, fmt.dtype, scaled=fmt.scaled, device=host)",
        "cpu = CpuSlots.mirror(gpu, cpu_slots, device=host)",
    )
    return files


@pytest.mark.parametrize("scale_dtype, drifted", [("self.dtype", True), ("torch.float32", False)])
def test_an_enum_built_from_a_value_nothing_gives_tries_each_member(
    tmp_path, capsys, monkeypatch, scale_dtype, drifted
):
    """`Storage(kv_format)` with `kv_format` given by nobody: only the enum's values are
    tried (no number made up), so the scales are compared at `int8`, where the code turns
    them on, and the figures are those of the real tensors at that value."""
    root = write_tree(tmp_path, _mirrored_tree(scale_dtype))
    report, gpu, cpu, drift = _audited_and_built(root, capsys, monkeypatch)
    assert bool(drift) == drifted
    figures = finding_figures(report)
    assert set(figures) == drift
    for name in drift:  # the dtypes' ratio: the head count is the audit's own sample
        host, device = figures[name]
        assert host / device == _per_slot(cpu, name) / _per_slot(gpu, name)
    for finding in report["findings"]:
        assert "kv_format=int8" in finding["message"]
        assert "kv_format=half/int8: values the code demands" in finding["message"]
