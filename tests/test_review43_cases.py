"""Trees a review of session 43's mends built where they went wrong (tests/data/review43),
each checked by its writer by building the pools on torch's meta device. Each was mended:

- t01_argparse_set_defaults: `set_defaults(kv_dtype=...)` overrides the option's own default,
  as argparse does (the host is wrong at that default: reported, not "clean").
- t02_argparse_shared_dest, t02b_argparse_shared_dest_or: `--kv-dtype` with choices and a
  `--fp8` shortcut (`store_const`) sharing its destination: the first option's default, and
  every value either may set varied as one dimension (the mismatch at fp8 reported).
- t03_argparse_many_flags, t12_argparse_real_server: a server declaring a dozen flags and
  options the pools never read: only the options the code reads are varied (the namespace
  gives an option's value when read), so the points stay few and fp8 is reached.
- t04_narrow_config_attr, t09_getattr_on_sampled_attr: an untyped config's attributes are
  sampled as numbers standing in for texts too (StandInSample); `narrow()` and
  `getattr(x, name, default)` take them as the ints they are.
- t05_enum_new_value, t06_enum_flag_iter: an enum making its members with its own `__new__`,
  a Flag enum: iterating them is not modelled (unknown, as before), never a wrong member.
- t08_argparse_store_const_argv: a command line the code spells out, with a `store_const`
  option: parsed by argparse itself, compared and clean (it crashed the audit).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import check_review_tree

DATA = Path(__file__).resolve().parent / "data" / "review43"
_BOTH = {("LA001", "k_buffer"), ("LA001", "v_buffer")}

# tree: (findings as (code, buffer), pairs, pairs compared, most config points, unresolved)
EXPECTED = {
    "t01_argparse_set_defaults": (_BOTH, 1, 1, 1, 0),
    "t02_argparse_shared_dest": (_BOTH, 1, 1, 2, 0),
    "t02b_argparse_shared_dest_or": (_BOTH, 1, 1, 2, 0),
    "t03_argparse_many_flags": (_BOTH, 1, 1, 3, 0),
    "t04_narrow_config_attr": ({("LA001", "v_buffer")}, 1, 1, 8, 0),
    "t05_enum_new_value": (set(), 1, 0, 1, 2),
    "t06_enum_flag_iter": (set(), 1, 0, 1, 2),
    "t08_argparse_store_const_argv": (set(), 1, 1, 1, 0),
    "t09_getattr_on_sampled_attr": (set(), 1, 1, 16, 0),
    "t12_argparse_real_server": (_BOTH, 1, 1, 3, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_review43_tree(name: str, capsys) -> None:
    check_review_tree(DATA / name, EXPECTED[name], capsys)
