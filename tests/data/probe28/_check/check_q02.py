import os
import re
import sys

TREE = "q02"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", TREE)
sys.path.insert(0, ROOT)

import torch  # noqa: E402

from quillkv.engine_setup import init_kv_storage  # noqa: E402


def per_token_layer(buf, tokens, layers):
    tensors = list(buf) if isinstance(buf, (list, tuple)) else [buf]
    for t in tensors:
        assert t.device.type == "meta", t.device
    total = sum(t.nbytes for t in tensors)
    assert total % (tokens * layers) == 0, (total, tokens, layers)
    return total // (tokens * layers)


DEV, MIR = init_kv_storage(device="meta", spill_device="meta")
REGION = MIR.buffer
LAYERS = DEV.spec.num_hidden_layers
DEV_TOKENS = DEV.num_blocks * DEV.spec.block_size
MIR_TOKENS = MIR.num_blocks * MIR.spec.block_size
SIDE = "spill"
PAIRS = {"k_store": "k_spill", "v_store": "v_spill", "scale_store": "scale_spill"}
EXPECTED = {"k_store": (512, 512), "v_store": (512, 512), "scale_store": (16, 32)}
EXPECT_VERDICT = "BUG"

assert REGION.dtype == torch.uint8 and REGION.dim() == 1 and REGION.device.type == "meta"

measured = {}
for dev_attr, mir_attr in PAIRS.items():
    d = per_token_layer(getattr(DEV, dev_attr), DEV_TOKENS, LAYERS)
    m = per_token_layer(getattr(MIR, mir_attr), MIR_TOKENS, LAYERS)
    measured[dev_attr] = (m, d)
    print(f"{dev_attr}: {SIDE} {m} vs device {d}")

with open(os.path.join(ROOT, "README.txt")) as fh:
    lines = fh.read().splitlines()

assert lines[0].startswith(TREE + " - ")
verdict = "BUG" if lines[0].endswith(". BUG.") else "CORRECT"
assert verdict == EXPECT_VERDICT, verdict
assert lines[1].startswith("Device class: " + type(DEV).__name__ + " (")
assert lines[2].startswith("Other class: " + type(MIR).__name__ + " (")
assert lines[3].startswith("Constructed: ")
for ln in lines[1:3]:
    path = re.search(r"\(([^)]+\.py)\)", ln).group(1)
    assert os.path.isfile(os.path.join(ROOT, path)), path
assert os.path.isfile(os.path.join(ROOT, lines[3].rsplit(" in ", 1)[1]))

rows = {}
for ln in lines[4:]:
    mt = re.fullmatch(r"- (\w+): (\w+) (\d+) vs device (\d+)", ln)
    if mt:
        assert mt.group(2) == SIDE
        rows[mt.group(1)] = (int(mt.group(3)), int(mt.group(4)))
assert rows == measured, (rows, measured)
assert rows == EXPECTED, (rows, EXPECTED)

bad = [k for k, (m, d) in measured.items() if m != d]
if verdict == "BUG":
    assert len(bad) == 1, bad
    mt = re.fullmatch(r"Bug: buffer `(\w+)` - .+: (\w+) (\d+) vs device (\d+) bytes per token per layer\.", lines[4])
    assert mt, lines[4]
    assert mt.group(1) == bad[0] and mt.group(2) == SIDE
    assert (int(mt.group(3)), int(mt.group(4))) == measured[bad[0]]
else:
    assert not bad, bad
print("OK")
