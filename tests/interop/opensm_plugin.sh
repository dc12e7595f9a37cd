#!/usr/bin/env bash
# The OpenSM plugin (liblanes_opensm.so) inside the real OpenSM 3.3.23 on
# ibsim: OpenSM loads it, routes with lanes-ENGINE, and programs exactly the
# LFTs `lanes route -e ENGINE` writes for the same fabric (the ibsim net file
# carries OpenSM's LIDs, ibsim_opensm.sh checks that); a routing the
# verifier rejects is refused with the cycle in OpenSM's log, and OpenSM
# falls back to its own minhop.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
plugin_dir=${BUILD:?}
[ -f "$plugin_dir/liblanes_opensm.so" ] || fail "no $plugin_dir/liblanes_opensm.so"

# plugin_run NAME NETFILE ENGINES OPTIONS: OpenSM once, the plugin loaded, in $work/NAME/osm.
plugin_run() {
  local dir=$work/$1/osm
  mkdir -p "$dir"
  printf 'event_plugin_name lanes_opensm\nevent_plugin_options %s\nrouting_engine %s\nqos TRUE\n' \
    "$4" "$3" >"$dir/opensm.conf"
  LD_LIBRARY_PATH=$plugin_dir osm_run "$2" "$dir" -F "$dir/opensm.conf" -D 0x43
}

# same_tables NAME NETFILE ENGINE: OpenSM with lanes-ENGINE against `lanes route -e ENGINE`.
same_tables() {
  local name=$1 net=$2 engine=$3 dir=$work/$1
  if ! plugin_run "$name" "$net" "lanes-$engine" "threads=1"; then
    bad "$name: OpenSM did not run"; tail -3 "$dir/osm/osm.log"; return
  fi
  if ! grep -q "lanes-$engine tables configured on all switches" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with lanes-$engine:"; grep -i lanes "$dir/osm/osm.log" | head -5
    return
  fi
  if ! "$LANES" route -e "$engine" "$net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed"; cat "$dir/route.out"; return
  fi
  same_entries "$name" "$dir"
}

mkdir -p "$work/net"
"$LANES" topo convert torus k=4x4 p=2 --to ibsim -o "$work/net/torus.net" || fail "convert torus"
for engine in dfsssp lash nue updn; do
  same_tables "torus_4x4_$engine" "$work/net/torus.net" "$engine"
done
same_tables dgx_dfsssp "$DATA/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" dfsssp

# minhop makes credit loops on a torus: refused, the cycle logged, OpenSM's own minhop instead.
plugin_run refused "$work/net/torus.net" "lanes-minhop" "verify=yes" || bad "refused: OpenSM did not run"
log=$work/refused/osm/osm.log
if grep -q "lanes-minhop: refused: a credit loop" "$log" && grep -q "lanes-minhop: cycle 1/" "$log" &&
   grep -q "cannot build fwd tables" "$log" && grep -q "minhop tables configured on all switches" "$log"; then
  ok "refused: lanes-minhop's credit loop named, OpenSM fell back to its minhop"
else
  bad "refused: expected the refusal, the cycle and the fallback in OpenSM's log:"
  grep -i "lanes\|tables configured" "$log" | head -8
fi

# An unknown option: the plugin does not load, OpenSM says so and routes with minhop.
plugin_run badopt "$work/net/torus.net" "lanes-updn" "vls=8 colour=blue"
log=$work/badopt/osm/osm.log
if grep -q "bad option 'colour=blue'" "$log" && grep -q "minhop tables configured on all switches" "$log"; then
  ok "badopt: an unknown option is named, and OpenSM falls back"
else
  bad "badopt: expected the bad option and minhop in OpenSM's log:"; grep -i "lanes\|plugin\|configured" "$log" | head -5
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
