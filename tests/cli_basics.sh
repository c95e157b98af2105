#!/usr/bin/env bash
# cli_basics.sh: exit codes and output of canopy --help, --version, info.
# usage: cli_basics.sh path/to/canopy source-dir
set -u
canopy=$1
. "$(dirname "$0")/lib_cli.sh"
out=$(mktemp); err=$(mktemp); trap 'rm -f $out $err' EXIT

"$canopy" --help >"$out" 2>"$err"; expect help 0 $?
contains help "$out" "usage: canopy"
contains help-lists-info "$out" "info"
"$canopy" --version >"$out" 2>"$err"; expect version 0 $?
contains version "$out" "^canopy [0-9]\+\.[0-9]\+\.[0-9]\+$"
"$canopy" >"$out" 2>"$err"; expect no-args 2 $?
"$canopy" frobnicate >"$out" 2>"$err"; expect unknown-command 2 $?
contains unknown-command "$err" "unknown command 'frobnicate'"
"$canopy" --frob >"$out" 2>"$err"; expect unknown-option 2 $?
contains unknown-option "$err" "unknown option '--frob'"
"$canopy" info --bogus >"$out" 2>"$err"; expect info-unknown-option 2 $?
"$canopy" info --kernels >"$out" 2>"$err"; expect info-kernels 0 $?
contains info-kernels-single "$out" "^  parens_single *\[[0-9]*,16\]"
contains info-kernels-scan "$out" "^  scan_u32_add[_a64]* *\[256,16,"
contains info-kernels-render "$out" "^  render_fine "
contains info-kernels-fine-loads "$out" "^  render_fine *\[[0-9]*,0,1,"
contains info-kernels-seg "$out" "^  render_tile_seg "
contains info-kernels-backdrop "$out" "^  render_backdrop_packed "
contains info-kernels-flatten "$out" "^  flatten_pairs "
contains info-kernels-na "$out" "n/a"
"$canopy" info >"$out" 2>"$err"; expect info 0 $?
contains info-lists-lavapipe "$out" "llvmpipe"
contains info-marks-chosen "$out" "^ \* [0-9]*: "
contains info-subgroup "$out" "subgroup size: *[0-9]"
contains info-shared "$out" "shared memory: *[0-9]* bytes"
contains info-workgroup "$out" "max workgroup size:"
contains info-timestamp "$out" "timestamp period:"
CANOPY_DEVICE=no-such-device "$canopy" info >"$out" 2>"$err"; expect info-bad-device 1 $?
contains info-bad-device "$err" "no Vulkan device matches \"no-such-device\""
CANOPY_DEVICE=0 "$canopy" info >"$out" 2>"$err"; expect info-device-0 0 $?
contains info-device-0 "$out" "^ \* 0: "

finish
