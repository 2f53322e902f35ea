#!/usr/bin/env bash
# Fetches and builds the reference implementations that Debian does not package (openTSNE,
# umap-learn, pacmap, trimap) for `python3 -m drbench.references` (docs/external-methods.md,
# "Reference implementations"), at the commits drbench's results/references.md used.
#   scripts/get_references.sh                 # clone from GitHub into build/references
#   scripts/get_references.sh --from DIR      # use source trees already in DIR/<name>
#   DRBENCH_REFERENCES=/opt/refs scripts/get_references.sh
# Needs Debian's python3-sklearn, python3-numba, python3-pynndescent, cython3 and libfftw3-dev
# (scripts/install-deps.sh --references). Nothing else in the build or the tests needs it or the
# network: each reference's tests are skipped, saying why, where its package does not import.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${DRBENCH_REFERENCES:-$PWD/build/references}
from=
[[ ${1:-} == --from ]] && from=${2:?"--from needs a folder holding openTSNE/, umap/, PaCMAP/, trimap/"}
# name  repository  commit
refs=(
  "openTSNE https://github.com/pavlin-policar/openTSNE 6287bbf8e3c7e8a82afb18c76c6c94ba4d29fd36"
  "umap https://github.com/lmcinnes/umap 9fc083b71eb9c6879bf36aee9409bfa7d6881fe1"
  "PaCMAP https://github.com/YingfanWang/PaCMAP 2e7237aa1d702ed8ab104e5af1347ff2e709266c"
  "trimap https://github.com/eamid/trimap f6542cf1e91dabd472ec1e489afa9bcb8091296c"
)
mkdir -p "$dest"
for line in "${refs[@]}"; do
  read -r name url commit <<<"$line"
  if [[ -n $from ]]; then
    [[ -d $from/$name ]] || { echo "get_references: $from/$name is missing (fix: put the $url source tree there, or drop --from)" >&2; exit 1; }
    [[ $from/$name -ef $dest/$name ]] || { rm -rf "${dest:?}/$name"; cp -a "$from/$name" "$dest/$name"; }
  elif [[ ! -d $dest/$name/.git ]]; then
    git clone --quiet "$url" "$dest/$name"
    git -C "$dest/$name" checkout --quiet "$commit"
  fi
done
# openTSNE's Cython extensions, with FFTW (its setup.py falls back to numpy's FFT without it).
(cd "$dest/openTSNE" && /usr/bin/python3 setup.py build_ext --inplace >build_ext.log 2>&1) ||
  { echo "get_references: building openTSNE failed; see $dest/openTSNE/build_ext.log" >&2; exit 1; }
# TriMap's __init__ asks pkg_resources for its own version: its metadata, written in place.
(cd "$dest/trimap" && /usr/bin/python3 setup.py egg_info >/dev/null 2>&1) ||
  { echo "get_references: writing trimap's metadata failed (setup.py egg_info)" >&2; exit 1; }
PYTHONPATH=$PWD/python DRBENCH_REFERENCES=$dest /usr/bin/python3 -m drbench.references --list
