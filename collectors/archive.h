/* Compressed data and tar archives (the only user of libarchive). */
#ifndef RD_ARCHIVE_H
#define RD_ARCHIVE_H

#include <stddef.h>

/* Decompresses gzip, xz or bzip2 data held in memory (e.g.
 * /proc/config.gz), keeping at most max bytes.  Returns 0 with an owned,
 * NUL-terminated *out, or a negative errno with a message in err. */
int archive_decompress(const char *data, size_t len, size_t max, char **out,
		       size_t *outlen, char *err, size_t errsize);

#endif
