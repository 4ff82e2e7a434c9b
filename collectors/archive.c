/* libarchive behind a small interface. */
#include "collectors/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/strbuf.h"

int archive_decompress(const char *data, size_t len, size_t max, char **out,
		       size_t *outlen, char *err, size_t errsize)
{
	struct archive *a = archive_read_new();
	struct archive_entry *entry;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	la_ssize_t n;
	int rc = 0;

	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, data, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &entry) != ARCHIVE_OK) {
		snprintf(err, errsize, "%s",
			 archive_error_string(a) ? archive_error_string(a) :
						   "not compressed data");
		rc = -EINVAL;
		goto out;
	}
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
		if (sb.len + (size_t)n > max) {
			snprintf(err, errsize,
				 "more than %zu bytes once decompressed", max);
			rc = -E2BIG;
			goto out;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	if (n < 0) {
		snprintf(err, errsize, "%s", archive_error_string(a));
		rc = -EIO;
	}
out:
	archive_read_free(a);
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
	if (archive_entry_hardlink(e))
		return ARCHIVE_HARDLINK;
	switch (archive_entry_filetype(e)) {
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

/* Reads a member's content, keeping max bytes; the rest is skipped. */
static int read_member(struct archive *a, size_t max, uint64_t *total,
		       uint64_t total_max, struct strbuf *sb, bool *truncated)
{
	char buf[65536];
	la_ssize_t n;

	*truncated = false;
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
		size_t keep = sb->len >= max ? 0 : max - sb->len;

		*total += (uint64_t)n;
		if (*total > total_max)
			return -E2BIG;
		if (keep > (size_t)n)
			keep = (size_t)n;
		if (keep)
			sb_add(sb, buf, keep);
		if (keep < (size_t)n)
			*truncated = true;
	}
	return n < 0 ? -EIO : 0;
}

int archive_walk(const char *path, size_t member_max, uint64_t total_max,
		 archive_member_fn fn, void *ctx, char *err, size_t errsize)
{
	struct archive *a = archive_read_new();
	struct archive_entry *entry;
	uint64_t total = 0;
	int rc = 0, r;

	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		snprintf(err, errsize, "%s", archive_error_string(a));
		archive_read_free(a);
		return -EINVAL;
	}
	while ((r = archive_read_next_header(a, &entry)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		struct archive_member m = { 0 };
		struct strbuf sb = STRBUF_INIT;
		bool truncated = false;

		m.path = archive_entry_pathname(entry);
		m.type = member_type(entry);
		m.size = archive_entry_size(entry);
		m.link = m.type == ARCHIVE_HARDLINK ?
				 archive_entry_hardlink(entry) :
			 m.type == ARCHIVE_SYMLINK ?
				 archive_entry_symlink(entry) :
				 NULL;
		if (!m.path)
			continue;
		if (m.type == ARCHIVE_FILE) {
			rc = read_member(a, member_max, &total, total_max, &sb,
					 &truncated);
			if (rc == -E2BIG) {
				snprintf(
					err, errsize,
					"more than %llu MiB once decompressed (a decompression bomb?)",
					(unsigned long long)(total_max >> 20));
				sb_release(&sb);
				break;
			}
			if (rc) {
				snprintf(err, errsize, "member '%s': %s",
					 m.path,
					 archive_error_string(a) ?
						 archive_error_string(a) :
						 "read error");
				sb_release(&sb);
				break;
			}
		}
		rc = fn(ctx, &m, m.type == ARCHIVE_FILE ? sb_str(&sb) : NULL,
			sb.len, truncated);
		sb_release(&sb);
		if (rc)
			break;
	}
	if (!rc && r != ARCHIVE_EOF) {
		snprintf(err, errsize, "%s",
			 archive_error_string(a) ? archive_error_string(a) :
						   "corrupt archive");
		rc = -EIO;
	}
	archive_read_free(a);
	return rc;
}

int archive_write_tgz(const char *path, const struct archive_out *m, size_t n,
		      char *err, size_t errsize)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	time_t now = time(NULL);
	int rc = 0;

	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK) {
		snprintf(err, errsize, "%s", archive_error_string(a));
		rc = -EIO;
		goto out;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		archive_entry_clear(e);
		archive_entry_set_pathname(e, m[i].path);
		archive_entry_set_mtime(e, now, 0);
		switch (m[i].type) {
		case ARCHIVE_DIR:
			archive_entry_set_filetype(e, AE_IFDIR);
			archive_entry_set_perm(e, 0755);
			break;
		case ARCHIVE_SYMLINK:
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_perm(e, 0777);
			archive_entry_set_symlink(e, m[i].link);
			break;
		default:
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_perm(e, 0644);
			archive_entry_set_size(e, (la_int64_t)m[i].len);
			break;
		}
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    (m[i].type == ARCHIVE_FILE && m[i].len &&
		     archive_write_data(a, m[i].data, m[i].len) !=
			     (la_ssize_t)m[i].len)) {
			snprintf(err, errsize, "%s: %s", m[i].path,
				 archive_error_string(a));
			rc = -EIO;
		}
	}
	if (archive_write_close(a) != ARCHIVE_OK && !rc) {
		snprintf(err, errsize, "%s", archive_error_string(a));
		rc = -EIO;
	}
out:
	archive_entry_free(e);
	archive_write_free(a);
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
	return n >= 262 && !memcmp(h + 257, "ustar", 5);
}
