# lib_cli.sh: what the cli_*.sh tests share; each sources it after setting
# `canopy`. Counters and checks: a check that holds counts a pass, one that
# fails prints FAIL with its name and counts a failure; `finish` prints the
# totals and is the script's exit status. expect prints "$err" after a failed
# exit code where a script keeps the command's stderr there.
fails=0
passes=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
expect() { # expect NAME EXPECTED_CODE ACTUAL_CODE
  if [ "$2" -eq "$3" ]; then pass; else
    fail "$1: exit $3, want $2"
    if [ -n "${err:-}" ] && [ -f "$err" ]; then cat "$err"; fi
  fi
}
contains() { # contains NAME FILE PATTERN
  if grep -q -- "$3" "$2"; then pass; else fail "$1: no '$3' in:"; cat "$2"; fi
}
finish() { # finish [NAME]: the totals; exit status 0 when nothing failed
  echo "${1:+$1: }$passes passed, $fails failed"
  [ "$fails" -eq 0 ]
}
