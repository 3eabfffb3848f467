"""Audit vLLM releases from PyPI wheels and print what the vLLM engine found in each.

    python bench/corpus_vllm.py                                  # default releases
    python bench/corpus_vllm.py 0.11.0 0.11.1 --markdown docs/reports/corpus-vllm.md

Each release is fetched once with `pip download --no-deps --only-binary :all: vllm==X` (a wheel
is 240-440 MB), only its `vllm/**/*.py` is kept (about 35 MB) and the wheel is deleted. The
`vllm` tree is audited with no configuration (the vLLM pack is picked because the tree defines
KV spec classes), in a child process so that wall time and peak memory are its own. The
default test run never calls this (see the `corpus` marker and tests/test_corpus_vllm.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import _reason_kind, _short  # noqa: E402 - shared with the SGLang corpus

RELEASES = (
    "0.11.0",
    "0.11.1",
    "0.12.0",
    "0.14.0",
    "0.18.0",
    "0.22.0",
    "0.28.0",
    "0.29.0",
    "0.33.0",
)
CACHE = Path(os.environ.get("VLLM_CORPUS_CACHE", "/work/vllm-cache"))


def fetch(version: str, cache: Path = CACHE) -> Path:
    """The unpacked `vllm` folder of a release, downloading and unpacking it once."""
    tree = cache / version / "vllm"
    if tree.is_dir():
        return tree
    wheels = cache / "wheels" / version
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "-d",
            str(wheels),
            f"vllm=={version}",
        ],
        check=True,
    )
    [wheel] = sorted(wheels.glob(f"vllm-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        members = [m for m in archive.namelist() if m.startswith("vllm/") and m.endswith(".py")]
        archive.extractall(cache / version, members)
    wheel.unlink()  # keep only the Python sources: disk is shared
    return tree


def measure(tree: Path) -> dict:
    """Audit one release in this process and summarise it (run in a child by `run_release`)."""
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    started = time.perf_counter()
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([tree], settings)
    seconds = time.perf_counter() - started
    outcome = next((o for o in result.stages if o.engine == "vllm"), None)
    classes, sites = (outcome.specs, outcome.sites) if outcome is not None else (0, 0)
    views = outcome.views if outcome is not None else []
    evaluated = {row.title for row in result.stage_rows}
    resolved = {row.title for row in result.stage_rows if not row.text.startswith("unresolved")}
    vllm_unresolved = [
        u for u in result.unresolved if u.subject.startswith(("KV spec ", "KV view"))
    ]
    reasons = Counter(_reason_kind(u.unknown.reason) for u in vllm_unresolved)
    return {
        "files": result.files_read,
        "spec_classes": classes,
        "sites": sites,
        "sites_evaluated": len(evaluated),
        "sites_resolved": len(resolved),
        "rows": len(result.stage_rows),
        "findings": dict(Counter(f.code for f in result.findings)),
        "finding_lines": [f"{f.location}: {f.code} {f.message}" for f in result.findings],
        "backends": outcome.backends if outcome is not None else 0,
        "view_sites": outcome.view_sites if outcome is not None else 0,
        "views_reached": sum(1 for v in views if v.reached),
        "views_compared": sum(1 for v in views if v.view_bytes is not None),
        "errors": len(result.errors),
        "unresolved": len(vllm_unresolved),
        "top_unresolved": reasons.most_common(6),
        "seconds": round(seconds, 1),
    }


def run_release(version: str) -> dict:
    tree = fetch(version)
    started = time.perf_counter()
    child = subprocess.run(
        ["/usr/bin/time", "-f", "%M", sys.executable, __file__, "--measure", str(tree)],
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


def table(rows: list[dict]) -> str:
    header = (
        "| release | files | spec classes | spec sites | sites reached / with a known page "
        "| spec rows (site x point) | backends / runner views | views compared | findings "
        "| unresolved | E902 | wall | peak RSS |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n"
    )
    lines = []
    for row in rows:
        findings = (
            ", ".join(f"{code}: {n}" for code, n in sorted(row["findings"].items())) or "none"
        )
        lines.append(
            f"| {row['version']} | {row['files']} | {row['spec_classes']} | {row['sites']} "
            f"| {row['sites_evaluated']} / {row['sites_resolved']} | {row['rows']} "
            f"| {row.get('backends', 0)} / {row.get('view_sites', 0)} "
            f"| {row.get('views_compared', 0)} of {row.get('views_reached', 0)} | {findings} "
            f"| {row['unresolved']} | {row['errors']} | {row['wall']} s | {row['peak_mb']} MB |"
        )
    details = []
    for row in rows:
        details.append(f"\n### {row['version']}\n")
        for line in row["finding_lines"]:
            details.append(f"- finding: `{_short(line, 600)}`")
        for reason, count in row["top_unresolved"]:
            details.append(f"- unresolved, {count} x {reason}")
    return header + "\n".join(lines) + "\n" + "\n".join(details) + "\n"


KEEP_BELOW = "<!-- written by hand below: kept when the table is regenerated -->"


def write_markdown(path: Path, text: str) -> None:
    """The generated table, then whatever was written by hand below KEEP_BELOW."""
    kept = ""
    if path.is_file():
        old = path.read_text()
        if KEEP_BELOW in old:
            kept = old[old.index(KEEP_BELOW) :]
    path.write_text(
        "# layout-audit on real vLLM releases\n\n"
        "Generated by `python bench/corpus_vllm.py --markdown docs/reports/corpus-vllm.md` (each "
        "wheel's `vllm/**/*.py`, no config: the bundled vLLM pack is picked automatically). "
        "A spec site is a call building a KV spec class; it is reached at a point when the "
        "partial run gets to it there. Wall time and peak RSS are the child process's, on a "
        "shared 2-core machine.\n\n" + text + ("\n" + kept if kept else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("releases", nargs="*", default=list(RELEASES))
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
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
