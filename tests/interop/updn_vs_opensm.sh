#!/usr/bin/env bash
# Our updn against the real OpenSM 3.3.23 updn, entry by entry.
#
# For each fabric: write it as an ibsim net file, run OpenSM's updn once on
# ibsim (with -a ROOTS where a roots file is given, else its auto-detection),
# route the same fabric with `lanes route -e updn` (--roots ROOTS likewise),
# and compare the two opensm-lfts.dump files as "switch-GUID LID port"
# entries (drops left out). A fabric passes when every entry OpenSM writes is
# ours too. We may write more: OpenSM leaves the switch pairs that up*/down*
# cannot join unrouted (a top switch and a middle switch of another plane of
# a fat tree, a CA hanging off a root the other roots cannot come down to),
# where we give switch-sourced traffic a shortest completion. Fabrics: fat
# trees with OpenSM's auto-detected roots (generated, real, 3-level XGFT),
# and tori, a mesh, a hypercube, a HyperX and a dragonfly with one root.
# Not here: fabrics where OpenSM's single-direction BFS gives a switch a
# longer route than the shortest legal one (a jellyfish; see updown_legal.c).
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# compare NAME ROOTS: OpenSM and lanes on $work/NAME/fabric.net (ROOTS may be "").
compare() {
  local name=$1 roots=$2 dir=$work/$1
  local osm_roots=() our_roots=()
  if [ -n "$roots" ]; then osm_roots=(-a "$roots"); our_roots=(--roots "$roots"); fi
  if ! osm_run "$dir/fabric.net" "$dir/osm" -R updn "${osm_roots[@]}" -D 0x43; then
    echo "FAIL: $name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null
    failed=$((failed + 1)); return
  fi
  if grep -q 'no root nodes were found' "$dir/osm/osm.log"; then
    echo "FAIL: $name: OpenSM found no root (it routed with minhop)"; failed=$((failed + 1)); return
  fi
  if ! "$LANES" route -e updn "${our_roots[@]}" "$dir/fabric.net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    echo "FAIL: $name: lanes route failed:"; cat "$dir/route.out"
    failed=$((failed + 1)); return
  fi
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  local total ours missing
  total=$(wc -l <"$dir/osm.entries")
  ours=$(wc -l <"$dir/ours.entries")
  missing=$(comm -23 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  if [ "$total" -gt 0 ] && [ "$missing" = 0 ]; then
    echo "ok: $name: all $total of OpenSM's entries agree (lanes adds $((ours - total)) completions)"
    passed=$((passed + 1))
  else
    echo "FAIL: $name: $missing of OpenSM's $total entries differ. First differences (< OpenSM only, > lanes only):"
    diff "$dir/osm.entries" "$dir/ours.entries" | grep '^[<>]' | head -8
    failed=$((failed + 1))
  fi
}

# check NAME auto|first FABRIC...: convert FABRIC, then compare with OpenSM's
# auto-detected roots or with the first switch as the only root.
check() {
  local name=$1 how=$2 roots=""; shift 2
  mkdir -p "$work/$name"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$work/$name/fabric.net"; then
    echo "FAIL: $name: convert"; failed=$((failed + 1)); return
  fi
  if [ "$how" = first ]; then
    roots=$work/$name/roots
    grep -m1 '^switchguid=' "$work/$name/fabric.net" | cut -d= -f2 >"$roots"
  fi
  compare "$name" "$roots"
}

check fattree_4ary3 auto "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check fattree_k4n3 auto fattree k=4 n=3
check xgft_3level auto xgft h=3 m=4,4,4 w=1,4,2
check ut_stage_fdr10 auto "$DATA/ut_stage_sx6036_fdr10_ibnetdiscover.txt"
check psmn_x5_qdr auto "$DATA/psmn_x5_qdr_ibnetdiscover.txt"
check torus_4x4 first torus k=4x4 p=2
check torus_6x6 first torus k=6x6 p=1
check mesh_4x4 first mesh k=4x4 p=1
check hypercube_4 first hypercube n=4 p=1
check hyperx_4x4 first hyperx K=4x4 p=2
check dragonfly_72 first dragonfly a=4 p=2 h=2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
