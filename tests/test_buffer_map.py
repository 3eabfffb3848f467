"""The rule pack's `buffer-map` pairs a host buffer with device buffers of other names, and only
when the host does not hold those buffers under their own names."""

from __future__ import annotations

from auditor.checks.la001_buffer_size_mismatch import check
from auditor.checks.wording import device_counterpart
from auditor.evaluation.evaluate import Evaluation, PointResult
from auditor.evaluation.measure import BufferFigure
from auditor.location import Location
from auditor.settings import Settings

SETTINGS = Settings(buffer_map={"kv_buffer": ["k_buffer", "v_buffer"]})


def figure(name: str, size: int) -> BufferFigure:
    return BufferFigure(name, Location("x.py", 1), size, arithmetic=f"{size}")


DEVICE = {"k_buffer": figure("k_buffer", 1024), "v_buffer": figure("v_buffer", 128)}


def test_a_host_joining_the_device_buffers_is_compared_with_their_sum():
    host = {"kv_buffer": figure("kv_buffer", 1152)}
    joined = device_counterpart("kv_buffer", DEVICE, SETTINGS, host)
    assert joined is not None
    assert (joined.name, joined.bytes_per_token_per_layer) == ("k_buffer + v_buffer", 1152)


def test_a_host_holding_them_by_name_mirrors_them_one_by_one():
    """MLA's page_first_kv_split host keeps k_buffer and v_buffer and returns k_buffer as its
    kv_buffer: kv_buffer is another view of k_buffer, not the mirror of k + v."""
    host = {
        "kv_buffer": figure("kv_buffer", 1024),
        "k_buffer": figure("k_buffer", 1024),
        "v_buffer": figure("v_buffer", 128),
    }
    assert device_counterpart("kv_buffer", DEVICE, SETTINGS, host) is None
    assert device_counterpart("k_buffer", DEVICE, SETTINGS, host) is DEVICE["k_buffer"]
    evaluation = Evaluation(
        device=None, host=None, points=[PointResult({}, DEVICE, host)], varied=[], truncated=False
    )
    evaluation.host = type("Host", (), {"name": "Host"})()
    evaluation.device = type("Device", (), {"name": "Device"})()
    assert check(evaluation, SETTINGS) == []
    host["v_buffer"] = figure("v_buffer", 64)  # one of them drifting is still found, by name
    (finding,) = check(evaluation, SETTINGS)
    assert "v_buffer: host and device disagree, 64 B/token/layer vs 128" in finding.message
