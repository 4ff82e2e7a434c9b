/* Host names folded into the range notation of pdsh, Slurm and NHC:
 * node001, node002, node003 and node007 are "node[001-003,007]". */
#ifndef RD_HOSTLIST_H
#define RD_HOSTLIST_H

#include <stddef.h>

/* The names (duplicates counted once) as one comma-separated host list,
 * sorted.  Numbers with leading zeros keep their width.  Owned result. */
char *hostlist_fold(const char *const *names, size_t n);

#endif
