#!/usr/bin/env python3
"""The memory model against a finished run: for each method of a results file, the largest task
peak the run recorded (/tasks/peak_rss_bytes: the rank's resident high-water mark from the task's
start, so the process, the data and the method together) beside the estimate `drbench validate`
prints for that method alone on the same config (the method's estimate, or a dimension-lowering
preprocessing's raw block where larger, plus what every rank holds), and the estimate without
that block: a task whose partition an earlier task of its rank prepared never holds the block.

usage: benchmarks/memory_vs_peaks.py build/drbench RESULTS.h5 [MORE.h5 ...]
The config is the one stored in the file (its profile and command-line overrides applied), so
the estimate is for the shapes the run had. Prints a markdown table, MiB; ratio = estimate / peak.
"""
import os
import re
import subprocess
import sys
import tempfile

import h5py
import yaml

UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def estimate(drbench, config, spec):
    """`drbench validate` on the config with only this method: its peak line, in bytes."""
    cfg = dict(config)
    cfg["methods"] = [spec]
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        yaml.safe_dump(cfg, f)
        path = f.name
    try:
        r = subprocess.run([drbench, "validate", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    out = r.stdout + r.stderr
    m = re.search(r"peak memory per rank: about ([\d.]+) (\w+) \(([\d.]+) (\w+) \+ ([\d.]+) (\w+)",
                  out)
    if not m:
        raise SystemExit(f"no peak line for {spec.get('label')}:\n{out}")
    total = float(m.group(1)) * UNITS[m.group(2)]
    held = float(m.group(5)) * UNITS[m.group(6)]
    # Where the preprocessing's raw block is the larger part, the method's own estimate follows.
    b = re.search(r"exceeds its method's estimate of ([\d.]+) (\w+)", out)
    method = float(b.group(1)) * UNITS[b.group(2)] if b else total - held
    return total, held + method


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    drbench = os.path.abspath(sys.argv[1])
    mib = 2.0**20
    print("| file | method | n train | largest task peak MiB | estimate MiB | estimate / peak | "
          "without the preprocessing block | / peak |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for path in sys.argv[2:]:
        with h5py.File(path, "r") as f:
            text = f.attrs["config"]
            text = text.decode() if isinstance(text, bytes) else text
            config = yaml.safe_load(text)
            config.pop("profiles", None)
            t = f["tasks"]
            if "peak_rss_bytes" not in t:
                print(f"| {os.path.basename(path)} | (no per-task peaks: written before journal "
                      f"format 7) | | | | |")
                continue
            labels = [x.decode() if isinstance(x, bytes) else x for x in t["label"][:]]
            peaks = t["peak_rss_bytes"][:]
            n_train = t["n_train"][:]
        for spec in config["methods"]:
            label = spec.get("label", spec["method"])
            rows = [i for i, lab in enumerate(labels) if lab == label and peaks[i] > 0]
            if not rows:
                continue
            peak = max(peaks[i] for i in rows)
            n = max(n_train[i] for i in rows)
            est, task_only = estimate(drbench, config, spec)
            print(f"| {os.path.basename(path)} | {label} | {n} | {peak / mib:.0f} | "
                  f"{est / mib:.0f} | {est / peak:.2f} | {task_only / mib:.0f} | "
                  f"{task_only / peak:.2f} |", flush=True)


main()
