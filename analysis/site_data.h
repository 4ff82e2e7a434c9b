/* What an overlay holds besides rules: kb/ files (any kb kind, and the
 * kinds its rule files declare) and parsers/ files (declarative parsers),
 * read from the same overlays as the rules and in the same order. */
#ifndef RD_SITE_DATA_H
#define RD_SITE_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/parsers/dparse.h"
#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/rule.h"

/* The overlay directories analysis_load_rules reads, in order: the system
 * and user ones when site, then dirs.  Calls fn(dir, arg) for each that
 * is a directory; stops at and returns fn's first nonzero result. */
int site_data_each_dir(const char *const *dirs, size_t ndirs, bool site,
		       int (*fn)(const char *dir, void *arg), void *arg);

/* Loads DIR/kb/ of every overlay into fb (kinds declared in rs allowed)
 * and DIR/parsers/ into a new parser set, *parsers (owned by the caller;
 * NULL when no overlay has parsers).  Mistakes go to d at file:line:col;
 * returns the kb entries loaded, or -EINVAL (then *parsers is NULL). */
int site_data_load(const char *const *dirs, size_t ndirs, bool site,
		   const struct rule_set *rs, struct fact_base *fb,
		   struct dparse_set **parsers, struct diag *d);

#endif
