"""The model dimensions behind a finding's figures: the config values its evaluation read but
did not vary (`head_num=8`, `kv_lora_rank=512`), which a finding's varied config point leaves
out, yet the bytes depend on them."""

from __future__ import annotations

from typing import Any

from auditor.checks.findings import Finding
from auditor.evaluation.matrix import json_value
from auditor.pipeline import AuditResult


def model_dimensions(result: AuditResult, finding: Finding) -> dict[str, Any]:
    """Numbers the finding's pools read at its first config point, by name; {} if none."""
    host = finding.host.class_name if finding.host is not None else None
    device = finding.device.class_name if finding.device is not None else None
    if device is None:
        return {}
    found: dict[str, Any] = {}
    for evaluation in result.evaluations:
        if evaluation.device.name != device or not evaluation.points:
            continue
        if host is not None and (evaluation.host is None or evaluation.host.name != host):
            continue
        values = evaluation.points[0].values
        for name in sorted(evaluation.reads - set(evaluation.varied)):
            value = values.get(name)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found.setdefault(name, json_value(value))
    return dict(sorted(found.items()))


def describe(dimensions: dict[str, Any]) -> str:
    return ", ".join(f"{name}={value}" for name, value in dimensions.items())
