#!/usr/bin/env bash
# `lanes route -o DIR` writes DIR as one thing (issue 22 item 2): through a
# temporary directory put in place at the end, so a failed, full or killed
# run leaves the old DIR whole and nothing behind; report.json carries the
# fabric's fingerprints and `verify DIR` refuses a routing of another fabric.
# DIR is what lanes_atomic makes of a file: a link is followed and the link
# stays, a replaced directory keeps its mode and owner, a new one gets the
# umask's; a route killed by SIGKILL leaves its temporary directory, which a
# later route names (never removes); report.json lists the faults removed.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=4x4 p=1)
BIG=(torus k=16x16x8 p=2) # 2048 switches, 6144 LIDs: a 100 MB LFT dump
leftovers() { find "$work" -maxdepth 1 -name '.*lanes-*' | wc -l; }
engine_of() { grep -o '"engine":"[a-z]*"' "$1/report.json"; }
mode_of() { stat -c %a "$1"; }
files_of() { find "$1" -mindepth 1 | wc -l; }
in_umask() { local m=$1; shift; bash -c 'umask "$1"; shift; exec "$@"' _ "$m" "$@"; }

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

# out of space: a file-size limit is a failed write (exit 2, named), SIGXFSZ ignored or not
check "file too large" 2 bash -c 'ulimit -f 200; trap "" XFSZ; exec "$@"' _ \
  "$LANES" route -e minhop "${BIG[@]}" -o "$work/r"
expect "write failure named" "$work/err" 'opensm-lfts.dump: write failed: File too large'
same "old DIR whole after a failed write" "$(engine_of "$work/r")" '"engine":"updn"'
same "nothing left after a failed write" "$(leftovers)" 0
check "SIGXFSZ not ignored: a failed write too" 2 bash -c 'ulimit -f 200; exec "$@"' _ \
  "$LANES" route -e minhop "${BIG[@]}" -o "$work/r"
expect "write failure named, not a silent death" "$work/err" 'opensm-lfts.dump: write failed: File too large'
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

# -o - would be a directory named '-': route writes a directory, never standard output
check "-o -" 2 bash -c 'cd "$1" && shift && exec "$@"' _ "$work" "$LANES" route -e minhop "${T[@]}" -o -
expect "-o - named" "$work/err" '^lanes: route: -o -: route writes a directory'
same "no directory named -" "$(find "$work" -maxdepth 1 -name - | wc -l)" 0
check "--output - too" 2 "$LANES" route -e minhop "${T[@]}" --output -
check "./- is a directory" 0 bash -c 'cd "$1" && shift && exec "$@"' _ "$work" "$LANES" route -e minhop "${T[@]}" -o ./-
same "./- written" "$(files_of "$work/-")" 4
rm -r "${work:?}/-"

# a link is followed: the directory it names is replaced and the link stays
check "route into real" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/real"
ln -s real "$work/link"
check "route into a link" 0 "$LANES" route -e updn "${T[@]}" -o "$work/link"
same "the link is still a link" "$(readlink "$work/link")" real
same "the new routing in the link's target" "$(engine_of "$work/real")" '"engine":"updn"'
same "the target has the four files" "$(files_of "$work/real")" 4
same "no temporary directory after a link" "$(leftovers)" 0
ln -s link "$work/link2"
check "a link to a link, with a slash" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/link2/"
same "link to a link still a link" "$(readlink "$work/link2")" link
same "the first link still a link" "$(readlink "$work/link")" real
same "the routing in the last target" "$(engine_of "$work/real")" '"engine":"minhop"'
mkdir "$work/sub"; ln -s ../real "$work/sub/up"
check "a relative link in another directory" 0 "$LANES" route -e updn "${T[@]}" -o "$work/sub/up"
same "relative to the link's directory" "$(engine_of "$work/real")" '"engine":"updn"'
same "the temporary beside the target, not the link" "$(find "$work/sub" -name '.*' | wc -l)" 0
ln -s new "$work/dangling"
check "a dangling link" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/dangling"
same "dangling link still a link" "$(readlink "$work/dangling")" new
same "its target created, a directory" "$(find "$work/new" -maxdepth 0 -type d | wc -l)" 1
same "the target's files" "$(engine_of "$work/new")" '"engine":"minhop"'
ln -s nowhere/x "$work/lost"
check "a link into a missing directory" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/lost"
expect "the missing directory named" "$work/err" "-o $work/lost \(a link to $work/nowhere/x\): cannot create a temporary directory beside it: No such file or directory"
echo mine >"$work/afile"; ln -s afile "$work/tofile"
check "a link to a file" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/tofile"
expect "a link to a file refused" "$work/err" "-o $work/tofile \(a link to $work/afile\): exists and is not a directory"
same "the file untouched" "$(cat "$work/afile")" mine
same "the link to a file untouched" "$(readlink "$work/tofile")" afile
ln -s loop "$work/loop"
check "a link loop" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/loop"
expect "a link loop named" "$work/err" "-o $work/loop: cannot follow the link .*: Too many levels of symbolic links"
same "nothing left by refusals" "$(leftovers)" 0

# modes: a replaced directory keeps its own, a new one gets 0777 & ~umask
chmod 750 "$work/real"
check "route into a 750 directory" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/real"
same "its mode kept" "$(mode_of "$work/real")" 750
chmod 701 "$work/real"
check "route into a 701 directory through a link" 0 "$LANES" route -e updn "${T[@]}" -o "$work/link"
same "701 kept" "$(mode_of "$work/real")" 701
same "701: the new files" "$(engine_of "$work/real")" '"engine":"updn"'
check "new under umask 077" 0 in_umask 077 "$LANES" route -e minhop "${T[@]}" -o "$work/u077"
same "umask 077: 700" "$(mode_of "$work/u077")" 700
same "umask 077: files 600" "$(mode_of "$work/u077/report.json")" 600
check "new under umask 027" 0 in_umask 027 "$LANES" route -e minhop "${T[@]}" -o "$work/u027"
same "umask 027: 750" "$(mode_of "$work/u027")" 750
check "new under umask 022" 0 in_umask 022 "$LANES" route -e minhop "${T[@]}" -o "$work/u022"
same "umask 022: 755" "$(mode_of "$work/u022")" 755
check "replaced under umask 077" 0 in_umask 077 "$LANES" route -e updn "${T[@]}" -o "$work/u022"
same "replaced: its mode, not the umask's" "$(mode_of "$work/u022")" 755
if [ "$(id -u)" = 0 ]; then
  chown 65534:65534 "$work/real"
  check "route into another user's directory" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/link"
  same "its owner kept" "$(stat -c %u:%g "$work/real")" 65534:65534
else
  chmod 500 "$work/real"
  check "a directory whose files cannot be removed" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/real"
  expect "cannot replace named" "$work/err" "cannot replace its files: Permission denied"
  chmod 700 "$work/real"
fi

# killed by SIGKILL: the temporary directory stays; a later route names it, never removes it
"$LANES" route -e minhop "${BIG[@]}" -o "$work/r" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 1000); do [ "$(leftovers)" = 1 ] && break; sleep 0.01; done
kill -KILL "$pid"; wait "$pid"; rc=$?
same "killed by SIGKILL" "$rc" 137
same "SIGKILL leaves the temporary directory" "$(leftovers)" 1
left=$(find "$work" -maxdepth 1 -name '.r.lanes-*')
check "route after a SIGKILL" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/r"
same "the leftover named" "$(cat "$work/err")" "lanes: warning: $left left by an interrupted route; remove it"
same "the leftover kept" "$(leftovers)" 1
same "the route done all the same" "$(engine_of "$work/r")" '"engine":"minhop"'
mkdir "$work/.r.lanes-abc123.old"
check "two leftovers" 0 "$LANES" route -e updn "${T[@]}" -o "$work/r"
expect "both named" "$work/err" "^lanes: warning: ($left|$work/.r.lanes-abc123.old), ($left|$work/.r.lanes-abc123.old) left by an interrupted route; remove them$"
same "both kept" "$(leftovers)" 2
rm -r "$left" "$work/.r.lanes-abc123.old"
mkdir "$work/.r.lanes-abc" "$work/.rr.lanes-abc123"; touch "$work/.r.lanes-xyz789"
check "names that are not route's" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/r"
same "no warning for them" "$(cat "$work/err")" ""
rm -r "$work/.r.lanes-abc" "$work/.rr.lanes-abc123" "$work/.r.lanes-xyz789"
# another route still writing holds its temporary directory: not a leftover
"$LANES" route -e updn "${BIG[@]}" -o "$work/r" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 1000); do [ "$(leftovers)" = 1 ] && break; sleep 0.01; done
# the lock is taken before the first file: wait for one
for _ in $(seq 1 1000); do [ -e "$(find "$work" -maxdepth 1 -name '.r.lanes-*')/opensm-lfts.dump" ] && break; sleep 0.01; done
kill -STOP "$pid"
check "route while another writes" 0 "$LANES" route -e updn "${T[@]}" -o "$work/r"
same "the other's directory not named" "$(cat "$work/err")" ""
same "the other's directory kept" "$(leftovers)" 1
kill -TERM "$pid"; kill -CONT "$pid"; wait "$pid"; rc=$?
same "the other ended by SIGTERM" "$rc" 143
same "nothing left after both" "$(leftovers)" 0

# report.json lists what the fault options removed, as topo info --json does
check "route with faults" 0 "$LANES" route -e updn "${T[@]}" --fail-switch 0x0002c90300a00001 \
  --fail-links 2 -o "$work/f" --quiet
tr -d ' \n' <"$work/f/report.json" | grep -o '"faults":{[^}]*}' >"$work/faults"
expect "faults: the counts" "$work/faults" '"links_removed":2,"switches_removed":1,"cas_removed":1,'
expect "faults: the switch named" "$work/faults" '"switches":\["0x0002c90300a00001"\]'
same "faults: two cables" "$(grep -o '\[\["0x' "$work/faults" | wc -l)" 2
check "route without faults" 0 "$LANES" route -e updn "${T[@]}" -o "$work/f"
same "no faults key without faults" "$(grep -c '"faults"' "$work/f/report.json")" 0

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
