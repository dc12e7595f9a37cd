#!/usr/bin/env bash
# CLI: `lanes topo info` names the structure it recognises (text line
# "structure ...") and, with --json, "structure": {"kind", ..., "switches":
# [{"guid", "name", "group" | "coord"}]} as docs/recognize.md defines it.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

# the JSON without blanks and newlines, for matching with grep
flat() { tr -d ' \n' <"$work/out" >"$work/flat"; }
count() { grep -o -- "$1" "$work/flat" | wc -l | tr -d ' '; }

# dragonfly: 9 groups of 4 (seed 000's 72-node dragonfly), by lowest switch
check "df text" 0 "$LANES" topo info dragonfly a=4 p=2 h=2
expect "df line" "$work/out" '^structure +dragonfly, 9 groups of 4 switches$'
check "df json" 0 "$LANES" topo info dragonfly a=4 p=2 h=2 --json
flat
expect "df kind" "$work/flat" '"structure":\{"kind":"dragonfly","groups":9,"switches":\['
same "df one entry per switch" "$(count '"group":')" 36
same "df guids" "$(count '"guid":"0x[0-9a-f]\{16\}"')" 36
# the generator's switch s of group i is "g<i>-s<s>": group i
expect "df g0-s0" "$work/flat" '"name":"MF0;dragonfly-g0-s0:MQM8700/U1","group":0\}'
expect "df g2-s1" "$work/flat" '"name":"MF0;dragonfly-g2-s1:MQM8700/U1","group":2\}'
expect "df g8-s3" "$work/flat" '"name":"MF0;dragonfly-g8-s3:MQM8700/U1","group":8\}'

# HyperX: coordinates per dimension, dimension 0 fastest as the generator
check "hx text" 0 "$LANES" topo info hyperx K=4x3x2 p=1
expect "hx line" "$work/out" '^structure +hyperx 4x3x2$'
check "hx json" 0 "$LANES" topo info hyperx K=4x3x2 p=1 --json
flat
expect "hx kind" "$work/flat" '"structure":\{"kind":"hyperx","extent":\[4,3,2\],"switches":\['
same "hx one entry per switch" "$(count '"coord":')" 24
expect "hx x3-y1-z1" "$work/flat" '"name":"MF0;hyperx-x3-y1-z1:MQM8700/U1","coord":\[3,1,1\]\}'
expect "hx x0-y2-z0" "$work/flat" '"name":"MF0;hyperx-x0-y2-z0:MQM8700/U1","coord":\[0,2,0\]\}'
check "hypercube" 0 "$LANES" topo info hypercube n=3 p=1
expect "hypercube line" "$work/out" '^structure +hyperx 2x2x2$'

# nothing recognised: kind none and the reasons
check "none text" 0 "$LANES" topo info fattree k=4 n=3
expect "none line" "$work/out" '^structure +none \(.*not a HyperX.*not a torus.*not a dragonfly.*\)$'

# tori and meshes: extents and wraparound per dimension (a ring of 4 is 2x2)
check "torus" 0 "$LANES" topo info torus k=5x6 p=1
expect "torus line" "$work/out" '^structure +torus 5x6, wraparound yes,yes$'
check "mesh" 0 "$LANES" topo info mesh k=4x3 p=1
expect "mesh line" "$work/out" '^structure +torus 4x3, wraparound no,no$'
check "torus with a ring of 4" 0 "$LANES" topo info torus k=5x4 p=1
expect "ring of 4 line" "$work/out" '^structure +torus 5x2x2, wraparound yes,no,no$'
check "torus json" 0 "$LANES" topo info torus k=5x6 p=1 --json
flat
expect "torus kind" "$work/flat" '"structure":\{"kind":"torus","extent":\[5,6\],"wrap":\[true,true\],"switches":\['
expect "torus x4-y2" "$work/flat" '"name":"MF0;torus-x4-y2:MQM8700/U1","coord":\[4,2\]\}'
check "none json" 0 "$LANES" topo info fattree k=4 n=3 --json
flat
expect "none kind" "$work/flat" '"structure":\{"kind":"none","note":"[^"]+"\}'

# a bare fabric: names and GUIDs say nothing, and the groups are still found
check "gen df" 0 "$LANES" topo gen dragonfly a=4 p=2 h=2 --format ibnetdiscover -o "$work/df.txt"
sed -e 's/MF0;dragonfly-g[0-9]*-s[0-9]*:MQM8700\/U1/switch/' \
    -e 's/S-0002c90300a0\([0-9a-f]\{4\}\)/S-00deadbeef\1/g' \
    -e 's/0002c90300a0\([0-9a-f]\{4\}\)/00deadbeef\1/g' "$work/df.txt" >"$work/bare.txt"
if grep -q 'dragonfly-g' "$work/bare.txt"; then
  fail=$((fail + 1)); echo "FAIL: names left in the bare fabric"
else pass=$((pass + 1)); fi
check "bare info" 0 "$LANES" topo info "$work/bare.txt"
expect "bare line" "$work/out" '^structure +dragonfly, 9 groups of 4 switches$'
# what an administrator does with it: route with the dragonfly engines, and
# the verifier finds every pair reachable and no credit loop in what was written
for e in dla d3r sssp-df; do
  check "bare route $e" 0 "$LANES" route -e "$e" "$work/bare.txt" -o "$work/bare-$e"
  check "bare verify $e" 0 "$LANES" verify "$work/bare.txt" "$work/bare-$e" --ebb-patterns 0
  expect "bare $e deadlock-free" "$work/out" '^deadlock +none'
done
# real files list switches in no particular order: the switch blocks shuffled
# (a fixed permutation), so that groups interleave in node order
awk 'BEGIN { RS = ""; srand(7) } /^#/ { print; print ""; next }
     { block[n++] = $0 }
     END { for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = block[i]; block[i] = block[j]; block[j] = t }
           for (i = 0; i < n; i++) { print block[i]; print "" } }' "$work/bare.txt" >"$work/shuffled.txt"
check "shuffled info" 0 "$LANES" topo info "$work/shuffled.txt"
expect "shuffled line" "$work/out" '^structure +dragonfly, 9 groups of 4 switches$'
for e in dla d3r; do
  check "shuffled route $e" 0 "$LANES" route -e "$e" "$work/shuffled.txt" -o "$work/shuffled-$e"
  check "shuffled verify $e" 0 "$LANES" verify "$work/shuffled.txt" "$work/shuffled-$e" --ebb-patterns 0
  expect "shuffled $e deadlock-free" "$work/out" '^deadlock +none'
done

# a bare Slim Fly: its MMS coordinates found, routed on 2 VLs
check "gen sf" 0 "$LANES" topo gen slimfly q=5 --format ibnetdiscover -o "$work/sf.txt"
sed -e 's/MF0;slimfly-[^:]*:MQM8700\/U1/switch/' "$work/sf.txt" >"$work/sf-bare.txt"
if grep -q 'slimfly-' "$work/sf-bare.txt"; then
  fail=$((fail + 1)); echo "FAIL: names left in the bare slim fly"
else pass=$((pass + 1)); fi
check "bare sf info" 0 "$LANES" topo info "$work/sf-bare.txt"
expect "bare sf line" "$work/out" '^structure +slimfly q=5$'
check "bare sf route" 0 "$LANES" route -e slimfly "$work/sf-bare.txt" -o "$work/sf-route"
check "bare sf verify" 0 "$LANES" verify "$work/sf-bare.txt" "$work/sf-route" --ebb-patterns 0
expect "bare sf deadlock-free" "$work/out" '^deadlock +none'
expect "bare sf 2 VLs" "$work/out" '^VLs +2 used'

# faults at seed 001's rates: still recognised, groups of unequal size
check "df faults" 0 "$LANES" topo info dragonfly a=8 p=4 h=4 --fail-switches 0.4 \
  --fail-links 0.1 --fault-seed 3
expect "df faults line" "$work/out" '^structure +dragonfly, [0-9]+ groups of [0-9]+\.\.[0-9]+ switches$'
check "hx faults" 0 "$LANES" topo info hyperx K=4x4x4 p=1 --fail-switches 0.2 \
  --fail-links 0.15 --fault-seed 3
expect "hx faults line" "$work/out" '^structure +hyperx 4x4x4$'

finish
