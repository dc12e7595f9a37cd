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
# every LID (docs/ftree.md). Those extra entries are counted and printed;
# two cases also allow extra entries for CA LIDs (ca_extra_ok, below).
# Each case also compares OpenSM's opensm-ftree-ca-order.dump with ours
# (ca_order_dump=PATH), byte for byte.
# The fabrics: k-ary n-trees (three shapes, the generator's and ibsim's own
# 4-ary 3-tree), XGFTs (one with parallel cables), a CN GUID file, I/O nodes with reverse hops, a tree
# with CAs missing (dummy compute nodes), and a tree whose switch GUIDs make OpenSM's GUID map order (network byte order)
# differ from numeric order. With a root GUID file (OpenSM's -a): the top
# switches of a 4-ary 3-tree and of an XGFT, half of the top switches (the
# others then rank with the leaves), a 4-ary 3-tree with two cables gone
# (which OpenSM refuses without the file, ERR AB09), and the real fabric
# ut_stage with its two spines as roots and the CAs of its leaves as CNs.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# switch_lids NETFILE: the switch LIDs of a net file lanes wrote, one a line.
switch_lids() { grep -o '^Switch.* lid [0-9]*' "$1" | awk '{print $NF}' | sort -u; }

# ca_extra_ok=1 also allows extra entries for CA LIDs (still only where
# OpenSM has none): on a tree that is not full, OpenSM's up/down search
# leaves some CA LIDs unreachable from some switches (a cable gone, a CA on a
# spine seen from the other spine) and ours completes them (docs/ftree.md).
ca_extra_ok=0

# compare NAME NETFILE FABRIC [ENGINE PARAMS] [-- OPENSM ARGS...]
compare() {
  local name=$1 net=$2 fabric=$3 params=$4 dir=$work/$1; shift 4
  if ! osm_run "$net" "$dir/osm" -R ftree -D 0x43 "$@"; then
    bad "$name: OpenSM did not run"; tail -3 "$dir/osm/osm.log" 2>/dev/null; return
  fi
  if ! grep -q "ftree tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with ftree"; grep -m3 "ERR AB" "$dir/osm/osm.log"; return
  fi
  if ! "$LANES" route -e "ftree:${params#:}${params:+,}ca_order_dump=$dir/ca-order.dump" "$fabric" \
      -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed:"; cat "$dir/route.out"; return
  fi
  if ! cmp -s "$dir/osm/opensm-ftree-ca-order.dump" "$dir/ca-order.dump"; then
    bad "$name: the CA order dumps differ (< OpenSM, > lanes):"
    diff "$dir/osm/opensm-ftree-ca-order.dump" "$dir/ca-order.dump" | head -6; return
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
  if [ "$total" -gt 0 ] && [ "$missing" = 0 ] && [ "$clash" = 0 ] &&
     { [ "$extra_ca" = 0 ] || [ "$ca_extra_ok" = 1 ]; }; then
    ok "$name: all $total OpenSM entries agree, and the CA order ($(wc -l <"$dir/ca-order.dump") lines); $extra more entries of ours where OpenSM has none ($extra_ca to CA LIDs)"
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

# top_switches NETFILE LEVEL: the GUIDs of the switches the generator put at
# LEVEL (its descriptions say "-lLEVEL-"), one a line.
top_switches() {
  grep '^Switch' "$1" | grep -- "-l$2-" | sed -E 's/.*"S-([0-9a-f]+)".*/0x\1/'
}

# check_roots NAME LEVEL HOW FABRIC...: route FABRIC with the switches of
# LEVEL in a root GUID file; HOW: all of them, or half (the first half).
check_roots() {
  local name=$1 level=$2 how=$3 dir=$work/$1; shift 3
  mkdir -p "$dir"
  "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net" 2>/dev/null || { bad "$name: convert"; return; }
  top_switches "$dir/fabric.net" "$level" >"$dir/all-roots"
  if [ "$how" = half ]; then head -n $(($(wc -l <"$dir/all-roots") / 2)) "$dir/all-roots"
  else cat "$dir/all-roots"; fi >"$dir/roots.txt"
  compare "$name" "$dir/fabric.net" "$dir/fabric.net" ":root_guid_file=$dir/roots.txt" \
    --root_guid_file "$dir/roots.txt"
}

# ca_ports_off NETFILE REGEX: the port GUIDs of CA ports cabled to a switch
# whose name does not match REGEX (ibsim: the CA's GUID plus the port number).
ca_ports_off() {
  local guid=0 line port re='^\[([0-9]+)\][[:space:]]*"S-'
  while IFS= read -r line; do
    case $line in
      caguid=*) guid=$((${line#caguid=})) ;;
      switchguid=*) guid=0 ;;
      \[*) if [ "$guid" != 0 ] && [[ $line =~ $re ]]; then
              port=${BASH_REMATCH[1]}
              [[ $line =~ $2 ]] || printf '0x%016x\n' $((guid + port))
            fi ;;
    esac
  done <"$1"
}

# ut_stage with a root GUID file naming its two spines, and the CAs of the
# leaves as CNs (the three CAs on a spine are then other CAs): OpenSM routes
# it so, where without the files it refuses it (ERR AB26).
check_ut_stage_roots() {
  local dir=$work/ut_stage_roots spines='S-f4521403007eaa70|S-f4521403007ea570'
  mkdir -p "$dir"
  "$LANES" topo convert "$DATA/ut_stage_sx6036_fdr10_ibnetdiscover.txt" --to ibsim \
    -o "$dir/fabric.net" || { bad "ut_stage_roots: convert"; return; }
  printf '0xf4521403007eaa70\n0xf4521403007ea570\n' >"$dir/roots.txt"
  ca_ports_off "$dir/fabric.net" "$spines" >"$dir/cn.txt"
  compare ut_stage_roots "$dir/fabric.net" "$dir/fabric.net" \
    ":root_guid_file=$dir/roots.txt,cn_guid_file=$dir/cn.txt" \
    --root_guid_file "$dir/roots.txt" --cn_guid_file "$dir/cn.txt"
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
check_roots roots_k4n3 3 all fattree k=4 n=3
check_roots roots_half 3 half fattree k=4 n=3
check_roots roots_xgft 3 all xgft h=3 m=4,4,4 w=1,2,3
ca_extra_ok=1
check_roots roots_cables_gone 3 all fattree k=4 n=3 --fail-links 2 --fault-seed 3
check_ut_stage_roots
ca_extra_ok=0

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
