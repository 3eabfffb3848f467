"""GitHub Actions output: workflow-command escaping, line ranges, and the 10-annotation limit."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from auditor.checks import la001_buffer_size_mismatch
from auditor.checks.findings import Finding, Side
from auditor.frontend.parse import FileError
from auditor.location import Location
from auditor.pipeline import AuditResult, audit
from auditor.report import github
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
INCIDENT = "fixtures/incident_buggy"


def render(result: AuditResult, **options: object) -> list[str]:
    out = io.StringIO()
    github.render(result, out, **options)
    return out.getvalue().splitlines()


def finding(
    line: int = 10,
    *,
    path: str = "pkg/pool.py",
    column: int = 5,
    end_line: int | None = None,
    end_column: int | None = None,
    message: str = "k_buffer: host and device disagree",
    code: str = "LA001",
) -> Finding:
    return Finding(code, message, Location(path, line, column, end_line, end_column))


def annotations(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("::error ")]


@pytest.fixture(scope="module")
def incident() -> AuditResult:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)  # paths as the CLI prints them from the repository root
        return audit([Path(INCIDENT)], load_settings(None))


@pytest.fixture(autouse=True)
def no_summary_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests that run inside GitHub Actions must not append to the real job summary."""
    monkeypatch.delenv(github.SUMMARY_ENV, raising=False)


def test_the_incident_finding_is_one_multi_line_annotation(incident: AuditResult) -> None:
    assert len(incident.findings) == 1
    (line,) = render(incident)
    host = f"{INCIDENT}/sglang/srt/mem_cache/memory_pool_host.py"
    title = f"LA001 {la001_buffer_size_mismatch.SUMMARY}"
    # the host buffer spans lines 96-101: no col/endColumn, which GitHub rejects across lines
    assert line.startswith(f"::error file={host},line=96,endLine=101,title={title}::")
    command, message = line.split("::", 2)[1:]
    assert "col=" not in command and "endColumn=" not in command
    parts = message.split("%0A")
    assert parts[0].startswith("index_k_with_scale_buffer: host and device disagree, 132 B/")
    assert parts[1] == (
        "device side: DeepSeekV4TokenToKVPool.index_k_with_scale_buffer at "
        f"{INCIDENT}/sglang/srt/mem_cache/memory_pool.py:105:13"
    )
    assert parts[2].startswith("pairing: ")
    assert "\r" not in line


def test_a_range_on_one_line_keeps_its_columns() -> None:
    result = AuditResult(findings=[finding(7, column=3, end_line=7, end_column=19)])
    (line,) = render(result)
    assert line.startswith("::error file=pkg/pool.py,line=7,col=3,endLine=7,endColumn=19,title=")


def test_a_point_has_a_column_and_no_end() -> None:
    (line,) = render(AuditResult(findings=[finding(7, column=3)]))
    assert line.startswith("::error file=pkg/pool.py,line=7,col=3,title=LA001 ")
    assert "endLine" not in line


def test_a_multi_line_range_drops_both_columns() -> None:
    (line,) = render(AuditResult(findings=[finding(7, column=3, end_line=9, end_column=2)]))
    assert line.startswith("::error file=pkg/pool.py,line=7,endLine=9,title=LA001 ")


def test_message_escaping() -> None:
    message = "100% of 2: a, b\r\nsecond line\rthird\n::warning::injected"
    (line,) = render(AuditResult(findings=[finding(message=message)]))
    data = line.split("::", 2)[2]
    # colons and commas are legal in the data part; %, CR and LF are not
    assert data == "100%25 of 2: a, b%0D%0Asecond line%0Dthird%0A::warning::injected"


def test_property_escaping() -> None:
    path = "odd,dir/50%:x\n.py"
    (line,) = render(AuditResult(findings=[finding(path=path)]))
    assert line.startswith("::error file=odd%2Cdir/50%25%3Ax%0A.py,line=10,col=5,title=")
    assert github.escape_property("a%b:c,d\r\ne") == "a%25b%3Ac%2Cd%0D%0Ae"
    assert github.escape_data("a%b:c,d\r\ne") == "a%25b:c,d%0D%0Ae"


def test_percent_is_escaped_first() -> None:
    """A literal `%0A` in a message must stay literal, not become a newline."""
    assert github.escape_data("%0A") == "%250A"
    assert github.escape_property("%2C") == "%252C"


def test_file_errors_are_annotated_as_e902() -> None:
    result = AuditResult(
        errors=[FileError("pkg/broken.py", 3, 9, "syntax error: unexpected ':'")],
        findings=[finding()],
    )
    first, second = render(result)
    assert first == (
        "::error file=pkg/broken.py,line=3,col=9,title=E902 File could not be read or parsed"
        "::syntax error: unexpected ':'"
    )
    assert second.startswith("::error file=pkg/pool.py,")


def test_paths_use_forward_slashes_and_can_be_made_relative_to_a_root(tmp_path: Path) -> None:
    inside = tmp_path / "repo" / "pkg" / "pool.py"
    (line,) = render(AuditResult(findings=[finding(path=str(inside))]), root=tmp_path / "repo")
    assert line.startswith("::error file=pkg/pool.py,")


def test_device_side_path_follows_the_root(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    host = Location(str(root / "a" / "host.py"), 4, 1)
    device = Location(str(root / "b" / "device.py"), 8, 2)
    paired = Finding(
        "LA001",
        "k_buffer: host and device disagree",
        host,
        host=Side("host", "HostPool", "k_buffer", host, 4, "4"),
        device=Side("device", "DevicePool", "k_buffer", device, 8, "8"),
    )
    (line,) = render(AuditResult(findings=[paired]), root=root)
    assert line.startswith("::error file=a/host.py,")
    assert "%0Adevice side: DevicePool.k_buffer at b/device.py:8:2" in line


def test_ten_results_are_all_annotated(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    result = AuditResult(findings=[finding(i) for i in range(1, 11)])
    lines = render(result, summary_path=summary)
    assert len(lines) == 10
    assert all(line.startswith("::error file=pkg/pool.py,") for line in lines)
    assert summary.read_text().count("| LA001 |") == 10


def test_more_than_ten_results_leave_the_tenth_annotation_for_the_count(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = AuditResult(
        errors=[FileError("pkg/broken.py", 1, 1, "cannot decode file")],
        findings=[finding(i) for i in range(1, 14)],
    )
    lines = render(result, summary_path=summary)
    errors = annotations(lines)
    assert len(errors) == 10  # GitHub drops every error annotation past the 10th of a step
    assert errors[0].startswith("::error file=pkg/broken.py,line=1,col=1,title=E902 ")
    for i, line in enumerate(errors[1:9], start=1):
        assert line.startswith(f"::error file=pkg/pool.py,line={i},col=5,")
    tenth = errors[9]
    assert "file=" not in tenth
    assert tenth.startswith("::error title=layout-audit%3A 5 more::5 more not shown")
    assert "all 14 findings and file errors are listed in the job summary" in tenth
    # the 5 left over are still in the log, folded, as plain lines (not commands)
    start = lines.index("::group::layout-audit: 5 more not annotated")
    assert lines[start + 1 : start + 6] == [
        f"pkg/pool.py:{i}:5: LA001 k_buffer: host and device disagree" for i in range(9, 14)
    ]
    assert lines[start + 6] == "::endgroup::"
    assert len(lines) == start + 7
    # the job summary is appended to, and lists all 14
    text = summary.read_text()
    assert text.startswith("earlier step\n## layout-audit: 13 findings, 1 file error\n")
    rows = [row for row in text.splitlines() if row.startswith("| ") and "---" not in row]
    assert rows[0] == "| Code | Location | Message |"
    assert len(rows) == 1 + 14
    assert rows[1] == "| E902 | pkg/broken.py:1:1 | cannot decode file |"
    assert rows[-1] == "| LA001 | pkg/pool.py:13:5 | k_buffer: host and device disagree |"


def test_summary_path_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "step_summary.md"
    monkeypatch.setenv(github.SUMMARY_ENV, str(summary))
    render(AuditResult(findings=[finding(i) for i in range(1, 12)]))
    assert summary.read_text().count("| LA001 |") == 11


def test_without_a_summary_the_overflow_points_at_the_log(tmp_path: Path) -> None:
    lines = render(AuditResult(findings=[finding(i) for i in range(1, 12)]))
    tenth = annotations(lines)[9]
    assert "listed in the log of this step" in tenth
    assert "job summary" not in tenth
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_summary_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    missing = tmp_path / "no such folder" / "summary.md"
    lines = render(AuditResult(findings=[finding(i) for i in range(1, 12)]), summary_path=missing)
    assert lines[0].startswith("::warning title=layout-audit%3A no job summary::")
    assert "listed in the log of this step" in annotations(lines)[9]


def test_summary_cells_are_escaped(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    message = "a | b <script> & c\nsecond"
    render(AuditResult(findings=[finding(message=message)]), summary_path=summary)
    row = summary.read_text().splitlines()[-2]
    assert row == "| LA001 | pkg/pool.py:10:5 | a \\| b &lt;script&gt; &amp; c<br>second |"


def test_no_results_print_nothing_and_say_so_in_the_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    assert render(AuditResult(), summary_path=summary) == []
    assert summary.read_text() == "## layout-audit: 0 findings\n\n"
