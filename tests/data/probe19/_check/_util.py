"""Shared helpers for the probe19 checks."""
import re
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent


def add_tree(name: str) -> Path:
    path = ROOT / name
    sys.path.insert(0, str(path))
    return path


def _tensors(x):
    if x is None:
        return []
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, dict):
        x = list(x.values())
    out = []
    for item in x:
        out.extend(_tensors(item))
    return out


def total_nbytes(x) -> int:
    ts = _tensors(x)
    for t in ts:
        assert t.device.type == "meta", f"tensor not on meta: {t.device}"
    return sum(t.nbytes for t in ts)


def per_token_layer(x, tokens: int, layers: int) -> int:
    total = total_nbytes(x)
    q, r = divmod(total, tokens * layers)
    assert r == 0, (total, tokens, layers)
    return q


LINE = re.compile(r"^- (.+?): (\w+) (\d+) vs device (\d+)$")
BUG = re.compile(r"^Bug: buffer `([^`]+)` - .*: (\w+) (\d+) vs device (\d+) bytes per token per layer\.$")


def verify(name: str, computed: dict):
    """computed: label -> (other_side_bytes, device_bytes). Asserts README agrees."""
    lines = (ROOT / name / "README.txt").read_text().splitlines()
    first = lines[0]
    assert first.startswith(f"{name} - "), first
    assert first.endswith(" BUG.") or first.endswith(" CORRECT."), first
    buggy = first.endswith(" BUG.")
    readme = {}
    bugs = []
    for ln in lines[1:]:
        m = LINE.match(ln)
        if m:
            readme[m.group(1)] = (int(m.group(3)), int(m.group(4)))
        m = BUG.match(ln)
        if m:
            bugs.append((m.group(1), int(m.group(3)), int(m.group(4))))
        if ln.startswith("Bug:"):
            assert m, f"malformed bug line: {ln}"
    assert readme == computed, f"README {readme} != computed {computed}"
    differing = [k for k, (o, d) in computed.items() if o != d]
    if buggy:
        assert len(bugs) == 1, bugs
        assert len(differing) == 1, differing
        attr, other, dev = bugs[0]
        label = differing[0]
        assert label.split()[0].split("[")[0] == attr, (label, attr)
        assert computed[label] == (other, dev), (computed[label], other, dev)
    else:
        assert not bugs and not differing, (bugs, differing)
    print(f"OK {name}")
