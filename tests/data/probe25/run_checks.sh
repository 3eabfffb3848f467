#!/usr/bin/env bash
# Runs every oracle check; prints pNN: OK / FAIL. Exit status is non-zero if any check fails.
cd "$(dirname "$0")" || exit 2
PY=/work/venv/bin/python
status=0
for n in 01 02 03 04 05 06 07 08 09 10; do
    out=$("$PY" "_check/check_p$n.py" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n 1)" = "OK" ]; then
        echo "p$n: OK"
    else
        echo "p$n: FAIL"
        printf '%s\n' "$out" | sed 's/^/    /'
        status=1
    fi
done
exit $status
