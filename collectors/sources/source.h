/* Where evidence comes from.  A collector never opens a path or runs a
 * program itself: it asks a source for "/sys/class/infiniband/mlx5_0/
 * fw_ver" or for the output of "ibstat", and the source knows where that
 * lives: on the running host, below a --root directory, or inside a
 * sosreport, sysinfo-snapshot or rdmadoctor snapshot (a directory or a
 * tarball read in place). */
#ifndef RD_SOURCE_H
#define RD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/sources/catalog.h"
#include "engine/diag.h"

enum fetch_status {
	FETCH_OK,
	FETCH_MISSING, /* not there (not collected, not installed) */
	FETCH_ERROR, /* there but unreadable, or the tool failed */
	FETCH_TIMEOUT, /* the command was killed at the timeout */
	FETCH_TRUNCATED, /* only part of it (a cap, or sos's .tailed) */
};

const char *fetch_status_to_str(enum fetch_status s);

/* What a read or a command produced. */
struct fetch {
	enum fetch_status status;
	char *data; /* NUL-terminated; may hold NUL bytes; read-only */
	size_t len;
	char *where; /* provenance: bundle path, or "live: ibstat" */
	char *detail; /* why not OK, or NULL */
	int exit_code; /* commands; -1 when unknown */
	bool borrowed; /* data belongs to the source (an archive member) */
};

/* Frees what f owns (its data unless borrowed) and clears it. */
void fetch_release(struct fetch *f);
/* Gives f new data (owned; a decompressed form of the old, say),
 * releasing the old data unless it was borrowed. */
void fetch_replace(struct fetch *f, char *data, size_t len);

/* A sorted list of names. */
struct names {
	char **v;
	size_t n, cap;
};

void names_add(struct names *l, const char *s);
void names_sort(struct names *l);
void names_release(struct names *l);

#define SOURCE_KINDS(X)                                                     \
	X(LIVE, "live", "the running host")                                 \
	X(ROOT, "root", "a directory snapshot given by --root")             \
	X(SOSREPORT, "sosreport", "a sosreport")                            \
	X(SNAPSHOT, "snapshot", "an rdmadoctor collect bundle")             \
	X(SYSINFO, "sysinfo-snapshot", "an NVIDIA sysinfo-snapshot bundle") \
	X(FILES, "files", "loose command outputs")

enum source_kind {
#define X(id, name, doc) SOURCE_##id,
	SOURCE_KINDS(X)
#undef X
};

const char *source_kind_to_str(enum source_kind kind);

struct source;

struct source_opts {
	unsigned timeout_ms; /* per command, live */
	size_t max_read; /* per file or command output */
	uint64_t max_total; /* all content of an archive */
	size_t keep_any; /* archive members kept whatever they are */
};

/* The running host. */
struct source *source_live_new(const struct source_opts *o);
/* A directory: a sosreport, snapshot or sysinfo-snapshot when it has
 * their markers, else a --root style tree.  root_only forces the latter.
 * NULL after reporting to d when the directory cannot be read. */
struct source *source_dir_new(const char *dir, bool root_only,
			      const struct source_opts *o, struct diag *d);
/* Whether a directory holds one host's evidence: the top of a sosreport,
 * snapshot or sysinfo-snapshot, or a --root style tree (sys/ or proc/),
 * rather than, say, a directory of bundles. */
bool source_dir_is_bundle(const char *dir);
/* What a path names, as analyze and batch both judge it. */
enum source_path {
	SOURCE_PATH_BUNDLE_DIR, /* a directory source_dir_is_bundle accepts */
	SOURCE_PATH_OTHER_DIR, /* any other directory */
	SOURCE_PATH_ARCHIVE, /* a regular file that starts like a tar archive
			      * or compressed data */
	SOURCE_PATH_FILE, /* any other regular file: a loose command output,
			   * a list of paths */
	SOURCE_PATH_SPECIAL, /* a FIFO, device or socket: never a bundle */
};
/* The kind of path, or a negative errno when it cannot be looked at. */
int source_path_what(const char *path);
/* Opens the bundle path names: a directory (a bundle, or else a --root
 * style tree) or a tar archive.  Returns the source; NULL with *err 0
 * when path is a loose file (a compressed single file among them, and a
 * path that cannot be looked at: reading it will say why); NULL with
 * *err set after reporting to d a bundle that cannot be read. */
struct source *source_open(const char *path, const struct source_opts *o,
			   struct diag *d, int *err);
/* A tar archive (.tar.xz, .tar.gz, .tgz, .tar.bz2, .tar) read in place
 * with nothing extracted to disk: members are read into memory in one
 * pass, within the per-member and total caps of the options (but a large
 * member no collector reads whole is read past, and read again from the
 * archive only if asked for); a common top-level directory is dropped;
 * links resolve inside the archive.
 * NULL after reporting to d when it is not a readable tar archive (*notar
 * is set when it is not a tar archive at all, e.g. one gzip'ed log). */
struct source *source_archive_new(const char *path, bool *notar,
				  const struct source_opts *o, struct diag *d);
void source_free(struct source *s);
struct snapshot;
/* From now on every file, directory, link and command output the source
 * serves is also recorded into rec (rdmadoctor collect). */
void source_record(struct source *s, struct snapshot *rec);
struct snapshot *source_recorder(const struct source *s);
/* How long a command may run (--timeout; default 10 s). */
#define SOURCE_TIMEOUT_MS 10000 /* @@ */
unsigned source_timeout_ms(const struct source *s);

/* What opening the source noticed (members skipped, a truncated
 * archive), or NULL. */
const char *source_detail(const struct source *s);

enum source_kind source_kind(const struct source *s);
const char *source_path(const struct source *s);
bool source_is_live(const struct source *s);

/* How a host path is named in evidence: the path itself on a live host,
 * the path inside the bundle otherwise ("sys/module/mlx5_ib/version").
 * Owned result. */
char *source_name_of(const struct source *s, const char *path);

/* Reads a file by its absolute path on the described host
 * ("/proc/modules").  Symbolic links resolve inside the bundle.  At most
 * max bytes are kept (0 = the source's max_read). */
int source_read(struct source *s, const char *path, size_t max,
		struct fetch *out);
/* Entries of a directory, sorted; 0, or -ENOENT and friends. */
int source_list(struct source *s, const char *dir, struct names *out);
/* The path a link (or chain of links) finally names, as a host path.  In
 * a bundle, a dangling link gives -ENOENT with *out still set to what it
 * names. */
int source_realpath(struct source *s, const char *path, char **out);
bool source_exists(struct source *s, const char *path);
/* Whether the path itself exists, a dangling link included. */
bool source_lexists(struct source *s, const char *path);

/* The output of a catalog command, for one item when the command takes
 * one.  Live sources run it; bundles look it up. */
int source_command(struct source *s, const struct command *cmd,
		   const char *item, struct fetch *out);
/* The same, but a live run gets at most timeout_ms when that is shorter
 * than the source's timeout (0: the source's); a site parser's own. */
int source_command_timed(struct source *s, const struct command *cmd,
			 const char *item, unsigned timeout_ms,
			 struct fetch *out);
/* The items a command has output for (bundles), or that exist to run it
 * on (live: entries of items_dir). */
int source_command_items(struct source *s, const struct command *cmd,
			 struct names *out);

#endif
