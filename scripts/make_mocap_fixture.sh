#!/usr/bin/env bash
# Regenerates tests/fixtures/mocap/: the first frames of two CMU sequences (subjects 35 and 49, as
# SheffieldML/GPmat carries them) and the joint positions Lawrence's own mocap toolbox computes for
# them (acclaimReadSkel, acclaimLoadChannels, acclaim2xyz, run in Debian's octave). drbench's
# reader (framework/data/mocap.cpp) is tested against these positions.
# Usage: scripts/make_mocap_fixture.sh GPMAT_CHECKOUT   (a work tree of github.com/SheffieldML/GPmat)
set -euo pipefail
gpmat=${1:?usage: $0 GPMAT_CHECKOUT}
out=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/mocap
cmu=$gpmat/datasets/data/mocap/cmu
mkdir -p "$out"
frames=6
for s in 35/35_01 49/49_18; do
  subj=${s%/*}
  cp "$cmu/$subj/$subj.asf" "$out/$subj.asf"
  # The header, then the first $frames frames (a frame starts at a line holding its number only).
  awk -v last=$((frames + 1)) '/^[0-9]+[ \t\r]*$/ { if ($1 + 0 == last) exit } { print }' \
    "$cmu/$s.amc" > "$out/${s#*/}.amc"
done
octave --no-gui -q --eval "
  addpath('$gpmat/mocap'); addpath('$gpmat/ndlutil');
  for s = {'35', '35_01'; '49', '49_18'}'
    skel = acclaimReadSkel(['$out/' s{1} '.asf']);
    [ch, skel] = acclaimLoadChannels(['$out/' s{2} '.amc'], skel);
    f = fopen(['$out/' s{2} '.xyz.tsv'], 'w');
    for t = 1:size(ch, 1)
      xyz = acclaim2xyz(skel, ch(t, :));
      fprintf(f, '%.10g\t', xyz'(:)); fprintf(f, '\n');
    end
    fclose(f);
  end" 2>&1 | grep -v -E "^warning|^ +acclaimReadSkel|^ *$|called from" || true
ls -l "$out"
