#!/usr/bin/env bash
# --node-name-map FILE (issue 22 item 6): infiniband-diags' node-name map,
# used wherever lanes prints or takes a node's name.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=3x3 p=1)
printf '# site names\n0x0002c90300a00000 "spine-00"\n0002c90301000000 "host-a" # first host\n0x00000000deadbeef "elsewhere"\n' >"$work/map"

check "trace with names" 0 "$LANES" trace "${T[@]}" -e updn host-a 0x12 --node-name-map "$work/map"
expect "the CA by its map name" "$work/out" '^0 +0x0002c90301000000 10 .* host-a \(ca\)$'
expect "the switch by its map name" "$work/out" '^1 +0x0002c90300a00000 1 .* spine-00 \(switch\)$'
check "fail a switch by its map name" 0 "$LANES" topo info "${T[@]}" --node-name-map "$work/map" \
  --fail-switch spine-00 --json
expect "removed by map name" "$work/err" "switch 0x0002c90300a00000 'spine-00'"
check "route with names" 0 "$LANES" route -e updn "${T[@]}" --node-name-map "$work/map" -o "$work/r"
expect "the dumps carry them" "$work/r/opensm-lfts.dump" "guid 0x0002c90300a00000 \('spine-00'\)"
check "without the map" 0 "$LANES" trace "${T[@]}" -e updn 10 0x12
expect "descriptions otherwise" "$work/out" 'node00000 HCA-1 \(ca\)$'

printf '0x0002c90300a00000 "a"\n\n0x2c90300a00000 "b"\n' >"$work/twice"
check "a GUID twice" 2 "$LANES" topo info "${T[@]}" --node-name-map "$work/twice"
expect "both lines named" "$work/err" 'twice:3: GUID 0x0002c90300a00000 is named again \(first on line 1\)'
printf '0x0002c90300a00000 spine\n' >"$work/noquote"
check "a name without quotes" 2 "$LANES" topo info "${T[@]}" --node-name-map "$work/noquote"
expect "line named" "$work/err" 'noquote:1: expected a node GUID and a "name" in double quotes'
check "a missing map" 2 "$LANES" topo info "${T[@]}" --node-name-map "$work/none"
expect "missing named" "$work/err" 'none'

finish
