#!/usr/bin/env bash
# Run the meta-device checks for all eight trees.
cd "$(dirname "$0")" || exit 1
PY=/work/venv/bin/python
fail=0
for n in 01 02 03 04 05 06 07 08; do
  out=$("$PY" "_check/check_r$n.py" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -n 1)" = "OK" ]; then
    echo "r$n: OK"
  else
    echo "r$n: FAIL"
    printf '%s\n' "$out" | sed 's/^/    /' >&2
    fail=1
  fi
done
exit $fail
