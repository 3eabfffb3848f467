"""Project configuration that changes what is audited: excludes, .gitignore, explicit pairs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from auditor.pipeline import audit
from auditor.settings import ConfigError, find_config, load_settings

REPO = Path(__file__).resolve().parent.parent
HOST = "sglang/srt/mem_cache/memory_pool_host.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(REPO / "fixtures" / "incident_buggy", target)
    return target


def _configure(project: Path, text: str) -> None:
    (project / "pyproject.toml").write_text("[tool.layout-audit]\n" + text)


def _findings(project: Path) -> list:
    config = find_config([project])
    return audit([project], load_settings(config)).findings


def test_config_is_found_above_the_audited_path(project: Path) -> None:
    _configure(project, 'select = ["LA001"]\n')
    assert find_config([project / "sglang" / "srt"]) == project / "pyproject.toml"


def test_extend_exclude_drops_the_host_file_and_its_finding(project: Path) -> None:
    assert [f.code for f in _findings(project)] == ["LA001"]
    _configure(project, 'extend-exclude = ["memory_pool_host.py"]\n')
    assert _findings(project) == []


def test_include_picks_the_files(project: Path) -> None:
    _configure(project, 'include = ["memory_pool.py"]\n')
    result = audit([project], load_settings(find_config([project])))
    assert result.files_read == 1 and result.findings == []
    _configure(project, 'include = ["memory_pool*.py"]\n')
    assert [f.code for f in _findings(project)] == ["LA001"]


def test_exclude_glob_on_relative_path(project: Path) -> None:
    _configure(project, 'exclude = ["sglang/srt/mem_cache/memory_pool_host.py"]\n')
    assert _findings(project) == []


def test_exclude_replaces_the_default_skipped_folders(project: Path) -> None:
    build = project / "build"
    shutil.copytree(project / "sglang", build / "sglang")
    (project / HOST).unlink()  # only the copy under build/ holds the buggy host now
    assert _findings(project) == []  # build/ is skipped by default
    _configure(project, "exclude = []\n")
    assert [f.code for f in _findings(project)] == ["LA001"]


def _git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(project), *args], check=True, capture_output=True)


def test_gitignored_files_are_skipped_unless_told_otherwise(project: Path) -> None:
    _git(project, "init", "-q")
    (project / ".gitignore").write_text("memory_pool_host.py\n")
    assert _findings(project) == []
    _configure(project, "respect-gitignore = false\n")
    assert [f.code for f in _findings(project)] == ["LA001"]


def test_configured_pairs_replace_the_annotation(project: Path) -> None:
    _configure(project, '[tool.layout-audit.pairs]\nMLATokenToKVPoolHost = ["MLATokenToKVPool"]\n')
    # the DeepSeek V4 pool (where the mismatch is) is no longer paired with this host
    assert _findings(project) == []
    _configure(
        project, '[tool.layout-audit.pairs]\nMLATokenToKVPoolHost = ["DeepSeekV4TokenToKVPool"]\n'
    )
    findings = _findings(project)
    assert [f.pairing for f in findings] == ["configured in [tool.layout-audit.pairs]"]


def test_configured_pair_naming_no_class_is_unresolved(project: Path) -> None:
    _configure(project, '[tool.layout-audit.pairs]\nMLATokenToKVPoolHost = ["NoSuchPool"]\n')
    result = audit([project], load_settings(find_config([project])))
    assert result.findings == []
    assert any("NoSuchPool" in item.unknown.reason for item in result.unresolved)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('respect-gitignore = "yes"\n', "respect-gitignore"),
        ("extend-exclude = 3\n", "extend-exclude"),
        ("pairs = 1\n", "pairs"),
        ("[tool.layout-audit.pairs]\nHost = [1]\n", "pairs.Host"),
        ("colour = 1\n", "colour"),
    ],
)
def test_bad_config_names_the_file_and_key(project: Path, text: str, expected: str) -> None:
    _configure(project, text)
    with pytest.raises(ConfigError) as error:
        load_settings(project / "pyproject.toml")
    assert "pyproject.toml" in str(error.value)
    assert expected in str(error.value)
