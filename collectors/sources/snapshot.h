/* Snapshots (rdmadoctor collect): a recording of every file, directory,
 * link and command output the collectors read from a host, written as a
 * sosreport-layout .tar.gz.  Analysing it replays the same reads, so it
 * gives the same diagnoses as checking the host did. */
#ifndef RD_SNAPSHOT_H
#define RD_SNAPSHOT_H

#include <stddef.h>

#include "collectors/sources/source.h"
#include "engine/diag.h"

struct snapshot;

struct snapshot *snapshot_new(void);
void snapshot_free(struct snapshot *snap);

/* Recording hooks, called by the source layer with paths relative to the
 * host's root. */
void snapshot_note_dir(struct snapshot *snap, const char *rel);
void snapshot_note_link(struct snapshot *snap, const char *rel,
			const char *target);
void snapshot_note_file(struct snapshot *snap, const char *rel,
			const char *data, size_t len);
/* A command's output, filed under sos_commands/rdmadoctor/ and mapped in
 * the manifest; exit_code -1 records a command killed at its timeout. */
void snapshot_note_command(struct snapshot *snap, const char *cmdline,
			   const char *out, size_t len, int exit_code);
/* A file of rdmadoctor's own (sos_commands/rdmadoctor/<name>). */
void snapshot_add(struct snapshot *snap, const char *name, const char *data,
		  size_t len);

/* Files recorded so far. */
size_t snapshot_count(const struct snapshot *snap);

/* Replaces every recorded file's content, link target and command line
 * (the manifest's) with what mask makes of it: an owned copy, its length
 * in *outlen (collect --redact).  Paths are kept, since the replay finds
 * the files by them. */
typedef char *(*snapshot_mask_fn)(void *ctx, const char *data, size_t len,
				   size_t *outlen);
void snapshot_mask(struct snapshot *snap, snapshot_mask_fn mask, void *ctx);

/* Writes the snapshot into fd (borrowed, left open) as a .tar.gz whose
 * top directory is rdmadoctor-<host>-<UTC time>; the caller makes the
 * file and puts it in place (cli/savefile).  Returns 0, or a negative
 * errno with a message in err. */
int snapshot_write(struct snapshot *snap, int fd, const char *hostname,
		   char *err, size_t errsize);

#endif
