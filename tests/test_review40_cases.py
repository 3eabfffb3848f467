"""Trees a review of session 40's mends built where they went wrong (tests/data/review40), each
checked by its writer by building both pools on torch's meta device. Three mends were backed
out for them (a layer count summed from two kinds, a loose parameter used as text, a config
class's text dtype default tried at its table's keys); the others were kept or corrected:

- e_ok: a device looping over `arch.num_hidden_layers + arch.num_swa_layers` beside a host
  keeping the two kinds apart: the sum taken for one count gave a false LA001 (backed out).
- f_true1, f_true2: fp8 behind `kv_cache_dtype.startswith("fp8")` / `in _FP8`, the decode
  side storing it as fp16: the loose-text mend never reached fp8 and lost the true LA001.
- h_dtype: five text `*_dtype` fields of a config: the text-default mend tried each at every
  text the others are compared with (4,096 points, 20 unresolved).
- d_setattr: a `setattr` loop's plan module naming the other pool's buffers in a docstring
  paired two unrelated pools (now only a plan's dict keys and list items count, and never the
  other pool's own module's); d_pos: the plan in a module of its own, read when first needed,
  is found and the pair compared.
- a2: the host rebuilds the device's spec record with arguments and keeps the record's default
  dtype (bf16) while the device is given its spec by its callers: a record built with
  arguments keeps its defaults, as Python builds it, so the host's copy is reported at the
  fp8 specs a caller may pass (the incident's class: a host on a default dtype).
- b_plist2: a device keeping fp8 K/V in `nn.ParameterList`s beside a host on another dtype.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_review_tree

DATA = Path(__file__).resolve().parent / "data" / "review40"

# tree: (findings as (code, buffer), pairs, pairs compared, most config points, unresolved)
EXPECTED = {
    "e_ok": (set(), 0, 0, 0, 1),  # (its device is no pool: said, never a false finding)
    "f_true1": ({("LA001", "k_buffer"), ("LA001", "v_buffer")}, 1, 1, 8, 0),
    "f_true2": ({("LA001", "k_buffer"), ("LA001", "v_buffer")}, 1, 1, 8, 0),
    "h_dtype": (set(), 1, 1, 8, 0),
    "d_setattr": (set(), 0, 0, 16, 1),
    "d_pos": (set(), 1, 1, 8, 0),
    "a2": ({("LA001", "kv_buffer")}, 1, 1, 32, 0),
    "b_plist2": ({("LA001", "kv_buffer")}, 1, 1, 8, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_review40_tree(name: str, capsys) -> None:
    check_review_tree(DATA / name, EXPECTED[name], capsys)
