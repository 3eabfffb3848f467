import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_LINE = re.compile(r"^- (\S+): (\S+) (\d+) vs device (\d+)\s*$")


def setup(tree):
    path = os.path.join(ROOT, tree)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def readme_figures(tree):
    """{buffer: (side, other_bpt, device_bpt)} from the tree's README."""
    out = {}
    with open(os.path.join(ROOT, tree, "README.txt")) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith(tree + " - "), lines[0]
    assert lines[0].endswith(". BUG.") or lines[0].endswith(". CORRECT."), lines[0]
    for line in lines:
        m = _LINE.match(line)
        if m:
            out[m.group(1)] = (m.group(2), int(m.group(3)), int(m.group(4)))
    assert out, "no buffer lines in README"
    return out


def bpt(entries):
    """entries: iterable of (tensor, tokens, layers). Every entry must agree."""
    vals = set()
    for t, tokens, layers in entries:
        total = t.nbytes
        denom = tokens * layers
        assert total % denom == 0, (tuple(t.shape), t.dtype, tokens, layers)
        vals.add(total // denom)
    assert len(vals) == 1, vals
    return vals.pop()


def compare(tree, measured):
    """measured: {buffer: (other_bpt, device_bpt)}"""
    fig = readme_figures(tree)
    assert set(fig) == set(measured), (sorted(fig), sorted(measured))
    for name, (other, dev) in measured.items():
        side, r_other, r_dev = fig[name]
        print(f"{tree} {name}: {side} {other} (README {r_other}) vs device {dev} (README {r_dev})")
        assert other == r_other and dev == r_dev, name
    is_bug = any(o != d for o, d in measured.values())
    with open(os.path.join(ROOT, tree, "README.txt")) as f:
        first = f.readline().rstrip("\n")
    assert first.endswith(". BUG.") == is_bug, (first, is_bug)
    print("OK")
