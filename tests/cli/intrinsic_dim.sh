#!/usr/bin/env bash
# `drbench datasets --intrinsic-dim CONFIG`: one Levina-Bickel estimate per training partition of
# the config (its own partitions and preprocessing), then per dataset the rounded mean the 2009
# review would take as the target dimension. Twin peaks is a 2-D surface in 3-D, so its estimate
# is near 2; a bad combination of options is refused with the fix.
. "$(dirname "$0")/../support/cli_lib.sh"
"$DRBENCH" datasets --intrinsic-dim "$SRC/configs/catalogue.yaml" >"$WORK/out"
[ "$(grep -c $'^wine\tratio=0.5\t' "$WORK/out")" = 10 ] || fail "wine: not one line per partition"
[ "$(grep -c $'^twin_peaks\tratio=0.5\t' "$WORK/out")" = 10 ] || fail "twin peaks: not 10 lines"
"$PY" - "$WORK/out" <<'PY' || fail "the summary does not follow the partitions"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
parts = [r for r in rows if len(r) == 6 and r[1] == "ratio=0.5"]
summary = {r[0]: r for r in rows if len(r) == 6 and r[1].isdigit()}
for name in ("wine", "twin_peaks"):
    est = [float(r[5]) for r in parts if r[0] == name]
    mean = sum(est) / len(est)
    s = summary[name]
    assert int(s[1]) == 10 and abs(float(s[2]) - mean) < 1e-3, (name, s, mean)
    assert int(s[5]) == max(1, round(mean)), s
assert 1.6 < float(summary["twin_peaks"][2]) < 2.6, summary["twin_peaks"]
PY
expect_fail "with --data-path" "$DRBENCH" datasets --intrinsic-dim "$SRC/configs/catalogue.yaml" \
  --data-path /tmp
expect_in "$WORK/err" "drop --data-path"
echo "intrinsic dim ok"
