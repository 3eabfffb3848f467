#!/usr/bin/env bash
# Run every probe24 oracle check; exit non-zero if any fails.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
PY="${PYTHON:-/work/venv/bin/python}"
fail=0
for t in p01 p02 p03 p04 p05 p06 p07 p08 p09 p10; do
    out="$(cd "$HERE/_check" && "$PY" "check_$t.py" 2>&1)"
    rc=$?
    last="$(printf '%s\n' "$out" | tail -n 1)"
    if [ $rc -eq 0 ] && [ "$last" = "OK" ]; then
        echo "$t: OK"
    else
        echo "$t: FAIL (rc=$rc)"
        printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    fi
done
exit $fail
