/* libarchive behind a small interface. */
#include "collectors/archive.h"

#include <archive.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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
