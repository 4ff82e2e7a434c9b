/* libFuzzer target: every parser of the format table.  The first byte
 * picks the format (and whether it gets an argument), the rest is the
 * text, handed over without a terminating NUL so that a read past its
 * length is caught. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/fact.h"
#include "engine/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct format *f;
	struct fact_base *fb;
	struct emit e;
	char *text;
	int score;

	if (!size)
		return 0;
	f = format_at(data[0] % format_count());
	size--;
	text = xmalloc(size ? size : 1);
	memcpy(text, data + 1, size);
	fb = fact_base_new();
	emit_init(&e, fb, "fuzz");
	if (f->parse(&e, text, size, data[0] & 0x80 ? "ib0" : NULL) < 0)
		abort();
	score = f->detect(text, size);
	if (score < 0 || score > 100)
		abort();
	fact_base_free(fb);
	free(text);
	return 0;
}
