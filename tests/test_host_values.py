"""`[hosts.<Class>]`: values a host's pairs are evaluated at, for a host a factory picks only
for some models (SGLang 0.5.23 builds `AsymmetricMHATokenToKVPoolHost` only when K and V head
dimensions differ, which the pack's matrix never does)."""

from __future__ import annotations

import pytest
from helpers import write_tree

from auditor.pipeline import audit
from auditor.settings import HostValues, load_settings

POOLS = """
    import torch

    class Info:
        def __init__(self, k, v, head_dim, v_head_dim):
            self.k, self.v = k, v
            self.head_dim, self.v_head_dim = head_dim, v_head_dim

    class MHAPool:
        def __init__(self, size, layer_num, head_dim: int, v_head_dim: int):
            self.k_buffer = [torch.zeros((size, head_dim), dtype=torch.bfloat16) for _ in range(layer_num)]
            self.v_buffer = [torch.zeros((size, v_head_dim), dtype=torch.bfloat16) for _ in range(layer_num)]
            self.head_dim, self.v_head_dim = head_dim, v_head_dim

        def info(self):
            return Info(self.k_buffer, self.v_buffer, self.head_dim, self.v_head_dim)

    class MHAHost:
        def __init__(self, buffer_info: Info, size: int):
            n = len(buffer_info.k)
            self.k_buffer = torch.zeros((n, size, buffer_info.head_dim), dtype=torch.bfloat16)
            self.v_buffer = torch.zeros((n, size, buffer_info.head_dim), dtype=torch.bfloat16)

    class AsymmetricHost(MHAHost):
        def __init__(self, buffer_info: Info, size: int):
            n = len(buffer_info.k)
            self.k_buffer = torch.zeros((n, size, buffer_info.head_dim), dtype=torch.bfloat16)
            # the bug: V rows as wide as K's
            self.v_buffer = torch.zeros((n, size, buffer_info.head_dim), dtype=torch.bfloat16)

    def host_class(info: Info) -> type:
        if info.head_dim != info.v_head_dim:
            return AsymmetricHost
        return MHAHost

    def build_host(pool, size):
        info = pool.info()
        cls = host_class(info)
        return cls(info, size)
"""


def _audit(tmp_path, hosts: dict | None):
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": POOLS})
    settings = load_settings(None)
    settings.respect_gitignore = False
    settings.matrix.update(head_dim=[128], v_head_dim=[128])
    settings.hosts = hosts or {}
    return audit([tmp_path], settings)


def _pair(result, host: str):
    [pair] = [p for p in result.coverage.pairs if p.host == host]
    return pair


def test_without_values_the_factory_never_picks_the_asymmetric_host(tmp_path):
    result = _audit(tmp_path, None)
    assert result.findings == []
    assert not any(p.host == "AsymmetricHost" and p.compared for p in result.coverage.pairs)


def test_with_the_host_s_values_its_pairs_are_built_and_its_bug_reported(tmp_path):
    values = HostValues(matrix={"head_dim": [192], "v_head_dim": [128]})
    result = _audit(tmp_path, {"AsymmetricHost": values})
    assert _pair(result, "AsymmetricHost").compared
    assert _pair(result, "MHAHost").compared  # the others keep the pack's values
    [finding] = result.findings
    assert (finding.host.class_name, finding.host.buffer) == ("AsymmetricHost", "v_buffer")
    assert "384 B/token/layer vs 256 B/token/layer" in finding.message


def test_an_unmirrored_buffer_is_shown_at_the_pack_s_values_first(tmp_path):
    """LA003 over every host of a device shows one figure: the pack's (head_dim 128: 32 B of
    scales), not the one a host class is evaluated at on its own (192: 48 B)."""
    scaled = POOLS.replace(
        "            self.head_dim, self.v_head_dim = head_dim, v_head_dim\n\n        def info",
        "            self.head_dim, self.v_head_dim = head_dim, v_head_dim\n"
        "            self.k_scale_buffer = [torch.zeros((size, head_dim // 16), dtype=torch.float32)"
        " for _ in range(layer_num)]\n\n        def info",
    )
    assert scaled != POOLS
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": scaled})
    settings = load_settings(None)
    settings.respect_gitignore = False
    settings.matrix.update(head_dim=[128], v_head_dim=[128])
    settings.hosts = {"AsymmetricHost": HostValues(matrix={"head_dim": [192]})}
    result = audit([tmp_path], settings)
    [unmirrored] = [f for f in result.findings if f.code == "LA003"]
    assert "holds 32 B/token/layer" in unmirrored.message
    assert {p["device_bytes_per_token"] for p in unmirrored.points} == {32, 48}


@pytest.mark.parametrize("modules, applied", [(["pkg"], True), (["sglang"], False), ([], True)])
def test_a_host_table_kept_to_some_modules(tmp_path, modules, applied):
    """`modules` keeps a table to the engine's own code: a class of the same name in another
    package (a fork renamed, a tree that borrowed the names) is evaluated at the pack's values,
    so what the engine's factory guarantees is not assumed of code it never reaches."""
    values = HostValues(matrix={"head_dim": [192], "v_head_dim": [128]}, modules=modules)
    result = _audit(tmp_path, {"AsymmetricHost": values})
    compared = [p for p in result.coverage.pairs if p.host == "AsymmetricHost" and p.compared]
    assert bool(compared) is applied  # (the factory never picks it at the pack's values)
    assert [f.host.buffer for f in result.findings] == (["v_buffer"] if applied else [])


def test_a_table_narrowing_the_pack_s_values_is_still_the_pack_s(tmp_path):
    """A host table that only narrows the pack's values (`v_head_dim = [128]` of the pack's
    128 and 192) shows its figure before one of values of its own (head dim 192)."""
    scaled = POOLS.replace(
        "            self.head_dim, self.v_head_dim = head_dim, v_head_dim\n\n        def info",
        "            self.head_dim, self.v_head_dim = head_dim, v_head_dim\n"
        "            self.k_scale_buffer = [torch.zeros((size, head_dim // 16), dtype=torch.float32)"
        " for _ in range(layer_num)]\n\n        def info",
    )
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/pools.py": scaled})
    settings = load_settings(None)
    settings.respect_gitignore = False
    settings.matrix.update(head_dim=[128], v_head_dim=[128, 192])
    settings.hosts = {
        "AsymmetricHost": HostValues(matrix={"head_dim": [192], "v_head_dim": [128]}),
        "MHAHost": HostValues(matrix={"v_head_dim": [128]}),
    }
    result = audit([tmp_path], settings)
    [unmirrored] = [f for f in result.findings if f.code == "LA003"]
    assert "holds 32 B/token/layer" in unmirrored.message
