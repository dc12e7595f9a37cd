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
dup port GUID|2|dup_port_guid.ibnetdiscover:117: port 1 of "H-0002c90301000004" has the port GUID 0x0002c90301000001 of port 1 of "H-0002c90301000000" \(line 110\)|topo info "$B/dup_port_guid.ibnetdiscover"
a CA with a switch's GUID|2|ca_has_switch_guid.ibnetdiscover:116: "H-0002c90300a00001" has the GUID 0x0002c90300a00001 of "S-0002c90300a00001" \(line 21\)|topo info "$B/ca_has_switch_guid.ibnetdiscover"
an id that is not its caguid=|2|id_not_caguid.ibnetdiscover:116: the id "H-0002c90301000004" names the GUID 0x0002c90301000004, but the caguid= on line 115 gives 0x0002c90301000008|topo info "$B/id_not_caguid.ibnetdiscover"
ibsim: a CA with a switch's GUID|2|ca_has_switch_guid.net:6: node GUID 0x100 is already taken \(first on line 2; ibsim refuses duplicate GUIDs\)|topo info "$B/ca_has_switch_guid.net"
subnet.lst: a CA with a switch's GUID|2|ca_has_switch_guid.subnet.lst:1: node GUID 0x0000000000200000 is a switch of 8 ports here and a ca of 2 ports on line 1: two nodes share it|topo info "$B/ca_has_switch_guid.subnet.lst"
a peer's LID|2|peer_lid.ibnetdiscover:11: port 1 of "H-0002c90301000000" has LID 12 here and LID 10 on line 110|topo info "$B/peer_lid.ibnetdiscover"
a peer's port GUID|2|peer_port_guid.ibnetdiscover:22: port 1 of "H-0002c90301000004" has the port GUID 0x0002c90301000005 here and 0x0002c90301000009 on line 117|topo info "$B/peer_port_guid.ibnetdiscover"
subnet.lst: two port GUIDs for one port|2|port_guid_twice.subnet.lst:3: port 1 of \{Hca1\} has the port GUID 0x0000000000100001 here and 0x0000000000100002 on line 1|topo info "$B/port_guid_twice.subnet.lst"
switchguid=\(20 digits\)|2|switchguid_20_digits.ibnetdiscover:9: the port GUID after switchguid= holds 20 hex digits; a GUID has at most 16|topo info "$B/switchguid_20_digits.ibnetdiscover"
switchguid=\(zz\)|2|switchguid_not_hex.ibnetdiscover:9: '\(zz\)' after switchguid= is not a port GUID|topo info "$B/switchguid_not_hex.ibnetdiscover"
a fabric cut inside a line|2|cut.ibnetdiscover:65: truncated: the file ends inside line 65 \(|topo info "$B/cut.ibnetdiscover"
an SL2VL dump cut inside a line|2|cut.sl2vl.dump:88: truncated: the file ends inside line 88 \(|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/cut.sl2vl.dump"
dump_lfts without a switch|2|missing_switch.dump_lfts.txt: truncated or of another fabric: no table for 1 of the fabric's 9 switches \(the first: 0x0002c90300a00005 .*\); dump_lfts.sh prints the table of every switch|verify "$TESTDATA/osm_torus3x3_subnet.lst" --lfts "$B/missing_switch.dump_lfts.txt"
a LID above the header's range|2|header_range.lfts.dump:7: LID 0x0006 is outside the LIDs \[0-5\] that the header \(line 1\) gives this table|verify "$F" --lfts "$B/header_range.lfts.dump"
99 lids dumped|2|lids_dumped_99.lfts.dump:20: 99 lids dumped, but the header \(line 1\) gives LIDs \[0-18\]|verify "$F" --lfts "$B/lids_dumped_99.lfts.dump"
a path SL twice|2|dup_entry.path-sl.txt:13: a second entry for the same path \(first on line 7\)|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/sl2vl.dump" --path-sl "$B/dup_entry.path-sl.txt"
xz|2|fabric.ibnetdiscover.xz: compressed with xz, which lanes cannot read \(gzip and zstd only\)|topo info "$B/fabric.ibnetdiscover.xz"
bzip2|2|fabric.ibnetdiscover.bz2: compressed with bzip2, which lanes cannot read \(gzip and zstd only\)|verify "$F" --lfts "$B/fabric.ibnetdiscover.bz2"
lz4|2|fabric.ibnetdiscover.lz4: compressed with lz4, which lanes cannot read \(gzip and zstd only\)|topo info "$B/fabric.ibnetdiscover.lz4"
17-digit GUID|2|guid_17_digits.ibnetdiscover:22: the id "H-10002c90301000004" holds 17 hex digits; a GUID has at most 16|topo info "$B/guid_17_digits.ibnetdiscover"
two LIDs for one port|2|two_lids_one_port.subnet.lst:2: port 1 of \{node00000 HCA-1\} has LID 11 here and LID 10 on line 1|topo info "$B/two_lids_one_port.subnet.lst"
empty SL2VL dump|2|empty.sl2vl.dump: no 'Switch' or 'Channel Adapter' block: not an SL2VL dump \(empty\?\)|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/empty.sl2vl.dump"
truncated LFT dump|2|truncated.lfts.dump:90: truncated: the table of switch 0x0002c90300a00004 .* ends without its 'lids dumped' line|verify "$F" --lfts "$B/truncated.lfts.dump"
cut at a table's end|2|cut80.dump: truncated or of another fabric: no table for 5 of the fabric's 9 switches|verify "$F" --lfts "$work/cut80.dump"
a LID twice|2|lid_twice.lfts.dump:4: LID 0x0002 is given twice in the table of switch 0x0002c90300a00000 \(first on line 3\)|verify "$F" --lfts "$B/lid_twice.lfts.dump"
LFTs of another LID assignment|2|lfts.dump:11: LID 0x000a is port GUID 0x0002c90301000001 here and port 1 of 'node00001 HCA-1' in the fabric|verify "$B/other_lids.ibnetdiscover" --lfts "$B/lfts.dump"
SL2VL of another LID assignment|2|sl2vl.dump:[0-9]+: port 0x0002c90301000001 has LID 10 here and LID 11 in the fabric|verify "$B/other_lids.ibnetdiscover" --lfts "$B/other_lids.lfts.dump" --sl2vl "$B/sl2vl.dump"
an SL2VL row twice|2|dup_row.sl2vl.dump:5: the row for in port 0, out port 1 is given twice \(first on line 4\)|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/dup_row.sl2vl.dump"
a fabric cut at its end that parses|0|warning: .*cut_at_end.ibnetdiscover:166: the last line has no newline: the file may be cut|topo info "$B/cut_at_end.ibnetdiscover"
subnet.lst cut at its end|0|warning: .*cut_at_end.subnet.lst:54: the last line has no newline: the file may be cut|topo info "$B/cut_at_end.subnet.lst"
ibsim net cut at its end|0|warning: .*cut_at_end.net:5: the last line has no newline: the file may be cut|topo info "$B/cut_at_end.net"
ibsim net cut inside 'lmc'|2|lmc_cut.net:5: truncated: the file ends inside line 5 \(unexpected text on a port line .*: 'l'\)|topo info "$B/lmc_cut.net"
ibsim: an unknown word on a port line|2|unknown_word.net:5: unexpected text on a port line \(after the remote end: w=, s=, e=, lid N, lmc N, a # comment\): 'bogus'|topo info "$B/unknown_word.net"
subnet.lst: a cable's two widths|0|warning: .*rate_disagrees.subnet.lst:54: the cable of port 1 of \{node00008 HCA-1\} runs 1xQDR here and 4xQDR on line 44; 4xQDR kept|topo info "$B/rate_disagrees.subnet.lst"
a LID twice (ibnetdiscover)|0|warning: .*dup_lid.ibnetdiscover:117: LID 10 of port 1 of "node00001 HCA-1" is already taken by port 1 of "node00000 HCA-1" \(line 110\); it gets LID 11 instead|topo info "$B/dup_lid.ibnetdiscover"
a LID twice (subnet.lst)|0|warning: .*dup_lid.subnet.lst:7: LID 11 of port 1 of "node00001 HCA-1" is already taken by port 1 of "node00000 HCA-1" \(line 1\); it gets LID 10 instead|topo info "$B/dup_lid.subnet.lst"
a LID twice (ibsim)|0|warning: .*dup_lid.net:5: LID 3 of port 1 of "h" is already taken by switch "sw" \(line 1\); it gets LID 1 instead|topo info "$B/dup_lid.net"
the good files|0|no path SLs given: every path is taken as SL 0|verify "$F" --lfts "$B/lfts.dump" --sl2vl "$B/sl2vl.dump"
EOT

finish
