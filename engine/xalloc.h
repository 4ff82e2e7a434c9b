/* Allocation that never returns NULL: on exhaustion the process aborts. */
#ifndef RD_XALLOC_H
#define RD_XALLOC_H

#include <stddef.h>

/* Each returns owned memory or aborts; xrealloc(NULL, n) acts as xmalloc. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new owned string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *items (element size elem) so that it holds at least need elements;
 * *cap is updated.  Amortised doubling. */
void xgrow(void *items, size_t *cap, size_t need, size_t elem);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
