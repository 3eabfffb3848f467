"""Trees a review of session 44's mends built where they went wrong (tests/data/review44), the
truth of each from its pools built on torch's meta device by the reviewer. Each was mended:

- t01_handler_falls_back: probe51/r08's format lookup with `except KeyError: return
  Fp8Format`. Running the handler accepted the sampled name's point with the fallback and
  the table's own names were never tried: compared "clean" where nvfp4 disagrees. A handler
  that falls back now leaves the block undecided, as before (never compared, said).
- t02_handler_not_matching: `except IndexError` does not catch the `KeyError`: refused, the
  table's names tried, the nvfp4 mismatch reported (before: never compared).
- t03_set_filled_by_add: a head count by iterating a set filled with `.add()`, which the
  interpreter does not follow: 0 heads, two false LA001s when `for` iterated sets. Sets are
  not iterated (unknown, said).
- t04_tensor_written_undecided, t05_layer_appended_undecided: a tensor written into, a
  per-layer list given another layer of the same shape, on an undecided path: what is
  measured (shapes and dtypes) is unchanged, the finding kept (it was lost when every
  container filled on an undecided path became unknown).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_review_tree

DATA = Path(__file__).resolve().parent / "data" / "review44"

# tree: (findings as (code, buffer), pairs, pairs compared, most config points, unresolved)
EXPECTED = {
    "t01_handler_falls_back": (set(), 1, 0, 4, 3),
    "t02_handler_not_matching": ({("LA001", "kv_data")}, 1, 1, 12, 0),
    "t03_set_filled_by_add": (set(), 1, 0, 4, 3),
    "t04_tensor_written_undecided": ({("LA001", "kv_buffer")}, 1, 1, 4, 0),
    "t05_layer_appended_undecided": ({("LA001", "k_buffer")}, 1, 1, 4, 0),
    "t06_budget_rows_unequal_padding": (set(), 1, 0, 8, 4),
    "t07_buffer_size_counts_slots": ({("LA003", "slot_owner")}, 1, 1, 4, 0),
    "t08_format_itemsize_field": ({("LA001", "kv_bytes")}, 1, 1, 8, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_review44_tree(name: str, capsys) -> None:
    check_review_tree(DATA / name, EXPECTED[name], capsys)
