#!/usr/bin/env bash
# Our dnup against the real OpenSM 3.3.23 dnup, entry by entry.
#
# OpenSM's DNUP leaves moves between switches of equal rank unrestricted, so
# where such switches are cabled (CAs on every switch, leaf-to-leaf cables)
# it routes more paths than up*/down* allows, and its tables may or may not
# have a credit loop. Ours keeps minhop's tables there when they are free of
# one (updown/dnup.c). So, per fabric: run OpenSM's dnup on ibsim, judge its
# tables with `lanes verify --lfts` (CA-to-CA traffic, one VL), route the
# same fabric with `lanes route -e dnup`, and
#  - where OpenSM's tables are deadlock-free, every entry of theirs must be
#    ours (drops left out);
#  - where they have a credit loop, ours must not (lanes verify).
# Fabrics: the real files with CAs on every switch or leaf-to-leaf cables,
# a real fat tree (no equal ranks cabled: plain down*/up*), a generated
# fat tree, a torus and a dragonfly (OpenSM's tables have a credit loop).
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# check NAME FABRIC...: convert, run both, compare.
check() {
  local name=$1 dir=$work/$1; shift
  mkdir -p "$dir"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net"; then
    bad "$name: convert"; return
  fi
  if ! osm_run "$dir/fabric.net" "$dir/osm" -R dnup -D 0x43 ||
     ! grep -q "dnup tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with dnup"; tail -3 "$dir/osm/osm.log" 2>/dev/null; return
  fi
  if ! "$LANES" route -e dnup "$dir/fabric.net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed: $(cat "$dir/route.out")"; return
  fi
  "$LANES" verify "$dir/fabric.net" --lfts "$dir/osm/opensm-lfts.dump" --json >"$dir/osm.json" 2>/dev/null
  "$LANES" verify "$dir/fabric.net" "$dir/ours" --json >"$dir/ours.json" 2>/dev/null
  local osm_free ours_free
  osm_free=$(json_field "$dir/osm.json" deadlock_free)
  ours_free=$(json_field "$dir/ours.json" deadlock_free)
  if [ "$ours_free" != true ]; then
    bad "$name: our dnup tables have a credit loop (${ours_free:-no verdict})"; return
  fi
  # no verdict on OpenSM's tables (a reader or verifier failure) is a failure,
  # not a credit loop that would excuse any difference
  if [ "$osm_free" != true ] && [ "$osm_free" != false ]; then
    bad "$name: lanes verify gave no verdict on OpenSM's tables"; return
  fi
  if [ "$osm_free" = false ]; then
    ok "$name: OpenSM's dnup has a credit loop; ours is deadlock-free"
    return
  fi
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  local total missing
  total=$(wc -l <"$dir/osm.entries")
  missing=$(comm -23 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  if [ "$total" -gt 0 ] && [ "$missing" = 0 ]; then
    ok "$name: OpenSM's dnup is deadlock-free and all $total of its entries are ours"
  else
    bad "$name: $missing of OpenSM's $total entries differ (< OpenSM only, > lanes only):"
    diff "$dir/osm.entries" "$dir/ours.entries" | grep '^[<>]' | head -8
  fi
}

check anon_4sw "$DATA/anon_4sw_edr_ibnetdiscover.txt"
check ut_stage "$DATA/ut_stage_sx6036_fdr10_ibnetdiscover.txt"
check nvidia_lab_2sw "$DATA/nvidia_lab_2sw_mixed_ibnetdiscover.txt"
check ibsim_2sw2path "$DATA/ibsim_net.2sw2path4hca2port"
check ibsim_4ary3tree "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check fattree_k4n3 fattree k=4 n=3
check torus_4x4 torus k=4x4 p=2
check dragonfly_72 dragonfly a=4 p=2 h=2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
