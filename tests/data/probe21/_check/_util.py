"""Shared helpers for the probe21 checks."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^- (\S+): (\w+) (\d+) vs device (\d+)$")
BUG = re.compile(r"^Bug: buffer `([^`]+)` - .+: (\w+) (\d+) vs device (\d+) bytes per token per layer\.$")


def bptl(t, tokens, layers=1):
    """Bytes per token per layer of a tensor (or list of per-layer tensors)."""
    total = sum(x.nbytes for x in t) if isinstance(t, (list, tuple)) else t.nbytes
    assert total % (tokens * layers) == 0, (total, tokens, layers)
    return total // (tokens * layers)


def verify(tree, side, figures):
    """figures: {label: (side_bytes, device_bytes)} measured from real tensors."""
    lines = (ROOT / tree / "README.txt").read_text().splitlines()
    first = lines[0]
    assert first.startswith(f"{tree} - "), first
    buggy = first.endswith(" BUG.")
    assert buggy or first.endswith(" CORRECT."), first
    listed, bug = {}, None
    for ln in lines:
        m = LINE.match(ln)
        if m:
            assert m.group(2) == side, ln
            listed[m.group(1)] = (int(m.group(3)), int(m.group(4)))
        m = BUG.match(ln)
        if m:
            assert bug is None
            bug = (m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))
    assert listed == figures, (listed, figures)
    mismatched = sorted(k for k, (a, b) in figures.items() if a != b)
    if buggy:
        assert bug is not None, "missing Bug line"
        assert mismatched == [bug[0]], (mismatched, bug)
        assert bug[1] == side and figures[bug[0]] == (bug[2], bug[3]), (bug, figures)
    else:
        assert bug is None and not mismatched, (bug, mismatched)
    print(f"OK {tree}")
