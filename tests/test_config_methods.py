"""Counts, sizes and dtypes a pool reads through its config object's methods
(`model_config.get_num_layers(parallel_config)`, `cfg.get_head_size()`) are values of that
object as its attributes are: sampled under `<path>.<method>()`, the same for a host and its
device. A method given a literal (`cfg.get("num_layers")`) is not: which key it reads is not a
value of the object. And a host sized in blocks that keeps no block size of its own is counted
in the blocks it was built with (its parameter, or its device's when it reads it off it)."""

from __future__ import annotations

import ast
import json

from helpers import write_tree

from auditor.cli import main
from auditor.frontend.behaviour import method_read

CONFIG = """
    import torch

    class CacheConfig:
        def __init__(self, hf, dtype: torch.dtype):
            self.hf = hf
            self.dtype = dtype

        def get_num_layers(self) -> int:
            return self.hf.num_hidden_layers

        def get_kv_heads(self) -> int:
            return self.hf.num_key_value_heads

        def get(self, key: str) -> int:
            return getattr(self.hf, key)
"""

DEVICE = """
    import torch
    from kv.config import CacheConfig

    class GpuKV:
        def __init__(self, cfg: CacheConfig, num_tokens: int, head_dim: int = 128):
            n = cfg.get_num_layers()
            self.kv = [
                torch.empty((num_tokens, 2, cfg.get_kv_heads(), head_dim), dtype=cfg.dtype)
                for _ in range(n)
            ]
"""

HOST = """
    import torch
    from kv.config import CacheConfig
    from kv.gpu import GpuKV

    class CpuKV:
        def __init__(self, cfg: CacheConfig, gpu: GpuKV, host_tokens: int, head_dim: int = 128):
            self.kv = [
                torch.empty((host_tokens, 2, cfg.get_kv_heads(), head_dim), dtype=DTYPE)
                for _ in range(cfg.get_num_layers())
            ]
"""


def run(tmp_path, capsys, files: dict[str, str]) -> dict:
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/config.py": CONFIG, **files})
    code = main([str(tmp_path), "--no-cache", "--output-format", "json", "--isolated"])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def test_counts_read_through_config_methods_are_audited(tmp_path, capsys):
    """The layer count and a dimension come from methods: the pools are found, paired and
    compared, and a host whose dtype drifts is reported with both figures."""
    report = run(
        tmp_path,
        capsys,
        {"kv/gpu.py": DEVICE, "kv/cpu.py": HOST.replace("DTYPE", "torch.float16")},
    )
    summary = report["summary"]
    assert summary["device_pools"] == 1 and summary["host_pools"] == 1
    assert summary["pairs_compared"] == 1 and report["exit"] == 1
    [finding] = report["findings"]
    assert finding["code"] == "LA001"
    assert "cfg.get_kv_heads()" in finding["message"]
    # fp8 on the device: 1 B a value against the host's 2 (heads sampled, 128 wide, K and V)
    assert "float8_e4m3fn" in finding["message"]


def test_a_host_agreeing_through_config_methods_is_clean(tmp_path, capsys):
    report = run(
        tmp_path, capsys, {"kv/gpu.py": DEVICE, "kv/cpu.py": HOST.replace("DTYPE", "cfg.dtype")}
    )
    assert report["findings"] == [] and report["exit"] == 0
    assert report["summary"]["pairs_compared"] == 1
    assert report["summary"]["unresolved"] == 0


def test_a_get_given_a_literal_reads_that_key(tmp_path, capsys):
    """`cfg.get("num_hidden_layers")`: a config given as a dict, read by key; the key is the
    value read (`config.num_hidden_layers`, the layer count), not a method's result: the class
    is a device pool (recognition.md, plain-dict configs), and, with no host, the run says so."""
    device = DEVICE.replace("cfg.get_num_layers()", 'cfg.get("num_hidden_layers")')
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/config.py": CONFIG, "kv/gpu.py": device})
    code = main([str(tmp_path), "--no-cache", "--isolated", "--show-pools"])
    captured = capsys.readouterr()
    assert code == 0
    assert "1 device pools" in captured.err and "no host pool found" in captured.err
    assert "get_num_layers" not in captured.out and ".num_hidden_layers()" not in captured.out


def test_method_read():
    def node(text: str) -> ast.expr:
        return ast.parse(text, mode="eval").body

    for text in ("cfg.get_num_layers()", "m.get_num_kv_heads(parallel)", "a.b.f(self.p)"):
        assert method_read(node(text)) is not None, text
    for text in ('cfg.get("n")', "cfg.get(1)", "cfg.f(key=x)", "f()", "cfg.n"):
        assert method_read(node(text)) is None, text


BLOCK_DEVICE = """
    import torch
    from kv.config import CacheConfig

    class PagedKV:
        def __init__(self, cfg: CacheConfig, num_blocks: int, block_size: int):
            self.block_size = block_size
            self.kv = [
                torch.empty((2, num_blocks, block_size, cfg.get_kv_heads(), 64), dtype=cfg.dtype)
                for _ in range(cfg.get_num_layers())
            ]
"""

BLOCK_HOSTS = {
    # its own block size, a parameter it keeps no attribute of
    "parameter": """
        import torch
        from kv.config import CacheConfig
        from kv.gpu import PagedKV

        class SwapKV:
            def __init__(self, cfg: CacheConfig, gpu: PagedKV, num_cpu_blocks: int, block_size: int):
                self.kv = [
                    torch.empty((LEAD num_cpu_blocks, block_size, cfg.get_kv_heads(), 64), dtype=cfg.dtype)
                    for _ in range(cfg.get_num_layers())
                ]
    """,
    # the device's, read off it into a local
    "device": """
        import torch
        from kv.config import CacheConfig
        from kv.gpu import PagedKV

        class SwapKV:
            def __init__(self, cfg: CacheConfig, gpu: PagedKV, num_cpu_blocks: int):
                bs = gpu.block_size
                self.kv = [
                    torch.empty((LEAD num_cpu_blocks, bs, cfg.get_kv_heads(), 64), dtype=cfg.dtype)
                    for _ in range(cfg.get_num_layers())
                ]
    """,
}


def test_a_host_in_blocks_keeping_no_block_size_is_counted_per_token(tmp_path, capsys):
    """Without its block size, the host's figure would be per block (and vary with it): with
    the block size it was built with, it is per token, as its device's."""
    for kind, source in BLOCK_HOSTS.items():
        for lead, findings in (("2,", 0), ("", 1)):
            root = tmp_path / kind / str(findings)
            report = run(
                root,
                capsys,
                {"kv/gpu.py": BLOCK_DEVICE, "kv/cpu.py": source.replace("LEAD", lead)},
            )
            assert report["summary"]["unresolved"] == 0, (kind, report["coverage"])
            assert report["summary"]["pairs_compared"] == 1, kind
            assert len(report["findings"]) == findings, (kind, report["findings"])
            if findings:
                message = report["findings"][0]["message"]
                # the host holds K only: half the device's bytes per token, at every point
                assert "at every config point" in message, message
                host, device = (
                    int(part.split(" B/token/layer")[0].rsplit(" ", 1)[-1])
                    for part in message.split(" vs ")[:2]
                )
                assert 2 * host == device, message


def test_a_hosts_layer_count_off_a_config_method_is_no_config_dimension():
    """The swap space counts its layers off `model_config.get_num_layers(parallel_config)`, as
    its device does: that is the measured layer count, never a sampled model dimension (it
    doubled the fixture's config points, a column of layer counts in its table)."""
    from pathlib import Path

    from auditor.pipeline import audit
    from auditor.settings import find_config, load_settings

    root = Path(__file__).resolve().parent.parent / "fixtures/zero_config/config_methods_buggy"
    result = audit([root], load_settings(find_config([root])))
    [evaluation] = [e for e in result.evaluations if e.host is not None]
    assert evaluation.points
    for point in evaluation.points:
        assert "ModelConfig.get_num_layers()" not in point.values
        assert "ModelConfig.get_head_size()" in point.values  # a model dimension, sampled
