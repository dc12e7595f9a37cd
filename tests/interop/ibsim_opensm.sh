#!/usr/bin/env bash
# A fabric written as an ibsim net file is accepted by the real ibsim, and a
# real OpenSM routing it once with minhop brings the subnet up with the same
# switches and CAs, and the same LIDs, that lanes reports.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

check_fabric() {
  local name=$1; shift
  local dir=$work/$name
  mkdir -p "$dir"
  "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net" || fail "$name: convert"
  "$LANES" topo info "$@" --json >"$dir/info.json" || fail "$name: info"
  local sw ca
  sw=$(grep -o '"switches":[0-9]*' "$dir/info.json" | cut -d: -f2)
  ca=$(grep -o '"cas":[0-9]*' "$dir/info.json" | cut -d: -f2)
  osm_run "$dir/fabric.net" "$dir" -R minhop || { tail "$dir/osm.log"; fail "$name: opensm failed"; }
  grep -q "SUBNET UP" "$dir/osm.log" || fail "$name: OpenSM did not bring the subnet up"
  subnet_nodes "$dir" >"$dir/osm.nodes"
  local osw oca
  osw=$(subnet_count "$dir" SW)
  oca=$(subnet_count "$dir" CA)
  [ "$osw" = "$sw" ] || fail "$name: OpenSM found $osw switches, lanes $sw"
  [ "$oca" = "$ca" ] || fail "$name: OpenSM found $oca CAs, lanes $ca"
  netfile_nodes "$dir/fabric.net" >"$dir/lanes.nodes"
  diff "$dir/lanes.nodes" "$dir/osm.nodes" >"$dir/diff" || { head "$dir/diff"; fail "$name: LIDs differ from OpenSM's"; }
  echo "ok: $name: $sw switches, $ca CAs, LIDs identical in OpenSM"
}

check_fabric ibsim_basic "$DATA/ibsim_net.basic"
check_fabric ibsim_dualport "$DATA/ibsim_net.2sw2path4hca2port"
check_fabric ibsim_4ary3tree "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check_fabric anon_4sw "$DATA/anon_4sw_edr_ibnetdiscover.txt"
check_fabric nvidia_lab "$DATA/nvidia_lab_2sw_mixed_ibnetdiscover.txt"
check_fabric dragonfly_72 dragonfly a=4 p=2 h=2
check_fabric torus_3x3x3 torus k=3x3x3 p=2
check_fabric fattree_4_3 fattree k=4 n=3
check_fabric slimfly_5 slimfly q=5
check_fabric hyperx_4x4 hyperx K=4x4 p=2
echo "1 passed, 0 failed"
