"""Pools given the ids of their layers, not a count (`[parameters] layer-ids`).

SGLang's hybrid pools (`HybridLinearKVPool`, 0.5.23's `QSATokenToKVPool`) take
`full_attention_layer_ids: List[int]` and allocate one buffer per id. Named in the pack's
`layer-ids`, such a parameter counts layers: the pool is built with `list(range(layers))`.
The oracle builds the pools for real on torch's meta device with the same lists.
"""

from __future__ import annotations

from pathlib import Path

from helpers import (
    import_file,
    real_bytes_per_token_per_layer,
    real_torch,
    settings_and_audit,
    write_tree,
)

POOLS = """
    import torch


    class HybridPool:
        def __init__(self, size: int, dtype: torch.dtype, head_dim: int, full_attention_layer_ids: list):
            self.size = size
            self.head_dim = head_dim
            self.layer_num = len(full_attention_layer_ids)
            self.k_buffer = [
                torch.zeros((size + 1, head_dim), dtype=dtype, device="meta")
                for _ in full_attention_layer_ids
            ]


    class HybridPoolHost:
        def __init__(self, device_pool: HybridPool, host_to_device_ratio: float = 2.0):
            self.size = int(device_pool.size * host_to_device_ratio)
            self.layer_num = device_pool.layer_num
            self.k_buffer = torch.empty(
                (self.layer_num, self.size, device_pool.head_dim), dtype={host_dtype}, device="meta"
            )
"""

BUGGY, FIXED = "torch.bfloat16", "device_pool.k_buffer[0].dtype"


def _tree(root: Path, host_dtype: str) -> Path:
    files = {"hybrid/__init__.py": "", "hybrid/pools.py": POOLS.replace("{host_dtype}", host_dtype)}
    return write_tree(root, files)


def _audit(root: Path, ids: bool = True):
    return settings_and_audit(root) if ids else settings_and_audit(root, layer_id_params=[])


def test_a_pool_given_layer_ids_is_a_device_pool_and_its_host_is_compared(tmp_path):
    _, result = _audit(_tree(tmp_path, BUGGY))
    assert result.coverage.line() == "1 of 1 pairs compared"
    [finding] = result.findings
    assert (finding.code, finding.host.class_name, finding.device.class_name) == (
        "LA001",
        "HybridPoolHost",
        "HybridPool",
    )
    # the host keeps bf16 rows of 128 (256 B); the device's fp8 rows are 128 B
    assert "256 B/token/layer vs 128 B/token/layer" in finding.message


def test_the_fixed_host_agrees(tmp_path):
    _, result = _audit(_tree(tmp_path, FIXED))
    assert result.findings == []
    assert result.coverage.line() == "1 of 1 pairs compared"


def test_without_the_pack_entry_the_pool_is_recognised_by_its_loop(tmp_path):
    """Without the pack's entry, the loop over a list parameter named for layers (`for _ in
    full_attention_layer_ids`) counts its layers (session 32; before, it was no device pool
    and its host paired with nothing): the same pair, the same finding."""
    _, with_entry = _audit(_tree(tmp_path / "a", BUGGY))
    _, result = _audit(_tree(tmp_path / "b", BUGGY), ids=False)
    assert result.coverage.line() == "1 of 1 pairs compared"
    [finding] = result.findings
    [expected] = with_entry.findings
    assert (finding.code, finding.host.class_name, finding.device.class_name) == (
        "LA001",
        "HybridPoolHost",
        "HybridPool",
    )
    assert "256 B/token/layer vs 128 B/token/layer" in finding.message
    assert "256 B/token/layer vs 128 B/token/layer" in expected.message


def test_static_figures_equal_the_real_pools_built_with_layer_id_lists(tmp_path):
    root = _tree(tmp_path, BUGGY)
    settings, result = _audit(root)
    [evaluation] = result.evaluations
    module = import_file(root / "hybrid" / "pools.py", "oracle_hybrid")
    assert evaluation.feasible
    for point in evaluation.feasible:
        values = point.values
        dtype = real_torch(values["dtype"])
        sides: list[dict] = [{}, {}]
        for tokens in settings.token_counts:
            for layers in settings.layer_counts:
                device = module.HybridPool(tokens, dtype, values["head_dim"], list(range(layers)))
                host = module.HybridPoolHost(device)
                sides[0][tokens, layers] = (device.size, sum(t.nbytes for t in device.k_buffer))
                sides[1][tokens, layers] = (host.size, host.k_buffer.nbytes)
        for side, figures in zip(sides, (point.device, point.host)):
            real = real_bytes_per_token_per_layer(side, settings)
            assert figures["k_buffer"].bytes_per_token_per_layer == real, (values, side)
