"""Shared helpers for the probe32 meta-device checks."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_LINE_RE = re.compile(r"^- (\w+): (\w+) (\d+) vs device (\d+)$")


def tree_dir(tree):
    return os.path.join(ROOT, tree)


def setup(tree):
    """Put the tree on sys.path so its package imports work."""
    path = tree_dir(tree)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def readme_figures(tree):
    """Return (label, {buffer: (side, other_bpt, device_bpt)}) from README.txt."""
    with open(os.path.join(tree_dir(tree), "README.txt")) as f:
        lines = [l.rstrip("\n") for l in f]
    first = lines[0]
    assert first.startswith(tree + " - "), first
    if first.endswith(". BUG."):
        label = "BUG"
    elif first.endswith(". CORRECT."):
        label = "CORRECT"
    else:
        raise AssertionError("bad first line: %r" % first)
    heads = {"Device class:": 0, "Other class:": 0, "Constructed:": 0, "Bug:": 0}
    figures = {}
    for line in lines[1:]:
        for h in heads:
            if line.startswith(h):
                heads[h] += 1
        if line.startswith("- "):
            m = _LINE_RE.match(line)
            assert m, "bad buffer line: %r" % line
            name, side, other, dev = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
            assert name not in figures, "duplicate buffer %s" % name
            figures[name] = (side, other, dev)
    for h in ("Device class:", "Other class:", "Constructed:"):
        assert heads[h] == 1, "missing/duplicate %r" % h
    assert heads["Bug:"] == (1 if label == "BUG" else 0), "Bug: line count"
    assert figures, "no buffer lines"
    return label, figures


def bpt(entries):
    """entries: iterable of (tensor, tokens, layers). All must agree on an integer
    bytes-per-token-per-layer value, which is returned."""
    vals = set()
    for t, tokens, layers in entries:
        nbytes = t.numel() * t.element_size()
        assert nbytes == t.nbytes
        denom = tokens * layers
        assert denom > 0 and nbytes % denom == 0, (tuple(t.shape), t.dtype, tokens, layers)
        vals.add(nbytes // denom)
    assert len(vals) == 1, "inconsistent bytes/token/layer: %s" % sorted(vals)
    return vals.pop()


def compare(tree, measured):
    label, figures = readme_figures(tree)
    assert set(measured) == set(figures), (sorted(measured), sorted(figures))
    any_diff = False
    for name, (other, dev) in sorted(measured.items()):
        side, r_other, r_dev = figures[name]
        print("%s: %s %d vs device %d (README %d vs %d)" % (name, side, other, dev, r_other, r_dev))
        assert (other, dev) == (r_other, r_dev), name
        any_diff |= other != dev
    assert any_diff == (label == "BUG"), "label %s but any_diff=%s" % (label, any_diff)
    print("OK")
