"""LA202: an attention backend's view of a layer's KV buffer covers other bytes than its spec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auditor.checks.base import Check, CheckContext, Scope
from auditor.checks.findings import Facts, Finding, Side
from auditor.engines import vllm_examples
from auditor.engines.vllm import VllmOutcome
from auditor.engines.vllm_backends import SHAPE, ViewOutcome
from auditor.engines.vllm_specs import point_label
from auditor.evaluation.matrix import json_value

CODE = "LA202"
NAME = "backend-view-mismatch"
SUMMARY = "Backend's view of a KV buffer differs from the layer's spec page"
EXPLANATION = """\
## What it finds
vLLM's model runner allocates each layer `num_blocks * spec.page_size_bytes` bytes and views
them with the shape the layer's attention backend gives, `backend.get_kv_cache_shape(num_blocks,
block_size, num_kv_heads, head_size, cache_dtype_str=...)`, in the spec's dtype. This check
runs the runner's own call (its arguments, as it derives them from the spec: kernel block
splitting, the cache dtype string it passes) with each layer spec the pack's model shapes build,
for every backend that declares it serves that point (`is_mla()`, supported head sizes, model
dtypes and cache dtypes; without `is_mla()`, a shape that ignores its KV-heads argument is an MLA
one; a packed cache format a backend's shape tests with `==`, such as `fp8_ds_mla`, is served
only by backends testing it; a backend a layer class holds as its own, an indexer's, views that
layer's specs only), and reports a backend whose view covers other bytes per block than the
spec's page. An unknown figure on either side, or a backend whose declarations cannot be
evaluated, is never a finding: the view is counted as not compared and listed as unresolved.

## Why it matters
On the contiguous path a mismatch fails in `view`; on padded, packed or `as_strided` paths it
is silent: blocks overlap or bytes go unused, and a packed format read with another row size
gives garbage.

## Example
    # spec (fp8_ds_mla): page_size_bytes = block_size * 656
    @staticmethod
    def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
        if cache_dtype_str == "fp8_ds_mla":
            return (num_blocks, block_size, 584)   # 584 B rows: another format's
        return (num_blocks, block_size, head_size)

## Use instead
Derive both from one place: the spec's row size and the backend's last dimension from the same
constant or helper, or the backend's shape from the spec (`customize_spec`, vLLM 0.29+).
"""


@dataclass(frozen=True)
class ViewDisagreement(Facts):
    """A backend's view of a layer spec's blocks against the spec's page, at one point."""

    view: int  # bytes per block the backend's shape covers
    page: int  # the spec's page_size_bytes
    view_per_token: int | None
    page_per_token: int | None
    block_size: int
    backend: str
    backends: str  # every backend sharing this shape function that shows it
    call: str  # the runner's call with its argument values
    shape: str  # the shape and dtype it gave
    runner: str  # the function making the call
    spec_class: str
    spec_where: str
    spec_arithmetic: str
    point: str
    matching: int
    compared: int

    def sentence(self) -> str:
        per_token = ""
        if self.view_per_token is not None and self.page_per_token is not None:
            per_token = f"{self.view_per_token} B/token vs {self.page_per_token} B/token, "
        return (
            f"attention backend's KV view differs from the layer's spec page: {per_token}"
            f"{self.view} vs {self.page} B/block at block_size={self.block_size}; "
            f"{self.runner} calls {self.call} = {self.shape}; layer {self.spec_class} in "
            f"{self.spec_where}: {self.spec_arithmetic}; backends: {self.backends}; at "
            f"{self.point} ({self.matching} of {self.compared} config points compared)"
        )


_LABELS = ("model", "model_dtype", "cache_dtype", "block_size")


def check(views: list[ViewOutcome], total: int) -> list[Finding]:
    """One finding per backend shape function and spec class that disagree at some point."""
    groups: dict[tuple, list[ViewOutcome]] = {}
    for outcome in views:
        if outcome.view_bytes is None:
            continue
        method = outcome.backend.find_method(SHAPE)
        groups.setdefault((id(method), outcome.spec_class), []).append(outcome)
    findings: list[Finding] = []
    for group in groups.values():
        differing = [o for o in group if o.view_bytes != o.spec_page]
        if not differing:
            continue
        first = differing[0]
        labels = {point_label(o.values) for o in group}
        shown: dict[str, dict[str, Any]] = {}
        for o in differing:
            shown.setdefault(
                point_label(o.values),
                {
                    **{k: json_value(v) for k, v in o.values.items() if k in _LABELS},
                    "view_bytes_per_block": o.view_bytes,
                    "page_bytes_per_block": o.spec_page,
                },
            )
        names = sorted({o.backend.name for o in differing})
        findings.append(_finding(first, names, list(shown.values()), len(labels), total))
    return findings


def _finding(first: ViewOutcome, names: list[str], shown: list, compared: int, total: int):
    method = first.backend.find_method(SHAPE)
    location = method.module.parsed.location(method.node)
    layer_location = first.layer.location
    facts = ViewDisagreement(
        view=first.view_bytes or 0,
        page=first.spec_page,
        view_per_token=first.view_per_token,
        page_per_token=first.spec_per_token,
        block_size=first.block_size,
        backend=first.backend.name,
        backends=", ".join(names),
        call=first.call_text,
        shape=first.shape_text,
        runner=first.view.where,
        spec_class=first.spec_class,
        spec_where=first.layer.where,
        spec_arithmetic=first.spec_arithmetic,
        point=point_label(first.values),
        matching=len(shown),
        compared=compared,
    )
    return Finding(
        code=CODE,
        facts=facts,
        location=location,
        host=Side(
            "backend view",
            first.backend.name,
            SHAPE,
            location,
            first.view_per_token or 0,
            f"{first.call_text} = {first.shape_text}",
        ),
        device=Side(
            "layer",
            first.spec_class,
            "page_size_bytes",
            layer_location,
            first.spec_per_token or 0,
            first.spec_arithmetic,
        ),
        config={k: json_value(v) for k, v in first.values.items() if k in _LABELS},
        points=tuple(shown),
        points_evaluated=total,
    )


class BackendViewMismatch(Check):
    code, name, summary, explanation = CODE, NAME, SUMMARY, EXPLANATION
    scope = Scope.ENGINES
    valid = (vllm_examples.VIEW_FIXED,)
    invalid = (vllm_examples.VIEW_BUGGY,)

    def run(self, context: CheckContext) -> list[Finding]:
        findings: list[Finding] = []
        for outcome in context.stage_outcomes:
            if isinstance(outcome, VllmOutcome) and outcome.pack is not None:
                findings.extend(check(outcome.views, len(outcome.pack.points())))
        return findings
