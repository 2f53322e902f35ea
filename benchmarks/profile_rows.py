"""The table of the scripts that time drbench config profiles one process each
(benchmarks/profile_runs.sh): a header, then one row per task of a profile's results file.

  profile_rows.py header COLUMN...
  profile_rows.py row RESULTS.h5 PROFILE PEAK_KIB CPU_SECONDS COLUMN...

COLUMN is FIELD:SPEC, SPEC a Python format spec with its width ("<8s", "10.1f"); the header is
aligned as the rows are. FIELD: profile, cpu (process CPU seconds), peak (MiB, from /usr/bin/time
-v's KiB), knn_error (1-NN error, %), or a column of the results file's tasks table (n_train,
fit_seconds, iterations, stop_reason, final_objective).
"""
import re
import sys

LABELS = {"profile": "profile", "n_train": "n_train", "fit_seconds": "fit_s", "cpu": "cpu_s",
          "peak": "peak_MiB", "iterations": "iters", "stop_reason": "stop",
          "final_objective": "objective", "knn_error": "1nn_err%"}


def parse(columns):
    return [tuple(c.split(":", 1)) for c in columns]


def header(columns):
    cells = []
    for field, spec in parse(columns):
        align, width = re.match(r"([<>]?)(\d+)", spec).groups()
        cells.append(f"{LABELS[field]:{align or '>'}{width}}")
    print(" ".join(cells))


def value(tasks, i, field, profile, peak_kib, cpu):
    if field == "profile":
        return profile
    if field == "cpu":
        return cpu
    if field == "peak":
        return peak_kib / 1024
    if field == "knn_error":
        return 100 * tasks["knn_error"][i][0]
    v = tasks[field][i]
    if field in ("n_train", "iterations"):
        return int(v)
    return v.decode() if isinstance(v, bytes) else v


def rows(h5, profile, peak_kib, cpu, columns):
    import h5py
    tasks = h5py.File(h5, "r")["tasks"]
    for i in range(len(tasks["method"])):
        print(" ".join(f"{value(tasks, i, f, profile, peak_kib, cpu):{spec}}"
                       for f, spec in parse(columns)))


if __name__ == "__main__":
    if sys.argv[1] == "header":
        header(sys.argv[2:])
    else:
        rows(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), sys.argv[6:])
