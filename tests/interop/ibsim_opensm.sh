#!/usr/bin/env bash
# A fabric written as an ibsim net file is accepted by the real ibsim, and a
# real OpenSM routing it once with minhop brings the subnet up with the same
# switches and CAs, the same LIDs, and the same node GUID, system image GUID,
# vendor id and device id for every node, that lanes reports.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# lanes_attrs FABRIC...: "NODEGUID SYSGUID VENDID DEVID" for every node, from
# lanes' own ibnetdiscover rendering of the fabric (no sysimgguid line means
# the node GUID, as ibsim and OpenSM show it).
lanes_attrs() {
  local ven=0 dev=0 sys="" line g
  "$LANES" topo convert "$@" --to ibnetdiscover 2>/dev/null | while IFS= read -r line; do
    case $line in
      vendid=*) ven=$((${line#vendid=})); sys="" ;;
      devid=*) dev=$((${line#devid=})) ;;
      sysimgguid=*) sys=$((${line#sysimgguid=})) ;;
      switchguid=* | caguid=* | rtguid=*)
        g=${line#*=}
        g=${g%%"("*}
        g=$((g))
        printf '%016x %016x %06x %04x\n' "$g" "${sys:-$g}" "$ven" "$dev" ;;
    esac
  done | sort -u
}

# osm_attrs DIR: the same from OpenSM's opensm-subnet.lst (the entries with a
# 6-digit VenID and 4-digit DevID; OpenSM prints each node twice, once shifted).
osm_attrs() {
  grep -o 'SystemGUID:[0-9A-Fa-f]* NodeGUID:[0-9A-Fa-f]* PortGUID:[0-9A-Fa-f]* VenID:[0-9A-Fa-f]\{6\} DevID:[0-9A-Fa-f]\{4\} ' "$1/opensm-subnet.lst" |
    sed -E 's/SystemGUID:([0-9A-Fa-f]+) NodeGUID:([0-9A-Fa-f]+) PortGUID:[0-9A-Fa-f]+ VenID:([0-9A-Fa-f]+) DevID:([0-9A-Fa-f]+) /\2 \1 \3 \4/' |
    tr 'A-F' 'a-f' | sort -u
}

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
  lanes_attrs "$@" >"$dir/lanes.attrs"
  osm_attrs "$dir" >"$dir/osm.attrs"
  [ -s "$dir/osm.attrs" ] || fail "$name: no node attributes found in opensm-subnet.lst"
  diff "$dir/lanes.attrs" "$dir/osm.attrs" >"$dir/diff" ||
    { head "$dir/diff"; fail "$name: system image GUIDs, vendor or device ids differ from OpenSM's"; }
  echo "ok: $name: $sw switches, $ca CAs, LIDs, system image GUIDs, vendor and device ids identical in OpenSM"
}

passed=0 failed=0
run() { # a failing fabric is reported and counted; the others still run
  if (check_fabric "$@"); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
run ibsim_basic "$DATA/ibsim_net.basic"
run ibsim_dualport "$DATA/ibsim_net.2sw2path4hca2port"
run ibsim_4ary3tree "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
run anon_4sw "$DATA/anon_4sw_edr_ibnetdiscover.txt"
run nvidia_lab "$DATA/nvidia_lab_2sw_mixed_ibnetdiscover.txt"
run ut_stage_fdr10 "$DATA/ut_stage_sx6036_fdr10_ibnetdiscover.txt"
run dragonfly_72 dragonfly a=4 p=2 h=2
run torus_3x3x3 torus k=3x3x3 p=2
run fattree_4_3 fattree k=4 n=3
run slimfly_5 slimfly q=5
run hyperx_4x4 hyperx K=4x4 p=2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
