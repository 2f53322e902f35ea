#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, AddressSanitizer + UndefinedBehaviorSanitizer, leak
# detection on) in build-fuzz/ and runs each for a fixed budget from the committed seed corpus in
# fuzz/corpus/<target>. Exits non-zero on the first crash, leak, sanitizer report or timeout; the
# reproducer is left in build-fuzz/artifacts/. The hdf5 and results targets read each input as
# production does: once in a forked child (framework/support/child_rehearsal.hpp), then in-process.
# A crash in that child is drbench's designed answer to a file that breaks libhdf5 (a clean
# error), so it is not a finding; its ASan report still lands in the log for the record.
#   scripts/fuzz.sh [--seconds N (default 60)] [--no-build] [--build-dir DIR] [TARGET...]
# Targets: config csv idx hdf5 results (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
build=1
dir=build-fuzz
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --build-dir) dir=$2; shift 2 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(config csv idx hdf5 results)
if [ "$build" = 1 ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # -O1 with line tables: fast enough to fuzz, cheap enough to build, readable stack traces.
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DDRBENCH_FUZZ=ON \
    -DDRBENCH_TESTS="${DRBENCH_FUZZ_TESTS:-OFF}" "${launcher[@]}" >/dev/null
  cmake --build "$dir" -j "${JOBS:-2}" --target "${targets[@]/#/fuzz_}"
fi
export HDF5_USE_FILE_LOCKING=FALSE
# An allocation over 4 GB fails as malloc does on a machine without that memory: libhdf5, asked
# by a damaged file for a terabyte of metadata cache, then reports an error as it does in
# production. drbench's own code gets std::bad_alloc, which no target catches, so an unchecked
# claimed size in drbench is still a finding.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1:max_allocation_size_mb=4096:${ASAN_OPTIONS:-}
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp:${LSAN_OPTIONS:-}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}
mkdir -p "$dir/artifacts"
status=0
for t in "${targets[@]}"; do
  bin="$dir/fuzz/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin is not built" >&2; exit 2; }
  # New inputs go to a scratch corpus; the committed seeds are only read.
  work=$(mktemp -d)
  echo "== fuzz_$t: ${seconds}s"
  if ! "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$dir/artifacts/$t-" "$work" "fuzz/corpus/$t" >"$dir/fuzz_$t.log" 2>&1; then
    echo "FAIL: fuzz_$t found a problem (log: $dir/fuzz_$t.log)" >&2
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$dir/fuzz_$t.log" | head -20 >&2
    status=1
  else
    grep -E "^stat::number_of_executed_units|^Done" "$dir/fuzz_$t.log" | tr '\n' ' '
    echo
  fi
  rm -rf "$work"
done
exit $status
