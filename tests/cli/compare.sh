#!/usr/bin/env bash
# `lanes compare`: one row per engine, the verifier's verdict (not the
# engine's claim), the budgets passed on, refusals as rows, clear errors.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

col() { awk -v e="$1" -v c="$2" '$1 == e { print $c }' "$work/table"; }
# VLS and SLS columns are used/needed
used() { col "$1" "$2" | cut -d/ -f1; }
needed() { col "$1" "$2" | cut -d/ -f2; }

DF=(dragonfly a=4 p=2 h=2)

# every registered engine gets a row, in registry order
check "compare all" 0 "$LANES" compare "${DF[@]}" --ebb-patterns 20
cp "$work/out" "$work/table"
engines=$("$LANES" engines | awk 'NR > 1 { print $1 }')
same "one row per engine" "$(awk 'NR > 3 { print $1 }' "$work/table")" "$engines"
expect "header" "$work/table" '^ENGINE +DEADLOCK-FREE +VLS +SLS +HOPS-AVG +HOPS-MAX +RPC-MAX +RPC-STDDEV +EBB +TIME +NOTE$'
expect "fabric line" "$work/table" '^36 switches, 72 CAs'
# the 72-node dragonfly (seed 000): minimal routing crosses global links both
# ways and has credit loops on one VL; up*/down* and dfsssp do not
same "minhop has a credit loop" "$(col minhop 2)" no
same "sssp has a credit loop" "$(col sssp 2)" no
for e in updn dnup ud-dfs dfsssp lash nue; do same "$e deadlock-free" "$(col $e 2)" yes; done
# lash keeps one shortest path per switch pair, dfsssp sssp's shortest paths
same "lash hops max" "$(col lash 6)" 5
same "lash and minhop: same hops avg" "$(col lash 5)" "$(col minhop 5)"
# diameter 3 switch hops + 2 CA links; minimal engines agree on the average
same "minhop hops max" "$(col minhop 6)" 5
same "sssp hops max" "$(col sssp 6)" 5
same "minimal engines: same hops avg" "$(col sssp 5)" "$(col minhop 5)"
same "dfsssp and sssp: shortest paths, same hops avg" "$(col dfsssp 5)" "$(col sssp 5)"
# up*/down* paths are never shorter than minimal ones
awk -v a="$(col updn 5)" -v b="$(col minhop 5)" 'BEGIN { exit !(a >= b) }' &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: updn hops avg below minhop's"; }
# single-VL engines report 1 VL; dfsssp stays within the budget
for e in minhop updn sssp; do same "$e 1 VL" "$(col $e 3)" 1/1; done
# seed 000 Table 2, 72 nodes: DFSSSP uses 8 SLs and 8 VLs (it spreads paths
# over the whole budget), LASH 2 and 2, UPDN 1 and 1
same "dfsssp uses 8 VLs and 8 SLs" "$(used dfsssp 3) $(used dfsssp 4)" "8 8"
same "lash 2 VLs and 2 SLs" "$(col lash 3) $(col lash 4)" "2/2 2/2"
same "updn 1 VL and 1 SL" "$(col updn 3) $(col updn 4)" "1/1 1/1"
# what dfsssp needs is what it would fit in: fewer than it spreads over
n=$(needed dfsssp 3)
awk -v n="$n" 'BEGIN { exit !(n >= 2 && n < 8) }' && pass=$((pass + 1)) ||
  { fail=$((fail + 1)); echo "FAIL: dfsssp needs $n VLs"; }
check "budget = dfsssp's need" 0 "$LANES" compare "${DF[@]}" -e dfsssp --vls "$n" --ebb-patterns 0
cp "$work/out" "$work/table"
same "dfsssp routed within what it needs" "$(col dfsssp 2) $(col dfsssp 3)" "yes $n/$n"
cp "$work/out" "$work/table"
check "budget 2" 0 "$LANES" compare "${DF[@]}" -e dfsssp,minhop --vls 2 --ebb-patterns 0
cp "$work/out" "$work/table"
same "dfsssp within --vls 2" "$(used dfsssp 3)" 2
same "rows in -e order" "$(awk 'NR > 3 { print $1 }' "$work/table" | tr '\n' ' ')" "dfsssp minhop "
same "no EBB when skipped" "$(col minhop 9)" -
same "no EBB when skipped (dfsssp)" "$(col dfsssp 9)" -

# -e all names every registered engine (`lanes engines`), in that order,
# in the table and in --json
check "-e all" 0 "$LANES" compare "${DF[@]}" -e all --ebb-patterns 0
same "-e all rows" "$(awk 'NR > 3 { print $1 }' "$work/out")" "$engines"
check "-e all json" 0 "$LANES" compare "${DF[@]}" -e all --ebb-patterns 0 --json
same "-e all json engines" "$(grep -o '"engine":"[^"]*"' "$work/out" | cut -d'"' -f4)" "$engines"

# --ebb-patterns 0 computes no EBB: null in JSON (not 0.0), a number otherwise
check "json ebb skipped" 0 "$LANES" compare "${DF[@]}" -e minhop,updn --ebb-patterns 0 --json
same "ebb null per row" "$(grep -c '"ebb":null' "$work/out")" 2
same "no ebb number" "$(grep -Ec '"ebb":[0-9]' "$work/out")" 0
check "json ebb computed" 0 "$LANES" compare "${DF[@]}" -e minhop,updn --ebb-patterns 3 --json
same "ebb a number per row" "$(grep -Ec '"ebb":(0|1)(\.[0-9]+)?(e-?[0-9]+)?,' "$work/out")" 2

# -e: an empty name (a comma at either end, or two in a row) is refused naming -e
for list in minhop, ,minhop minhop,,dfsssp , ""; do
  check "-e '$list'" 2 "$LANES" compare "${DF[@]}" -e "$list" --ebb-patterns 0
  expect "-e '$list' named" "$work/err" "compare: -e: empty engine name in '$list'"
  same "-e '$list' no table" "$(wc -c <"$work/out")" 0
done

# unreachable pairs are a note, not the verdict: a 3-switch line cut between
# its first two switches leaves {switch, CA} and {2 switches, 2 CAs}; every
# ordered pair across them is lost: 2 * 2 * 4 = 16 (sources are switches and
# CAs, destinations their LIDs)
"$LANES" topo gen mesh k=3 p=1 -o "$work/line.txt" >/dev/null
awk '/^Switch/ { sw = $0 }
     !(/^\[/ && ((sw ~ /mesh-x0:/ && /mesh-x1:/) || (sw ~ /mesh-x1:/ && /mesh-x0:/)))' \
  "$work/line.txt" >"$work/cut.txt"
check "cut fabric" 0 "$LANES" compare "$work/cut.txt" -e minhop,updn --ebb-patterns 0
cp "$work/out" "$work/table"
for e in minhop updn; do
  same "$e verdict on a cut fabric" "$(col $e 2)" yes   # one VL on a line: no cycle
  same "$e unreachable note" "$(awk -v e=$e '$1 == e { print $12, $13, $14 }' "$work/table")" \
    "unreachable: 16 pairs"
done
check "cut fabric json" 0 "$LANES" compare "$work/cut.txt" -e minhop,updn --ebb-patterns 0 --json
same "json reachable false" "$(grep -c '"reachable":false' "$work/out")" 2
same "json unreachable pairs" "$(grep -c '"unreachable_pairs":16,' "$work/out")" 2
same "json verdict kept" "$(grep -c '"deadlock_free":true' "$work/out")" 2
check "connected: no note" 0 "$LANES" compare "${DF[@]}" -e updn --ebb-patterns 0
same "no note when reachable" "$(awk '$1 == "updn" { print NF }' "$work/out")" 11

# a refusal is a row with the reason; the command still succeeds
check "refusal" 0 "$LANES" compare torus k=6x6 p=1 -e dfsssp,updn --vls 1 --ebb-patterns 0
expect "refusal row" "$work/out" '^dfsssp +refused: needs [0-9]+ VLs, the budget is 1'
expect "updn still routed" "$work/out" '^updn +yes +1/1 '

# engines for one structure refuse other fabrics with the reason, as rows
check "structure refusal" 0 "$LANES" compare torus k=4x4 p=1 -e dla,d3r,updn --ebb-patterns 0
expect "dla refused" "$work/out" '^dla +refused: not a dragonfly'
expect "d3r refused" "$work/out" '^d3r +refused: not a dragonfly'
check "route refusal" 1 "$LANES" route -e dla torus k=4x4 p=1 -o "$work/dla"
expect "route refusal names it" "$work/err" 'dla: not a dragonfly'

# JSON: an array of objects with the issue's keys; error null or the reason
check "json" 0 "$LANES" compare torus k=6x6 p=1 -e updn,dfsssp --vls 1 --ebb-patterns 5 --json
for k in engine claims_deadlock_free deadlock_free reachable unreachable_pairs vls sls vls_needed \
         sls_needed hops_avg \
         hops_max routes_per_channel_max routes_per_channel_stddev ebb time_s error; do
  same "json key $k" "$(grep -c "\"$k\":" "$work/out")" 2
done
expect "json updn row" "$work/out" '"engine":"updn"'
expect "json refusal" "$work/out" '"error":"needs [0-9]+ VLs, the budget is 1 \(vls 1\)"'
expect "json no error" "$work/out" '"error":null'
expect "json verdict" "$work/out" '"deadlock_free":true'

# real fabric: the DGX SuperPOD file, where OpenSM's updn finds no roots
check "real fabric" 0 "$LANES" compare "$DATA/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" -e updn,dfsssp --ebb-patterns 2
expect "dgx updn" "$work/out" '^updn +yes'

# nue within one VL (its budget), lash refused naming what it needs
check "one VL" 0 "$LANES" compare torus k=6x6 p=1 -e nue,lash --vls 1 --ebb-patterns 0
cp "$work/out" "$work/table"
same "nue on one VL" "$(col nue 2) $(col nue 3)" "yes 1/1"
expect "lash refusal" "$work/table" '^lash +refused: needs [0-9]+ VLs, the budget is 1'

# --all-traffic judges switch traffic too: lash layers it, so it stays free;
# engines that only promise CA-to-CA freedom are shown, not failed (exit 0)
check "all traffic" 0 "$LANES" compare torus k=4x4 p=2 -e lash,nue,updn --all-traffic --ebb-patterns 0
cp "$work/out" "$work/table"
same "lash all traffic" "$(col lash 2)" yes

# bad input names the problem and exits 2
check "unknown engine" 2 "$LANES" compare "${DF[@]}" -e minhop,nosuch
expect "unknown engine named" "$work/err" "no engine named 'nosuch'"
check "engine twice" 2 "$LANES" compare "${DF[@]}" -e minhop,minhop
expect "engine twice named" "$work/err" "'minhop' is named twice"
check "bad vls" 2 "$LANES" compare "${DF[@]}" --vls 0
expect "bad vls named" "$work/err" '--vls must be 1..15'
check "no fabric" 2 "$LANES" compare
check "bad ebb" 2 "$LANES" compare "${DF[@]}" --ebb-patterns x
check "help" 0 "$LANES" compare --help
expect "help text" "$work/out" '^usage: lanes compare'

finish
