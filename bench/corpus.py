"""Audit pinned SGLang releases from PyPI and print how much of their pool code is understood.

    python bench/corpus.py                      # the default releases, table to stdout
    python bench/corpus.py 0.5.23 --markdown docs/reports/corpus.md

Each release is fetched once with `pip download --no-deps sglang==X` into `bench/.cache/` and
unpacked there; its `sglang/srt` tree (with `sglang/kernels`, where layouts such as DeepSeek-V4's
`KVLayout` live, when the wheel has it) is audited with the bundled SGLang rule pack and no other
configuration, in a child process so that wall time and peak memory are its own. Needs network
access to PyPI the first time; the default test run never calls this (see the `corpus` marker).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path

RELEASES = ("0.4.6.post5", "0.4.10", "0.5.1", "0.5.5", "0.5.10", "0.5.21", "0.5.22", "0.5.23")
CACHE = Path(__file__).resolve().parent / ".cache"

PACKAGES = ("sglang/srt/", "sglang/kernels/")  # audited; kernels only in recent wheels


def fetch(version: str, cache: Path = CACHE) -> list[Path]:
    """The unpacked folders of a release to audit, downloading and unpacking it once."""
    target = cache / version
    marker = target / ".unpacked"  # written once every package of PACKAGES is unpacked
    if not marker.is_file():
        _unpack(version, cache, target)
        marker.write_text(" ".join(PACKAGES) + "\n")
    return [target / p for p in PACKAGES if (target / p).is_dir()]


def _unpack(version: str, cache: Path, target: Path) -> None:
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = sorted(wheels.glob(f"sglang-{version}-*.whl"))
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "-d",
                str(wheels),
                f"sglang=={version}",
            ],
            check=True,
        )
        found = sorted(wheels.glob(f"sglang-{version}-*.whl"))
    with zipfile.ZipFile(found[0]) as wheel:
        members = [m for m in wheel.namelist() if m.startswith(PACKAGES) and m.endswith(".py")]
        wheel.extractall(target, members)


def measure(trees: list[Path]) -> dict:
    """Audit one release in this process and summarise it (run in a child by `run_release`)."""
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    started = time.perf_counter()
    settings = load_settings(None)
    settings.respect_gitignore = False  # the cache folder is git-ignored by this project
    result = audit(trees, settings)
    seconds = time.perf_counter() - started
    buffers: dict[tuple[str, str, str], bool] = {}  # (module path, class, buffer) -> resolved
    why: dict[tuple[str, str, str], str] = {}  # the first reason a buffer is unresolved
    infeasible: dict[tuple[str, str], str] = {}  # pools built at no config point: buffers unseen
    for evaluation in result.evaluations:
        if not evaluation.feasible and evaluation.points:
            skipped = evaluation.points[0].infeasible or evaluation.points[0].failure
            key = (evaluation.device.module.path, evaluation.device.name)
            infeasible[key] = " ".join(str(getattr(skipped, "reason", skipped)).split())
        sides = [(evaluation.device, "device")]
        if evaluation.host is not None:
            sides.append((evaluation.host, "host"))
        for cls, role in sides:
            for point in evaluation.feasible:
                figures = point.device if role == "device" else point.host
                for name, figure in figures.items():
                    key = (cls.module.path, cls.name, name)
                    buffers[key] = buffers.get(key, True) and figure.resolved
                    if not figure.resolved:
                        why.setdefault(key, " ".join(figure.unknown.reason.split()))
    compared, not_compared, refused = pairs_compared(result)
    in_mem_cache = {k: v for k, v in buffers.items() if "/mem_cache/" in k[0]}
    reasons = Counter(_reason_kind(item.unknown.reason) for item in result.unresolved)
    catalog = result.catalog
    return {
        "files": result.files_read,
        "device_pools": len(catalog.devices) if catalog else 0,
        "host_pools": len(catalog.hosts) if catalog else 0,
        "pairs": len(catalog.pairs) if catalog else 0,
        "buffers": len(buffers),
        "resolved": sum(buffers.values()),
        "mem_cache_buffers": len(in_mem_cache),
        "mem_cache_resolved": sum(in_mem_cache.values()),
        "mem_cache_unresolved": [
            f"{cls}.{name}: {why.get((path, cls, name), '?')}"
            for (path, cls, name), ok in sorted(in_mem_cache.items(), key=lambda kv: kv[0][1:])
            if not ok
        ],
        "mem_cache_infeasible": [
            f"{cls}: {reason}"
            for (path, cls), reason in sorted(infeasible.items(), key=lambda kv: kv[0][1])
            if "/mem_cache/" in path
        ],
        "pairs_compared": compared,
        "pairs_refused": refused,
        "pairs_not_compared": not_compared,
        "hosts_never_paired": [
            f"{host} ({location.path}:{location.line}): {' '.join(why.split())[:200]}"
            for host, location, why in result.coverage.unpaired
        ],
        "hosts_sized_by_device": [
            f"{host} ({location.path}:{location.line}): {' '.join(why.split())[:200]}"
            for host, location, why in result.coverage.by_device
        ],
        "findings": dict(Counter(f.code for f in result.findings)),
        "finding_lines": [f"{f.location}: {f.code} {f.message}" for f in result.findings],
        "errors": len(result.errors),
        "top_unresolved": reasons.most_common(8),
        "seconds": round(seconds, 1),
    }


def pairs_compared(result) -> tuple[int, list[str], int]:
    """How many host/device pairs were compared (auditor/coverage.py, as every report counts
    them); for the others, why not; and how many are counted apart: refused by the host at
    every point, or views of the device (no storage of their own)."""
    coverage = result.coverage
    missing = [
        f"{pair.title} ({pair.pairing[:60]}): {' '.join(pair.why.split())[:200]}"
        for pair in coverage.never_compared
    ]
    return coverage.compared, missing, len(coverage.refused) + len(coverage.views)


def _reason_kind(reason: str) -> str:
    """Group reasons that differ only in names or numbers."""
    words = []
    for word in reason.split()[:9]:
        words.append("…" if any(ch.isdigit() for ch in word) or "'" in word else word)
    return " ".join(words)


def run_release(version: str) -> dict:
    trees = fetch(version)
    started = time.perf_counter()
    child = subprocess.run(
        ["/usr/bin/time", "-f", "%M", sys.executable, __file__, "--measure", *map(str, trees)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"audit of {version} failed:\n{child.stderr[-2000:]}")
    summary = json.loads(child.stdout)
    summary["version"] = version
    summary["wall"] = round(wall, 1)
    summary["peak_mb"] = round(int(child.stderr.strip().splitlines()[-1]) / 1024)
    return summary


def _percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def table(rows: list[dict]) -> str:
    header = (
        "| release | files | device / host pools | pairs | pairs compared | refused by the host or views "
        "| hosts never paired | hosts sized by their device | buffers resolved at every point "
        "| mem_cache buffers resolved | mem_cache pools built at no point | findings | wall "
        "| peak RSS |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n"
    )
    lines = []
    for row in rows:
        findings = (
            ", ".join(f"{code}: {n}" for code, n in sorted(row["findings"].items())) or "none"
        )
        lines.append(
            f"| {row['version']} | {row['files']} | {row['device_pools']} / {row['host_pools']} "
            f"| {row['pairs']} "
            f"| {_percent(row.get('pairs_compared', 0), row['pairs'] - row.get('pairs_refused', 0))} "
            f"| {row.get('pairs_refused', 0)} "
            f"| {len(row.get('hosts_never_paired', []))} "
            f"| {len(row.get('hosts_sized_by_device', []))} "
            f"| {_percent(row['resolved'], row['buffers'])} "
            f"| {_percent(row['mem_cache_resolved'], row['mem_cache_buffers'])} "
            f"| {len(row['mem_cache_infeasible'])} | {findings} "
            f"| {row['wall']} s | {row['peak_mb']} MB |"
        )
    details = []
    for row in rows:
        details.append(f"\n### {row['version']}: top unresolved reasons\n")
        for reason, count in row["top_unresolved"]:
            details.append(f"- {count} x {reason}")
        for line in row["finding_lines"]:
            details.append(f"- finding: `{line}`")
        for line in row.get("pairs_not_compared", []):
            details.append(f"- pair not compared: {_short(line)}")
        for line in row.get("hosts_never_paired", []):
            details.append(f"- host never paired: {_short(line)}")
        for line in row.get("hosts_sized_by_device", []):
            details.append(f"- host sized by its device: {_short(line)}")
        for line in row["mem_cache_unresolved"]:
            details.append(f"- unresolved mem_cache buffer: {_short(line)}")
        for line in row["mem_cache_infeasible"]:
            details.append(f"- mem_cache pool built at no config point: {_short(line)}")
    return header + "\n".join(lines) + "\n" + "\n".join(details) + "\n"


def _short(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


KEEP_BELOW = "<!-- written by hand below: kept when the table is regenerated -->"


def write_markdown(path: Path, text: str) -> None:
    """The generated table, then whatever was written by hand below KEEP_BELOW."""
    kept = ""
    if path.is_file():
        old = path.read_text()
        if KEEP_BELOW in old:
            kept = old[old.index(KEEP_BELOW) :]
    path.write_text(
        "# layout-audit on real SGLang releases\n\n"
        "Generated by `python bench/corpus.py --markdown docs/reports/corpus.md` (each wheel's "
        "`sglang/srt`, with `sglang/kernels` where the wheel has it; bundled SGLang pack, no "
        "other config). A pool built at no config point has no buffers in the counts: it is "
        "listed instead.\n\n" + text + ("\n" + kept if kept else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("releases", nargs="*", default=list(RELEASES))
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument("--measure", type=Path, nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    rows = [run_release(version) for version in args.releases]
    text = table(rows)
    print(text)
    if args.markdown:
        write_markdown(args.markdown, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
