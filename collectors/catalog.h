/* Where a command's output lives: how to run it on a live host, and the
 * file names sosreport (3.x and 4.x), NVIDIA's sysinfo-snapshot and
 * rdmadoctor's own snapshot give it. */
#ifndef RD_CATALOG_H
#define RD_CATALOG_H

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

/* sos's name for a command line: leading /usr/bin/ and friends dropped,
 * runs of characters outside [A-Za-z0-9_.-/] become '_', '/' becomes '.',
 * leading and trailing " ._-" stripped, cut at 255.  Owned result. */
char *catalog_mangle(const char *cmdline);

#endif
