"""Shared oracle helpers for the probe22 check scripts."""
import os
import warnings
import re
import sys

warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_BUG_RE = re.compile(
    r"^Bug: buffer `([^`]+)` - .+: ([a-z]+) (\d+) vs device (\d+) bytes per token per layer\.$")
_BUF_RE = re.compile(r"^- ([A-Za-z0-9_.\[\]]+): ([a-z]+) (\d+) vs device (\d+)$")


def tree_path(name):
    p = os.path.join(ROOT, name)
    if p not in sys.path:
        sys.path.insert(0, p)
    return p


def bpt(tensors, tokens, layers):
    """Sum of nbytes over tensors / (tokens * layers); must divide exactly."""
    if not isinstance(tensors, (list, tuple)):
        tensors = [tensors]
    total = sum(int(t.nbytes) for t in tensors)
    assert tokens > 0 and layers > 0, (tokens, layers)
    assert total % (tokens * layers) == 0, (total, tokens, layers)
    return total // (tokens * layers)


def parse_readme(name):
    with open(os.path.join(ROOT, name, "README.txt")) as f:
        lines = [ln.rstrip("\n") for ln in f]
    first = lines[0]
    assert first.startswith(name + " - "), first
    if first.endswith(" BUG."):
        verdict = "BUG"
    elif first.endswith(" CORRECT."):
        verdict = "CORRECT"
    else:
        raise AssertionError("bad first line: " + first)
    assert lines[1].startswith("Device class: "), lines[1]
    assert lines[2].startswith("Other class: "), lines[2]
    assert lines[3].startswith("Constructed: "), lines[3]
    bug = None
    bufs = {}
    side = None
    for ln in lines[4:]:
        if not ln.strip():
            continue
        m = _BUG_RE.match(ln)
        if m:
            assert bug is None, "two Bug lines"
            bug = (m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))
            continue
        m = _BUF_RE.match(ln)
        assert m, "unparsable README line: %r" % ln
        if side is None:
            side = m.group(2)
        assert m.group(2) == side, "inconsistent side word"
        bufs[m.group(1)] = (int(m.group(3)), int(m.group(4)))
    if verdict == "BUG":
        assert bug is not None, "BUG tree without Bug line"
        assert bug[1] == side, "Bug side differs from buffer lines"
        assert bufs[bug[0]] == (bug[2], bug[3]), "Bug line disagrees with buffer line"
    else:
        assert bug is None, "CORRECT tree with Bug line"
    return verdict, bug, bufs


def verify(name, device_bpt, mirror_bpt):
    verdict, bug, bufs = parse_readme(name)
    print("%s: device %s" % (name, device_bpt))
    print("%s: mirror %s" % (name, mirror_bpt))
    assert set(bufs) == set(mirror_bpt), (sorted(bufs), sorted(mirror_bpt))
    for b, (a, d) in bufs.items():
        assert b in device_bpt, "buffer %s not measured on device" % b
        assert mirror_bpt[b] == a, (b, "mirror", mirror_bpt[b], "README", a)
        assert device_bpt[b] == d, (b, "device", device_bpt[b], "README", d)
    differing = sorted(b for b in mirror_bpt if mirror_bpt[b] != device_bpt[b])
    if verdict == "BUG":
        assert differing == [bug[0]], ("differing buffers", differing, "expected", bug[0])
    else:
        assert differing == [], ("differing buffers in CORRECT tree", differing)
    print("OK")
