#!/usr/bin/env bash
# LMC 1 (and 2 on a torus) against the real OpenSM 3.3.23 (opensm -l 1, -l 2), engine by engine.
#
# The fabric: a generated one with every CA port at LMC 1 (two LIDs each;
# switch port 0 keeps LMC 0, as OpenSM's default lmc_esp0 FALSE does), LIDs
# assigned by lanes (aligned ranges) and written into the ibsim net file
# with "lmc 1"; OpenSM keeps them (checked against opensm-subnet.lst), and
# its tables hold both LIDs of every CA port (checked by counting minhop's
# entries). `lanes route` takes the LMC from the file; there is no option.
# On a fat tree (k=4 n=3), OpenSM and `lanes route -e E` on the same file:
#  - minhop, dfsssp: the same "switch-GUID LID port" entries (drops left out);
#  - updn (OpenSM's auto-detected roots), dnup: every OpenSM entry is ours
#    (we add the completions OpenSM leaves unrouted, see updn_vs_opensm.sh);
#  - minhop, updn, dnup: seed 002's LMC rule for Min Hop and Up/Down ("within
#    each group of LIDs ... use only ports which have same MinHop, first
#    prefer the ones that go to different systemImageGuid ... then another
#    NodeGuid"): wherever a switch has two or more min-hop ports towards a CA
#    (all to different switches here), its base and base + 1 LIDs leave by
#    different ports, in OpenSM's tables and in ours;
#  - sssp, nue (seed 002 promises only that they "support LMC > 0"): ours
#    reach every LID from every CA and switch without loops (lanes verify);
#    sssp on shortest paths with max routes per channel within 5% of
#    OpenSM's sssp (sssp_vs_opensm.sh's target); nue free of credit loops
#    within 2 VLs; and base + 1 is routed as a destination of its own (some
#    switch sends it by another port than base; OpenSM's counts are printed).
# On a 4x4 torus (2 CAs per switch), where shortest paths close credit loops
# (checked: our sssp's tables have one): minhop and dfsssp entry for entry,
# seed 002's split for minhop as above; updn (the first switch as its one
# root, given to both) containing every OpenSM entry; dnup judged as in
# dnup_vs_opensm.sh (OpenSM's dnup is minhop here, with a credit loop, so
# ours must be free of one, updown/dnup.c); sssp as above, nue within 2 VLs
# free of credit loops. Unlike the fat tree, a torus switch often has
# min-hop ports to different switches of which the least loaded is not the
# one after base's port, so minhop's equality needs OpenSM's LMC preference
# (osm_switch_recommend_path: a port towards a system, then a node, that
# the port's earlier LIDs do not leave to; src/route/load.c).
# The same torus at LMC 2 (four LIDs per CA port, opensm -l 2): minhop entry
# for entry, updn containing every OpenSM entry, dnup judged as above (here
# OpenSM's tie-break by how many earlier LIDs went to a remote node counts).
set -u
. "$(dirname "$0")/osm_lib.bash"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# lmc_split NETFILE ENTRIES: "M D": M (switch, CA port at LMC 1) pairs where
# the switch has two or more min-hop ports towards the CA's switch (BFS over
# the net file's cables), D of them with base and base + 1 on different ports
# in ENTRIES (lft_entries output).
lmc_split() {
  awk '
    function qid(s,   a) { split(s, a, "\""); return a[2] }
    function field(s, name,   a, n, i) {
      n = split(s, a, /[ \t]+/)
      for (i = 1; i < n; i++) if (a[i] == name) return a[i + 1] + 0
      return -1
    }
    FNR == NR {
      if ($0 ~ /^Switch/) { cur = qid($0); type = "SW"; sw[cur] = 1; swl[++nsw] = cur }
      else if ($0 ~ /^(Hca|Ca)/) { cur = qid($0); type = "CA" }
      else if ($0 ~ /^\[/) {
        if (type == "SW") pe[cur, ++np[cur]] = qid($0)
        else if (field($0, "lmc") == 1) { cal[++nca] = field($0, "lid"); cas[nca] = qid($0) }
      }
      next
    }
    { port[$1, $2] = $3 }
    END {
      for (c = 1; c <= nca; c++) {
        t = cas[c]
        for (i = 1; i <= nsw; i++) dist[swl[i]] = -1
        dist[t] = 0; head = 1; tail = 1; q[1] = t
        while (head <= tail) {
          x = q[head++]
          for (k = 1; k <= np[x]; k++) {
            y = pe[x, k]
            if ((y in sw) && dist[y] < 0) { dist[y] = dist[x] + 1; q[++tail] = y }
          }
        }
        for (i = 1; i <= nsw; i++) {
          s = swl[i]; m = 0
          if (s == t) continue
          for (k = 1; k <= np[s]; k++) { y = pe[s, k]; if ((y in sw) && dist[y] == dist[s] - 1) m++ }
          if (m < 2) continue
          g = "0x" tolower(substr(s, 3)); multi++
          if (port[g, cal[c]] != port[g, cal[c] + 1]) differ++
        }
      }
      printf "%d %d\n", multi, differ
    }' "$1" "$2"
}

# run_pair FAB ENG "OSM ARGS" "LANES ARGS": OpenSM's ENG with -l $lmc and ours on
# $work/FAB/fabric.net, into $work/FAB/ENG/{osm,ours}, with osm.entries and
# ours.entries; ours verified into ours.json. 1 (counted as failed) if a side
# did not route.
run_pair() {
  local fab=$1 eng=$2 osm_args=$3 our_args=$4 dir=$work/$1/$2 net=$work/$1/fabric.net
  # shellcheck disable=SC2086 # the argument strings are split on purpose
  if ! osm_run "$net" "$dir/osm" -R "$eng" -l "$lmc" $osm_args -D 0x43 ||
     ! grep -q "$eng tables configured" "$dir/osm/osm.log"; then
    bad "$fab $eng: OpenSM did not route with $eng"; tail -3 "$dir/osm/osm.log" 2>/dev/null
    return 1
  fi
  # shellcheck disable=SC2086
  if ! "$LANES" route -e "$eng" $our_args "$net" -o "$dir/ours" >"$dir/route.out" 2>&1; then
    bad "$fab $eng: lanes route failed: $(cat "$dir/route.out")"; return 1
  fi
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  "$LANES" verify "$net" "$dir/ours" --vls 8 --ebb-patterns 0 --json >"$dir/ours.json" 2>/dev/null
  return 0
}

# contains FAB ENG: every OpenSM entry is ours.
contains() {
  local dir=$work/$1/$2 total missing
  total=$(wc -l <"$dir/osm.entries")
  missing=$(comm -23 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  if [ "$total" -gt 0 ] && [ "$missing" = 0 ]; then
    ok "$1 $2: all $total of OpenSM's entries are ours (lanes adds $(($(wc -l <"$dir/ours.entries") - total)))"
  else
    bad "$1 $2: $missing of OpenSM's $total entries are not ours (< OpenSM only, > lanes only):"
    diff "$dir/osm.entries" "$dir/ours.entries" | grep '^[<>]' | head -8
  fi
}

# split_all FAB ENG: seed 002's rule, in OpenSM's tables and ours.
split_all() {
  local dir=$work/$1/$2 net=$work/$1/fabric.net om od um ud
  read -r om od <<<"$(lmc_split "$net" "$dir/osm.entries")"
  read -r um ud <<<"$(lmc_split "$net" "$dir/ours.entries")"
  if [ "${om:-0}" -gt 0 ] && [ "$od" = "$om" ] && [ "$um" = "$om" ] && [ "$ud" = "$um" ]; then
    ok "$1 $2: base and base + 1 leave by different ports at all $om switch/CA pairs with two min-hop ports (OpenSM too)"
  else
    bad "$1 $2: base and base + 1 split at ${ud:-?} of ${um:-?} switch/CA pairs with two min-hop ports (OpenSM: ${od:-?} of ${om:-?})"
  fi
}

# routed FAB ENG [deadlock-free] [shortest]: ours reach every LID without
# loops; with deadlock-free, no credit loop within 2 VLs; with shortest,
# stretch 1; base + 1 leaves by another port than base somewhere.
routed() {
  local fab=$1 eng=$2 dir=$work/$1/$2 net=$work/$1/fabric.net o u what=""
  shift 2
  local js=$dir/ours.json reach df vls stretch
  reach=$(json_field "$js" reachable); df=$(json_field "$js" deadlock_free)
  vls=$(json_field "$js" vls_used); stretch=$(json_field "$js" stretch_max)
  o=$(lmc_split "$net" "$dir/osm.entries"); u=$(lmc_split "$net" "$dir/ours.entries")
  local fails=""
  [ "$reach" = true ] || fails="$fails unreachable LIDs;"
  case " $* " in *" deadlock-free "*)
    what="$what, free of credit loops on $vls VL(s)"
    { [ "$df" = true ] && [ -n "$vls" ] && [ "$vls" -le 2 ]; } ||
      fails="$fails deadlock-free '$df' on '$vls' VLs (budget 2);" ;;
  esac
  case " $* " in *" shortest "*)
    what="$what, shortest paths"
    [ "$stretch" = 1.0 ] || fails="$fails stretch '$stretch';" ;;
  esac
  [ "${u#* }" -gt 0 ] || fails="$fails base + 1 always on base's port;"
  if [ -z "$fails" ]; then
    ok "$fab $eng: every LID of every CA reached$what; base + 1 split from base at ${u#* } of ${u% *} switch/CA pairs with two min-hop ports (OpenSM: ${o#* })"
  else
    bad "$fab $eng:$fails"
  fi
}

# balance FAB: our sssp's max routes per channel at most 5% over OpenSM's.
balance() {
  local dir=$work/$1/sssp osm ours
  "$LANES" verify "$work/$1/fabric.net" --lfts "$dir/osm/opensm-lfts.dump" --ebb-patterns 0 \
    --json >"$dir/osm.json" 2>/dev/null
  osm=$(rpc_max "$dir/osm.json"); ours=$(rpc_max "$dir/ours.json")
  if [ -n "$osm" ] && [ -n "$ours" ] && [ $((ours * 20)) -le $((osm * 21)) ]; then
    ok "$1 sssp: max routes per channel $ours, OpenSM $osm"
  else
    bad "$1 sssp: max routes per channel ${ours:-?}, OpenSM ${osm:-?} (more than 5% over)"
  fi
}

# lids_kept FAB: OpenSM (minhop's run) kept our LIDs, and routed all 2^$lmc
# LIDs of every CA port on every switch.
lids_kept() {
  local dir=$work/$1 nsw nca want got per=$((1 << lmc))
  subnet_nodes "$dir/minhop/osm" >"$dir/osm.nodes"
  netfile_nodes "$dir/fabric.net" >"$dir/lanes.nodes"
  nsw=$(grep -c '^Switch' "$dir/fabric.net")
  nca=$(grep -c "lmc $lmc" "$dir/fabric.net")
  want=$((nsw * (nsw + per * nca)))
  got=$(wc -l <"$dir/minhop/osm.entries")
  if ! diff -q "$dir/lanes.nodes" "$dir/osm.nodes" >/dev/null; then
    bad "$1: OpenSM's LIDs differ from ours (< ours, > OpenSM's):"
    diff "$dir/lanes.nodes" "$dir/osm.nodes" | head -6
  elif [ "$nca" = 0 ] || [ "$got" != "$want" ]; then
    bad "$1: OpenSM's minhop has $got entries, $nsw switches x ($nsw + $per x $nca CA LIDs) = $want expected"
  else
    ok "$1: OpenSM keeps our LIDs; its minhop routes $nsw switch LIDs and $per x $nca CA LIDs on $nsw switches"
  fi
}

# dnup_judged FAB: as dnup_vs_opensm.sh: ours free of credit loops; where
# OpenSM's dnup tables are too, every entry of theirs is ours.
dnup_judged() {
  local dir=$work/$1/dnup osm_free ours_free
  "$LANES" verify "$work/$1/fabric.net" --lfts "$dir/osm/opensm-lfts.dump" --ebb-patterns 0 \
    --json >"$dir/osm.json" 2>/dev/null
  osm_free=$(json_field "$dir/osm.json" deadlock_free)
  ours_free=$(json_field "$dir/ours.json" deadlock_free)
  if [ "$ours_free" != true ]; then
    bad "$1 dnup: our tables have a credit loop (${ours_free:-no verdict})"
  elif [ "$osm_free" = true ]; then
    contains "$1" dnup
  elif [ "$osm_free" = false ]; then
    ok "$1 dnup: OpenSM's dnup has a credit loop; ours is deadlock-free"
  else
    bad "$1 dnup: lanes verify gave no verdict on OpenSM's tables"
  fi
}

# first_root DIR: DIR/roots, the first switch of DIR/fabric.net as updn's one
# root (a torus has no root for OpenSM to detect; it would fall back to minhop).
first_root() {
  grep -m1 '^switchguid=' "$1/fabric.net" | cut -d= -f2 >"$1/roots"
}

lmc=1
fab=fattree_k4n3
if lmc_net "$work/$fab" 1 fattree k=4 n=3; then
  run_pair $fab minhop "" "" && { lids_kept $fab; same_entries "$fab minhop" "$work/$fab/minhop"
    split_all $fab minhop; }
  run_pair $fab dfsssp "-Q" "--vls 15" && same_entries "$fab dfsssp" "$work/$fab/dfsssp"
  run_pair $fab updn "" "" && { contains $fab updn; split_all $fab updn; }
  run_pair $fab dnup "" "" && { contains $fab dnup; split_all $fab dnup; }
  run_pair $fab sssp "" "" && { routed $fab sssp shortest; balance $fab; }
  run_pair $fab nue "-Q --nue_max_num_vls 2" "--vls 2" && routed $fab nue deadlock-free
else
  bad "$fab: could not write the fabric at LMC 1"
fi

fab=torus_4x4
if lmc_net "$work/$fab" 1 torus k=4x4 p=2; then
  run_pair $fab minhop "" "" && { lids_kept $fab; same_entries "$fab minhop" "$work/$fab/minhop"
    split_all $fab minhop; }
  run_pair $fab dfsssp "-Q" "--vls 15" && same_entries "$fab dfsssp" "$work/$fab/dfsssp"
  first_root "$work/$fab"
  run_pair $fab updn "-a $work/$fab/roots" "--roots $work/$fab/roots" && contains $fab updn
  run_pair $fab dnup "" "" && dnup_judged $fab
  if run_pair $fab sssp "" ""; then
    routed $fab sssp shortest; balance $fab
    if [ "$(json_field "$work/$fab/sssp/ours.json" deadlock_free)" = false ]; then
      ok "$fab sssp: shortest paths close a credit loop here (so nue's freedom below is earned)"
    else
      bad "$fab sssp: expected a credit loop in sssp's tables on a torus"
    fi
  fi
  run_pair $fab nue "-Q --nue_max_num_vls 2" "--vls 2" && routed $fab nue deadlock-free
else
  bad "$fab: could not write the fabric at LMC 1"
fi

lmc=2
fab=torus_4x4_lmc2
if lmc_net "$work/$fab" 2 torus k=4x4 p=2; then
  run_pair $fab minhop "" "" && { lids_kept $fab; same_entries "$fab minhop" "$work/$fab/minhop"; }
  first_root "$work/$fab"
  run_pair $fab updn "-a $work/$fab/roots" "--roots $work/$fab/roots" && contains $fab updn
  run_pair $fab dnup "" "" && dnup_judged $fab
else
  bad "$fab: could not write the fabric at LMC 2"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
