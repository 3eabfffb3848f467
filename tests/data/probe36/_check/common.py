"""Shared helpers for the meta-device probe checks."""
import os
import re
import sys
import warnings

warnings.filterwarnings("ignore")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE_RE = re.compile(r"^- (\w+): (\w+) (\d+) vs device (\d+)$")


def setup(tree):
    path = os.path.join(ROOT, tree)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def readme_figures(tree):
    with open(os.path.join(ROOT, tree, "README.txt")) as f:
        lines = [l.rstrip("\n") for l in f]
    first = lines[0]
    assert first.startswith(tree + " - "), first
    if first.endswith(". BUG."):
        label = "BUG"
    elif first.endswith(". CORRECT."):
        label = "CORRECT"
    else:
        raise AssertionError("bad first line: " + first)
    heads = {"Device class:": 0, "Other class:": 0, "Constructed:": 0, "Bug:": 0}
    figures = {}
    for line in lines[1:]:
        for h in heads:
            if line.startswith(h):
                heads[h] += 1
        m = LINE_RE.match(line)
        if m:
            name, side, other, dev = m.groups()
            assert name not in figures, name
            figures[name] = (side, int(other), int(dev))
        elif line.startswith("- "):
            raise AssertionError("bad buffer line: " + line)
    for h in ("Device class:", "Other class:", "Constructed:"):
        assert heads[h] == 1, h
    assert heads["Bug:"] == (1 if label == "BUG" else 0), "Bug line count"
    assert figures, "no buffer lines"
    return label, figures


def bpt(entries):
    """entries: iterable of (tensor, tokens, layers); all must agree on an integer figure."""
    values = set()
    for t, tokens, layers in entries:
        n = t.nbytes
        assert n % (tokens * layers) == 0, (n, tokens, layers)
        values.add(n // (tokens * layers))
    assert len(values) == 1, values
    return values.pop()


def compare(tree, measured):
    label, figures = readme_figures(tree)
    assert set(measured) == set(figures), (sorted(measured), sorted(figures))
    differs = False
    for name, (other, dev) in sorted(measured.items()):
        side, r_other, r_dev = figures[name]
        print(f"{tree} {name}: {side} {other} vs device {dev} (README {r_other} vs {r_dev})")
        assert (other, dev) == (r_other, r_dev), name
        differs |= other != dev
    assert differs == (label == "BUG"), (label, differs)
    print("OK")
