#!/usr/bin/env bash
# check-library.sh LIBLANES.A - two rules of the library that the compiler
# does not enforce, checked on the built archive (CTest runs it as
# lib.symbols on the plain gcc and clang builds; sanitizer builds add
# symbols of their own and are not checked):
#  1. every external symbol it defines starts with lanes_, so that liblanes
#     can be linked into another program (OpenSM's event plugin) without a
#     clash;
#  2. it has no mutable data with static storage: no object in a writable
#     data section (.data, .bss, common), global or file-local. Descriptors
#     and tables are const (.rodata, or .data.rel.ro where they hold
#     pointers, which is read-only once the program is loaded); tuning knobs
#     travel in options.
set -euo pipefail
lib=${1:?usage: check-library.sh LIBLANES.A}
bad=0

names=$(nm -g --defined-only "$lib" | awk 'NF == 3 && $3 !~ /^lanes_/ { print "  " $3 " (" $2 ")" }')
if [ -n "$names" ]; then
	echo "external symbols without the lanes_ prefix:"
	echo "$names"
	bad=1
fi

# objdump -t: ADDRESS FLAGS SECTION SIZE NAME; objects only (flag O).
mutable=$(objdump -t "$lib" | awk '
	/^[0-9a-f]+ / && / O / {
		sec = ""
		for (i = 2; i <= NF; i++) if ($i ~ /^\./ || $i == "*COM*") { sec = $i; break }
		if ((sec ~ /^\.(data|bss)/ && sec !~ /^\.data\.rel\.ro/) || sec == "*COM*")
			print "  " $NF " (" sec ")"
	}' | sort -u)
if [ -n "$mutable" ]; then
	echo "mutable data with static storage:"
	echo "$mutable"
	bad=1
fi

[ "$bad" = 0 ] && echo "check-library: $lib: every external symbol is lanes_*, no mutable static data"
exit "$bad"
