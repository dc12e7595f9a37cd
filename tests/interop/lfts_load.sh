#!/usr/bin/env bash
# lfts_load.sh - the opensm-lfts.dump that `lanes route` writes is what a
# real OpenSM loads: for each fabric, route it with lanes (minhop), start
# OpenSM on ibsim with `-R file -U <our dump>`, read the tables back from
# the simulated switches with dump_lfts (infiniband-diags) and check that
# every (switch, LID, port) entry equals what we wrote, and that OpenSM's
# own opensm-lfts.dump of the loaded tables is our file line for line
# (OpenSM orders the switch blocks by its GUID map, we by node order, so
# the blocks are compared as a set). OpenSM's log must say that the file
# engine configured the tables, since lanes' minhop can equal OpenSM's own.
# Also: the opensm-subnet.lst of that run, read by lanes, gives the same
# `lanes topo info` summary (counts, radix, diameter, max LID, the structure
# recognised) as our fabric.
# Prints "N passed, M failed".
set -u
here=$(dirname "$0")
. "$here/osm_lib.bash"
. "$here/osm_daemon.bash"
work=$(mktemp -d)
trap 'osm_daemon_stop; rm -rf "$work"' EXIT

# lft_entries_all FILE: "switchguid lid port" for every entry of an LFT dump
# (OpenSM's or ibroute/dump_lfts'), numbers normalised, sorted.
lft_entries_all() {
  awk 'function hex(s,  v, i) {
         v = 0; s = tolower(substr(s, 3))
         for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
         return v
       }
       /^Unicast lids/ {
         if (match($0, / guid 0x[0-9A-Fa-f]+/)) g = tolower(substr($0, RSTART + 6, RLENGTH - 6))
         next
       }
       /^0x[0-9A-Fa-f]+ +[0-9]+/ { printf "%s %d %d\n", g, hex($1), $2 + 0 }' "$1" | sort
}

# lft_blocks FILE: every line tagged with its block's switch GUID and its
# position in the block, sorted by GUID, so that block order does not count.
lft_blocks() {
  awk 'function hex(s,  v, i) {
         v = 0; s = tolower(substr(s, 3))
         for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
         return v
       }
       /^Unicast lids/ { match($0, / guid 0x[0-9A-Fa-f]+/); g = substr($0, RSTART + 6, RLENGTH - 6); i = 0 }
       { printf "%s %08d %s\n", g, i++, $0 }' "$1" | sort -k1,1 -k2,2
}

check_fabric() {
  local name=$1; shift
  local dir=$work/$name
  mkdir -p "$dir"
  if ! "$LANES" topo convert "$@" --to ibsim -o "$dir/fabric.net" >"$dir/convert.out" 2>&1; then
    bad "$name: lanes topo convert: $(cat "$dir/convert.out")"; return
  fi
  if ! "$LANES" route -e minhop "$dir/fabric.net" -o "$dir/route" >"$dir/route.out" 2>&1 ||
     [ ! -s "$dir/route/opensm-lfts.dump" ]; then
    bad "$name: lanes route -e minhop: $(cat "$dir/route.out")"; return
  fi
  if ! osm_daemon_start "$dir/fabric.net" "$dir/osm" -R file -U "$dir/route/opensm-lfts.dump" \
       -D 0x43; then
    bad "$name: OpenSM did not come up with our LFTs"; return
  fi
  osm_query dump_lfts >"$dir/readback.txt"
  osm_daemon_stop
  # lanes' minhop may equal OpenSM's: make sure the tables came from the file
  if ! grep -q "file tables configured on all switches" "$dir/osm/osm.log"; then
    bad "$name: OpenSM did not route with our file (no 'file tables configured' in its log)"
    return
  fi
  lft_entries_all "$dir/route/opensm-lfts.dump" >"$dir/written"
  lft_entries_all "$dir/readback.txt" >"$dir/read"
  local n
  n=$(wc -l <"$dir/written")
  if [ "$n" -eq 0 ]; then
    bad "$name: our dump has no entries"
  elif diff "$dir/written" "$dir/read" >"$dir/diff"; then
    ok "$name: $n LFT entries read back from the switches equal the ones written"
  else
    bad "$name: LFTs read back differ from ours (< written, > read back):"; head "$dir/diff"
  fi
  # the recognised structure lists switches in node order, which OpenSM's
  # file does not keep: compared as the text line (kind, groups, sizes)
  "$LANES" topo info "$dir/fabric.net" --json | awk '/^  "structure":/ { s = 1 } !s; s && /^  }/ { s = 0 }' \
    >"$dir/ours.json" 2>&1
  "$LANES" topo info "$dir/osm/opensm-subnet.lst" --json |
    awk '/^  "structure":/ { s = 1 } !s; s && /^  }/ { s = 0 }' >"$dir/osm.json" 2>&1
  "$LANES" topo info "$dir/fabric.net" | grep '^structure' >>"$dir/ours.json"
  "$LANES" topo info "$dir/osm/opensm-subnet.lst" | grep '^structure' >>"$dir/osm.json"
  if diff "$dir/ours.json" "$dir/osm.json" >"$dir/diff3"; then
    ok "$name: OpenSM's opensm-subnet.lst, read by lanes, has our fabric's summary"
  else
    bad "$name: opensm-subnet.lst read by lanes differs (< ours, > OpenSM's):"; head "$dir/diff3"
  fi
  lft_blocks "$dir/route/opensm-lfts.dump" >"$dir/ours.blocks"
  lft_blocks "$dir/osm/opensm-lfts.dump" >"$dir/osm.blocks"
  if diff "$dir/ours.blocks" "$dir/osm.blocks" >"$dir/diff2"; then
    ok "$name: OpenSM's opensm-lfts.dump of the loaded tables is our file, line for line"
  else
    bad "$name: OpenSM's dump differs from ours (< ours, > OpenSM's):"; head "$dir/diff2"
  fi
}

if ! "$LANES" route --help >/dev/null 2>&1; then
  echo "FAIL: this lanes has no 'route' command"
  echo "0 passed, 1 failed"
  exit 1
fi
check_fabric torus_4x4 torus k=4x4 p=1
check_fabric 4ary3tree "$DATA/ibsim_4ary3tree_k-4-n-3-Full.topology"
check_fabric dragonfly_72 dragonfly a=4 p=2 h=2
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
