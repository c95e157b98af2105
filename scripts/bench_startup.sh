#!/usr/bin/env bash
# bench_startup.sh: wall-clock start-up of `canopy render` on a tiny SVG, cold
# (empty cache directory: no canopy pipeline cache, no driver shader cache) and
# warm (the caches a previous run left), against rsvg-convert on the same file.
# Prints the median and range of N runs of each (default 7). Then the same
# with the drivers' own shader disk caches turned off (Mesa:
# MESA_SHADER_CACHE_DISABLE, NVIDIA: __GL_SHADER_DISK_CACHE=0), so that only
# canopy's pipeline cache file can help: cold (no file) against warm (the file).
# usage: scripts/bench_startup.sh path/to/canopy [N]
set -eu
canopy=$1; n=${2:-7}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect x="8" y="8" width="48" height="48" rx="6" fill="#c33"/></svg>\n' >"$work/tiny.svg"
now() { date +%s.%N; }
median() { sort -n | awk '{v[NR]=$1} END {printf "median %.3f s (min %.3f, max %.3f, %d runs)", v[int((NR+1)/2)], v[1], v[NR], NR}'; }
run() { # run CACHE_DIR COMMAND...: seconds of one run with XDG_CACHE_HOME=CACHE_DIR
  local dir=$1; shift
  local t0; t0=$(now)
  XDG_CACHE_HOME=$dir "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  awk -v a="$(now)" -v b="$t0" 'BEGIN {printf "%.4f\n", a - b}'
}
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "device:  $("$canopy" info | sed -n 's/^chosen: [0-9]*: //p')"
echo "file:    a 64x64 SVG with one rounded rectangle"
cold=(); warm=(); rsvg=()
for i in $(seq "$n"); do
  rm -rf "$work/cache"; mkdir "$work/cache"
  cold+=("$(run "$work/cache" "$canopy" render "$work/tiny.svg" -o "$work/out.png")")
done
run "$work/cache" "$canopy" render "$work/tiny.svg" -o "$work/out.png" >/dev/null
for i in $(seq "$n"); do warm+=("$(run "$work/cache" "$canopy" render "$work/tiny.svg" -o "$work/out.png")"); done
echo "canopy render, cold:     $(printf '%s\n' "${cold[@]}" | median)"
echo "canopy render, warm:     $(printf '%s\n' "${warm[@]}" | median)"
echo "pipeline cache file:     $(stat -c %s "$work/cache/canopy/pipelines.bin" 2>/dev/null || echo none) bytes"
nodrv() { MESA_SHADER_CACHE_DISABLE=true __GL_SHADER_DISK_CACHE=0 "$@"; }
m=$(( n < 3 ? n : 3 ))
cold2=(); warm2=()
for i in $(seq "$m"); do
  rm -rf "$work/cache2"; mkdir "$work/cache2"
  cold2+=("$(run "$work/cache2" nodrv "$canopy" render "$work/tiny.svg" -o "$work/out.png")")
done
for i in $(seq "$m"); do warm2+=("$(run "$work/cache2" nodrv "$canopy" render "$work/tiny.svg" -o "$work/out.png")"); done
echo "driver caches off, cold: $(printf '%s\n' "${cold2[@]}" | median)"
echo "driver caches off, warm: $(printf '%s\n' "${warm2[@]}" | median)"
if command -v rsvg-convert >/dev/null; then
  for i in $(seq "$n"); do rsvg+=("$(run "$work/cache" rsvg-convert "$work/tiny.svg" -o "$work/r.png")"); done
  echo "rsvg-convert:            $(printf '%s\n' "${rsvg[@]}" | median)"
else
  echo "rsvg-convert:            not installed"
fi
