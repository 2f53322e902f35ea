#!/usr/bin/env python3
"""Each method's memory estimate (MethodInfo::memory_of, as `drbench validate` prints it) against
the peak resident size of `drbench run` on one task (/usr/bin/time -v), for the table in
docs/cluster.md ("Memory"). The same config's `drbench validate` peak is printed beside it: the
process, its libraries and the data without any task, so "run - validate" is what the task added.

usage: benchmarks/memory_peaks.py build/drbench [--estimates] [METHOD ...]
--estimates: the estimates alone (`drbench validate`), in seconds rather than minutes.
Runs one process at a time (peaks of concurrent runs on a shared machine are still per process).
"""
import os
import re
import subprocess
import sys
import tempfile

UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}

# method -> (dataset yaml, method yaml extras, dims, protocol)
ROLL = "{{name: roll, source: generator, generator: swiss_roll, params: {{n: {n}}}}}"
BLOBS = ("{{name: blobs, source: generator, generator: gaussian_blobs, "
         "params: {{n: {n}, dim: {d}, classes: 10}}}}")
CASES = {
    "pca": (BLOBS, {"n": 40000, "d": 400}, "", 10),
    "ppca": (BLOBS, {"n": 40000, "d": 400}, "", 10),
    "lda": (BLOBS, {"n": 40000, "d": 400}, "", 5),
    "dcv": (BLOBS, {"n": 2000, "d": 4000}, "", 5),  # needs d > n - C
    "lpp": (BLOBS, {"n": 40000, "d": 400}, "", 10),
    "slpp": (BLOBS, {"n": 20000, "d": 400}, "", 5),
    "kpca": (ROLL, {"n": 8000}, "", 2),
    "klpp": (ROLL, {"n": 8000}, "", 2),
    "gda": (BLOBS, {"n": 6000, "d": 20}, "", 5),
    "sklpp": (BLOBS, {"n": 6000, "d": 20}, "", 5),
    "ip": (ROLL, {"n": 6000}, "", 2),
    "oip": (ROLL, {"n": 6000}, "", 2),
    "mmpa": (BLOBS, {"n": 4000, "d": 20}, "", 5),
    "gplvm": (ROLL, {"n": 3000}, ", grid: {iterations: 3}", 2),
    "gplvm_big": (ROLL, {"n": 6000}, ", grid: {iterations: 2}", 2),
    "gplvm_q5": (BLOBS, {"n": 6000, "d": 20}, ", grid: {iterations: 2}", 5),
    "gplrf": (BLOBS, {"n": 3000, "d": 20}, ", grid: {iterations: 3}", 2),
}


def size(text):
    m = re.search(r"peak memory per rank: about ([\d.]+) (\w+) \(([\d.]+) (\w+) \+", text)
    if not m:
        raise SystemExit("no peak line in:\n" + text)
    return float(m.group(1)) * UNITS[m.group(2)], float(m.group(3)) * UNITS[m.group(4)]


def max_rss(cmd):
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(" ".join(cmd) + " failed:\n" + r.stdout + r.stderr[-2000:])
        return None, r.stdout
    kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
    return kb * 1024, r.stdout


def main():
    drbench = os.path.abspath(sys.argv[1])
    estimates_only = "--estimates" in sys.argv[2:]
    names = [a for a in sys.argv[2:] if a != "--estimates"] or list(CASES)
    mib = 2.0**20
    print(f"{'method':8} {'n_train':>7} {'d':>4} {'estimate':>10} {'of which method':>15} "
          f"{'run peak':>9} {'validate':>9} {'run-validate':>12}  (MiB)")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            data, shape, extra, dim = CASES[name]
            mname = name.split("_big")[0].split("_q")[0]
            cfg = os.path.join(tmp, name + ".yaml")
            with open(cfg, "w") as f:
                f.write(f"seed: 1\ndatasets: [{data.format(**shape)}]\n"
                        f"splits: {{train_ratio: [0.5]}}\n"
                        f"methods: [{{method: {mname}, dims: [{dim}]{extra}}}]\n"
                        f"output: {{path: {tmp}/{name}.h5, keep_traces: false}}\n")
            v_rss, v_out = max_rss([drbench, "validate", cfg])
            total, method = size(v_out)
            if estimates_only:
                print(f"{name:8} {shape['n'] // 2:7d} {shape.get('d', 3):4d} {total / mib:10.0f} "
                      f"{method / mib:15.0f}", flush=True)
                continue
            r_rss, _ = max_rss([drbench, "run", cfg, "--quiet", "--no-table", "--force-new"])
            if v_rss is None or r_rss is None:
                continue
            print(f"{name:8} {shape['n'] // 2:7d} {shape.get('d', 3):4d} {total / mib:10.0f} "
                  f"{method / mib:15.0f} {r_rss / mib:9.0f} {v_rss / mib:9.0f} "
                  f"{(r_rss - v_rss) / mib:12.0f}", flush=True)


main()
