"""Worker processes for the per-file CPython check: the one stage that is independent per file.

Results come back in the order the files went in, whatever the scheduling, so the output does
not depend on the number of workers. Workers get bytes and return JSON-able facts
(parse.file_facts); they never see libcst trees, the index or torch.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from auditor.frontend.parse import file_facts

# Below this many bytes to check (about 0.1 s of CPython's parser), starting workers costs
# more than it saves. What is checked is mostly the pool files, large ones (prefilter.py).
MIN_BYTES_FOR_WORKERS = 1_000_000
CHUNK_FILES = 4


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return max(os.cpu_count() or 1, 1)


def safe_facts(data: bytes) -> dict[str, Any]:
    """file_facts, with any exception turned into this file's error (marked not to cache)."""
    try:
        return file_facts(data)
    except Exception as error:  # noqa: BLE001 - one bad file must not end the audit
        message = f"cannot parse file: {type(error).__name__}: {error}"
        return {"error": [1, 1, message], "uncached": True}


def check_all(datas: list[bytes], jobs: int) -> list[dict[str, Any]]:
    """safe_facts of each file's bytes, in order, in `jobs` processes when it pays."""
    if jobs <= 1 or len(datas) < 2 or sum(map(len, datas)) < MIN_BYTES_FOR_WORKERS:
        return [safe_facts(data) for data in datas]
    # fork is cheapest, but not once torch (and its threads) is loaded in this process
    method = "fork" if "torch" not in sys.modules else "forkserver"
    try:
        context = multiprocessing.get_context(method)
    except ValueError:  # a platform without it
        return [safe_facts(data) for data in datas]
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, 61), mp_context=context) as pool:
            return list(pool.map(safe_facts, datas, chunksize=CHUNK_FILES))
    except (OSError, BrokenProcessPool, RuntimeError):  # no processes to be had: do it here
        return [safe_facts(data) for data in datas]
