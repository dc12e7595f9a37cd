# osm_lib.bash - run the real ibsim and OpenSM on one fabric (sourced by interop tests).
#
# ibsim_start NETFILE DIR: start ibsim on NETFILE with its own socket name
# (osm_sock), its log in DIR; osm_ibsim is its PID. ibsim_stop stops it by PID.
# Needs Debian's ibsim-utils and opensm (scripts/install-deps.sh installs them).
ibsim_start() {
  local net=$1 dir=$2 tries=0
  osm_sock="lanes_$$_${RANDOM}"
  IBSIM_SOCKNAME=$osm_sock timeout 900 ibsim -s -n -N 4096 -S 4096 -P 65536 "$net" \
    >"$dir/ibsim.log" 2>&1 &
  osm_ibsim=$!
  # ibsim prints its limits once the fabric is parsed and the socket is up
  until grep -q MaxMcastCap "$dir/ibsim.log" 2>/dev/null; do
    tries=$((tries + 1))
    if [ $tries -gt 100 ] || ! kill -0 $osm_ibsim 2>/dev/null; then
      echo "ibsim did not start on $net:"; cat "$dir/ibsim.log"
      ibsim_stop; return 1
    fi
    sleep 0.1
  done
  sleep 0.2
}

ibsim_stop() {
  kill "$osm_ibsim" 2>/dev/null
  wait "$osm_ibsim" 2>/dev/null
}

# osm_run NETFILE DIR [opensm args...]: run OpenSM once (-o) on ibsim through
# ibsim-run with its dumps in DIR (and from DIR, so nothing is left in the
# caller's folder; file arguments must be absolute).
osm_run() {
  local net=$1 dir=$2 rc; shift 2
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
  ibsim_start "$net" "$dir" || return 1
  # in DIR: ibsim-run's umad2sim makes its sys-PID folder in the current one
  (cd "$dir" && IBSIM_SOCKNAME=$osm_sock OSM_TMP_DIR=$dir OSM_CACHE_DIR=$dir \
    timeout 300 ibsim-run opensm -o -e -f "$dir/osm.log" --dump_files_dir "$dir" "$@" \
    >"$dir/opensm.out" 2>&1)
  rc=$?
  ibsim_stop
  return $rc
}

# osm_sweeps NETFILE DIR N [opensm args...]: run OpenSM as the daemon it is
# in production, with every sweep heavy (force_heavy_sweep, one a second), so
# that it routes the fabric again at each; stop it by its PID once its log in
# DIR shows N routings done (or after 600 s). 1 if it never routed N times.
osm_sweeps() {
  local net=$1 dir=$2 n=$3 osm waited=0 done=0; shift 3
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
  printf 'force_heavy_sweep TRUE\nsweep_interval 1\n' >"$dir/sweeps.conf"
  ibsim_start "$net" "$dir" || return 1
  (cd "$dir" && IBSIM_SOCKNAME=$osm_sock OSM_TMP_DIR=$dir OSM_CACHE_DIR=$dir \
    exec ibsim-run opensm -F "$dir/sweeps.conf" -e -f "$dir/osm.log" \
    --dump_files_dir "$dir" "$@" >"$dir/opensm.out" 2>&1) &
  osm=$! # the subshell execs ibsim-run, which execs opensm
  while [ "$waited" -lt 6000 ] && kill -0 $osm 2>/dev/null; do
    done=$(grep -c "tables configured on all switches" "$dir/osm.log" 2>/dev/null)
    [ "${done:-0}" -ge "$n" ] && break
    sleep 0.1; waited=$((waited + 1))
  done
  kill $osm 2>/dev/null
  wait $osm 2>/dev/null
  ibsim_stop
  [ "${done:-0}" -ge "$n" ]
}

# subnet_nodes DIR: "TYPE PORTGUID LID" (hex GUID, decimal LID) for every
# node in opensm-subnet.lst, sorted.
subnet_nodes() {
  grep -o '{ [A-Z-]* Ports:[0-9A-Fa-f]* SystemGUID:[0-9A-Fa-f]* NodeGUID:[0-9A-Fa-f]* PortGUID:[0-9A-Fa-f]* VenID:[0-9A-Fa-f]* DevID:[0-9A-Fa-f]* Rev:[0-9A-Fa-f]* {[^}]*} LID:[0-9A-Fa-f]*' "$1/opensm-subnet.lst" |
    sed -E 's/^\{ ([A-Z]+)[A-Z-]* .*PortGUID:([0-9A-Fa-f]+) .* LID:([0-9A-Fa-f]+)$/\1 \2 \3/' |
    while read -r type guid lid; do
      printf '%s %016x %d\n' "$type" "$((16#$guid))" "$((16#$lid))"
    done | sort -u
}

# subnet_count DIR SW|CA: distinct nodes of that type in opensm-subnet.lst.
subnet_count() {
  grep -o "{ $2[A-Z-]* Ports:[0-9A-Fa-f]* SystemGUID:[0-9A-Fa-f]* NodeGUID:[0-9A-Fa-f]*" "$1/opensm-subnet.lst" |
    sed 's/.*NodeGUID://' | sort -u | wc -l
}

# netfile_nodes NETFILE: the same list from an ibsim net file that lanes wrote
# (switch LIDs on the Switch lines, CA port LIDs on the port lines; a CA port
# GUID is its node GUID plus the port number, as ibsim assigns them).
netfile_nodes() {
  local guid=0 type="" line
  while IFS= read -r line; do
    case $line in
      switchguid=*) guid=$((${line#switchguid=})); type=SW ;;
      caguid=*) guid=$((${line#caguid=})); type=CA ;;
      Switch*) [[ $line =~ \ lid\ ([0-9]+) ]] && printf 'SW %016x %d\n' "$guid" "${BASH_REMATCH[1]}" ;;
      \[*)
        if [ "$type" = CA ] && [[ $line =~ ^\[([0-9]+)\].*\ lid\ ([0-9]+) ]]; then
          printf 'CA %016x %d\n' "$((guid + BASH_REMATCH[1]))" "${BASH_REMATCH[2]}"
        fi ;;
    esac
  done <"$1" | sort -u
}

fail() { echo "FAIL: $*"; exit 1; }

# Counters for the summary line "N passed, M failed": ok and bad print one
# result and count it.
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# lft_entries DUMP: "GUID LID PORT" per routed entry of an opensm-lfts.dump
# (drops left out), LID in decimal, sorted.
lft_entries() {
  awk '
    function hex(s,   i, n) {
      n = 0; s = tolower(substr(s, 3))
      for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return n
    }
    /^Unicast lids/ { for (i = 1; i <= NF; i++) if ($i == "guid") g = tolower($(i + 1)); next }
    /^0x[0-9a-fA-F]+ [0-9]+/ { if ($2 + 0 != 255) printf "%s %d %d\n", g, hex($1), $2 + 0 }
  ' "$1" | sort
}

# same_entries NAME DIR: OpenSM's DIR/osm/opensm-lfts.dump against ours in
# DIR/ours: ok when the routed entry sets are identical, else the first
# differences (< OpenSM only, > lanes only).
same_entries() {
  local name=$1 dir=$2 total ours agree
  lft_entries "$dir/osm/opensm-lfts.dump" >"$dir/osm.entries"
  lft_entries "$dir/ours/opensm-lfts.dump" >"$dir/ours.entries"
  total=$(wc -l <"$dir/osm.entries")
  ours=$(wc -l <"$dir/ours.entries")
  agree=$(comm -12 "$dir/osm.entries" "$dir/ours.entries" | wc -l)
  if [ "$total" -gt 0 ] && [ "$agree" = "$total" ] && [ "$ours" = "$total" ]; then
    ok "$name: all $total entries agree"
  else
    bad "$name: $agree entries agree; OpenSM has $total, lanes $ours. First differences (< OpenSM only, > lanes only):"
    diff "$dir/osm.entries" "$dir/ours.entries" | grep '^[<>]' | head -8
  fi
}

# json_field FILE NAME: the value of the first "NAME": field of a lanes JSON report.
json_field() { grep -o "\"$2\":[^,}]*" "$1" | head -1 | cut -d: -f2 | tr -d ' "'; }

# rpc_max FILE: max routes per channel of a `lanes verify --json` report.
rpc_max() { tr -d '\n ' <"$1" | grep -o '"routes_per_channel":{[^}]*}' | grep -o '"max":[0-9]*' | cut -d: -f2; }

# guid_order_net DIR: DIR/fabric.net, a 5x5 torus (2 CAs per switch) as an
# ibsim net file whose switch GUIDs in byte-swapped order (OpenSM's GUID
# map key) are not in numeric order; 1 if the conversion fails.
guid_order_net() {
  mkdir -p "$1"
  "$LANES" topo convert torus k=5x5 p=2 --to ibsim -o "$1/plain.net" || return 1
  awk '/^switchguid=/ { i = n++; printf "switchguid=0x0002c90300%02x%02x%02x\n", (i * 5) % 256, i, (i * 37 + 11) % 256; next }
       { print }' "$1/plain.net" >"$1/fabric.net"
}

# lmc_net DIR LMC FABRIC...: DIR/fabric.net, FABRIC with every CA port at
# LMC. The CA port LIDs are cleared so that lanes assigns aligned ranges,
# then the file is written again with those LIDs.
lmc_net() {
  local dir=$1 lmc=$2; shift 2
  mkdir -p "$dir"
  "$LANES" topo convert "$@" --to ibsim -o "$dir/lmc0.net" || return 1
  awk -v lmc="$lmc" '/^caguid=/ { ca = 1 } /^switchguid=/ { ca = 0 }
       ca && /^\[/ { if (!sub(/ lid [0-9]+ lmc 0/, " lid 0 lmc " lmc)) bad = 1 }
       { print } END { exit bad }' "$dir/lmc0.net" >"$dir/lmcn.net" || return 1
  "$LANES" topo convert "$dir/lmcn.net" --to ibsim -o "$dir/fabric.net"
}
