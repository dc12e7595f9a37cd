#!/usr/bin/env bash
# The bad-input corpus (tests/data/bad, README.md there): each file with the
# exit code and the message lanes must give (issue 22 items 3 and 7).
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

B=${TESTDATA:?}/bad
F=$B/fabric.ibnetdiscover
head -n 80 "$B/lfts.dump" >"$work/cut80.dump" # cut where a table ends

# name | exit | the message (extended regex) | the command's arguments after `lanes`
while IFS='|' read -r name rc msg args; do
  [ -n "$name" ] || continue
  eval "set -- $args"
  check "$name" "$rc" "$LANES" "$@"
  expect "$name: message" "$work/err" "$msg"
done <<EOT
dup port GUID|2|dup_port_guid.ibnetdiscover:22: port 1 of "H-0002c90301000004" has the port GUID 0x0002c90301000001 of port 1 of "H-0002c90301000000" \(line 11\)|topo info "$B/dup_port_guid.ibnetdiscover"
17-digit GUID|2|guid_17_digits.ibnetdiscover:22: the id "H-10002c90301000004" holds 17 hex digits; a GUID has at most 16|topo info "$B/guid_17_digits.ibnetdiscover"
two LIDs for one port|2|two_lids_one_port.subnet.lst:2: port 1 of \{node00000 HCA-1\} has LID 11 here and LID 10 on line 1|topo info "$B/two_lids_one_port.subnet.lst"
empty SL2VL dump|2|empty.sl2vl.dump: no 'Switch' or 'Channel Adapter' block: not an SL2VL dump \(empty\?\)|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/empty.sl2vl.dump"
truncated LFT dump|2|truncated.lfts.dump:90: truncated: the table of switch 0x0002c90300a00004 .* ends without its 'lids dumped' line|verify "$F" --lfts "$B/truncated.lfts.dump"
cut at a table's end|2|cut80.dump: truncated or of another fabric: no table for 5 of the fabric's 9 switches|verify "$F" --lfts "$work/cut80.dump"
a LID twice|2|lid_twice.lfts.dump:4: LID 0x0002 is given twice in the table of switch 0x0002c90300a00000 \(first on line 3\)|verify "$F" --lfts "$B/lid_twice.lfts.dump"
LFTs of another LID assignment|2|lfts.dump:11: LID 0x000a is port GUID 0x0002c90301000001 here and port 1 of 'node00001 HCA-1' in the fabric|verify "$B/other_lids.ibnetdiscover" --lfts "$B/lfts.dump"
SL2VL of another LID assignment|2|sl2vl.dump:[0-9]+: port 0x0002c90301000001 has LID 10 here and LID 11 in the fabric|verify "$B/other_lids.ibnetdiscover" --lfts "$B/other_lids.lfts.dump" --sl2vl "$B/sl2vl.dump"
the good files|0|no path SLs given: every path is taken as SL 0|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/sl2vl.dump"
EOT

finish
