/* YAML documents as plain trees with line:col marks (the only user of
 * libyaml).  Anchors and aliases are refused, depth and size are bounded. */
#ifndef RD_YDOC_H
#define RD_YDOC_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/diag.h"

enum ynode_type {
	YNODE_SCALAR,
	YNODE_SEQ,
	YNODE_MAP,
};

struct ynode {
	enum ynode_type type;
	int line, col; /* 1-based position of the node's start */
	bool plain; /* scalar written without quotes */
	char *str; /* scalar text, NUL-terminated */
	size_t len;
	size_t n; /* sequence items, or mapping pairs */
	struct ynode **items; /* sequence: n items; mapping: key, value pairs */
};

struct ydoc;

/* Parses a YAML file or buffer.  Returns NULL after reporting to d
 * ("file:line:col: message") when the text is not a YAML document this
 * loader accepts.  An empty document gives a doc whose root is NULL.
 * name is how messages and records name the file (NULL: the path). */
struct ydoc *ydoc_load_file(const char *path, const char *name, struct diag *d);
struct ydoc *ydoc_load_string(const char *name, const char *text, size_t len,
			      struct diag *d);
void ydoc_free(struct ydoc *doc);

const struct ynode *ydoc_root(const struct ydoc *doc);
const char *ydoc_name(const struct ydoc *doc);

/* A YAML file of a directory: its path, and the name it goes by. */
struct ydoc_file {
	char *path;
	char *name;
};

/* Lists the .yaml files of dir, sorted; hidden files and names ending in
 * skip (when not NULL) are left out.  Each is named prefix/file (or by
 * its path when prefix is NULL).  Returns the count, or -errno when the
 * directory cannot be read.  Free with ydoc_files_free(). */
int ydoc_dir(const char *dir, const char *prefix, const char *skip,
	     struct ydoc_file **out);
void ydoc_files_free(struct ydoc_file *files, int n);

/* Reports a problem at node n (or at the file when n is NULL), with the
 * source line as the snippet. */
void ydoc_report(const struct ydoc *doc, struct diag *d, enum diag_level lvl,
		 const struct ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Mapping helpers: the value for key, or NULL; the key node of pair i. */
const struct ynode *ynode_get(const struct ynode *map, const char *key);
const struct ynode *ynode_key(const struct ynode *map, size_t i);
const struct ynode *ynode_value(const struct ynode *map, size_t i);
bool ynode_is_scalar(const struct ynode *n);
const char *ynode_type_to_str(const struct ynode *n);

/* "; did you mean 'x'?" when one of the candidates is close to word, else
 * "".  The result lives until the next call. */
const char *ydoc_hint(const char *word, const char *const *cands, size_t n);
/* The candidate closest to word (a prefix of three letters or more, else
 * fewer than three edits away), or NULL. */
const char *ydoc_nearest(const char *word, const char *const *cands,
			 size_t n);

#endif
