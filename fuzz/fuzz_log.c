/* libFuzzer target: the kernel-log parser with the shipped signature
 * table (kb/signatures.yaml) loaded, so that the Aho-Corasick prefilter
 * and the signatures' regexes see the input.  Building the scanner is
 * costly, so the fact base that holds the kb is kept across inputs and
 * made anew once it has grown. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "engine/diag.h"
#include "engine/fact.h"
#include "engine/kb.h"
#include "engine/xalloc.h"

/* An input adds up to 20000 log facts: reset well above that, or the kb
 * is reloaded for every input. */
#define FACTS_BEFORE_RESET 400000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fact_base *fb;
static struct logscan *scan;

static void fresh(void)
{
	struct diag *d = diag_new();

	logscan_free(scan);
	fact_base_free(fb);
	fb = fact_base_new();
	if (kb_load_dir(fb, "kb", "kb", d) < 0) {
		diag_print(d, stderr, "fuzz_log");
		fprintf(stderr, "fuzz_log: run from the source tree (kb/)\n");
		abort();
	}
	scan = logscan_new(fb, d);
	diag_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct format *f = format_find("dmesg");
	char *text = xmalloc(size ? size : 1);
	struct emit e;

	if (!fb || fact_base_count(fb) > FACTS_BEFORE_RESET)
		fresh();
	memcpy(text, data, size);
	emit_init(&e, fb, "fuzz");
	e.scan = scan;
	if (f->parse(&e, text, size, NULL) < 0)
		abort();
	free(text);
	return 0;
}
