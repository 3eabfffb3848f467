"""Installing next to an engine: torch is a range (the engine's own torch stays), dtype sizes come
from whatever torch is installed, and a dtype that torch lacks is unresolved, not a crash.

The `resolve` tests (opt in: `pytest -m resolve`) ask pip what each documented install command
would pull (`pip install --dry-run --report`), without installing anything.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import assert_unknown, evaluate, settings, write_tree
from packaging.requirements import Requirement

from auditor import dtypes
from auditor.pipeline import audit

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
CPU_TORCH = "torch==2.13.0"


def _torch_requirement() -> Requirement:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    (torch,) = [
        Requirement(text)
        for text in data["project"]["dependencies"]
        if Requirement(text).name == "torch"
    ]
    return torch


def test_pyproject_torch_is_a_range_admitting_the_cpu_build_not_a_pin() -> None:
    specifier = _torch_requirement().specifier
    assert specifier.contains("2.13.0"), specifier
    assert all(spec.operator not in ("==", "===") for spec in specifier), specifier
    assert specifier.contains("2.9.1") and specifier.contains("2.14.1"), specifier


def test_documented_commands_still_name_the_cpu_build() -> None:
    """The README's commands, CI and the hook environment a test builds never leave torch to
    a range (from nothing, a range resolves to a CUDA build of several GB)."""
    readme = (REPO / "README.md").read_text()
    setup = readme.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.+?)\n```", setup)
    assert commands and all(CPU_TORCH in command for command in commands)
    assert CPU_TORCH in (REPO / ".ci" / "run").read_text()
    assert (
        f"additional_dependencies: [{CPU_TORCH}]"
        in (REPO / "tests" / "test_precommit.py").read_text()
    )


@pytest.fixture
def old_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """torch as an older release would be: one dtype missing, everything else real."""
    real = dtypes.read_facts(dtypes.torch_module())
    names = {k: v for k, v in real["names"].items() if k != "float4_e2m1fn_x2"}
    table = {**real, "names": names, "version": "2.0.1"}
    monkeypatch.setattr(dtypes, "facts", lambda: table)


def test_a_dtype_the_installed_torch_lacks_is_unresolved_with_that_reason(
    tmp_path: Path, old_torch: None
) -> None:
    value = evaluate(tmp_path, "torch.float4_e2m1fn_x2", "import torch\n")
    unknown = assert_unknown(value, "float4_e2m1fn_x2", "2.0.1", "no such dtype")
    assert unknown.location is not None


def test_sizes_come_from_the_installed_torch(tmp_path: Path) -> None:
    assert evaluate(tmp_path, "torch.float4_e2m1fn_x2.itemsize", "import torch\n") == 1


def test_a_pool_allocating_a_missing_dtype_reports_the_buffer_unresolved(
    tmp_path: Path, old_torch: None
) -> None:
    write_tree(
        tmp_path,
        {
            "pool.py": """
                import torch

                class Fp4Pool:
                    def __init__(self, size, layer_num):
                        self.kv_buffer = [
                            torch.zeros((size, 64), dtype=torch.float4_e2m1fn_x2)
                            for _ in range(layer_num)
                        ]
            """
        },
    )
    result = audit([tmp_path], settings())
    reasons = [item.unknown.reason for item in result.unresolved]
    assert any("float4_e2m1fn_x2: no such dtype in the installed torch 2.0.1" in r for r in reasons)
    assert result.findings == []


# -- what each documented command pulls (opt in: pytest -m resolve) --------------------------


def _dry_run(tmp_path: Path, *requirements: str, fresh: bool = True) -> dict[str, str]:
    """`pip install --dry-run --report`: {name: version} of what the command would install."""
    report = tmp_path / "report.json"
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet"]
    command += ["--report", str(report), *(["--ignore-installed"] if fresh else [])]
    done = subprocess.run(
        [*command, *requirements], capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    installs = json.loads(report.read_text())["install"]
    return {item["metadata"]["name"].lower(): item["metadata"]["version"] for item in installs}


def _assert_cpu_only(pulled: dict[str, str]) -> None:
    assert pulled.get("torch", "").startswith("2.13.0"), pulled
    gpu = sorted(n for n in pulled if n.startswith(("nvidia-", "triton", "cuda-")))
    assert gpu == [], gpu


@pytest.mark.resolve
def test_readme_install_pulls_the_cpu_build_only(tmp_path: Path) -> None:
    """`pip install torch==2.13.0 -e .` (both README commands) from nothing."""
    _assert_cpu_only(_dry_run(tmp_path, CPU_TORCH, "-e", str(REPO)))


@pytest.mark.resolve
def test_remote_hook_environment_with_additional_dependencies_pulls_the_cpu_build_only(
    tmp_path: Path,
) -> None:
    """What pre-commit runs for the remote hook with `additional_dependencies: [torch==2.13.0]`:
    `pip install . torch==2.13.0` in a fresh environment."""
    _assert_cpu_only(_dry_run(tmp_path, str(REPO), CPU_TORCH))


@pytest.mark.resolve
def test_install_into_an_engine_environment_keeps_its_torch(tmp_path: Path) -> None:
    """In an environment that has torch (this one), installing layout-audit installs no torch."""
    pulled = _dry_run(tmp_path, str(REPO), fresh=False)
    assert "torch" not in pulled, pulled
    assert not any(n.startswith("nvidia-") for n in pulled), pulled
