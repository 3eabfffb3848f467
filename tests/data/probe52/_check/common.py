"""Shared helpers for the probe52 ground-truth checks."""
import os
import re
import sys

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_HEAD = re.compile(r"^(r\d\d) - .+\. (BUG|CORRECT)\.$")
_DEV = re.compile(r"^Device class: (\w+) \(([\w/.]+\.py)\)$")
_OTH = re.compile(r"^Other class: (\w+) \(([\w/.]+\.py)\), (\w+)$")
_CON = re.compile(r"^Constructed: (\w+) in ([\w/.]+\.py)$")
_BUG = re.compile(r"^Bug: .+$")
_BUF = re.compile(r"^- (\w+): (\w+) (\d+) vs device (\d+)$")


def add_tree(name):
    path = os.path.join(ROOT, name)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def parse_readme(name):
    tree = os.path.join(ROOT, name)
    lines = [l.rstrip("\n") for l in open(os.path.join(tree, "README.txt"))]
    lines = [l for l in lines if l.strip()]
    info = {"buffers": {}}
    m = _HEAD.match(lines[0]); assert m, lines[0]
    assert m.group(1) == name, (m.group(1), name)
    info["status"] = m.group(2)
    m = _DEV.match(lines[1]); assert m, lines[1]
    info["device_class"], info["device_path"] = m.groups()
    m = _OTH.match(lines[2]); assert m, lines[2]
    info["other_class"], info["other_path"], info["role"] = m.groups()
    m = _CON.match(lines[3]); assert m, lines[3]
    info["ctor"], info["ctor_path"] = m.groups()
    rest = lines[4:]
    # The "Bug:" line is required for BUG trees and present ("Bug: none")
    # for CORRECT trees as well.
    if info["status"] == "BUG":
        assert _BUG.match(rest[0]), rest[0]
    if rest and _BUG.match(rest[0]):
        rest = rest[1:]
    for l in rest:
        m = _BUF.match(l); assert m, l
        attr, role, other, dev = m.groups()
        assert role == info["role"], (role, info["role"])
        info["buffers"][attr] = (int(other), int(dev))
    for key in ("device_path", "other_path", "ctor_path"):
        assert os.path.isfile(os.path.join(tree, info[key])), info[key]
    return info


def nbytes(buf):
    if isinstance(buf, (list, tuple)):
        return sum(nbytes(b) for b in buf)
    assert buf.device.type == "meta", buf.device
    return buf.numel() * buf.element_size()


def per_token(buf, slots):
    total = nbytes(buf)
    assert total % slots == 0, (total, slots)
    return total // slots


def _defined_in(obj, rel_path):
    mod = sys.modules[type(obj).__module__]
    return os.path.abspath(mod.__file__).endswith(rel_path)


def verify(name, dev_obj, other_obj, ctor, measured):
    """measured: {device_attr: (other_bytes_per_token, device_bytes_per_token)}"""
    info = parse_readme(name)
    assert type(dev_obj).__name__ == info["device_class"], type(dev_obj).__name__
    assert type(other_obj).__name__ == info["other_class"], type(other_obj).__name__
    assert _defined_in(dev_obj, info["device_path"]), info["device_path"]
    assert _defined_in(other_obj, info["other_path"]), info["other_path"]
    assert ctor.__name__ == info["ctor"], ctor.__name__
    assert sys.modules[ctor.__module__].__file__.endswith(info["ctor_path"])
    assert set(measured) == set(info["buffers"]), (sorted(measured), sorted(info["buffers"]))
    for attr, got in measured.items():
        assert hasattr(dev_obj, attr), attr
        want = info["buffers"][attr]
        assert got == want, f"{attr}: measured {got} vs README {want}"
        print(f"  {attr}: {info['role']} {got[0]} vs device {got[1]}")
    mismatch = any(o != d for o, d in measured.values())
    assert mismatch == (info["status"] == "BUG"), (mismatch, info["status"])
    print(info["status"])
    print("OK")
