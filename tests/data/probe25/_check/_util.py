"""Shared helpers for the probe25 oracle checks."""
import importlib
import inspect
import os
import re
import sys
import traceback
import warnings

warnings.filterwarnings("ignore")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CheckError(AssertionError):
    pass


def need(cond, msg):
    if not cond:
        raise CheckError(msg)


def tree_path(tree):
    return os.path.join(ROOT, tree)


def enter_tree(tree):
    path = tree_path(tree)
    if path not in sys.path:
        sys.path.insert(0, path)
    return path


def parse_readme(tree):
    with open(os.path.join(tree_path(tree), "README.txt")) as f:
        lines = [l.rstrip("\n").rstrip() for l in f if l.strip()]
    info = {}
    m = re.fullmatch(r"(p\d\d) - (.+)\. (BUG|CORRECT)\.", lines[0])
    need(m, "bad line 1: %r" % lines[0])
    need(m.group(1) == tree, "tree id mismatch in line 1")
    info["verdict"] = m.group(3)
    m = re.fullmatch(r"Device class: (\w+) \(([\w./-]+\.py)\)", lines[1])
    need(m, "bad line 2: %r" % lines[1])
    info["device_class"], info["device_file"] = m.group(1), m.group(2)
    m = re.fullmatch(r"Other class: (\w+) \(([\w./-]+\.py)\), (.+)", lines[2])
    need(m, "bad line 3: %r" % lines[2])
    info["other_class"], info["other_file"] = m.group(1), m.group(2)
    m = re.fullmatch(r"Constructed: ([\w.]+) in ([\w./-]+\.py)", lines[3])
    need(m, "bad line 4: %r" % lines[3])
    info["constructed"], info["constructed_file"] = m.group(1), m.group(2)
    idx = 4
    info["bug"] = None
    if info["verdict"] == "BUG":
        m = re.fullmatch(r"Bug: buffer `(\w+)` - (.+): ([a-z]+) (\d+) vs device (\d+) "
                         r"bytes per token per layer\.", lines[4])
        need(m, "bad bug line: %r" % lines[4])
        info["bug"] = (m.group(1), m.group(3), int(m.group(4)), int(m.group(5)))
        idx = 5
    rows = {}
    words = set()
    for l in lines[idx:]:
        m = re.fullmatch(r"- (\w+): ([a-z]+) (\d+) vs device (\d+)", l)
        need(m, "bad buffer line: %r" % l)
        need(m.group(1) not in rows, "duplicate buffer %s" % m.group(1))
        rows[m.group(1)] = (int(m.group(3)), int(m.group(4)))
        words.add(m.group(2))
    need(rows, "no buffer lines")
    need(len(words) == 1, "sideword differs between lines: %s" % words)
    info["sideword"] = words.pop()
    info["rows"] = rows
    if info["bug"]:
        need(info["bug"][1] == info["sideword"], "bug line sideword differs")
    return info


def resolve_constructed(tree, info):
    rel = info["constructed_file"]
    need(os.path.isfile(os.path.join(tree_path(tree), rel)), "missing %s" % rel)
    mod = importlib.import_module(rel[:-3].replace("/", "."))
    obj = mod
    for part in info["constructed"].split("."):
        obj = getattr(obj, part)
    need(callable(obj), "%s is not callable" % info["constructed"])
    return obj


def tensors(obj):
    import torch
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from tensors(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from tensors(x)
    else:
        raise CheckError("not a tensor container: %r" % type(obj))


def bptl(obj, tokens, layers):
    """Bytes per token per layer of a buffer (tensor or nested list/dict of tensors)."""
    ts = list(tensors(obj))
    need(ts, "empty buffer")
    for t in ts:
        need(t.device.type == "meta", "tensor not on meta device: %s" % t.device)
    total = sum(t.numel() * t.element_size() for t in ts)
    denom = tokens * layers
    need(denom > 0, "zero tokens/layers")
    need(total % denom == 0, "bytes %d not divisible by tokens*layers %d" % (total, denom))
    return total // denom


def check_class(obj, cls_name, rel_file, tree):
    cls = type(obj)
    need(cls.__name__ == cls_name, "class %s != README %s" % (cls.__name__, cls_name))
    got = os.path.realpath(inspect.getfile(cls))
    want = os.path.realpath(os.path.join(tree_path(tree), rel_file))
    need(got == want, "class %s defined in %s, README says %s" % (cls_name, got, want))


def run(tree, build):
    """build(ctor) -> (device_obj, other_obj, {buffer: (other_bptl, device_bptl)})"""
    try:
        enter_tree(tree)
        info = parse_readme(tree)
        ctor = resolve_constructed(tree, info)
        dev, other, measured = build(ctor)
        check_class(dev, info["device_class"], info["device_file"], tree)
        check_class(other, info["other_class"], info["other_file"], tree)
        need(set(measured) == set(info["rows"]),
             "buffers measured %s != README %s" % (sorted(measured), sorted(info["rows"])))
        for name, (o, d) in sorted(measured.items()):
            print("  %-16s %s %6d vs device %6d" % (name, info["sideword"], o, d))
            need((o, d) == info["rows"][name],
                 "%s measured %s, README %s" % (name, (o, d), info["rows"][name]))
        differing = {n for n, (o, d) in measured.items() if o != d}
        if info["verdict"] == "BUG":
            bname, _, bn, bm = info["bug"]
            need(differing == {bname}, "differing buffers %s, expected {%s}" % (differing, bname))
            need(measured[bname] == (bn, bm), "bug line figures mismatch")
        else:
            need(not differing, "CORRECT tree has differing buffers %s" % differing)
    except Exception:
        traceback.print_exc()
        print("FAIL")
        sys.exit(1)
    print("OK")
