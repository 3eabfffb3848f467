"""Trees a review of session 39's mends built where the first versions went wrong
(tests/data/review39/<case>, each with a `truth.py` that builds the tree on torch's meta device
and prints both sides' bytes per token). Each case is audited with no configuration.

- reg_override: a decode class registered by decorator, then replaced at another module's top
  level (`register_pool("decode")(DecodeKVPoolV2)`): which class the lookup gives is not
  decided, so the pools are not paired by that key (was a false LA001).
- splat_draft: a target pool and its draft's built from `**draft_kwargs` filled with
  `cfg.draft_*`: two models' caches, not paired (was a false LA001).
- loose_int: a head count passed straight to both pools is a number, not a stand-in object:
  the true LA001 is kept (was lost: never compared).
- width_floor: `hidden_size // num_attention_heads` of a sampled width and head count: head
  counts are sampled as divisors of the width, so a pool sized `heads * (width // heads)`
  agrees with one sized `width` (was a false LA001 at an impossible 3072 / 160).
- dc_classscope: a dataclass field's default naming a class attribute
  (`field(default=HEAD_DIM)` beside `HEAD_DIM: ClassVar[int] = 128`) is evaluated in the
  class body's scope, not the module's (was a false LA001).

A second review, of those mends:
- splat_after_fp: a dict changed after the call that splats it (`kw.update(...)` for a draft
  pool built next) does not change what the call was given (was a false LA001).
- heads_group: a KV head count is sampled as a divisor of the attention head count
  (`heads // kv_heads` groups), as in every model (was a false LA001).
- dc_lambda, dc_later: a `default_factory=lambda: HEAD_DIM` sees the module, and a default
  sees only the class names bound above it (were false LA001s).
- reg_cli: a key is "registered otherwise" only by the registering function or a class
  stored under it, not by any text equal to it (`choices=["prefill", "decode"]` lost a true
  LA001).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import audit_json

DATA = Path(__file__).resolve().parent / "data" / "review39"

CASES = {
    "reg_override": (set(), 0),  # (findings, pairs compared)
    "splat_draft": (set(), 0),
    "loose_int": ({("LA001", "k_buffer"), ("LA001", "v_buffer")}, 1),
    "width_floor": (set(), 1),
    "dc_classscope": (set(), 1),
    "splat_after_fp": (set(), 1),
    "heads_group": (set(), 1),
    "dc_lambda": (set(), 1),
    "dc_later": (set(), 1),
    "reg_cli": ({("LA001", "k_buffer"), ("LA001", "v_buffer")}, 1),
}
# a line of a truth script naming both sides' bytes per token (other lines say two models, or
# an impossible model, and are no mirror)
FIGURES = re.compile(r"(?:prefill|device B/tok/layer)\s+(\d+)\s+(?:decode|host)\s+(\d+)")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_review39_case(case: str, capsys) -> None:
    report = audit_json(DATA / case, capsys)
    found = {(f["code"], f["message"].split(":", 1)[0]) for f in report["findings"]}
    verdict, compared = CASES[case]
    assert found == verdict
    assert report["summary"]["pairs_compared"] == compared


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_truth_of_a_review39_case(case: str) -> None:
    """The meta-device build agrees with the verdict above: both sides' figures differ on
    every line exactly where a finding is expected (for splat_draft and width_floor's last
    line, two models and an impossible model: not mirrors, said in the line)."""
    done = subprocess.run(
        [sys.executable, "-B", "truth.py", "."],
        cwd=DATA / case,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    figures = [m.groups() for m in map(FIGURES.search, done.stdout.splitlines()) if m]
    differ = {a != b for a, b in figures}
    assert differ == ({True} if CASES[case][0] else {False}) or not figures
