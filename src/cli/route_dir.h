/*
 * route_dir.h - writing `lanes route`'s directory as one thing (route_dir.c).
 */
#ifndef LANES_CLI_ROUTE_DIR_H
#define LANES_CLI_ROUTE_DIR_H

/* The files of a routing directory, in the order route_dir_write() names them. */
#define ROUTE_DIR_FILES 4
/* Endings a file of the directory may have: none, ".gz", ".zst". */
#define ROUTE_DIR_SUFFIXES 3

/*
 * Writes the routing's files into tmpdir, names[i] for file i
 * (opensm-lfts.dump, opensm-sl2vl.dump, lanes-path-sl.txt, report.json);
 * 0, or an exit code with the error printed.
 */
typedef int (*route_dir_writer)(const char *tmpdir, const char *const *names, void *ctx);

/*
 * Write a routing directory through a temporary one and put it in DIR's
 * place; on failure or a signal, DIR is as it was and nothing is left
 * behind. A link DIR is followed (the directory it names is replaced, the
 * link stays); a replaced directory keeps its mode and owner. Temporary
 * directories of killed routes into DIR are named on stderr, not removed.
 * 0, or an exit code with the error printed.
 */
int route_dir_write(const char *dir, route_dir_writer write, void *ctx);

#endif
