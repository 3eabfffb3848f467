"""Trees a review of session 42's mends built where they went wrong, or right (tests/data/
review42), each checked by its writer by building the pools on torch's meta device. Three
mends were narrowed for them:

- d03_token_bytes_param, f01_dtype_param, f07_dtype_composed: a host taking its own row
  width or stride as a parameter nothing gives (`row_bytes`, `token_stride`), its device not:
  the two sides differ at every sample of it only because the samples are not the device's
  width, so no finding (sides apart at every sample are compared only for a free parameter
  both pools take); unresolved, as before.
- g02_infinite_gen: both pools draw an id from a stream with no end (`while True: yield n`):
  a generator run whole is stopped after a bounded number of items, so the build keeps its
  steps and the true LA001 stays.
- h01_abstract_method, h02_abstract_method_drift: the config annotated with a base class whose
  method only raises `NotImplementedError` (its subclass implements it): a stand-in's method
  that raises gives the sample, as before, not a refused point; compared, the true LA001 kept.
- b03_match_composed, c03_records_mixed, c05_block_major_records, f02_world_logging,
  g04_yield_from: a `match` with a capture and a raise, records holding ints and tensors,
  records per block, a world size used in arithmetic for logging, `yield from`: compared
  now (never before), clean where the layouts agree, reported where they do not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_review_tree

DATA = Path(__file__).resolve().parent / "data" / "review42"

# tree: (findings as (code, buffer), pairs, pairs compared, most config points, unresolved)
EXPECTED = {
    "b03_match_composed": (set(), 1, 1, 5, 2),
    "c03_records_mixed": (set(), 1, 1, 4, 0),
    "c05_block_major_records": (set(), 1, 1, 4, 0),
    "d03_token_bytes_param": (set(), 1, 0, 4, 3),
    "f01_dtype_param": (set(), 1, 0, 8, 4),
    "f02_world_logging": (set(), 1, 1, 4, 1),
    "f07_dtype_composed": (set(), 1, 0, 4, 2),
    "g02_infinite_gen": ({("LA001", "v_buffer")}, 1, 1, 4, 0),
    "g04_yield_from": ({("LA001", "v_buffer")}, 1, 1, 4, 0),
    "h01_abstract_method": (set(), 1, 1, 16, 0),
    "h02_abstract_method_drift": ({("LA001", "v_cache")}, 1, 1, 16, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_review42_tree(name: str, capsys) -> None:
    check_review_tree(DATA / name, EXPECTED[name], capsys)
