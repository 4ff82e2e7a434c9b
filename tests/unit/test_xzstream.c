/* The threaded .xz decoder: a multi-block file as sos packs its reports
 * (xz -2 -T4, here with small blocks) decoded from a file and from memory
 * to the bytes that went in; a file cut short and one with a corrupt byte
 * giving liblzma's reason; and a tar.xz walked through it, whole, cut
 * short and corrupt.  The test encodes with liblzma's own multi-threaded
 * encoder, the one xz -T uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/sources/xzstream.h"
#include "engine/strbuf.h"

#define PLAIN_SIZE (3u << 20) /* bytes of text */
#define BLOCK_SIZE (256u << 10) /* bytes of text a block: 12 blocks */

static char *plain; /* PLAIN_SIZE bytes of log-like text */
static uint8_t *packed; /* plain as .xz */
static size_t packed_len;

/* Log-like text that compresses as logs do, not to nothing. */
static void make_plain(void)
{
	static const char *words[] = { "mlx5_core", "link", "up", "down",
				       "port",	    "1",    "2",  "error",
				       "timeout",   "qp",   "cq", "retry" };
	uint32_t x = 2463534242u;
	size_t at = 0;

	plain = malloc(PLAIN_SIZE);
	while (at < PLAIN_SIZE) {
		char line[128];
		int n;

		x ^= x << 13; /* xorshift32 */
		x ^= x >> 17;
		x ^= x << 5;
		n = snprintf(line, sizeof(line), "[%8u.%06u] %s %s %u %s\n",
			     x >> 12, x & 0xfffff, words[x % 12],
			     words[(x >> 4) % 12], x % 977,
			     words[(x >> 8) % 12]);
		if ((size_t)n > PLAIN_SIZE - at)
			n = (int)(PLAIN_SIZE - at);
		memcpy(plain + at, line, (size_t)n);
		at += (size_t)n;
	}
}

/* data as .xz in blocks of block_size bytes (0: liblzma's default, 6
 * MiB at level 2), as xz -2 -T4 writes it (owned). */
static uint8_t *encode_mt(const void *data, size_t len, size_t block_size,
			  size_t *outlen)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	lzma_mt mt;
	size_t cap = len + (1u << 20);
	uint8_t *out = malloc(cap);

	memset(&mt, 0, sizeof(mt));
	mt.threads = 4;
	mt.preset = 2;
	mt.block_size = block_size;
	mt.check = LZMA_CHECK_CRC64;
	assert_int_equal(lzma_stream_encoder_mt(&strm, &mt), LZMA_OK);
	strm.next_in = data;
	strm.avail_in = len;
	strm.next_out = out;
	strm.avail_out = cap;
	assert_int_equal(lzma_code(&strm, LZMA_FINISH), LZMA_STREAM_END);
	*outlen = cap - strm.avail_out;
	lzma_end(&strm);
	return out;
}

/* How many blocks the .xz data holds, from its index. */
static uint64_t blocks(const uint8_t *xz, size_t len)
{
	lzma_stream_flags footer;
	lzma_index *ix = NULL;
	uint64_t memlimit = UINT64_MAX, n;
	size_t pos = 0;
	const uint8_t *f = xz + len - LZMA_STREAM_HEADER_SIZE;

	assert_int_equal(lzma_stream_footer_decode(&footer, f), LZMA_OK);
	assert_int_equal(lzma_index_buffer_decode(&ix, &memlimit, NULL,
						  f - footer.backward_size,
						  &pos, footer.backward_size),
			 LZMA_OK);
	n = lzma_index_block_count(ix);
	lzma_index_end(ix, NULL);
	return n;
}

static int setup(void **state)
{
	(void)state;
	make_plain();
	packed = encode_mt(plain, PLAIN_SIZE, BLOCK_SIZE, &packed_len);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(plain);
	free(packed);
	return 0;
}

/* A new temporary file holding len bytes of data; its name in path (64
 * bytes). */
static void write_temp(char *path, const void *data, size_t len)
{
	int fd;

	snprintf(path, 64, "/tmp/rd-test-xzXXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* Everything x decodes, into sb; the last xzstream_read's value. */
static ssize_t drain(struct xzstream *x, struct strbuf *sb)
{
	const void *block;
	ssize_t n;

	while ((n = xzstream_read(x, &block)) > 0)
		sb_add(sb, block, (size_t)n);
	return n;
}

static void decode_file(const void *data, size_t len, struct strbuf *sb,
			ssize_t *last, char *error, size_t errsize)
{
	char path[64];
	int fd;
	struct xzstream *x;

	write_temp(path, data, len);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	x = xzstream_new(fd, NULL, 0);
	*last = drain(x, sb);
	snprintf(error, errsize, "%s", xzstream_error(x));
	xzstream_free(x);
	close(fd);
	unlink(path);
}

static void test_magic(void **state)
{
	(void)state;
	assert_true(xzstream_is_xz(packed, packed_len));
	assert_false(xzstream_is_xz(packed, 5));
	assert_false(xzstream_is_xz("\x1f\x8b\x08\0\0\0", 6)); /* gzip */
	assert_false(xzstream_is_xz("\xfd"
				    "7zXZ!",
				    6));
}

static void test_multi_block(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char error[160];
	ssize_t last;
	struct xzstream *x;

	(void)state;
	assert_true(blocks(packed, packed_len) >= 12);
	decode_file(packed, packed_len, &sb, &last, error, sizeof(error));
	assert_int_equal(last, 0);
	assert_string_equal(error, "");
	assert_int_equal(sb.len, PLAIN_SIZE);
	assert_memory_equal(sb.buf, plain, PLAIN_SIZE);
	sb_release(&sb);

	x = xzstream_new(-1, packed, packed_len); /* from memory */
	assert_int_equal(drain(x, &sb), 0);
	assert_int_equal(sb.len, PLAIN_SIZE);
	assert_memory_equal(sb.buf, plain, PLAIN_SIZE);
	xzstream_free(x);
	sb_release(&sb);
}

/* Two streams one after the other (cat a.xz b.xz), as xz -dc reads
 * them. */
static void test_concatenated(void **state)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	char error[160];
	ssize_t last;

	(void)state;
	sb_add(&in, (const char *)packed, packed_len);
	sb_add(&in, (const char *)packed, packed_len);
	decode_file(in.buf, in.len, &out, &last, error, sizeof(error));
	assert_int_equal(last, 0);
	assert_int_equal(out.len, 2 * PLAIN_SIZE);
	assert_memory_equal(out.buf + PLAIN_SIZE, plain, PLAIN_SIZE);
	sb_release(&in);
	sb_release(&out);
}

static void test_truncated(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char error[160];
	ssize_t last;

	(void)state;
	decode_file(packed, packed_len * 2 / 3, &sb, &last, error,
		    sizeof(error));
	assert_int_equal(last, -1);
	assert_non_null(strstr(error, "xz data cut short after "));
	assert_non_null(strstr(error, "(LZMA_BUF_ERROR)"));
	/* The blocks before the cut are handed over, and only them. */
	assert_true(sb.len >= PLAIN_SIZE / 2);
	assert_true(sb.len < PLAIN_SIZE);
	assert_memory_equal(sb.buf, plain, sb.len);
	sb_release(&sb);
}

static void test_corrupt_byte(void **state)
{
	uint8_t *bad = malloc(packed_len);
	struct strbuf sb = STRBUF_INIT;
	char error[160];
	ssize_t last;

	(void)state;
	memcpy(bad, packed, packed_len);
	bad[packed_len / 2] ^= 0x55;
	decode_file(bad, packed_len, &sb, &last, error, sizeof(error));
	assert_int_equal(last, -1);
	assert_non_null(strstr(error, "xz data corrupt after "));
	assert_non_null(strstr(error, "(LZMA_DATA_ERROR)"));
	assert_true(sb.len < PLAIN_SIZE);
	sb_release(&sb);
	free(bad);
}

/* archive_decompress takes .xz in memory through the same decoder. */
static void test_decompress(void **state)
{
	char err[160], *out;
	size_t len;

	(void)state;
	assert_int_equal(archive_decompress((const char *)packed, packed_len,
					    PLAIN_SIZE, &out, &len, err,
					    sizeof(err)),
			 0);
	assert_int_equal(len, PLAIN_SIZE);
	assert_memory_equal(out, plain, PLAIN_SIZE);
	free(out);
	assert_int_equal(archive_decompress((const char *)packed, packed_len,
					    PLAIN_SIZE - 1, &out, &len, err,
					    sizeof(err)),
			 -E2BIG);
	assert_int_equal(archive_decompress((const char *)packed,
					    packed_len / 2, PLAIN_SIZE, &out,
					    &len, err, sizeof(err)),
			 -EIO);
	assert_non_null(strstr(err, "(LZMA_BUF_ERROR)"));
}

/* A tar of plain's text cut into n members (at most MEMBERS_MAX), as
 * .xz in blocks of block_size bytes. */
#define MEMBERS_MAX 64
static uint8_t *tar_xz(size_t n, size_t block_size, size_t *len)
{
	struct archive_out m[MEMBERS_MAX];
	char path[64], name[MEMBERS_MAX][32], err[160], *tar, *gz;
	size_t tarlen, gzlen;
	const size_t part = PLAIN_SIZE / n;
	uint8_t *xz;
	int fd;

	for (size_t i = 0; i < n; i++) {
		snprintf(name[i], sizeof(name[i]), "report/var/log/m%zu", i);
		m[i] = (struct archive_out){ name[i], ARCHIVE_FILE,
					     plain + i * part, part, NULL };
	}
	snprintf(path, sizeof(path), "/tmp/rd-test-xzXXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(archive_write_tgz(fd, m, n, err, sizeof(err)), 0);
	gzlen = (size_t)lseek(fd, 0, SEEK_END);
	gz = malloc(gzlen);
	assert_int_equal(pread(fd, gz, gzlen, 0), (ssize_t)gzlen);
	close(fd);
	unlink(path);
	/* The tar itself: the .tar.gz decompressed. */
	assert_int_equal(archive_decompress(gz, gzlen, 2 * PLAIN_SIZE, &tar,
					    &tarlen, err, sizeof(err)),
			 0);
	free(gz);
	xz = encode_mt(tar, tarlen, block_size, len);
	free(tar);
	return xz;
}

struct walked {
	size_t parts; /* members the tar was cut into */
	size_t members, whole;
	enum archive_cut last_cut;
};

static size_t keep_all(void *ctx, const struct archive_member *m)
{
	(void)ctx;
	(void)m;
	return PLAIN_SIZE;
}

/* Checks each whole member against the text it was cut from. */
static int on_member(void *ctx, const struct archive_member *m, char *data,
		     size_t len, enum archive_cut cut)
{
	struct walked *w = ctx;
	const char *digits = strrchr(m->path, 'm');
	size_t i = digits ? strtoul(digits + 1, NULL, 10) : SIZE_MAX;
	const size_t part = PLAIN_SIZE / w->parts;

	w->members++;
	w->last_cut = cut;
	if (cut == ARCHIVE_WHOLE && i < w->parts) {
		assert_int_equal(len, part);
		assert_memory_equal(data, plain + i * part, part);
		w->whole++;
	}
	free(data);
	return 0;
}

static int walk(const uint8_t *data, size_t len, struct walked *w, char *err,
		size_t errsize)
{
	char path[64];
	int rc;

	write_temp(path, data, len);
	rc = archive_walk(path, 4 * PLAIN_SIZE, keep_all, on_member, w, err,
			  errsize);
	unlink(path);
	return rc;
}

static void test_walk_tar_xz(void **state)
{
	size_t len;
	uint8_t *xz = tar_xz(4, BLOCK_SIZE, &len);
	struct walked w = { .parts = 4 };
	char err[256] = "";

	(void)state;
	assert_true(blocks(xz, len) >= 12);
	assert_int_equal(walk(xz, len, &w, err, sizeof(err)), 0);
	assert_int_equal(w.whole, 4);

	/* Cut inside the third member: two whole, the third cut short. */
	w = (struct walked){ .parts = 4 };
	assert_int_equal(walk(xz, len * 5 / 8, &w, err, sizeof(err)), -EIO);
	assert_int_equal(w.whole, 2);
	assert_int_equal(w.members, 3);
	assert_int_equal(w.last_cut, ARCHIVE_CUT_SHORT);
	assert_non_null(strstr(
		err, "member 'report/var/log/m2': xz data cut short after "));
	assert_non_null(strstr(err, "(LZMA_BUF_ERROR)"));

	/* A corrupt byte in the last member: liblzma's reason. */
	w = (struct walked){ .parts = 4 };
	xz[len * 7 / 8] ^= 0x55;
	assert_int_equal(walk(xz, len, &w, err, sizeof(err)), -EIO);
	assert_true(w.whole >= 3);
	assert_non_null(strstr(err, "(LZMA_DATA_ERROR)"));
	free(xz);
}

/* One block of many small members, as xz -2 packs a small report (one
 * thread decodes it): a corrupt byte in the middle gives liblzma's
 * reason, after the members before it.  (tests/hostile.sh has a real
 * report whose garbage the tar reader trips on before liblzma's check
 * catches it.) */
static void test_walk_corrupt_one_block(void **state)
{
	size_t len;
	uint8_t *xz = tar_xz(MEMBERS_MAX, 0, &len);
	struct walked w = { .parts = MEMBERS_MAX };
	char err[256] = "";

	(void)state;
	assert_int_equal(blocks(xz, len), 1);
	xz[len / 2] ^= 0x55;
	assert_int_equal(walk(xz, len, &w, err, sizeof(err)), -EIO);
	assert_true(w.whole > 0 && w.whole < MEMBERS_MAX);
	assert_non_null(strstr(err, "xz data corrupt after "));
	assert_non_null(strstr(err, "(LZMA_DATA_ERROR)"));
	free(xz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_magic),
		cmocka_unit_test(test_multi_block),
		cmocka_unit_test(test_concatenated),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupt_byte),
		cmocka_unit_test(test_decompress),
		cmocka_unit_test(test_walk_tar_xz),
		cmocka_unit_test(test_walk_corrupt_one_block),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
