/* Output files (--save, --html, collect -o): every one is written to a
 * fresh temporary file beside its target and renamed into place, and
 * nothing that is not a regular file is ever replaced. */
#ifndef RD_SAVEFILE_H
#define RD_SAVEFILE_H

#include <stddef.h>
#include <sys/types.h>

#include "analysis/analysis.h"
#include "engine/diag.h"

/* File modes by content: a report anyone may read (still narrowed by the
 * umask), and a snapshot that holds the host's logs. */
#define SAVEFILE_MODE_REPORT 0666
#define SAVEFILE_MODE_PRIVATE 0600

struct redactor;

/* Fills the temporary file fd (borrowed; the caller closes it).  Returns
 * 0, or a negative errno with a message in err. */
typedef int (*savefile_fill_fn)(int fd, void *ctx, char *err, size_t errsize);

/* Writes path atomically: refuses (-EEXIST after reporting to d) when
 * something other than a regular file is at path (a device, a FIFO, a
 * symlink, a directory); otherwise creates a temporary file in path's
 * directory with mkstemp (O_EXCL, and O_NOFOLLOW), gives it mode (less
 * the umask), lets fill write it, syncs it and renames it over path.
 * SIGINT, SIGTERM and SIGHUP are held off meanwhile, so an interrupt
 * leaves the old file or the new one and never a part or a stray
 * temporary.  Returns 0, or a negative errno after reporting to d. */
int savefile_commit(const char *path, mode_t mode, savefile_fill_fn fill,
		    void *ctx, struct diag *d);

/* Writes the snapshot of a to path (--save) the same way, masked by r
 * (--redact) unless r is NULL.  Returns 0, or -errno after reporting to
 * d. */
int savefile_write(const struct analysis *a, const char *path,
		   struct redactor *r, struct diag *d);
/* Writes the token-to-value map of r to path (--redact-map), mode 0600
 * less the umask.  Returns 0, or -errno after reporting to d. */
int savefile_write_map(const char *path, const struct redactor *r,
		       struct diag *d);
/* Writes text to path the same way (--html), mode 0666 less the umask.
 * Returns 0, or -errno after reporting to d. */
int savefile_write_text(const char *path, const char *text, struct diag *d);
/* The same, mode 0600 less the umask: text that holds what the host's
 * logs said or undoes --redact. */
int savefile_write_private(const char *path, const char *text, struct diag *d);

#endif
