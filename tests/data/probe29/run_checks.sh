#!/bin/sh
# Run every tree's meta-device check; prints rNN: OK/FAIL.
export PYTHONDONTWRITEBYTECODE=1
cd "$(dirname "$0")/_check" || exit 1
status=0
for n in 01 02 03 04 05 06 07 08; do
    if out=$(/work/venv/bin/python "check_r$n.py" 2>&1) && [ "$(printf '%s\n' "$out" | tail -n 1)" = "OK" ]; then
        echo "r$n: OK"
    else
        echo "r$n: FAIL"
        printf '%s\n' "$out" | grep -v -e UserWarning -e _conversion_method_template | tail -n 5 | sed 's/^/    /'
        status=1
    fi
done
exit $status
