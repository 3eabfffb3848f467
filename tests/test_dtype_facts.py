"""torch's dtype facts: read from the installed torch by a child process (or the cache), never
by importing torch in the audit's own process, and equal to what torch itself says."""

from __future__ import annotations

import copy
import os
import pickle
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import write_tree

from auditor import dtypes
from auditor.cli import main
from auditor.dtypes import TorchDtype, dtype_by_name, from_torch, read_facts, torch_module

REPO = Path(__file__).resolve().parent.parent
INCIDENT = REPO / "fixtures" / "incident_buggy"


def test_every_dtype_matches_torch() -> None:
    """What the child reports is what torch says of each dtype, aliases included."""
    torch = torch_module()
    dtypes.forget()
    dtypes.start_reading(None)
    assert "reader" in dtypes._state  # a child, not this process, reads them
    table = dtypes.facts()
    assert table == read_facts(torch)
    checked = 0
    for name in dir(torch):
        real = getattr(torch, name)
        if not isinstance(real, torch.dtype):
            continue
        ours = dtype_by_name(name)
        assert ours is from_torch(real) and ours == real and str(ours) == str(real)
        assert repr(ours) == repr(real)
        assert ours.itemsize == real.itemsize
        for flag in dtypes.FLAGS:
            try:
                expected = getattr(real, flag)
            except RuntimeError as error:
                with pytest.raises(RuntimeError, match=str(error)):
                    getattr(ours, flag)
            else:
                assert getattr(ours, flag) == expected
        checked += 1
    assert checked > 20
    assert dtype_by_name("half") is dtype_by_name("torch.float16")
    assert dtype_by_name("float9") is None  # not a dtype of this torch
    assert dtypes.default_dtype() == torch.get_default_dtype()
    info = dtype_by_name("bfloat16").info("finfo")
    assert info["max"] == torch.finfo(torch.bfloat16).max
    assert "error" in dtype_by_name("int32").info("finfo")


def test_a_dtype_is_one_value() -> None:
    """Copies and pickles keep `is` (the interpreter compares dtypes by identity too)."""
    value = TorchDtype("bfloat16")
    assert copy.deepcopy(value) is value and pickle.loads(pickle.dumps(value)) is value
    assert type(value).__name__ == "dtype"  # messages name torch's type
    with pytest.raises(AttributeError):
        value.name = "float16"


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from auditor import dtypes
    from auditor.cli import main

    started = []
    real = dtypes.subprocess.Popen
    def counting(command, *args, **kwargs):
        if "-I" in command:  # dtypes' child (not git, which discovery may ask)
            started.append(command)
        return real(command, *args, **kwargs)
    dtypes.subprocess.Popen = counting
    code = main(sys.argv[1:])
    print("children:", len(started))
    print("torch imported:", "torch" in sys.modules)
    """
)


def _run(arguments: list[str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def test_facts_from_the_cache_start_no_child(tmp_path: Path) -> None:
    """Cold: one child reads the facts, the audit's process never imports torch; the next run
    (another tree, same torch) finds them in the cache and starts none; --no-cache one."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for tree in ("a", "b"):
        for source in INCIDENT.rglob("*.py"):
            target = tmp_path / tree / source.relative_to(INCIDENT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    cold = _run(["--isolated", "a"], tmp_path)
    assert "children: 1" in cold and "torch imported: False" in cold
    assert "LA001" in cold
    warm = _run(["--isolated", "b"], tmp_path)
    assert "children: 0" in warm and "torch imported: False" in warm
    same = re.sub(r"\([0-9.]+s\)|children: \d", "", warm.replace("b/sglang", "a/sglang"))
    assert same == re.sub(r"\([0-9.]+s\)|children: \d", "", cold)
    uncached = _run(["--isolated", "--no-cache", "b"], tmp_path)
    assert "children: 1" in uncached and "torch imported: False" in uncached


def test_no_pool_starts_no_child(tmp_path: Path) -> None:
    write_tree(tmp_path, {"plain.py": "import torch\nx = torch.zeros(3)\n"})
    out = _run(["--isolated", "--no-cache", "plain.py"], tmp_path)
    assert "children: 0" in out and "torch imported: False" in out


def test_stored_facts_follow_the_installation(tmp_path: Path, monkeypatch) -> None:
    """The key names this torch: touching its version file makes another key."""
    fake = tmp_path / "site" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "version.py").write_text("__version__ = '9.9'\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "torch", raising=False)  # find_spec looks there first
    first = dtypes.installation_key()
    assert first is not None and first[0] == str(fake / "__init__.py")
    os.utime(fake / "version.py", ns=(1, 1))
    assert dtypes.installation_key() != first


def test_a_dtype_torch_lacks_stays_unresolved(tmp_path: Path, capsys) -> None:
    write_tree(
        tmp_path,
        {
            "pool.py": """
                import torch


                class KVPool:
                    def __init__(self, size, layer_num):
                        self.size = size
                        self.layer_num = layer_num
                        self.k_buffer = torch.zeros((layer_num, size, 8), dtype=torch.float9)
            """
        },
    )
    main(["--isolated", "--no-cache", "--show-unresolved", str(tmp_path)])
    out = capsys.readouterr().out
    assert "torch.float9: no such dtype in the installed torch" in out, out
