#!/usr/bin/env bash
# The verifier against the real OpenSM's own engines, on a 4x4 torus run in
# ibsim: OpenSM's minhop has a credit loop; its updn, dfsssp, lash and nue are
# free of credit loops, with the VLs that OpenSM reports.
#
# Path SLs: lash and nue answer them through the SA (saquery path records,
# one query per pair). OpenSM 3.3.23's dfsssp answers a different SL to every
# query for the same pair (a bug seen here: 3,3,2,0,2,3 for one pair), so its
# SLs come from its own debug log instead ("route from src_lid=.. to
# dest_lid=.. on vl=..", printed with -D 0x08 once routing is done).
set -u
here=$(dirname "$0")
. "$here/osm_lib.bash"
. "$here/osm_daemon.bash"
work=$(mktemp -d)
trap 'osm_daemon_stop; rm -rf "$work"' EXIT

"$LANES" topo convert torus k=4x4 p=1 --to ibsim -o "$work/t.net" || fail "convert"
fabric="$work/t.net"
lids=$(grep -c ' lid ' "$work/t.net")   # one per switch and CA

verify() { # verify NAME ARGS... -> $work/NAME.json, exit code in $rc
  local name=$1; shift
  "$LANES" verify "$fabric" "$@" --ebb-patterns 0 --json >"$work/$name.json" 2>"$work/$name.err"
  rc=$?
}

# saquery path records for every ordered pair of LIDs, 8 queries at a time
all_path_records() {
  for s in $(seq 1 "$lids"); do for d in $(seq 1 "$lids"); do
    [ "$s" = "$d" ] || echo "$s $d"; done; done |
    OSM_D_SOCK=$OSM_D_SOCK xargs -P 8 -n 2 sh -c \
      'IBSIM_SOCKNAME=$OSM_D_SOCK timeout 60 ibsim-run saquery -p --slid $0 --dlid $1 2>/dev/null'
}

# missing_pairs FILE: the ordered LID pairs ("S D") without a path record in
# FILE (a query can time out when the machine is busy; they are asked again)
missing_pairs() {
  awk -v n="$lids" '
    function num(v,   i, x) {
      if (v !~ /^0x/) return v + 0
      for (i = 3; i <= length(v); i++) x = x * 16 + index("0123456789abcdef", tolower(substr(v, i, 1))) - 1
      return x
    }
    /PathRecord dump/ { s = ""; d = "" }
    /^[ \t]*slid\./ { v = $0; sub(/^[^.]*\.+/, "", v); s = num(v) }
    /^[ \t]*dlid\./ { v = $0; sub(/^[^.]*\.+/, "", v); d = num(v) }
    s != "" && d != "" { seen[s " " d] = 1 }
    END { for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) if (i != j && !((i " " j) in seen)) print i, j }' "$1"
}

# all_path_records FILE: every pair's record into FILE, the missing ones
# asked again one at a time (up to three more rounds)
all_path_records_into() {
  all_path_records >"$1"
  for try in 1 2 3; do
    missing_pairs "$1" >"$1.missing"
    [ -s "$1.missing" ] || break
    while read -r s t; do
      IBSIM_SOCKNAME=$OSM_D_SOCK timeout 60 ibsim-run saquery -p --slid "$s" --dlid "$t" 2>/dev/null
    done <"$1.missing" >>"$1"
  done
}

# minhop: a torus with shortest paths wraps round its rings
d=$work/minhop
osm_run "$fabric" "$d" -R minhop -D 0x43 || fail "OpenSM minhop"
verify minhop --lfts "$d/opensm-lfts.dump"
if [ $rc = 1 ] && [ "$(json_field "$work/minhop.json" deadlock_free)" = false ] &&
   [ "$(json_field "$work/minhop.json" reachable)" = true ]; then
  ok "OpenSM minhop: reachable, credit loop found (exit 1)"
else bad "OpenSM minhop: expected a credit loop (exit $rc)"; head -5 "$work/minhop.err"; fi

# updn without roots: on a torus OpenSM finds none and silently falls back to
# minhop ("disabling UPDN algorithm, no root nodes were found"): the verifier
# must see the credit loop that follows
d=$work/updn-noroot
osm_run "$fabric" "$d" -R updn -D 0x43 || fail "OpenSM updn"
verify updn-noroot --lfts "$d/opensm-lfts.dump"
if grep -q 'no root nodes were found' "$d/osm.log" && [ $rc = 1 ] &&
   [ "$(json_field "$work/updn-noroot.json" deadlock_free)" = false ]; then
  ok "OpenSM updn without roots falls back to minhop; credit loop found"
else bad "OpenSM updn without roots (exit $rc)"; fi

# updn with a root (the first switch): one VL, no SLs needed
d=$work/updn
mkdir -p "$d"
grep -m1 '^switchguid=' "$fabric" | cut -d= -f2 >"$d/roots"
osm_run "$fabric" "$d" -R updn -a "$d/roots" -D 0x43 || fail "OpenSM updn with roots"
verify updn --lfts "$d/opensm-lfts.dump"
if ! grep -q 'no root nodes' "$d/osm.log" && [ $rc = 0 ] &&
   [ "$(json_field "$work/updn.json" vls_used)" = 1 ]; then
  ok "OpenSM updn with root $(cat "$d/roots"): verified, 1 VL"
else bad "OpenSM updn with a root (exit $rc)"; head -5 "$work/updn.err"; fi

# dfsssp: SLs from its log; the VLs that CA-to-CA paths use are the ones its
# path table names for CA pairs (CA LIDs follow the switch LIDs here)
d=$work/dfsssp
osm_run "$fabric" "$d" -R dfsssp -Q -D 0x4B || fail "OpenSM dfsssp"
needed=$(grep -o 'Virtual Lanes needed: [0-9]*' "$d/osm.log" | tail -1 | grep -o '[0-9]*$')
{ echo "# lanes path SLs"; echo "mode per-pair"
  grep -o 'route from src_lid=[0-9]* to dest_lid=[0-9]* on vl=[0-9]*' "$d/osm.log" |
    sed -E 's/route from src_lid=([0-9]+) to dest_lid=([0-9]+) on vl=([0-9]+)/\2 \1 \3/'; } >"$d/path-sl.txt"
nsw=$(grep -c '^Switch' "$fabric")
osm_vls=$(awk -v s="$nsw" 'NR > 2 && $1 > s && $2 > s && $3 + 1 > m { m = $3 + 1 } END { print m }' \
  "$d/path-sl.txt")
verify dfsssp --lfts "$d/opensm-lfts.dump" --sl2vl "$d/opensm-sl2vl.dump" --path-sl "$d/path-sl.txt"
got=$(json_field "$work/dfsssp.json" vls_used)
if [ $rc = 0 ] && [ -n "$needed" ] && [ "$got" = "$osm_vls" ] && [ "$needed" -le "$got" ]; then
  ok "OpenSM dfsssp: verified; OpenSM logs $needed VLs needed, balances onto $osm_vls, we see $got"
else bad "OpenSM dfsssp (exit $rc): needed '$needed', OpenSM's table $osm_vls, we see '$got'"
  head -20 "$work/dfsssp.err"; grep -E '"(deadlock_free|reachable)"' "$work/dfsssp.json"; fi

# lash and nue: SLs through the SA
for eng in lash nue; do
  d=$work/$eng
  if ! osm_daemon_start "$fabric" "$d" -R $eng -Q -D 0x43; then bad "OpenSM $eng did not start"; continue; fi
  all_path_records_into "$d/pr.txt"
  osm_daemon_stop
  n=$(grep -c 'PathRecord dump' "$d/pr.txt")
  [ "$n" = $((lids * (lids - 1))) ] || { bad "$eng: $n path records, expected $((lids * (lids - 1)))"; continue; }
  verify $eng --lfts "$d/opensm-lfts.dump" --sl2vl "$d/opensm-sl2vl.dump" --path-sl "$d/pr.txt"
  got=$(json_field "$work/$eng.json" vls_used)
  needed=$(grep -o 'Lanes needed: [0-9]*' "$d/osm.log" | tail -1 | grep -o '[0-9]*$')
  if [ $rc = 0 ] && { [ $eng = nue ] || [ "$got" = "$needed" ]; }; then
    ok "OpenSM $eng: verified with SA path SLs, $got VL(s)${needed:+ (OpenSM: $needed lanes needed)}"
  else bad "OpenSM $eng (exit $rc): we see $got VLs, OpenSM '$needed'"; head -20 "$work/$eng.err"; fi
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
