/* Version comparison: rpm segment rules applied per version kind. */
#include "engine/version.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

static const char *const kind_names[] = {
#define X(id, name, doc) name,
	VERSION_KINDS(X)
#undef X
};

const char *version_kind_to_str(enum version_kind kind)
{
	return (unsigned)kind < VERSION_KIND_COUNT ? kind_names[kind] :
						     "unknown";
}

int version_kind_from_str(const char *name)
{
	for (int i = 0; i < VERSION_KIND_COUNT; i++)
		if (!strcmp(kind_names[i], name))
			return i;
	return -1;
}

static int is_sep(char c)
{
	return c && !isalnum((unsigned char)c) && c != '~' && c != '^';
}

/* The segment walk of rpmvercmp over [a, ae) and [b, be). */
static int segcmp(const char *a, const char *ae, const char *b, const char *be)
{
	while (a < ae || b < be) {
		const char *sa, *sb;
		size_t la, lb;
		int num, r;

		while (a < ae && is_sep(*a))
			a++;
		while (b < be && is_sep(*b))
			b++;
		if ((a < ae && *a == '~') || (b < be && *b == '~')) {
			if (a >= ae || *a != '~')
				return 1;
			if (b >= be || *b != '~')
				return -1;
			a++, b++;
			continue;
		}
		if ((a < ae && *a == '^') || (b < be && *b == '^')) {
			if (a >= ae)
				return -1;
			if (b >= be)
				return 1;
			if (*a != '^')
				return 1;
			if (*b != '^')
				return -1;
			a++, b++;
			continue;
		}
		if (a >= ae || b >= be)
			break;
		sa = a, sb = b;
		num = isdigit((unsigned char)*a);
		if (num) {
			while (a < ae && isdigit((unsigned char)*a))
				a++;
			while (b < be && isdigit((unsigned char)*b))
				b++;
		} else {
			while (a < ae && isalpha((unsigned char)*a))
				a++;
			while (b < be && isalpha((unsigned char)*b))
				b++;
		}
		if (sb == b)
			return num ? 1 : -1;
		if (num) {
			while (sa < a && *sa == '0')
				sa++;
			while (sb < b && *sb == '0')
				sb++;
			if (a - sa != b - sb)
				return a - sa > b - sb ? 1 : -1;
		}
		la = (size_t)(a - sa);
		lb = (size_t)(b - sb);
		r = memcmp(sa, sb, la < lb ? la : lb);
		if (r)
			return r < 0 ? -1 : 1;
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	if (a >= ae && b >= be)
		return 0;
	return a < ae ? 1 : -1;
}

int version_segcmp(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return 0;
	return segcmp(a, a + strlen(a), b, b + strlen(b));
}

struct evr {
	long epoch;
	const char *v, *ve; /* version */
	const char *r, *re; /* release, r == NULL when absent */
};

static void split_evr(const char *s, const char *end, struct evr *o)
{
	const char *p = s, *dash = NULL;

	o->epoch = 0;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p < end && *p == ':' && p > s) {
		o->epoch = strtol(s, NULL, 10);
		s = p + 1;
	}
	for (p = s; p < end; p++)
		if (*p == '-')
			dash = p;
	o->v = s;
	o->ve = dash ? dash : end;
	o->r = dash ? dash + 1 : NULL;
	o->re = end;
}

static int evrcmp(const char *a, const char *ae, const char *b, const char *be)
{
	struct evr x, y;
	int r;

	split_evr(a, ae, &x);
	split_evr(b, be, &y);
	if (x.epoch != y.epoch)
		return x.epoch < y.epoch ? -1 : 1;
	r = segcmp(x.v, x.ve, y.v, y.ve);
	if (r)
		return r;
	if (!x.r || !y.r)
		return x.r ? 1 : (y.r ? -1 : 0);
	return segcmp(x.r, x.re, y.r, y.re);
}

/* Architecture names that end a kernel release after a '.'. */
static const char *const kernel_arches[] = {
	"x86_64", "aarch64", "ppc64le", "ppc64",   "s390x",
	"i686",	  "i386",    "noarch",	"armv7hl",
};

/* Drops ".<arch>" and trailing "-<flavour>" parts that start with a
 * letter ("-generic", "-amd64", "-cloud-amd64"), which name builds rather
 * than versions. */
static const char *kernel_core_end(const char *s)
{
	const char *end = s + strlen(s);

	for (;;) {
		const char *p = end;
		int cut = 0;

		while (p > s && p[-1] != '-' && p[-1] != '.')
			p--;
		if (p == s)
			break;
		if (p[-1] == '-' && isalpha((unsigned char)*p))
			cut = 1;
		for (size_t i = 0; !cut && i < ARRAY_SIZE(kernel_arches); i++) {
			size_t n = strlen(kernel_arches[i]);

			cut = p[-1] == '.' && (size_t)(end - p) == n &&
			      !memcmp(p, kernel_arches[i], n);
		}
		if (!cut)
			break;
		end = p - 1;
	}
	return end;
}

int version_compare(const char *a, const char *b, enum version_kind kind)
{
	if (!strcmp(a, b))
		return 0;
	switch (kind) {
	case VERSION_FW:
		return segcmp(a, a + strlen(a), b, b + strlen(b));
	case VERSION_KERNEL:
		return evrcmp(a, kernel_core_end(a), b, kernel_core_end(b));
	case VERSION_OFED:
	case VERSION_GENERIC:
	default:
		return evrcmp(a, a + strlen(a), b, b + strlen(b));
	}
}

int version_plausible(const char *s)
{
	const char *p = s;

	while (isdigit((unsigned char)*p))
		p++;
	if (*p == ':' && p > s)
		s = p + 1;
	return isdigit((unsigned char)*s);
}
