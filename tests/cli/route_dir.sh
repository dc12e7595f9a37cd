#!/usr/bin/env bash
# `lanes route -o DIR` writes DIR as one thing (issue 22 item 2): through a
# temporary directory put in place at the end, so a failed, full or killed
# run leaves the old DIR whole and nothing behind; report.json carries the
# fabric's fingerprints and `verify DIR` refuses a routing of another fabric.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=4x4 p=1)
BIG=(torus k=16x16x8 p=2) # 2048 switches, 6144 LIDs: a 100 MB LFT dump
leftovers() { find "$work" -maxdepth 1 -name '.*lanes-*' | wc -l; }
engine_of() { grep -o '"engine":"[a-z]*"' "$1/report.json"; }

check "route" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/r"
expect "fingerprints in report.json" "$work/r/report.json" '"cables":"0x[0-9a-f]{16}"'
check "route again, replaced" 0 "$LANES" route -e updn "${T[@]}" -o "$work/r/"
same "the new routing in place" "$(engine_of "$work/r")" '"engine":"updn"'
same "no temporary directory left" "$(leftovers)" 0

# DIR must hold only what route writes
echo mine >"$work/r/notes.txt"
check "foreign file" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/r"
expect "foreign file named" "$work/err" "holds 'notes.txt', which \`lanes route\` does not write"
same "DIR untouched" "$(engine_of "$work/r")" '"engine":"updn"'
rm "$work/r/notes.txt"
touch "$work/file"
check "a file, not a directory" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/file"
expect "not a directory" "$work/err" 'exists and is not a directory'

# out of space: a file-size limit, SIGXFSZ ignored (write fails: exit 2) or not (killed)
check "file too large" 2 bash -c 'ulimit -f 200; trap "" XFSZ; exec "$@"' _ \
  "$LANES" route -e minhop "${BIG[@]}" -o "$work/r"
expect "write failure named" "$work/err" 'opensm-lfts.dump: write failed: File too large'
same "old DIR whole after a failed write" "$(engine_of "$work/r")" '"engine":"updn"'
same "nothing left after a failed write" "$(leftovers)" 0
check "killed by SIGXFSZ" 153 bash -c 'ulimit -f 200; exec "$@"' _ "$LANES" route -e minhop "${BIG[@]}" -o "$work/r"
same "old DIR whole after SIGXFSZ" "$(engine_of "$work/r")" '"engine":"updn"'
same "nothing left after SIGXFSZ" "$(leftovers)" 0

# interrupted while writing: SIGTERM once the temporary directory exists
"$LANES" route -e minhop "${BIG[@]}" -o "$work/r" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 1000); do [ "$(leftovers)" = 1 ] && break; sleep 0.01; done
same "the temporary directory seen while writing" "$(leftovers)" 1
kill -TERM "$pid"; wait "$pid"; rc=$?
same "killed by SIGTERM" "$rc" 143
same "old DIR whole after SIGTERM" "$(engine_of "$work/r")" '"engine":"updn"'
same "nothing left after SIGTERM" "$(leftovers)" 0

# verify refuses a routing of another fabric, naming the part that differs
check "verify, same fabric" 0 "$LANES" verify "${T[@]}" "$work/r"
check "verify, cables differ" 2 "$LANES" verify mesh k=4x4 p=1 "$work/r"
expect "cables named" "$work/err" 'the routing was computed for another fabric: its cables differ'
check "verify, a cable failed" 2 "$LANES" verify "${T[@]}" --fail-links 1 "$work/r"
expect "failed cable is a difference" "$work/err" 'its cables differ'
check "sim, cables differ" 2 "$LANES" sim mesh k=4x4 p=1 "$work/r" --load 0.1
expect "sim checks too" "$work/err" 'another fabric'
sed -i '/"fabric"/,/}/d' "$work/r/report.json"
check "an older report.json" 0 "$LANES" verify "${T[@]}" "$work/r"
expect "older report: said, not checked" "$work/err" 'has no fabric fingerprint .*not checked'

finish
