#!/usr/bin/env bash
# `lanes verify FABRIC DIR` refuses a routing computed for another fabric
# and names the first difference (issue 22 item 2): the LFT dump's own
# check (a LID whose port GUID is another port's), a port the tables send
# packets out of that has no cable here, or report.json's sizes.
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

B=${TESTDATA:?}/bad
F=$B/fabric.ibnetdiscover # torus k=3x3 p=1; other_lids.ibnetdiscover swaps two CAs' LIDs
check "route" 0 "$LANES" route -e updn "$F" -o "$work/r"

check "LIDs swapped" 2 "$LANES" verify "$B/other_lids.ibnetdiscover" "$work/r"
expect "the LIDs part" "$work/err" 'another fabric: its LIDs differ'
expect "the first LID named" "$work/err" "the first difference: .*opensm-lfts\.dump:11: LID 0x000a is port GUID 0x0002c90301000001 here and port 1 of 'node00001 HCA-1' in the fabric"

# switch 0's port 2 cable removed: the tables still send LID 2 (switch x1-y0,
# its +x neighbour) out of it
check "a cable removed" 2 "$LANES" verify "$F" --fail-link 0x0002c90300a00000/2 "$work/r"
expect "the cables part" "$work/err" 'its cables differ'
expect "the port named" "$work/err" "switch 0x0002c90300a00000 'MF0;torus-x0-y0:MQM8700/U1' sends LID 2 out of port 2, which has no cable in this fabric"

# nine more CAs: the dump agrees where both have LIDs; the sizes say it
check "more CAs" 2 "$LANES" verify torus k=3x3 p=2 "$work/r"
expect "the count named" "$work/err" 'the first difference: the routing is for 9 CAs, this fabric has 18'

check "the same fabric" 0 "$LANES" verify "$F" "$work/r" --ebb-patterns 0

# what DIR holds must say which routing it is
cp -r "$work/r" "$work/two"
gzip -c "$work/r/opensm-lfts.dump" >"$work/two/opensm-lfts.dump.gz"
check "a dump and its .gz" 2 "$LANES" verify "$F" "$work/two"
expect "both named" "$work/err" "verify: .*/two holds both .*/two/opensm-lfts\.dump and .*/two/opensm-lfts\.dump\.gz"
check "a file as DIR" 2 "$LANES" verify "$F" "$work/r/opensm-lfts.dump"
expect "a file, said" "$work/err" 'opensm-lfts\.dump is a file, not the directory `lanes route -o` writes; give a dump with --lfts FILE'
check "no such DIR" 2 "$LANES" verify "$F" "$work/nosuch"
expect "missing, said" "$work/err" 'nosuch: No such file or directory'
cp -r "$work/r" "$work/cut" && head -c 100 "$work/r/report.json" >"$work/cut/report.json"
check "a cut report.json" 2 "$LANES" verify "$F" "$work/cut"
expect "cut, said" "$work/err" 'cut/report\.json: not the JSON route writes \(cut or corrupt\?\)'
check "stdin twice" 2 "$LANES" verify "$F" --lfts - --sl2vl - </dev/null
expect "once, said" "$work/err" "'-' \(standard input\) is given for 2 files; it can be read once"
# a routing made with faults, verified without them: said as such
check "route with a fault" 0 "$LANES" route -e minhop "$F" --fail-link 0x0002c90300a00000/2 -o "$work/rf"
check "verify without the fault" 2 "$LANES" verify "$F" "$work/rf"
expect "the faults named" "$work/err" "another fabric \(report\.json says the routing was made with faults removed: give the same --fail-\* options and --fault-seed\)"
check "verify with it" 0 "$LANES" verify "$F" "$work/rf" --fail-link 0x0002c90300a00000/2 --ebb-patterns 0
# report.json compressed is read as such; none at all is said
gzip "$work/rf/report.json"
check "report.json.gz" 0 "$LANES" verify "$F" "$work/rf" --fail-link 0x0002c90300a00000/2 --ebb-patterns 0
rm "$work/rf/report.json.gz"
check "no report.json" 0 "$LANES" verify "$F" "$work/rf" --fail-link 0x0002c90300a00000/2 --ebb-patterns 0
expect "its absence said" "$work/err" "has no report\.json \(not written by \`lanes route\`\): the dumps are checked against the fabric LID by LID only"
check "DIR and --lfts" 2 "$LANES" verify "$F" "$work/r" --lfts "$work/rf/opensm-lfts.dump"
expect "not both" "$work/err" "give DIR or --lfts/--sl2vl/--path-sl, not both"
mv "$work/rf/opensm-lfts.dump" "$work/rf/opensm-lfts.dump.xz"
check "an xz dump" 2 "$LANES" verify "$F" "$work/rf"
expect "xz said" "$work/err" "has no opensm-lfts\.dump \(it holds opensm-lfts\.dump\.xz: lanes reads gzip and zstd only\)"
check "stdin for the fabric and the tables" 2 "$LANES" verify - --lfts - <"$F"
expect "read already, said" "$work/err" "standard input\) was read for the fabric already"
finish
