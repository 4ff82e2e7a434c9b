/* Declarative parsers: a site's own command outputs read into facts from
 * a YAML definition (markers, record split, regexes whose named captures
 * become fields, the fact kind, the command and its bundle files), so
 * that a support team reads a new tool without writing C.  Patterns go
 * through engine/regex.c and its match limits. */
#ifndef RD_DPARSE_H
#define RD_DPARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/parsers/parse.h"
#include "engine/diag.h"

#define DPARSE_MAX 64 /* parsers in one set */
#define DPARSE_PATTERNS_MAX 16 /* markers, and field patterns, per parser */
#define DPARSE_ARGV_MAX 7 /* words of the command collect runs */
#define DPARSE_FILES_MAX 7 /* bundle paths of its output */
#define DPARSE_WORD_MAX 256 /* bytes of one word, path, name or value */
#define DPARSE_LINE_MAX 4096 /* bytes of a line a pattern sees */
#define DPARSE_SCAN_LINES 200 /* lines detection reads */
#define DPARSE_TIMEOUT_MAX 600 /* seconds a command may be given */

struct dparse;
struct dparse_set;

struct dparse_set *dparse_set_new(void);
/* NULL does nothing. */
void dparse_set_free(struct dparse_set *set);

/* Loads the 'parsers' of one YAML file (named name in messages, NULL: the
 * path).  A parser with a name already in the set replaces it (a later
 * overlay wins); the same name twice in one file is an error.  Every
 * mistake goes to d at file:line:col; returns the parsers loaded or
 * -EINVAL. */
int dparse_load_file(struct dparse_set *set, const char *path,
		     const char *name, struct diag *d);
int dparse_load_string(struct dparse_set *set, const char *name,
		       const char *text, size_t len, struct diag *d);
/* Loads every .yaml file of dir in name order, naming them prefix/file.
 * A missing directory loads nothing.  Returns the count or -EINVAL. */
int dparse_load_dir(struct dparse_set *set, const char *dir,
		    const char *prefix, struct diag *d);

size_t dparse_count(const struct dparse_set *set);
const struct dparse *dparse_at(const struct dparse_set *set, size_t i);
/* The parser named name (the KIND of KIND=FILE), or NULL. */
const struct dparse *dparse_find(const struct dparse_set *set,
				 const char *name);
/* Whether one of p's markers matches a line among the first
 * DPARSE_SCAN_LINES of text (false when p has no markers). */
bool dparse_markers_match(const struct dparse *p, const char *text,
			  size_t len);

const char *dparse_name(const struct dparse *p);
const char *dparse_what(const struct dparse *p);
/* The fact kind it emits. */
const char *dparse_kind(const struct dparse *p);
/* Where it was defined ("site/parsers/sminfo.yaml:4"), owned by p. */
const char *dparse_origin(const struct dparse *p);
/* The command collect runs (argv, NULL-terminated, at most
 * DPARSE_ARGV_MAX words; argv[0] NULL when the parser names none), the
 * bundle files of its output ('*' stands for an item, as in the
 * catalog), and its timeout in ms (0: the source's). */
const char *const *dparse_argv(const struct dparse *p);
const char *const *dparse_files(const struct dparse *p);
unsigned dparse_timeout_ms(const struct dparse *p);

/* Parses text into facts through e (each fact cites the first line of its
 * record).  Returns the number of facts added. */
int dparse_run(const struct dparse *p, struct emit *e, const char *text,
	       size_t len);

#endif
