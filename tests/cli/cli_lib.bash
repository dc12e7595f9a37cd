# cli_lib.bash - what the CLI test scripts share (sourced, not a test itself):
# pass/fail counters, a work folder removed on exit, and the assertions.
#   check NAME EXPECTED_RC CMD...  run CMD, output in $work/out and $work/err
#   expect NAME FILE REGEX         FILE matches the extended REGEX
#   same NAME GOT WANT             two strings are equal
#   finish                         print the counts; the script's status
pass=0 fail=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

check() {
  local name=$1 want=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" = "$want" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $name: exit $rc, expected $want"; head -5 "$work/err"; fi
}
expect() {
  if grep -Eq -- "$3" "$2"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1: no /$3/ in $2:"; head -5 "$2"; fi
}
same() {
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1: got '$2', expected '$3'"; fi
}
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
