#!/usr/bin/env bash
# Runs every probe23 oracle check; exits non-zero if any fails.
set -u
cd "$(dirname "$0")"
PY=${PY:-/work/venv/bin/python}
fail=0
for n in 01 02 02f 03 04 05 06 07 08 09 10; do
  if out=$("$PY" _check/check_p$n.py 2>/dev/null) && [ "$(echo "$out" | tail -1)" = "OK" ]; then
    echo "p$n: OK"
  else
    echo "p$n: FAIL"; echo "$out"; fail=1
  fi
done
exit $fail
