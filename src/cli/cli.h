/*
 * cli.h - what the `lanes` subcommands share: exit codes, error printing,
 * and loading a fabric from a file or a generator spec.
 */
#ifndef LANES_CLI_H
#define LANES_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "lanes/error.h"
#include "lanes/fabric.h"
#include "lanes/route.h"

/* Exit codes of every command. */
enum {
	EXIT_OK = 0,      /* done, nothing wrong found */
	EXIT_FINDING = 1, /* found something wrong (disconnected, deadlock, ...), or the work
			     could not be done: an engine refused or failed, out of memory */
	EXIT_USAGE = 2,   /* bad input or bad usage */
};

/* A subcommand: a name and a function, git style. */
struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* The most --fail-link and --fail-switch options of one command. */
#define CLI_MAX_NAMED_FAULTS 64

/* How to get the fabric: a file or a generator spec, then optional faults. */
struct cli_fabric_opts {
	const char *format;   /* --format for reading, or NULL to recognise */
	const char *name_map; /* --node-name-map FILE */
	double fail_links;    /* --fail-links */
	double fail_switches; /* --fail-switches */
	uint64_t seed;        /* --fault-seed */
	int faults;           /* a fault option was given */
	const char *fail_link[CLI_MAX_NAMED_FAULTS];   /* --fail-link GUID/PORT or NAME/PORT */
	const char *fail_switch[CLI_MAX_NAMED_FAULTS]; /* --fail-switch GUID or NAME */
	int num_fail_link, num_fail_switch;
	struct lanes_fault_report report; /* how much the faults removed */
	struct lanes_fault_list removed;  /* what, when keep_removed (the caller frees it) */
	int keep_removed;
	int quiet;                        /* --quiet: no progress line */
	uint64_t max_memory;              /* --max-memory, bytes; 0: what the machine has free */
	const char *cmd;                  /* "route": for the memory refusal's message */
	unsigned table_copies;            /* as cli_check_memory's copies; 0: no tables */
};

/*
 * What the fault options removed, as JSON: seed, counts, and the switches,
 * CAs (GUIDs) and cables ([[GUID, port], [GUID, port]]); the lists need
 * keep_removed set before the fabric is loaded.
 */
struct json_object;
struct json_object *cli_faults_json(const struct cli_fabric_opts *opts);

/* The defaults: no format, no faults, fault seed 1. */
void cli_fabric_opts_init(struct cli_fabric_opts *opts);

/*
 * Before routing: refuse (EXIT_FINDING, the estimate printed) when the
 * tables of f, and what engine e needs beside them (its scratch_bytes; e
 * may be NULL), would need more memory than --max-memory or, without it,
 * the machine's MemAvailable. copies: how many switches x LIDs tables the
 * command holds at once (LFTs, per-source-switch SLs, the verifier's walk).
 */
int cli_check_memory(const char *cmd, const struct lanes_fabric *f,
		     const struct cli_fabric_opts *opts, unsigned copies,
		     const struct lanes_engine *e, const struct lanes_route_opts *ro);

/*
 * The same for engines[0..n) run one after another (compare, sim): the
 * tables and the hungriest engine's own arrays; NULL entries are skipped.
 */
int cli_check_memory_of(const char *cmd, const struct lanes_fabric *f,
			const struct cli_fabric_opts *opts, unsigned copies,
			const struct lanes_engine *const *engines, size_t n,
			const struct lanes_route_opts *ro);

/* The engine an -e spec names ("dfsssp", "dfdn:base=minhop"), or NULL. */
const struct lanes_engine *cli_engine_named(const char *spec);

/*
 * Print "lanes: file:line: message" and return EXIT_USAGE, or EXIT_FINDING
 * when the error is LANES_ENOMEM: the input was fine, the work did not fit.
 */
int cli_fail(const struct lanes_error *err);

/* Print "lanes: out of memory" and return EXIT_FINDING. */
int cli_out_of_memory(void);

/* Print "lanes: message" (printf style) and return EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/*
 * A duration with a unit that shows its size and three significant digits:
 * "85.2 µs", "2.34 ms", "1.50 s", "190 s". Into buf; returns buf.
 */
const char *cli_duration(double seconds, char *buf, size_t n);

/* Parse a count or fraction option value; 0 or EXIT_USAGE. */
int cli_parse_amount(const char *opt, const char *value, double *out);
/* Parse a decimal unsigned integer (a seed, a count); 0 or EXIT_USAGE. */
int cli_parse_u64(const char *opt, const char *value, uint64_t *out);

/*
 * Load a fabric: words[0] is a file, or a generator name followed by its
 * key=value words. A path that exists wins over a generator of the same name.
 * Prints the fabric's warnings to stderr. Returns 0 or EXIT_USAGE.
 */
int cli_load_fabric(int nwords, char **words, struct cli_fabric_opts *opts,
		    struct lanes_fabric **out);

/*
 * Is the fabric one component (every cable counted)? With warn, say on
 * stderr when it is not. Linear in the fabric's size.
 */
int cli_fabric_connected(const struct lanes_fabric *f, int warn);

/* The long options every fabric-taking command accepts, and their handler. */
#define CLI_FABRIC_LONGOPTS                                        \
	{ "format", required_argument, NULL, 'F' },                \
	{ "fail-links", required_argument, NULL, 'L' },            \
	{ "fail-switches", required_argument, NULL, 'S' },         \
	{ "fail-link", required_argument, NULL, 'W' },             \
	{ "node-name-map", required_argument, NULL, 'M' },         \
	{ "quiet", no_argument, NULL, 'q' },                       \
	{ "max-memory", required_argument, NULL, 'Y' },            \
	{ "fail-switch", required_argument, NULL, 'X' },           \
	{ "fault-seed", required_argument, NULL, 's' }

/*
 * getopt_long() that refuses an option given twice ("-o a -o b" would
 * otherwise keep the last silently): it prints "lanes: --output (-o) given
 * twice" and returns CLI_OPT_TWICE, on which a command exits EXIT_USAGE
 * without its usage text. The seen list starts zeroed; --help may repeat.
 */
#define CLI_OPT_TWICE (-2)
struct cli_seen {
	int opt[64];
	int n;
};
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
	       struct cli_seen *seen);
/* Was option c given? */
int cli_seen_has(const struct cli_seen *seen, int c);

/* Handle one of CLI_FABRIC_LONGOPTS: 1 handled, 0 not ours, -1 bad value. */
int cli_fabric_option(int opt, const char *arg, struct cli_fabric_opts *opts);

#define CLI_FABRIC_HELP                                                                  \
	"  FABRIC is a file (ibnetdiscover or ibsim net, recognised from its content)\n" \
	"  or a generator spec such as: dragonfly a=4 p=2 h=2 (see `lanes topo list`),\n" \
	"  as separate words or quoted as one.\n"                                        \
	"  --format NAME        read the file as ibnetdiscover or ibsim\n"              \
	"  --fail-links X       remove X switch-to-switch cables (a count, or a fraction < 1)\n" \
	"  --fail-switches X    remove X switches (and the CAs only they connect)\n"     \
	"  --node-name-map FILE node names for node GUIDs, infiniband-diags' format\n"       \
	"  --fail-link G/P      remove the cable in port P of the node with GUID (or name) G;\n" \
	"                       repeatable; --fail-switch G removes a switch by GUID or name\n" \
	"  --fault-seed S       seed for fault injection, decimal (default 1)\n"           \
	"  --quiet              no progress line (drawn on a terminal for runs over 2 s)\n"   \
	"  --max-memory SIZE    the memory a fabric and its routing tables may take (512M,\n" \
	"                       16G; default: MemAvailable); more is refused, a generated\n" \
	"                       fabric before it is built\n"

/* The largest --threads (the library starts at most 256 workers a call). */
#define LANES_CLI_MAX_THREADS 256

/* Options of commands that run an engine (route, verify -e, compare). */
#define CLI_ROUTE_LONGOPTS                                    \
	{ "engine", required_argument, NULL, 'e' },           \
	{ "vls", required_argument, NULL, 'V' },              \
	{ "sls", required_argument, NULL, 'Q' },              \
	{ "ca-only", no_argument, NULL, 'C' },                \
	{ "ca-lids-only", no_argument, NULL, 'K' },           \
	{ "seed", required_argument, NULL, 'N' },             \
	{ "roots", required_argument, NULL, 'R' },           \
	{ "threads", required_argument, NULL, 'T' }

struct lanes_route_opts;
struct lanes_engine;
struct lanes_routing;

/* Handle one of CLI_ROUTE_LONGOPTS: 1 handled, 0 not ours, -1 bad value. */
int cli_route_option(int c, const char *arg, struct lanes_route_opts *o, const char **engine);

/* Verifier options of commands that judge a routing (verify, compare). */
#define CLI_VERIFY_LONGOPTS                                   \
	{ "all-traffic", no_argument, NULL, 'a' },            \
	{ "ebb-patterns", required_argument, NULL, 'b' },     \
	{ "ebb-seed", required_argument, NULL, 'B' }

struct lanes_verify_opts;

/* Handle one of CLI_VERIFY_LONGOPTS: 1 handled, 0 not ours, -1 bad value (printed). */
int cli_verify_option(int c, const char *arg, struct lanes_verify_opts *o);

/* One of the fabric, route and verify options (verify and compare take all three). */
int cli_fabric_route_verify_option(int c, const char *arg, struct cli_fabric_opts *fo,
				   struct lanes_route_opts *ro, const char **engine,
				   struct lanes_verify_opts *vo);

/*
 * What running an engine came to. The class follows the error code, never
 * the message: a check() that fails (the engine does not apply),
 * LANES_EREFUSED from route() (the same, found while routing) and
 * LANES_ERANGE from route() (the VL/SL budget, or what the model can hold)
 * are refusals; LANES_EINTERNAL (a bug in lanes) and LANES_ENOMEM (the work
 * does not fit in memory) are failures; every other code is the input's
 * fault (LANES_EINVAL an unusable parameter such as a roots file that names
 * no switch or leaves CAs without an up/down path, LANES_EPARSE a
 * malformed file, LANES_EIO a file that cannot be read, LANES_ENOTFOUND).
 */
enum cli_engine_outcome {
	CLI_ROUTED,   /* a routing */
	CLI_REFUSED,  /* EXIT_FINDING in route; a "refused" row in compare */
	CLI_FAILED,   /* internal error or out of memory: EXIT_FINDING, a "FAILED" row in compare */
	CLI_BAD_INPUT /* EXIT_USAGE everywhere */
};

/* Run e (its check(), then lanes_route()); *seconds is the routing's wall time. */
enum cli_engine_outcome cli_run_engine(const struct lanes_engine *e, const struct lanes_fabric *f,
				       const struct lanes_route_opts *o,
				       struct lanes_routing **out, double *seconds,
				       struct lanes_error *err);

/* err's message in buf, without the engine's name when it leads with it. */
const char *cli_engine_message(const struct lanes_engine *e, const struct lanes_error *err,
			       char *buf, size_t size);

/*
 * An engine with its parameters, "NAME[:KEY=VALUE]..." (spec[0..len)): the
 * engine in *e and its parameters, space-separated, in params ("" for none).
 * An unknown name, or parameters for an engine that takes none, is a usage
 * error (printed, naming cmd): EXIT_USAGE.
 */
int cli_engine_spec(const char *cmd, const char *spec, size_t len, const struct lanes_engine **e,
		    char *params, size_t cap);

/* Print "lanes: ENGINE: message" (once, when the engine already names itself). */
void cli_engine_error(const struct lanes_engine *e, const struct lanes_error *err);

/* Does e read --roots (opts->roots)? Only updn: its root GUID file. */
int cli_engine_takes_roots(const struct lanes_engine *e);

/*
 * Refuse --roots for an engine that does not read it (OpenSM ignores its
 * root_guid_file for other engines; a flag with no effect is more likely a
 * mistake). cmd names the command. @return 0 or EXIT_USAGE (printed).
 */
int cli_check_roots(const char *cmd, const struct lanes_engine *e,
		    const struct lanes_route_opts *o);

/*
 * Run an engine, printing why it did not route: EXIT_OK, EXIT_FINDING
 * (refused, or an internal error) or EXIT_USAGE (bad input).
 */
int cli_route_fabric(const struct lanes_engine *e, const struct lanes_fabric *f,
		     const struct lanes_route_opts *o, struct lanes_routing **out, double *seconds);

/* An engine as -e names it: "dfdn:base=minhop" is dfdn with its parameters. */
struct cli_engine_choice {
	const struct lanes_engine *e;
	char label[128];  /* as -e names it */
	char params[256]; /* from NAME:KEY=VALUE, space-separated ("" for none) */
};

/* The most engines one -e list names. */
#define CLI_MAX_ENGINES 64

/*
 * Resolve an -e list (engines separated by single commas, each
 * NAME[:KEY=VALUE...]); NULL or "all" is every registered engine, in
 * registry order. An empty name, an unknown engine or one named twice is a
 * usage error naming "cmd: -e" (printed): EXIT_USAGE. out holds
 * CLI_MAX_ENGINES.
 */
int cli_pick_engines(const char *cmd, const char *list, struct cli_engine_choice *out, size_t *n);

/*
 * A command's words: FABRIC (a file, or a generator and its key=value
 * words), then optionally a routing DIR. *dir is NULL when none is given.
 */
int cli_split_fabric_dir(const char *cmd, int n, char **w, char ***words, int *nwords,
			 const char **dir);

/*
 * Read a routing from tables: lfts (or DIR/opensm-lfts.dump), sl2vl (or
 * DIR/opensm-sl2vl.dump: without it every SL maps to VL 0) and path_sl (or
 * DIR/lanes-path-sl.txt: without it every path has SL 0), noting on stderr
 * what is missing. Each file's bytes go to progress (phase "reading"; NULL:
 * none). 0, or EXIT_USAGE (printed, naming cmd) with *out NULL.
 */
int cli_load_tables(const char *cmd, const char *dir, const char *lfts, const char *sl2vl,
		    const char *path_sl, const struct lanes_fabric *f,
		    const struct cli_fabric_opts *fo, struct lanes_progress *progress,
		    struct lanes_routing **out);

int cmd_topo(int argc, char **argv);
int cmd_engines(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_trace(int argc, char **argv);

struct json_object;
/*
 * topo info's link widths and speeds, and the cables slower than their
 * ports (topo_links.c): printed, or into json when it is not NULL. 0 or an
 * exit code with the error printed.
 */
int cli_topo_links(const struct lanes_fabric *f, struct json_object *json);

#endif
