"""Shared helpers for the probe23 oracle checks."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_BUG_RE = re.compile(
    r"^Bug: buffer `([^`]+)` - (.+): (\w+) (\d+) vs device (\d+) bytes per token per layer\.$")
_BUF_RE = re.compile(r"^- (\S+): (\w+) (\d+) vs device (\d+)$")


def tree(name):
    """Put /work/probe23/<name> on sys.path and return its path."""
    path = os.path.join(ROOT, name)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def parse_readme(name):
    with open(os.path.join(ROOT, name, "README.txt")) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    head = lines[0]
    assert head.startswith(name + " - "), head
    assert head.endswith(" BUG.") or head.endswith(" CORRECT."), head
    is_bug = head.endswith(" BUG.")
    assert lines[1].startswith("Device class: "), lines[1]
    assert lines[2].startswith("Other class: "), lines[2]
    assert lines[3].startswith("Constructed: "), lines[3]
    rest = lines[4:]
    bug = None
    if rest and rest[0].startswith("Bug: "):
        m = _BUG_RE.match(rest[0])
        assert m, "bad Bug line: " + rest[0]
        bug = (m.group(1), m.group(3), int(m.group(4)), int(m.group(5)))
        rest = rest[1:]
    assert is_bug == (bug is not None), "Bug line presence must match BUG/CORRECT"
    bufs = {}
    sides = set()
    for l in rest:
        m = _BUF_RE.match(l)
        assert m, "bad buffer line: " + l
        bufs[m.group(1)] = (int(m.group(3)), int(m.group(4)))
        sides.add(m.group(2))
    assert bufs, "no buffer lines"
    assert len(sides) == 1, sides
    side = sides.pop()
    if bug:
        assert bug[1] == side, (bug, side)
        assert bug[0] in bufs and bufs[bug[0]] == (bug[2], bug[3]), (bug, bufs)
    return is_bug, bug, side, bufs


def per_token_per_layer(tensors, tokens, layers):
    """tensors: tensor or iterable of tensors jointly covering `layers` layers."""
    if hasattr(tensors, "nbytes"):
        tensors = [tensors]
    total = sum(int(t.nbytes) for t in tensors)
    denom = tokens * layers
    assert denom > 0 and total % denom == 0, (total, tokens, layers)
    return total // denom


def verify(name, measured):
    """measured: {buffer: (mirror_bytes_per_token_per_layer, device_bytes_...)}"""
    is_bug, bug, side, bufs = parse_readme(name)
    assert set(measured) == set(bufs), (sorted(measured), sorted(bufs))
    for k, v in measured.items():
        assert tuple(v) == bufs[k], f"{name}: buffer {k}: measured {v} README {bufs[k]}"
    differing = {k for k, (a, b) in measured.items() if a != b}
    if is_bug:
        assert differing == {bug[0]}, (differing, bug)
    else:
        assert not differing, differing
    for k in sorted(measured):
        a, b = measured[k]
        print(f"  {k}: {side} {a} vs device {b}")
    print(f"{name} OK ({'BUG' if is_bug else 'CORRECT'})")
