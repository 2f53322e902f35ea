#!/usr/bin/python3
"""Where does DEE's projection live when D >= N? For each task of a drbench results file run with
`splits: {own: true}` and `keep_embeddings: true` on dataset files with a split column (0 = train;
e.g. those scripts/dcv_usps_check.py writes), recover A from the train + test embeddings
(Y = A (x - training mean); determined when train + test points span R^D) and report:
  - null: the share of |A|_F^2 in the null space of the within-class scatter S_w of the training
    points (the space in which every training class is a single point; DCV projects onto it);
  - the 1-NN recognition rate of the test points, and how many test predictions agree with DCV's
    (the DCV task of the same dataset in the same file).
  /usr/bin/python3 scripts/dee_null_space_check.py RESULTS.h5 DATA_DIR
"""
import sys

import h5py
import numpy as np


def main(results, data_dir):
    with h5py.File(results, "r") as f:
        t = f["tasks"]
        rows = [dict(id=int(t["id"][k]), dataset=t["dataset"][k].decode(),
                     label=t["label"][k].decode(), setting=t["setting"][k].decode())
                for k in range(len(t["id"]))]
        emb = {r["id"]: {k: f["embeddings"][str(r["id"])][k][:] for k in
                         ("train", "test", "train_index", "test_index")} for r in rows}
    cache = {}
    pred = {}
    for r in rows:
        ds = r["dataset"]
        if ds not in cache:
            with h5py.File(f"{data_dir}/{ds}.h5", "r") as g:
                X = np.asarray(g["X"], float)
                y = np.asarray(g["y"]).astype(int).ravel()
            cache[ds] = (X, y)
        X, y = cache[ds]
        e = emb[r["id"]]
        tr, te = e["train_index"], e["test_index"]
        mu = X[tr].mean(0)
        Z = np.vstack([X[tr], X[te]]) - mu
        Y = np.vstack([e["train"], e["test"]])
        A = np.linalg.lstsq(Z, Y, rcond=None)[0].T
        resid = np.abs(Z @ A.T - Y).max() / np.abs(Y).max()
        Xw = X[tr] - np.stack([X[tr][y[tr] == c].mean(0) for c in y[tr]])
        w, V = np.linalg.eigh(Xw.T @ Xw)
        N = V[:, w <= 1e-10 * w.max()]
        null_share = np.linalg.norm(A @ N) ** 2 / np.linalg.norm(A) ** 2
        d = ((e["test"][:, None, :] - e["train"][None, :, :]) ** 2).sum(-1)
        p = y[tr][d.argmin(1)]
        pred[(ds, r["label"], r["setting"])] = p
        r.update(null_dim=N.shape[1], null=null_share, rate=(p == y[te]).mean(), resid=resid)
    for r in rows:
        dcv = [v for (ds, lab, _), v in pred.items() if ds == r["dataset"] and lab == "DCV"]
        agree = (pred[(r["dataset"], r["label"], r["setting"])] == dcv[0]).mean() if dcv else np.nan
        keep = ",".join(kv for kv in r["setting"].split(",")
                        if kv.split("=")[0] in ("ridge", "mu", "optimizer", "null_tol"))
        print(f"{r['dataset']:12s} {r['label']:10s} {keep:28s} null(S_w) dim "
              f"{r['null_dim']:3d}: share of |A|^2 in it {r['null']:.4f}, 1-NN rate "
              f"{r['rate']:.3f}, agrees with DCV on {agree:.3f} of test points "
              f"(A recovered to {r['resid']:.0e})")


if __name__ == "__main__":
    main(*sys.argv[1:3])
