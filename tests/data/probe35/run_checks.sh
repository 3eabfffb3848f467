#!/bin/bash
# Run every meta-device check; prints rNN: OK / rNN: FAIL.
cd "$(dirname "$0")/_check" || exit 1
fail=0
for n in 01 02 03 04 05 06 07 08; do
    last=$(/work/venv/bin/python "check_r$n.py" 2>/dev/null | tail -n 1)
    if [ "$last" = "OK" ]; then echo "r$n: OK"; else echo "r$n: FAIL"; fail=1; fi
done
exit $fail
