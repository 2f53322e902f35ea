#!/usr/bin/env bash
# A results file written before the parameter renames of settings version 2 (reg, alpha, mu,
# lle_reg -> ridge; the GP-LVM priors' alpha -> lambda; Sammon's tol -> tolerance) resumes under
# the renamed config with nothing rerun, `drbench aggregate` prints the new names, and a config
# still using an old name is refused with the new one (docs/results-format.md).
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/renamed_params.yaml"
sed -e 's/{ridge: \[1.0e-6, 0.1\]}/{reg: [1.0e-6, 0.1]}/' -e 's/{ridge: \[0.01\]}/{alpha: [0.01]}/' \
    -e 's/tolerance: \[1.0e-9\]/tol: [1.0e-9]/' -e 's/lambda: \[1.0\]/alpha: [1.0]/' \
    -e 's/ridge: \[0.001\]/lle_reg: [0.001]/' "$CFG" >"$WORK/old.yaml"
grep -q 'lle_reg' "$WORK/old.yaml" || fail "the old-named config was not made"

expect_fail "old names" "$DRBENCH" validate "$WORK/old.yaml"
expect_in "$WORK/err" "'methods[0].grid.reg': renamed parameter"
expect_in "$WORK/err" "use ridge"
sed -e 's/ridge: \[0.001\]/lle_reg: [0.001]/' "$CFG" >"$WORK/lle_reg.yaml"
expect_fail "lle_reg" "$DRBENCH" validate "$WORK/lle_reg.yaml"
expect_in "$WORK/err" "'methods[4].grid.lle_reg': renamed parameter (fix: 'lle_reg' is now called 'ridge': use ridge"

"$DRBENCH" run "$CFG" --output "$WORK/new.h5" --quiet --no-table
# The same file as a build before the renames wrote it: old names in the setting and key columns
# (items in name order, as ParamSet::canonical writes them), the old config text, no
# settings_version attribute.
"$PY" - "$WORK/new.h5" "$WORK/old.h5" "$WORK/old.yaml" <<'PY'
import shutil, sys, h5py
new, old, cfg = sys.argv[1:4]
shutil.copy(new, old)
renames = {"lda": {"ridge": "reg"}, "ip_sr": {"ridge": "alpha"}, "sammon": {"tolerance": "tol"},
           "rankgplvm": {"lambda": "alpha"}, "llgplvm": {"lambda": "alpha", "ridge": "lle_reg"}}
def back(method, setting):
    items = [i.split("=", 1) for i in setting.split(",") if i]
    items = sorted((renames.get(method, {}).get(k, k), v) for k, v in items)
    return ",".join(k + "=" + v for k, v in items)
with h5py.File(old, "r+") as f:
    t = f["tasks"]
    methods = [m.decode() for m in t["method"][()]]
    settings = [s.decode() for s in t["setting"][()]]
    keys = [k.decode() for k in t["key"][()]]
    olds = [back(m, s) for m, s in zip(methods, settings)]
    changed = sum(o != s for o, s in zip(olds, settings))
    assert changed == len(settings), f"only {changed} of {len(settings)} settings renamed"
    new_keys = []
    for k, s, o in zip(keys, settings, olds):
        parts = k.split("|")
        assert parts[-2] == s, (k, s)
        parts[-2] = o
        new_keys.append("|".join(parts))
    for name, values in (("setting", olds), ("key", new_keys)):
        dt = t[name].dtype
        del t[name]
        t.create_dataset(name, data=[v.encode() for v in values], dtype=dt)
    if "settings_version" in f.attrs:
        del f.attrs["settings_version"]
    f.attrs["config"] = open(cfg).read()
PY
"$DRBENCH" aggregate "$WORK/old.h5" --format csv >"$WORK/table.csv"
expect_in "$WORK/table.csv" "ridge=1e-06"
expect_in "$WORK/table.csv" "lambda=1"
expect_in "$WORK/table.csv" "tolerance=1e-09"
if grep -qE 'reg=|alpha=|tol=|lle_reg=' "$WORK/table.csv"; then
  cat "$WORK/table.csv"; fail "aggregate printed an old name"
fi
# Readers in other languages get the same migration from `drbench info --settings`.
"$DRBENCH" info "$WORK/old.h5" --settings >"$WORK/settings.tsv"
expect_in "$WORK/settings.tsv" "tolerance=1e-09"
if cut -f4,5 "$WORK/settings.tsv" | grep -qE '(^|[,|])(reg|alpha|tol|lle_reg)='; then
  cat "$WORK/settings.tsv"; fail "info --settings printed an old name"
fi
N=$("$PY" -c "import h5py,sys; print(len(h5py.File(sys.argv[1])['tasks/key']))" "$WORK/new.h5")
"$DRBENCH" run "$CFG" --output "$WORK/old.h5" --no-table 2>"$WORK/resume.err"
expect_in "$WORK/resume.err" "$N tasks, $N already done"
echo "renamed params ok"
