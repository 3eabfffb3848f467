"""Shared checks of the probe28 and probe29 trees: each check_*.py builds both sides through the
tree's own construction function on torch's meta device, then `verify` measures bytes per token
per layer of each buffer pair and asserts the tree's README figures and verdict. The trees are
those beside the folder of the check run (probe29's checks load this file)."""
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(sys.argv[0]))  # the check's _check folder


def use_tree(tree):
    """Put the tree on sys.path; its folder."""
    root = os.path.join(HERE, "..", tree)
    sys.path.insert(0, root)
    return root


def per_token_layer(buf, tokens, layers):
    """Bytes per token per layer; a missing buffer (None) counts as 0 bytes."""
    if buf is None:
        return 0
    tensors = list(buf) if isinstance(buf, (list, tuple)) else [buf]
    for t in tensors:
        assert t.device.type == "meta", t.device
    total = sum(t.nbytes for t in tensors)
    assert total % (tokens * layers) == 0, (total, tokens, layers)
    return total // (tokens * layers)


def verify(tree, dev, mir, region, layers, dev_tokens, mir_tokens, side, pairs, expected,
           expect_verdict):
    """Measure each (device buffer, mirror buffer) pair and check the README says the same."""
    root = os.path.join(HERE, "..", tree)
    if region is not None:
        assert region.dtype == torch.uint8 and region.dim() == 1 and region.device.type == "meta"
    measured = {}
    for dev_attr, mir_attr in pairs.items():
        d = per_token_layer(getattr(dev, dev_attr), dev_tokens, layers)
        m = per_token_layer(getattr(mir, mir_attr), mir_tokens, layers)
        measured[dev_attr] = (m, d)
        print(f"{dev_attr}: {side} {m} vs device {d}")

    with open(os.path.join(root, "README.txt")) as fh:
        lines = fh.read().splitlines()
    assert lines[0].startswith(tree + " - ")
    verdict = "BUG" if lines[0].endswith(". BUG.") else "CORRECT"
    assert verdict == expect_verdict, verdict
    assert lines[1].startswith("Device class: " + type(dev).__name__ + " (")
    assert lines[2].startswith("Other class: " + type(mir).__name__ + " (")
    assert lines[3].startswith("Constructed: ")
    for ln in lines[1:3]:
        path = re.search(r"\(([^)]+\.py)\)", ln).group(1)
        assert os.path.isfile(os.path.join(root, path)), path
    assert os.path.isfile(os.path.join(root, lines[3].rsplit(" in ", 1)[1]))

    rows = {}
    for ln in lines[4:]:
        mt = re.fullmatch(r"- (\w+): (\w+) (\d+) vs device (\d+)", ln)
        if mt:
            assert mt.group(2) == side
            rows[mt.group(1)] = (int(mt.group(3)), int(mt.group(4)))
    assert rows == measured, (rows, measured)
    assert rows == expected, (rows, expected)

    bad = [k for k, (m, d) in measured.items() if m != d]
    if verdict == "BUG":
        assert len(bad) == 1, bad
        mt = re.fullmatch(
            r"Bug: buffer `(\w+)` - .+: (\w+) (\d+) vs device (\d+) bytes per token per layer\.",
            lines[4],
        )
        assert mt, lines[4]
        assert mt.group(1) == bad[0] and mt.group(2) == side
        assert (int(mt.group(3)), int(mt.group(4))) == measured[bad[0]]
    else:
        assert not bad, bad
    print("OK")
