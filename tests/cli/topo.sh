#!/usr/bin/env bash
# CLI behaviour of `lanes topo`: exit codes, JSON keys, generator specs in
# place of files, formats, faults and clear errors on bad input.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

json() { grep -o "\"$1\":[^,}]*" "$work/out" | head -1 | cut -d: -f2; }

# usage and help
check "no args" 2 "$LANES"
check "help" 0 "$LANES" --help
expect "help lists topo" "$work/out" '^  topo'
check "unknown command" 2 "$LANES" frobnicate
check "topo help" 0 "$LANES" topo info --help
check "topo list" 0 "$LANES" topo list
for g in dragonfly slimfly hyperx torus mesh hypercube fattree xgft sfxff jellyfish; do
  expect "list has $g" "$work/out" "^$g "
done

# the default fabric of the demo: the 72-node dragonfly of seed 000
check "info dragonfly" 0 "$LANES" topo info dragonfly a=4 p=2 h=2 --json
for k in switches cas links_switch_switch links_switch_ca diameter avg_distance radix_max \
         connected parallel_links self_loops; do
  expect "json key $k" "$work/out" "\"$k\":"
done
[ "$(json cas)" = 72 ] && [ "$(json switches)" = 36 ] && [ "$(json diameter)" = 3 ] &&
  [ "$(json connected)" = true ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: dragonfly a=4 p=2 h=2 numbers"; cat "$work/out"; }

# a generated file reads back with the same numbers, in each format
for fmt in ibnetdiscover ibsim; do
  check "gen $fmt" 0 "$LANES" topo gen torus k=4x4 p=2 --format $fmt -o "$work/t.$fmt"
  check "info $fmt" 0 "$LANES" topo info "$work/t.$fmt" --json
  [ "$(json switches)" = 16 ] && [ "$(json cas)" = 32 ] && [ "$(json diameter)" = 4 ] &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: torus via $fmt"; }
done
check "gen dot" 0 "$LANES" topo gen hypercube n=3 p=1 --format dot -o "$work/h.dot"
expect "dot edges" "$work/h.dot" '^	n[0-9]+ -- n[0-9]+'
[ "$(grep -c -- ' -- ' "$work/h.dot")" = 20 ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: hypercube n=3 p=1 has 12 + 8 cables"; }
# analysis-only LIDs (above 0xBFFF: 50000 LIDs here) are written as 0 in DOT too
check "dot big" 0 "$LANES" topo gen torus k=100x100 p=4 --format dot -o "$work/big.dot"
[ -z "$(grep -Eo 'LID [0-9]+' "$work/big.dot" | awk '$2 > 49151')" ] &&
  [ "$(grep -c 'LID 0"' "$work/big.dot")" = 849 ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: DOT prints analysis-only LIDs"; }
# gen: --to is --format (the output); both must agree
check "gen --to" 0 "$LANES" topo gen torus k=4 p=1 --to ibsim
expect "gen --to writes ibsim" "$work/out" '^# ibsim net file'
check "gen --to and --format" 2 "$LANES" topo gen torus k=4 p=1 --to ibsim --format dot
expect "disagree msg" "$work/err" 'disagree'
# --format names a file's format: with a generator spec it means nothing
check "info spec --format" 2 "$LANES" topo info torus k=4 p=1 --format ibsim
expect "spec --format msg" "$work/err" 'generator spec'
check "convert spec --format" 2 "$LANES" topo convert torus k=4 p=1 --format ibsim --to dot
check "list extra" 2 "$LANES" topo list extra
expect "list extra msg" "$work/err" "unexpected argument 'extra'"
# output that cannot be written is a failure (exit 2), not success
for cmd in "topo info torus k=4 p=1" "topo list" "topo gen torus k=4 p=1" "--help"; do
  # shellcheck disable=SC2086
  "$LANES" $cmd >/dev/full 2>"$work/err"; rc=$?
  [ $rc = 2 ] && grep -q 'cannot write standard output' "$work/err" && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: $cmd >/dev/full: exit $rc"; cat "$work/err"; }
done
check "convert to stdout" 0 "$LANES" topo convert "$DATA/ibsim_net.basic" --to ibnetdiscover
expect "convert output" "$work/out" '^Switch'

# faults: reproducible, reported, connectivity decides the exit code
check "faults" 0 "$LANES" topo info hyperx K=4x4 p=1 --fail-links 3 --fault-seed 5 --json
expect "faults reported" "$work/out" '"links_removed":3'
cp "$work/out" "$work/f1"
check "faults again" 0 "$LANES" topo info hyperx K=4x4 p=1 --fail-links 3 --fault-seed 5 --json
cmp -s "$work/out" "$work/f1" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: faults not reproducible"; }
check "ring cut twice" 1 "$LANES" topo info torus k=8 p=1 --fail-links 2 --fault-seed 1
expect "disconnected" "$work/out" 'connected +no'
check "faults fraction" 0 "$LANES" topo info fattree k=4 n=2 --fail-switches 0.25 --fault-seed 3 --json
[ "$(json switches)" = 6 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 25% of 8 switches"; }
# seeds are decimal: 010 is ten (not octal eight) and 08 is eight
check "seed 010" 0 "$LANES" topo info hyperx K=4x4 p=1 --fail-links 3 --fault-seed 010 --json
expect "seed 010 is ten" "$work/out" '"seed":10[,}]'
check "seed 08" 0 "$LANES" topo info hyperx K=4x4 p=1 --fail-links 3 --fault-seed 08 --json
expect "seed 08 is eight" "$work/out" '"seed":8[,}]'
check "seed hex" 2 "$LANES" topo info hyperx K=4x4 p=1 --fault-seed 0x10
check "seed blank minus" 2 "$LANES" topo info hyperx K=4x4 p=1 --fault-seed " -1"
check "too many faults" 2 "$LANES" topo info torus k=4 p=1 --fail-links 9
expect "names option" "$work/err" 'fail-links'
check "bad fault value" 2 "$LANES" topo info torus k=4 p=1 --fail-switches 1.5
expect "names option" "$work/err" 'fail-switches'
# counts beyond 2^32 are refused, not wrapped to a small count
check "fault count 2^32" 2 "$LANES" topo info torus k=4 p=1 --fail-links 4294967296
expect "names option" "$work/err" 'fail-links: cannot remove 4294967296 of 4'
check "fault count 1e20" 2 "$LANES" topo info torus k=4 p=1 --fail-switches 1e20
expect "names option" "$work/err" 'fail-switches: cannot remove'
# removing every switch leaves no fabric: refused
check "all switches" 2 "$LANES" topo gen torus k=4 p=1 --fail-switches 4 -o "$work/empty.txt"
expect "names option" "$work/err" 'fail-switches: removing all 4 switches'
[ ! -e "$work/empty.txt" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: empty fabric written"; }
# two CAs cabled back to back, no switch: one connected fabric
printf 'Hca 2 "a"\n[1] "b"[2]\n\nHca 2 "b"\n[2] "a"[1]\n' >"$work/b2b.net"
check "back to back" 0 "$LANES" topo info "$work/b2b.net" --json
[ "$(json connected)" = true ] && [ "$(json isolated_cas)" = 0 ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: back-to-back CAs"; cat "$work/out"; }
# multi-rail fat tree: planes joined through dual-port hosts are one fabric
check "rails connected" 0 "$LANES" topo info xgft h=2 m=2,2 w=2,2 --json
[ "$(json connected)" = true ] && [ "$(json components)" = 2 ] &&
  [ "$(json fabric_components)" = 1 ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: xgft rails"; cat "$work/out"; }

# bad input: clear messages, exit 2
check "missing file" 2 "$LANES" topo info "$work/nope.txt"
expect "missing file msg" "$work/err" 'nope.txt: No such file'
check "directory" 2 "$LANES" topo info "$work"
expect "directory msg" "$work/err" 'Is a directory'
# inputs are capped at 1 GiB: a huge file is refused from its size, an
# endless device after 1 GiB (not when memory runs out)
truncate -s 2G "$work/huge.txt"
check "huge file" 2 "$LANES" topo info "$work/huge.txt"
expect "huge file msg" "$work/err" 'huge.txt: larger than 1 GiB'
rm -f "$work/huge.txt"
check "endless device" 2 "$LANES" topo info /dev/zero
expect "endless device msg" "$work/err" '/dev/zero: larger than 1 GiB'
check "neither" 2 "$LANES" topo info nosuchthing
expect "neither msg" "$work/err" 'neither a file nor a topology generator'
# a spec quoted as one argument reads as its words
check "quoted spec" 0 "$LANES" topo info "dragonfly  a=4 p=2 h=2" --json
expect "quoted spec CAs" "$work/out" '"cas": *72'
check "quoted bad spec" 2 "$LANES" topo info "dragonfly a=4 p=2 h=0"
expect "quoted names h" "$work/err" "'h'"
check "quoted nothing" 2 "$LANES" topo info "nosuch thing"
expect "quoted nothing msg" "$work/err" "'nosuch' is neither a file nor a topology generator"
check "bad param" 2 "$LANES" topo info dragonfly a=4 p=2 h=0
expect "names h" "$work/err" "'h'"
check "unknown key" 2 "$LANES" topo info dragonfly a=4 p=2 h=2 hh=3
expect "names hh" "$work/err" "unknown parameter 'hh'"
# an unknown key is refused before a huge fabric is built
check "unknown key first" 2 timeout 10 "$LANES" topo gen torus k=4000x4000 p=0 hh=1
expect "names hh early" "$work/err" "unknown parameter 'hh'"
check "missing key" 2 "$LANES" topo gen dragonfly a=4 p=2
expect "names required" "$work/err" "'h' is required"
printf 'Switch 4 "a"\n[1] "b"[1]\n' >"$work/bad.net"
check "bad net file" 2 "$LANES" topo info "$work/bad.net"
expect "file:line" "$work/err" 'bad.net:2: '
check "bad format name" 2 "$LANES" topo gen torus k=4 p=1 --format png
expect "format msg" "$work/err" "no writer named 'png'"
# a failed write leaves the old file as it was and no temporary file behind:
# a file-size limit makes the write itself fail (EFBIG; SIGXFSZ ignored), and
# that works as root too, where permissions would not stop anything
echo old >"$work/keep.txt"
( trap '' XFSZ; ulimit -f 4; exec "$LANES" topo gen torus k=10x10 p=2 -o "$work/keep.txt" ) \
  >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] && [ "$(cat "$work/keep.txt")" = old ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: failed write: exit $rc, keep.txt now $(wc -c <"$work/keep.txt") bytes"; }
check "write into missing dir" 2 "$LANES" topo gen torus k=4 p=1 -o "$work/nodir/x.txt"
expect "missing dir msg" "$work/err" 'nodir/x.txt: cannot create a temporary file: No such file'
check "write into a directory" 2 "$LANES" topo gen torus k=4 p=1 -o "$work"
expect "directory msg" "$work/err" 'Is a directory'
[ -z "$(ls "$work" | grep '\.tmp\.')" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: temporary file left"; }
# a replaced file keeps its mode
chmod 600 "$work/keep.txt"
check "gen over a 0600 file" 0 "$LANES" topo gen torus k=4 p=1 -o "$work/keep.txt"
[ "$(stat -c %a "$work/keep.txt")" = 600 ] && grep -q '^Switch' "$work/keep.txt" &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: mode not kept: $(stat -c %a "$work/keep.txt")"; }
# a symbolic link is written through (the link stays), also a dangling one
# into another directory: the temporary file goes beside the real file
mkdir "$work/real"
echo old >"$work/real/t.txt"
ln -s real/t.txt "$work/link.txt"
ln -s real/new.txt "$work/dangling.txt"
check "gen through link" 0 "$LANES" topo gen torus k=4 p=1 -o "$work/link.txt"
check "gen through dangling link" 0 "$LANES" topo gen torus k=4 p=1 -o "$work/dangling.txt"
[ -L "$work/link.txt" ] && [ -L "$work/dangling.txt" ] && grep -q '^Switch' "$work/real/t.txt" &&
  grep -q '^Switch' "$work/real/new.txt" && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: symbolic links replaced"; ls -l "$work" "$work/real"; }
# a FIFO is written into, not replaced
mkfifo "$work/fifo"
timeout 20 cat "$work/fifo" >"$work/fifo.out" & reader=$!
check "gen into a FIFO" 0 timeout 20 "$LANES" topo gen torus k=4 p=1 -o "$work/fifo"
wait $reader
[ -p "$work/fifo" ] && grep -q '^Switch' "$work/fifo.out" && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: FIFO replaced or not written"; ls -l "$work/fifo"; }
# a character device (/dev/null's numbers) stays a device; mknod needs root
if mknod "$work/null" c 1 3 2>/dev/null; then
  check "gen into a device" 0 "$LANES" topo gen torus k=4 p=1 -o "$work/null"
  [ -c "$work/null" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: device replaced by a file"; }
else
  echo "skip: mknod needs root; the device case was not tested"
fi

# real files: invalid LIDs are repaired with a warning per bad LID
check "invalid lids" 0 "$LANES" topo info "$DATA/anon_4sw_edr_INVALID_lids_ibnetdiscover.txt"
[ "$(grep -c 'warning:' "$work/err")" -ge 4 ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: expected a warning per bad LID"; cat "$work/err"; }
expect "warning has file:line" "$work/err" 'INVALID_lids_ibnetdiscover.txt:[0-9]+:'

# over 20,000 switches the distances are sampled, and say so: a torus looks
# the same from every switch, so the sample gives the exact figures, which a
# formula gives too: 3 rings of 30, mean offset 7.5 each over the 27,000
# targets, 22.5 * 27000 / 26999 = 22.5008 over the others; diameter 3 * 15
check "sampled distances" 0 "$LANES" topo info torus k=30x30x30 p=1
expect "sampled diameter said" "$work/out" '^diameter +45 switch hops or more \(sampled: breadth-first search from [0-9]+ of the 27000 switches; --exact for all pairs\)$'
expect "sampled average said" "$work/out" '^average distance +22\.5008 switch hops \(sampled\)$'
check "sampled in JSON" 0 "$LANES" topo info torus k=30x30x30 p=1 --json
expect "sources in JSON" "$work/out" '"distances_sampled_sources":[1-9][0-9]*'
check "small fabrics exact" 0 "$LANES" topo info torus k=4x4 p=1 --json
expect "exact in JSON" "$work/out" '"distances_sampled_sources":0'

finish
