"""Stage 1: which files are audited, under which module names; nothing hangs or crashes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from auditor.frontend.discover import discover, module_name


def touch(root: Path, *relatives: str) -> None:
    for relative in relatives:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")


def audited(root: Path, *paths: Path) -> list[str]:
    files, problems = discover(list(paths) or [root])
    assert problems == []
    return [f.path.relative_to(root).as_posix() for f in files]


def test_finds_python_files_sorted_and_ignores_others(tmp_path):
    touch(tmp_path, "b.py", "a.py", "pkg/__init__.py", "pkg/z.py", "notes.txt", "script.pyc")
    assert audited(tmp_path) == ["a.py", "b.py", "pkg/__init__.py", "pkg/z.py"]


@pytest.mark.parametrize(
    "folder",
    [
        ".git",
        ".hg",
        "build",
        "dist",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        "node_modules",
        "site-packages",
        "layout_audit.egg-info",
        "pkg/build",
        "pkg/__pycache__",
    ],
)
def test_skips_vcs_build_and_cache_folders(tmp_path, folder):
    touch(tmp_path, "keep.py", f"{folder}/hidden.py", f"{folder}/deeper/hidden.py")
    assert audited(tmp_path) == ["keep.py"]


def test_skips_a_virtualenv_under_any_name(tmp_path):
    touch(tmp_path, "keep.py", "my-env/lib/python3.11/site.py", "my-env/bin/tool.py")
    (tmp_path / "my-env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    touch(tmp_path, "not-an-env/mod.py")
    assert audited(tmp_path) == ["keep.py", "not-an-env/mod.py"]


def test_a_file_named_directly_is_audited_even_in_a_skipped_folder(tmp_path):
    touch(tmp_path, "build/generated.py")
    files, problems = discover([tmp_path / "build" / "generated.py"])
    assert problems == []
    assert [f.path for f in files] == [tmp_path / "build" / "generated.py"]
    assert files[0].module == "generated"


def test_module_names_follow_the_folder_given(tmp_path):
    touch(tmp_path, "sglang/__init__.py", "sglang/srt/mem_cache/memory_pool.py")
    files, _ = discover([tmp_path])
    assert [f.module for f in files] == ["sglang", "sglang.srt.mem_cache.memory_pool"]
    assert all(f.root == tmp_path for f in files)
    files, _ = discover([tmp_path / "sglang" / "srt"])
    assert [f.module for f in files] == ["mem_cache.memory_pool"]


def test_module_name_of_a_package_init():
    root = Path("/r")
    assert module_name(Path("/r/a/b/__init__.py"), root) == "a.b"
    assert module_name(Path("/r/a/b/c.py"), root) == "a.b.c"
    assert module_name(Path("/r/__init__.py"), root) == "__init__"


def test_a_file_given_twice_is_audited_once(tmp_path):
    touch(tmp_path, "a.py")
    files, _ = discover([tmp_path / "a.py", tmp_path / "a.py", tmp_path])
    assert [f.path for f in files] == [tmp_path / "a.py"]


def test_a_missing_path_is_a_problem_not_an_exception(tmp_path):
    touch(tmp_path, "a.py")
    files, problems = discover([tmp_path / "missing", tmp_path])
    assert [f.path.name for f in files] == ["a.py"]
    assert problems == [(tmp_path / "missing", "no such file or directory")]


def test_symlink_loop_does_not_hang(tmp_path):
    touch(tmp_path, "pkg/a.py")
    os.symlink(tmp_path, tmp_path / "pkg" / "loop")
    os.symlink(tmp_path / "pkg", tmp_path / "pkg" / "self")
    os.symlink("x.py", tmp_path / "pkg" / "y.py")
    os.symlink("y.py", tmp_path / "pkg" / "x.py")
    started = time.perf_counter()
    files, problems = discover([tmp_path])
    assert time.perf_counter() - started < 5
    assert [f.path.relative_to(tmp_path).as_posix() for f in files] == ["pkg/a.py"]
    assert sorted(p.name for p, _ in problems) == ["x.py", "y.py"]
    assert all(why for _, why in problems)


def test_a_symlinked_root_is_walked(tmp_path):
    touch(tmp_path, "real/a.py")
    os.symlink(tmp_path / "real", tmp_path / "link")
    files, problems = discover([tmp_path / "link"])
    assert problems == []
    assert [f.module for f in files] == ["a"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_ending_in_py_is_not_opened(tmp_path):
    touch(tmp_path, "a.py")
    os.mkfifo(tmp_path / "pipe.py")
    files, problems = discover([tmp_path])
    assert [f.path.name for f in files] == ["a.py"]
    assert [(p.name, why) for p, why in problems] == [("pipe.py", "not a regular file")]
