#!/usr/bin/env bash
# Refreshes the JavaScript that `drbench report` inlines into its pages
# (python/drbench/report_assets/plotly-gl2d.min.js) from the npm package pinned in
# python/drbench/report_assets/package-lock.json. Needs npm and the registry once; building,
# testing and viewing pages never do (the minified file is committed).
# To move to a newer plotly: edit the version in package.json, then
#   (cd python/drbench/report_assets && npm install --package-lock-only --ignore-scripts)
# and run this script.
set -euo pipefail
dir="$(cd "$(dirname "$0")/../python/drbench/report_assets" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$dir/package.json" "$dir/package-lock.json" "$tmp/"
(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
src="$tmp/node_modules/plotly.js-gl2d-dist-min/plotly-gl2d.min.js"
cp "$src" "$dir/plotly-gl2d.min.js.tmp"
cp "$tmp/node_modules/plotly.js-gl2d-dist-min/LICENSE" "$dir/PLOTLY-LICENSE"
mv "$dir/plotly-gl2d.min.js.tmp" "$dir/plotly-gl2d.min.js"
echo "$dir/plotly-gl2d.min.js: $(wc -c <"$dir/plotly-gl2d.min.js") bytes, $(head -c 40 "$dir/plotly-gl2d.min.js" | tr -d '\n')"
