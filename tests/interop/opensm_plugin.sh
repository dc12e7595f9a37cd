#!/usr/bin/env bash
# The OpenSM plugin (liblanes_opensm.so) inside the real OpenSM 3.3.23 on
# ibsim: OpenSM loads it, routes with lanes-ENGINE, and programs exactly the
# LFTs `lanes route -e ENGINE` writes for the same fabric (the ibsim net file
# carries OpenSM's LIDs, ibsim_opensm.sh checks that), on a torus, the DGX
# file and seed 000's dragonfly (dla, d3r and sssp-df, which recognise its
# groups or hop VLs from OpenSM's view of the cables); a routing the
# verifier rejects is refused with the cycle in OpenSM's log, and OpenSM
# falls back to its own minhop, as for ports that cannot hold its VLs, and
# verify=no puts it live unchecked. With OpenSM running as a daemon, the SA
# answers lanes' SL for every CA pair of the torus (dfsssp, lash, nue) and
# of the dragonfly with one CA per switch (d3r, sssp-df), and for 500 pairs
# of the DGX file, and what OpenSM deployed (its LFT and SL2VL dumps, the SA's SLs)
# verifies free of credit loops with the VLs of lanes' own routing. After a
# cable is unlinked, OpenSM routes again through the plugin, which verifies
# the new tables.
set -u
. "$(dirname "$0")/osm_lib.bash"
. "$(dirname "$0")/osm_daemon.bash"
work=$(mktemp -d); trap 'osm_daemon_stop; rm -rf "$work"' EXIT
plugin_dir=${BUILD:?}
[ -f "$plugin_dir/liblanes_opensm.so" ] || fail "no $plugin_dir/liblanes_opensm.so"

# plugin_run NAME NETFILE ENGINES OPTIONS [CONF-LINE]: OpenSM once, the plugin loaded, in $work/NAME/osm.
plugin_run() {
  local dir=$work/$1/osm
  mkdir -p "$dir"
  printf 'event_plugin_name lanes_opensm\nevent_plugin_options %s\nrouting_engine %s\nqos TRUE\n%s\n' \
    "$4" "$3" "${5:-}" >"$dir/opensm.conf"
  LD_LIBRARY_PATH=$plugin_dir osm_run "$2" "$dir" -F "$dir/opensm.conf" -D 0x43
}

# blocks DUMP: an opensm-sl2vl.dump as one line per node block, sorted. A
# CA block is named by its LID alone: ibsim gives CA ports GUIDs of its own
# (node GUID + port) where an ibnetdiscover file has others.
blocks() {
  awk 'BEGIN { RS = "" } { sub(/^Channel Adapter 0x[0-9a-fA-F]+,/, "Channel Adapter"); gsub(/\n/, "|"); print }' \
    "$1" | sort
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
  # the same SL2VL maps, switch by switch and CA by CA (OpenSM puts each CA's block elsewhere)
  if cmp -s <(blocks "$dir/osm/opensm-sl2vl.dump") <(blocks "$dir/ours/opensm-sl2vl.dump"); then
    ok "$name: OpenSM's opensm-sl2vl.dump equals lanes route's"
  else
    bad "$name: opensm-sl2vl.dump differs from lanes route's:"
    diff <(blocks "$dir/osm/opensm-sl2vl.dump") <(blocks "$dir/ours/opensm-sl2vl.dump") | head -4
  fi
}

mkdir -p "$work/net"
"$LANES" topo convert torus k=4x4 p=2 --to ibsim -o "$work/net/torus.net" || fail "convert torus"
for engine in dfsssp lash nue updn; do
  same_tables "torus_4x4_$engine" "$work/net/torus.net" "$engine"
done
same_tables dgx_dfsssp "$DATA/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" dfsssp
# seed 000's 72-node dragonfly: the engines that recognise its groups from
# OpenSM's view of the cables, dla's asymmetric SL2VL maps and VL hopping
"$LANES" topo convert dragonfly a=4 p=2 h=2 --to ibsim -o "$work/net/df.net" || fail "convert dragonfly"
for engine in dla d3r sssp-df; do
  same_tables "dragonfly_$engine" "$work/net/df.net" "$engine"
done

# log_case NAME ENGINES OPTIONS CONF-LINE WHAT PATTERN...: OpenSM once on the
# torus; ok (saying WHAT) when its log matches every PATTERN.
log_case() {
  local name=$1 engines=$2 options=$3 conf=$4 what=$5 log pattern; shift 5
  plugin_run "$name" "$work/net/torus.net" "$engines" "$options" "$conf"
  log=$work/$name/osm/osm.log
  for pattern in "$@"; do
    if ! grep -q -- "$pattern" "$log"; then
      bad "$name: no /$pattern/ in OpenSM's log:"; grep -i "lanes\|plugin\|configured" "$log" | head -5
      return
    fi
  done
  ok "$name: $what"
}

# minhop makes credit loops on a torus: refused, the cycle logged, OpenSM's own minhop instead.
log_case refused lanes-minhop verify=yes "" "lanes-minhop's credit loop named, OpenSM fell back to its minhop" \
  "lanes-minhop: refused: a credit loop" "lanes-minhop: cycle 1/" "cannot build fwd tables" \
  "minhop tables configured on all switches"
# Ports that hold fewer VLs than the routing uses (max_op_vls 2): refused, with both numbers.
log_case vlroom lanes-dfsssp vls=8 "max_op_vls 2" "8 VLs on ports limited to 2 (max_op_vls) refused, OpenSM fell back" \
  "lanes-dfsssp: refused: the routing needs 8 VLs, the ports hold 2" "minhop tables configured"
# verify=no: the same routing goes live unchecked, as the log says.
log_case unchecked lanes-minhop verify=no "" "verify=no puts lanes-minhop's tables live without the verifier" \
  "lanes-minhop: .*not verified (verify=no)" "lanes-minhop tables configured"
# An unknown option: the plugin does not load, OpenSM says so and routes with minhop.
log_case badopt lanes-updn "vls=8 colour=blue" "" "an unknown option is named, and OpenSM falls back" \
  "bad option 'colour=blue'" "minhop tables configured on all switches"

# awk_num: an awk function num(v), a decimal or 0x hex number (saquery and lanes print both).
awk_num='function num(v,   i, x) {
  if (v !~ /^0x/) return v + 0
  for (i = 3; i <= length(v); i++) x = x * 16 + index("0123456789abcdef", tolower(substr(v, i, 1))) - 1
  return x
}'

# ca_lids NETFILE: "LID SWITCH-GUID" for every CA port of a lanes-written ibsim net file.
ca_lids() {
  awk '/^caguid=/ { ca = 1 } /^switchguid=/ { ca = 0 }
       ca && /^\[/ && / lid / { match($0, /"S-[0-9a-f]+"/); g = substr($0, RSTART + 3, RLENGTH - 4)
                              for (i = 1; i < NF; i++) if ($i == "lid") print $(i + 1), "0x" g }' "$1"
}

# osm_order_net NETFILE: the net file with its nodes in OpenSM's node map
# order, which the plugin builds its fabric in: by node GUID in network byte
# order, read as a number on this little-endian machine (the bytes reversed).
osm_order_net() {
  awk 'BEGIN { RS = ""; ORS = "\n\n" }
       { g = $0; sub(/.*(switch|ca)guid=0x/, "", g); g = substr(g, 1, 16); k = ""
         for (i = 15; i >= 1; i -= 2) k = k substr(g, i, 2)
         gsub(/\n/, "\001"); print k "\t" $0 }' "$1" |
    sort | cut -f2- | tr '\001' '\n'
}

# ca_pairs CASFILE N: every ordered pair of CA LIDs (N 0), or N of them drawn at random (seed 7).
ca_pairs() {
  awk -v n="$2" '{ lid[k++] = $1 }
    END { if (n == 0) { for (i = 0; i < k; i++) for (j = 0; j < k; j++) if (i != j) print lid[i], lid[j]; exit }
          srand(7); while (m < n) { i = int(rand() * k); j = int(rand() * k)
                                     if (i != j && !((i, j) in seen)) { seen[i, j] = 1; print lid[i], lid[j]; m++ } } }' "$1"
}

# sa_sls NAME NETFILE ENGINE PAIRS: OpenSM as a daemon with lanes-ENGINE; the
# SA's path record of every CA pair (PAIRS 0) or of PAIRS random ones against
# lanes' SLs, then (all pairs) the deployed tables verified.
sa_sls() {
  local name=$1 net=$2 engine=$3 npairs=$4 dir=$work/$1 want got same total
  mkdir -p "$dir"
  printf 'event_plugin_name lanes_opensm\nevent_plugin_options threads=1\nrouting_engine lanes-%s\nqos TRUE\n' \
    "$engine" >"$dir/opensm.conf"
  if ! LD_LIBRARY_PATH=$plugin_dir osm_daemon_start "$net" "$dir/osm" -F "$dir/opensm.conf" -D 0x43; then
    bad "$name: OpenSM did not come up"; return
  fi
  ca_lids "$net" >"$dir/cas"
  ca_pairs "$dir/cas" "$npairs" >"$dir/pairs"
  OSM_D_SOCK=$OSM_D_SOCK xargs -P 4 -n 2 sh -c \
      'IBSIM_SOCKNAME=$OSM_D_SOCK timeout 60 ibsim-run saquery -p --slid $0 --dlid $1 2>/dev/null' \
      <"$dir/pairs" >"$dir/records"
  osm_daemon_stop
  # lanes on the same fabric with its nodes in the plugin's order (layers, so SLs, follow it)
  osm_order_net "$net" >"$dir/ordered.net"
  "$LANES" route -e "$engine" "$dir/ordered.net" -o "$dir/ours" >"$dir/route.out" 2>&1 ||
    { bad "$name: lanes route"; cat "$dir/route.out"; return; }
  # lanes' SL per (source LID, destination LID), from its table (any of its four modes)
  awk "$awk_num"'
       FNR == NR { sw[$1] = $2; next }
       /^mode / { mode = $2; next }
       /^sl / { uniform = $2; next }
       /^0x/ && NF == 2 { sl["* " num($1)] = $2 }
       /^0x/ && NF == 3 { sl[(mode == "per-pair" ? num($2) : $2) " " num($1)] = $3 }
       FILENAME ~ /pairs$/ { src = mode == "per-pair" ? $1 : mode == "per-dst" ? "*" : sw[$1]
                             print $1, $2, mode == "uniform" ? uniform : sl[src " " $2] }' \
    "$dir/cas" "$dir/ours/lanes-path-sl.txt" "$dir/pairs" | sort >"$dir/want"
  awk "$awk_num"'
       /PathRecord dump/ { s = d = "" }
       /^[ \t]*slid\./ { v = $0; sub(/^[^.]*\.+/, "", v); s = num(v) }
       /^[ \t]*dlid\./ { v = $0; sub(/^[^.]*\.+/, "", v); d = num(v) }
       /^[ \t]*sl\./ && s != "" { v = $0; sub(/^[^.]*\.+/, "", v); print s, d, v + 0 }' "$dir/records" |
    sort -u >"$dir/got"
  total=$(wc -l <"$dir/want"); same=$(comm -12 "$dir/want" "$dir/got" | wc -l)
  if [ "$total" -gt 0 ] && [ "$same" = "$total" ] && [ "$(wc -l <"$dir/got")" = "$total" ]; then
    ok "$name: the SA answers lanes' SL for all $total CA pairs asked"
  else
    bad "$name: $same of $total CA pairs with lanes' SL (< lanes, > SA):"
    diff "$dir/want" "$dir/got" | grep '^[<>]' | head -6
  fi
  [ "$npairs" = 0 ] || return 0 # the deployed routing can be verified only with every pair's SL
  "$LANES" verify "$net" --lfts "$dir/osm/opensm-lfts.dump" --sl2vl "$dir/osm/opensm-sl2vl.dump" \
    --path-sl "$dir/records" --ebb-patterns 0 --json >"$dir/deployed.json" 2>"$dir/deployed.err"
  "$LANES" verify "$net" "$dir/ours" --ebb-patterns 0 --json >"$dir/ours.json" 2>&1
  want=$(json_field "$dir/ours.json" vls_used); got=$(json_field "$dir/deployed.json" vls_used)
  if [ "$(json_field "$dir/deployed.json" deadlock_free)" = true ] && [ "$got" = "$want" ] && [ "$want" -gt 1 ]; then
    ok "$name: what OpenSM deployed is free of credit loops, on lanes' $want VLs"
  else
    bad "$name: deployed: deadlock_free $(json_field "$dir/deployed.json" deadlock_free), VLs $got (lanes $want)"
    head -3 "$dir/deployed.err"
  fi
}
for engine in dfsssp lash nue; do
  sa_sls "sa_torus_$engine" "$work/net/torus.net" "$engine" 0
done
"$LANES" topo convert "$DATA/dgxa100_superpod_qm8790_hdr_ibnetdiscover.txt" --to ibsim -o "$work/net/dgx.net" ||
  fail "convert dgx"
sa_sls sa_dgx "$work/net/dgx.net" dfsssp 500
# the same dragonfly with one CA per switch: every pair asked, and what OpenSM deployed verified
"$LANES" topo convert dragonfly a=4 p=1 h=2 --to ibsim -o "$work/net/df1.net" || fail "convert dragonfly p=1"
for engine in d3r sssp-df; do
  sa_sls "sa_dragonfly_$engine" "$work/net/df1.net" "$engine" 0
done

# Re-sweep: a torus cable goes away while OpenSM runs (ibsim's console);
# OpenSM routes again through the plugin, which verifies the new tables, and
# they serve the fabric without that cable.
resweep() {
  local dir=$work/resweep n=0 log
  mkdir -p "$dir"
  printf 'event_plugin_name lanes_opensm\nevent_plugin_options verify=yes\nrouting_engine lanes-updn\n' >"$dir/opensm.conf"
  if ! OSM_CONSOLE=1 LD_LIBRARY_PATH=$plugin_dir osm_daemon_start "$work/net/torus.net" "$dir/osm" \
       -F "$dir/opensm.conf" -D 0x43; then
    bad "resweep: OpenSM did not come up"; return
  fi
  log=$dir/osm/osm.log
  cp "$dir/osm/opensm-lfts.dump" "$dir/lfts.before"
  cp "$dir/osm/opensm-subnet.lst" "$dir/subnet.before"
  osm_console 'Unlink "S-0002c90300a00000"[3]'
  for _ in $(seq 300); do
    n=$(grep -c "lanes-updn tables configured on all switches" "$log"); [ "$n" -ge 2 ] && break; sleep 0.1
  done
  sleep 1
  osm_daemon_stop
  "$LANES" verify "$dir/osm/opensm-subnet.lst" --lfts "$dir/osm/opensm-lfts.dump" --ebb-patterns 0 --json \
    >"$dir/after.json" 2>"$dir/after.err"
  # the subnet dump of the second sweep lists the cable from neither end
  if [ "$n" -ge 2 ] && [ "$(grep -c 'lanes-updn: 16 switches.*verified' "$log")" -ge 2 ] &&
     [ $(($(wc -l <"$dir/subnet.before") - $(wc -l <"$dir/osm/opensm-subnet.lst"))) = 2 ] &&
     ! cmp -s "$dir/lfts.before" "$dir/osm/opensm-lfts.dump" &&
     [ "$(json_field "$dir/after.json" reachable)" = true ] &&
     [ "$(json_field "$dir/after.json" deadlock_free)" = true ]; then
    ok "resweep: a cable unlinked, OpenSM routed again with lanes-updn, verified; the new tables serve the fabric without it"
  else
    bad "resweep: $n routings; after: reachable $(json_field "$dir/after.json" reachable), deadlock_free $(json_field "$dir/after.json" deadlock_free)"
    grep "lanes_opensm" "$log" | tail -3; head -3 "$dir/after.err"
  fi
}
resweep

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
