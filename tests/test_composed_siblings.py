"""Two pools one function builds from its parameter by different paths (pairing/composed.py):
the sending side from a geometry record the function derives (`geo = derive_geometry(cfg)`,
`SenderCache(geo)`), the receiving side from the settings themselves (`ReceiverCache(cfg)`).
Neither call passes what the other does; both are evaluated by running the function, from one
stand-in for `cfg`, audited with no configuration and checked against the tree's own tensors
on torch's meta device."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

GEOMETRY = """
    from dataclasses import dataclass

    import torch

    WIDTHS = {"bf16": torch.bfloat16, "fp16": torch.float16, "f32": torch.float32}


    @dataclass(frozen=True)
    class Geometry:
        n_layers: int
        n_pages: int
        page_tokens: int
        kv_heads: int
        key_width: int
        value_width: int
        dtype: torch.dtype


    def derive_geometry(cfg) -> Geometry:
        arch = cfg.arch
        return Geometry(
            n_layers=arch.depth,
            n_pages=cfg.sender.pages,
            page_tokens=cfg.sender.page_tokens,
            kv_heads=arch.kv_heads // cfg.shards,
            key_width=arch.nope + arch.rope,
            value_width=arch.v_width,
            dtype=WIDTHS[arch.precision],
        )
"""

SENDER = """
    import torch

    from .geometry import Geometry


    class SenderCache:
        def __init__(self, geo: Geometry, device):
            self.geo = geo
            shape_k = (geo.n_pages, geo.page_tokens, geo.kv_heads, geo.key_width)
            shape_v = (geo.n_pages, geo.page_tokens, geo.kv_heads, geo.value_width)
            self.keys = [torch.empty(shape_k, dtype=geo.dtype, device=device) for _ in range(geo.n_layers)]
            self.vals = [torch.empty(shape_v, dtype=geo.dtype, device=device) for _ in range(geo.n_layers)]
"""

RECEIVER = """
    import torch

    from .geometry import WIDTHS


    class ReceiverCache:
        def __init__(self, cfg, device=None):
            arch = cfg.arch
            self.n_layers = arch.depth
            self.n_pages = cfg.receiver.pages
            self.page_tokens = cfg.receiver.page_tokens
            heads = arch.kv_heads // cfg.shards
            key_width = arch.nope + arch.rope
            value_width = VALUE_WIDTH
            dtype = WIDTHS[arch.precision]
            self.keys = [torch.empty((self.n_pages, self.page_tokens, heads, key_width),
                                     dtype=dtype, device=device) for _ in range(self.n_layers)]
            self.vals = [torch.empty((self.n_pages, self.page_tokens, heads, value_width),
                                     dtype=dtype, device=device) for _ in range(self.n_layers)]
"""

LINK = """
    from .geometry import derive_geometry
    from .receiver import ReceiverCache
    from .sender import SenderCache


    def open_link(cfg, device="cuda"):
        geo = derive_geometry(cfg)
        sender = SenderCache(geo, device)
        receiver = ReceiverCache(cfg, device=device)
        return sender, receiver
"""


def _settings() -> SimpleNamespace:
    arch = SimpleNamespace(depth=3, kv_heads=16, nope=128, rope=64, v_width=128, precision="bf16")
    return SimpleNamespace(
        arch=arch,
        shards=2,
        sender=SimpleNamespace(pages=64, page_tokens=16),
        receiver=SimpleNamespace(pages=32, page_tokens=16),
    )


def _per_token(pool, tensors) -> int:
    return tensors[0].nbytes // (tensors[0].shape[0] * tensors[0].shape[1])


@pytest.mark.parametrize(
    "value_width, bug",
    [("arch.v_width", False), ("arch.nope + arch.rope", True)],  # V as wide as K
)
def test_pools_built_from_one_parameter_by_other_paths_are_compared(
    tmp_path, capsys, monkeypatch, value_width, bug
):
    write_tree(
        tmp_path,
        {
            "handoff/__init__.py": "",
            "handoff/geometry.py": GEOMETRY,
            "handoff/sender.py": SENDER,
            "handoff/receiver.py": RECEIVER.replace("VALUE_WIDTH", value_width),
            "handoff/link.py": LINK,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "vals")} if bug else set())
    assert report["exit"] == (1 if bug else 0)
    # the oracle: the tree's own function at real settings, on the meta device
    sender, receiver = built_by_the_tree(
        tmp_path, monkeypatch, "handoff", "link", "open_link", cfg=_settings(), device="meta"
    )
    assert _per_token(sender, sender.keys) == _per_token(receiver, receiver.keys)
    assert (_per_token(sender, sender.vals) != _per_token(receiver, receiver.vals)) is bug
    if bug:
        message = report["findings"][0]["message"]
        assert "built beside" in message or "SenderCache" in message
        assert "open_link" in report["findings"][0]["pairing_evidence"]["site"]["function"]


def test_pools_from_unrelated_parameters_are_not_paired(tmp_path, capsys):
    """Each pool from its own parameter: nothing says they hold the same layout."""
    link = LINK.replace("def open_link(cfg, device", "def open_link(cfg, other, device").replace(
        "ReceiverCache(cfg,", "ReceiverCache(other,"
    )
    write_tree(
        tmp_path,
        {
            "handoff/__init__.py": "",
            "handoff/geometry.py": GEOMETRY,
            "handoff/sender.py": SENDER,
            "handoff/receiver.py": RECEIVER.replace("VALUE_WIDTH", "arch.nope"),
            "handoff/link.py": link,
        },
    )
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["pairs"] == 0
    assert report["findings"] == []


STORE_CONFIG = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class StoreConfig:
        page_size: int
        num_gpu_pages: int
        num_cpu_pages: int


    @dataclass
    class ModelShape:
        n_layers: int
        kv_heads: int
        head_dim: int
        dtype: torch.dtype = torch.bfloat16
"""

GPU_STORE = """
    import torch

    from .config import ModelShape, StoreConfig


    class GpuStore:
        def __init__(self, cfg: StoreConfig, model: ModelShape, device="cuda"):
            self.cfg, self.model = cfg, model
            self.n_layers = model.n_layers
            self.dtype = model.dtype
            self.blocks = self.make_blocks(device)

        def make_blocks(self, device):
            page = (self.cfg.page_size, self.model.kv_heads, self.model.head_dim)
            out = []
            for _ in range(self.n_layers):
                pair = [torch.empty((self.cfg.num_gpu_pages,) + page, dtype=self.dtype,
                                    device=device) for _ in range(2)]
                out.append(tuple(pair))
            return out
"""

HOST_STORE = """
    import torch

    from .config import ModelShape, StoreConfig


    class HostStore:
        def __init__(self, cfg: StoreConfig, model: ModelShape, dtype, device="cpu"):
            self.cfg, self.model, self.dtype = cfg, model, dtype
            self.pin = device == "cpu"
            self.blocks = self.make_blocks(device)

        def make_blocks(self, device):
            page = (self.cfg.page_size, self.model.kv_heads, HEAD)
            out = []
            for _ in range(self.model.n_layers):
                pair = [torch.empty((self.cfg.num_cpu_pages,) + page, dtype=self.dtype,
                                    device=device) for _ in range(2)]
                out.append(tuple(pair))
            return out
"""

BOOT = """
    from .gpu import GpuStore
    from .host import HostStore


    def build(cfg, model, device="cuda", host_device="cpu"):
        gpu = GpuStore(cfg, model, device=device)
        host = HostStore(cfg, model, gpu.dtype, device=host_device)
        return gpu, host
"""


def _audit_store(tmp_path, capsys, head: str, builder: dict[str, str]) -> dict:
    """The store tree, its host's K/V head width `head`, built by `builder`'s module."""
    files = {
        "store/__init__.py": "",
        "store/config.py": STORE_CONFIG,
        "store/gpu.py": GPU_STORE,
        "store/host.py": HOST_STORE.replace("HEAD", head),
    }
    write_tree(tmp_path, {**files, **builder})
    return audit_json(tmp_path, capsys)


def _configs(tmp_path, monkeypatch) -> tuple:
    """The tree's own ModelShape and StoreConfig at the values the oracles divide by: 64
    device pages and 32 host pages of 16 tokens."""
    model = built_by_the_tree(
        tmp_path,
        monkeypatch,
        "store",
        "config",
        "ModelShape",
        n_layers=2,
        kv_heads=8,
        head_dim=128,
    )
    store = built_by_the_tree(
        tmp_path,
        monkeypatch,
        "store",
        "config",
        "StoreConfig",
        page_size=16,
        num_gpu_pages=64,
        num_cpu_pages=32,
    )
    return model, store


@pytest.mark.parametrize(
    "head, bug", [("self.model.head_dim", False), ("self.model.head_dim // 2", True)]
)
def test_a_pool_allocating_in_its_own_method_and_a_host_given_the_device_dtype(
    tmp_path, capsys, monkeypatch, head, bug
):
    """Both pools allocate in a method of their own that returns the per-layer tuples it
    built (`self.blocks = self.make_blocks(device)`), each block shaped by joining tuples
    (`(n,) + page`); the host's dtype is read off the device (`gpu.dtype`), which the device
    took from an object, not from a parameter of that name: only running `build` gives it (a
    sampled dtype would disagree with the device's at most points). `device`/`host_device`
    differ by design: where buffers live is no part of their layout."""
    report = _audit_store(tmp_path, capsys, head, {"store/boot.py": BOOT})
    assert one_pair_verdict(report) == ({("LA001", "blocks")} if bug else set())
    config, store = _configs(tmp_path, monkeypatch)
    gpu, host = built_by_the_tree(
        tmp_path,
        monkeypatch,
        "store",
        "boot",
        "build",
        cfg=store,
        model=config,
        device="meta",
        host_device="meta",
    )
    device_row = gpu.blocks[0][1].nbytes // (64 * 16)
    host_row = host.blocks[0][1].nbytes // (32 * 16)
    assert (device_row != host_row) is bug


ENGINE = """
    from .gpu import GpuStore
    from .host import HostStore


    class Engine:
        def __init__(self, store_config, model_shape):
            self.store_config = store_config
            self.model_shape = model_shape
            self.gpu = None
            self.host = None

        def build_stores(self, device="cuda", host_device="cpu"):
            self.gpu = GpuStore(self.store_config, self.model_shape, device=device)
            self.host = HostStore(self.store_config, self.model_shape, self.gpu.dtype,
                                  device=host_device)
            return self.gpu, self.host
"""


@pytest.mark.parametrize(
    "head, bug", [("self.model.head_dim", False), ("self.model.head_dim // 2", True)]
)
def test_pools_built_by_a_method_from_what_init_keeps(tmp_path, capsys, monkeypatch, head, bug):
    """The same pools built by an engine's method from what its `__init__` keeps
    (`self.store_config`): the method is run on an object `__init__` builds from stand-ins,
    the host given the device's `self.gpu.dtype`."""
    report = _audit_store(tmp_path, capsys, head, {"store/engine.py": ENGINE})
    assert one_pair_verdict(report) == ({("LA001", "blocks")} if bug else set())
    evidence = report["findings"][0]["pairing_evidence"] if bug else None
    if bug:
        assert evidence["site"]["function"].endswith("Engine.build_stores")
    model, store = _configs(tmp_path, monkeypatch)
    engine = built_by_the_tree(
        tmp_path, monkeypatch, "store", "engine", "Engine", store_config=store, model_shape=model
    )
    gpu, host = engine.build_stores(device="meta", host_device="meta")
    assert (gpu.blocks[0][1].nbytes // (64 * 16) != host.blocks[0][1].nbytes // (32 * 16)) is bug


def _never_compared(report: dict) -> dict:
    """The one pair of a report that was never compared, as its coverage lists it."""
    summary = report["summary"]
    assert summary["pairs"] == 1 and summary["pairs_compared"] == 0 and report["findings"] == []
    (pair,) = [p for p in report["coverage"] if not p["compared"]]
    return pair


def test_a_function_that_raises_before_the_device_is_built(tmp_path, capsys):
    """The run never reaches the device's call: the pair is listed as never compared, naming
    the device and what stopped the run, not passed as clean."""
    link = LINK.replace(
        "        sender = SenderCache",
        "        if geo.n_pages > 0:\n            raise ValueError('no sender here')\n"
        "        sender = SenderCache",
    )
    write_tree(
        tmp_path,
        {
            "handoff/__init__.py": "",
            "handoff/geometry.py": GEOMETRY,
            "handoff/sender.py": SENDER,
            "handoff/receiver.py": RECEIVER.replace("VALUE_WIDTH", "arch.nope"),  # a bug unseen
            "handoff/link.py": link,
        },
    )
    report = audit_json(tmp_path, capsys)
    pair = _never_compared(report)
    assert (pair["device"], pair["host"]) == ("SenderCache", "ReceiverCache")
    assert pair["detail"].startswith("the device SenderCache: open_link()")
    assert "ValueError('no sender here')" in pair["detail"]


def test_an_object_whose_init_raises_is_not_run(tmp_path, capsys):
    """A method run needs the object its `__init__` builds; an `__init__` that raises leaves
    the pair never compared, with the cause."""
    engine = ENGINE.replace(
        "self.store_config = store_config",
        "self.store_config = store_config\n            raise RuntimeError('needs a GPU')",
    )
    report = _audit_store(tmp_path, capsys, "self.model.head_dim // 2", {"store/engine.py": engine})
    pair = _never_compared(report)
    assert (pair["device"], pair["host"]) == ("GpuStore", "HostStore")
    assert "build_stores()" in pair["detail"] and "RuntimeError('needs a GPU')" in pair["detail"]
