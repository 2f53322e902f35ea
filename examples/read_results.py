#!/usr/bin/env python3
"""Print the mean ± std kNN error tables of a drbench results file with drbench.results.

Usage: python3 examples/read_results.py results/usps.h5 [k]

Same numbers as `drbench aggregate` (the file's stored tables, or recomputed when aggregate has not
run). Needs python/ on the path (done below) and h5py, numpy, pandas.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from drbench import results  # noqa: E402


def main(path, k=None):
    r = results.load(path)
    t = results.best_rows(r, None if k is None else int(k))
    t = t.assign(cell=[f"{m:.2f}" + ("" if s != s else f" ± {s:.2f}") + (" †" if w else "")
                       for m, s, w in zip(t.mean_error_pct, t.std_error_pct, t.worse)],
                 column=[f"{v:g} (d={d})" for v, d in zip(t.split_value, t.dim)])
    for ds, g in t.groupby("dataset", sort=False):
        table = g.pivot(index="method", columns="column", values="cell")
        table = table.reindex([m for m in r.attrs["labels"] if m in table.index]).fillna("-")
        print(f"\n{ds}: {g.k.iloc[0]}-NN error (%), mean ± std ({r.tables_source} tables)")
        print(table.to_string())
    print(f"\n{len(r.tasks)} tasks; traces of {r.traces['task_id'].nunique()} tasks; "
          f"embeddings of {len(r.embedding_ids)} tasks")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
