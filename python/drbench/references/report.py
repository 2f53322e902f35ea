"""Side-by-side tables of drbench's methods and their reference implementations.

    python3 -m drbench.references.report RESULTS.h5 [--pairs 'drbench=reference;...'] [--update MD]

For each pair of labels (default: the pairs of configs/references_fmnist.yaml): the mean +/- std
over the partitions of the 1-NN test error, trustworthiness, R_NX AUC and fit seconds, and the
paired t-test (two-sided, on the partitions both have) of the error of drbench's method against
its reference. With --update, the tables replace the block between the markers
``<!-- references tables -->`` and ``<!-- end of references tables -->`` of MD (the rest of the
file, the discussion, stays); without it they are printed.
"""

import argparse
import math
import sys
import warnings

import numpy as np

BEGIN, END = "<!-- references tables -->", "<!-- end of references tables -->"
DEFAULT_PAIRS = [("t-SNE (FFT)", "openTSNE (FFT)"), ("UMAP", "umap-learn"),
                 ("Isomap", "sklearn Isomap"), ("LLE", "sklearn LLE"),
                 ("LE", "sklearn SpectralEmbedding")]
METRICS = [("error_k1", "1-NN error %", 100.0, 2), ("trustworthiness@10", "trust@10", 1.0, 4),
           ("rnx_auc", "R_NX AUC", 1.0, 4), ("fit_seconds", "fit s", 1.0, 1)]


def _cell(values, scale, digits):
    v = np.asarray(values, dtype=float) * scale
    if len(v) == 0:
        return "-"
    if len(v) == 1:
        return f"{v[0]:.{digits}f} (1)"
    return f"{v.mean():.{digits}f} ± {v.std(ddof=1):.{digits}f}"


def paired_t(a, b):
    """Two-sided paired t-test: (t, p), or None with fewer than two pairs or no spread."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(d) < 2:
        return None
    sd = d.std(ddof=1)
    if sd == 0:
        return (math.inf if d.mean() else 0.0), (0.0 if d.mean() else 1.0)
    t = d.mean() / (sd / math.sqrt(len(d)))
    from scipy import stats
    return t, 2.0 * stats.t.sf(abs(t), len(d) - 1)


def tables(tasks, pairs):
    ok = tasks[tasks["status"] == 0]
    lines = ["| method | implementation | partitions | " +
             " | ".join(m[1] for m in METRICS) + " |",
             "|---|---|---|" + "---|" * len(METRICS)]
    tests = ["| drbench | reference | paired partitions | error difference (points) | t | p |",
             "|---|---|---|---|---|---|"]
    for mine, ref in pairs:
        for label, who in ((mine, "drbench"), (ref, "reference")):
            rows = ok[ok["label"] == label].sort_values("repeat")
            cells = [_cell(rows[c], s, d) for c, _, s, d in METRICS]
            lines.append(f"| {label} | {who} | {len(rows)} | " + " | ".join(cells) + " |")
        a = ok[ok["label"] == mine].set_index("repeat")["error_k1"]
        b = ok[ok["label"] == ref].set_index("repeat")["error_k1"]
        common = sorted(set(a.index) & set(b.index))
        res = paired_t(a[common], b[common])
        diff = 100.0 * float(np.mean(a[common] - b[common])) if common else float("nan")
        if res is None:
            tests.append(f"| {mine} | {ref} | {len(common)} | "
                         f"{'-' if not common else f'{diff:+.2f}'} | - | - |")
        else:
            tests.append(f"| {mine} | {ref} | {len(common)} | {diff:+.2f} | {res[0]:.2f} | "
                         f"{res[1]:.3g} |")
    return "\n".join(lines) + "\n\n" + "\n".join(tests) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--pairs", help="'drbench label=reference label;...'")
    ap.add_argument("--update", metavar="MD")
    a = ap.parse_args(argv)
    pairs = DEFAULT_PAIRS if not a.pairs else [tuple(p.split("=", 1)) for p in
                                               a.pairs.split(";")]
    from drbench import results
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = results.load(a.results)
    block = tables(r.tasks, pairs)
    if not a.update:
        sys.stdout.write(block)
        return 0
    with open(a.update) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"{a.update}: no '{BEGIN}' ... '{END}' block to replace (fix: add the two "
                 f"markers where the tables go)")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(a.update + ".tmp", "w") as f:
        f.write(head + BEGIN + "\n" + block + END + tail)
    import os
    os.replace(a.update + ".tmp", a.update)
    return 0


if __name__ == "__main__":
    sys.exit(main())
