"""The layout table: the grid model, its text and HTML renderings, and the CLI flags."""

from __future__ import annotations

import dataclasses
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import torch
from helpers import write_tree

from auditor.cli import main
from auditor.pipeline import audit
from auditor.report import table
from auditor.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
BUGGY = REPO / "fixtures" / "incident_buggy"
FIXED = REPO / "fixtures" / "incident_fixed"
INCIDENT = "MLATokenToKVPoolHost <- DeepSeekV4TokenToKVPool"
INDEX_K = "index_k_with_scale_buffer"


def grids_of(path: Path) -> list[table.Grid]:
    settings = load_settings(None)
    return table.build(audit([path], settings), settings)


@pytest.fixture(scope="module")
def buggy_grids() -> list[table.Grid]:
    return grids_of(BUGGY)


@pytest.fixture(scope="module")
def fixed_grids() -> list[table.Grid]:
    return grids_of(FIXED)


def text_of(grids: list[table.Grid]) -> str:
    out = io.StringIO()
    table.render_text(grids, out)
    return out.getvalue()


def html_of(grids: list[table.Grid]) -> str:
    out = io.StringIO()
    table.render_html(grids, out)
    return out.getvalue()


class Cells(HTMLParser):
    """Every <td> of a page: its attributes and text; and every tag name seen."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[dict[str, str], str]] = []
        self.tags: set[str] = set()
        self.headings: list[str] = []
        self._td: dict[str, str] | None = None
        self._h2: bool = False
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag in ("td", "h2"):
            self._td = dict(attrs) if tag == "td" else None
            self._h2 = tag == "h2"
            self._text = []

    def handle_endtag(self, tag):
        if tag == "td" and self._td is not None:
            self.cells.append((self._td, "".join(self._text)))
            self._td = None
        if tag == "h2" and self._h2:
            self.headings.append("".join(self._text))
            self._h2 = False

    def handle_data(self, data):
        self._text.append(data)


def parse(page: str) -> Cells:
    parser = Cells()
    parser.feed(page)
    parser.close()
    return parser


def classes(attrs: dict[str, str]) -> set[str]:
    return set(attrs.get("class", "").split())


# -- the model ---------------------------------------------------------------------------------


def test_buggy_grid_flags_index_k_at_bfloat16_only(buggy_grids):
    assert [g.title for g in buggy_grids] == [
        INCIDENT,  # pairs that disagree come first
        "MLATokenToKVPoolHost <- MLATokenToKVPool",
    ]
    grid = buggy_grids[0]
    assert grid.varied == ["dtype", "index_k_dtype", "layout", "page_size"]
    assert grid.columns == [INDEX_K, "kv_buffer"]
    assert grid.evidence == (
        "annotation MLATokenToKVPool on MLATokenToKVPoolHost.__init__"
        " (no construction site in the audited paths)"
    )
    # page_first_direct: refused by the host (it raises), not shown
    assert len(grid.rows) == 32 and grid.skipped == 16
    for row in grid.rows:
        cell = row.cells[INDEX_K]
        if row.values["index_k_dtype"] == torch.bfloat16:
            assert cell.mismatch
            assert (cell.host_text, cell.device_text) == ("132", "256")
            assert "index_head_dim // quant_block_size * 4" in cell.detail
        else:
            assert not cell.mismatch
            assert (cell.host_text, cell.device_text) == ("132", "132")
        assert not row.cells["kv_buffer"].mismatch
    assert grid.mismatches == 16
    assert buggy_grids[1].mismatches == 0


def test_fixed_grids_have_no_mismatch(fixed_grids):
    assert len(fixed_grids) == 2
    assert all(g.mismatches == 0 and g.unresolved == 0 for g in fixed_grids)
    incident = next(g for g in fixed_grids if g.title == INCIDENT)
    for row in incident.rows:
        if row.values["index_k_dtype"] == torch.bfloat16:
            assert row.cells[INDEX_K].host_text == row.cells[INDEX_K].device_text == "256"


# -- text --------------------------------------------------------------------------------------


def test_text_marks_the_mismatched_cells(buggy_grids):
    text = text_of(buggy_grids)
    assert f"\n{INCIDENT}\n" in text
    lines = text.splitlines()
    start = lines.index(INCIDENT)
    header = lines[start + 2].split()
    assert header == ["dtype", "index_k_dtype", "layout", "page_size", INDEX_K, "kv_buffer"]
    marked = [line for line in lines[1:] if "!=" in line]  # lines[0] is the legend
    assert len(marked) == 16
    for line in marked:
        fields = re.split(r"\s{2,}", line.strip())
        assert fields[1] == "bfloat16", line  # index_k_dtype
        assert re.search(r"\b132 != 256 \*", line), line
    # columns line up: every row of the incident grid puts its cells at the same offsets
    rows = lines[start + 3 : start + 3 + 32]
    offsets = {line.index("/ 1152") if "/ 1152" in line else line.index("/  576") for line in rows}
    assert len(offsets) == 1
    assert "16 of 64 cells disagree; 32 config points (16 infeasible or failed" in text


def test_text_of_the_fixed_tree_has_no_marks(fixed_grids):
    text = text_of(fixed_grids)
    assert INCIDENT in text
    body = text.split("\n", 1)[1]  # past the legend line, which names the marks
    assert "!=" not in body and "*" not in body
    assert re.search(r"\b256 +/ +256\b", body)


def test_text_without_pairs():
    assert text_of([]) == "layout table: no host/device pairs\n"


# -- HTML --------------------------------------------------------------------------------------


def test_html_marks_the_mismatched_cells(buggy_grids):
    page = html_of(buggy_grids)
    assert page.startswith("<!DOCTYPE html>")
    parsed = parse(page)
    mismatched = [(a, t) for a, t in parsed.cells if "mismatch" in classes(a)]
    assert len(mismatched) == 16
    for attrs, text in mismatched:
        assert text == "132 \u2260 256"
        assert (attrs["data-host"], attrs["data-device"]) == ("132", "256")
        assert "index_head_dim + index_head_dim // quant_block_size * 4" in attrs["title"]
        assert "page_size * index_k_row_size" in attrs["title"]
    assert re.search(r"td\.mismatch \{[^}]*background: #e0242b", page)
    assert parsed.headings[0] == "MLATokenToKVPoolHost \u2190 DeepSeekV4TokenToKVPool"
    # the rows are labelled by the varied dimensions, and the pairing evidence is shown
    assert (
        '<tr title="dtype=bfloat16, index_k_dtype=bfloat16, layout=layer_first, page_size=1">'
        in page
    )
    assert "pairing: annotation MLATokenToKVPool on MLATokenToKVPoolHost.__init__" in page
    assert 'class="legend"' in page


def test_html_is_self_contained(buggy_grids):
    page = html_of(buggy_grids)
    tags = parse(page).tags
    assert not tags & {"script", "link", "img", "iframe", "object", "embed"}
    assert "<style>" in page
    assert not re.search(r"(src|href)=|url\(|https?://|@import", page)


def test_html_of_the_fixed_tree_has_no_mismatched_cell(fixed_grids):
    cells = parse(html_of(fixed_grids)).cells
    assert cells and not [a for a, _ in cells if "mismatch" in classes(a)]


def test_html_escapes_names(buggy_grids):
    evil_host = 'Host<script>alert("x")</script>&'
    evil_buffer = "buf<b>"
    grid = buggy_grids[0]
    renamed = dataclasses.replace(
        grid,
        host=evil_host,
        evidence="annotation <KVCache> & co",
        columns=[evil_buffer if c == INDEX_K else c for c in grid.columns],
        rows=[
            dataclasses.replace(
                row,
                cells={(evil_buffer if k == INDEX_K else k): v for k, v in row.cells.items()},
            )
            for row in grid.rows
        ],
    )
    page = html_of([renamed])
    assert "<script>" not in page and "<b>" not in page
    assert "Host&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;" in page
    assert "buf&lt;b&gt;" in page
    assert "annotation &lt;KVCache&gt; &amp; co" in page
    parsed = parse(page)
    assert "script" not in parsed.tags
    assert parsed.headings == [f"{evil_host} \u2190 DeepSeekV4TokenToKVPool"]


def test_html_without_pairs():
    assert "No host/device pairs." in html_of([])


# -- an unresolved cell ------------------------------------------------------------------------

DEVICE = """
    import torch

    class KVCache:
        def __init__(self, size, layer_num, dtype: torch.dtype = torch.bfloat16):
            self.size = size
            self.layer_num = layer_num
            self.k_buffer = [torch.zeros((size + 1, 128), dtype=dtype) for _ in range(layer_num)]
"""

HOST = """
    import torch

    from pools.device import KVCache

    class HostKVCache:
        def __init__(self, device_pool: KVCache):
            self.size = device_pool.size * 2
            self.layer_num = device_pool.layer_num
            self.k_buffer = torch.zeros((self.layer_num, self.size, 128), dtype=pick_dtype())
"""


@pytest.fixture
def unresolved_tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    files = {"pools/__init__.py": "", "pools/device.py": DEVICE, "pools/host.py": HOST}
    return write_tree(tmp_path / "tree", files)


def test_unresolved_cell_shows_a_question_mark_and_the_reason(unresolved_tree):
    [grid] = grids_of(unresolved_tree)
    assert grid.unresolved == 4 and grid.mismatches == 0
    cell = grid.rows[0].cells["k_buffer"]
    assert (cell.host_text, cell.device_text) == ("?", "256")
    text = text_of([grid])
    assert "?  / 256" in text
    assert "4 cells unresolved" in text
    assert re.search(r"\? k_buffer host: .*pick_dtype", text)
    cells = parse(html_of([grid])).cells
    assert len(cells) == 4
    for attrs, content in cells:
        assert "unresolved" in classes(attrs) and "mismatch" not in classes(attrs)
        assert content.startswith("? / ")
        assert "pick_dtype" in attrs["title"]


# -- command line ------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_table_after_the_findings(capsys):
    code, out, _ = run(capsys, "--isolated", "--table", str(BUGGY))
    assert code == 1
    finding = out.index("LA001")
    assert out.index("layout table") > finding
    assert "132 != 256 *" in out
    code, out, _ = run(capsys, "--isolated", "--table", str(FIXED))
    assert code == 0
    assert INCIDENT in out and "!=" not in out.split("layout table", 1)[1].split("\n", 1)[1]


def test_cli_table_html_writes_the_page(tmp_path, capsys):
    target = tmp_path / "table.html"
    code, out, _ = run(capsys, "--isolated", "--table-html", str(target), str(BUGGY))
    assert code == 1
    assert "LA001" in out and "<td" not in out  # findings as usual on stdout
    page = target.read_text(encoding="utf-8")
    assert len([a for a, _ in parse(page).cells if "mismatch" in classes(a)]) == 16
    code, _, _ = run(capsys, "--isolated", "--table-html", str(target), str(FIXED))
    assert code == 0
    assert not [a for a, _ in parse(target.read_text()).cells if "mismatch" in classes(a)]


def test_cli_output_format_html_writes_the_page_to_stdout(capsys):
    code, out, err = run(capsys, "--isolated", "--output-format", "html", str(BUGGY))
    assert code == 1
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert "LA001 " not in out  # no text findings mixed into the page
    assert "Found 1 finding" in err
    assert len([a for a, _ in parse(out).cells if "mismatch" in classes(a)]) == 16
    assert run(capsys, "--isolated", "--output-format", "html", str(FIXED))[0] == 0


def test_cli_output_format_html_from_the_config(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.layout-audit]\noutput-format = "html"\n')
    code, out, _ = run(capsys, "--config", "pyproject.toml", str(BUGGY))
    assert code == 1 and out.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("where", ["missing-dir/table.html", "."])
def test_cli_unwritable_table_html_exits_2_with_one_line(tmp_path, monkeypatch, capsys, where):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--isolated", "--table-html", where, str(BUGGY))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"layout-audit: error: cannot write --table-html {where}: ")


@pytest.mark.parametrize("output_format", ["json", "sarif", "html"])
def test_cli_text_table_with_a_machine_format_is_a_usage_error(capsys, output_format):
    code, out, err = run(
        capsys, "--isolated", "--table", "--output-format", output_format, str(BUGGY)
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--table" in err and output_format in err


def test_cli_exit_zero_still_applies(capsys, tmp_path):
    argv = ["--isolated", "--exit-zero", "--table", "--table-html", str(tmp_path / "t.html")]
    assert run(capsys, *argv, str(BUGGY))[0] == 0
