/* Folding host names into ranges. */
#include "cli/hostlist.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

#define DIGITS_MAX 18 /* longer runs of digits are kept as plain names */

/* A name split around its last run of digits. */
struct host {
	const char *name;
	size_t plen; /* the prefix before the digits */
	size_t dlen; /* 0: no digits */
	const char *suffix;
	unsigned long long num;
	int width; /* 0: as printed naturally; else zero-padded to width */
};

static void split(struct host *h, const char *name)
{
	size_t end = strlen(name), start;

	memset(h, 0, sizeof(*h));
	h->name = name;
	while (end && !(name[end - 1] >= '0' && name[end - 1] <= '9'))
		end--;
	start = end;
	while (start && name[start - 1] >= '0' && name[start - 1] <= '9')
		start--;
	h->suffix = name + end;
	h->plen = start;
	h->dlen = end - start;
	if (!h->dlen || h->dlen > DIGITS_MAX) {
		h->plen = strlen(name);
		h->dlen = 0;
		h->suffix = "";
		return;
	}
	h->num = strtoull(name + start, NULL, 10);
	if (name[start] == '0' && h->dlen > 1)
		h->width = (int)h->dlen;
}

static bool same_frame(const struct host *a, const struct host *b)
{
	return a->plen == b->plen && !memcmp(a->name, b->name, a->plen) &&
	       !strcmp(a->suffix, b->suffix) && (a->dlen > 0) == (b->dlen > 0);
}

static int by_frame(const void *pa, const void *pb)
{
	const struct host *a = pa, *b = pb;
	size_t n = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if ((c = strcmp(a->suffix, b->suffix)))
		return c;
	if (a->dlen != b->dlen && (!a->dlen || !b->dlen))
		return a->dlen ? 1 : -1;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Frame (prefix, suffix), then width: the order in which a plain number
 * finds the padded names it joins. */
static int by_frame_width(const void *pa, const void *pb)
{
	const struct host *a = *(const struct host *const *)pa;
	const struct host *b = *(const struct host *const *)pb;
	size_t n = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if ((c = strcmp(a->suffix, b->suffix)))
		return c;
	return a->width < b->width ? -1 : a->width > b->width;
}

/* A number without leading zeros as wide as a padded one of the same
 * frame joins its width: node10 belongs with node01..node09.  The padded
 * names are sorted once and each plain one is looked up: O(n log n). */
static void adopt_widths(struct host *h, size_t n)
{
	const struct host **padded = xcalloc(n ? n : 1, sizeof(*padded));
	size_t np = 0;

	for (size_t i = 0; i < n; i++)
		if (h[i].width)
			padded[np++] = &h[i];
	if (np)
		qsort(padded, np, sizeof(*padded), by_frame_width);
	for (size_t i = 0; np && i < n; i++) {
		struct host key;
		const struct host *pk = &key;

		if (h[i].width || !h[i].dlen)
			continue;
		key = h[i];
		key.width = (int)h[i].dlen;
		if (bsearch(&pk, padded, np, sizeof(*padded), by_frame_width))
			h[i].width = key.width;
	}
	free(padded);
}

static void put_num(struct strbuf *sb, const struct host *h,
		    unsigned long long v)
{
	sb_printf(sb, "%0*llu", h->width, v);
}

/* Writes the group h[0..n) (one frame and width, sorted, no duplicates). */
static void put_group(struct strbuf *sb, const struct host *h, size_t n)
{
	if (n == 1 || !h[0].dlen) {
		for (size_t i = 0; i < n; i++)
			sb_printf(sb, "%s%s", i ? "," : "", h[i].name);
		return;
	}
	sb_add(sb, h[0].name, h[0].plen);
	sb_putc(sb, '[');
	for (size_t i = 0; i < n;) {
		size_t k = i;

		while (k + 1 < n && h[k + 1].num == h[k].num + 1)
			k++;
		if (i)
			sb_putc(sb, ',');
		put_num(sb, &h[i], h[i].num);
		if (k > i) {
			sb_putc(sb, '-');
			put_num(sb, &h[k], h[k].num);
		}
		i = k + 1;
	}
	sb_printf(sb, "]%s", h[0].suffix);
}

char *hostlist_fold(const char *const *names, size_t n)
{
	struct host *h = xcalloc(n ? n : 1, sizeof(*h));
	struct strbuf sb = STRBUF_INIT;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		split(&h[i], names[i]);
	adopt_widths(h, n);
	if (n)
		qsort(h, n, sizeof(*h), by_frame);
	for (size_t i = 0; i < n; i++)
		if (!m || strcmp(h[m - 1].name, h[i].name))
			h[m++] = h[i];
	for (size_t i = 0; i < m;) {
		size_t k = i + 1;

		while (k < m && same_frame(&h[i], &h[k]) &&
		       h[k].width == h[i].width)
			k++;
		if (i)
			sb_putc(&sb, ',');
		put_group(&sb, h + i, k - i);
		i = k;
	}
	free(h);
	return sb_detach(&sb);
}
