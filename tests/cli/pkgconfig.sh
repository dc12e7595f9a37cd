#!/usr/bin/env bash
# The installed library is usable through pkg-config: `cmake --install` this
# build into a fresh prefix, move the tree elsewhere (lanes.pc is
# relocatable), then compile, link and run a small program with nothing but
# `pkg-config --cflags --libs lanes`.
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$BUILD" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install"; }
mv "$work/prefix" "$work/moved"
pc=$(find "$work/moved" -name lanes.pc)
[ -n "$pc" ] || fail "no lanes.pc installed"
export PKG_CONFIG_PATH=${pc%/lanes.pc}
flags=$(pkg-config --cflags --libs lanes) || fail "pkg-config does not know lanes"
echo "pkg-config: $flags"
case $flags in *"$work/moved"*) ;; *) fail "flags do not point into the moved tree: $flags" ;; esac

cat >"$work/prog.c" <<'C'
#include <stdio.h>
#include <lanes/fabric.h>
#include <lanes/topo.h>

int main(void)
{
	const char *args[] = { "a=4", "p=2", "h=2" };
	struct lanes_fabric_stats st;
	struct lanes_fabric *f;
	struct lanes_error err;

	if (lanes_topo_generate("dragonfly", 3, args, &f, &err) || lanes_fabric_stats(f, &st, &err))
		return 1;
	printf("%u switches, %u CAs, diameter %u\n", st.switches, st.cas, st.diameter);
	lanes_fabric_free(f);
	return 0;
}
C
# shellcheck disable=SC2086
"${CC:-cc}" -std=c11 -Wall -Werror "$work/prog.c" -o "$work/prog" $flags ${LINK_FLAGS:-} ||
  fail "cannot build against the installed library"
out=$("$work/prog") || fail "the program failed"
[ "$out" = "36 switches, 72 CAs, diameter 3" ] || fail "unexpected output: $out"
echo "ok: $out"
echo "1 passed, 0 failed"
