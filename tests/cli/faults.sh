#!/usr/bin/env bash
# Failures by name (issue 22 item 6): --fail-switch GUID|NAME and --fail-link
# GUID/PORT|NAME/PORT, repeatable, with random ones after them, and the list
# of what was removed (stderr text, topo info --json).
set -u
# shellcheck source=cli_lib.bash
source "$(dirname "$0")/cli_lib.bash"

T=(torus k=4x4 p=1)
X11="MF0;torus-x1-y1:MQM8700/U1"
jq_faults() { python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["faults"]; print(eval(sys.argv[2]))' "$work/out" "$1"; }

# a switch by name: it, its CA, and its 4 cables (those go with it, not counted)
check "switch by name" 0 "$LANES" topo info "${T[@]}" --fail-switch "$X11" --json
same "one switch, its CA" "$(jq_faults 'f["switches_removed"], f["cas_removed"], f["links_removed"]')" "(1, 1, 0)"
same "the switch listed" "$(jq_faults 'f["switches"]')" "['0x0002c90300a00005']"
expect "listed on stderr" "$work/err" "^lanes:   switch 0x0002c90300a00005 '$X11'$"
expect "its CA listed" "$work/err" "CA 0x0002c90301000014 'node00005 HCA-1' \\(cabled only to removed switches\\)"
same "15 switches left" "$(grep -o '"switches":[0-9][0-9]*' "$work/out")" '"switches":15'
check "switch by GUID" 0 "$LANES" topo info "${T[@]}" --fail-switch 0x0002c90300a00005 --json
same "by GUID = by name" "$(jq_faults 'f["switches"]')" "['0x0002c90300a00005']"

# cables by GUID/PORT and NAME/PORT (the name has a '/'; the last one splits);
# port 2 of a torus switch is x+: x0-y0 to x1-y0, whose port 3 (x-) it reaches
check "cables by end" 0 "$LANES" topo info "${T[@]}" --fail-link 0x0002c90300a00000/2 \
  --fail-link "MF0;torus-x3-y3:MQM8700/U1/3" --json
same "two cables" "$(jq_faults 'f["links_removed"], f["switches_removed"]')" "(2, 0)"
same "both ends of each" "$(jq_faults 'f["cables"]')" \
  "[[['0x0002c90300a00000', 2], ['0x0002c90300a00001', 3]], [['0x0002c90300a0000e', 2], ['0x0002c90300a0000f', 3]]]"
same "30 cables left" "$(grep -o '"links_switch_switch":[0-9]*' "$work/out")" '"links_switch_switch":30'

# named first, then random ones among what is left: reproducible
check "named and random" 0 "$LANES" topo info "${T[@]}" --fail-link 0x0002c90300a00000/2 --fail-links 2 --fault-seed 4 --json
same "1 named + 2 random" "$(jq_faults 'f["links_removed"]')" 3
cp "$work/out" "$work/a"
check "again" 0 "$LANES" topo info "${T[@]}" --fail-link 0x0002c90300a00000/2 --fail-links 2 --fault-seed 4 --json
cmp -s "$work/out" "$work/a"; same "the same parts again" $? 0

# route and verify take them too
check "verify with a failed switch" 0 "$LANES" verify -e updn "${T[@]}" --fail-switch "$X11"
expect "verify lists it" "$work/err" "switch 0x0002c90300a00005"

# errors name what is wrong
check "unknown name" 2 "$LANES" topo info "${T[@]}" --fail-switch nosuch
expect "unknown name said" "$work/err" "--fail-switch: 'nosuch' is neither a GUID nor a node description"
check "a CA is no switch" 2 "$LANES" topo info "${T[@]}" --fail-switch 0x0002c90301000000
expect "not a switch" "$work/err" 'fail-switch: 0x0002c90301000000 is not a switch'
check "uncabled port" 2 "$LANES" topo info mesh k=2x2 p=1 --fail-link "0x0002c90300a00000/5"
expect "uncabled named" "$work/err" "fail-link: port 5 of 'MF0;mesh-x0-y0:MQM8700/U1' has no cable"
check "no port" 2 "$LANES" topo info "${T[@]}" --fail-link 0x0002c90300a00000
expect "GUID/PORT asked" "$work/err" "is not GUID/PORT or NAME/PORT"
check "all switches by name" 2 "$LANES" topo info torus k=2 p=1 --fail-switch "MF0;torus-x0:MQM8700/U1" \
  --fail-switch "MF0;torus-x1:MQM8700/U1"
expect "no fabric left" "$work/err" 'leaves no fabric'

# verify --json says which fabric it judged: the cable removed, by its ends
# (switch x0-y0's port 2 goes to x1-y0's port 3 in the generated torus)
check "verify --json with a named fault" 0 "$LANES" verify -e updn torus k=3x3 p=1 --ebb-patterns 0 \
  --fail-link 0x0002c90300a00000/2 --json
tr -d ' \n' <"$work/out" | grep -q '"faults":{"seed":1,"links_removed":1,"switches_removed":0,"cas_removed":0,"switches":\[\],"cas":\[\],"cables":\[\[\["0x0002c90300a00000",2\],\["0x0002c90300a00001",3\]\]\]}'
same "the cable in verify --json" $? 0

finish
