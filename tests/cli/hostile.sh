#!/usr/bin/env bash
# What a careless or hostile user tries (issue 38's probe): every reader of results files refuses
# a damaged, foreign, newer or interrupted file with a sentence and a fix (never a traceback);
# bad option values and overrides are refused naming the option; external commands cannot break
# stored text, task keys or the time limit. Each case is one `refused` line below.
. "$(dirname "$0")/../support/cli_lib.sh"
cd "$WORK"
# refused NAME "TEXT1|TEXT2" cmd...: a non-zero exit that is not a signal, every TEXT in stderr, a
# fix, and no Python traceback or uncaught C++ exception.
refused() {
  local name=$1 texts=$2 t
  shift 2
  set +e
  "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  set -e
  [ $rc -ne 0 ] || { cat "$WORK/out"; fail "$name: expected a refusal, got success"; }
  [ $rc -lt 124 ] || { cat "$WORK/err"; fail "$name: killed or timed out (exit $rc)"; }
  ! grep -qE "Traceback|terminate called|Segmentation|bad_alloc" "$WORK/err" ||
    { cat "$WORK/err"; fail "$name: a traceback or crash instead of a message"; }
  IFS='|' read -ra want <<<"$texts"
  for t in "${want[@]}"; do expect_in "$WORK/err" "$t"; done
  grep -qiE "fix|drbench help|usage" "$WORK/err" || { cat "$WORK/err"; fail "$name: no fix"; }
}
pca_config '{name: iris, source: bundled}' >ok.yaml
"$DRBENCH" run ok.yaml --output good.h5 --quiet --no-table

# ---------------------------------------------------------------- results files, every reader
: >zero.h5
head -c 3000 good.h5 >truncated.h5
"$PY" -c "import os; open('random.h5','wb').write(os.urandom(20000))"
cp good.h5 overwritten.h5
dd if=/dev/urandom of=overwritten.h5 bs=4096 seek=1 count=1 conv=notrunc 2>/dev/null
"$PY" -c "import h5py, numpy as np; h5py.File('data.h5', 'w')['X'] = np.zeros((3, 2))"
cp good.h5 newer.h5
"$PY" -c "import h5py; h5py.File('newer.h5', 'a').attrs['settings_version'] = 99"
# A run killed before its first snapshot: only the journal (and a stale lock) is left.
if DRBENCH_FAULT_KILL_AFTER=3 "$DRBENCH" run "$SRC/tests/configs/small.yaml" --output j.h5 \
  --quiet --no-table >/dev/null 2>&1; then fail "the fault-injected run should have died"; fi
[ -s j.h5.journal ] && [ ! -e j.h5 ] || fail "expected a journal and no results file"
# The Python API raises ValueError (its message is what the user sees), nothing else.
load() {
  "$PY" -c "
import sys
from drbench import results
try:
    results.load(sys.argv[1])
except ValueError as e:
    sys.exit(f'{e}')" "$1"
}
export PYTHONPATH="$SRC/python${PYTHONPATH:+:$PYTHONPATH}"
for f in zero truncated random overwritten data newer j nothere; do
  case $f in
    zero | random) want="not an HDF5 file" ;;
    truncated) want="damaged" ;;
    overwritten) want="" ;;  # which structure the 4 KiB hit decides the sentence
    data) want="not a drbench results file" ;;
    newer) want="written by a newer drbench|settings_version 99" ;;
    j) want="the run was interrupted|holds 3 finished task(s)|rerun the same" ;;
    nothere) want="no such file" ;;
  esac
  refused "info_$f" "$f.h5|$want" "$DRBENCH" info "$f.h5"
  refused "aggregate_$f" "$f.h5|$want" "$DRBENCH" aggregate "$f.h5" --no-store
  refused "plot_$f" "$f.h5|$want" "$DRBENCH" plot "$f.h5" -o figs
  refused "report_$f" "$f.h5|$want" "$DRBENCH" report "$f.h5" -o r.html
  refused "load_$f" "$f.h5|$want" load "$f.h5"
done
[ ! -e figs ] && [ ! -e r.html ] && [ ! -e r.html.tmp ] || fail "a refused reader wrote output"
# A resume of a newer file is refused and leaves it untouched.
cp newer.h5 newer_copy.h5
refused resume_newer "written by a newer drbench" "$DRBENCH" run ok.yaml --output newer.h5 --quiet
cmp -s newer.h5 newer_copy.h5 || fail "resume_newer: the newer file was modified"
# The journal-only run is recovered by rerunning it, as the message says.
"$DRBENCH" run "$SRC/tests/configs/small.yaml" --output j.h5 --no-table 2>err_j
expect_in err_j "3 already done"

# ---------------------------------------------------------------- overrides
for o in splits.repeats= seed= output.path= 'seed= '; do
  refused "override_empty_${o%%=*}" "${o%%=*}|the value is empty|=~' removes the key" \
    "$DRBENCH" run ok.yaml "$o" --output o.h5 --quiet
done
refused override_huge_index "methods[99999999999999999999].dims|out of range" \
  "$DRBENCH" run ok.yaml 'methods[99999999999999999999].dims=[2]' --output o.h5 --quiet
refused override_big_index "methods[99999999]|no such list entry" \
  "$DRBENCH" run ok.yaml 'methods[99999999].dims=[2]' --output o.h5 --quiet
[ ! -e o.h5 ] || fail "a refused override wrote a results file"

# ---------------------------------------------------------------- plan options
for bad in "--latency abc" "--latency -5" "--start -100" "--check -1" "--commit inf" \
  "--latency 1e999"; do
  refused "plan_${bad// /_}" "${bad%% *}|got '${bad#* }'" "$DRBENCH" plan ok.yaml --ranks 4 $bad
done
for bad in 1e3 99999999999 0 -2 4,x; do
  refused "plan_ranks_$bad" "--ranks" "$DRBENCH" plan ok.yaml --ranks "$bad"
done
[ ! -s "$WORK/out" ] || { cat "$WORK/out"; fail "plan printed part of a plan before refusing"; }
"$DRBENCH" plan ok.yaml --ranks 4,16 --latency 0.5 --start 0 --check 0 >plan.txt
expect_in plan.txt "rank 3"

# ---------------------------------------------------------------- stored text from outside
# A failing command writes raw bytes, or 3,001 bytes of a 3-byte character, to stderr: the stored
# error is valid UTF-8 (bytes as \xNN, the tail cut on a character boundary) and every reader
# reads it.
printf '#!/bin/sh\nprintf '"'"'oops \\370\\377\\376 bad\\n'"'"' >&2\nexit 3\n' >garbage.sh
printf '#!/bin/sh\n%s -c "import sys; sys.stderr.write(\\"x\\" + \\"\\u20ac\\" * 1000)"\nexit 3\n' \
  "$PY" >euro.sh
chmod +x garbage.sh euro.sh
cat >ext.yaml <<'YAML'
seed: 1
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5]}
methods:
  - {method: external, label: garbage, command: [./garbage.sh], dims: [2]}
  - {method: external, label: euro, command: [./euro.sh], dims: [2]}
YAML
set +e
"$DRBENCH" run ext.yaml --output ext.h5 --quiet --no-table 2>/dev/null
[ $? -eq 4 ] || fail "the failing external commands should end the run with exit 4"
set -e
check_text() {
  "$PY" - "$1" <<'PY'
import sys, h5py
t = h5py.File(sys.argv[1])["tasks"]
for label, raw in zip(t["label"].asstr()[()], t["error"][()]):
    text = raw.decode("utf-8")  # strict: raises on anything but UTF-8
    if label == "garbage":
        assert "oops \\xf8\\xff\\xfe bad" in text, text
    else:
        assert text.endswith("\u20ac" * 20), text[-80:]
PY
}
check_text ext.h5
"$DRBENCH" aggregate ext.h5 --no-store >/dev/null
"$DRBENCH" info ext.h5 >/dev/null
"$DRBENCH" report ext.h5 -o ext.html >/dev/null
"$DRBENCH" plot ext.h5 -o figs_ext >/dev/null 2>&1
"$PY" -c "import sys; from drbench import results; r = results.load('ext.h5'); print(list(r.tasks['error']))" >errors.txt
expect_in errors.txt 'oops \\xf8\\xff\\xfe bad'
# A file written before stored text was escaped (raw bytes under a matching CRC): every reader
# still reads it, the Python one showing the bytes escaped.
"$PY" - <<'PY'
import shutil, zlib, h5py, numpy as np
shutil.copy("ext.h5", "old.h5")
with h5py.File("old.h5", "a") as f:
    t = f["tasks"]
    raw = [b"old \xf8\xfe bytes", b"cut \xe2\x82"]
    crc = t["error"].attrs["crc32"]
    del t["error"]
    t.create_dataset("error", data=np.array(raw, dtype=object), dtype=h5py.string_dtype("utf-8"))
    t["error"].attrs["crc32"] = zlib.crc32(b"".join(b"%d:%s" % (len(x), x) for x in raw))
PY
"$DRBENCH" aggregate old.h5 --no-store >/dev/null
"$DRBENCH" report old.h5 -o old.html >/dev/null
"$PY" -c "import sys; from drbench import results; r = results.load('old.h5'); print(list(r.tasks['error']))" >errors.txt
expect_in errors.txt 'old \\xf8\\xfe bytes'

# ---------------------------------------------------------------- huge time limits, probe limit
# timeout: 1e300 and max_task_seconds 1e10/1e300 mean no practical limit (they overflowed the
# clock into a deadline in the past: "timed out after 0.2 s", "stopped at iteration 0").
first_dims_command "$WORK/ok_cmd.py"
for t in 1e300 1e10; do
  for m in 1e10 1e300; do
    cat >big.yaml <<YAML
seed: 1
max_task_seconds: $m
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5]}
methods:
  - {method: external, label: ok, command: [$PY, $WORK/ok_cmd.py], timeout: $t, dims: [2]}
YAML
    rm -f big.h5
    "$DRBENCH" run big.yaml --output big.h5 --quiet --no-table ||
      fail "timeout $t, max_task_seconds $m: a correct command did not finish"
  done
done
rm -f big.h5
"$DRBENCH" run big.yaml max_task_seconds=1e300 --output big.h5 --quiet --no-table ||
  fail "max_task_seconds=1e300 override: a correct command did not finish"
# validate --probe-external obeys max_task_seconds on a hanging command.
printf '#!/bin/sh\nsleep 300\n' >hang.sh
chmod +x hang.sh
cat >hang.yaml <<'YAML'
seed: 1
max_task_seconds: 2
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5]}
methods:
  - {method: external, label: hang, command: [./hang.sh], dims: [2]}
YAML
start=$(date +%s)
refused probe_hang "probe hang: FAILED|max_task_seconds" timeout 60 "$DRBENCH" validate hang.yaml --probe-external
[ $(($(date +%s) - start)) -lt 30 ] || fail "the probe did not stop at max_task_seconds"

# ---------------------------------------------------------------- task keys
# Choice values with the separators of a setting or a task key are refused: 'a,b=c' and 'a|b'
# would otherwise give two settings one task key.
for v in 'a,b' 'k=v' 'x|y'; do
  cat >key.yaml <<YAML
seed: 1
datasets: [{name: iris, source: bundled}]
splits: {train_ratio: [0.5]}
methods:
  - method: external
    label: ok
    command: [$PY, $WORK/ok_cmd.py]
    params: {mode: {type: choice, choices: [plain, '$v'], default: plain}}
    dims: [2]
YAML
  refused "choice_$v" "key.yaml|'$v'|separate settings" "$DRBENCH" validate key.yaml
done

# ---------------------------------------------------------------- IDX files
# A rank-1 (labels) file given as the images is refused, not read as 1-pixel images; a .gz whose
# data or CRC was damaged names zlib's error, not "truncated".
"$PY" - <<'PY'
import gzip, struct
import numpy as np
rng = np.random.default_rng(1)
y = (np.arange(60) % 3).astype(np.uint8)
x = rng.integers(0, 255, size=(60, 4, 4), dtype=np.uint8)
def idx(a):
    return struct.pack(">BBBB", 0, 0, 8, a.ndim) + struct.pack(">" + "I" * a.ndim, *a.shape) + a.tobytes()
open("lab-images-idx3-ubyte", "wb").write(idx(y))
open("lab-labels-idx1-ubyte", "wb").write(idx(y))
for stem in ("crc", "flip"):
    open(f"{stem}-labels-idx1-ubyte", "wb").write(idx(y))
    g = bytearray(gzip.compress(idx(x), mtime=0))
    if stem == "crc":
        g[-8] ^= 0xFF  # the stored CRC-32
    else:
        g[len(g) // 2] ^= 0x01  # a data byte inside the deflate stream
    open(f"{stem}-images-idx3-ubyte.gz", "wb").write(bytes(g))
PY
idx_yaml() {
  pca_config "{name: d, source: idx, path: $1}"
}
idx_yaml "$WORK/lab-images-idx3-ubyte" >lab.yaml
refused idx_labels_as_images "lab-images-idx3-ubyte|rank-1|given as images" "$DRBENCH" validate lab.yaml
idx_yaml "$WORK/crc-images-idx3-ubyte.gz" >crc.yaml
refused idx_gz_crc "crc-images-idx3-ubyte.gz|gzip data is damaged|zlib" "$DRBENCH" validate crc.yaml
idx_yaml "$WORK/flip-images-idx3-ubyte.gz" >flip.yaml
refused idx_gz_flip "flip-images-idx3-ubyte.gz|zlib" "$DRBENCH" validate flip.yaml

# ---------------------------------------------------------------- disk full for figures
# plot -o and report -o onto a full disk: a clear error, no 0-byte figure, no temporary file.
# Needs a small tmpfs (root); skipped with the reason where it cannot be mounted.
mkdir -p full
if mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
  trap 'umount "$WORK/full" 2>/dev/null; rm -rf "$WORK"' EXIT
  dd if=/dev/zero of=full/fill bs=4k 2>/dev/null || true
  refused report_full "full/r.html|No space left on device|free space" \
    "$DRBENCH" report good.h5 -o full/r.html
  "$DRBENCH" run "$SRC/tests/configs/small.yaml" --output figs.h5 --quiet --no-table
  refused plot_full "full/figs|No space left on device|free space" \
    "$DRBENCH" plot figs.h5 -o full/figs
  [ "$(find full -type f ! -name fill | wc -l)" = 0 ] || { ls -laR full; fail "disk full: files left"; }
  umount full
  trap 'rm -rf "$WORK"' EXIT
else
  echo "SKIP (disk full for figures): cannot mount a tmpfs here (needs root)"
fi
echo "hostile ok"
exit 0
