"""The GitHub Action (`action.yml`), its run-steps run in a shell as Actions runs them: inputs and
`${{ ... }}` expressions filled in, `bash --noprofile --norc -eo pipefail`, and the
`GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY` / `GITHUB_PATH` files read back afterwards.

The install step (a venv, the CPU torch, this project) runs only with `-m install`: it installs
torch. The other steps run with the layout-audit of the environment running the tests.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO / "action.yml").read_text())
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def _step(name_or_id: str) -> dict[str, Any]:
    (step,) = [s for s in ACTION["runs"]["steps"] if name_or_id in (s.get("id"), s.get("name"))]
    return step


def _context(tmp_path: Path, inputs: dict[str, str]) -> dict[str, str]:
    values = {f"inputs.{k}": str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    values.update({f"inputs.{k}": v for k, v in inputs.items()})
    values["github.action_path"] = str(REPO)
    values["runner.temp"] = str(tmp_path / "runner-temp")
    return values


def _expand(text: str, context: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        assert match.group(1) in context, f"unknown expression {match.group(0)}"
        return context[match.group(1)]

    return EXPRESSION.sub(one, text)


def _run_step(
    step: dict[str, Any], workspace: Path, tmp_path: Path, inputs: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """(the step's process, what it wrote to GITHUB_OUTPUT, its job summary)."""
    context = _context(tmp_path, inputs)
    (tmp_path / "runner-temp").mkdir(exist_ok=True)
    files = {name: tmp_path / name.lower() for name in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY")}
    files["GITHUB_PATH"] = tmp_path / "github_path"
    for path in files.values():
        path.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update({name: str(path) for name, path in files.items()})
    env["RUNNER_TEMP"] = context["runner.temp"]
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.update({k: _expand(str(v), context) for k, v in step.get("env", {}).items()})
    assert step["shell"] == "bash"
    script = tmp_path / "step.sh"
    script.write_text(_expand(step["run"], context))
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    outputs = dict(
        line.split("=", 1)
        for line in files["GITHUB_OUTPUT"].read_text().splitlines()
        if "=" in line
    )
    return done, outputs, files["GITHUB_STEP_SUMMARY"].read_text()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "workspace"
    shutil.copytree(REPO / "fixtures" / "incident_buggy", root)
    return root


def test_action_is_composite_and_uses_expressions_only_through_env() -> None:
    """Inputs reach the shell as environment variables, never spliced into the script (a
    `paths` input holding `$(...)` must not run)."""
    assert ACTION["runs"]["using"] == "composite"
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert not EXPRESSION.search(step["run"]), step["name"]


def test_install_step_takes_the_cpu_build_of_torch() -> None:
    assert ACTION["inputs"]["torch"]["default"] == "torch==2.13.0"
    assert ACTION["inputs"]["torch-index-url"]["default"].endswith("/whl/cpu")
    run = _step("Install layout-audit (CPU torch)")["run"]
    # torch first, from the CPU index; then the project, whose torch range it already meets
    assert run.index('"$LA_TORCH" --index-url "$LA_TORCH_INDEX"') < run.index('"$LA_SOURCE"')


def test_audit_step_annotates_summarises_and_fails_on_a_finding(
    workspace: Path, tmp_path: Path
) -> None:
    done, outputs, summary = _run_step(_step("audit"), workspace, tmp_path, {})
    assert done.returncode == 1, done.stderr
    assert outputs == {"exit-code": "1"}
    assert re.search(
        r"^::error file=sglang/srt/mem_cache/memory_pool_host\.py,line=96,.*LA001",
        done.stdout,
        re.M,
    )
    assert "LA001" in summary and "index_k_with_scale_buffer" in summary


def test_audit_step_writes_sarif_for_the_upload_step(workspace: Path, tmp_path: Path) -> None:
    done, outputs, _ = _run_step(_step("audit"), workspace, tmp_path, {"sarif": "true"})
    assert done.returncode == 1, done.stderr
    assert outputs["exit-code"] == "1"
    sarif = json.loads(Path(outputs["sarif-file"]).read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["LA001"]
    upload = _step("Upload SARIF")
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ steps.audit.outputs.sarif-file }}"
    assert "always()" in upload["if"]  # runs although the audit step failed


def test_audit_step_passes_with_a_baseline_in_args(workspace: Path, tmp_path: Path) -> None:
    written = subprocess.run(
        [sys.executable, "-m", "auditor", ".", "--write-baseline", "baseline.json"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert written.returncode == 0, written.stderr
    inputs = {"args": "--baseline baseline.json"}
    done, outputs, _ = _run_step(_step("audit"), workspace, tmp_path, inputs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert outputs == {"exit-code": "0"}
    assert "::error" not in done.stdout


def test_a_usage_error_fails_the_step_with_exit_code_2(workspace: Path, tmp_path: Path) -> None:
    done, outputs, _ = _run_step(_step("audit"), workspace, tmp_path, {"args": "--no-such-flag"})
    assert done.returncode == 2
    assert outputs == {"exit-code": "2"}


@pytest.mark.install
def test_install_step_installs_a_working_layout_audit(tmp_path: Path) -> None:
    """The install step for real, torch from the machine's own index (the CPU build)."""
    inputs = {"torch-index-url": "https://pypi.org/simple"}
    done, _, _ = _run_step(_step("Install layout-audit (CPU torch)"), tmp_path, tmp_path, inputs)
    assert done.returncode == 0, done.stdout + done.stderr
    bin_dir = (tmp_path / "github_path").read_text().strip()
    version = subprocess.run(
        [str(Path(bin_dir) / "python"), "-c", "import torch; print(torch.__version__)"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert version.stdout.startswith("2.13.0"), version.stdout + version.stderr
