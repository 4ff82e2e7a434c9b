/* .xz data decoded on several threads (the only user of liblzma). */
#ifndef RD_XZSTREAM_H
#define RD_XZSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct xzstream;

/* Whether head (len bytes, the start of a file or buffer) opens an .xz
 * stream: the six magic bytes FD 37 7A 58 5A 00. */
bool xzstream_is_xz(const void *head, size_t len);

/* A decoder of the .xz data read from fd (borrowed: read from where it
 * stands to its end, never closed here), or of len bytes at data
 * (borrowed, must outlive the decoder) when fd is negative.  Blocks are
 * decoded on as many threads as there are processors online (at most
 * 8), ahead of the reader, while their buffers stay under a quarter of
 * physical memory; a file of one block, or one written without block
 * sizes, is decoded on one thread.  Concatenated streams are read one
 * after the other, as xz -dc reads them.  Returns an owned decoder, for
 * xzstream_free. */
struct xzstream *xzstream_new(int fd, const void *data, size_t len);

/* The next decoded bytes: points *out at them (valid until the next call
 * or xzstream_free) and returns how many, 0 at the end of the data, or
 * -1 when the data is corrupt, cut short or unreadable; the message is
 * then xzstream_error's.  Everything decoded before the damage is handed
 * over first, so the error comes only when nothing more can be read. */
ssize_t xzstream_read(struct xzstream *x, const void **out);

/* What went wrong, for a message: e.g. "xz data cut short after 1048576
 * bytes decoded (LZMA_BUF_ERROR)"; "" while nothing has. */
const char *xzstream_error(const struct xzstream *x);

/* Frees the decoder and stops its threads; NULL does nothing. */
void xzstream_free(struct xzstream *x);

#endif
