/* liblzma's threaded .xz decoder behind a read-a-block interface. */
#include "collectors/sources/xzstream.h"

#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/xalloc.h"

#define IN_SIZE (1u << 20) /* bytes read from the file at a time */
#define OUT_SIZE (1u << 20) /* decoded bytes handed over at a time */
#define THREADS_MAX 8
/* Threads are given up (one thread, as liblzma falls back) before their
 * buffers pass this share of physical memory, or this much when liblzma
 * cannot tell the size of memory. */
#define PHYSMEM_SHARE 4
#define MEMLIMIT_UNKNOWN (256u << 20)

struct xzstream {
	lzma_stream strm;
	int fd; /* negative: the input is all in memory */
	bool eof; /* all of the input is in (LZMA_FINISH) */
	bool done; /* the last stream ended */
	lzma_ret failed; /* LZMA_OK, or the error to report */
	int read_errno; /* the file's read failed */
	uint8_t *in; /* fd's buffer, IN_SIZE */
	uint8_t *out; /* OUT_SIZE */
	char error[160];
};

/* What a liblzma error means for the data; the enum's name follows, so
 * a report can be looked up in liblzma's documentation. */
static const struct {
	lzma_ret ret;
	const char *name, *what;
} lzma_errors[] = {
	{ LZMA_DATA_ERROR, "LZMA_DATA_ERROR", "xz data corrupt" },
	{ LZMA_BUF_ERROR, "LZMA_BUF_ERROR", "xz data cut short" },
	{ LZMA_FORMAT_ERROR, "LZMA_FORMAT_ERROR", "not xz data" },
	{ LZMA_OPTIONS_ERROR, "LZMA_OPTIONS_ERROR",
	  "xz data with options this liblzma cannot decode" },
	{ LZMA_MEM_ERROR, "LZMA_MEM_ERROR", "out of memory decoding xz data" },
	{ LZMA_MEMLIMIT_ERROR, "LZMA_MEMLIMIT_ERROR",
	  "xz data needing more memory than allowed" },
	{ LZMA_PROG_ERROR, "LZMA_PROG_ERROR", "liblzma refused a call" },
};

bool xzstream_is_xz(const void *head, size_t len)
{
	static const unsigned char magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

static uint32_t threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > THREADS_MAX ? THREADS_MAX : (uint32_t)n;
}

static void set_error(struct xzstream *x, lzma_ret ret)
{
	const char *name = "LZMA_?", *what = "liblzma error";

	x->failed = ret;
	for (size_t i = 0; i < sizeof(lzma_errors) / sizeof(lzma_errors[0]);
	     i++)
		if (lzma_errors[i].ret == ret) {
			name = lzma_errors[i].name;
			what = lzma_errors[i].what;
		}
	snprintf(x->error, sizeof(x->error), "%s after %llu bytes decoded (%s)",
		 what, (unsigned long long)x->strm.total_out, name);
}

struct xzstream *xzstream_new(int fd, const void *data, size_t len)
{
	struct xzstream *x = xcalloc(1, sizeof(*x));
	lzma_stream init = LZMA_STREAM_INIT;
	lzma_mt mt;
	uint64_t physmem = lzma_physmem();
	lzma_ret ret;

	x->strm = init;
	x->fd = fd;
	x->out = xmalloc(OUT_SIZE);
	if (fd >= 0) {
		x->in = xmalloc(IN_SIZE);
	} else {
		x->strm.next_in = data;
		x->strm.avail_in = len;
		x->eof = true;
	}
	memset(&mt, 0, sizeof(mt));
	mt.flags = LZMA_CONCATENATED;
	mt.threads = threads();
	mt.timeout = 0; /* block until there is output */
	mt.memlimit_threading =
		physmem ? physmem / PHYSMEM_SHARE : MEMLIMIT_UNKNOWN;
	/* No cap on one thread's memory, as xz -d and libarchive have
	 * none: a bundle is decoded whatever its dictionary. */
	mt.memlimit_stop = UINT64_MAX;
	ret = lzma_stream_decoder_mt(&x->strm, &mt);
	if (ret != LZMA_OK)
		set_error(x, ret);
	return x;
}

/* Refills the input buffer from the file; false on a read error. */
static bool refill(struct xzstream *x)
{
	ssize_t n;

	do
		n = read(x->fd, x->in, IN_SIZE);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		x->read_errno = errno;
		snprintf(x->error, sizeof(x->error),
			 "reading xz data after %llu bytes: %s",
			 (unsigned long long)x->strm.total_in, strerror(errno));
		return false;
	}
	if (n == 0)
		x->eof = true;
	x->strm.next_in = x->in;
	x->strm.avail_in = (size_t)n;
	return true;
}

ssize_t xzstream_read(struct xzstream *x, const void **out)
{
	x->strm.next_out = x->out;
	x->strm.avail_out = OUT_SIZE;
	while (x->strm.avail_out && !x->done && !x->failed && !x->read_errno) {
		lzma_ret ret;

		if (!x->strm.avail_in && !x->eof && !refill(x))
			break;
		ret = lzma_code(&x->strm, x->eof ? LZMA_FINISH : LZMA_RUN);
		if (ret == LZMA_STREAM_END)
			x->done = true;
		else if (ret != LZMA_OK)
			set_error(x, ret);
	}
	*out = x->out;
	if (x->strm.avail_out < OUT_SIZE)
		return (ssize_t)(OUT_SIZE - x->strm.avail_out);
	return x->failed || x->read_errno ? -1 : 0;
}

const char *xzstream_error(const struct xzstream *x)
{
	return x->error;
}

void xzstream_free(struct xzstream *x)
{
	if (!x)
		return;
	lzma_end(&x->strm);
	free(x->in);
	free(x->out);
	free(x);
}
