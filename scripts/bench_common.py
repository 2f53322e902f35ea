"""What the side-by-side benchmark scripts share (scripts/bench_*_sklearn.py, scripts/bench_sklearn.py,
benchmarks/fmnist_tsne_opentsne.py, scripts/modern_papers.py): one BLAS/OpenMP thread, the matrix.f64 file the C++ bench programs read, child processes timed under
/usr/bin/time -v, and median timings.

Import it before numpy: the thread counts are set when it is first imported, and numpy's BLAS
reads them when it loads.
"""
import json
import os
import subprocess
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

# The start of a child process run as [sys.executable, "-c", CHILD_PRELUDE + body, path, ...]:
# json, sys, time and numpy imported, and X (one row per point) read from the matrix.f64 in
# argv[1]. The body times its own fit, so reading the file is not in the timings.
CHILD_PRELUDE = r"""
import json, sys, time
import numpy as np
with open(sys.argv[1], "rb") as f:
    n, d = np.frombuffer(f.read(16), dtype="<u8")
    X = np.frombuffer(f.read(), dtype="<f8").reshape(int(n), int(d)).copy()
"""


def write_matrix(X, path):
    """matrix.f64: two little-endian uint64 (n, d), then n*d float64, point after point."""
    with open(path, "wb") as f:
        f.write(np.array(X.shape, dtype="<u8").tobytes())
        f.write(np.ascontiguousarray(X, dtype="<f8").tobytes())


def run_json(cmd, memory=True, on_error="exit"):
    """Runs cmd, whose last line of output is one JSON object, and returns that object, with
    peak_mib (peak resident memory) added when memory is set (/usr/bin/time -v around it).
    A failed command ends the script (on_error="exit") or gives {"error": its last lines}."""
    if memory:
        cmd = ["/usr/bin/time", "-v"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        if on_error == "exit":
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        return {"error": p.stderr.strip().splitlines()[-3:]}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if memory:
        for line in p.stderr.splitlines():
            if "Maximum resident set size" in line:
                out["peak_mib"] = int(line.split()[-1]) / 1024.0
    return out


def median_ms(fn, repeats):
    """Medians over `repeats` calls of fn, in milliseconds, as a dict: wall and cpu. On a shared
    machine the process CPU time of a one-thread fit is the steadier figure (Google Benchmark
    reports both the same way)."""
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return {"wall": 1000 * float(np.median(wall)), "cpu": 1000 * float(np.median(cpu))}
