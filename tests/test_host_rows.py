"""A host mirror that names no token count: measured per row (auditor/evaluation/measure.py
`row_counts`).

Code written with other names sizes its host from the device (`int(len(device.kv[0]) * ratio)`)
and keeps the count nowhere. Before, every figure of such a host was unresolved ("no parameter
or attribute was found to count its tokens"), so a host hard-coding bf16 against an fp8 device
was never compared. Its rows are the slots the code indexes: the one dimension every buffer
tensor grows along with the device's tokens. The oracle builds both pools for real on torch's
meta device.
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


    class ModelShape:
        def __init__(self, n_layers: int, kv_width: int):
            self.n_layers = n_layers
            self.kv_width = kv_width


    class GpuKV:
        def __init__(self, num_tokens: int, shape: ModelShape, dtype: torch.dtype):
            self.shape = shape
            self.dtype = dtype
            self.kv = [
                torch.empty((num_tokens, 2, shape.kv_width), dtype=dtype, device="meta")
                for _ in range(shape.n_layers)
            ]


    class CpuKV:
        def __init__(self, gpu: GpuKV, ratio: float = 2.0):
            rows = int(len(gpu.kv[0]) * ratio)
            self.kv = [
                torch.empty((rows, 2, gpu.shape.kv_width), dtype={host_dtype}, device="meta")
                for _ in gpu.kv
            ]
"""

BUGGY, FIXED = "torch.bfloat16", "gpu.dtype"


def _tree(root: Path, host_dtype: str, pools: str = POOLS) -> Path:
    return write_tree(
        root, {"serve/__init__.py": "", "serve/kv.py": pools.replace("{host_dtype}", host_dtype)}
    )


def _audit(root: Path):
    return settings_and_audit(root)


def test_a_host_naming_no_token_count_is_compared_per_row_and_its_bug_found(tmp_path):
    _, result = _audit(_tree(tmp_path, BUGGY))
    assert result.coverage.line() == "1 of 1 pairs compared"
    [finding] = result.findings
    assert (finding.code, finding.host.class_name, finding.device.class_name) == (
        "LA001",
        "CpuKV",
        "GpuKV",
    )
    assert "per row (the host names no token count: its rows, dimension 0)" in finding.message
    # the host keeps bf16 rows: 2 * 128 * 2 B (an untyped config's width sampled at 128 first);
    # the device's fp8 rows are half of that
    assert "512 B/token/layer vs 256 B/token/layer" in finding.message


def test_the_fixed_host_agrees_at_every_point(tmp_path):
    _, result = _audit(_tree(tmp_path, FIXED))
    assert result.findings == []
    assert result.coverage.line() == "1 of 1 pairs compared"


def test_buffers_growing_along_different_dimensions_stay_unresolved(tmp_path):
    """A buffer growing along two dimensions at once (rows x rows) says nothing of what a row
    is: the host's figures stay unresolved, with the reason, and the pair is not compared."""
    two_dims = POOLS.replace(
        "            rows = int(len(gpu.kv[0]) * ratio)\n",
        "            rows = int(len(gpu.kv[0]) * ratio)\n"
        "            self.index = torch.empty((rows, rows), dtype=torch.uint8, device='meta')\n",
    )
    _, result = _audit(_tree(tmp_path, FIXED, two_dims))
    assert result.findings == []
    [pair] = result.coverage.pairs
    assert (pair.compared, pair.reason) == (False, "host figures unresolved")
    reasons = [u.unknown.reason for u in result.unresolved]
    assert any("do not grow along one dimension with the device's" in r for r in reasons)


def test_static_figures_equal_the_real_pools_per_row(tmp_path):
    """The oracle: both pools built for real on the meta device at the audit's counts; the
    host's bytes per row per layer, derived as measure.py does with rows = len(kv[0]), equal
    the static figure at every point, and the device's per token likewise."""
    root = _tree(tmp_path, BUGGY)
    settings, result = _audit(root)
    [evaluation] = result.evaluations
    module = import_file(root / "serve" / "kv.py", "oracle_kv")
    assert evaluation.feasible
    for point in evaluation.feasible:
        values = point.values
        dtype = real_torch(values["dtype"])
        width = values["ModelShape.kv_width"]
        sides: list[dict] = [{}, {}]
        for tokens in settings.token_counts:
            for layers in settings.layer_counts:
                device = module.GpuKV(tokens, module.ModelShape(layers, width), dtype)
                host = module.CpuKV(device)
                for side, pool in zip(sides, (device, host)):
                    side[tokens, layers] = (len(pool.kv[0]), sum(t.nbytes for t in pool.kv))
        for side, name in zip(sides, ("device", "host")):
            real = real_bytes_per_token_per_layer(side, settings)
            figure = getattr(point, name)["kv"]
            assert figure.bytes_per_token_per_layer == real, (name, values)
