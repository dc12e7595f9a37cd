#!/usr/bin/env bash
# Our minhop against the real OpenSM 3.3.23 minhop, entry by entry.
#
# For each fabric: write it as an ibsim net file (our LIDs are OpenSM's
# there; ibsim_opensm.sh checks that), run OpenSM's minhop once on ibsim,
# route the same fabric with `lanes route -e minhop`, and compare the two
# opensm-lfts.dump files as "switch-GUID LID port" entries (drops left out).
# A fabric passes when the entry sets are identical. The fabrics cover
# rings, tori and hypercubes (many equal-hop ties), fat trees, a dragonfly,
# parallel cables, a real 206-switch fabric with uneven switch loads, and
# a torus whose switch GUIDs make OpenSM's GUID map order (network byte
# order key) differ from numeric order.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# compare NAME NETFILE FABRIC...: OpenSM on NETFILE against lanes on FABRIC.
compare() {
  local name=$1 net=$2; shift 2
  local dir=$work/$name
  if ! osm_run "$net" "$dir/osm" -R minhop -D 0x43; then
    echo "FAIL: $name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null
    failed=$((failed + 1)); return
  fi
  if ! grep -q "minhop tables configured" "$dir/osm/osm.log"; then
    echo "FAIL: $name: OpenSM did not route with minhop"; failed=$((failed + 1)); return
  fi
  if ! "$LANES" route -e minhop "$@" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    echo "FAIL: $name: lanes route failed:"; cat "$dir/route.out"
    failed=$((failed + 1)); return
  fi
  same_entries "$name" "$dir"
}

# check NAME FABRIC...: convert FABRIC to an ibsim net file, then compare.
check() {
  local name=$1; shift
  mkdir -p "$work/$name"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$work/$name/fabric.net"; then
    echo "FAIL: $name: convert"; failed=$((failed + 1)); return
  fi
  compare "$name" "$work/$name/fabric.net" "$@"
}

# A 5x5 torus with switch GUIDs whose byte-swapped order (OpenSM's map key)
# is not their numeric order; both sides read the same net file.
check_guid_order() {
  local name=guid_order dir=$work/guid_order
  guid_order_net "$dir" || { bad "$name: convert"; return; }
  compare "$name" "$dir/fabric.net" "$dir/fabric.net"
}

check torus_4x4 torus k=4x4 p=1
check ring_6 torus k=6 p=2
check hypercube_3 hypercube n=3 p=1
check fattree_4ary3 "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check dragonfly_72 dragonfly a=4 p=2 h=2
check parallel_2sw "$DATA/ibsim_net.2sw2path4hca2port"
check fattree_k4n3 fattree k=4 n=3
check hyperx_4x4 hyperx K=4x4 p=2
check dgxa100_superpod "$DATA/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt"
check_guid_order

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
