#!/usr/bin/env bash
# Bad input of every kind (YAML, data, CLI flags, results files) is refused before anything runs:
# a non-zero exit that is not a signal or an uncaught exception, a message naming the file or key
# and a fix, and nothing written (no results file, journal or lock, nothing in the working
# directory). Prints the number of cases per kind at the end.
. "$(dirname "$0")/../support/cli_lib.sh"
CFG="$SRC/tests/configs/small.yaml"
D="$WORK/data"
OUT="$WORK/res"  # not $WORK/out: expect_fail writes its stdout there
mkdir -p "$D" "$OUT"
# One line per refused case; a file, because bad_yaml runs in a pipeline (a subshell).
COUNTS="$WORK/counts"
: >"$COUNTS"

# expect_refusal KIND NAME "TEXT1|TEXT2..." cmd...: run cmd in an empty directory; every TEXT must
# appear in stderr, as must a fix (or the usage hint); nothing may be written.
expect_refusal() {
  local kind=$1 name=$2 texts=$3
  shift 3
  local cwd="$WORK/cwd_$name"
  mkdir -p "$cwd"
  local before
  before=$(ls -A "$OUT" | sort)
  set +e
  (cd "$cwd" && "$@") >"$WORK/out.txt" 2>"$WORK/err"
  local rc=$?
  set -e
  [ $rc -ne 0 ] || fail "$name: expected an error, got success"
  [ $rc -lt 128 ] || { cat "$WORK/err"; fail "$name: killed by a signal (exit $rc)"; }
  ! grep -q "terminate called\|Aborted\|Segmentation" "$WORK/err" ||
    { cat "$WORK/err"; fail "$name: uncaught exception or crash"; }
  local t
  IFS='|' read -ra want <<<"$texts"
  for t in "${want[@]}"; do expect_in "$WORK/err" "$t"; done
  grep -qiE "fix|drbench help" "$WORK/err" || { cat "$WORK/err"; fail "$name: no fix in the message"; }
  [ -z "$(ls -A "$cwd")" ] || { ls -laR "$cwd"; fail "$name: wrote into the working directory"; }
  [ "$(ls -A "$OUT" | sort)" = "$before" ] || { ls -la "$OUT"; fail "$name: wrote into $OUT"; }
  echo "$kind $name" >>"$COUNTS"
}

# bad_yaml NAME "TEXTS" < yaml: `drbench run` (one process) on that config.
bad_yaml() {
  cat >"$WORK/$1.yaml"
  expect_refusal yaml "$1" "$1.yaml|$2" "$DRBENCH" run "$WORK/$1.yaml" --output "$OUT/$1.h5" --quiet
}
# bad_data NAME "TEXTS" < yaml: the same, for configs that are valid until the data is read.
bad_data() {
  cat >"$WORK/$1.yaml"
  expect_refusal data "$1" "$2" "$DRBENCH" run "$WORK/$1.yaml" --output "$OUT/$1.h5" --quiet
}
bad_cli() { local n=$1 t=$2; shift 2; expect_refusal cli "$n" "$t" "$@"; }
bad_results() { local n=$1 t=$2; shift 2; expect_refusal results "$n" "$t" "$@"; }

HEAD='seed: 1
datasets: [{name: iris, source: bundled}]'
SPLIT='splits: {train_ratio: [0.5]}'
METH='methods: [{method: pca, dims: [2]}]'
OK="$HEAD
$SPLIT
$METH"
# The valid config around the part under test: a dataset entry, a splits value or a methods
# value, each with optional lines after it.
with_dataset() { printf 'datasets: [%s]\n%s\n%s\n' "$1" "$SPLIT" "$METH"; }
with_splits() {
  printf '%s\nsplits: %s\n%s\n' "$HEAD" "$1" "$METH"
  [ $# -lt 2 ] || printf '%s\n' "$2"
}
with_methods() {
  printf '%s\n%s\nmethods: %s\n' "$HEAD" "$SPLIT" "$1"
  [ $# -lt 2 ] || printf '%s\n' "$2"
}

# ---------------------------------------------------------------- YAML: syntax and structure
printf 'name: x\nmethods: [\n' | bad_yaml malformed "malformed YAML"
printf 'name: x\n\tseed: 1\n' | bad_yaml tab_indent "malformed YAML"
printf '' | bad_yaml empty "the config is empty"
printf -- '- a\n- b\n' | bad_yaml top_list "expected a map"
printf '%s\nfoo: 1\n' "$OK" | bad_yaml unknown_top "'foo'"
printf '%s\n%s\nseed: 2\n' "$OK" "" | bad_yaml duplicate_top "seed"
printf '%s\n%s\n' "$SPLIT" "$METH" | bad_yaml no_datasets "'datasets'"
printf 'datasets: iris\n%s\n%s\n' "$SPLIT" "$METH" | bad_yaml datasets_scalar "'datasets'"
with_dataset '' | bad_yaml datasets_empty "'datasets'"
with_dataset '{source: bundled}' | bad_yaml dataset_no_name "datasets[0].name"
with_dataset '{name: iris, source: bundled}, {name: iris, source: bundled}' |
  bad_yaml dataset_dup "already used"
with_dataset '{name: "a|b", source: bundled}' | bad_yaml dataset_pipe "contains '|'"
with_dataset '{name: iris, source: ftp}' | bad_yaml bad_source "datasets[0].source"
with_dataset '{name: m, source: idx}' | bad_yaml idx_no_path "needs a path"
with_dataset '{name: g, source: generator, generator: swiss_roll, path: x.h5}' |
  bad_yaml generator_path "datasets[0].path"
with_dataset '{name: g, source: generator, generator: swiss_rol}' |
  bad_yaml unknown_generator "swiss_rol"
with_dataset '{name: g, source: generator, generator: gaussian_blobs, params: {m: 3}}' |
  bad_yaml generator_param "params"
with_dataset '{name: g, source: generator, generator: gaussian_blobs, params: {n: many}}' |
  bad_yaml generator_param_type "params.n"
with_dataset '{name: iris, source: bundled, params: {n: 3}}' |
  bad_yaml params_not_generator "only applies to generated data"
with_dataset '{name: iris, source: bundled, max_points: -5}' |
  bad_yaml max_points_negative "max_points"
with_dataset '{name: iris, source: bundled, verify_checksum: maybe}' |
  bad_yaml checksum_not_bool "verify_checksum"
with_dataset '{name: iris, source: bundled, preprocess: [whiten]}' |
  bad_yaml unknown_step "whiten"
with_dataset '{name: iris, source: bundled, preprocess: [pca]}' |
  bad_yaml pca_no_args "pca needs either variance or components"
with_dataset '{name: iris, source: bundled, preprocess: [{pca: {variance: 1.5}}]}' |
  bad_yaml pca_variance "out of range"
with_dataset '{name: iris, source: bundled, preprocess: [{pca: {variance: 0.9, components: 2}}]}' |
  bad_yaml pca_both "not both"
with_dataset '{name: iris, source: bundled, preprocess: [{center: {axis: 1}}]}' |
  bad_yaml center_options "takes no options"
with_dataset '{name: iris, source: bundled, preprocess: [{minmax: {per_feature: 2}}]}' |
  bad_yaml minmax_option "per_feature"
# ---------------------------------------------------------------- YAML: splits
printf '%s\n%s\n' "$HEAD" "$METH" | bad_yaml no_splits "'splits'"
with_splits '{repeats: 2}' | bad_yaml splits_empty "no partition given"
with_splits '{train_ratio: [0.5], own: true}' | bad_yaml splits_two "already given"
with_splits '{train_ratio: [1.5]}' | bad_yaml ratio_range "out of range"
with_splits '{train_per_class: [0]}' | bad_yaml per_class_zero "train_per_class"
with_splits '{train_per_class: [5, 5]}' | bad_yaml split_dup "appears twice"
with_splits '{own: false}' | bad_yaml own_false "selects no partition"
with_splits '{train_ratio: [0.5], repeats: four}' | bad_yaml repeats_type "splits.repeats"
with_splits '{train_ratio: [0.5], repeats: 0}' | bad_yaml repeats_zero "splits.repeats"
with_splits '{all: true, test_per_class: 3}' 'evaluation: {protocol: transductive}' |
  bad_yaml test_per_class_all "does not apply"
with_splits '{train_ratio: [0.5], seed: -1}' | bad_yaml split_seed "splits.seed"
with_splits '{all: true}' | bad_yaml all_holdout "leaves no held-out test points"
# ---------------------------------------------------------------- YAML: methods
printf '%s\n%s\n' "$HEAD" "$SPLIT" | bad_yaml no_methods "'methods'"
with_methods '[{method: pcaa, dims: [2]}]' | bad_yaml unknown_method "pcaa"
with_methods '[{dims: [2]}]' | bad_yaml method_missing "methods[0].method"
with_methods '[{method: pca, dims: [2]}, {method: pca, dims: [1]}]' |
  bad_yaml label_dup "already used"
with_methods '[{method: pca, label: "a|b", dims: [2]}]' | bad_yaml label_pipe "contains '|'"
with_methods '[{method: pca}]' | bad_yaml dims_missing "methods[0].dims"
with_methods '[{method: pca, dims: [0]}]' | bad_yaml dims_zero "methods[0].dims"
with_methods '[{method: pca, dims: [2, 2]}]' | bad_yaml dims_dup "appears twice"
with_methods '[{method: pca, dims: [two]}]' | bad_yaml dims_type "methods[0].dims"
with_methods '[{method: identity, grid: {a: 1}}]' | bad_yaml grid_no_params "has no parameters"
with_methods '[{method: lle, dims: [2], grid: {neighbors: 5}}]' |
  bad_yaml grid_unknown "neighbors"
with_methods '[{method: lle, dims: [2], grid: {neighbours: many}}]' |
  bad_yaml grid_type "grid.neighbours"
with_methods '[{method: lle, dims: [2], grid: {neighbours: 0}}]' |
  bad_yaml grid_range "grid.neighbours"
with_methods '[{method: lle, dims: [2], grid: {neighbours: {logspace: [1, 2]}}}]' |
  bad_yaml logspace_form "expected a list of 3 numbers"
with_methods '[{method: lle, dims: [2], grid: {neighbours: {linspace: [2, 5, 3]}}}]' |
  bad_yaml linspace_int "non-integer value"
with_methods '[{method: lle, dims: [2], grid: {neighbours: [5, 5]}}]' |
  bad_yaml grid_dup "appears twice"
with_methods '[{method: lle, dims: [2], grid: {neighbours: {range: [1, 2, 3]}}}]' |
  bad_yaml grid_map_kind "grid.neighbours"
with_methods '[{method: pca, dims: [2], preprocess: [unit]}]' |
  bad_yaml method_preprocess "methods[0].preprocess"
with_methods '[{method: pca, dims: [2], colour: red}]' | bad_yaml method_key "colour"
# ---------------------------------------------------------------- YAML: evaluation, output, profiles
printf '%s\nevaluation: {knn: [0]}\n' "$OK" | bad_yaml knn_zero "evaluation.knn"
printf '%s\nevaluation: {knn: [1, 1]}\n' "$OK" | bad_yaml knn_dup "appears twice"
printf '%s\nevaluation: {knn_metric: manhattan}\n' "$OK" | bad_yaml knn_metric "knn_metric"
printf '%s\nevaluation: {protocol: inductive}\n' "$OK" | bad_yaml protocol "one of holdout, transductive"
printf '%s\nevaluation: {selection: best}\n' "$OK" | bad_yaml selection "evaluation.selection"
printf '%s\nevaluation: {quality: [strain]}\n' "$OK" | bad_yaml quality_name "evaluation.quality"
printf '%s\nevaluation: {quality: [trustworthiness], quality_k: 0}\n' "$OK" | bad_yaml quality_k_zero "quality_k"
printf '%s\nevaluation: {ttest_against: PCA}\n' "$OK" | bad_yaml ttest_label "no method has the label 'PCA'"
printf '%s\nevaluation: {kn: [1]}\n' "$OK" | bad_yaml evaluation_key "'evaluation.kn'"
printf '%s\noutput: {file: x.h5}\n' "$OK" | bad_yaml output_key "'output.file'"
printf '%s\noutput: {keep_embeddings: sometimes}\n' "$OK" | bad_yaml keep_embeddings "keep_embeddings"
printf '%s\nprofiles: [quick]\n' "$OK" | bad_yaml profiles_list "profiles"
printf '%s\nprofiles: {quick: {colour: red}}\n' "$OK" | bad_yaml profile_key "colour"
printf '%s\nprofiles: {quick: {splits: {repeats: 0}}}\n' "$OK" | bad_yaml profile_unselected "profile quick"
printf '%s\nblas_threads: 0\n' "$OK" | bad_yaml blas_threads "blas_threads"
printf '%s\nseed: -3\n' "$(printf '%s' "$OK" | sed 1d)" | bad_yaml seed_negative "'seed'"
printf 'name: {a: 1}\n%s\n' "$OK" | bad_yaml name_map "'name'"
printf 'data_path: %s/nowhere\n%s\n' "$WORK" "$OK" | bad_yaml data_path "'data_path'|does not exist"
# Protocols: supervised methods never see the labels they are scored on.
with_methods '[{method: lda, dims: [2]}]' 'evaluation: {protocol: transductive}' |
  bad_yaml lda_transductive "'lda' is supervised"
printf '%s\nsplits: {all: true}\nmethods: [{method: lda, dims: [2]}]\nevaluation: {protocol: transductive}\n' "$HEAD" |
  bad_yaml lda_all "scores every point leave-one-out"

# ---------------------------------------------------------------- data
printf '1,2,0\n3,nan,1\n5,6,0\n7,8,1\n' >"$D/nan.csv"
printf '1,2,0\n3,inf,1\n5,6,0\n7,8,1\n' >"$D/inf.csv"
printf '1,2,0\n3,4\n5,6,0\n' >"$D/ragged.csv"
: >"$D/empty.csv"
printf '1,x,0\n3,4,1\n' >"$D/text_feature.csv"
printf '1,2,0\n3,4,2\n5,6,0\n7,8,2\n' >"$D/gap.csv"
printf '1,2,0\n3,4,0\n5,6,0\n7,8,0\n' >"$D/one_class.csv"
for i in $(seq 1 12); do printf '%d,%d,%d\n' "$i" "$((i * 7 % 5))" "$((i % 3))"; done >"$D/twelve.csv"
printf 'not hdf5\n' >"$D/text.h5"
"$PY" - "$D" <<'PY'
import sys, numpy as np, h5py
d = sys.argv[1]
with h5py.File(f"{d}/transposed.h5", "w") as f:
    f["X"] = np.random.default_rng(0).random((6, 40)).T.T  # 6 x 40: stored features x points
    f["y"] = np.arange(40) % 2
with h5py.File(f"{d}/no_y.h5", "w") as f:
    f["X"] = np.ones((10, 2))
with h5py.File(f"{d}/short_y.h5", "w") as f:
    f["X"] = np.ones((10, 3))
    f["y"] = np.arange(7) % 2
with h5py.File(f"{d}/flat_x.h5", "w") as f:
    f["X"] = np.ones(10)
    f["y"] = np.arange(10) % 2
with h5py.File(f"{d}/big_label.h5", "w") as f:
    f["X"] = np.random.default_rng(1).random((10, 2))
    f["y"] = np.array([0, 1] * 4 + [0, 9])
with h5py.File(f"{d}/no_split.h5", "w") as f:
    f["X"] = np.random.default_rng(2).random((10, 2))
    f["y"] = np.arange(10) % 2
PY
printf '\x00\x00\x08\x03\x00\x00\x00\x05' >"$D/trunc-images-idx3-ubyte"
printf '\x00\x00\x08\x01\x00\x00\x00\x05\x00\x01' >"$D/trunc-labels-idx1-ubyte"
printf 'PK\x03\x04garbage' >"$D/magic-images-idx3-ubyte"
printf '\x00\x00\x08\x01\x00\x00\x00\x01\x00' >"$D/magic-labels-idx1-ubyte"
src() { printf 'seed: 1\ndatasets: [{name: d, source: %s, path: %s}]\n' "$1" "$D/$2"; }
src csv nan.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data nan_data "NaN|nan.csv"
src csv inf.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data inf_data "Inf|inf.csv"
src csv ragged.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data ragged_csv "ragged.csv"
src csv empty.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data empty_csv "empty.csv"
src csv text_feature.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data text_feature "text_feature.csv"
src csv gap.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data label_gap "class 1"
src csv one_class.csv | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data one_class "same label"
src file transposed.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data transposed "looks transposed"
src file no_y.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data no_y "no_y.h5"
src file short_y.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data short_y "short_y.h5|found 7"
src file flat_x.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data flat_x "flat_x.h5"
src file big_label.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data big_label "big_label.h5"
src file text.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data not_hdf5 "text.h5"
src file missing.h5 | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data missing_file "missing.h5"
with_dataset '{name: nosuchset}' | bad_data missing_by_name "nosuchset"
src idx trunc-images-idx3-ubyte | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data idx_truncated "trunc-images"
src idx magic-images-idx3-ubyte | { cat; printf '%s\n%s\n' "$SPLIT" "$METH"; } | bad_data idx_magic "magic-images"
src file no_split.h5 | { cat; printf 'splits: {own: true}\n%s\n' "$METH"; } | bad_data own_no_split "defines no split"
# Checks against the loaded data, at the key that must change.
with_splits '{train_per_class: [2]}' 'evaluation: {knn: [7]}' |
  bad_data knn_train "'evaluation.knn'|exceeds the 6 training points"
src csv twelve.csv | { cat; printf 'splits: {all: true}\nmethods: [{method: identity}]\nevaluation: {knn: [12], protocol: transductive}\n'; } |
  bad_data knn_loo "exceeds the 11 other points"
printf '%s\nsplits: {train_per_class: [3]}\nmethods: [{method: lle, dims: [2], grid: {neighbours: [5, 9]}}]\n' "$HEAD" |
  bad_data neighbours_n "'methods[0].grid.neighbours'|not below the 9 points"
with_splits '{train_per_class: [48]}' 'evaluation: {quality: [continuity], quality_k: 5}' |
  bad_data quality_k_big "'evaluation.quality_k'"
with_splits '{train_per_class: [50]}' | bad_data no_test_points "leaving it no test points"
with_splits '{train_ratio: [0.005]}' | bad_data ratio_no_train "no training points"
with_splits '{train_per_class: [60]}' | bad_data per_class_big "'splits.train_per_class'"
with_splits '{train_per_class: [10], test_per_class: 45}' | bad_data test_per_class_big "test_per_class"
with_methods '[{method: lda, dims: [5]}]' | bad_data lda_dims "'methods[0].dims'|lda allows at most"
with_methods '[{method: pca, dims: [9]}]' | bad_data pca_dims "'methods[0].dims'"
with_methods '[{method: lle, dims: [2], grid: {neighbours: [99999999999999999999]}}]' |
  bad_yaml int_too_large "too large for an integer"
mkdir -p "$D/adir"
printf 'seed: 1\ndatasets: [{name: d, path: %s}]\n%s\n%s\n' "$D/adir" "$SPLIT" "$METH" | bad_data dataset_dir "is a directory|adir"

# ---------------------------------------------------------------- memory (docs/cluster.md, "Memory")
# bad_memory NAME "TEXTS" ARGS... < yaml: `drbench run` with ARGS on that config.
bad_memory() {
  local name=$1 texts=$2
  shift 2
  cat >"$WORK/$name.yaml"
  expect_refusal memory "$name" "$texts" "$DRBENCH" run "$WORK/$name.yaml" --output "$OUT/$name.h5" --quiet "$@"
}
ROLL='datasets: [{name: roll, source: generator, generator: swiss_roll, params: {n: 4000}}]'
# LLE's estimate on 2,000 training points (a dense n x n: 32 MB) is more than 16M allows.
printf 'seed: 1\n%s\n%s\nmethods: [{method: lle, dims: [2]}]\n' "$ROLL" "$SPLIT" |
  bad_memory task_over_limit "'methods[0]'|the task dataset roll|lle {|dim 2|needs about|--memory-per-rank 16M|fewer ranks per node" --memory-per-rank 16M
expect_refusal memory validate_over_limit "'methods[0]'|needs about" \
  "$DRBENCH" validate "$WORK/task_over_limit.yaml" --memory-per-rank 16M
expect_refusal memory plan_over_limit "'methods[0]'|needs about" \
  "$DRBENCH" plan "$WORK/task_over_limit.yaml" --ranks 4 --memory-per-rank 16M
# A generator asked for 10^7 points in 10^5 dimensions (16 TB) is refused before it allocates.
printf 'seed: 1\ndatasets: [{name: huge, source: generator, generator: gaussian_blobs, params: {n: 10000000, dim: 100000}}]\n%s\n%s\n' "$SPLIT" "$METH" |
  bad_memory generator_huge "'datasets[0].params'|needs about 14.6 TiB|lower params.n or params.dim"
# Three grid axes of 5,000 values: 1.25e11 settings, refused while the config is read.
with_methods '[{method: sammon, dims: [2], grid: {iterations: {linspace: [1, 5000, 5000]}, tolerance: {linspace: [0, 1, 5000]}, step: {linspace: [0.0001, 1, 5000]}}}]' |
  bad_memory grid_settings "'methods[0].grid'|1.25e+11 settings|fewer values per axis"
# A million settings parse, but their task list is more than 100M per rank.
with_methods '[{method: lle, dims: [2], grid: {ridge: {linspace: [0.001, 1, 2000]}, neighbours: {linspace: [1, 500, 500]}}}]' |
  bad_memory grid_tasks "'methods[0].grid'|1e+06 tasks|fewer values per grid axis" --memory-per-rank 100M
for v in 10 4X -1G ""; do
  bad_cli "memory_value_$v" "--memory-per-rank" "$DRBENCH" run "$WORK/task_over_limit.yaml" --memory-per-rank "$v"
done
bad_cli memory_no_value "--memory-per-rank needs a value" "$DRBENCH" validate "$WORK/task_over_limit.yaml" --memory-per-rank
bad_cli memory_plan_value "--memory-per-rank" "$DRBENCH" plan "$WORK/task_over_limit.yaml" --ranks 2 --memory-per-rank 2Q
# Under mpirun the default counts the ranks on the node; an explicit limit is refused alike.
expect_fail "mpirun: memory" "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/task_over_limit.yaml" --output "$OUT/mm.h5" --quiet --memory-per-rank 16M
expect_in "$WORK/err" "needs about"
[ ! -e "$OUT/mm.h5" ] || fail "mpirun: memory: a results file was written"

# ---------------------------------------------------------------- CLI flags
printf '%s\nprofiles: {quick: {splits: {repeats: 2}}}\n' "$OK" >"$WORK/good.yaml"
bad_cli run_no_config "run needs a CONFIG" "$DRBENCH" run
bad_cli run_two_configs "run takes one CONFIG, then key=value overrides" "$DRBENCH" run "$WORK/good.yaml" "$WORK/good.yaml"
bad_cli unknown_option "unknown option '--fast'" "$DRBENCH" run "$WORK/good.yaml" --fast
bad_cli output_no_value "--output needs a value" "$DRBENCH" run "$WORK/good.yaml" --output
bad_cli output_empty "--output needs a file name" "$DRBENCH" run "$WORK/good.yaml" --output ""
bad_cli quick_and_profile "--quick is --profile quick" "$DRBENCH" run "$WORK/good.yaml" --quick --profile quick
bad_cli validate_quick_profile "--quick is --profile quick" "$DRBENCH" validate "$WORK/good.yaml" --quick --profile x
bad_cli unknown_profile "unknown profile 'full'" "$DRBENCH" run "$WORK/good.yaml" --profile full --output "$OUT/p.h5"
bad_cli output_dir "is a directory" "$DRBENCH" run "$WORK/good.yaml" --output "$OUT" --quiet
bad_cli output_slash "is a directory" "$DRBENCH" run "$WORK/good.yaml" --output "$OUT/new/" --quiet
bad_cli output_dot "is a directory" "$DRBENCH" run "$WORK/good.yaml" --output . --quiet
bad_cli config_missing "none.yaml" "$DRBENCH" run "$WORK/none.yaml"
bad_cli config_is_dir "$WORK" "$DRBENCH" validate "$WORK"
bad_cli unknown_command "unknown command 'rnu'" "$DRBENCH" rnu
bad_cli validate_no_config "validate needs a CONFIG" "$DRBENCH" validate
bad_cli aggregate_no_file "aggregate needs a RESULTS.h5" "$DRBENCH" aggregate
bad_cli aggregate_format "--format must be md, csv or tex" "$DRBENCH" aggregate "$WORK/x.h5" --format xls
bad_cli methods_unknown "nosuch" "$DRBENCH" methods nosuch
bad_cli one_dash "unknown option '-quick'|two dashes: --quick" "$DRBENCH" run "$WORK/good.yaml" -quick
bad_cli datasets_no_dir "--data-path /nonexistent: no such directory" "$DRBENCH" datasets --data-path /nonexistent
head -c 300 /bin/true >"$WORK/binary.yaml"
bad_cli binary_config "binary.yaml|not a text file" "$DRBENCH" validate "$WORK/binary.yaml"
# Command-line overrides are checked like the file, and their problems name the override.
bad_cli override_unknown_key "command line (splits.repeets=2)|'splits.repeets': unknown key|did you mean 'repeats'" \
  "$DRBENCH" run "$WORK/good.yaml" splits.repeets=2 --output "$OUT/o.h5"
bad_cli override_bad_value "command line (splits.repeats=many)|'splits.repeats'" \
  "$DRBENCH" run "$WORK/good.yaml" splits.repeats=many --output "$OUT/o.h5"
bad_cli override_no_entry "command line (methods[3].dims=[2])|no such list entry|has 1 entries" \
  "$DRBENCH" run "$WORK/good.yaml" "methods[3].dims=[2]" --output "$OUT/o.h5"
bad_cli override_bad_param "command line (methods[0].grid.bogus=[1])|bogus" \
  "$DRBENCH" validate "$WORK/good.yaml" "methods[0].grid.bogus=[1]"
bad_cli override_top "command line (qiuck=1)|unknown key" "$DRBENCH" plan "$WORK/good.yaml" qiuck=1 --ranks 2
bad_cli override_malformed "not a config override|key=value" "$DRBENCH" run "$WORK/good.yaml" "splits..repeats=2"
bad_cli override_profiles "profiles cannot be overridden|--profile" "$DRBENCH" run "$WORK/good.yaml" profiles.quick.seed=2
bad_cli only_unknown "--only KPCA|no method label 'KPCA'|PCA" "$DRBENCH" run "$WORK/good.yaml" --only KPCA --output "$OUT/o.h5"
bad_cli only_parenthesised "--only KPCA (exact, full)|no method label 'KPCA (exact, full)'|PCA" "$DRBENCH" run "$WORK/good.yaml" --only "KPCA (exact, full)" --output "$OUT/o.h5"
bad_cli dataset_unknown "--dataset irsi|did you mean 'iris'" "$DRBENCH" run "$WORK/good.yaml" --dataset irsi --output "$OUT/o.h5"
bad_cli info_no_file "info needs a RESULTS.h5" "$DRBENCH" info
# A lock or journal never appears outside the output's own directory (was: --output /tmp made /tmp.lock).
[ ! -e "$OUT.lock" ] && [ ! -e "$OUT.journal" ] || fail "a lock or journal was created next to $OUT"

# ---------------------------------------------------------------- results files
"$DRBENCH" run "$WORK/good.yaml" --output "$WORK/good.h5" --quiet --no-table
bad_results agg_missing "no such file" "$DRBENCH" aggregate "$WORK/nothere.h5" --no-store
bad_results agg_not_hdf5 "not an HDF5 file" "$DRBENCH" aggregate "$D/text.h5" --no-store
bad_results agg_dim_text "--dim needs a whole number" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --dim two
bad_results agg_dim_absent "--dim 7" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --dim 7
bad_results agg_k_absent "--k 5" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --k 5
bad_results agg_k_negative "--k needs a whole number" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --k -1
bad_results agg_dataset "--dataset wine" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --dataset wine
bad_results agg_long_dir "--long needs a CSV file name" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --long "$OUT"
bad_results agg_long_nodir "cannot write" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --long "$OUT/no/x.csv"
bad_results agg_ttest "'PCA' is not a method label" "$DRBENCH" aggregate "$WORK/good.h5" --no-store --ttest PCA
# Damaged files: flipped bytes inside a column of the task table, a truncated file, a file
# without the task table.
"$PY" - "$WORK/good.h5" "$D" <<'PY'
import sys, shutil, h5py
src, d = sys.argv[1], sys.argv[2]
for col in ("knn_error", "split_value", "status", "dim", "split_seed"):
    with h5py.File(src, "r") as f:
        off = f["tasks"][col].id.get_chunk_info(0).byte_offset
    shutil.copy(src, f"{d}/flip_{col}.h5")
    with open(f"{d}/flip_{col}.h5", "r+b") as g:
        g.seek(off + 1)
        b = bytearray(g.read(2))
        g.seek(off + 1)
        g.write(bytes([b[0] ^ 0x55, b[1] ^ 0x0F]))
data = open(src, "rb").read()
open(f"{d}/truncated.h5", "wb").write(data[: len(data) // 2])
with h5py.File(f"{d}/no_tasks.h5", "w") as f:
    f.attrs["config"] = "name: x"
PY
for col in knn_error split_value status dim split_seed; do
  bad_results "flip_$col" "damaged|$col" "$DRBENCH" aggregate "$D/flip_$col.h5" --no-store
done
bad_results truncated "truncated.h5" "$DRBENCH" aggregate "$D/truncated.h5" --no-store
# Damage inside a kept embedding: aggregate reads only /tasks; drbench info reads every dataset.
"$DRBENCH" run "$WORK/good.yaml" output.keep_embeddings=true --output "$D/emb.h5" --quiet >/dev/null
"$PY" - "$D/emb.h5" "$D/flip_emb.h5" <<'PY'
import sys, shutil, h5py
src, dst = sys.argv[1], sys.argv[2]
with h5py.File(src, "r") as f:
    names = []
    f["embeddings"].visit(lambda n: names.append(n) if isinstance(f["embeddings"][n], h5py.Dataset) and f["embeddings"][n].chunks else None)
    off = f["embeddings"][names[0]].id.get_chunk_info(0).byte_offset
shutil.copy(src, dst)
with open(dst, "r+b") as g:
    g.seek(off + 1)
    b = bytearray(g.read(2))
    g.seek(off + 1)
    g.write(bytes([b[0] ^ 0x55, b[1] ^ 0x0F]))
PY
"$DRBENCH" info "$D/emb.h5" >"$WORK/info" || fail "info on an intact file failed"
expect_in "$WORK/info" "checksum verified"
bad_results flip_embedding "damaged" "$DRBENCH" info "$D/flip_emb.h5"
bad_results no_tasks "not a drbench results file" "$DRBENCH" aggregate "$D/no_tasks.h5" --no-store
# A changed experiment does not resume into the old file (comments alone would).
printf '%s\nevaluation: {knn: [3]}\n' "$OK" >"$WORK/changed.yaml"
cp "$WORK/good.h5" "$OUT/resume.h5"
bad_results resume_changed "different config|--force-new" \
  "$DRBENCH" run "$WORK/changed.yaml" --output "$OUT/resume.h5" --quiet
cmp -s "$WORK/good.h5" "$OUT/resume.h5" || fail "resume_changed: the old results file was modified"
# The original refusals, under mpirun with two ranks.
expect_fail "mpirun: unknown key" "${MPIRUN[@]}" -np 2 "$DRBENCH" run "$WORK/unknown_top.yaml" --output "$OUT/m.h5" --quiet
expect_in "$WORK/err" "'foo'"
[ ! -e "$OUT/m.h5" ] || fail "mpirun: a results file was written"

TOTAL=$(wc -l <"$COUNTS")
summary=""
for k in yaml data memory cli results; do summary+="$k=$(grep -c "^$k " "$COUNTS" || true) "; done
echo "bad input ok: $TOTAL refused inputs ($summary)"
[ "$TOTAL" -ge 100 ] || fail "only $TOTAL bad-input cases (want at least 100)"
