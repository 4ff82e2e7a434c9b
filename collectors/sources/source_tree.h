/* Internal to the source layer: a source's parts, and the operations a
 * tree backend (a directory, or an archive read into memory) provides.
 * Paths given to the operations are relative to the tree's root, without
 * a leading '/'; the generic code resolves links through them. */
#ifndef RD_SOURCE_TREE_H
#define RD_SOURCE_TREE_H

#include "collectors/sources/source.h"

enum node_type {
	NODE_FILE,
	NODE_DIR,
	NODE_LINK,
	NODE_OTHER,
};

struct tree_ops {
	/* 0 with the type, or a negative errno (-ENOENT). */
	int (*lstat)(const struct source *s, const char *rel,
		     enum node_type *type);
	/* The link's target into buf; 0 or a negative errno. */
	int (*readlink)(const struct source *s, const char *rel, char *buf,
			size_t size);
	/* A regular file's content, at most max bytes; where names it. */
	int (*read)(const struct source *s, const char *rel, const char *where,
		    size_t max, struct fetch *out);
	/* A directory's entries (unsorted). */
	int (*list)(const struct source *s, const char *rel, struct names *out);
	void (*free)(struct source *s);
};

struct manifest_cmd {
	char *exec;
	char *file;
	int rc;
	bool timeout; /* killed at the timeout when it was collected */
};

struct snapshot;

struct source {
	enum source_kind kind;
	char *path; /* the tree's root; "" for the live host */
	struct snapshot *rec; /* records what is read, for collect */
	struct source_opts o;
	const struct tree_ops *ops;
	/* When recording, the backend's operations; ops then wraps them
	 * (source_record.c). */
	const struct tree_ops *recorded;
	void *tree; /* the backend's state */
	/* A sysinfo-snapshot's virtual files; ops then wraps the backend's
	 * (sysinfo.c). */
	void *overlay;
	char *detail; /* what opening the source noticed */
	struct manifest_cmd *manifest;
	size_t nmanifest, capmanifest;
};

/* From now on s's tree operations also note what they serve into rec
 * (source_record.c); the command outputs a live source runs are noted by
 * the source itself.  Once only. */
void source_tree_record(struct source *s, struct snapshot *rec);

/* Fills a failed fetch. */
void source_fail(struct fetch *out, enum fetch_status st, const char *where,
		 const char *detail);
/* Finishes building a tree source: detects the bundle kind (unless
 * root_only) and reads sos's manifest. */
void source_tree_ready(struct source *s, bool root_only, struct diag *d);
/* max, or the source's cap on a whole read when max is 0. */
size_t source_max_read(const struct source *s, size_t max);
/* Reads sos 4.x's sos_reports/manifest.json into s->manifest, if there is
 * one; a manifest that cannot be read is a warning into d
 * (source_command.c). */
void source_load_manifest(struct source *s, struct diag *d);

#endif
