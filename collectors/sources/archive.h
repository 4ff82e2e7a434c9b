/* Compressed data and tar archives (the only user of libarchive). */
#ifndef RD_ARCHIVE_H
#define RD_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decompresses gzip, xz (through xzstream) or bzip2 data held in memory
 * (e.g. /proc/config.gz), keeping at most max bytes.  Returns 0 with an owned,
 * NUL-terminated *out, or a negative errno with a message in err. */
int archive_decompress(const char *data, size_t len, size_t max, char **out,
		       size_t *outlen, char *err, size_t errsize);

enum archive_member_type {
	ARCHIVE_FILE,
	ARCHIVE_DIR,
	ARCHIVE_SYMLINK,
	ARCHIVE_HARDLINK,
	ARCHIVE_OTHER, /* devices, fifos: indexed, never read */
};

struct archive_member {
	const char *path; /* as stored in the archive */
	enum archive_member_type type;
	const char *link; /* target of a symlink or hard link */
	int64_t size; /* size the archive declares, or -1 */
};

/* Called for each regular file before its content is read: how many bytes
 * of it to keep (0: none; the content is then read past, never stored). */
typedef size_t (*archive_keep_fn)(void *ctx, const struct archive_member *m);

/* How much of a member's content fn receives. */
enum archive_cut {
	ARCHIVE_WHOLE,
	ARCHIVE_CUT_CAP, /* more bytes existed than were kept */
	ARCHIVE_CUT_SHORT, /* the archive ended or broke inside the member */
};

/* Called for each member with its content (files only; NULL otherwise or
 * when none was kept).  data is malloc'ed, NUL-terminated and passes to
 * the callee.  A member cut short is handed over with what was read of
 * it, and the walk then fails (-EIO).  A non-zero return stops the walk
 * and is returned. */
typedef int (*archive_member_fn)(void *ctx, const struct archive_member *m,
				 char *data, size_t len, enum archive_cut cut);

/* Walks a tar archive (compressed with gzip, xz, bzip2, zstd, lz4 or not
 * at all), or a zip archive, in
 * one streaming pass, nothing extracted to disk (xz decoded on several
 * threads ahead of the reader, see xzstream.h), keeping of each member
 * what keep says; content is copied once, from the decompressor into the
 * buffer fn receives.  More than total_max bytes of content in all is
 * refused (-E2BIG), which stops decompression bombs; the holes of a
 * sparse member cost nothing to read past, and count only where they are
 * kept.  Returns 0, the
 * callback's value, or a negative errno with a message in err (a
 * truncated or corrupt archive gives -EIO after the members read so
 * far). */
int archive_walk(const char *path, uint64_t total_max, archive_keep_fn keep,
		 archive_member_fn fn, void *ctx, char *err, size_t errsize);

/* A member to write. */
struct archive_out {
	const char *path;
	enum archive_member_type type; /* FILE, DIR or SYMLINK */
	const char *data; /* FILE */
	size_t len;
	const char *link; /* SYMLINK target */
};

/* Writes a gzip-compressed tar archive of the members into fd (borrowed,
 * left open).  Returns 0, or a negative errno with a message in err. */
int archive_write_tgz(int fd, const struct archive_out *m, size_t n,
		      char *err, size_t errsize);

/* Whether the file starts like a tar or zip archive or compressed data
 * (gzip, xz, bzip2, zstd, lz4). */
bool archive_looks_like(const char *path);

#endif
