/* The format table and content detection. */
#include "collectors/parsers/formats.h"

#include <string.h>

#include "engine/xalloc.h"

/* Detection looks at this much of a file. */
#define DETECT_BYTES 65536 /* @@ */
#define DETECT_MIN_SCORE 30 /* @@ */

static const struct format formats[] = {
#define X(name, what, kinds) \
	{ #name, what, parse_##name, detect_##name, kinds },
	FORMAT_LIST(X)
#undef X
};

size_t format_count(void)
{
	return ARRAY_SIZE(formats);
}

const struct format *format_at(size_t i)
{
	return i < ARRAY_SIZE(formats) ? &formats[i] : NULL;
}

const struct format *format_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

const struct format *format_detect(const char *text, size_t len, int *score)
{
	const struct format *best = NULL;
	int top = 0;

	if (len > DETECT_BYTES)
		len = DETECT_BYTES;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		int s = formats[i].detect(text, len);

		if (s > top) {
			top = s;
			best = &formats[i];
		}
	}
	*score = top;
	return top >= DETECT_MIN_SCORE ? best : NULL;
}
