"""The pre-commit hook, for real: a `git commit` in a repository that uses it, one file staged.

A host mirror and its device pool live in different files. When only the host file is staged, the
hook must still load the device side; it does so by auditing the whole repository
(`pass_filenames: false`). pre-commit builds the hook's environment as it does for users (a
virtualenv with this project pip-installed, torch included): about half a minute, once per module,
in a store shared by the tests (PRE_COMMIT_HOME).

`pre-commit try-repo` is not used: it builds the environment in a temporary store of its own on
every call, whatever PRE_COMMIT_HOME says, and it leaves out untracked files of the hooks
repository. The config written below is the one try-repo writes (a local path and a commit).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pre_commit.clientlib import load_manifest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
HOST_FILE = "sglang/srt/mem_cache/memory_pool_host.py"
DEVICE_FILE = "sglang/srt/mem_cache/memory_pool.py"
TIMEOUT = 600  # seconds per command; building the hook environment takes about half a minute


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment for git and pre-commit: one pre-commit store for the module, and no user config.

    The store keeps the hook environment between tests and stays away from ~/.cache/pre-commit.
    GIT_* variables are dropped (pytest may itself run inside a git hook) and the user's and the
    system's git config are ignored (commit signing, `core.hooksPath`, templates).
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env["GIT_CONFIG_GLOBAL"] = os.devnull
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )


def _git(cwd: Path, env: dict[str, str], *args: str) -> str:
    done = _run(["git", *args], cwd, env)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stdout}{done.stderr}"
    return done.stdout


def _git_repo(path: Path, env: dict[str, str]) -> None:
    _git(path, env, "init", "-q")
    _git(path, env, "config", "user.name", "layout-audit tests")
    _git(path, env, "config", "user.email", "tests@layout-audit.invalid")


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> tuple[Path, str]:
    """This project's working tree, committed in a repository of its own: (path, commit).

    Every file git would see (tracked or untracked, less ignored ones) is copied, so the hook is
    tested as the working tree has it, uncommitted changes and new files included, and the
    project's own index is left alone.
    """
    listed = _git(ROOT, env, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    repo = tmp_path_factory.mktemp("hooks-repo")
    for name in sorted(set(filter(None, listed.split("\0")))):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            target = repo / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    assert (repo / ".pre-commit-hooks.yaml").is_file()
    _git_repo(repo, env)
    _git(repo, env, "add", "-A")
    _git(repo, env, "commit", "-q", "-m", "snapshot of the working tree")
    return repo, _git(repo, env, "rev-parse", "HEAD").strip()


def _engine_repo(
    fixture: str, path: Path, hooks_repo: tuple[Path, str], env: dict[str, str]
) -> None:
    """A repository using the hook, holding the fixture: all committed, then only the host file
    modified and staged."""
    hooks_path, rev = hooks_repo
    shutil.copytree(FIXTURES / fixture, path)
    (path / "pyproject.toml").write_text('[tool.layout-audit]\nrule-packs = ["sglang"]\n')
    (path / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"-   repo: {hooks_path}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "    -   id: layout-audit\n"
        "        verbose: true\n"  # show the auditor's output when it passes too
        # as the README says: the CPU build; the project's torch range alone pulls CUDA
        "        additional_dependencies: [torch==2.13.0]\n"
    )
    _git_repo(path, env)
    _git(path, env, "add", "-A")
    _git(path, env, "commit", "-q", "-m", "serving engine")
    host = path / HOST_FILE
    host.write_text(host.read_text() + "\n# HiCache: an edit of the host mirror only\n")
    _git(path, env, "add", HOST_FILE)
    assert _git(path, env, "diff", "--cached", "--name-only").split() == [HOST_FILE]
    installed = _run([sys.executable, "-m", "pre_commit", "install"], path, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr


def _commit(path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = dict(env, PRE_COMMIT_COLOR="never")
    return _run(["git", "commit", "-m", "HiCache: touch the host mirror"], path, env)


def _commits(path: Path, env: dict[str, str]) -> int:
    return int(_git(path, env, "rev-list", "--count", "HEAD"))


def test_manifest_audits_the_whole_repository() -> None:
    (hook,) = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "layout-audit"
    assert hook["entry"] == "layout-audit"
    assert hook["language"] == "python"
    assert hook["types"] == ["python"]
    assert hook["pass_filenames"] is False
    assert hook["require_serial"] is True
    assert hook["args"] == []


def test_commit_of_the_host_file_alone_is_refused_on_the_incident(
    hooks_repo: tuple[Path, str], env: dict[str, str], tmp_path: Path
) -> None:
    repo = tmp_path / "engine"
    _engine_repo("incident_buggy", repo, hooks_repo, env)

    # The premise: the staged file on its own has no device pool, so nothing to compare with.
    alone = _run([sys.executable, "-m", "auditor", HOST_FILE], repo, env)
    assert "LA001" not in alone.stdout + alone.stderr, alone.stdout + alone.stderr

    done = _commit(repo, env)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert re.search(r"^layout-audit\.+Failed$", output, re.MULTILINE), output
    assert "- hook id: layout-audit" in output
    assert "- exit code: 1" in output
    assert f"{HOST_FILE}:96:16: LA001 index_k_with_scale_buffer" in output
    assert "132 B/token/layer vs 256 B/token/layer" in output
    assert f"device side: {DEVICE_FILE}:" in output
    assert _commits(repo, env) == 1  # refused: the change is still staged, not committed


def test_commit_of_the_host_file_alone_goes_through_on_the_fix(
    hooks_repo: tuple[Path, str], env: dict[str, str], tmp_path: Path
) -> None:
    repo = tmp_path / "engine"
    _engine_repo("incident_fixed", repo, hooks_repo, env)

    done = _commit(repo, env)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(r"^layout-audit\.+Passed$", output, re.MULTILINE), output
    assert "LA001" not in output
    # The auditor's summary (shown with `verbose: true`): both files were read and paired.
    assert re.search(r"\b0 findings\b", output), output
    assert re.search(r"\b2 pairs\b", output), output
    assert _commits(repo, env) == 2


def test_try_repo_fails_with_la001_when_only_the_host_file_is_staged(
    hooks_repo: tuple[Path, str], env: dict[str, str], tmp_path: Path
) -> None:
    """`pre-commit try-repo` as a user would run it before adopting the hook (it builds its
    own hook environment, so this test pays for one more build)."""
    repo = tmp_path / "engine"
    _engine_repo("incident_buggy", repo, hooks_repo, env)
    hooks_path, rev = hooks_repo
    # try-repo takes no additional_dependencies: a constraints file keeps torch to the CPU build
    # (as the README says; pip reads PIP_CONSTRAINT, and the machine's own file is kept)
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("torch==2.13.0\n")
    machine = [env["PIP_CONSTRAINT"]] if env.get("PIP_CONSTRAINT") else []
    machine += [str(p) for p in [Path("/etc/xdg/pip/constraints.txt")] if p.is_file()]
    env = dict(env, PIP_CONSTRAINT=" ".join([*machine, str(constraints)]))
    done = _run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(hooks_path),
            "layout-audit",
            "--ref",
            rev,
            "--verbose",
            "--color",
            "never",
        ],
        repo,
        env,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert f"{HOST_FILE}:96:16: LA001 index_k_with_scale_buffer" in output
    assert "132 B/token/layer vs 256 B/token/layer" in output


def test_hook_with_a_baseline_passes_known_findings_and_blocks_a_new_one(
    hooks_repo: tuple[Path, str], env: dict[str, str], tmp_path: Path
) -> None:
    """Adoption on a tree with a finding: baseline it, commit through the hook, then break the
    buffer further: the hook blocks with the new disagreement only."""
    repo = tmp_path / "engine"
    _engine_repo("incident_buggy", repo, hooks_repo, env)
    written = _run(
        [sys.executable, "-m", "auditor", ".", "--write-baseline", "layout-audit-baseline.json"],
        repo,
        env,
    )
    assert written.returncode == 0, written.stderr
    (repo / "pyproject.toml").write_text(
        '[tool.layout-audit]\nrule-packs = ["sglang"]\nbaseline = "layout-audit-baseline.json"\n'
    )
    _git(repo, env, "add", "-A")
    done = _commit(repo, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 known finding not shown" in done.stdout + done.stderr

    host = repo / HOST_FILE
    host.write_text(host.read_text().replace("quant_block_size * 4", "quant_block_size * 8"))
    _git(repo, env, "add", HOST_FILE)
    done = _commit(repo, env)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert len(re.findall(r"^\S+:\d+:\d+: LA001 ", output, re.MULTILINE)) == 1, output
    assert "136 B/token/layer vs 132 B/token/layer" in output
    assert "1 stale entry" in output
    assert _commits(repo, env) == 2
