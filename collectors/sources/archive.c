/* libarchive behind a small interface. */
#include "collectors/sources/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "collectors/sources/xzstream.h"
#include "engine/dynlib.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* libarchive's functions, looked up when it is first needed (dynlib.h). */
#define LIBARCHIVE_CALLS(X)                   \
	X(archive_entry_clear)                \
	X(archive_entry_filetype)             \
	X(archive_entry_free)                 \
	X(archive_entry_hardlink)             \
	X(archive_entry_new)                  \
	X(archive_entry_pathname)             \
	X(archive_entry_set_filetype)         \
	X(archive_entry_set_mtime)            \
	X(archive_entry_set_pathname)         \
	X(archive_entry_set_perm)             \
	X(archive_entry_set_size)             \
	X(archive_entry_set_symlink)          \
	X(archive_entry_size)                 \
	X(archive_entry_size_is_set)          \
	X(archive_entry_symlink)              \
	X(archive_error_string)               \
	X(archive_read_data)                  \
	X(archive_read_data_block)            \
	X(archive_read_free)                  \
	X(archive_read_new)                   \
	X(archive_read_next_header)           \
	X(archive_read_open2)                 \
	X(archive_read_open_filename)         \
	X(archive_read_open_memory)           \
	X(archive_read_support_filter_all)    \
	X(archive_read_support_format_gnutar) \
	X(archive_read_support_format_raw)    \
	X(archive_read_support_format_tar)    \
	X(archive_read_support_format_zip)    \
	X(archive_set_error)                  \
	X(archive_write_add_filter_gzip)      \
	X(archive_write_close)                \
	X(archive_write_data)                 \
	X(archive_write_free)                 \
	X(archive_write_header)               \
	X(archive_write_new)                  \
	X(archive_write_open_fd)              \
	X(archive_write_set_format_pax_restricted)

#define LA_POINTER(f) __typeof__(f) *f;
static struct {
	LIBARCHIVE_CALLS(LA_POINTER)
} la;

#define LA_SYM(f) { #f, (void **)&la.f },
static const struct dynlib_sym la_syms[] = { LIBARCHIVE_CALLS(LA_SYM) };

static struct dynlib libarchive =
	DYNLIB_INIT("libarchive.so.13", NULL,
		    "libarchive13 (libarchive on RPM systems)", la_syms);

/* Decompresses .xz data in memory on xzstream's threads. */
static int decompress_xz(const char *data, size_t len, size_t max,
			 struct strbuf *sb, char *err, size_t errsize)
{
	struct xzstream *x = xzstream_new(-1, data, len);
	const void *block;
	ssize_t n;
	int rc = 0;

	while ((n = xzstream_read(x, &block)) > 0) {
		if (sb->len + (size_t)n > max) {
			snprintf(err, errsize,
				 "more than %zu bytes once decompressed", max);
			rc = -E2BIG;
			break;
		}
		sb_add(sb, block, (size_t)n);
	}
	if (n < 0) {
		snprintf(err, errsize, "%s", xzstream_error(x));
		rc = -EIO;
	}
	xzstream_free(x);
	return rc;
}

/* Decompresses gzip or bzip2 data in memory through libarchive. */
static int decompress_other(const char *data, size_t len, size_t max,
			    struct strbuf *sb, char *err, size_t errsize)
{
	const char *why = dynlib_open(&libarchive);
	struct archive *a;
	struct archive_entry *entry;
	char buf[65536];
	la_ssize_t n;
	int rc = 0;

	if (why) {
		snprintf(err, errsize, "%s", why);
		return -ENOSYS;
	}
	a = la.archive_read_new();
	la.archive_read_support_filter_all(a);
	la.archive_read_support_format_raw(a);
	if (la.archive_read_open_memory(a, data, len) != ARCHIVE_OK ||
	    la.archive_read_next_header(a, &entry) != ARCHIVE_OK) {
		snprintf(err, errsize, "%s",
			 la.archive_error_string(a) ?
				 la.archive_error_string(a) :
				 "not compressed data");
		rc = -EINVAL;
		goto out;
	}
	while ((n = la.archive_read_data(a, buf, sizeof(buf))) > 0) {
		if (sb->len + (size_t)n > max) {
			snprintf(err, errsize,
				 "more than %zu bytes once decompressed", max);
			rc = -E2BIG;
			goto out;
		}
		sb_add(sb, buf, (size_t)n);
	}
	if (n < 0) {
		snprintf(err, errsize, "%s", la.archive_error_string(a));
		rc = -EIO;
	}
out:
	la.archive_read_free(a);
	return rc;
}

int archive_decompress(const char *data, size_t len, size_t max, char **out,
		       size_t *outlen, char *err, size_t errsize)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = xzstream_is_xz(data, len) ?
			 decompress_xz(data, len, max, &sb, err, errsize) :
			 decompress_other(data, len, max, &sb, err, errsize);

	if (rc) {
		sb_release(&sb);
		return rc;
	}
	*outlen = sb.len;
	*out = sb_detach(&sb);
	return 0;
}

static enum archive_member_type member_type(struct archive_entry *e)
{
	if (la.archive_entry_hardlink(e))
		return ARCHIVE_HARDLINK;
	switch (la.archive_entry_filetype(e)) {
	case AE_IFREG:
		return ARCHIVE_FILE;
	case AE_IFDIR:
		return ARCHIVE_DIR;
	case AE_IFLNK:
		return ARCHIVE_SYMLINK;
	default:
		return ARCHIVE_OTHER;
	}
}

/* A buffer for a member, its pages mapped in one call where the kernel
 * can (MADV_POPULATE_WRITE, Linux 5.14), rather than one fault a page:
 * in a VM a fault is dear, and a large member fills its buffer anyway. */
static char *member_buffer(size_t size)
{
	char *p = xmalloc(size);

#ifdef MADV_POPULATE_WRITE
	if (size >= (1u << 20)) {
		uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
		uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
		uintptr_t e = ((uintptr_t)p + size) & ~(page - 1);

		if (e > a)
			madvise((void *)a, e - a, MADV_POPULATE_WRITE);
	}
#endif
	return p;
}

/* What is kept of a member: at most keep bytes of it. */
struct content {
	char *data; /* owned; NULL when nothing is kept */
	size_t len, cap, keep;
	bool truncated; /* the member holds more than keep bytes */
};

/* Copies the part of a block at offset that falls below keep into c,
 * zeros for a hole a sparse member leaves before it. */
static void keep_block(struct content *c, const char *block, size_t size,
		       uint64_t offset)
{
	uint64_t end = offset + size;
	size_t start;

	if (end > c->keep) {
		c->truncated = true;
		end = c->keep;
	}
	if (end > c->cap) { /* more than the archive declared */
		size_t grown = c->cap * 2 + 4096;

		c->cap = grown > c->keep ? c->keep : grown;
		if (c->cap < end)
			c->cap = (size_t)end;
		c->data = xrealloc(c->data, c->cap + 1);
	}
	start = offset < end ? (size_t)offset : (size_t)end;
	if (start > c->len)
		memset(c->data + c->len, 0, start - c->len);
	if (end > start)
		memcpy(c->data + start, block, (size_t)end - start);
	if (end > c->len)
		c->len = (size_t)end;
}

/* Reads a member's content block by block as the decompressor hands it
 * over, copying into c what c keeps and reading the rest past unstored.
 * Every byte counts towards *total, the zeros of a sparse member's holes
 * too; more than total_max gives -E2BIG, a read error -EIO.  c->data is
 * owned by the caller either way. */
static int read_member(struct archive *a, int64_t declared, uint64_t *total,
		       uint64_t total_max, struct content *c)
{
	const void *block;
	size_t size;
	la_int64_t offset;
	uint64_t at = 0; /* where the last block ended */
	int r;

	if (c->keep) {
		c->cap = declared >= 0 && (uint64_t)declared < c->keep ?
				 (size_t)declared :
				 c->keep;
		c->data = member_buffer(c->cap + 1);
	}
	while ((r = la.archive_read_data_block(a, &block, &size, &offset)) ==
	       ARCHIVE_OK) {
		if (offset < 0 || (uint64_t)offset < at)
			return -EIO; /* out of order */
		/* A hole costs only what of it is kept (zeros in c). */
		*total += size;
		if (at < c->keep) {
			uint64_t upto = (uint64_t)offset < c->keep ?
						(uint64_t)offset :
						c->keep;

			*total += upto - at;
		}
		if (*total > total_max)
			return -E2BIG;
		at = (uint64_t)offset + size;
		if (c->keep)
			keep_block(c, block, size, (uint64_t)offset);
	}
	if (c->data)
		c->data[c->len] = '\0';
	return r == ARCHIVE_EOF ? 0 : -EIO;
}

/* An .xz file, decoded by xzstream and read by libarchive from its
 * blocks: libarchive 3.6 decodes xz on one thread. */
struct xz_input {
	int fd;
	struct xzstream *x;
};

/* Decoded bytes read on past a tar error to find liblzma's reason. */
#define XZ_DRAIN_MAX (64u << 20)

static la_ssize_t xz_read(struct archive *a, void *ctx, const void **block)
{
	struct xz_input *in = ctx;
	ssize_t n = xzstream_read(in->x, block);

	if (n < 0) {
		la.archive_set_error(a, EIO, "%s", xzstream_error(in->x));
		return ARCHIVE_FATAL;
	}
	return n;
}

/* Opens path for a: through xzstream when it starts with the xz magic
 * (in then holds the file and the decoder, for close_input), through
 * libarchive's own reader otherwise. */
static int open_input(struct archive *a, const char *path, struct xz_input *in)
{
	unsigned char magic[6];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && pread(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
	    xzstream_is_xz(magic, sizeof(magic))) {
		in->fd = fd;
		in->x = xzstream_new(fd, NULL, 0);
		return la.archive_read_open2(a, in, NULL, xz_read, NULL, NULL);
	}
	if (fd >= 0)
		close(fd);
	return la.archive_read_open_filename(a, path, 65536);
}

/* Why reading a failed, with the xz decoder's reason first: corrupt xz
 * data decodes to garbage until liblzma's check catches it, and the tar
 * reader may stumble on the garbage before, so the decoder is run on
 * (at most XZ_DRAIN_MAX more bytes) to tell a damaged tar inside sound
 * xz data from damaged xz data.  The message is a's or in's. */
static const char *read_error(struct archive *a, struct xz_input *in,
			      const char *otherwise)
{
	const void *block;
	ssize_t n = 1;

	for (size_t drained = 0; in->x && n > 0 && drained < XZ_DRAIN_MAX;
	     drained += (size_t)n)
		n = xzstream_read(in->x, &block);
	if (in->x && n < 0)
		return xzstream_error(in->x);
	return la.archive_error_string(a) ? la.archive_error_string(a) :
					    otherwise;
}

/* Frees what open_input kept; after archive_read_free, which reads no
 * more. */
static void close_input(struct xz_input *in)
{
	xzstream_free(in->x);
	if (in->fd >= 0)
		close(in->fd);
}

int archive_walk(const char *path, uint64_t total_max, archive_keep_fn keep,
		 archive_member_fn fn, void *ctx, char *err, size_t errsize)
{
	const char *why = dynlib_open(&libarchive);
	struct archive *a;
	struct archive_entry *entry;
	struct xz_input in = { -1, NULL };
	uint64_t total = 0;
	int rc = 0, r;

	if (why) {
		snprintf(err, errsize, "%s", why);
		return -ENOSYS;
	}
	a = la.archive_read_new();
	la.archive_read_support_filter_all(a);
	la.archive_read_support_format_tar(a);
	la.archive_read_support_format_gnutar(a);
	la.archive_read_support_format_zip(a); /* a report zipped on Windows */
	if (open_input(a, path, &in) != ARCHIVE_OK) {
		snprintf(err, errsize, "%s", la.archive_error_string(a));
		la.archive_read_free(a);
		close_input(&in);
		return -EINVAL;
	}
	while ((r = la.archive_read_next_header(a, &entry)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		struct archive_member m = { 0 };
		struct content c = { 0 };

		m.path = la.archive_entry_pathname(entry);
		m.type = member_type(entry);
		m.size = la.archive_entry_size_is_set(entry) ?
				 la.archive_entry_size(entry) :
				 -1;
		m.link = m.type == ARCHIVE_HARDLINK ?
				 la.archive_entry_hardlink(entry) :
			 m.type == ARCHIVE_SYMLINK ?
				 la.archive_entry_symlink(entry) :
				 NULL;
		if (!m.path)
			continue;
		if (m.type == ARCHIVE_FILE) {
			c.keep = keep(ctx, &m);
			rc = read_member(a, m.size, &total, total_max, &c);
			if (rc == -E2BIG)
				snprintf(
					err, errsize,
					"more than %llu MiB once decompressed (a decompression bomb?)",
					(unsigned long long)(total_max >> 20));
			else if (rc)
				snprintf(err, errsize, "member '%s': %s",
					 m.path,
					 read_error(a, &in, "read error"));
			if (rc == -EIO && c.data) {
				/* What was read of it is evidence, cut short. */
				c.data[c.len] = '\0';
				if (!fn(ctx, &m, c.data, c.len,
					ARCHIVE_CUT_SHORT))
					rc = -EIO;
				break;
			}
			if (rc) {
				free(c.data);
				break;
			}
		}
		rc = fn(ctx, &m, c.data, c.len,
			c.truncated ? ARCHIVE_CUT_CAP : ARCHIVE_WHOLE);
		if (rc)
			break;
	}
	if (!rc && r != ARCHIVE_EOF) {
		snprintf(err, errsize, "%s",
			 read_error(a, &in, "corrupt archive"));
		rc = -EIO;
	}
	la.archive_read_free(a);
	close_input(&in);
	return rc;
}

int archive_write_tgz(int fd, const struct archive_out *m, size_t n, char *err,
		      size_t errsize)
{
	const char *why = dynlib_open(&libarchive);
	struct archive *a;
	struct archive_entry *e;
	time_t now = time(NULL);
	int rc = 0;

	if (why) {
		snprintf(err, errsize, "%s", why);
		return -ENOSYS;
	}
	a = la.archive_write_new();
	e = la.archive_entry_new();
	la.archive_write_add_filter_gzip(a);
	la.archive_write_set_format_pax_restricted(a);
	if (la.archive_write_open_fd(a, fd) != ARCHIVE_OK) {
		snprintf(err, errsize, "%s", la.archive_error_string(a));
		rc = -EIO;
		goto out;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		la.archive_entry_clear(e);
		la.archive_entry_set_pathname(e, m[i].path);
		la.archive_entry_set_mtime(e, now, 0);
		switch (m[i].type) {
		case ARCHIVE_DIR:
			la.archive_entry_set_filetype(e, AE_IFDIR);
			la.archive_entry_set_perm(e, 0755);
			break;
		case ARCHIVE_SYMLINK:
			la.archive_entry_set_filetype(e, AE_IFLNK);
			la.archive_entry_set_perm(e, 0777);
			la.archive_entry_set_symlink(e, m[i].link);
			break;
		default:
			la.archive_entry_set_filetype(e, AE_IFREG);
			la.archive_entry_set_perm(e, 0644);
			la.archive_entry_set_size(e, (la_int64_t)m[i].len);
			break;
		}
		if (la.archive_write_header(a, e) != ARCHIVE_OK ||
		    (m[i].type == ARCHIVE_FILE && m[i].len &&
		     la.archive_write_data(a, m[i].data, m[i].len) !=
			     (la_ssize_t)m[i].len)) {
			snprintf(err, errsize, "%s: %s", m[i].path,
				 la.archive_error_string(a));
			rc = -EIO;
		}
	}
	if (la.archive_write_close(a) != ARCHIVE_OK && !rc) {
		snprintf(err, errsize, "%s", la.archive_error_string(a));
		rc = -EIO;
	}
out:
	la.archive_entry_free(e);
	la.archive_write_free(a);
	return rc;
}

bool archive_looks_like(const char *path)
{
	unsigned char h[512];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return false;
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n >= 6 && !memcmp(h,
			      "\xfd"
			      "7zXZ\0",
			      6))
		return true;
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return true;
	if (n >= 3 && !memcmp(h, "BZh", 3))
		return true;
	if (n >= 4 && !memcmp(h, "\x28\xb5\x2f\xfd", 4)) /* zstd */
		return true;
	if (n >= 4 && !memcmp(h, "\x04\x22\x4d\x18", 4)) /* lz4 frame */
		return true;
	if (n >= 4 && !memcmp(h, "PK\x03\x04", 4)) /* zip */
		return true;
	return n >= 262 && !memcmp(h + 257, "ustar", 5);
}
