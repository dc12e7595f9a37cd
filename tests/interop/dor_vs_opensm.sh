#!/usr/bin/env bash
# Our dor against the real OpenSM 3.3.23 dor (opensm -R dor), entry by entry.
#
# For each fabric: write it as an ibsim net file (our LIDs are OpenSM's
# there), run OpenSM's dor once on ibsim, route the same fabric with
# `lanes route -e dor`, and compare the two opensm-lfts.dump files as
# "switch-GUID LID port" entries (drops left out). A fabric passes when the
# entry sets are identical. The fabrics are those dor is for (meshes and
# hypercubes, which the generators cable as OpenSM's dor asks: grid.h):
# square and uneven meshes, radix-2 mesh dimensions, hypercubes, and
# parallel cables (L=2, L=3 and a different L per dimension), where OpenSM
# balances each switch's LIDs over the cables of the first dimension; and
# two of ibsim's own example nets (two switches, two parallel cables).
# LMC 1 and 2 (opensm -l N, every CA port with 2^N LIDs) on meshes and
# hypercubes with one to three parallel cables: OpenSM's dor takes each
# LID's ports from port 1 and breaks a tie among parallel cables by how
# many of the port's earlier LIDs left by each (osm_ucast_mgr.c,
# osm_switch.c), not by Min Hop's LMC rule (src/route/common/load.c,
# dor_choose); with three cables at LMC 2 the two rules differ.
# So that the comparison has teeth, lanes' minhop tables must differ from
# OpenSM's dor tables on every mesh with two or more dimensions (minhop
# spreads over all shortest paths, dor keeps the lowest dimension).
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# check_lmc NAME LMC FABRIC...: as check, every CA port at LMC.
check_lmc() {
  local name=$1 dir=$work/$1 lmc=$2; shift 2
  if ! lmc_net "$dir" "$lmc" "$@"; then
    bad "$name: convert"; return
  fi
  if ! osm_run "$dir/fabric.net" "$dir/osm" -R dor -l "$lmc" -D 0x43 ||
     ! grep -q "dor tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with dor"; return
  fi
  if ! "$LANES" route -e dor "$dir/fabric.net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed:"; cat "$dir/route.out"; return
  fi
  same_entries "$name" "$dir"
}

# check NAME FABRIC...: convert FABRIC to an ibsim net file, run both, compare.
check() {
  local name=$1 dir=$work/$1; shift
  mkdir -p "$dir"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net"; then
    bad "$name: convert"; return
  fi
  if ! osm_run "$dir/fabric.net" "$dir/osm" -R dor -D 0x43; then
    bad "$name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null; return
  fi
  if ! grep -q "dor tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with dor"; return
  fi
  if ! "$LANES" route -e dor "$@" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed:"; cat "$dir/route.out"; return
  fi
  same_entries "$name" "$dir"
}

# not_minhop NAME FABRIC...: after check NAME, lanes' minhop differs from OpenSM's dor.
not_minhop() {
  local name=$1 dir=$work/$1; shift
  if ! "$LANES" route -e minhop "$@" -o "$dir/minhop" >/dev/null 2>&1; then
    bad "$name: lanes minhop failed"; return
  fi
  lft_entries "$dir/minhop/opensm-lfts.dump" >"$dir/minhop.entries"
  if cmp -s "$dir/osm.entries" "$dir/minhop.entries"; then
    bad "$name: minhop's tables equal OpenSM's dor tables: the comparison tells nothing"
  else
    ok "$name: minhop differs from dor in $(comm -3 "$dir/osm.entries" "$dir/minhop.entries" | wc -l) entries"
  fi
}

check mesh_4x4 mesh k=4x4 p=1
check mesh_3x3x3 mesh k=3x3x3 p=2
check mesh_5x3 mesh k=5x3 p=3
check mesh_2x3x2 mesh k=2x3x2 p=1
check hypercube_3 hypercube n=3 p=2
check hypercube_4 hypercube n=4 p=1
check mesh_4x4_L2 mesh k=4x4 p=1 L=2
check mesh_3x3x3_L2 mesh k=3x3x3 p=1 L=2
check mesh_4x3_L1_3 mesh k=4x3 p=2 L=1,3
check hypercube_3_L2 hypercube n=3 p=2 L=2
check hypercube_4_L3 hypercube n=4 p=1 L=3
check parallel_2sw "$DATA/ibsim_net.2sw2path4hca2port"
check basic_2sw "$DATA/ibsim_net.basic"
check_lmc mesh_4x4_lmc1 1 mesh k=4x4 p=1
check_lmc mesh_4x4_L2_lmc1 1 mesh k=4x4 p=2 L=2
check_lmc hypercube_3_L3_lmc2 2 hypercube n=3 p=1 L=3
check_lmc mesh_4x3_L3_lmc2 2 mesh k=4x3 p=2 L=3
check_lmc hypercube_4_L3_lmc1 1 hypercube n=4 p=2 L=3
not_minhop mesh_4x4 mesh k=4x4 p=1
not_minhop mesh_3x3x3_L2 mesh k=3x3x3 p=1 L=2
not_minhop hypercube_4 hypercube n=4 p=1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
