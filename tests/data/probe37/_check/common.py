import os, re, sys, warnings
warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE_RE = re.compile(r"^- (\w+): (\w+) (\d+) vs device (\d+)$")

_HEAD_RE = r"^{tree} - .+\. (BUG|CORRECT)\.$"
_DEVICE_RE = re.compile(r"^Device class: (\w+) \(([\w./]+\.py)\)$")
_OTHER_RE = re.compile(r"^Other class: (\w+) \(([\w./]+\.py)\), (\w+)$")
_CONSTRUCTED_RE = re.compile(r"^Constructed: (\w+) in ([\w./]+\.py)$")
_BUG_RE = re.compile(r"^Bug: \S.*$")


def setup(tree):
    """Make the tree importable (and keep it free of __pycache__)."""
    sys.dont_write_bytecode = True
    path = os.path.join(ROOT, tree)
    if path not in sys.path:
        sys.path.insert(0, path)


def _defines(tree, rel, kind, name):
    with open(os.path.join(ROOT, tree, rel)) as f:
        src = f.read()
    return re.search(r"^\s*%s %s\b" % (kind, re.escape(name)), src, re.M) is not None


def readme_figures(tree):
    with open(os.path.join(ROOT, tree, "README.txt")) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    head = re.match(_HEAD_RE.format(tree=re.escape(tree)), lines[0])
    assert head, "bad first line: %r" % lines[0]
    label = head.group(1)
    dev, other, cons, bug, figures = [], [], [], [], {}
    for line in lines[1:]:
        if line.startswith("Device class:"):
            m = _DEVICE_RE.match(line); assert m, line; dev.append(m)
        elif line.startswith("Other class:"):
            m = _OTHER_RE.match(line); assert m, line; other.append(m)
        elif line.startswith("Constructed:"):
            m = _CONSTRUCTED_RE.match(line); assert m, line; cons.append(m)
        elif line.startswith("Bug:"):
            m = _BUG_RE.match(line); assert m, line; bug.append(m)
        elif line.startswith("- "):
            m = LINE_RE.match(line); assert m, "bad buffer line: %r" % line
            name, role, o, d = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
            assert name not in figures, "duplicate buffer %s" % name
            figures[name] = (role, o, d)
        else:
            raise AssertionError("unexpected README line: %r" % line)
    assert len(dev) == 1 and len(other) == 1 and len(cons) == 1, "need exactly one Device/Other/Constructed line"
    assert len(bug) == (1 if label == "BUG" else 0), "Bug line iff BUG"
    assert figures, "no buffer lines"
    assert _defines(tree, dev[0].group(2), "class", dev[0].group(1)), "device class not found"
    assert _defines(tree, other[0].group(2), "class", other[0].group(1)), "other class not found"
    assert _defines(tree, cons[0].group(2), "def", cons[0].group(1)), "construction function not found"
    role = other[0].group(3)
    assert all(r == role for r, _, _ in figures.values()), "role word mismatch"
    return label, figures


def _nbytes(x):
    if isinstance(x, dict):
        return sum(_nbytes(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return sum(_nbytes(v) for v in x)
    assert x.is_meta, "tensor not on meta device"
    return x.nbytes


def bpt(entries):
    """entries: (tensor | list/tuple/dict of tensors, tokens, layers) -> bytes per token per layer."""
    vals = []
    for t, tokens, layers in entries:
        n = _nbytes(t)
        d = tokens * layers
        assert d > 0 and n % d == 0, "nbytes %d not divisible by tokens*layers %d" % (n, d)
        vals.append(n // d)
    assert vals and len(set(vals)) == 1, "entries disagree: %r" % vals
    return vals[0]


def compare(tree, measured):
    label, figures = readme_figures(tree)
    assert set(measured) == set(figures), "buffer names differ: %r vs %r" % (sorted(measured), sorted(figures))
    for name, (other, dev) in measured.items():
        _, o, d = figures[name]
        assert (other, dev) == (o, d), "%s: measured %d vs %d, README %d vs %d" % (name, other, dev, o, d)
    differ = any(o != d for o, d in measured.values())
    assert differ == (label == "BUG"), "label %s but differ=%s" % (label, differ)
    print("OK")
