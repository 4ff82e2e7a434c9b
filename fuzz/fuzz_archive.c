/* libFuzzer target: the tar/bundle reader and everything behind it.  The
 * input is served as a file (a memfd, named through /proc/self/fd) and
 * opened as a bundle read in place; when it opens, every collector runs
 * over it: links resolved inside the archive, the sos manifest, each
 * parser on what the members hold. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "collectors/collect.h"
#include "collectors/sources/source.h"
#include "engine/diag.h"
#include "engine/fact.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Small caps, so that a little input can reach them. */
	struct source_opts o = { .max_read = 4096, .max_total = 1u << 20 };
	int fd = memfd_create("fuzz-bundle", MFD_CLOEXEC);
	struct collect_run *run;
	struct fact_base *fb;
	struct source *src;
	struct diag *d;
	char path[64];
	bool notar;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	d = diag_new();
	src = source_archive_new(path, &notar, &o, d);
	close(fd);
	if (src) {
		fb = fact_base_new();
		run = collect_run_new(fb, NULL, d, NULL, NULL);
		collect_source(run, src);
		collect_finish(run);
		collect_enrich(fb);
		fact_base_free(fb);
		source_free(src);
	}
	diag_free(d);
	return 0;
}
