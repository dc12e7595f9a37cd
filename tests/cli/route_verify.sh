#!/usr/bin/env bash
# CLI behaviour of `lanes engines`, `lanes route` and `lanes verify`: files
# written, exit codes, JSON keys, and clear errors on bad input.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

json() { grep -o "\"$1\":[^,}]*" "$work/out" | head -1 | cut -d: -f2 | tr -d ' '; }

check "engines" 0 "$LANES" engines
expect "minhop listed" "$work/out" '^minhop +any'
check "engines json" 0 "$LANES" engines --json
expect "engines json" "$work/out" '"name":"minhop"'

# route writes what OpenSM loads, and a report
check "route" 0 "$LANES" route -e minhop dragonfly a=4 p=2 h=2 -o "$work/df"
for f in opensm-lfts.dump opensm-sl2vl.dump lanes-path-sl.txt report.json; do
  [ -s "$work/df/$f" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: route wrote no $f"; }
done
expect "report engine" "$work/df/report.json" '"engine":"minhop"'
# one VL: the LFT file is all OpenSM needs, and route says nothing more
grep -q '^note:' "$work/out" && { fail=$((fail + 1)); echo "FAIL: a note for a 1-VL routing"; } || pass=$((pass + 1))
# several VLs and SLs: route says that opensm -R file is not enough, and names the plugin
check "route dfsssp" 0 "$LANES" route -e dfsssp torus k=4x4 p=2 -o "$work/t44"
expect "route dfsssp note" "$work/out" "^note: .*loads the LFTs only.*lanes-dfsssp engine .*liblanes_opensm.so"
expect "report vls" "$work/df/report.json" '"vls":1,'
expect "report vls needed" "$work/df/report.json" '"vls_needed":1,'
expect "report sls needed" "$work/df/report.json" '"sls_needed":1,'
expect "route summary: used and needed" "$work/out" 'with [0-9]+ VL\(s\) and [0-9]+ SL\(s\) \([0-9]+ and [0-9]+ needed\)'

# 36 switches, each with a header and 108 LID lines (36 switch + 72 CA LIDs)
[ "$(grep -c '^Unicast lids' "$work/df/opensm-lfts.dump")" = 36 ] &&
  [ "$(grep -c '^0x' "$work/df/opensm-lfts.dump")" = $((36 * 108)) ] && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: lfts dump shape"; }

# minhop on the 72-node dragonfly has credit loops (global links cross both ways)
check "verify dragonfly" 1 "$LANES" verify dragonfly a=4 p=2 h=2 "$work/df" --json
for k in deadlock_free reachable unreachable_pairs loops drops vls_used sls_used hops_avg \
         hops_max routes_per_channel ebb cycle; do
  expect "json key $k" "$work/out" "\"$k\":"
done
[ "$(json deadlock_free)" = false ] && [ "$(json reachable)" = true ] &&
  [ "$(json unreachable_pairs)" = 0 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: dragonfly verdict"; }
expect "cycle witness" "$work/out" '"from":"MF0;dragonfly-g[0-9]+-s[0-9]+:MQM8700/U1/[0-9]+"'
check "verify text" 1 "$LANES" verify dragonfly a=4 p=2 h=2 "$work/df"
expect "credit loop text" "$work/out" 'CREDIT LOOP'
expect "channel form" "$work/out" '^  MF0;dragonfly-g[0-9]-s[0-9]:MQM8700/U1/[0-9]+ -> MF0;dragonfly-g[0-9]-s[0-9]:MQM8700/U1/[0-9]+ VL 0'
# a 72-node dragonfly has 72*71 CA pairs, 5 links at most (CA, local, global, local, CA)
check "verify json again" 1 "$LANES" verify dragonfly a=4 p=2 h=2 "$work/df" --json
[ "$(json hops_max)" = 5 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: hops_max $(json hops_max)"; }
grep -q '"routes":5112' "$work/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: 72*71 routes"; }

# fat tree: shortest CA-to-CA paths go up then down (Leiserson): no credit loop
check "verify fat tree" 0 "$LANES" verify -e minhop fattree k=4 n=3
expect "acyclic text" "$work/out" 'deadlock +none'
# the same routing with the default SL/VL: --vls 1 still fits
check "verify fat tree vls 1" 0 "$LANES" verify -e minhop fattree k=4 n=3 --vls 1

# --lfts alone (e.g. OpenSM's dump or dump_lfts output)
check "verify --lfts" 1 "$LANES" verify dragonfly a=4 p=2 h=2 --lfts "$work/df/opensm-lfts.dump"
expect "says SL 0" "$work/err" 'no path SLs given: every path is taken as SL 0'
expect "says VL 0" "$work/err" 'no SL2VL maps given'

# bad input
check "route no engine" 2 "$LANES" route dragonfly a=4 p=2 h=2 -o "$work/x"
expect "route usage" "$work/err" '-e ENGINE'
check "route bad engine" 2 "$LANES" route -e nosuch dragonfly a=4 p=2 h=2 -o "$work/x"
expect "names engine" "$work/err" "no engine named 'nosuch'"
check "route vls 0" 2 "$LANES" route -e minhop --vls 0 dragonfly a=4 p=2 h=2 -o "$work/x"
expect "names vls" "$work/err" 'vls'
check "route sls 17" 2 "$LANES" route -e minhop --sls 17 dragonfly a=4 p=2 h=2 -o "$work/x"
expect "names sls" "$work/err" 'sls'
mkdir -p "$work/empty"
check "verify empty dir" 2 "$LANES" verify dragonfly a=4 p=2 h=2 "$work/empty"
expect "no dump" "$work/err" 'has no opensm-lfts.dump'
check "verify nothing" 2 "$LANES" verify dragonfly a=4 p=2 h=2
printf 'Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000bad (x):\n0x0001 000 # x\n' >"$work/bad.dump"
check "verify wrong fabric" 2 "$LANES" verify dragonfly a=4 p=2 h=2 --lfts "$work/bad.dump"
expect "file:line" "$work/err" 'bad.dump:1: '
printf 'garbage\n' >"$work/junk.dump"
check "verify junk" 2 "$LANES" verify dragonfly a=4 p=2 h=2 --lfts "$work/junk.dump"
expect "junk file:line" "$work/err" 'junk.dump:1: '
check "verify -e with dir" 2 "$LANES" verify -e minhop dragonfly a=4 p=2 h=2 "$work/df"

# --traffic switch-pairs: one route per ordered pair of switches; shortest paths
# on a 4x4 torus average 32/15 switch hops (each ring of 4: 1 + 2 + 1 per
# switch, two rings), the 2.13 of Sancho et al.'s Table 2
check "switch pairs" 1 "$LANES" verify -e minhop torus k=4x4 p=2 --traffic switch-pairs
expect "switch-pair routes" "$work/out" '^switch-pair routes +240$'
expect "switch-pair hops" "$work/out" '^hops +avg 2\.133, max 4;'
check "switch pairs json" 1 "$LANES" verify -e minhop torus k=4x4 p=2 --traffic switch-pairs --json
expect "json metric_traffic" "$work/out" '"metric_traffic":"switch-pairs"'
check "ca pairs json" 1 "$LANES" verify -e minhop torus k=4x4 p=2 --json
expect "json metric_traffic default" "$work/out" '"metric_traffic":"ca-pairs"'
check "bad traffic" 2 "$LANES" verify -e minhop torus k=4x4 p=2 --traffic all
expect "bad traffic named" "$work/err" "traffic is ca-pairs or switch-pairs, not 'all'"
check "switch pairs and ca-only" 2 "$LANES" verify -e minhop torus k=4x4 p=2 --traffic switch-pairs --ca-only

finish
