#!/usr/bin/env bash
# The options every command shares behave alike (issue 22, "Options a person
# can predict"): an option given twice is an error naming it, and nothing of
# the command runs.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=4x4 p=1)

# Given twice: the second value would otherwise win silently.
check "route -o twice" 2 "$LANES" route -e minhop "${T[@]}" -o "$work/a" -o "$work/b"
expect "route -o twice named" "$work/err" '^lanes: --output \(-o\) given twice$'
[ ! -e "$work/a" ] && [ ! -e "$work/b" ]; same "route -o twice wrote nothing" $? 0
check "route -e twice" 2 "$LANES" route -e minhop -e updn "${T[@]}" -o "$work/a"
expect "route -e twice named" "$work/err" '^lanes: --engine \(-e\) given twice$'
check "route --engine then -e" 2 "$LANES" route --engine minhop -e updn "${T[@]}" -o "$work/a"
expect "long and short are one option" "$work/err" 'given twice'
check "verify --vls twice" 2 "$LANES" verify -e minhop --vls 2 --vls 3 "${T[@]}"
expect "verify --vls twice named" "$work/err" '^lanes: --vls given twice$'
check "compare --json twice" 2 "$LANES" compare "${T[@]}" -e minhop --json --json
expect "compare --json twice named" "$work/err" '^lanes: --json given twice$'
check "sim --load twice" 2 "$LANES" sim -e minhop "${T[@]}" --load 0.1 --load 0.2
expect "sim --load twice named" "$work/err" '^lanes: --load given twice$'
check "topo info --fail-links twice" 2 "$LANES" topo info "${T[@]}" --fail-links 1 --fail-links 2
expect "topo info twice named" "$work/err" '^lanes: --fail-links given twice$'
check "topo gen --to twice" 2 "$LANES" topo gen "${T[@]}" --to ibsim --to dot
expect "topo gen twice named" "$work/err" '^lanes: --to given twice$'
! grep -q '^usage:' "$work/err"; same "no usage text after the message" $? 0
check "--help twice is fine" 0 "$LANES" route --help --help

# Times carry a unit that shows their size (a 20 µs routing is not "0.000 s"),
# and route says how long writing the files took.
check "route" 0 "$LANES" route -e minhop "${T[@]}" -o "$work/r"
expect "route times with units" "$work/out" \
  'routed 16 switches and 32 LIDs in [0-9.]+ (µs|ms|s) with .* wrote .*/ in [0-9.]+ (µs|ms|s)$'
check "compare" 0 "$LANES" compare "${T[@]}" -e minhop --ebb-patterns 0
expect "compare time column with a unit" "$work/out" '^minhop .* [0-9.]+ (µs|ms|s)$'

# Out of memory is exit 1 with "out of memory" (the input was fine; exit 2 is
# for bad input). The LFTs of this torus alone are 80 MB; address space is
# capped at 40 MB. Sanitizer builds reserve terabytes of address space and
# cannot run under ulimit -v.
if ! grep -qa -e __asan_init -e __tsan_init "$LANES"; then
  check "route out of memory" 1 bash -c "ulimit -v 40000; exec \"\$0\" route -e updn torus k=16x16x16 p=4 -o \"\$1\"" "$LANES" "$work/oom"
  expect "route out of memory named" "$work/err" '^lanes: updn: out of memory'
  check "compare out of memory" 1 bash -c "ulimit -v 40000; exec \"\$0\" compare -e updn --ebb-patterns 0 torus k=16x16x16 p=4" "$LANES"
  expect "compare out of memory named" "$work/err" 'updn failed: out of memory'
fi

# One seed per purpose: --seed the engine, --fault-seed the faults,
# --ebb-seed the bisections, --sim-seed the simulation. Each changes only
# what it names.
ebb() { "$LANES" verify -e minhop "${T[@]}" --ebb-patterns 5 "$@" --json | grep -o '"ebb":[^,]*'; }
e1=$(ebb --ebb-seed 1); e2=$(ebb --ebb-seed 2)
[ -n "$e1" ] && [ "$e1" != "$e2" ]; same "--ebb-seed draws other bisections" $? 0
same "--seed leaves the bisections alone" "$(ebb --seed 2)" "$e1"
check "fault seed" 0 "$LANES" topo info "${T[@]}" --fail-links 3 --fault-seed 2
check "verify --seed without -e" 2 "$LANES" verify "${T[@]}" "$work/r" --seed 2
expect "verify --seed without -e says which seed" "$work/err" '--seed seeds the engine of -e; the bisections take --ebb-seed'
check "sim --seed without -e" 2 "$LANES" sim "${T[@]}" "$work/r" --seed 2 --load 0.1
expect "sim --seed without -e says which seed" "$work/err" 'the traffic takes --sim-seed'
check "topo --seed" 2 "$LANES" topo info "${T[@]}" --fail-links 1 --seed 2
expect "topo --seed points to --fault-seed" "$work/err" 'fault injection takes --fault-seed'

# --ca-only is the one spelling: route and verify -e route CA LIDs only and
# verify checks CA destinations only; the old --ca-lids-only still works, with a warning.
check "route --ca-only" 0 "$LANES" route -e updn "${T[@]}" --ca-only -o "$work/ca"
check "route --ca-lids-only" 0 "$LANES" route -e updn "${T[@]}" --ca-lids-only -o "$work/ca-old"
expect "old spelling warned" "$work/err" 'warning: --ca-lids-only is now spelled --ca-only'
cmp -s "$work/ca/opensm-lfts.dump" "$work/ca-old/opensm-lfts.dump"; same "both spellings, one routing" $? 0
! cmp -s "$work/ca/opensm-lfts.dump" "$work/r/opensm-lfts.dump"; same "--ca-only drops switch LIDs" $? 0
check "verify -e --ca-only" 0 "$LANES" verify -e updn "${T[@]}" --ca-only
# 32 sources (16 CAs, 16 switches): 16 CA destinations each, 32 with switch LIDs
expect "verify -e --ca-only checks CA destinations" "$work/out" 'reachability +ok: 496 pairs'
check "verify -e" 0 "$LANES" verify -e updn "${T[@]}"
expect "verify -e checks every destination" "$work/out" 'reachability +ok: 992 pairs'

# "-" is standard input, for a fabric and for the tables, and errors name it.
"$LANES" topo gen "${T[@]}" >"$work/t.txt"
check "fabric from stdin" 0 bash -c 'exec "$0" topo info - <"$1"' "$LANES" "$work/t.txt"
expect "fabric from stdin read" "$work/out" '^switches +16$'
check "garbage on stdin" 2 bash -c 'echo garbage | exec "$0" topo info -' "$LANES"
expect "stdin named in the error" "$work/err" '^lanes: \(standard input\): not a fabric file'
"$LANES" route -e updn "${T[@]}" -o "$work/u" >/dev/null
check "LFTs from stdin" 0 bash -c 'exec "$0" verify "$1" --lfts - <"$2"' "$LANES" "$work/t.txt" "$work/u/opensm-lfts.dump"
expect "LFTs from stdin verified" "$work/out" '^reachability +ok'
check "bad LFTs on stdin" 2 bash -c 'echo x | exec "$0" verify "$1" --lfts -' "$LANES" "$work/t.txt"
expect "stdin line named" "$work/err" '^lanes: \(standard input\):1: '

# topo list --json: the generators of the text list, with their keys; the
# dimension sizes are k= in every generator that has them.
check "topo list --json" 0 "$LANES" topo list --json
cp "$work/out" "$work/list.json"
check "topo list" 0 "$LANES" topo list
same "same generators in text and JSON" \
  "$(python3 -c 'import json,sys; print(" ".join(g["name"] for g in json.load(open(sys.argv[1]))))' "$work/list.json")" \
  "$(grep -oE '^[a-z]+' "$work/out" | tr '\n' ' ' | sed 's/ $//')"
same "dimension keys" "$(python3 -c 'import json,sys; d={g["name"]: g["keys"] for g in json.load(open(sys.argv[1]))}; print(d["hyperx"], d["torus"], d["mesh"], d["sfxff"])' "$work/list.json")" \
  "['k', 'p', 'L'] ['k', 'p', 'L'] ['k', 'p', 'L'] ['preset', 'q', 'k', 'p', 'Lsf', 'L']"
check "topo list --bad" 2 "$LANES" topo list --bad

# A disconnected fabric is routed (exit 0) and verified, with a warning: a
# ring of 8 cut twice is two halves of 4 switches.
CUT=(torus k=8 p=1 --fail-links 2)
check "route a cut ring" 0 "$LANES" route -e updn "${CUT[@]}" -o "$work/cut"
expect "route warns" "$work/err" '^lanes: warning: the fabric is not connected \(2 components, 2 of them with switches\)'
check "verify a cut ring" 1 "$LANES" verify -e updn "${CUT[@]}"
expect "verify warns" "$work/err" 'warning: the fabric is not connected'
check "route a whole ring" 0 "$LANES" route -e updn torus k=8 p=1 -o "$work/whole"
! grep -q 'not connected' "$work/err"; same "no warning when connected" $? 0

# a roots file naming a GUID the fabric lacks (a switch since removed): the
# other roots are used, and the unknown one is said with its file:line
printf '0x0002c90300a00000\n0xdeadbeef\n' >"$work/roots"
check "roots with an unknown GUID" 0 "$LANES" route -e updn "${T[@]}" --roots "$work/roots" -o "$work/rr"
expect "unknown root said" "$work/err" "^lanes: warning: updn: .*/roots:2: GUID 0x00000000deadbeef names no switch or cabled CA of the fabric; skipped"

check "route -o ''" 2 "$LANES" route -e updn "${T[@]}" -o ''
expect "empty name said" "$work/err" "route: -o '': an empty name; name a directory"

# Memory estimated before routing (issue 22 item 4): the tables of a fabric
# are switches x LIDs bytes each; a bound below that is refused at once. A
# generated fabric is measured from its parameters, before it is built: 260
# bytes per switch and CA port (common.c's measured figure) plus the tables,
# here 21296 x 260 + 10648 x 21297 x 2 bytes = 438 MiB (binary units, as
# --max-memory reads them: 100M is 100 MiB).
check "over --max-memory" 1 "$LANES" route -e updn torus k=22x22x22 p=1 -o "$work/mm" --max-memory 100M
expect "estimate said" "$work/err" '^lanes: route: the torus fabric \(10648 switches, 10648 CA ports\) and its tables need about 438 MiB, more than the 100 MiB of --max-memory'
[ ! -e "$work/mm" ]; same "nothing written" $? 0
# 2^16 switches with 200 hosts each: 1.6 TiB of tables, refused before the
# 13 million nodes are built (which takes seconds and 2.7 GB)
check "refused before building" 1 timeout 3 "$LANES" route -e minhop hypercube n=16 p=200 -o "$work/mm" --max-memory 16G
expect "its size said" "$work/err" '^lanes: route: the hypercube fabric \(65536 switches, 13107200 CA ports\) and its tables need about 1\.6 TiB'
check "topo info: the fabric alone" 1 "$LANES" topo info hypercube n=16 p=200 --max-memory 1G
expect "fabric estimate" "$work/err" 'the hypercube fabric \(65536 switches, 13107200 CA ports\) needs about 3\.2 GiB, more than the 1\.0 GiB'
"$LANES" topo gen torus k=4x4 p=1 -o "$work/t16.topo"; same "a fabric file" $? 0
# an engine's own arrays count too: dfsssp's units of paths are some 20
# times the tables on a 16x16x8 torus (test_scratch.c counts them by hand)
"$LANES" topo gen torus k=16x16x8 p=1 -o "$work/t2048.topo"; same "a larger fabric file" $? 0
check "dfsssp over the bound" 1 "$LANES" route -e dfsssp "$work/t2048.topo" -o "$work/mm" --max-memory 100M
expect "dfsssp's arrays named" "$work/err" "^lanes: route: the tables of 2048 switches x 4096 LIDs and dfsssp's own arrays need about [0-9]+ MiB, more than the 100 MiB"
check "compare: the hungriest engine" 1 "$LANES" compare -e minhop,dfsssp "$work/t2048.topo" --max-memory 100M
expect "compare names dfsssp" "$work/err" "dfsssp's own arrays"
check "minhop within the same bound" 0 "$LANES" route -e minhop "$work/t2048.topo" -o "$work/mm" --max-memory 100M
check "verify -e over it" 1 "$LANES" verify -e updn "$work/t16.topo" --max-memory 1K
expect "verify estimate" "$work/err" 'tables of 16 switches x 32 LIDs need about 1\.5 KiB, more than the 1\.0 KiB'
check "within it" 0 "$LANES" verify -e updn "${T[@]}" --max-memory 1G
check "a bad size" 2 "$LANES" verify -e updn "${T[@]}" --max-memory 1X
expect "bad size named" "$work/err" "--max-memory: expected a size such as 512M or 16G, not '1X'"

finish
