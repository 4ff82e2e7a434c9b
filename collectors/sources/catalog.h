/* Where a command's output lives: how to run it on a live host, and the
 * file names sosreport (3.x and 4.x), NVIDIA's sysinfo-snapshot and
 * rdmadoctor's own snapshot give it. */
#ifndef RD_CATALOG_H
#define RD_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#define CATALOG_ITEM "{}" /* argv word replaced by the item */

struct command {
	const char *name; /* "ibstat" */
	const char *argv[8]; /* live argv; CATALOG_ITEM for items */
	const char *items_dir; /* live: items are this dir's entries */
	const char *files[8]; /* bundle paths; '*' stands for the item */
};

const struct command *catalog_find(const char *name);
size_t catalog_count(void);
const struct command *catalog_at(size_t i);

/* The kernel logs of /var/log, by family, the one that holds most history
 * first ("messages", "kern.log", "syslog"); NULL past the end.  Rotations
 * add '.' or '-' and a suffix (messages.1, messages-20240301). */
const char *catalog_log_family(size_t i);

/* Whether a collector may read the bundle file at path (relative to the
 * bundle's top, "sos_commands/kernel/dmesg") whole: a command's output or
 * a kernel log of /var/log.  Reading a tarball keeps these in memory
 * however large they are. */
bool catalog_wants(const char *path);

/* sos's name for a command line: leading /usr/bin/ and friends dropped,
 * runs of characters outside [A-Za-z0-9_.-/] become '_', '/' becomes '.',
 * leading and trailing " ._-" stripped, cut at 255.  Owned result. */
char *catalog_mangle(const char *cmdline);

#endif
