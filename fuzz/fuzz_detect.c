/* libFuzzer target: content detection, which every loose file goes
 * through before any parser. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size ? size : 1);
	const struct format *f;
	int score;

	memcpy(text, data, size);
	f = format_detect(text, size, &score);
	if (score < 0 || score > 100 || (f && score < 30))
		abort();
	free(text);
	return 0;
}
