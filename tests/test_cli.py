"""Command line: exit codes, --explain, config errors, JSON output, `python -m auditor`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import READ_BY_THE_AUDIT, write_tree

from auditor.cli import main

DEVICE = """
    import torch

    class KVCache:
        def __init__(self, size, layer_num, dtype: torch.dtype = torch.bfloat16):
            self.size = size
            self.layer_num = layer_num
            self.dtype = dtype
            self.k_buffer = [torch.zeros((size + 1, 128), dtype=dtype) for _ in range(layer_num)]
"""

HOST = """
    import torch

    from pools.device import KVCache

    class HostKVCache:
        def __init__(self, device_pool: KVCache):
            self.size = device_pool.size * 2
            self.layer_num = device_pool.layer_num
            self.k_buffer = torch.zeros((self.layer_num, self.size, 128), dtype={dtype})
"""


def project(root: Path, host_dtype: str) -> Path:
    write_tree(
        root,
        {
            "pools/__init__.py": "",
            "pools/device.py": DEVICE,
            "pools/host.py": HOST.format(dtype=host_dtype),
        },
    )
    return root


@pytest.fixture
def clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return project(tmp_path / "clean", "device_pool.dtype")


@pytest.fixture
def buggy(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return project(tmp_path / "buggy", "torch.bfloat16")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_exit_0_when_clean(clean, capsys):
    code, out, err = run(capsys, "--isolated", "clean")
    assert code == 0
    assert out == ""
    assert "Found 0 findings" in err
    assert "1 device pools, 1 host pools, 1 pairs" in err


def test_exit_1_with_findings(buggy, capsys):
    code, out, err = run(capsys, "--isolated", "buggy")
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(os.path.join("buggy", "pools", "host.py") + ":9:25: LA001 k_buffer:")
    assert "host and device disagree, 256 B/token/layer vs 128 B/token/layer" in first
    assert "float8_e4m3fn" in first and "(2 of 4 config points)" in first
    assert "Found 1 finding" in err


def test_exit_zero_and_ignore(buggy, capsys):
    assert run(capsys, "--isolated", "--exit-zero", "buggy")[0] == 0
    code, out, _ = run(capsys, "--isolated", "--ignore", "LA001", "buggy")
    assert code == 0 and "LA001" not in out


def test_exit_1_for_a_file_that_does_not_parse(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_tree(
        tmp_path / "src", {"ok.py": "x = 1\n", "bad.py": "def f(:\n    pass\n" + READ_BY_THE_AUDIT}
    )
    code, out, err = run(capsys, "--isolated", "src")
    assert code == 1
    assert out.startswith(os.path.join("src", "bad.py") + ":1:7: E902 syntax error")
    assert "1 files with errors" in err


def test_exit_1_for_a_missing_path(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "--isolated", "nowhere")
    assert code == 1
    assert "nowhere:1:1: E902 no such file or directory" in out


def test_explain(capsys):
    code, out, _ = run(capsys, "--explain", "LA001")
    assert code == 0
    assert out.startswith("LA001 (host-device-buffer-size-mismatch):")
    assert "## What it finds" in out and "## Use instead" in out
    assert run(capsys, "--explain", "la001")[0] == 0


def test_explain_unknown_code_exits_2(capsys):
    code, out, err = run(capsys, "--explain", "LA999")
    assert code == 2 and out == ""
    assert "unknown code 'LA999'" in err


@pytest.mark.parametrize(
    "config_text, words",
    [
        ("[tool.layout-audit]\ncolour = 'red'\n", "unknown key 'colour'"),
        ("[tool.layout-audit]\nselect = 'LA001'\n", "select: expected a list of strings"),
        ("[tool.layout-audit.matrix]\nkv = ['torch.float99']\n", "unknown torch dtype"),
        ("[tool.layout-audit]\nrule-packs = ['nope']\n", "no rule pack 'nope'"),
        ("[tool.layout-audit\n", "invalid TOML"),
    ],
)
def test_bad_config_exits_2_with_one_line(clean, capsys, config_text, words):
    config = clean / "pyproject.toml"
    config.write_text(config_text)
    code, out, err = run(capsys, "clean")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("layout-audit: error: ")
    assert str(Path("clean") / "pyproject.toml") in err or str(config) in err
    assert words in err
    assert "Traceback" not in err


def test_explicit_config_file_that_does_not_exist(clean, capsys):
    code, _, err = run(capsys, "--config", "missing.toml", "clean")
    assert code == 2 and "missing.toml" in err and "cannot read" in err


def test_isolated_ignores_a_broken_config(clean, capsys):
    (clean / "pyproject.toml").write_text("[tool.layout-audit\n")
    assert run(capsys, "--isolated", "clean")[0] == 0


def test_unknown_select_code_is_a_usage_error(clean, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--isolated", "--select", "LA999", "clean"])
    assert caught.value.code == 2
    assert "unknown code 'LA999'" in capsys.readouterr().err


def test_json_output_is_valid_json(buggy, capsys):
    (buggy / "broken.py").write_text("x = (\n" + READ_BY_THE_AUDIT)
    code, out, _ = run(capsys, "--isolated", "--output-format", "json", "buggy")
    assert code == 1
    document = json.loads(out)
    assert list(document) == ["findings", "coverage", "summary"]
    items = document["findings"]
    codes = sorted(item["code"] for item in items)
    assert codes == ["E902", "LA001"]
    finding = next(item for item in items if item["code"] == "LA001")
    assert finding["path"] == os.path.join("buggy", "pools", "host.py")
    assert finding["line"] == 9
    assert finding["host"]["bytes_per_token"] == 256
    assert finding["device"]["bytes_per_token"] == 128
    assert finding["config"] == {"dtype": "float8_e4m3fn"}
    assert len(finding["points"]) == 2
    assert all(isinstance(item["message"], str) for item in items)


def test_json_output_when_clean_has_no_findings(clean, capsys):
    code, out, _ = run(capsys, "--isolated", "--output-format", "json", "clean")
    assert code == 0
    assert json.loads(out)["findings"] == []


def test_show_pools_lists_every_buffer(clean, capsys):
    code, out, _ = run(capsys, "--isolated", "--show-pools", "clean")
    assert code == 0
    assert "HostKVCache <- KVCache: 4 points, varied: dtype" in out
    assert "[dtype=float8_e5m2] host k_buffer:" in out


def test_version(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.startswith("layout-audit ")


def _console_script() -> str:
    script = Path(sys.executable).parent / "layout-audit"
    if script.exists():
        return str(script)
    found = shutil.which("layout-audit")
    if found is None:
        pytest.skip("layout-audit console script is not installed")
    return found


@pytest.mark.parametrize(
    "argv",
    [
        ["--isolated", "buggy"],
        ["--isolated", "--output-format", "json", "buggy"],
        ["--explain", "LA001"],
        ["--config", "missing.toml", "buggy"],
    ],
    ids=["findings", "json", "explain", "bad-config"],
)
def test_python_m_auditor_behaves_like_layout_audit(buggy, argv):
    cwd = buggy.parent
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    module = subprocess.run(
        [sys.executable, "-m", "auditor", *argv], cwd=cwd, capture_output=True, text=True, env=env
    )
    script = subprocess.run(
        [_console_script(), *argv], cwd=cwd, capture_output=True, text=True, env=env
    )
    assert module.returncode == script.returncode
    assert module.returncode in (0, 1, 2)
    assert module.stdout == script.stdout

    def without_timing(text: str) -> str:
        return "\n".join(line.rsplit(" (", 1)[0] for line in text.splitlines())

    assert without_timing(module.stderr) == without_timing(script.stderr)
    assert "Traceback" not in module.stderr


def test_bad_config_in_a_child_process_prints_no_traceback(clean):
    (clean / "pyproject.toml").write_text("[tool.layout-audit]\ncolour = 1\n")
    child = subprocess.run(
        [sys.executable, "-m", "auditor", "clean"],
        cwd=clean.parent,
        capture_output=True,
        text=True,
    )
    assert child.returncode == 2
    assert child.stdout == ""
    assert child.stderr.count("\n") == 1 and "Traceback" not in child.stderr


def test_a_renderer_failure_is_an_internal_error_not_a_traceback(monkeypatch, capsys):
    from auditor.report import json_report

    def broken(result, out, **options):
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(json_report, "render", broken)
    code = main(["--isolated", "--output-format", "json", "fixtures/incident_fixed"])
    err = capsys.readouterr().err
    assert code == 2
    assert "internal error: RuntimeError: renderer exploded" in err
    assert "Traceback" not in err


def test_a_config_error_found_during_the_audit_is_one_line_exit_2(monkeypatch, capsys):
    """Dtype names are checked against torch only when a pool first needs one."""
    import auditor.pipeline
    from auditor.settings import ConfigError

    def late(paths, settings, **options):
        raise ConfigError("rules/x.toml: dtypes.default: unknown torch dtype 'torch.float9'")

    monkeypatch.setattr(auditor.pipeline, "audit", late)
    code = main(["--isolated", "fixtures/incident_fixed"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        "layout-audit: error: rules/x.toml: dtypes.default: unknown torch dtype 'torch.float9'\n"
    )


def test_a_closed_pipe_stops_quietly():
    """`layout-audit ... | head`: no BrokenPipeError traceback."""
    import subprocess
    import sys

    child = subprocess.Popen(
        # over 64 KB, more than a pipe buffers, so the writer really meets the closed pipe
        [sys.executable, "-m", "auditor", "fixtures", "--isolated", "--show-pools", "--table"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    child.stdout.read(10)
    child.stdout.close()
    err = child.stderr.read().decode()
    child.wait(timeout=120)
    assert "Traceback" not in err
    assert "BrokenPipeError" not in err


def test_help_lists_every_check_with_its_summary(capsys):
    import pytest as _pytest

    from auditor.checks import checks
    from auditor.cli import main

    with _pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert list(checks()) == ["LA001", "LA002", "LA003", "LA100", "LA201", "LA202"]
    for code, check in checks().items():
        assert f"{code}  {check.summary}" in out


@pytest.mark.parametrize(
    ("value", "message"),
    [("x", "expected a whole number, got 'x'"), ("0", "expected 1 or more, got 0")],
)
def test_a_bad_jobs_count_is_a_usage_error(value, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--jobs", value, "fixtures/incident_fixed"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_text_table_cannot_be_mixed_with_another_format(capsys):
    code = main(["--table", "--output-format", "json", "--isolated", "fixtures/incident_buggy"])
    captured = capsys.readouterr()
    assert code == 2
    assert "--table prints text; it cannot be mixed with" in captured.err
    assert captured.out == ""


def test_json_lists_the_unresolved_items_with_show_unresolved(tmp_path, capsys, monkeypatch):
    """The text output's `--show-unresolved` list, as data: each item where, what and why."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pool.py").write_text(
        "import torch\n"
        "from elsewhere import width_of\n\n"
        "class Pool:\n"
        "    def __init__(self, size, layer_num, dtype=torch.float16):\n"
        "        self.k = [torch.empty((size, width_of()), dtype=dtype)\n"
        "                  for _ in range(layer_num)]\n"
    )
    code, out, _ = run(capsys, "--isolated", "--output-format", "json", "--show-unresolved", ".")
    document = json.loads(out)
    assert code == 0 and list(document) == ["findings", "coverage", "unresolved", "summary"]
    items = document["unresolved"]
    assert len(items) == document["summary"]["unresolved"] >= 1
    item = items[0]
    assert item["path"] == "pool.py" and item["line"] == 6
    assert item["subject"] == "Pool.k"
    assert "width_of" in item["reason"] and item["kind"] == "outside the audited tree"
    # without the flag, only the count
    code, out, _ = run(capsys, "--isolated", "--output-format", "json", ".")
    assert "unresolved" not in json.loads(out) and json.loads(out)["summary"]["unresolved"] >= 1
