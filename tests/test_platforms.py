"""A platform's device pools are evaluated at the platform's values (`[platforms.<name>]`), not
at the pack's: an Ascend pool is not built on a CUDA machine's probes and switches."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from helpers import write_tree

from auditor.evaluation.matrix import flag_dimension, switch_dimension
from auditor.pipeline import audit
from auditor.settings import ConfigError, Platform, load_settings

TREE = {
    "engine/pool.py": """
        import torch

        class KVPool:
            def __init__(self, size: int, layer_num: int, head_dim: int, dtype: torch.dtype):
                self.layer_num = layer_num
                self.dtype = dtype
                self.k_buffer = [
                    torch.empty((size, head_dim), dtype=dtype) for _ in range(layer_num)
                ]
    """,
    "engine/hardware/npu/pool.py": """
        import os
        import torch
        from engine.pool import KVPool
        from vendor_platforms import is_npu

        class NPUKVPool(KVPool):
            def __init__(self, size: int, layer_num: int, head_dim: int, dtype: torch.dtype):
                if not is_npu():
                    raise RuntimeError("an NPU pool needs an NPU")
                self.layer_num = layer_num
                self.dtype = dtype
                if os.getenv("NPU_PAD_ROWS") == "1":
                    head_dim += 16
                self.k_buffer = [
                    torch.empty((size, head_dim), dtype=dtype) for _ in range(layer_num)
                ]
    """,
    "engine/host.py": """
        import torch
        from engine.pool import KVPool

        class KVPoolHost:
            def __init__(self, device_pool: KVPool, size: int, head_dim: int):
                self.k_buffer = torch.empty(
                    (device_pool.layer_num, size, head_dim), dtype=device_pool.dtype
                )
    """,
}

CONFIG = """
[tool.layout-audit]
rule-packs = []

[tool.layout-audit.parameters]
tokens = ["size"]
layers = ["layer_num"]
device-pool = ["device_pool"]

[tool.layout-audit.dtypes]
default = ["torch.bfloat16"]

[tool.layout-audit.matrix]
head_dim = [128]

[tool.layout-audit.flags]
is_npu = [false]
"""

NPU = """
[tool.layout-audit.platforms.npu]
modules = ["hardware.npu"]
flags = { is_npu = [true] }
switches = { NPU_PAD_ROWS = [false, "1"] }
"""


def _audit(root: Path, config: str, tree: dict[str, str] = TREE):
    write_tree(root, tree)
    (root / "pyproject.toml").write_text(textwrap.dedent(config))
    settings = load_settings(root / "pyproject.toml")
    settings.respect_gitignore = False
    result = audit([root / "engine"], settings)
    return {e.device.name: e for e in result.evaluations}, result


def test_the_platform_pool_is_built_at_the_platform_values(tmp_path):
    evaluations, result = _audit(tmp_path, CONFIG + NPU)
    npu = evaluations["NPUKVPool"]
    assert npu.varied == [switch_dimension("NPU_PAD_ROWS")]
    assert [p.values[flag_dimension("is_npu")] for p in npu.feasible] == [True, True]
    (finding,) = result.findings
    assert finding.code == "LA001"
    assert "256 B/token/layer vs 288 B/token/layer" in finding.message
    assert "NPUKVPool" in finding.message and "$NPU_PAD_ROWS=1" in finding.message
    # the other pools keep the pack's values: no NPU probe, no NPU switch
    cuda = evaluations["KVPool"]
    assert cuda.varied == [] and len(cuda.feasible) == 1
    assert cuda.feasible[0].values.get(flag_dimension("is_npu"), False) is False
    assert switch_dimension("NPU_PAD_ROWS") not in cuda.feasible[0].values


def test_without_the_platform_the_pool_is_never_built(tmp_path):
    evaluations, result = _audit(tmp_path, CONFIG)
    assert result.findings == []
    npu = evaluations["NPUKVPool"]
    assert npu.feasible == []  # refused at the pack's is_npu() = False
    assert all(p.infeasible is not None for p in npu.points)


@pytest.mark.parametrize(("base", "applies"), [("KVPool", True), ("OtherPool", False)])
def test_a_class_table_refines_the_platform_for_its_subclasses(tmp_path, base, applies):
    """SGLang's Ascend MLA pools get another HiCache layout than the MHA ones."""
    refined = (
        NPU
        + f"""
[tool.layout-audit.platforms.npu.classes.{base}]
switches = {{ NPU_PAD_ROWS = [false] }}
"""
    )
    evaluations, result = _audit(tmp_path, CONFIG + refined)
    npu = evaluations["NPUKVPool"]
    assert len(npu.feasible) == (1 if applies else 2)
    assert len(result.findings) == (0 if applies else 1)


@pytest.mark.parametrize(
    ("module", "runs"),
    [
        ("engine.hardware.npu.pool", True),
        ("hardware.npu", True),
        ("engine.hardware.npux.pool", False),
        ("engine.other_hardware.npu.pool", False),
        ("engine.pool", False),
    ],
)
def test_modules_match_whole_dotted_parts(module, runs):
    assert Platform(modules=["hardware.npu"]).runs(module) is runs


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("flags = { is_npu = [true] }", "expected modules = [dotted module names]"),
        ("modules = []", "modules: expected at least one module name"),
        ('modules = "hardware.npu"', "modules: expected a list of strings"),
        ('modules = ["x"]\nlayout = ["a"]', "unknown key 'layout' (expected one of modules"),
        ('modules = ["x"]\nflags = { is_npu = ["yes"] }', "flags.is_npu: expected true or false"),
        ('modules = ["x"]\nswitches = { X = [1] }', "switches.X: expected strings"),
        ('modules = ["x"]\nclasses = { Pool = { modules = ["y"] } }', "classes.Pool: unknown key"),
        ('modules = ["x"]\nclasses = { "a.B" = {} }', "classes.a.B: a class name"),
        ('modules = ["x"]\nclasses = 3', "classes: expected a table of class name"),
        ('modules = ["x"]\nclasses = { Pool = 3 }', "classes.Pool: expected a table"),
        ('modules = ["x"]\nruntime = { "get-x" = { a = [1] } }', "runtime.get-x: a getter is"),
        ('modules = ["x"]\nmatrix = { page_size = [] }', "matrix.page_size: expected at least one"),
    ],
)
def test_a_bad_platform_table_is_a_config_error_naming_the_key(tmp_path, table, message):
    path = tmp_path / "pyproject.toml"
    path.write_text(CONFIG + "\n[tool.layout-audit.platforms.npu]\n" + table + "\n")
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert "platforms.npu" in str(error.value) and message in str(error.value)


def test_the_platform_values_key_the_cache(tmp_path):
    from auditor.incremental.cache import settings_fingerprint

    path = tmp_path / "pyproject.toml"
    path.write_text(CONFIG + NPU)
    with_platform = settings_fingerprint(load_settings(path))
    path.write_text(CONFIG + NPU.replace('"1"', '"2"'))
    assert settings_fingerprint(load_settings(path)) != with_platform


def test_a_finding_says_the_platform_it_was_evaluated_on(tmp_path):
    import io
    import json

    from auditor.report import json_report, text

    _, result = _audit(tmp_path, CONFIG + NPU)
    out, err = io.StringIO(), io.StringIO()
    text.render(result, out, err)
    assert "\n  platform: npu (is_npu()=True)\n" in out.getvalue()
    out = io.StringIO()
    json_report.render(result, out)
    (finding,) = json.loads(out.getvalue())["findings"]
    assert finding["platform"] == {"name": "npu", "values": {"is_npu()": True}}


def test_a_finding_of_no_platform_says_none(tmp_path):
    import io
    import json

    from auditor.report import json_report

    tree = dict(TREE)  # the CUDA pool's host formula drifts instead
    tree["engine/host.py"] = TREE["engine/host.py"].replace(
        "size, head_dim)", "size, 2 * head_dim)"
    )
    _, result = _audit(tmp_path, CONFIG + NPU.replace('"1"', "false"), tree)
    out = io.StringIO()
    json_report.render(result, out)
    findings = json.loads(out.getvalue())["findings"]
    by_device = {f["device"]["class"]: f for f in findings}
    assert "platform" not in by_device["KVPool"]
    assert by_device["NPUKVPool"]["platform"]["name"] == "npu"
