/* --save: the host's facts and the session's answers as a fact file that
 * 'rdmadoctor analyze' reads back into the same diagnoses. */
#ifndef RD_SAVEFILE_H
#define RD_SAVEFILE_H

#include "analysis/analysis.h"
#include "engine/diag.h"

/* Writes the snapshot of a to path atomically: a temporary file beside
 * it, renamed over path once complete, with SIGINT, SIGTERM and SIGHUP
 * held off meanwhile, so that an interrupt leaves the old file or the new
 * one and never a part.  Returns 0, or -errno after reporting to d. */
int savefile_write(const struct analysis *a, const char *path, struct diag *d);
/* Writes text to path the same atomic way (--html).  Returns 0, or -errno
 * after reporting to d. */
int savefile_write_text(const char *path, const char *text, struct diag *d);

#endif
