"""LA201: code that recomputes a layer's KV page gets a different size than the layer's spec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auditor.checks.base import Check, CheckContext, Scope
from auditor.checks.findings import Facts, Finding, Side
from auditor.engines import vllm_examples
from auditor.engines.vllm import VllmOutcome
from auditor.engines.vllm_specs import (
    SiteResult,
    SpecValue,
    VllmPack,
    is_layer_class,
    kinship,
    point_label,
)
from auditor.evaluation.matrix import json_value
from auditor.frontend.index import ClassInfo

CODE = "LA201"
NAME = "recomputed-page-mismatch"
SUMMARY = "Recomputed KV page size differs from the layer's own spec"
EXPLANATION = """\
## What it finds
vLLM describes each layer's KV storage by a spec (`FullAttentionSpec`, `MLAAttentionSpec`, ...)
that the layer builds in `get_kv_cache_spec`; its `page_size_bytes` is the bytes of one block.
Other code builds a spec of the same kind again to size something else: the hybrid
attention/Mamba alignment, an offload tier, a connector. This check evaluates both at every
config point of the vLLM pack and reports a recomputation whose bytes per token differ from
a spec of the same kind (a common spec base below the root) that a layer builds there from
the model's shape (head size, KV heads), built by the model runner or one of the pack's attention
layer classes (`mla-layers`, `non-mla-layers`: a model's own indexer or compressor cache is
another layer); layer specs that could not be evaluated are left out,
and a recomputation that cannot be evaluated is never reported (both are listed as unresolved).
The finding names both specs, what differs between them (the class, a field), both figures per
token and per block, and the page formula of each side.

## Why it matters
Nothing checks the two figures against each other. In vLLM 0.11.0 the hybrid alignment sized
the attention page with `FullAttentionSpec` (keys and values) for MLA models, whose layers
store one latent row: 2304 instead of 1152 B/token at bf16, head 576. The Mamba state was
padded to twice the real attention page and the block size chosen from the wrong figure:
memory wasted silently, no crash (fixed in 0.11.1).

## Example
    # the layer (MLA): MLAAttentionSpec(block_size=bs, num_kv_heads=1, head_size=576, ...)
    attn_page_size_1_token = FullAttentionSpec(
        block_size=1, num_kv_heads=1, head_size=576, dtype=kv_cache_dtype
    ).page_size_bytes

## Use instead
Build the spec the layer builds (ask the layer, or branch as it does: `MLAAttentionSpec` when
`use_mla`, with the same `cache_dtype_str`), or take the page from the layer's spec itself.
"""


@dataclass(frozen=True)
class PageDisagreement(Facts):
    """A recomputed spec's page against a layer's own spec of its kind, at one config point."""

    recomputed: int  # bytes per token
    layer: int
    block_size: int
    layer_page: int | None  # the layer's bytes per block
    differences: str  # what differs between the two specs, as said (`_differences`)
    recomputed_class: str
    recomputed_where: str
    recomputed_arithmetic: str
    layer_class: str
    layer_where: str
    layer_arithmetic: str
    point: str  # the first config point where they differ (`point_label`)
    matching: int  # how many config points they differ at
    built: int  # of how many the recomputation is built at

    def sentence(self) -> str:
        return (
            f"recomputed KV page differs from the layer's own: {self.recomputed} B/token vs "
            f"{self.layer} B/token ({self.recomputed * self.block_size} vs "
            f"{self.layer_page} B/block at block_size={self.block_size}); differs in: "
            f"{self.differences}; recomputed {self.recomputed_class} in "
            f"{self.recomputed_where}: {self.recomputed_arithmetic}; layer {self.layer_class} in "
            f"{self.layer_where}: {self.layer_arithmetic}; at {self.point} "
            f"({self.matching} of {self.built} config points where it is built)"
        )


def check(results: list[SiteResult], specs: list[ClassInfo], pack: VllmPack) -> list[Finding]:
    """Findings for each recomputation that disagrees, at some point, with a layer spec of
    its kind built there (known, and describing the pack's model shape)."""
    layers = [r for r in results if r.site.role == "layer"]
    shape = pack.shape_dimensions
    total = len(pack.points())
    findings: list[Finding] = []
    for result in results:
        if result.site.role != "recomputation":
            continue
        root = result.site.function.module.tree_root  # several trees may be audited at once
        kin = [
            r
            for r in layers
            if kinship(result.site.spec, r.site.spec, specs)
            and r.site.function.module.tree_root == root
        ]
        shown: list[dict[str, Any]] = []
        first: tuple | None = None
        for outcome in result.points:
            value = outcome.value
            if value is None or value.per_token is None:
                continue  # not reached here, or unknown: never a finding
            for layer_site, layer_value in _counterparts(kin, outcome.values, shape, pack):
                if layer_value.per_token == value.per_token:
                    continue
                shown.append(
                    {
                        **{k: json_value(v) for k, v in outcome.values.items() if k in _LABELS},
                        "recomputed_bytes_per_token": value.per_token,
                        "layer_bytes_per_token": layer_value.per_token,
                    }
                )
                if first is None:
                    first = (outcome.values, value, layer_site, layer_value)
                break
        if first is None:
            continue
        values, value, layer_site, layer_value = first
        findings.append(_finding(result, values, value, layer_site, layer_value, shown, total))
    return findings


_LABELS = ("model", "model_dtype", "cache_dtype", "block_size")


def _counterparts(kin: list[SiteResult], values: dict, shape: set[str], pack: VllmPack) -> list:
    """The layer specs of this kind built at this point whose page is known and that read the
    model's shape, built by the model runner or by one of the pack's attention layer classes
    (a model's own cache layer, an indexer or a compressor, is another layer than the one a
    recomputation estimates). Unknown ones are left out: a finding needs a known disagreement."""
    generic = set(pack.mla_layers) | set(pack.non_mla_layers)
    out = []
    for layer in kin:
        owner = layer.site.function.owner
        if owner is not None and is_layer_class(owner):
            if not {k.name for k in owner.mro()} & generic:
                continue
        for outcome in layer.points:
            if outcome.values is not values:
                continue
            value = outcome.value
            if value is not None and value.per_token is not None and outcome.reads & shape:
                out.append((layer.site, value))
    return out


def _differences(recomputed: SpecValue, layer: SpecValue) -> str:
    steps = []
    if recomputed.class_name != layer.class_name:
        steps.append(f"spec class {recomputed.class_name} vs {layer.class_name}")
    mine, theirs = dict(recomputed.fields), dict(layer.fields)
    for name in sorted(set(mine) | set(theirs)):
        if name == "block_size":
            continue
        if mine.get(name) != theirs.get(name):
            steps.append(f"{name} {mine.get(name, 'unset')} vs {theirs.get(name, 'unset')}")
    return "; ".join(steps) or "the page formula"


def _finding(result, values, value, layer_site, layer_value, shown, points) -> Finding:
    facts = PageDisagreement(
        recomputed=value.per_token,
        layer=layer_value.per_token,
        block_size=layer_value.block_size or 0,
        layer_page=layer_value.page_bytes,
        differences=_differences(value, layer_value),
        recomputed_class=value.class_name,
        recomputed_where=result.site.where,
        recomputed_arithmetic=value.arithmetic,
        layer_class=layer_value.class_name,
        layer_where=layer_site.where,
        layer_arithmetic=layer_value.arithmetic,
        point=point_label(values),
        matching=len(shown),
        built=len(result.points),
    )
    return Finding(
        code=CODE,
        facts=facts,
        location=result.site.location,
        host=Side(
            "recomputed",
            value.class_name,
            "page_size_bytes",
            result.site.location,
            value.per_token,
            value.arithmetic,
        ),
        device=Side(
            "layer",
            layer_value.class_name,
            "page_size_bytes",
            layer_site.location,
            layer_value.per_token,
            layer_value.arithmetic,
        ),
        config={k: json_value(v) for k, v in values.items() if k in _LABELS},
        points=tuple(shown),
        points_evaluated=points,
    )


class RecomputedPageMismatch(Check):
    code, name, summary, explanation = CODE, NAME, SUMMARY, EXPLANATION
    scope = Scope.ENGINES
    valid = (vllm_examples.FIXED,)
    invalid = (vllm_examples.BUGGY,)

    def run(self, context: CheckContext) -> list[Finding]:
        findings: list[Finding] = []
        for outcome in context.stage_outcomes:
            if isinstance(outcome, VllmOutcome) and outcome.pack is not None:
                findings.extend(check(outcome.results, outcome.spec_classes, outcome.pack))
        return findings
