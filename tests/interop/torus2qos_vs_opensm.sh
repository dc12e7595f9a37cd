#!/usr/bin/env bash
# Our torus-2qos against the real OpenSM 3.3.23 torus-2QoS (opensm -R
# torus-2QoS -Q --torus_config FILE) on ibsim, entry by entry.
#
# For each fabric: write it as an ibsim net file, write a torus-2QoS.conf
# (size and seed: the generator's switch 0 at 0,0,0, its x+, y+, z+
# neighbours, and x-, y-, z- too for a ring of 4, as OpenSM asks), run
# OpenSM once, route the same net file with `lanes route -e
# torus-2qos:config=FILE` and compare:
#  - the LFTs, as "switch-GUID LID port" entries (drops left out);
#  - the SL2VL maps of every switch (opensm-sl2vl.dump, line by line);
#  - the path SLs: OpenSM answers them only to path record queries, so the
#    test computes them from the coordinates OpenSM dumps
#    (opensm-torus.dump) with the rule of OpenSM's documentation (bit d
#    set when the shorter way in dimension d wraps from radix-1 to 0), and
#    compares lanes-path-sl.txt with that for every (source switch,
#    destination LID).
# Bare fabrics (no config): lanes' coordinates come from recognition; on
# tori without a ring of 4 its orientation is the generator's, so the
# tables must be OpenSM's too.
# Failures: cables and switches removed from the net file (OpenSM routes
# around them, "the long way round" and with an early turn), and without the
# config too where the engine seeds the faulty torus itself (no ring of 4);
# a mixed torus (a y line of 4: the wraparound cables removed, "4m" in the
# config); LMC 1 and 2; a ring broken twice, missing switches in two
# columns or not adjacent in z, which both refuse.
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
base=$((0x0002c90300a00000))

guid() { printf '0x%016x' $((base + $1)); }

# write_conf FILE KEYWORD X Y Z: the size line and the seed of switch 0 (a radix may end in m).
write_conf() {
  local file=$1 kw=$2 x=${3%m} y=${4%m} z=${5%m}
  {
    echo "$kw $3 $4 $5"
    [ "$x" -gt 1 ] && echo "xp_link $(guid 0) $(guid 1)"
    [ "$x" -eq 4 ] && [ "$kw" = torus ] && echo "xm_link $(guid 0) $(guid 3)"
    [ "$y" -gt 1 ] && echo "yp_link $(guid 0) $(guid "$x")"
    [ "$y" -eq 4 ] && [ "$kw" = torus ] && echo "ym_link $(guid 0) $(guid $((3 * x)))"
    [ "$z" -gt 1 ] && echo "zp_link $(guid 0) $(guid $((x * y)))"
    [ "$z" -eq 4 ] && [ "$kw" = torus ] && echo "zm_link $(guid 0) $(guid $((3 * x * y)))"
  } >"$file"
}

# drop_cable A B: the net file on stdin without the cable between switches A and B (indices).
drop_cable() {
  local a b
  a=$(printf '%016x' $((base + $1))); b=$(printf '%016x' $((base + $2)))
  awk -v a="$a" -v b="$b" '/^switchguid=/ { me = tolower(substr($0, 14)) } /^caguid=/ { me = "" }
       /^\[/ && ((me ~ a "$" && tolower($0) ~ "s-" b) || (me ~ b "$" && tolower($0) ~ "s-" a)) { next }
       { print }'
}

# drop_switch A: the net file on stdin without switch A, its cables and its CAs.
drop_switch() {
  local a
  a=$(printf '%016x' $((base + $1)))
  awk -v a="$a" 'BEGIN { RS = ""; ORS = "\n\n" }
       tolower($0) ~ "switchguid=0x" a { next }
       /^caguid=/ && tolower($0) ~ "s-" a { next }
       { n = split($0, line, "\n"); out = ""
         for (i = 1; i <= n; i++) if (tolower(line[i]) !~ "\"s-" a "\"") out = out line[i] "\n"
         printf "%s\n", out }'
}

# path_sls DIR X Y Z: "LID GUID SL" that OpenSM's coordinates give, and ours, compared.
same_sls() {
  local name=$1 dir=$2 x=$3 y=$4 z=$5
  awk -v X="$x" -v Y="$y" -v Z="$z" '
    function num(s,   i, n, h) {
      s = tolower(s); if (substr(s, 1, 2) != "0x") return s + 0
      n = 0; for (i = 3; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return n
    }
    function wraps(a, b, k,   lo, hi) { lo = a < b ? a : b; hi = a < b ? b : a; return lo + k - hi < hi - lo }
    FILENAME ~ /torus.dump$/ { split($2, c, ","); g = sprintf("%.0f", num($4)); cx[g] = c[1]; cy[g] = c[2]; cz[g] = c[3]; next }
    FILENAME ~ /net$/ && /^switchguid=/ { sw = sprintf("%.0f", num(substr($0, 12))); next }
    FILENAME ~ /net$/ && /^Switch/ { if (match($0, / lid [0-9]+/)) at[substr($0, RSTART + 5, RLENGTH - 5) + 0] = sw; next }
    FILENAME ~ /net$/ && /^\[/ && / lid / { match($0, /"S-[0-9a-fA-F]+"/); s = sprintf("%.0f", num("0x" substr($0, RSTART + 3, RLENGTH - 4)))
                                            match($0, / lid [0-9]+/); at[substr($0, RSTART + 5, RLENGTH - 5) + 0] = s; next }
    FILENAME ~ /path-sl.txt$/ && /^0x/ { lid = num($1); s = sprintf("%.0f", num($2)); d = at[lid]
      if (!(d in cx) || !(s in cx)) next
      want = wraps(cx[s], cx[d], X) + 2 * wraps(cy[s], cy[d], Y) + 4 * wraps(cz[s], cz[d], Z)
      n++; if (want != $3 + 0) { bad++; if (bad < 4) print "  LID " lid " from " $2 ": OpenSM " want ", lanes " $3 } }
    END { print n + 0, bad + 0 > "/dev/stderr" }' \
    "$dir/osm/opensm-torus.dump" "$dir/fabric.net" "$dir/ours/lanes-path-sl.txt" 2>"$dir/sl.count" >"$dir/sl.diff"
  read -r total wrong <"$dir/sl.count"
  if [ "$total" -gt 0 ] && [ "$wrong" -eq 0 ]; then
    ok "$name: all $total path SLs agree with OpenSM's coordinates"
  else
    bad "$name: $wrong of $total path SLs differ:"; cat "$dir/sl.diff"
  fi
}

# switch_maps DUMP: the switch blocks of an opensm-sl2vl.dump (lanes writes no CA blocks).
switch_maps() { awk '/^Switch/ { on = 1 } /^Channel Adapter|^Router/ { on = 0 } on && !/^#/' "$1"; }

same_sl2vl() {
  if cmp -s <(switch_maps "$2/osm/opensm-sl2vl.dump") <(switch_maps "$2/ours/opensm-sl2vl.dump"); then
    ok "$1: SL2VL maps of all switches identical"
  else
    bad "$1: SL2VL maps differ:"; diff <(switch_maps "$2/osm/opensm-sl2vl.dump") <(switch_maps "$2/ours/opensm-sl2vl.dump") | head -6
  fi
}

# run_both NAME DIR KW X Y Z: OpenSM and lanes on DIR/fabric.net; 1 when either did not route.
run_both() {
  local name=$1 dir=$2
  write_conf "$dir/t2q.conf" "$3" "$4" "$5" "$6"
  if ! osm_run "$dir/fabric.net" "$dir/osm" -R torus-2QoS -Q --torus_config "$dir/t2q.conf" -D 0x43 ||
     ! grep -q "torus-2QoS tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with torus-2QoS"; grep -i error "$dir/osm/osm.log" | head -3; return 1
  fi
  if ! "$LANES" route -e "torus-2qos:config=$dir/t2q.conf" "$dir/fabric.net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed:"; cat "$dir/route.out"; return 1
  fi
}

# lmc NAME LMC KW X Y Z FABRIC...: as check, every CA port at LMC (every LID of a port
# routed alike, as OpenSM does: "LMC > 0 doesn't really make sense for torus-2QoS").
lmc() {
  local name=$1 lmc=$2 kw=$3 x=$4 y=$5 z=$6 dir=$work/$1; shift 6
  lmc_net "$dir" "$lmc" "$@" || { bad "$name: convert"; return; }
  write_conf "$dir/t2q.conf" "$kw" "$x" "$y" "$z"
  if ! osm_run "$dir/fabric.net" "$dir/osm" -R torus-2QoS -Q --torus_config "$dir/t2q.conf" -l "$lmc" -D 0x43 ||
     ! grep -q "torus-2QoS tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with torus-2QoS"; return
  fi
  if ! "$LANES" route -e "torus-2qos:config=$dir/t2q.conf" "$dir/fabric.net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes route failed:"; cat "$dir/route.out"; return
  fi
  same_entries "$name" "$dir"
}

# check NAME KW X Y Z FABRIC...: convert, run both, compare tables, maps and SLs.
check() {
  local name=$1 kw=$2 x=$3 y=$4 z=$5 dir=$work/$1; shift 5
  mkdir -p "$dir"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net"; then bad "$name: convert"; return; fi
  run_both "$name" "$dir" "$kw" "$x" "$y" "$z" || return
  same_entries "$name" "$dir"
  same_sl2vl "$name" "$dir"
  same_sls "$name" "$dir" "$x" "$y" "$z"
}

# via_switch DIR ENTRIES: the entries with each port replaced by the switch behind it (CA ports kept).
via_switch() {
  awk 'FILENAME ~ /net$/ && /^switchguid=/ { me = tolower(substr($0, 12)); next }
       FILENAME ~ /net$/ && /^\[/ && /"S-/ { match($0, /^\[[0-9]+\]/); p = substr($0, 2, RLENGTH - 2) + 0
                                            match($0, /"S-[0-9a-fA-F]+"/); far[me " " p] = tolower(substr($0, RSTART + 3, RLENGTH - 4)); next }
       FILENAME ~ /net$/ { next }
       { k = $1 " " $3; print $1, $2, (k in far) ? "to-" far[k] : $3 }' "$1/fabric.net" "$2" | sort
}

# parallel NAME KW X Y Z FABRIC...: parallel cables. OpenSM deals each port group's routes round
# robin over its cables in the order its discovery placed the switches, lanes in switch index
# order (docs/torus-2qos.md): the tables must agree up to which parallel cable, switch by switch.
parallel() {
  local name=$1 kw=$2 x=$3 y=$4 z=$5 dir=$work/$1 same; shift 5
  mkdir -p "$dir"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net"; then bad "$name: convert"; return; fi
  run_both "$name" "$dir" "$kw" "$x" "$y" "$z" || return
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  same=$(comm -12 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  if cmp -s <(via_switch "$dir" "$dir/osm.entries") <(via_switch "$dir" "$dir/ours.entries"); then
    ok "$name: all $(wc -l <"$dir/osm.entries") entries lead to the same switch ($same on the same cable)"
  else
    bad "$name: entries lead to other switches:"
    diff <(via_switch "$dir" "$dir/osm.entries") <(via_switch "$dir" "$dir/ours.entries") | head -6
  fi
  same_sl2vl "$name" "$dir"
  same_sls "$name" "$dir" "$x" "$y" "$z"
}

# bare NAME: after check or faulty NAME, lanes without the config routes the same tables
# (recognition on an intact torus; on a faulty one the engine's own seed, its frame
# re-anchored at switch 0 as recognition's).
bare() {
  local name=$1 dir=$work/$1
  if ! "$LANES" route -e torus-2qos "$dir/fabric.net" -o "$dir/bare" >"$dir/bare.out" 2>&1; then
    bad "$name: bare route failed:"; cat "$dir/bare.out"; return
  fi
  lft_entries "$dir/bare/opensm-lfts.dump" >"$dir/bare.entries"
  if cmp -s "$dir/osm.entries" "$dir/bare.entries"; then ok "$name: bare (recognised) tables equal OpenSM's"
  else bad "$name: bare tables differ from OpenSM's in $(comm -3 "$dir/osm.entries" "$dir/bare.entries" | wc -l) entries"; fi
}

# faulty NAME KW X Y Z EDIT FABRIC...: FABRIC with EDIT (drop_cable A B, drop_switch A, piped) applied.
faulty() {
  local name=$1 kw=$2 x=$3 y=$4 z=$5 edit=$6 dir=$work/$1; shift 6
  mkdir -p "$dir"
  "$LANES" topo convert "$@" --to ibsim -o "$dir/full.net" || { bad "$name: convert"; return; }
  eval "$edit" <"$dir/full.net" >"$dir/fabric.net"
  run_both "$name" "$dir" "$kw" "$x" "$y" "$z" || return
  same_entries "$name" "$dir"
  same_sl2vl "$name" "$dir"
  same_sls "$name" "$dir" "${x%m}" "${y%m}" "${z%m}"
}

# refused NAME KW X Y Z EDIT FABRIC...: both refuse.
refused() {
  local name=$1 kw=$2 x=$3 y=$4 z=$5 edit=$6 dir=$work/$1; shift 6
  mkdir -p "$dir"
  "$LANES" topo convert "$@" --to ibsim -o "$dir/full.net" || { bad "$name: convert"; return; }
  eval "$edit" <"$dir/full.net" >"$dir/fabric.net"
  write_conf "$dir/t2q.conf" "$kw" "$x" "$y" "$z"
  osm_run "$dir/fabric.net" "$dir/osm" -R torus-2QoS -Q --torus_config "$dir/t2q.conf" -D 0x43
  if grep -q "torus-2QoS tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM routed it with torus-2QoS"; return
  fi
  if "$LANES" route -e "torus-2qos:config=$dir/t2q.conf" "$dir/fabric.net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$name: lanes routed what OpenSM refuses"; return
  fi
  ok "$name: both refuse; lanes: $(head -c 200 "$dir/route.out")"
}

# beyond NAME KW X Y Z EDIT FABRIC...: OpenSM refuses, lanes routes it and the verifier finds
# every pair reached and no credit loop (the document's 2D example with two switches missing,
# adjacent in y: OpenSM 3.3.23 checks for z columns only; docs/torus-2qos.md).
beyond() {
  local name=$1 kw=$2 x=$3 y=$4 z=$5 edit=$6 dir=$work/$1; shift 6
  mkdir -p "$dir"
  "$LANES" topo convert "$@" --to ibsim -o "$dir/full.net" || { bad "$name: convert"; return; }
  eval "$edit" <"$dir/full.net" >"$dir/fabric.net"
  write_conf "$dir/t2q.conf" "$kw" "$x" "$y" "$z"
  osm_run "$dir/fabric.net" "$dir/osm" -R torus-2QoS -Q --torus_config "$dir/t2q.conf" -D 0x43
  if grep -q "torus-2QoS tables configured" "$dir/osm/osm.log"; then
    bad "$name: OpenSM routed it with torus-2QoS (now compare instead)"; return
  fi
  if ! "$LANES" verify -e "torus-2qos:config=$dir/t2q.conf" "$dir/fabric.net" --json >"$dir/verify.json" 2>"$dir/verify.err"; then
    bad "$name: lanes did not route it:"; cat "$dir/verify.err"; return
  fi
  if [ "$(json_field "$dir/verify.json" deadlock_free)" = true ] && [ "$(json_field "$dir/verify.json" reachable)" = true ]; then
    ok "$name: OpenSM refuses; lanes routes it, verified deadlock-free"
  else
    bad "$name: lanes' routing fails the verifier"
  fi
}

check torus_5x5 torus 5 5 1 torus k=5x5 p=1
bare torus_5x5
check torus_3x3x3 torus 3 3 3 torus k=3x3x3 p=2
bare torus_3x3x3
check torus_6x5x3 torus 6 5 3 torus k=6x5x3 p=1
bare torus_6x5x3
check torus_4x6 torus 4 6 1 torus k=4x6 p=2
check torus_4x4x4 torus 4 4 4 torus k=4x4x4 p=1
check mesh_4x3 mesh 4 3 1 mesh k=4x3 p=1
check mesh_3x3x3 mesh 3 3 3 mesh k=3x3x3 p=1
parallel torus_5x5_L2 torus 5 5 1 torus k=5x5 p=2 L=2
parallel torus_4x3x3_L3 torus 4 3 3 torus k=4x3x3 p=1 L=3
lmc torus_5x5_lmc1 1 torus 5 5 1 torus k=5x5 p=2
lmc torus_3x3x3_lmc2 2 torus 3 3 3 torus k=3x3x3 p=1
faulty torus_6x5_cable torus 6 5 1 "drop_cable 7 8" torus k=6x5 p=1
bare torus_6x5_cable
faulty torus_5x5x3_cable2 torus 5 5 3 "drop_cable 0 1 | drop_cable 30 55" torus k=5x5x3 p=1
faulty torus_6x5_switch torus 6 5 1 "drop_switch 9" torus k=6x5 p=1
bare torus_6x5_switch
faulty torus_5x5x4_switch torus 5 5 4 "drop_switch 12" torus k=5x5x4 p=1
faulty torus_5x5x4_column torus 5 5 4 "drop_switch 12 | drop_switch 37" torus k=5x5x4 p=1
faulty torus_6x5_cables_switch torus 6 5 1 "drop_cable 1 2 | drop_cable 20 26 | drop_switch 15" torus k=6x5 p=1
# a mixed torus: the 5x4 torus without its y wraparound cables is a ring of 5 by a line of 4
faulty mixed_5x4m torus 5 4m 1 "drop_cable 0 15 | drop_cable 1 16 | drop_cable 2 17 | drop_cable 3 18 | drop_cable 4 19" torus k=5x4 p=1
beyond torus_6x6_doc_example torus 6 6 1 "drop_switch 9 | drop_switch 15" torus k=6x6 p=1
refused torus_6x5_ring2 torus 6 5 1 "drop_cable 7 8 | drop_cable 9 10" torus k=6x5 p=1
refused torus_6x5_two_switches torus 6 5 1 "drop_switch 9 | drop_switch 20" torus k=6x5 p=1
refused torus_5x5x4_switch_gap torus 5 5 4 "drop_switch 12 | drop_switch 62" torus k=5x5x4 p=1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
