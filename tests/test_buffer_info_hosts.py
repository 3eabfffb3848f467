"""Host pools built from a record of the device pool's buffers (`buffer_info: *BufferInfo`,
SGLang 0.5.23): recognised, paired with the device the record is read off at each call site,
evaluated with the record that device builds; what cannot be followed stays unresolved."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from helpers import write_tree

from auditor.pairing.sites import record_source
from auditor.pipeline import AuditResult, audit
from auditor.settings import ConfigError, Settings, apply_pack, load_settings

# DevA builds an InfoA (64 B/token/layer, or 128 with wide=True), DevB an InfoB: a host taking
# an InfoA is paired with DevA (and DevA2, which inherits its method) only.
POOLS = """
    import msgspec
    import torch

    class InfoA(msgspec.Struct, frozen=True, kw_only=True):
        buffers: tuple
        width: int

    class InfoB(msgspec.Struct, frozen=True, kw_only=True):
        buffers: tuple

    class DevA:
        width = 64

        def __init__(self, size, layer_num):
            self.size = size
            self.kv_buffer = [
                torch.zeros((size, self.width), dtype=torch.uint8) for _ in range(layer_num)
            ]

        def get_info(self):
            return InfoA(buffers=tuple(self.kv_buffer), width=self.width)

    class DevA2(DevA):
        width = 128

    class DevB:
        def __init__(self, size, layer_num):
            self.size = size
            self.kv_buffer = [torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)]

        def get_info(self):
            return InfoB(buffers=tuple(self.kv_buffer))

    class Host:
        def __init__(self, buffer_info: InfoA, *, device_capacity_tokens: int, width=None):
            self.layer_num = len(buffer_info.buffers)
            self.size = device_capacity_tokens
            self.kv_buffer = torch.zeros(
                (self.layer_num, self.size, width or 64), dtype=torch.uint8
            )
"""


def run(root: Path, files: dict[str, str]) -> AuditResult:
    write_tree(root, {"pkg/__init__.py": "", "pkg/pools.py": POOLS, **files})
    settings = load_settings(None)
    settings.respect_gitignore = False
    return audit([root], settings)


def pairs(result: AuditResult) -> set[tuple[str, str]]:
    return {(p.host.name, p.device.name) for p in result.catalog.pairs}


def la001(result: AuditResult) -> list[tuple[str, int, int]]:
    return [
        (f.device.class_name, f.host.bytes_per_token, f.device.bytes_per_token)
        for f in result.findings
        if f.code == "LA001"
    ]


def test_a_record_host_is_paired_with_the_devices_that_build_its_record(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/build.py": """
                from pkg.pools import Host

                def build(kv_pool):
                    return Host(kv_pool.get_info(), device_capacity_tokens=kv_pool.size)
            """
        },
    )
    assert pairs(result) == {("Host", "DevA"), ("Host", "DevA2")}
    [pair] = [p for p in result.catalog.pairs if p.device.name == "DevA"]
    assert pair.evidence.text().startswith("buffer info via call site")
    assert "buffer_info=kv_pool.get_info()" in pair.evidence.text()
    assert pair.evidence.as_json()["kind"] == "buffer info"
    # evaluated with the record the device builds: DevA2's 128-byte rows disagree
    assert la001(result) == [("DevA2", 64, 128)]


def test_the_record_carries_the_device_figures_into_the_host(tmp_path):
    """The host reads its width off the record: no finding when it does, for every device."""
    result = run(
        tmp_path,
        {
            "pkg/build.py": """
                from pkg.pools import Host

                def build(kv_pool):
                    return Host(
                        kv_pool.get_info(),
                        device_capacity_tokens=kv_pool.size,
                        width=kv_pool.get_info().width,
                    )
            """
        },
    )
    assert pairs(result) == {("Host", "DevA"), ("Host", "DevA2")}
    assert result.findings == []
    assert result.unresolved == []


def test_guards_on_the_device_expression_narrow_the_record_producers(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/build.py": """
                from pkg.pools import DevA2, Host

                def build(kv_pool):
                    if isinstance(kv_pool, DevA2):
                        raise ValueError("no host for DevA2")
                    info = kv_pool.get_info()
                    return Host(info, device_capacity_tokens=kv_pool.size)
            """
        },
    )
    assert pairs(result) == {("Host", "DevA")}
    assert result.findings == []


def test_a_record_not_read_off_a_pool_is_unresolved_not_guessed(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/build.py": """
                from pkg.pools import Host

                def build(entry):
                    return Host(entry.info, device_capacity_tokens=8)
            """
        },
    )
    assert pairs(result) == set()
    assert result.findings == []
    reasons = [u.unknown.reason for u in result.unresolved]
    assert any("buffer_info=entry.info is not read off a device pool here" in r for r in reasons)


def test_a_record_host_built_nowhere_is_unresolved(tmp_path):
    result = run(tmp_path, {})
    assert pairs(result) == set()
    assert result.findings == []
    reasons = [u.unknown.reason for u in result.unresolved]
    assert any(
        "Host is built from a record of a device pool's buffers and no call site" in r
        for r in reasons
    )


def test_a_record_no_device_builds_is_unresolved(tmp_path):
    result = run(
        tmp_path,
        {
            "pkg/other.py": """
                import msgspec
                import torch

                class InfoC(msgspec.Struct, frozen=True, kw_only=True):
                    buffers: tuple

                class HostC:
                    def __init__(self, buffer_info: InfoC):
                        self.kv_buffer = torch.zeros((2, 8, 64), dtype=torch.uint8)

                def build(kv_pool):
                    return HostC(kv_pool.get_info())
            """
        },
    )
    assert ("HostC", "DevA") not in pairs(result)
    reasons = [u.unknown.reason for u in result.unresolved]
    assert any("no device pool builds a InfoC record" in r for r in reasons)


def test_a_refusal_decided_by_the_record_stays_a_refusal_the_rest_is_assumed(tmp_path):
    """The host raises for records it cannot mirror, in a loop over `(buffer_info, *drafts)`
    whose drafts come from the caller: the target record is still checked (DevA2's 128-byte
    rows are refused: no point, no LA001), and where only the drafts are unknown the pair is
    compared, saying the constructor was assumed to accept."""
    result = run(
        tmp_path,
        {
            "pkg/strict.py": """
                import torch
                from pkg.pools import InfoA

                class StrictHost:
                    def __init__(self, buffer_info: InfoA, drafts, *, device_capacity_tokens):
                        for draft in (buffer_info, *drafts):
                            if draft.width != 64:
                                raise ValueError("only 64-byte rows")
                        self.layer_num = len(buffer_info.buffers)
                        self.kv_buffer = torch.zeros(
                            (self.layer_num, device_capacity_tokens, 32), dtype=torch.uint8
                        )

                def build(kv_pool, drafts):
                    return StrictHost(
                        kv_pool.get_info(), drafts, device_capacity_tokens=kv_pool.size
                    )
            """
        },
    )
    assert ("StrictHost", "DevA2") in pairs(result)
    strict = {
        e.device.name: e for e in result.evaluations if e.host and e.host.name == "StrictHost"
    }
    assert strict["DevA2"].feasible == []
    assert "only 64-byte rows" in strict["DevA2"].points[0].infeasible.reason
    # DevA: compared (32 vs 64 disagree), and the finding says what was assumed
    [finding] = [f for f in result.findings if f.code == "LA001"]
    assert (finding.device.class_name, finding.host.bytes_per_token, 64) == ("DevA", 32, 64)
    assert "StrictHost() assumed to accept" in finding.message
    assert "drafts" in finding.message


@pytest.mark.parametrize(
    ("text", "source"),
    [
        ("kv.get_device_pool_infos()[0].buffer_info", "kv"),
        ("self.mem_pool_device.get_device_pool_infos()[0].buffer_info", "self.mem_pool_device"),
        ("pool._mha_buffer_info()", "pool"),
        ("pool_info.buffer_info", None),  # an attribute of something: not read off a pool
        ("make_info(pool)", None),  # a function of the pool: not followed
        ("info", None),
    ],
)
def test_record_source(text: str, source: str | None) -> None:
    found = record_source(cst.parse_expression(text))
    assert (cst.Module([]).code_for_node(found) if found is not None else None) == source


def test_buffer_info_parameters_come_from_the_rule_pack() -> None:
    assert load_settings(None).buffer_info_params == ["buffer_info"]
    settings = Settings()
    apply_pack(settings, {"parameters": {"buffer-info": ["info", "record"]}}, "x.toml")
    assert settings.buffer_info_params == ["info", "record"]
    with pytest.raises(ConfigError, match="parameters.buffer-info"):
        apply_pack(Settings(), {"parameters": {"buffer-info": "info"}}, "x.toml")


def test_a_site_no_record_producer_can_reach_is_unresolved(tmp_path):
    """The declared type of the device expression builds another record: nothing is paired
    there, and the site is listed as unresolved, with what excluded the producers."""
    result = run(
        tmp_path,
        {
            "pkg/build.py": """
                from pkg.pools import DevB, Host

                def build(kv_pool: DevB):
                    return Host(kv_pool.get_info(), device_capacity_tokens=kv_pool.size)
            """
        },
    )
    assert pairs(result) == set()
    reasons = [u.unknown.reason for u in result.unresolved]
    assert any(
        "none of the device pools that build InfoA" in r and "kv_pool: DevB" in r for r in reasons
    ), reasons


def test_a_raise_decided_by_the_machine_does_not_hide_the_pair(tmp_path):
    """A host-memory style check (a call outside the audited tree decides it) is not the code
    refusing the pair: the host is still compared, and DevA2's wider rows are reported."""
    result = run(
        tmp_path,
        {
            "pkg/checked.py": """
                import psutil
                import torch
                from pkg.pools import InfoA

                class CheckedHost:
                    def __init__(self, buffer_info: InfoA, *, device_capacity_tokens):
                        self.layer_num = len(buffer_info.buffers)
                        if psutil.virtual_memory().available < 1:
                            raise ValueError("Not enough host memory")
                        self.kv_buffer = torch.zeros(
                            (self.layer_num, device_capacity_tokens, 64), dtype=torch.uint8
                        )

                def build(kv_pool):
                    return CheckedHost(kv_pool.get_info(), device_capacity_tokens=kv_pool.size)
            """
        },
    )
    assert ("CheckedHost", "DevA2") in pairs(result)
    assert la001(result) == [("DevA2", 64, 128)]


def test_a_record_built_by_a_helper_of_the_device_s_module_pairs(tmp_path):
    """SGLang 0.5.23's MiniMax NVFP4 pools return `(_page_row_device_pool_info(self, ...),)`:
    the record is built by a function of the device's own module that its method calls. A
    helper the device does not call does not make it a producer."""
    result = run(
        tmp_path,
        {
            "pkg/rows.py": """
                import msgspec
                import torch

                class RowInfo(msgspec.Struct, frozen=True, kw_only=True):
                    buffers: tuple

                def _row_info(pool):
                    return RowInfo(buffers=tuple(pool.kv_buffer))

                def _unused(pool):
                    return RowInfo(buffers=())

                class RowDev:
                    def __init__(self, size, layer_num):
                        self.size = size
                        self.kv_buffer = [
                            torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)
                        ]

                    def get_info(self):
                        return _row_info(self)

                class OtherDev:  # its module has a helper building a RowInfo it never calls
                    def __init__(self, size, layer_num):
                        self.size = size
                        self.kv_buffer = [
                            torch.zeros((size, 64), dtype=torch.uint8) for _ in range(layer_num)
                        ]

                    def get_info(self):
                        return tuple(self.kv_buffer)

                class RowHost:
                    def __init__(self, buffer_info: RowInfo, capacity: int):
                        self.size = capacity
                        self.kv_buffer = torch.zeros(
                            (len(buffer_info.buffers), capacity, 64), dtype=torch.uint8
                        )

                def build(kv_pool):
                    return RowHost(kv_pool.get_info(), capacity=kv_pool.size)
            """
        },
    )
    assert {p for p in pairs(result) if p[0] == "RowHost"} == {("RowHost", "RowDev")}
    reasons = [u.unknown.reason for u in result.unresolved]
    assert not any("no device pool builds a RowInfo record" in r for r in reasons)
