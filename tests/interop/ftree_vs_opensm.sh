#!/usr/bin/env bash
# Our ftree against the real OpenSM 3.3.23 ftree, entry by entry.
#
# For each fabric: write it as an ibsim net file (our LIDs are OpenSM's
# there; ibsim_opensm.sh checks that), run OpenSM's ftree once on ibsim
# (checking in its log that ftree, not its minhop fallback, routed), route
# the same fabric with `lanes route -e ftree`, and compare the two
# opensm-lfts.dump files as "switch-GUID LID port" entries (drops left out).
#
# Every entry OpenSM sets must be ours. Where OpenSM sets none, we may set
# one more, and only for a switch LID: OpenSM's ftree leaves the routes
# between its root switches empty (connect_roots is off, osm_ucast_ftree.c
# fabric_route_roots) and ours completes them so that every switch reaches
# every LID (docs/ftree.md). Those extra entries are counted and printed.
# The fabrics: k-ary n-trees (three shapes, the generator's and ibsim's own
# 4-ary 3-tree), XGFTs (one with parallel cables), a CN GUID file, I/O nodes with reverse hops, a tree
# with CAs missing (dummy compute nodes), and a tree whose switch GUIDs make OpenSM's GUID map order (network byte order)
# differ from numeric order.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# switch_lids NETFILE: the switch LIDs of a net file lanes wrote, one a line.
switch_lids() { grep -o '^Switch.* lid [0-9]*' "$1" | awk '{print $NF}' | sort -u; }

# compare NAME NETFILE FABRIC [ENGINE PARAMS] [-- OPENSM ARGS...]
compare() {
  local name=$1 net=$2 fabric=$3 params=$4 dir=$work/$1; shift 4
  if ! osm_run "$net" "$dir/osm" -R ftree -D 0x43 "$@"; then
    bad "$name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null; return
  fi
  if ! grep -q "ftree tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with ftree"; grep -m3 "ERR AB" "$dir/osm/osm.log"; return
  fi
  if ! "$LANES" route -e "ftree$params" "$fabric" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed:"; cat "$dir/route.out"; return
  fi
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  local total missing extra extra_ca
  total=$(wc -l <"$dir/osm.entries")
  missing=$(comm -23 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  comm -13 "$dir/osm.entries" "$dir/ours.entries" >"$dir/extra"
  extra=$(wc -l <"$dir/extra")
  # an extra entry is allowed only where OpenSM has none for that switch and LID,
  # and only for a switch LID
  switch_lids "$net" >"$dir/swlids"
  extra_ca=$(awk 'NR == FNR { sw[$1] = 1; next } !($2 in sw)' "$dir/swlids" "$dir/extra" | wc -l)
  local clash
  clash=$(awk 'NR == FNR { have[$1 " " $2] = 1; next } ($1 " " $2) in have' \
    "$dir/osm.entries" "$dir/extra" | wc -l)
  if [ "$total" -gt 0 ] && [ "$missing" = 0 ] && [ "$extra_ca" = 0 ] && [ "$clash" = 0 ]; then
    ok "$name: all $total OpenSM entries agree; $extra more switch-LID entries of ours where OpenSM has none"
  else
    bad "$name: OpenSM has $total entries, $missing of them not ours; $extra of ours extra ($extra_ca to CA LIDs, $clash differing). First differences (< OpenSM only, > lanes only):"
    diff "$dir/osm.entries" "$dir/ours.entries" | grep '^[<>]' | head -8
  fi
}

# check NAME FABRIC...: convert FABRIC to an ibsim net file, then compare.
check() {
  local name=$1 fabric=$2; shift 2
  mkdir -p "$work/$name"
  if ! "$LANES" topo convert $fabric --to ibsim -o "$work/$name/fabric.net"; then
    bad "$name: convert"; return
  fi
  compare "$name" "$work/$name/fabric.net" "$work/$name/fabric.net" "" "$@"
}

# A 4-ary 3-tree whose switch GUIDs in byte-swapped order are not in numeric order.
check_guid_order() {
  local dir=$work/guid_order
  mkdir -p "$dir"
  "$LANES" topo convert fattree k=4 n=3 --to ibsim -o "$dir/plain.net" || { bad "guid_order: convert"; return; }
  awk '/^switchguid=/ { i = n++; printf "switchguid=0x0002c90300%02x%02x%02x\n", (i * 5) % 256, i, (i * 37 + 11) % 256; next }
       { print }' "$dir/plain.net" >"$dir/fabric.net"
  compare guid_order "$dir/fabric.net" "$dir/fabric.net" ""
}

# The CN GUID file: every other CA port of a 4-ary 3-tree is a compute node.
check_cn_file() {
  local dir=$work/cn_file
  mkdir -p "$dir"
  "$LANES" topo convert fattree k=4 n=3 --to ibsim -o "$dir/fabric.net" || { bad "cn_file: convert"; return; }
  netfile_nodes "$dir/fabric.net" | awk '$1 == "CA" && NR % 2 { print "0x" $2 }' >"$dir/cn.txt"
  compare cn_file "$dir/fabric.net" "$dir/fabric.net" ":cn_guid_file=$dir/cn.txt" \
    --cn_guid_file "$dir/cn.txt"
}

# I/O nodes: every 16th CA port in the I/O GUID file, the others in the CN
# file, and max_reverse_hops 1 (OpenSM's -G and -H).
check_io_file() {
  local dir=$work/io_file
  mkdir -p "$dir"
  "$LANES" topo convert fattree k=4 n=3 --to ibsim -o "$dir/fabric.net" || { bad "io_file: convert"; return; }
  netfile_nodes "$dir/fabric.net" | awk '$1 == "CA" && NR % 16 == 1 { print "0x" $2 }' >"$dir/io.txt"
  netfile_nodes "$dir/fabric.net" | awk '$1 == "CA" && NR % 16 != 1 { print "0x" $2 }' >"$dir/cn.txt"
  compare io_file "$dir/fabric.net" "$dir/fabric.net" \
    ":cn_guid_file=$dir/cn.txt,io_guid_file=$dir/io.txt,max_reverse_hops=1" \
    --cn_guid_file "$dir/cn.txt" --io_guid_file "$dir/io.txt" --max_reverse_hops 1
}

# A 4-ary 3-tree with three CAs unplugged, one from leaf 0 and two from leaf 2:
# those leaves route dummy compute nodes for the missing ones.
check_partial() {
  local dir=$work/partial
  mkdir -p "$dir"
  "$LANES" topo convert fattree k=4 n=3 --to ibsim -o "$dir/plain.net" || { bad "partial: convert"; return; }
  awk -v RS= -v ORS='\n\n' -v gone='"H-0002c9030100000c"|"H-0002c90301000024"|"H-0002c90301000028"' '
    $0 ~ ("Hca[^\n]*(" gone ")") { next }
    { n = split($0, line, "\n"); out = ""
      for (i = 1; i <= n; i++) if (line[i] !~ gone) out = out (out == "" ? "" : "\n") line[i]
      print out }' "$dir/plain.net" >"$dir/fabric.net"
  compare partial "$dir/fabric.net" "$dir/fabric.net" ""
}

check fattree_k4n3 "fattree k=4 n=3"
check fattree_k2n4 "fattree k=2 n=4"
check fattree_k3n3 "fattree k=3 n=3"
check ibsim_4ary3tree "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check xgft_3level "xgft h=3 m=2,2,3 w=1,2,2"
check xgft_parallel "xgft h=2 m=4,4 w=1,3"
check_guid_order
check_cn_file
check_io_file
check_partial

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
