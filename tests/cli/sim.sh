#!/usr/bin/env bash
# `lanes sim`: the table, CSV and JSON shapes, the load ranges, the plot
# (one line per engine and panel, written atomically), tables read from a
# routing DIR against -e, a deadlock and its witness, refusals as rows, bad
# options named, and output independent of --threads. Short windows keep it
# fast; the numbers checked are analytic (zero-load latency, accepted = offered
# below saturation, a ring whose one-way traffic must deadlock).
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

DF=(dragonfly a=4 p=2 h=2)
SHORT=(--warmup 20000 --time 100000)
# the data rows of a table: after the two header lines, the blank and the column names
rows() { awk 'NR > 4 && NF { print } /^$/ && NR > 4 { exit }' "$1"; }

# one row per engine and load, in -e order, the range A:B:STEP including B
check "table" 0 "$LANES" sim -e dla,d3r,dfsssp,updn "${DF[@]}" --pattern uniform --load 0.1:1.0:0.3 "${SHORT[@]}"
cp "$work/out" "$work/table"
expect "fabric line" "$work/table" '^dragonfly a=4 p=2 h=2: 36 switches, 72 CAs; pattern uniform; 20000 ns warm-up, 100000 ns measured per point$'
expect "columns" "$work/table" '^ENGINE +LOAD +ACCEPTED +LAT-AVG-NS +LAT-P99-NS +DEADLOCK +LINK-MAX$'
same "16 rows" "$(rows "$work/table" | wc -l)" 16
same "engines in -e order" "$(rows "$work/table" | awk '{ print $1 }' | uniq | tr '\n' ' ')" "dla d3r dfsssp updn "
same "loads 0.1 0.4 0.7 1.0" "$(rows "$work/table" | awk '$1 == "dla" { print $2 }' | tr '\n' ' ')" \
  "0.100 0.400 0.700 1.000 "
same "no deadlock" "$(rows "$work/table" | awk '{ print $6 }' | sort -u)" no
same "nothing on stderr when it is no terminal" "$(wc -c <"$work/err")" 0
# below saturation every packet offered is delivered: accepted = offered (within noise)
same "accepted = offered at 0.1" "$(rows "$work/table" | awk '$2 == "0.100" && ($3 < 0.09 || $3 > 0.11)' | wc -l)" 0
# accepted never exceeds the link bandwidth, nor (beyond noise) what is offered
same "accepted <= offered" "$(rows "$work/table" | awk '$3 > $2 * 1.05 || $3 > 1' | wc -l)" 0
check "ten points" 0 "$LANES" sim -e dla "${DF[@]}" --load 0.1:1.0:0.1 "${SHORT[@]}"
same "0.1:1.0:0.1 is ten loads" "$(rows "$work/out" | awk '{ print $2 }' | tr '\n' ' ')" \
  "0.100 0.200 0.300 0.400 0.500 0.600 0.700 0.800 0.900 1.000 "
check "comma list" 0 "$LANES" sim -e dla "${DF[@]}" --load 0.25,0.05 "${SHORT[@]}"
same "a list in its order" "$(rows "$work/out" | awk '{ print $2 }' | tr '\n' ' ')" "0.250 0.050 "

# zero-load latency on one switch (fattree k=4 n=1): two cables, one switch,
# one packet time: 2 x 10 + 100 + 4096 x 8 / 32 = 1144 ns, and with other
# link and switch parameters 2 x 50 + 200 + 4096 x 8 / 64 = 812 ns
check "zero load" 0 "$LANES" sim -e minhop fattree k=4 n=1 --load 0.005 --warmup 0 --time 400000
same "zero-load latency" "$(rows "$work/out" | awk '{ print $4 }')" 1144.0
check "zero load, other links" 0 "$LANES" sim -e minhop fattree k=4 n=1 --load 0.005 --warmup 0 \
  --time 400000 --link-gbps 64 --link-latency 50 --switch-latency 200
same "zero-load latency, other links" "$(rows "$work/out" | awk '{ print $4 }')" 812.0

# CSV: a header and one row per engine and load
check "csv" 0 "$LANES" sim -e dla,updn "${DF[@]}" --load 0.2:0.8:0.3 "${SHORT[@]}" --csv
same "csv header" "$(head -1 "$work/out")" \
  "engine,load,accepted,latency_avg_ns,latency_p99_ns,deadlock,link_utilisation_avg,link_utilisation_max,packets,simulated_ns,error"
same "csv rows" "$(tail -n +2 "$work/out" | wc -l)" 6
same "csv fields" "$(tail -n +2 "$work/out" | awk -F, '{ print NF }' | sort -u)" 11
same "csv loads" "$(tail -n +2 "$work/out" | cut -d, -f1,2 | tr '\n' ' ')" \
  "dla,0.2 dla,0.5 dla,0.8 updn,0.2 updn,0.5 updn,0.8 "

# JSON: the issue's keys, a point per load, null deadlock when none
check "json" 0 "$LANES" sim -e dla,updn "${DF[@]}" --load 0.3,0.6 "${SHORT[@]}" --json
for k in fabric pattern engines; do same "json key $k" "$(grep -c "^  \"$k\":" "$work/out")" 1; done
for k in load accepted latency_avg_ns latency_p99_ns deadlock link_utilisation_avg \
         link_utilisation_max vl_utilisation packets simulated_ns; do
  same "json point key $k" "$(grep -c "\"$k\":" "$work/out")" 4
done
same "json engines" "$(grep -o '"engine":"[^"]*"' "$work/out" | tr '\n' ' ')" '"engine":"dla" "engine":"updn" '
same "json fabric" "$(grep -o '"fabric":"[^"]*"' "$work/out")" '"fabric":"dragonfly a=4 p=2 h=2"'
same "json deadlock null" "$(grep -c '"deadlock":null' "$work/out")" 4
# a simulated window of 120 us: warm-up + measured
same "json simulated_ns" "$(grep -c '"simulated_ns":120000' "$work/out")" 4

# --placement random: named in the header and the JSON; the stencil on the
# 342-endpoint dragonfly below saturation delivers what is offered either way
check "placement random" 0 "$LANES" sim -e dla dragonfly a=6 p=3 h=3 --pattern stencil3d --placement random \
  --load 0.1 "${SHORT[@]}"
expect "placement in the header" "$work/out" '; pattern stencil3d, random placement; '
same "placement: accepted = offered" "$(rows "$work/out" | awk '$3 < 0.09 || $3 > 0.11' | wc -l)" 0
check "placement json" 0 "$LANES" sim -e dla "${DF[@]}" --pattern shift --placement random --load 0.1 \
  "${SHORT[@]}" --json
same "json placement" "$(grep -o '"placement":"[^"]*"' "$work/out")" '"placement":"random"'
check "placement linear json" 0 "$LANES" sim -e dla "${DF[@]}" --load 0.1 "${SHORT[@]}" --json
same "json placement linear" "$(grep -o '"placement":"[^"]*"' "$work/out")" '"placement":"linear"'

# --vls is the switches' data VLs: one utilisation per VL, and the VLs' shares
# add up to the mean link utilisation (every link-busy second is on some VL)
check "json vls" 0 "$LANES" sim -e dfsssp "${DF[@]}" --vls 4 --load 0.6 "${SHORT[@]}" --json
same "four VLs" "$(awk '/"vl_utilisation"/ { on = 1; next } on && /\]/ { on = 0 } on { n++ } END { print n }' "$work/out")" 4
same "VL shares add up" "$(awk -F: '/"link_utilisation_avg"/ { avg = $2 + 0 }
  /"vl_utilisation"/ { on = 1; next } on && /\]/ { on = 0 } on { sum += $1 }
  END { d = sum - avg; print (d < 1e-6 && d > -1e-6 && avg > 0) ? "yes" : "no " sum " " avg }' "$work/out")" yes
same "dfsssp spreads over the VLs" "$(awk '/"vl_utilisation"/ { on = 1; next } on && /\]/ { on = 0 } on && $1 + 0 > 0 { n++ } END { print n }' "$work/out")" 4

# the plot: an SVG with one polyline per engine and panel, a legend, no
# temporary file left beside it
mkdir "$work/plot"
check "plot" 0 "$LANES" sim -e dla,d3r,dfsssp "${DF[@]}" --load 0.1:1.0:0.3 "${SHORT[@]}" --plot "$work/plot/p.svg"
same "only the plot in its folder" "$(ls -A "$work/plot")" p.svg
expect "an SVG" "$work/plot/p.svg" '^<svg xmlns="http://www.w3.org/2000/svg"'
expect "closed" "$work/plot/p.svg" '^</svg>$'
same "a polyline per engine and panel" "$(grep -c '<polyline' "$work/plot/p.svg")" 6
same "four points a line" "$(grep '<polyline' "$work/plot/p.svg" | sed 's/.*points="//; s/".*//' | awk '{ print NF }' | sort -u)" 4
for e in dla d3r dfsssp; do expect "legend $e" "$work/plot/p.svg" ">$e</text>"; done
expect "panel accepted" "$work/plot/p.svg" '>Accepted throughput</text>'
expect "panel latency" "$work/plot/p.svg" '>Mean latency</text>'
expect "axis label" "$work/plot/p.svg" '>offered load \(fraction of link bandwidth per host\)</text>'
expect "ticks" "$work/plot/p.svg" '>1.0</text>'
same "the table still printed" "$(rows "$work/out" | wc -l)" 12
check "plot into a missing folder" 2 "$LANES" sim -e dla "${DF[@]}" --load 0.5 "${SHORT[@]}" --plot "$work/none/p.svg"

# a routing DIR from `lanes route` gives what -e gives with the same engine and seed
check "route" 0 "$LANES" route -e dfsssp "${DF[@]}" -o "$work/rt" --seed 7
check "sim -e" 0 "$LANES" sim -e dfsssp "${DF[@]}" --load 0.3,0.9 "${SHORT[@]}" --seed 7 --sim-seed 7 --csv
cut -d, -f2- "$work/out" >"$work/by-engine"
check "sim DIR" 0 "$LANES" sim "${DF[@]}" "$work/rt" --load 0.3,0.9 "${SHORT[@]}" --sim-seed 7 --csv
cut -d, -f2- "$work/out" >"$work/by-dir"
same "DIR = -e" "$(cat "$work/by-dir")" "$(cat "$work/by-engine")"
check "sim --lfts --sl2vl --path-sl" 0 "$LANES" sim "${DF[@]}" --lfts "$work/rt/opensm-lfts.dump" \
  --sl2vl "$work/rt/opensm-sl2vl.dump" --path-sl "$work/rt/lanes-path-sl.txt" \
  --load 0.3,0.9 "${SHORT[@]}" --sim-seed 7 --csv
same "files = -e" "$(cut -d, -f2- "$work/out")" "$(cat "$work/by-engine")"
check "tables over the VLs" 2 "$LANES" sim "${DF[@]}" "$work/rt" --vls 1 "${SHORT[@]}"
expect "tables over the VLs named" "$work/err" "uses [0-9]+ VLs and the switches have 1: give --vls"
check "no such DIR" 2 "$LANES" sim "${DF[@]}" "$work/none"
expect "no such DIR named" "$work/err" "none: No such file or directory"
mkdir -p "$work/empty"
check "no tables" 2 "$LANES" sim "${DF[@]}" "$work/empty"
expect "no tables named" "$work/err" "has no opensm-lfts.dump"

# a ring of 5 switches with minimal routing on one VL: uniform traffic at full
# load fills the 1-packet buffers in both directions; its channels form a
# cycle, so it deadlocks (a result: exit 0) and a witness of 5 buffers follows
check "deadlock" 0 "$LANES" sim -e minhop torus k=5 p=1 --buffer 1 --load 1.0 --warmup 20000 --time 500000
same "deadlock column" "$(rows "$work/out" | awk '{ print $6 }')" yes
expect "witness" "$work/out" '^minhop at load 1.000: deadlock at [0-9]+ ns: a cycle of 5 \(port, VL\) buffers'
same "witness lines" "$(grep -c ' -> .* VL 0 .*waits for the next' "$work/out")" 5
check "deadlock json" 0 "$LANES" sim -e minhop torus k=5 p=1 --buffer 1 --load 1.0 --warmup 20000 --time 500000 --json
expect "json witness" "$work/out" '"deadlock":"deadlock at [0-9]+ ns: a cycle of 5'
check "deadlock csv" 0 "$LANES" sim -e minhop torus k=5 p=1 --buffer 1 --load 1.0 --warmup 20000 --time 500000 --csv
same "csv deadlock field" "$(tail -1 "$work/out" | cut -d, -f6)" yes
expect "csv: the witness on stderr" "$work/err" '^minhop at load 1.000: deadlock at [0-9]+ ns: a cycle of 5'
# one-way traffic (each host 2 switches ahead) deadlocks on any ring; updn breaks the cycle
check "updn on the ring" 0 "$LANES" sim -e updn,minhop torus k=5 p=1 --buffer 1 --load 1.0 --pattern shift --shift 2 \
  --warmup 20000 --time 300000
same "updn free, minhop deadlocked" "$(rows "$work/out" | awk '{ print $1, $6 }' | tr '\n' ' ')" "updn no minhop yes "

# a refusal is a row; the command succeeds
check "refusal" 0 "$LANES" sim -e dla,updn torus k=4x4 p=1 --load 0.5 "${SHORT[@]}"
expect "refusal row" "$work/out" '^dla +refused: not a dragonfly'
expect "updn row" "$work/out" '^updn +0.500 '
check "refusal csv" 0 "$LANES" sim -e dla,updn torus k=4x4 p=1 --load 0.5 "${SHORT[@]}" --csv
expect "refusal csv row" "$work/out" '^dla,,,,,,,,,,not a dragonfly'
check "refusal json" 0 "$LANES" sim -e dla torus k=4x4 p=1 --load 0.5 "${SHORT[@]}" --json
expect "refusal json error" "$work/out" '"error":"not a dragonfly'

# the same output for any thread count
for fmt in "" --json; do
  "$LANES" sim -e dla,minhop "${DF[@]}" --load 0.2:1.0:0.2 "${SHORT[@]}" --threads 1 $fmt >"$work/t1" 2>&1
  "$LANES" sim -e dla,minhop "${DF[@]}" --load 0.2:1.0:0.2 "${SHORT[@]}" --threads 2 $fmt >"$work/t2" 2>&1
  same "threads 1 = threads 2 ${fmt:-table}" "$(cmp -s "$work/t1" "$work/t2" && echo same)" same
done

# the progress line goes to a terminal only (script(1) gives one)
if command -v script >/dev/null; then
  script -qec "$LANES sim -e dla,updn ${DF[*]} --load 0.5,1 ${SHORT[*]} >/dev/null" /dev/null >"$work/tty" 2>&1
  expect "progress on a terminal" "$work/tty" 'sim: updn: point 4/4, .* ms simulated, .* M events/s, ETA 0 s'
fi

# bad options exit 2 naming the option
bad() {
  local opt=$1; shift
  check "bad $opt $*" 2 "$LANES" sim -e dla "${DF[@]}" "${SHORT[@]}" "$opt" "$@"
  expect "bad $opt named" "$work/err" "$opt"
  same "bad $opt: no table" "$(wc -c <"$work/out")" 0
}
bad --load 1.5
bad --load 0.5:0.1:0.1
bad --load 0.1:1:0
bad --load 0.1:1
bad --load 0.1,,0.2
bad --load x
bad --buffer 0
bad --buffer-bytes 1000
bad --packet 5000
bad --mtu abc
bad --pattern nosuch
bad --arbitration fifo
bad --injection burst
bad --time 0
bad --warmup -1
bad --link-gbps nan
bad --switch-latency ""
bad --hotspot-fraction 2
bad --placement block
bad --vls 0
bad --threads x
check "csv and json" 2 "$LANES" sim -e dla "${DF[@]}" --csv --json
check "no routing" 2 "$LANES" sim "${DF[@]}"
expect "no routing named" "$work/err" 'give -e ENGINE'
check "-e and DIR" 2 "$LANES" sim -e dla "${DF[@]}" "$work/rt"
check "unknown engine" 2 "$LANES" sim -e nosuch "${DF[@]}"
expect "unknown engine named" "$work/err" "sim: -e: no engine named 'nosuch'"
check "empty engine" 2 "$LANES" sim -e dla, "${DF[@]}"
expect "empty engine named" "$work/err" "sim: -e: empty engine name"
check "roots without updn" 2 "$LANES" sim -e dla "${DF[@]}" --roots /dev/null
check "worst case on a torus" 2 "$LANES" sim -e updn torus k=4x4 p=1 --pattern dragonfly-worst "${SHORT[@]}"
check "help" 0 "$LANES" sim --help
expect "help text" "$work/out" '^usage: lanes sim'
check "in the command list" 0 "$LANES" --help
expect "sim listed" "$work/out" '^  sim '

finish
