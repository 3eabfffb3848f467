#!/usr/bin/env bash
# Runs every _check/check_rNN.py and prints one status line per tree.
cd "$(dirname "$0")/_check" || exit 1
export PYTHONDONTWRITEBYTECODE=1
status=0
for f in check_r*.py; do
    n="${f#check_}"; n="${n%.py}"
    out="$(env -u SWAPKV_CACHE_DTYPE -u KV_FP8_GROUP_SIZE -u KVSTORE_DTYPE /work/venv/bin/python "$f" 2>&1)"
    if [ "$(printf '%s\n' "$out" | tail -n 1)" = "OK" ]; then
        echo "$n: OK"
    else
        echo "$n: FAIL"
        printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
        status=1
    fi
done
exit $status
