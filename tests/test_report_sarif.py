"""SARIF output: valid against the official SARIF 2.1.0 schema, and shaped for code scanning."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import auditor
from auditor.checks import checks
from auditor.checks.findings import Finding, Side
from auditor.frontend.parse import FileError
from auditor.location import Location
from auditor.pipeline import AuditResult, audit
from auditor.report import sarif
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
INCIDENT = "fixtures/incident_buggy"
HOST_FILE = f"{INCIDENT}/sglang/srt/mem_cache/memory_pool_host.py"
DEVICE_FILE = f"{INCIDENT}/sglang/srt/mem_cache/memory_pool.py"
# OASIS sarif-spec, Schemata/sarif-schema-2.1.0.json (2.1.0 with errata 01), vendored verbatim
SCHEMA_FILE = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "ddddcccbf95c7c50c037b5b07eff4140556278ca574ff374db46786b5fce7949"
# RFC 3986 characters: jsonschema checks `format: uri` only with optional packages installed
URI_REFERENCE = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+")


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def incident() -> AuditResult:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)  # paths as the CLI prints them from the repository root
        return audit([Path(INCIDENT)], load_settings(None))


def render(result: AuditResult, **options: Any) -> dict[str, Any]:
    out = io.StringIO()
    sarif.render(result, out, **options)
    text = out.getvalue()
    assert text.endswith("\n")
    return json.loads(text)


def side(role: str, class_name: str, buffer: str, location: Location) -> Side:
    return Side(role, class_name, buffer, location, 132, f"{buffer} = 132 B/token/layer")


def pair_finding(
    host_line: int = 40,
    device_line: int = 90,
    *,
    host_path: str = "srt/host.py",
    device_path: str = "srt/device.py",
    buffer: str = "k_buffer",
    message: str = "k_buffer: host and device disagree, 132 vs 256 B/token/layer",
) -> Finding:
    host = Location(host_path, host_line, 9, host_line + 2, 10)
    device = Location(device_path, device_line, 13, device_line, 40)
    return Finding(
        "LA001",
        message,
        host,
        host=side("host", "HostPool", buffer, host),
        device=side("device", "DevicePool", buffer, device),
        config={"page_size": 1},
        points_evaluated=4,
        pairing="constructor parameter device_pool",
    )


def synthetic() -> AuditResult:
    return AuditResult(
        errors=[FileError("srt/broken.py", 3, 7, "syntax error: unexpected ']'")],
        findings=[
            pair_finding(),
            Finding(
                "LA100",
                "unused suppression (LA001): nothing is reported here",
                Location("srt/host.py", 12, 30),
            ),
        ],
    )


def fingerprint(result: dict[str, Any]) -> str:
    return result["partialFingerprints"][sarif.FINGERPRINT_KEY]


def results(log: dict[str, Any]) -> list[dict[str, Any]]:
    return log["runs"][0]["results"]


# --- the schema and the validator are real ---------------------------------------------------


def test_the_vendored_schema_is_the_official_one() -> None:
    assert hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest() == SCHEMA_SHA256
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]


def broken_documents(log: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each a small, deliberate violation of the schema."""

    def changed(edit) -> dict[str, Any]:
        copied = copy.deepcopy(log)
        edit(copied)
        return copied

    def first(copied: dict[str, Any]) -> dict[str, Any]:
        return copied["runs"][0]["results"][0]

    def region(copied: dict[str, Any]) -> dict[str, Any]:
        return first(copied)["locations"][0]["physicalLocation"]["region"]

    return {
        "no version": changed(lambda c: c.pop("version")),
        "wrong version": changed(lambda c: c.update(version="2.0.0")),
        "no driver name": changed(lambda c: c["runs"][0]["tool"]["driver"].pop("name")),
        "unknown level": changed(lambda c: first(c).update(level="fatal")),
        "message without text": changed(lambda c: first(c).update(message={})),
        "line 0": changed(lambda c: region(c).update(startLine=0)),
        "column as text": changed(lambda c: region(c).update(startColumn="16")),
        "unknown property": changed(lambda c: first(c).update(severity="high")),
        "negative rule index": changed(lambda c: first(c).update(ruleIndex=-2)),
        "fingerprint not a string": changed(
            lambda c: first(c)["partialFingerprints"].update({sarif.FINGERPRINT_KEY: 1})
        ),
    }


def test_the_validator_rejects_broken_documents(
    validator: jsonschema.protocols.Validator, incident: AuditResult
) -> None:
    """Control: validation below would catch an invalid log, not pass anything."""
    log = render(incident)
    validator.validate(log)
    for name, broken in broken_documents(log).items():
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(broken)
        assert not validator.is_valid(broken), name


# --- valid output -----------------------------------------------------------------------------


def test_the_incident_log_is_valid(
    validator: jsonschema.protocols.Validator, incident: AuditResult
) -> None:
    validator.validate(render(incident))


def test_a_log_with_every_kind_of_result_is_valid(
    validator: jsonschema.protocols.Validator,
) -> None:
    validator.validate(render(synthetic()))


def test_an_empty_log_is_valid_and_still_lists_results(
    validator: jsonschema.protocols.Validator,
) -> None:
    log = render(AuditResult())
    validator.validate(log)
    assert results(log) == []  # present and empty: an actual scan that found nothing


def test_a_log_with_paths_relative_to_a_root_is_valid(
    validator: jsonschema.protocols.Validator, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    result = AuditResult(
        findings=[pair_finding(host_path=str(root / "a b.py"), device_path="/elsewhere/d.py")]
    )
    validator.validate(render(result, root=root))


def uris(node: Any) -> list[tuple[str, str]]:
    """Every (key, value) of a URI-valued property in the log."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("$schema", "uri", "informationUri") and isinstance(value, str):
                found.append((key, value))
            else:
                found += uris(value)
    elif isinstance(node, list):
        for item in node:
            found += uris(item)
    return found


def test_every_uri_is_well_formed(incident: AuditResult, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    odd = pair_finding(host_path=str(root / "a b%#?.py"), device_path=str(tmp_path / "ü x.py"))
    for log in (render(incident), render(AuditResult(findings=[odd]), root=root)):
        found = uris(log)
        assert {key for key, _ in found} == {"$schema", "uri"}
        for key, value in found:
            assert URI_REFERENCE.fullmatch(value), (key, value)
            if key != "uri":
                assert value.startswith("https://"), (key, value)
            elif ":" in value.split("/")[0]:
                assert value.startswith("file:///"), value  # only absolute URIs have a scheme


# --- shape ------------------------------------------------------------------------------------


def test_header_and_driver() -> None:
    log = render(AuditResult())
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "layout-audit"
    assert driver["version"] == auditor.__version__
    assert "informationUri" not in driver  # no public home page yet
    with_home = render(AuditResult(), information_uri="https://example.org/layout-audit")
    assert (
        with_home["runs"][0]["tool"]["driver"]["informationUri"]
        == "https://example.org/layout-audit"
    )


def test_one_rule_per_check_and_one_for_e902() -> None:
    rules = render(AuditResult())["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [*sorted(checks()), "E902"]
    for rule in rules[:-1]:
        check = checks()[rule["id"]]
        assert rule["name"] == check.name
        assert rule["shortDescription"] == {"text": check.summary}
        assert rule["fullDescription"]["text"]
        assert "\n" not in rule["fullDescription"]["text"]
        assert rule["help"] == {"text": check.explanation, "markdown": check.explanation}
        assert rule["defaultConfiguration"] == {"level": "error"}
    assert rules[-1]["name"] == "unreadable-file"
    assert rules[-1]["defaultConfiguration"] == {"level": "error"}


def test_rule_index_points_at_the_rule() -> None:
    log = render(synthetic())
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["ruleId"] for r in results(log)] == ["E902", "LA001", "LA100"]
    for result in results(log):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == "error"


def test_the_incident_result(incident: AuditResult) -> None:
    (result,) = results(render(incident))
    assert result["ruleId"] == "LA001"
    assert result["message"]["text"].startswith(
        "index_k_with_scale_buffer: host and device disagree, 132 B/token/layer vs 256"
    )
    # the related location is linked from the message, or code scanning does not show it
    assert result["message"]["text"].endswith(
        ". Device side: [DeepSeekV4TokenToKVPool.index_k_with_scale_buffer](1)."
    )
    (location,) = result["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": HOST_FILE, "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 96, "startColumn": 16, "endLine": 101, "endColumn": 10},
    }
    (related,) = result["relatedLocations"]
    assert related["id"] == 1
    assert related["physicalLocation"]["artifactLocation"] == {
        "uri": DEVICE_FILE,
        "uriBaseId": "%SRCROOT%",
    }
    assert related["physicalLocation"]["region"]["startLine"] == 105
    assert related["message"]["text"].startswith(
        "device side: DeepSeekV4TokenToKVPool.index_k_with_scale_buffer: "
    )
    assert "256 B/token/layer" in related["message"]["text"]


def test_file_error_result() -> None:
    error = results(render(synthetic()))[0]
    assert error["message"] == {"text": "syntax error: unexpected ']'"}
    assert error["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "srt/broken.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 3, "startColumn": 7},
    }
    assert "relatedLocations" not in error


def test_brackets_in_a_message_with_a_link_are_escaped() -> None:
    finding = pair_finding(message="k_buffer: shape [n, 132] vs [n, 256]")
    (result,) = results(render(AuditResult(findings=[finding])))
    assert result["message"]["text"] == (
        "k_buffer: shape \\[n, 132\\] vs \\[n, 256\\]. Device side: [DevicePool.k_buffer](1)."
    )


# --- paths ------------------------------------------------------------------------------------


def test_uris_are_relative_to_the_root_with_forward_slashes(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    finding = pair_finding(
        host_path=str(root / "srt" / "mem cache" / "host.py"),
        device_path=str(root / "srt" / "device.py"),
    )
    (result,) = results(render(AuditResult(findings=[finding]), root=root))
    host = result["locations"][0]["physicalLocation"]["artifactLocation"]
    device = result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
    assert host == {"uri": "srt/mem%20cache/host.py", "uriBaseId": "%SRCROOT%"}
    assert device == {"uri": "srt/device.py", "uriBaseId": "%SRCROOT%"}


def test_relative_paths_are_resolved_against_the_working_directory_for_a_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "repo" / "sub").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "repo" / "sub")  # audited from a subfolder of the repository
    location = sarif.artifact_location("pools/host.py", root=tmp_path / "repo")
    assert location == {"uri": "sub/pools/host.py", "uriBaseId": "%SRCROOT%"}
    assert sarif.artifact_location("pools/host.py", root="..") == location


def test_a_path_outside_the_root_is_an_absolute_file_uri(tmp_path: Path) -> None:
    outside = tmp_path / "other" / "host.py"
    location = sarif.artifact_location(str(outside), root=tmp_path / "repo")
    assert location == {"uri": outside.as_uri()}


def test_without_a_root_absolute_and_parent_paths_are_file_uris(tmp_path: Path) -> None:
    absolute = tmp_path / "x.py"
    assert sarif.artifact_location(str(absolute)) == {"uri": absolute.as_uri()}
    above = sarif.artifact_location("../x.py")
    assert above["uri"].startswith("file:///") and "uriBaseId" not in above
    assert sarif.artifact_location("./a/../b/c.py") == {"uri": "b/c.py", "uriBaseId": "%SRCROOT%"}


# --- fingerprints -----------------------------------------------------------------------------


def test_fingerprints_ignore_line_numbers_and_messages() -> None:
    before = results(render(AuditResult(findings=[pair_finding(40, 90)])))[0]
    moved = pair_finding(57, 3, message="k_buffer: host and device disagree, 132 vs 512")
    after = results(render(AuditResult(findings=[moved])))[0]
    assert before["locations"] != after["locations"]
    assert fingerprint(before) == fingerprint(after)


def test_fingerprints_follow_identity() -> None:
    base = fingerprint(results(render(AuditResult(findings=[pair_finding()])))[0])
    other_buffer = pair_finding(buffer="v_buffer")
    other_file = pair_finding(host_path="srt/other_host.py")
    other_device = dataclasses.replace(
        pair_finding(),
        device=dataclasses.replace(pair_finding().device, class_name="OtherDevicePool"),
    )
    for finding in (other_buffer, other_file, other_device):
        assert fingerprint(results(render(AuditResult(findings=[finding])))[0]) != base


def test_fingerprint_is_a_sha256_over_code_path_classes_and_buffer() -> None:
    (result,) = results(render(AuditResult(findings=[pair_finding()])))
    digest = hashlib.sha256(
        "\0".join(["LA001", "srt/host.py", "HostPool", "k_buffer", "DevicePool"]).encode()
    ).hexdigest()
    assert fingerprint(result) == f"{digest}:1"


def test_fingerprints_use_the_repository_relative_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same file audited from the root or from a subfolder is the same alert."""
    (tmp_path / "srt").mkdir()
    monkeypatch.chdir(tmp_path)
    from_root = results(render(AuditResult(findings=[pair_finding()]), root=tmp_path))[0]
    monkeypatch.chdir(tmp_path / "srt")
    relative = pair_finding(host_path="host.py", device_path="device.py")
    from_sub = results(render(AuditResult(findings=[relative]), root=tmp_path))[0]
    assert fingerprint(from_root) == fingerprint(from_sub)


def test_identical_identities_in_one_run_are_told_apart() -> None:
    first = Finding("LA100", "unused suppression (LA001): nothing", Location("a.py", 3, 1))
    second = dataclasses.replace(first, location=Location("a.py", 9, 1))
    log = render(AuditResult(findings=[first, second]))
    one, two = (fingerprint(r) for r in results(log))
    assert one.endswith(":1") and two.endswith(":2")
    assert one.split(":")[0] == two.split(":")[0]
