/* libFuzzer target: bundles of many members and deep paths.  The input is
 * not the archive but a recipe for one, so that a few bytes make names of
 * thousands of components or thousands of members, which an archive of
 * the archive target's size cap could not hold: each record is a type
 * byte, a repeat byte, a name fragment and a content length; the archive
 * is written with the project's own writer (archive_write_tgz), then read
 * as a bundle and collected. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "collectors/collect.h"
#include "collectors/sources/archive.h"
#include "collectors/sources/source.h"
#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MEMBERS 4096
#define MAX_REPEAT 512 /* components a fragment is repeated: deep names */

static const char *const tops[] = { "sosreport-f/", "", "/", "./" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source_opts o = { .max_read = 4096, .max_total = 8u << 20 };
	struct archive_out *m = xcalloc(MAX_MEMBERS, sizeof(*m));
	char *body = xcalloc(1, 65536);
	size_t n = 0, i = 0;
	char err[256], path[64];
	int fd = memfd_create("fuzz-members", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	memset(body, 'x', 65535);
	while (i + 4 <= size && n < MAX_MEMBERS) {
		uint8_t type = data[i], rep = data[i + 1], flen = data[i + 2] & 7;
		uint8_t clen = data[i + 3];
		struct strbuf sb = STRBUF_INIT;
		size_t repeat = (size_t)rep * MAX_REPEAT / 255;

		i += 4;
		if (i + flen > size)
			break;
		sb_puts(&sb, tops[type >> 6]);
		/* One record can also stand for many siblings. */
		for (size_t k = 0; k <= repeat; k++) {
			sb_add(&sb, (const char *)data + i, flen);
			sb_putc(&sb, '/');
		}
		sb_printf(&sb, "m%zu", n);
		i += flen;
		m[n].path = sb_detach(&sb);
		switch (type & 3) {
		case 0:
			m[n].type = ARCHIVE_FILE;
			m[n].data = body;
			m[n].len = (size_t)clen * 256;
			break;
		case 1:
			m[n].type = ARCHIVE_DIR;
			break;
		default:
			m[n].type = ARCHIVE_SYMLINK;
			m[n].link = n ? m[(type >> 2) % n].path : "m0";
			break;
		}
		n++;
		/* Many members of one record: siblings without depth. */
		for (size_t k = 0; (type & 0x20) && k < rep && n < MAX_MEMBERS;
		     k++, n++)
			m[n] = (struct archive_out){
				xasprintf("sosreport-f/sos_commands/s%zu", n),
				ARCHIVE_FILE, body, clen, NULL
			};
	}
	if (!archive_write_tgz(fd, m, n, err, sizeof(err))) {
		struct diag *d = diag_new();
		struct source *src;
		bool notar;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		src = source_archive_new(path, &notar, &o, d);
		if (src) {
			struct fact_base *fb = fact_base_new();
			struct collect_run *run =
				collect_run_new(fb, NULL, d, NULL, NULL);

			collect_source(run, src);
			collect_finish(run);
			collect_enrich(fb);
			fact_base_free(fb);
			source_free(src);
		}
		diag_free(d);
	}
	close(fd);
	for (size_t k = 0; k < n; k++)
		free((char *)m[k].path);
	free(m);
	free(body);
	return 0;
}
