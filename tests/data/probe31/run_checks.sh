#!/bin/sh
# Runs every tree's check script and reports rNN: OK / rNN: FAIL.
cd "$(dirname "$0")" || exit 1
PY=/work/venv/bin/python
status=0
for n in 01 02 03 04 05 06 07 08; do
    last=$("$PY" "_check/check_r$n.py" 2>/dev/null | tail -n 1)
    if [ "$last" = "OK" ]; then
        echo "r$n: OK"
    else
        echo "r$n: FAIL"
        status=1
    fi
done
exit $status
