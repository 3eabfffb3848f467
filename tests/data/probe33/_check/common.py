"""Shared helpers for the probe33 meta-device checks."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_LINE1 = re.compile(r"^(r\d\d) - .*\. (BUG|CORRECT)\.$")
_BUF = re.compile(r"^- (\S+): (\w+) (\d+) vs device (\d+)$")


def tree_dir(tree):
    return os.path.join(ROOT, tree)


def setup(tree):
    path = tree_dir(tree)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def readme_figures(tree):
    """Parse README.txt -> {'label': 'BUG'|'CORRECT', 'buffers': {name: (other, device)}, 'side': {name: side}}."""
    with open(os.path.join(tree_dir(tree), "README.txt")) as f:
        lines = [ln.rstrip("\n") for ln in f]
    m = _LINE1.match(lines[0])
    assert m, "bad README line 1: %r" % lines[0]
    assert m.group(1) == tree, (m.group(1), tree)
    label = m.group(2)
    for prefix in ("Device class: ", "Other class: ", "Constructed: "):
        assert any(ln.startswith(prefix) for ln in lines), "missing %r" % prefix
    has_bug_line = any(ln.startswith("Bug: ") for ln in lines)
    assert has_bug_line == (label == "BUG"), "Bug: line presence does not match label"
    buffers, sides = {}, {}
    for ln in lines[1:]:
        if ln.startswith("- "):
            b = _BUF.match(ln)
            assert b, "bad buffer line: %r" % ln
            assert b.group(1) not in buffers, "duplicate buffer %s" % b.group(1)
            buffers[b.group(1)] = (int(b.group(3)), int(b.group(4)))
            sides[b.group(1)] = b.group(2)
    assert buffers, "no buffer lines"
    return {"label": label, "buffers": buffers, "side": sides}


def bpt(entries):
    """entries: iterable of (tensor, tokens, layers). Every entry must give the same integer bytes/token/layer."""
    entries = list(entries)
    assert entries, "no entries"
    vals = set()
    for tensor, tokens, layers in entries:
        nbytes = tensor.nbytes
        denom = int(tokens) * int(layers)
        assert denom > 0 and nbytes % denom == 0, (tuple(tensor.shape), tensor.dtype, tokens, layers)
        vals.add(nbytes // denom)
    assert len(vals) == 1, "inconsistent bytes/token/layer: %s" % sorted(vals)
    return vals.pop()


def assert_device(tensors, device):
    for t in tensors:
        assert t.device.type == device, (t.device, device)


def compare(tree, measured):
    fig = readme_figures(tree)
    exp = fig["buffers"]
    for name, pair in sorted(measured.items()):
        print("%s %-28s other %6d  device %6d" % (tree, name, pair[0], pair[1]))
    assert set(measured) == set(exp), ("buffer set", sorted(measured), sorted(exp))
    for name, (other, dev) in measured.items():
        assert (other, dev) == exp[name], (name, (other, dev), exp[name])
    any_diff = any(o != d for o, d in measured.values())
    assert any_diff == (fig["label"] == "BUG"), ("label", fig["label"], any_diff)
    print("OK")
