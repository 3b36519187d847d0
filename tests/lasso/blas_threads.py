"""Run a block with one BLAS thread (test infrastructure, not part of the package).

On the shared 2-core test machine a multi-threaded OpenBLAS matrix-vector product under load is
5-10x slower than a single-threaded one (measured: 28 ms vs 2 ms per Frank-Wolfe step at
n = p = 1000). numpy reads OPENBLAS_NUM_THREADS only at import, so the lasso tests switch the
loaded OpenBLAS (numpy's bundled scipy-openblas) to one thread for their duration and restore it.
A no-op where that library or its symbols are not found.
"""

from __future__ import annotations

import contextlib
import ctypes


def _openblas():
    try:
        with open("/proc/self/maps", encoding="utf-8") as fh:
            paths = {line.split()[-1] for line in fh if "openblas" in line and line.split()[-1].startswith("/")}
    except OSError:
        return None
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for get, put in (("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
                         ("openblas_get_num_threads64_", "openblas_set_num_threads64_"),
                         ("openblas_get_num_threads", "openblas_set_num_threads")):
            if hasattr(lib, get) and hasattr(lib, put):
                return getattr(lib, get), getattr(lib, put)
    return None


@contextlib.contextmanager
def single_blas_thread():
    import numpy  # noqa: F401  (loads the library)

    found = _openblas()
    if found is None:
        yield
        return
    get, put = found
    before = int(get())
    put(ctypes.c_int(1))
    try:
        yield
    finally:
        put(ctypes.c_int(before))
