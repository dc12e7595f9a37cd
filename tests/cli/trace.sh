#!/usr/bin/env bash
# `lanes trace`: one pair's path hop by hop (issue 22 item 6). On a 3x3 mesh
# with dor the path is known by hand: x first, then y, one switch per step.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

M=(mesh k=3x3 p=1)

check "dor by names" 0 "$LANES" trace "${M[@]}" -e dor "node00000 HCA-1" "node00008 HCA-1"
expect "delivered after 6 links" "$work/out" '^from LID 10 to LID 18, SL 0: delivered after 6 links$'
same "dimension order: x, then y" "$(awk 'NR > 2 { print $NF == "(switch)" || $NF == "(ca)" ? $(NF-1) : $NF }' "$work/out" | tr '\n' ' ')" \
  "HCA-1 MF0;mesh-x0-y0:MQM8700/U1 MF0;mesh-x1-y0:MQM8700/U1 MF0;mesh-x2-y0:MQM8700/U1 MF0;mesh-x2-y1:MQM8700/U1 MF0;mesh-x2-y2:MQM8700/U1 HCA-1 "
cp "$work/out" "$work/by-name"
# the same pair by LID, by port GUID, by node GUID
check "by LID" 0 "$LANES" trace "${M[@]}" -e dor 10 0x12
same "LID = name" "$(tail -n +2 "$work/out")" "$(tail -n +2 "$work/by-name")"
check "by GUID" 0 "$LANES" trace "${M[@]}" -e dor 0x0002c90301000001 0x0002c90301000020
same "port GUID, node GUID = name" "$(tail -n +2 "$work/out")" "$(tail -n +2 "$work/by-name")"
# the ports by the generator's numbering (docs/topologies-grid-tree.md): the
# host on port 1, then per dimension the port towards +1 and the one towards -1
# (x+ 2, x- 3, y+ 4, y- 5): out by x+, in by x-, and so on
same "ports along the path" "$(awk 'NR > 2 { print $4 "/" $5 }' "$work/by-name" | tr '\n' ' ')" \
  "-/1 1/2 3/2 3/4 5/4 5/1 1/- "

# a routing DIR, its path SLs: the SL printed is the file's
check "route dfsssp" 0 "$LANES" route -e dfsssp "${M[@]}" -o "$work/d"
check "trace in DIR" 0 "$LANES" trace "${M[@]}" "$work/d" 10 18 --json
sl=$(grep -o '"sl":[0-9]*' "$work/out" | cut -d: -f2)
want=$(awk '$1 == "0x0012" && $2 == "0x0002c90300a00000" { print $3 }' "$work/d/lanes-path-sl.txt")
same "SL from the path-SL table" "$sl" "$want"
expect "delivered in JSON" "$work/out" '"delivered":true'

# where it stops: switch LIDs are not routed with --ca-only
check "route --ca-only" 0 "$LANES" route -e updn "${M[@]}" --ca-only -o "$work/ca"
check "dropped" 1 "$LANES" trace "${M[@]}" "$work/ca" 10 5
expect "dropped at the first switch" "$work/out" 'dropped: no route here \(port 255\) after 1 link$'

# bad SRC / DST
check "unknown name" 2 "$LANES" trace "${M[@]}" -e dor 10 nobody
expect "unknown name said" "$work/err" "DST 'nobody': no LID, GUID or node description of the fabric"
check "LID not in the fabric" 2 "$LANES" trace "${M[@]}" -e dor 99 10
expect "LID named" "$work/err" 'SRC LID 99 is not a LID of the fabric'
check "GUID not in the fabric" 2 "$LANES" trace "${M[@]}" -e dor 0x0002c9030100ffff 10
expect "GUID named" "$work/err" 'SRC GUID 0x0002c9030100ffff is not a port or node'
check "a port to itself" 2 "$LANES" trace "${M[@]}" -e dor 10 10
expect "the same port said" "$work/err" 'SRC and DST are the same port \(LID 10\)'
"$LANES" topo gen "${M[@]}" -o "$work/m.topo"
check "a word too many" 2 "$LANES" trace "$work/m.topo" "$work/d" 10 11 12
expect "the form said" "$work/err" "expected FABRIC \[DIR\] SRC DST: the last two are SRC and DST"
check "too few words" 2 "$LANES" trace "${M[@]}"

finish
