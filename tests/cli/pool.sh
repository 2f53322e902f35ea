#!/usr/bin/env bash
# Pooled tables (docs/results-format.md, "Pooled tables"): draws of one data set tabulated as one
# (mean +- std over every draw's partitions, the best setting by the pooled mean, t-tests paired
# by draw and partition) and several labels as one row (the best of them), checked against numpy
# and scipy on the file's own task rows; pooled tables are never stored; bad rules are refused.
. "$(dirname "$0")/../support/cli_lib.sh"
cat >"$WORK/pool.yaml" <<'YAML'
name: pool
seed: 5
datasets:
  - {name: wine_1, source: bundled, path: wine, max_points: 90}
  - {name: wine_2, source: bundled, path: wine, max_points: 90}
  - {name: wine_3, source: bundled, path: wine, max_points: 90}
  - {name: iris, source: bundled}
splits: {train_per_class: [10], repeats: 2}
methods:
  - {method: pca, label: PCA, dims: [2]}
  - {method: isomap, label: Isomap, dims: [2], grid: {neighbours: [5, 8]}}
  - {method: kpca, label: KPCA-narrow, dims: [2], grid: {width: absolute, kernel_width: [0.3]}}
  - {method: kpca, label: KPCA-wide, dims: [2], grid: {width: absolute, kernel_width: [3.0]}}
evaluation: {knn: [1], ttest_against: PCA, selection: min_mean_error}
YAML
F="$WORK/p.h5"
"$DRBENCH" run "$WORK/pool.yaml" --output "$F" --quiet --no-table
POOL=(--pool-datasets 'wine_*=wine' --pool-labels 'KPCA-*=KPCA' --ttest KPCA)
before=$(sha256sum <"$F")
"$DRBENCH" aggregate "$F" "${POOL[@]}" >"$WORK/pooled.md"
[ "$(sha256sum <"$F")" = "$before" ] || fail "a pooled table was stored in the file"
expect_in "$WORK/pooled.md" "wine: 1-NN test error (%), mean ± std over 6 results (2 partitions of each of 3 pooled data sets, wine_1 to wine_3), best setting per cell among those with results on all 6"
expect_in "$WORK/pooled.md" "| KPCA | KPCA-"
"$DRBENCH" aggregate "$F" --no-store "${POOL[@]}" --long "$WORK/pooled.csv" --details
"$PY" - "$F" "$WORK/pooled.csv" <<'PY'
import sys
import h5py, numpy as np, pandas as pd
from scipy import stats
f, csv = sys.argv[1:3]
t = h5py.File(f, "r")["tasks"]
rows = pd.DataFrame({k: t[k].asstr()[:] for k in ("dataset", "label", "setting")})
rows["seed"], rows["repeat"] = t["split_seed"][:], t["repeat"][:]
rows["err"], rows["fit"] = t["knn_error"][:, 0] * 100, t["fit_seconds"][:]
rows = rows[rows.dataset.str.startswith("wine_")]
rows["group"] = np.where(rows.label.str.startswith("KPCA-"), "KPCA", rows.label)
rows["setting"] = np.where(rows.group == "KPCA", rows.label + ": " + rows.setting, rows.setting)
out = pd.read_csv(csv, keep_default_na=False, dtype=str).set_index(["dataset", "method"])
best = {}
for g, d in rows.groupby("group"):
    means = d.groupby("setting")["err"].mean()
    best[g] = d[d.setting == means.idxmin()].set_index(["dataset", "seed", "repeat"])
    r = out.loc[("wine", g)]
    assert r.setting == means.idxmin(), (g, r.setting, means)
    e = best[g]["err"]
    assert int(r.n) == len(e) == 6, (g, r.n)
    assert abs(float(r.mean_error_pct) - e.mean()) < 1e-9, (g, r.mean_error_pct, e.mean())
    assert abs(float(r.std_error_pct) - e.std(ddof=1)) < 1e-9, (g, r.std_error_pct)
    assert abs(float(r.fit_seconds) - best[g]["fit"].mean()) < 1e-9, g
for g in ("PCA", "Isomap"):
    x, y = best[g]["err"], best["KPCA"]["err"].reindex(best[g].index)
    tt = stats.ttest_rel(x, y)
    r = out.loc[("wine", g)]
    assert int(r.pairs) == 6, r.pairs
    assert abs(float(r.t) - tt.statistic) < 1e-8, (g, r.t, tt.statistic)
    assert abs(float(r.p_value) - tt.pvalue) < 1e-8, (g, r.p_value, tt.pvalue)
    assert abs(float(r.mean_diff) - (x - y).mean()) < 1e-9, g
print("pooled cells match numpy/scipy")
PY
# iris is not pooled: its cell is the plain one.
"$DRBENCH" aggregate "$F" --no-store --dataset iris --long "$WORK/iris.csv"
"$DRBENCH" aggregate "$F" --no-store --pool-datasets 'wine_*=wine' --dataset iris --long "$WORK/iris_pooled.csv"
diff "$WORK/iris.csv" "$WORK/iris_pooled.csv" || fail "pooling wine changed iris"
expect_fail "no '='" "$DRBENCH" aggregate "$F" --pool-datasets 'wine_*'
expect_in "$WORK/err" "--pool-datasets 'wine_*': 'wine_*' is not PATTERN=NAME"
expect_fail "no match" "$DRBENCH" aggregate "$F" --pool-datasets 'oil_*=oil'
expect_in "$WORK/err" "--pool-datasets 'oil_*=oil': the pattern matches no dataset (datasets: wine_1, wine_2, wine_3, iris)"
expect_fail "taken name" "$DRBENCH" aggregate "$F" --pool-datasets 'wine_*=iris'
expect_in "$WORK/err" "cannot pool datasets matching 'wine_*' as 'iris'"
expect_fail "no label" "$DRBENCH" aggregate "$F" --pool-labels 'GPLVM-*=GPLVM'
expect_in "$WORK/err" "matches no method label"
echo "pool: ok"
