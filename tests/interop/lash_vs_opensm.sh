#!/usr/bin/env bash
# Our lash against the real OpenSM 3.3.23 lash (-R lash -Q) on the same fabrics.
#
# For each fabric: write it as an ibsim net file, run OpenSM's lash once on
# ibsim, route the same file with `lanes route -e lash`, and check
# - the layers: ours ("N VLs needed in OpenSM's order", the count before
#   balancing) are no more than OpenSM's "Lanes needed: N" (equal, since
#   the paths and the pair order are OpenSM's);
# - the tables: both opensm-lfts.dump files hold the same "switch-GUID LID
#   port" entries (drops left out);
# - ours verified with every path (--all-traffic): reachable, free of credit
#   loops within the VLs we report, every CA-to-CA route minimal (stretch 1).
# Fabrics: rings and tori (the 10x10 torus with 4 CAs per switch is the one
# where OpenSM needs all 8 lanes), a hypercube, a dragonfly, fat trees,
# parallel cables, and a torus whose switch GUIDs make OpenSM's GUID map
# order (network byte order key) differ from numeric order.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# compare NAME NETFILE: OpenSM and lanes on the same net file.
compare() {
  local name=$1 net=$2 dir=$work/$1
  if ! osm_run "$net" "$dir/osm" -R lash -Q -D 0x43; then
    bad "$name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null; return
  fi
  local osm_needed
  osm_needed=$(grep -o 'Lanes needed: [0-9]*' "$dir/osm/osm.log" | tail -1 | grep -o '[0-9]*$')
  if [ -z "$osm_needed" ] || grep -q 'Lane requirements' "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with lash"; return
  fi
  if ! "$LANES" route -e lash "$net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed: $(cat "$dir/route.out")"; return
  fi
  local ours vls
  ours=$(grep -o '[0-9]* VLs\? needed in OpenSM' "$dir/ours/report.json" | grep -o '^[0-9]*')
  vls=$(json_field "$dir/ours/report.json" vls)
  "$LANES" verify "$net" --lfts "$dir/ours/opensm-lfts.dump" --sl2vl "$dir/ours/opensm-sl2vl.dump" \
    --path-sl "$dir/ours/lanes-path-sl.txt" --all-traffic --vls "$vls" --ebb-patterns 0 --json \
    >"$dir/verify.json" 2>"$dir/verify.err"
  local rc=$?
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  local total mine agree
  total=$(wc -l <"$dir/osm.entries"); mine=$(wc -l <"$dir/ours.entries")
  agree=$(comm -12 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  # the same paths in the same pair order: the same layers as OpenSM, not merely fewer
  if [ -z "$ours" ] || [ "$ours" != "$osm_needed" ]; then
    bad "$name: we need '$ours' layers in OpenSM's order, OpenSM $osm_needed"
  elif [ $rc != 0 ] || [ "$(json_field "$dir/verify.json" deadlock_free)" != true ] ||
       [ "$(json_field "$dir/verify.json" reachable)" != true ] ||
       [ "$(json_field "$dir/verify.json" stretch_max)" != 1.0 ]; then
    bad "$name: verify (exit $rc): $(head -3 "$dir/verify.err")"
    grep -E '"(deadlock_free|reachable|stretch_max)"' "$dir/verify.json"
  elif [ "$total" -eq 0 ] || [ "$agree" != "$total" ] || [ "$mine" != "$total" ]; then
    bad "$name: $agree LFT entries agree; OpenSM has $total, lanes $mine (< OpenSM only, > lanes only):"
    diff "$dir/osm.entries" "$dir/ours.entries" | grep '^[<>]' | head -8
  else
    echo "ok: $name: $ours layers needed (OpenSM: $osm_needed), all $total LFT entries agree," \
      "verified with all traffic on $vls VLs, minimal hops"
    passed=$((passed + 1))
  fi
}

# check NAME FABRIC...: convert FABRIC to an ibsim net file, then compare.
check() {
  local name=$1; shift
  mkdir -p "$work/$name"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$work/$name/fabric.net"; then
    bad "$name: convert"; return
  fi
  compare "$name" "$work/$name/fabric.net"
}

check ring_6 torus k=6 p=2
check torus_4x4 torus k=4x4 p=1
check torus_10x10 torus k=10x10 p=4
check torus_3x3x3 torus k=3x3x3 p=1
check hypercube_4 hypercube n=4 p=1
check dragonfly_72 dragonfly a=4 p=2 h=2
check fattree_k4n3 fattree k=4 n=3
check fattree_4ary3 "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check parallel_2sw "$DATA/ibsim_net.2sw2path4hca2port"

# A 5x5 torus with switch GUIDs whose byte-swapped order (OpenSM's map key)
# is not their numeric order.
if guid_order_net "$work/guid_order"; then
  compare guid_order "$work/guid_order/fabric.net"
else bad "guid_order: convert"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
