"""Long runs on a terminal: a progress line (on a TTY only, after a second), and Ctrl-C that
ends the run at once with one line, exit 130, and a cache that later runs can still trust.

Both run the real command in a child process: the progress line on a pseudo-terminal, the
interrupt with a real SIGINT."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import write_tree

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("POSIX signals and pseudo-terminals", allow_module_level=True)

DEVICE = """
    import torch

    class KVCache:
        def __init__(self, size, layer_num, a, b, c):
            width = a * 3 + b * 5 + c
            self.k_buffer = [
                torch.zeros((size + 1, width), dtype=torch.bfloat16) for _ in range(layer_num)
            ]
"""


def _slow_tree(root: Path, values: int) -> Path:
    """One pool over values**3 config points: seconds of work, all in the evaluation stage."""
    listed = list(range(1, values + 1))
    write_tree(
        root,
        {
            "pools/device.py": DEVICE,
            "pyproject.toml": f"[tool.layout-audit.matrix]\na = {listed}\nb = {listed}\nc = {listed}\n",
        },
    )
    return root


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "auditor", ".", *args]


def _interrupts_as_a_terminal_gives_them() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _on_a_terminal(tree: Path, stdout: int, *args: str) -> tuple[int, subprocess.Popen]:
    """The command with its stderr on a pseudo-terminal: (the terminal's master end, it)."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        _command(*args),
        cwd=tree,
        stdout=stdout,
        stderr=slave,
        env=dict(os.environ, TERM="xterm", LAYOUT_AUDIT_CACHE_ROOT=str(tree)),
        # as from a shell's foreground: a run started with `&` inherits SIGINT ignored, and
        # Python then installs no KeyboardInterrupt handler in the child
        preexec_fn=_interrupts_as_a_terminal_gives_them,
    )
    os.close(slave)
    return master, process


def test_ctrl_c_exits_130_fast_with_one_line_and_the_cache_stays_whole(tmp_path: Path) -> None:
    """SIGINT once the child is evaluating (its progress line, on a pseudo-terminal, counts
    config points), then a rerun with the cache it left gives the answer of no cache."""
    tree = _slow_tree(tmp_path / "engine", 16)
    master, process = _on_a_terminal(tree, subprocess.PIPE)
    try:
        seen = b""
        deadline = time.monotonic() + 300
        while b" config points" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                seen += os.read(master, 65536)
            assert process.poll() is None, seen.decode()
        assert b" config points" in seen
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        elapsed = time.monotonic() - sent
        seen += _read_pty(master, process, timeout=5)
    finally:
        os.close(master)
    err = seen.decode()
    assert process.returncode == 130, err
    assert elapsed < 0.5, f"{elapsed:.2f} s to exit"
    assert "Traceback" not in err
    assert err.rsplit("\x1b[K", 1)[1] == "layout-audit: interrupted\r\n", err[-300:]
    assert process.stdout is not None and process.stdout.read() == b""
    assert list((tree / ".layout_audit_cache").rglob(".tmp-*")) == []

    # what the interrupted run left in the cache gives the same answer as no cache at all
    small = tree / "pyproject.toml"
    small.write_text(small.read_text().replace(", 9, 10, 11, 12, 13, 14, 15, 16", ""))
    in_tree = dict(os.environ, LAYOUT_AUDIT_CACHE_ROOT=str(tree))  # the cache it left
    cached = subprocess.run(
        _command(), cwd=tree, env=in_tree, capture_output=True, text=True, timeout=600
    )
    fresh = subprocess.run(
        _command("--no-cache"), cwd=tree, capture_output=True, text=True, timeout=600
    )
    assert cached.returncode == fresh.returncode == 0, cached.stderr + fresh.stderr
    assert cached.stdout == fresh.stdout
    assert cached.stderr.split(" (")[0] == fresh.stderr.split(" (")[0]


def _read_pty(master: int, process: subprocess.Popen, timeout: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif process.poll() is not None:
            break
    return seen


def test_progress_line_on_a_terminal_only(tmp_path: Path) -> None:
    tree = _slow_tree(tmp_path / "engine", 8)
    master, process = _on_a_terminal(tree, subprocess.DEVNULL, "--no-cache")
    try:
        shown = _read_pty(master, process, timeout=600).decode()
    finally:
        os.close(master)
    assert process.wait(timeout=60) == 0
    assert "\rlayout-audit: 1 files · 1 pools · 0 pairs · " in shown, shown
    assert " config points\x1b[K" in shown
    # the line is cleared before the report (here a "no host pool" warning, then the summary)
    final = shown.rsplit("\r\x1b[K", 1)[1]
    assert "Found 0 findings" in final and "\rlayout-audit: 1 files" not in final, final
    assert "512 config points" in shown.rsplit("Found", 1)[1]

    piped = subprocess.run(
        _command("--no-cache"), cwd=tree, capture_output=True, text=True, timeout=600
    )
    assert "\r" not in piped.stderr and "\x1b" not in piped.stderr
    assert "Found 0 findings" in piped.stderr and "layout-audit: 1 files" not in piped.stderr
