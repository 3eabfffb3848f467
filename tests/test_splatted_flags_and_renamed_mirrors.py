"""Session 38's mends from probe44, each for a class of code, checked against the real tensors
built on torch's meta device:

- two pools built beside each other from one config through `**helper(cfg, ...)` (which
  parameter each argument binds is hidden): anything the call is given may size its pool, so
  the function is run as it builds both;
- a host reading its device's buffers off an untyped parameter (`gpu.key_cache[0].shape`) and
  keeping its own under other names (`k_host` for `key_cache`) is a host, where the names say
  one for one what each holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (
    audit_json,
    built_by_the_tree,
    finding_figures,
    one_pair_verdict,
    write_tree,
)

POOLS = {
    "pc/__init__.py": "",
    "pc/config.py": """
from dataclasses import dataclass


@dataclass(frozen=True)
class CacheConfig:
    num_layers: int = 4
    num_kv_heads: int = 8
    head_dim: int = 128
    block_size: int = 16
    num_gpu_blocks: int = 64
    num_cpu_blocks: int = 256
    dtype: str = "bfloat16"
    fp8_kv_cache: bool = FLAG
    fp8_dtype: str = "float8_e4m3fn"
    device: str = "cuda"
    cpu_device: str = "cpu"
""",
    "pc/paged.py": """
import torch


class PagedPool:
    def __init__(self, num_blocks, block_size, num_layers, num_kv_heads, head_dim, dtype, device):
        self.block_size = block_size
        shape = (num_layers, num_blocks, block_size, num_kv_heads, head_dim)
        self.key_blocks = torch.empty(shape, dtype=getattr(torch, dtype), device=device)
        self.value_blocks = torch.empty(shape, dtype=getattr(torch, dtype), device=device)


class HostPagedPool:
    def __init__(self, num_blocks, block_size, num_layers, num_kv_heads, head_dim, dtype, device):
        self.block_size = block_size
        shape = (num_blocks, block_size, num_kv_heads, head_dim)
        self.k_layers = [
            torch.empty(shape, dtype=getattr(torch, dtype), device=device)
            for _ in range(num_layers)
        ]
        self.v_layers = [
            torch.empty(shape, dtype=getattr(torch, dtype), device=device)
            for _ in range(num_layers)
        ]
""",
    "pc/builder.py": """
from dataclasses import replace

from .config import CacheConfig
from .paged import HostPagedPool, PagedPool


def _kwargs(cfg, num_blocks, device):
    return dict(
        num_blocks=num_blocks,
        block_size=cfg.block_size,
        num_layers=cfg.num_layers,
        num_kv_heads=cfg.num_kv_heads,
        head_dim=cfg.head_dim,
        dtype=cfg.dtype,
        device=device,
    )


def build(cfg=None, device=None):
    cfg = cfg or CacheConfig()
    gpu_cfg = replace(cfg, dtype=cfg.fp8_dtype) if cfg.fp8_kv_cache else cfg
    gpu = PagedPool(**_kwargs(gpu_cfg, cfg.num_gpu_blocks, device or cfg.device))
    cpu = HostPagedPool(**_kwargs(HOST_CFG, cfg.num_cpu_blocks, device or cfg.cpu_device))
    return gpu, cpu
""",
}


@pytest.mark.parametrize(
    "flag, host_cfg, bug",
    [
        ("True", "cfg", True),  # probe44/r04: the fp8 override given to the device only
        ("True", "gpu_cfg", False),
    ],
)
def test_pools_built_from_a_splatted_helper_and_a_flag(
    tmp_path, capsys, monkeypatch, flag, host_cfg, bug
):
    files = dict(POOLS)
    files["pc/config.py"] = files["pc/config.py"].replace("FLAG", flag)
    files["pc/builder.py"] = files["pc/builder.py"].replace("HOST_CFG", host_cfg)
    write_tree(tmp_path, files)
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == (
        {("LA001", "k_layers"), ("LA001", "v_layers")} if bug else set()
    )
    gpu, cpu = built_by_the_tree(tmp_path, monkeypatch, "pc", "builder", "build", device="meta")
    real = (
        cpu.k_layers[0].nbytes // (256 * 16),
        gpu.key_blocks.nbytes // (4 * 64 * 16),
    )
    assert (real[0] != real[1]) is bug
    if bug:  # (the audit's figures are at its sampled head counts: the same ratio)
        host, device = finding_figures(report)["k_layers"]
        assert host * real[1] == device * real[0]


MIRROR = {
    "ls/__init__.py": "",
    "ls/store.py": """
import torch


class GpuStore:
    def __init__(self, max_tokens, page_size, heads, head_dim, num_layers, kv_dtype, device):
        self.page_size = page_size
        self.num_slots = max_tokens + page_size
        shape = (self.num_slots, heads, head_dim)
        self.key_cache = []
        self.value_cache = []
        for _ in range(num_layers):
            self.key_cache.append(torch.empty(shape, dtype=getattr(torch, kv_dtype), device=device))
            self.value_cache.append(torch.empty(shape, dtype=getattr(torch, kv_dtype), device=device))
""",
    "ls/mirror.py": """
import torch


class HostMirror:
    def __init__(self, gpu_store, ratio, device="cpu"):
        ref = gpu_store.key_cache[0]
        _, heads, head_dim = ref.shape
        self.num_slots = int(gpu_store.num_slots * ratio)
        layers = len(gpu_store.key_cache)
        shape = (layers, self.num_slots, heads, head_dim)
        self.k_host = torch.empty(shape, dtype=HOST_DTYPE, device=device)
        self.v_host = torch.empty(shape, dtype=ref.dtype, device=device)
""",
    "ls/engine.py": """
from .mirror import HostMirror
from .store import GpuStore


def build(device="cuda"):
    gpu = GpuStore(1024, 16, 8, 128, 4, "bfloat16", device)
    return gpu, HostMirror(gpu, 2.0, device=device)
""",
}


@pytest.mark.parametrize("bug", [True, False])
def test_a_mirror_of_an_untyped_device_under_other_names(tmp_path, capsys, monkeypatch, bug):
    """probe44/r01's idiom: `HostMirror(gpu_store, ratio)` reads `gpu_store.key_cache[0]`
    and keeps `k_host`, `v_host`; it had been neither host nor pool (nothing compared)."""
    files = dict(MIRROR)
    files["ls/mirror.py"] = files["ls/mirror.py"].replace(
        "HOST_DTYPE", "torch.float32" if bug else "ref.dtype"
    )
    write_tree(tmp_path, files)
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "k_host")} if bug else set())
    gpu, host = built_by_the_tree(tmp_path, monkeypatch, "ls", "engine", "build", device="meta")
    real = (
        host.k_host.nbytes // (4 * host.num_slots),
        gpu.key_cache[0].nbytes // gpu.num_slots,
    )
    assert (real[0] != real[1]) is bug
    if bug:
        assert finding_figures(report)["k_host"] == real


def test_a_mirror_whose_names_pair_with_no_device_is_no_host(tmp_path, capsys):
    """The same class keeping `k_host` and a third buffer `stats` (no one-for-one pairing
    with `key_cache`, `value_cache`): not taken as a host, nothing compared by a guess."""
    files = dict(MIRROR)
    files["ls/mirror.py"] = (
        files["ls/mirror.py"]
        .replace("HOST_DTYPE", "ref.dtype")
        .replace("self.v_host", "self.stats")
    )
    write_tree(tmp_path, files)
    report = audit_json(tmp_path, capsys)
    assert report["summary"]["pairs"] == 0 and report["findings"] == []


REVIEWED = Path(__file__).parent / "data" / "review38b"


@pytest.mark.parametrize(
    "case, pairs, findings",
    [
        # a target and a draft pool built from two configs through one `**_kv_kwargs(...)`
        # helper, sharing only `device`: not mirrors (the first version paired them)
        ("c1_kwargs_device_root", 0, set()),
        ("c1c_method_self_helper", 0, set()),  # the same through a method's helper
        ("c1e_kv_mamba", 0, set()),  # a KV pool and a Mamba state pool
        # a target and a draft pool given their layer counts as `cfg.num_layers` and
        # `cfg.draft_layers`: two models' caches (a false LA001 older than this session)
        ("c1b_explicit_same_cfg", 0, set()),
        # a flag a config's `__post_init__` recomputes: its class default is not its value
        ("c2c_bool_post_init", 1, set()),
        # a flag whose default is False, the device fp8 where it is on: a real bug, reported
        ("c2_bool_default_false", 1, {("LA001", "k_buffer"), ("LA001", "v_buffer")}),
        # a pool's own helper built with `pool=self`, reading the pool's buffers
        ("c3d_pool_helper_kw_self", 0, set()),
        # a send buffer regrouping heads across ranks, and a draft with heads of its own,
        # reading a device's buffers off an untyped parameter: no mirrors of it
        ("c3b_tp_gather_send_buffer", 0, set()),
        ("c3_draft_reads_target", 0, set()),
    ],
)
def test_what_a_review_built_against_these_mends(case, pairs, findings, capsys):
    report = audit_json(REVIEWED / case, capsys)
    assert report["summary"]["pairs"] == pairs
    assert {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]} == findings
