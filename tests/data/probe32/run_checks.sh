#!/bin/bash
# Run every meta-device check; prints rNN: OK / rNN: FAIL.
cd "$(dirname "$0")"
PY=/work/venv/bin/python
export PYTHONDONTWRITEBYTECODE=1
fail=0
for t in r01 r02 r03 r04 r05 r06 r07 r08; do
  out=$("$PY" "_check/check_$t.py" 2>&1)
  last=$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n 1)
  if [ "$last" = "OK" ]; then
    echo "$t: OK"
  else
    echo "$t: FAIL"
    printf '%s\n' "$out" | tail -n 15 | sed 's/^/    /'
    fail=1
  fi
done
exit $fail
