# Sourced (not run) by the scripts that time profiles of one drbench config back to back, each in
# its own process under /usr/bin/time -v for its peak memory, so that ratios mean something on a
# shared machine (ee_linear_fmnist.sh, dee_linear_fmnist.sh).
#
#   run_profiles NAME CONFIG "COLUMN..." PROFILE...
#
# Runs each profile of CONFIG into ${OUT_DIR:-/tmp/NAME}/PROFILE.h5 and prints a table of the
# given columns (benchmarks/profile_rows.py). Skips cleanly, status 0, without Fashion-MNIST.

run_profiles() {
  local name=$1 config=$2 columns=$3
  shift 3
  local data=/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
  if [[ ! -f $data ]]; then
    echo "$name: $data not found, skipped"
    return 0
  fi
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HDF5_USE_FILE_LOCKING=FALSE
  local out=${OUT_DIR:-/tmp/$name} p rss cpu
  mkdir -p "$out"
  # shellcheck disable=SC2086  # the columns are words
  /usr/bin/python3 benchmarks/profile_rows.py header $columns
  for p in "$@"; do
    /usr/bin/time -v -o "$out/$p.time" build/drbench run "$config" \
      --profile "$p" --output "$out/$p.h5" --force-new --quiet --no-table >"$out/$p.log" 2>&1
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$p.time")
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u + s}' "$out/$p.time")
    # shellcheck disable=SC2086
    /usr/bin/python3 benchmarks/profile_rows.py row "$out/$p.h5" "$p" "$rss" "$cpu" $columns
  done
}
