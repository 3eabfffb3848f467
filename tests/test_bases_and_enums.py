"""Pools allocating through a base class's method, with an enum for their precision.

- a base with no constructor (a mixin) allocating with the layer axis first, through a method
  taking the other dimensions as `*dims`: the pools deriving from it are pools, what they pass
  is their buffers' shape (behaviour.allocating_base, the pre-filter keeps its file);
- a precision parameter annotated with an enum of the tree (`precision: Precision`, its
  `torch_dtype` a property): explored at each member, never read as a config object;
- a pool taking its layer count as a parameter and its token count off a config object
  (`spec.capacity`);
- two pools built side by side, one given an object built in the call from a local the other
  is given too (`HostSpec(capacity=n, precision=precision)` beside `precision=precision`):
  built as the function builds both, not from the object's class defaults.

- a base whose constructor builds with hooks its subclasses give (`_geometry`), its layers a
  pipeline stage's (`self.layers = self._layers(model, place)`, a method returning
  `range(*pp_span(model.num_hidden_layers, place.pp_rank, place.pp_size))`, and `self.n_layers
  = len(self.layers)` leading the shape): the subclasses are pools counted by the model's
  layers, one stage holding every layer, each build divided by the count it keeps.

Each tree is audited with no configuration; the buggy and fixed forms are checked against
their own tensors on torch's meta device.
"""

from __future__ import annotations

import re

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree


def _per_token_layer(tensor, tokens: int, layers: int) -> int:
    return tensor.nbytes // (tokens * layers)


SLAB_TREE = {
    "slabkv/__init__.py": "",
    "slabkv/alloc.py": """
        import torch


        class _SlabAlloc:
            # buffers with the layer axis first, for the slab pools

            def _layered(self, *dims, dtype, device):
                return torch.empty((self.num_layers, *dims), dtype=dtype, device=device)

            def _scales(self, device):
                groups = self.head_dim // self.group
                self.k_scale = self._layered(self.capacity, self.kv_heads, groups, dtype=torch.float32, device=device)
    """,
    "slabkv/gpu.py": """
        from slabkv.alloc import _SlabAlloc
        from slabkv.precision import Precision


        class GpuSlab(_SlabAlloc):
            def __init__(self, num_layers, capacity, kv_heads, head_dim, precision: Precision, group: int, device="cuda"):
                self.num_layers = num_layers
                self.capacity = capacity
                self.kv_heads = kv_heads
                self.head_dim = head_dim
                self.group = group
                self.k = self._layered(capacity, kv_heads, head_dim, dtype=precision.torch_dtype, device=device)
                if precision.has_scales:
                    self._scales(device)
    """,
    "slabkv/host.py": """
        from dataclasses import dataclass

        from slabkv.alloc import _SlabAlloc
        from slabkv.precision import Precision


        @dataclass
        class HostSpec:
            capacity: int
            precision: Precision = Precision.BF16
            group: int = 64


        class HostSlab(_SlabAlloc):
            def __init__(self, spec: HostSpec, num_layers: int, kv_heads: int, head_dim: int, device="cpu"):
                self.num_layers = num_layers
                self.capacity = spec.capacity
                self.kv_heads = kv_heads
                self.head_dim = head_dim
                self.group = spec.group
                self.k = self._layered(self.capacity, kv_heads, head_dim, dtype=spec.precision.torch_dtype, device=device)
                if spec.precision.has_scales:
                    self._scales(device)
    """,
    "slabkv/make.py": """
        from slabkv.gpu import GpuSlab
        from slabkv.host import HostSlab, HostSpec
        from slabkv.precision import Precision


        def make(device="cuda", capacity=4096, host_capacity=8192):
            precision = Precision("fp8")
            layers, heads, dim = 8, 4, 256
            gpu = GpuSlab(layers, capacity, heads, dim, precision=precision, group=128, device=device)
            host = HostSlab(HostSpec(capacity=host_capacity, precision=precision HOST_GROUP), layers, heads, dim, device=device)
            return gpu, host
    """,
    "slabkv/precision.py": """
        import enum

        import torch


        class Precision(enum.Enum):
            BF16 = "bf16"
            FP8 = "fp8"

            @property
            def torch_dtype(self):
                return {Precision.BF16: torch.bfloat16, Precision.FP8: torch.float8_e4m3fn}[self]

            @property
            def has_scales(self):
                return self is Precision.FP8
    """,
}


@pytest.mark.parametrize("host_group, bug", [(", group=128", False), ("", True)])
def test_a_mixin_allocating_for_pools_with_an_enum_precision(
    tmp_path, capsys, monkeypatch, host_group, bug
):
    tree = dict(SLAB_TREE)
    tree["slabkv/make.py"] = tree["slabkv/make.py"].replace(" HOST_GROUP", host_group)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    gpu, host = built_by_the_tree(tmp_path, monkeypatch, "slabkv", "make", "make", device="meta")
    figures = {
        name: (
            _per_token_layer(getattr(host, name), host.capacity, host.num_layers),
            _per_token_layer(getattr(gpu, name), gpu.capacity, gpu.num_layers),
        )
        for name in ("k", "k_scale")
    }
    assert figures["k"] == (1024, 1024)  # fp8, on both sides
    assert figures["k_scale"] == ((64 if bug else 32), 32)
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    assert {f["code"] for f in report["findings"]} == {"LA001"}
    (finding,) = report["findings"]
    assert finding["message"].startswith("k_scale:")
    numbers = re.findall(r"(\d+) B/token/layer vs (\d+) B/token/layer", finding["message"])
    assert tuple(int(n) for n in numbers[0]) == figures["k_scale"]


STAGE_TREE = {
    "ppstage/__init__.py": "",
    "ppstage/base.py": """
        import torch


        class StagePoolBase:
            def __init__(self, model, place, n_blocks, device):
                self.block_size = place.block_size
                self.n_blocks = n_blocks
                self.layers = self._layers(model, place)
                self.n_layers = len(self.layers)
                self.kv = torch.empty(self._shape(model, place), dtype=model.dtype, device=device)

            def _layers(self, model, place):
                from ppstage.config import pp_span

                return range(*pp_span(model.num_hidden_layers, place.pp_rank, place.pp_size))

            def _geometry(self, model, place):
                raise NotImplementedError

            def _shape(self, model, place):
                heads, dim = self._geometry(model, place)
                return (self.n_layers, self.n_blocks, self.block_size, 2, heads, dim)
    """,
    "ppstage/config.py": """
        from dataclasses import dataclass

        import torch


        @dataclass
        class ModelShape:
            num_hidden_layers: int = 24
            hidden_size: int = 3072
            num_attention_heads: int = 32
            num_key_value_heads: int = 8
            head_dim: int = 128
            dtype: torch.dtype = torch.bfloat16


        @dataclass
        class Placement:
            tp_size: int = 2
            pp_size: int = 2
            pp_rank: int = 0
            block_size: int = 16
            decode_blocks: int = 2048
            prefill_blocks: int = 512


        def pp_span(n_layers, rank, size):
            per = n_layers // size
            return rank * per, (rank + 1) * per
    """,
    "ppstage/connect.py": """
        from ppstage.config import ModelShape, Placement
        from ppstage.pools import DecodeStage, PrefillStage


        def connect(device="cuda"):
            model = ModelShape()
            place = Placement()
            decode = DecodeStage(model, place, place.decode_blocks, device)
            prefill = PrefillStage(model, place, place.prefill_blocks, device)
            return decode, prefill
    """,
    "ppstage/pools.py": """
        from ppstage.base import StagePoolBase


        class DecodeStage(StagePoolBase):
            def _geometry(self, model, place):
                return model.num_key_value_heads // place.tp_size, model.head_dim


        class PrefillStage(StagePoolBase):
            def _geometry(self, model, place):
                return model.num_key_value_heads // place.tp_size, PREFILL_DIM
    """,
}


@pytest.mark.parametrize(
    "prefill_dim, bug",
    [("model.head_dim", False), ("model.hidden_size // model.num_attention_heads", True)],
)
def test_subclasses_completing_a_base_over_a_pipeline_stage(
    tmp_path, capsys, monkeypatch, prefill_dim, bug
):
    tree = dict(STAGE_TREE)
    tree["ppstage/pools.py"] = tree["ppstage/pools.py"].replace("PREFILL_DIM", prefill_dim)
    write_tree(tmp_path, tree)
    report = audit_json(tmp_path, capsys)
    decode, prefill = built_by_the_tree(
        tmp_path, monkeypatch, "ppstage", "connect", "connect", device="meta"
    )
    figures = [
        _per_token_layer(pool.kv, pool.n_blocks * pool.block_size, pool.n_layers)
        for pool in (prefill, decode)
    ]
    assert figures == [(1536 if bug else 2048), 2048]
    if not bug:
        assert one_pair_verdict(report) == set()
        return
    (finding,) = report["findings"]
    assert finding["code"] == "LA001" and finding["message"].startswith("kv:")
    numbers = re.findall(r"(\d+) B/token/layer vs (\d+) B/token/layer", finding["message"])
    assert [int(n) for n in numbers[0]] == figures
