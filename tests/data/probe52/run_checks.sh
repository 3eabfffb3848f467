#!/usr/bin/env bash
# Runs the ground-truth check for every probe52 tree.
cd "$(dirname "$0")" || exit 1
export PYTHONDONTWRITEBYTECODE=1
PY=/work/venv/bin/python
status=0
for n in 01 02 03 04 05 06 07 08; do
    out=$("$PY" -W ignore "_check/check_r$n.py" 2>&1)
    if [ $? -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n 1)" = "OK" ]; then
        echo "r$n: OK"
    else
        echo "r$n: FAIL"
        printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
        status=1
    fi
done
find . -name __pycache__ -type d -prune -exec rm -rf {} +
exit $status
