/*
 * main.c - the `lanes` command: a table of subcommands, git style.
 *
 * Exit codes (every subcommand): 0 done and nothing wrong found; 1 done and
 * something wrong found (a disconnected fabric, a deadlock, ...); 2 bad input
 * or usage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct cli_command commands[] = {
	{ "topo", "generate fabrics and describe them (gen, info, list, convert)", cmd_topo },
	{ "engines", "list the routing engines", cmd_engines },
	{ "route", "route a fabric and write OpenSM's tables", cmd_route },
	{ "verify", "check a routing: reachability, VLs, credit loops, metrics", cmd_verify },
	{ "compare", "route a fabric with several engines and verify each: one table", cmd_compare },
	{ "sim", "simulate traffic on routings: throughput, latency, deadlock against load", cmd_sim },
	{ "trace", "the path of one pair hop by hop: ports, SL and VLs (as ibtracert)", cmd_trace },
};

#define NUM_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: lanes COMMAND [ARGS...]   (lanes COMMAND --help for more)\n\n"
		     "Deadlock-free routing for InfiniBand fabrics.\n\ncommands:\n");
	for (size_t i = 0; i < NUM_COMMANDS; i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nexit codes: 0 ok, 1 a negative finding, 2 bad input or usage\n");
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("lanes 0.1.0\n");
		return EXIT_OK;
	}
	for (size_t i = 0; i < NUM_COMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "lanes: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

/*
 * Output that never arrived is a failure, whatever the command found:
 * `lanes topo info x > /dev/full` must not exit 0. Buffered output is only
 * written here, so flush before judging.
 */
static int check_stdout(int rc)
{
	int e;

	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return rc;
	e = errno;
	fprintf(stderr, "lanes: cannot write standard output%s%s\n", e ? ": " : "",
		e ? strerror(e) : "");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	return check_stdout(run(argc, argv));
}
