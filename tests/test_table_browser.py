"""The layout table's HTML page in a real browser: headless Chromium renders the mismatched cell.

Skipped when no Chromium binary is found, except in CI (`CI` set, as CI services set it), where
a missing browser is a failure: .ci/run installs it.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from auditor.cli import main

REPO = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
RED = (0xE0, 0x24, 0x2B)  # td.mismatch background in auditor/report/table.py


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def chromium() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    if in_ci():
        pytest.fail(f"CI is set but no Chromium binary ({', '.join(BROWSERS)}) is on PATH")
    pytest.skip("no Chromium binary on PATH (apt-get install chromium)")


def write_page(tmp_path: Path, fixture: str, capsys) -> Path:
    page = tmp_path / f"{fixture}.html"
    main(["--isolated", "--table-html", str(page), str(REPO / "fixtures" / fixture)])
    capsys.readouterr()
    assert page.is_file()
    return page


def browse(chromium: str, tmp_path: Path, page: Path, *action: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    done = subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", *action, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def screenshot(chromium: str, tmp_path: Path, page: Path) -> Path:
    png = tmp_path / f"{page.stem}.png"
    browse(chromium, tmp_path, page, f"--screenshot={png}", "--window-size=1400,900")
    assert png.is_file() and png.stat().st_size > 0
    return png


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit, non-interlaced RGB/RGBA/grey PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat = 8, b""
    width = height = channels = 0
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, (depth, interlace)
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + predictor) & 0xFF
            else:
                assert kind == 0, f"unknown PNG filter {kind}"
        previous = line
        if channels >= 3:
            rows.append(bytes(b for i in range(0, stride, channels) for b in line[i : i + 3]))
        else:
            rows.append(bytes(line[i] for i in range(0, stride, channels) for _ in range(3)))
    return width, height, rows


def red_runs(rows: list[bytes]) -> list[int]:
    """Per pixel row, the longest horizontal run of pixels close to the mismatch red."""
    longest = []
    for row in rows:
        best = run = 0
        for i in range(0, len(row), 3):
            r, g, b = row[i], row[i + 1], row[i + 2]
            if abs(r - RED[0]) <= 40 and abs(g - RED[1]) <= 40 and abs(b - RED[2]) <= 40:
                run += 1
                best = max(best, run)
            else:
                run = 0
        longest.append(best)
    return longest


def test_the_mismatched_cell_is_in_the_rendered_dom(chromium, tmp_path, capsys):
    page = write_page(tmp_path, "incident_buggy", capsys)
    dom = browse(chromium, tmp_path, page, "--dump-dom").stdout
    cells = re.findall(r'<td class="([^"]*)"[^>]*>([^<]*)</td>', dom)
    assert len(cells) == 32 * 2 + 16  # both pairs' grids (two layouts the host moves)
    mismatched = [text for kind, text in cells if "mismatch" in kind.split()]
    assert mismatched == ["132 \u2260 256"] * 16
    assert "MLATokenToKVPoolHost \u2190 DeepSeekV4TokenToKVPool" in dom


def test_the_mismatched_cell_renders_red(chromium, tmp_path, capsys):
    buggy = screenshot(chromium, tmp_path, write_page(tmp_path, "incident_buggy", capsys))
    width, height, rows = read_png(buggy)
    assert width >= 1000 and height >= 600, (width, height)
    runs = red_runs(rows)
    # a cell-wide red band (the legend swatch is a ~20 px square), several rows of cells tall
    wide = [n for n in runs if n >= 100]
    assert len(wide) >= 40, f"longest red run {max(runs)} px, {len(wide)} rows >= 100 px"
    # the same page of the fixed tree shows no such band: the red comes from the mismatch
    fixed = screenshot(chromium, tmp_path, write_page(tmp_path, "incident_fixed", capsys))
    assert max(red_runs(read_png(fixed)[2])) < 60
