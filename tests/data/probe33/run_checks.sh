#!/usr/bin/env bash
# Run every meta-device check; a tree passes if the last stdout line of its check is "OK".
cd "$(dirname "$0")" || exit 2
PY=/work/venv/bin/python
fail=0
for chk in _check/check_r*.py; do
    tree=$(basename "$chk" .py); tree=${tree#check_}
    last=$("$PY" "$chk" 2>/dev/null | tail -n 1)
    if [ "$last" = "OK" ]; then
        echo "$tree: OK"
    else
        echo "$tree: FAIL"
        fail=1
    fi
done
exit $fail
