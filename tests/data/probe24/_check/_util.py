"""Shared helpers for the probe24 oracle checks.

Each check_pNN.py builds both sides of a tree through the tree's own
construction code on torch's meta device, measures bytes per token per layer
for every compared buffer and verifies the figures against the tree README.
"""
import importlib
import inspect
import os
import re
import sys
import warnings

warnings.filterwarnings("ignore")  # torch warns about missing numpy on import

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

_L1 = re.compile(r"^(p\d\d[bf]?) - (.+)\. (BUG|CORRECT)\.$")
_L2 = re.compile(r"^Device class: (\w+) \(([\w/.]+\.py)\)$")
_L3 = re.compile(r"^Other class: (\w+) \(([\w/.]+\.py)\), (.+)$")
_L4 = re.compile(r"^Constructed: ([\w.]+) in ([\w/.]+\.py)$")
_L5 = re.compile(r"^Bug: buffer `(\w+)` - (.+): ([a-z]+) (\d+) vs device (\d+) "
                 r"bytes per token per layer\.$")
_LB = re.compile(r"^- (\w+): ([a-z]+) (\d+) vs device (\d+)$")


class CheckError(AssertionError):
    pass


def _fail(msg):
    raise CheckError(msg)


def tree_dir(tree):
    return os.path.join(ROOT, tree)


def use_tree(tree):
    """Put the tree on sys.path and return its parsed README."""
    d = tree_dir(tree)
    if d not in sys.path:
        sys.path.insert(0, d)
    return parse_readme(tree)


def parse_readme(tree):
    path = os.path.join(tree_dir(tree), "README.txt")
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f if ln.strip()]
    info = {"tree": tree}
    m = _L1.match(lines[0]) or _fail(f"{tree}: bad README line 1: {lines[0]!r}")
    if m.group(1) != tree:
        _fail(f"{tree}: README names tree {m.group(1)}")
    info["verdict"] = m.group(3)
    m = _L2.match(lines[1]) or _fail(f"{tree}: bad README line 2: {lines[1]!r}")
    info["device_class"], info["device_path"] = m.group(1), m.group(2)
    m = _L3.match(lines[2]) or _fail(f"{tree}: bad README line 3: {lines[2]!r}")
    info["other_class"], info["other_path"] = m.group(1), m.group(2)
    m = _L4.match(lines[3]) or _fail(f"{tree}: bad README line 4: {lines[3]!r}")
    info["constructed"], info["constructed_path"] = m.group(1), m.group(2)
    rest = lines[4:]
    info["bug"] = None
    if info["verdict"] == "BUG":
        m = _L5.match(rest[0]) or _fail(f"{tree}: bad README Bug line: {rest[0]!r}")
        info["bug"] = (m.group(1), m.group(3), int(m.group(4)), int(m.group(5)))
        rest = rest[1:]
    buffers, sides = {}, set()
    for ln in rest:
        m = _LB.match(ln) or _fail(f"{tree}: bad README buffer line: {ln!r}")
        buffers[m.group(1)] = (int(m.group(3)), int(m.group(4)))
        sides.add(m.group(2))
    if len(sides) != 1:
        _fail(f"{tree}: README buffer lines use side words {sorted(sides)}")
    info["side"] = sides.pop()
    info["buffers"] = buffers
    if info["bug"] is not None:
        name, side, n, mm = info["bug"]
        if side != info["side"] or buffers.get(name) != (n, mm):
            _fail(f"{tree}: Bug line disagrees with buffer line for {name}")
    return info


def tensors_of(buf):
    if isinstance(buf, torch.Tensor):
        return [buf]
    if isinstance(buf, dict):
        buf = list(buf.values())
    if isinstance(buf, (list, tuple)):
        out = []
        for b in buf:
            out.extend(tensors_of(b))
        return out
    _fail(f"not a tensor container: {type(buf).__name__}")


def bytes_per_token_layer(buf, tokens, layers):
    ts = tensors_of(buf)
    if not ts:
        _fail("buffer holds no tensors")
    for t in ts:
        if t.device.type != "meta":
            _fail(f"tensor on {t.device}, expected meta")
    total = sum(t.numel() * t.element_size() for t in ts)
    denom = tokens * layers
    if total % denom:
        _fail(f"{total} bytes not divisible by tokens*layers={tokens}*{layers}")
    return total // denom


def measure(device_obj, dev_tokens, dev_layers, other_obj, oth_tokens, oth_layers,
            names, other_names=None):
    """Return {device_buffer_name: (other_bptl, device_bptl)}."""
    other_names = other_names or {}
    out = {}
    for name in names:
        dev = bytes_per_token_layer(getattr(device_obj, name), dev_tokens, dev_layers)
        oth = bytes_per_token_layer(getattr(other_obj, other_names.get(name, name)),
                                    oth_tokens, oth_layers)
        out[name] = (oth, dev)
    return out


def _check_class(tree, obj, cls_name, rel_path, role):
    cls = type(obj)
    if cls.__name__ != cls_name:
        _fail(f"{tree}: {role} object is {cls.__name__}, README says {cls_name}")
    src = os.path.abspath(inspect.getsourcefile(cls))
    want = os.path.join(tree_dir(tree), rel_path)
    if src != want:
        _fail(f"{tree}: {cls_name} defined in {src}, README says {rel_path}")


def _check_constructed(tree, info):
    rel = info["constructed_path"]
    mod_name = rel[:-3].replace("/", ".")
    mod = importlib.import_module(mod_name)
    obj = mod
    for part in info["constructed"].split("."):
        if not hasattr(obj, part):
            _fail(f"{tree}: {info['constructed']} not found in {rel}")
        obj = getattr(obj, part)
    if not callable(obj):
        _fail(f"{tree}: {info['constructed']} is not callable")


def assert_all_agree(measured, label):
    bad = {k: v for k, v in measured.items() if v[0] != v[1]}
    if bad:
        _fail(f"{label}: buffers disagree: {bad}")
    print(f"  [{label}] all {len(measured)} buffers agree: "
          + ", ".join(f"{k}={v[1]}" for k, v in measured.items()))


def verify(tree, info, measured, device_obj, other_obj):
    _check_class(tree, device_obj, info["device_class"], info["device_path"], "device")
    _check_class(tree, other_obj, info["other_class"], info["other_path"], "other")
    _check_constructed(tree, info)
    if set(measured) != set(info["buffers"]):
        _fail(f"{tree}: measured buffers {sorted(measured)} != README {sorted(info['buffers'])}")
    side = info["side"]
    for name, (oth, dev) in measured.items():
        print(f"  {name}: {side} {oth} vs device {dev}")
        if (oth, dev) != info["buffers"][name]:
            _fail(f"{tree}: {name} measured {side} {oth} vs device {dev}, "
                  f"README says {info['buffers'][name]}")
    differing = sorted(k for k, (o, d) in measured.items() if o != d)
    if info["verdict"] == "BUG":
        if differing != [info["bug"][0]]:
            _fail(f"{tree}: BUG tree should differ only in {info['bug'][0]}, differs in {differing}")
    elif differing:
        _fail(f"{tree}: CORRECT tree differs in {differing}")
    print(f"{tree}: {info['verdict']} verified ({len(measured)} buffers)")
    print("OK")
