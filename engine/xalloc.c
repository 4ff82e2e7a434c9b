/* Allocation wrappers: callers never handle out-of-memory. */
#include "engine/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
	fprintf(stderr,
		"rdmadoctor: fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	return s;
}

/* Most arrays (a condition's tests, a rule's patterns, a template's
 * parts) hold one to three items, and a rule set may hold thousands of
 * rules: growth starts small. */
#define XGROW_FIRST 2

void xgrow(void *items, size_t *cap, size_t need, size_t elem)
{
	void **p = items;
	size_t n = *cap ? *cap : XGROW_FIRST;

	size_t bytes;

	if (need <= *cap)
		return;
	while (n < need) {
		if (__builtin_mul_overflow(n, 2, &n))
			n = need; /* no doubling left: exactly what is needed */
	}
	if (__builtin_mul_overflow(n, elem, &bytes))
		oom(SIZE_MAX);
	*p = xrealloc(*p, bytes);
	*cap = n;
}
