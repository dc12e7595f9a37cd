#!/usr/bin/env bash
# Our dfsssp paths against the real OpenSM 3.3.23, entry by entry.
#
# For each fabric: write it as an ibsim net file (our LIDs are OpenSM's
# there; ibsim_opensm.sh checks that), run OpenSM's sssp (and on some
# fabrics dfsssp) once on ibsim, route the same fabric with `lanes route -e
# dfsssp` (OpenSM's DFSSSP paths are its SSSP paths; the layers change only
# SLs; our sssp engine breaks ties by the lowest port, see src/route/sssp_tree.c),
# and compare the two opensm-lfts.dump files as "switch-GUID LID port"
# entries (drops left out). A fabric passes when the entry sets are
# identical. Every tie OpenSM meets is decided by its Dijkstra's 4-ary
# heap (src/route/sssp_osm*.c), so one wrong step shows as thousands of
# differing entries: rings, tori and hypercubes (many equal-weight ties),
# fat trees, dragonflies, parallel cables, a fat tree with failed links, a
# ring of bare switches (few LIDs, so the loads outgrow P^2 / hops and the
# full Dijkstra step runs), the real 206-switch DGX SuperPOD (max routes
# per channel 2,289 both sides), and a torus whose switch GUIDs make
# OpenSM's GUID map order (network byte order key) differ from numeric
# order.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# compare ENGINE NAME NETFILE FABRIC...: OpenSM on NETFILE against lanes on FABRIC.
compare() {
  local eng=$1 fab=$2 name="$2 $1" net=$3 dir=$work/$2/$1; shift 3
  if ! osm_run "$net" "$dir/osm" -R "$eng" -D 0x43; then
    echo "FAIL: $name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null
    failed=$((failed + 1)); return
  fi
  if ! grep -q "$eng tables configured" "$dir/osm/osm.log"; then
    echo "FAIL: $name: OpenSM did not route with $eng"; failed=$((failed + 1)); return
  fi
  if ! "$LANES" route -e dfsssp --vls 15 "$@" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    echo "FAIL: $name: lanes route failed:"; cat "$dir/route.out"
    failed=$((failed + 1)); return
  fi
  same_entries "$name" "$dir"
  if [ "$eng" = sssp ]; then sssp_balance "$fab" "$net" "$dir"; fi
}

# sssp_balance NAME NETFILE DIR: our sssp engine (its own tie rule, not
# the replay) on NETFILE against OpenSM's sssp tables in DIR/osm: max
# CA-to-CA routes per channel, by our verifier, at most 5% above OpenSM's
# (the issue's target).
sssp_balance() {
  local name="$1 sssp engine" net=$2 dir=$3 osm ours
  "$LANES" verify "$net" --lfts "$dir/osm/opensm-lfts.dump" --json >"$dir/osm.verify" 2>/dev/null
  "$LANES" route -e sssp "$net" -o "$dir/sssp" >/dev/null 2>&1 &&
    "$LANES" verify "$net" "$dir/sssp" --json >"$dir/sssp.verify" 2>/dev/null
  osm=$(rpc_max "$dir/osm.verify"); ours=$(rpc_max "$dir/sssp.verify")
  if [ -n "$osm" ] && [ -n "$ours" ] && [ $((ours * 20)) -le $((osm * 21)) ]; then
    ok "$name: max routes per channel $ours, OpenSM $osm"
  else
    bad "$name: max routes per channel ${ours:-?}, OpenSM ${osm:-?} (more than 5% over)"
  fi
}

# check ENGINES NAME FABRIC...: convert FABRIC to an ibsim net file, then
# compare each engine of ENGINES ("sssp" or "sssp dfsssp").
check() {
  local engs=$1 name=$2 eng; shift 2
  mkdir -p "$work/$name"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$work/$name/fabric.net"; then
    echo "FAIL: $name: convert"; failed=$((failed + 1)); return
  fi
  for eng in $engs; do compare "$eng" "$name" "$work/$name/fabric.net" "$@"; done
}

# check_failed NAME SPEC...: a generated fabric with 5% of its cables failed
# (as in bench/opensm_compare.sh), routed from its net file.
check_failed() {
  local name=$1 dir=$work/$1; shift
  mkdir -p "$dir"
  "$LANES" topo gen "$@" --fail-links 0.05 --fault-seed 1 --format ibsim -o "$dir/fabric.net" 2>/dev/null || {
    echo "FAIL: $name: gen"; failed=$((failed + 1)); return; }
  compare sssp "$name" "$dir/fabric.net" "$dir/fabric.net"
}

# A 5x5 torus with switch GUIDs whose byte-swapped order (OpenSM's map key)
# is not their numeric order; both sides read the same net file.
check_guid_order() {
  local name=guid_order dir=$work/guid_order
  guid_order_net "$dir" || { bad "$name: convert"; return; }
  compare sssp "$name" "$dir/fabric.net" "$dir/fabric.net"
}

check sssp torus_4x4 torus k=4x4 p=1
check sssp ring_6 torus k=6 p=2
check sssp hypercube_3 hypercube n=3 p=1
check sssp fattree_4ary3 "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check "sssp dfsssp" dragonfly_72 dragonfly a=4 p=2 h=2
check sssp parallel_2sw "$DATA/ibsim_net.2sw2path4hca2port"
check sssp hyperx_4x4 hyperx K=4x4 p=2
check sssp ring_20_switches torus k=20 p=0
check sssp torus_10x10 torus k=10x10 p=4
check sssp dragonfly_a8p4h4 dragonfly a=8 p=4 h=4
check sssp ut_stage "$DATA/ut_stage_sx6036_fdr10_ibnetdiscover.txt"
check "sssp dfsssp" dgxa100_superpod "$DATA/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt"
check_failed fattree_k8n3_5pct fattree k=8 n=3
check_guid_order

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
