"""Where the interpreter's time goes, by audited function, and how much of its work repeats.

    python bench/interpreted.py path/to/tree                # builds, site runs, lanes
    python bench/interpreted.py path/to/tree --functions 40   # also the top 40 functions

One in-process audit (`--no-cache -j 1`, so every evaluation runs here). Prints, per function
of the audited code the interpreter called, its own time (the time of the functions it called
taken out), its calls and the time per call; then the builds (`PoolEvaluator._build`) and site
runs (`run_site`) made, and how many of them repeat one already made with the same class (or
site and device class handed to it) and the same config values (what a memo across pairs could save at most), and how many
config points ran as lanes and how many diverged. Figures for issue #17 (docs/speed.md), not
a test. The per-function timing (`--functions`) wraps every call the interpreter makes, which
costs time of its own: its total is above a plain run's.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument(
        "--functions", type=int, default=0, metavar="N", help="time audited functions, list N"
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    from auditor.evaluation import evaluate
    from auditor.interpret import machine
    from auditor.interpret.lanes import LANES_STATS, TokenLanes

    own: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    children: list[float] = []
    call_function = machine.Interpreter.call_function

    def timed_call(self, function, *rest, **named):
        name = getattr(function, "qualname", None) or f"{function.module.name}.{function.name}"
        started = time.perf_counter()
        children.append(0.0)
        try:
            return call_function(self, function, *rest, **named)
        finally:
            spent = time.perf_counter() - started
            own[name] += spent - children.pop()
            calls[name] += 1
            if children:
                children[-1] += spent

    builds: collections.Counter = collections.Counter()
    sites: collections.Counter = collections.Counter()
    build = evaluate.PoolEvaluator._build
    run_site = evaluate.run_site

    def values_key(values: dict) -> tuple:  # (a token count carried as lanes diverges on
        # `repr`, which would make this script's own run build every point one by one)
        return tuple(
            sorted(
                (name, repr(value.items if type(value) is TokenLanes else value))
                for name, value in values.items()
            )
        )

    def counted_build(self, cls, interpreter, values, device=None):
        builds[(id(cls), device is None, values_key(values))] += 1
        return build(self, cls, interpreter, values, device)

    def counted_site(site, interpreter, values, device, *rest, **named):
        handed = id(getattr(device, "cls", None))  # one site may be run for several devices
        sites[(id(site), handed, values_key(values))] += 1
        return run_site(site, interpreter, values, device, *rest, **named)

    if args.functions:
        machine.Interpreter.call_function = timed_call
    evaluate.PoolEvaluator._build = counted_build
    evaluate.run_site = counted_site
    from auditor import cli

    started = time.perf_counter()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        cli.main(["--isolated", "--no-cache", "-j", "1", str(args.tree)])
    wall = time.perf_counter() - started
    print(f"audit {wall:.1f} s")
    if args.functions:
        print(f"of which in audited functions {sum(own.values()):.1f} s\n")
        print("| own time | calls | per call | function |")
        print("|---:|---:|---:|---|")
        for name, spent in own.most_common(args.functions):
            per = spent / calls[name] * 1000
            print(f"| {spent:.1f} s | {calls[name]} | {per:.2f} ms | `{name}` |")
    for label, counted in (("builds", builds), ("site runs", sites)):
        made = sum(counted.values())
        print(f"\n{label}: {made}, {made - len(counted)} repeating one made before")
    print(f"points as lanes: {LANES_STATS['lanes']}, diverged: {LANES_STATS['diverged']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
