/* The GID table and the counters of an RDMA port, from sysfs:
 * ports/<p>/gids/<i> with gid_attrs/types/<i>, and ports/<p>/counters/
 * and hw_counters/ (and the device's own hw_counters/). */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/collector.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* Most GID entries and counters read per port: a GID table has 128 to
 * 256 entries, a port a few dozen counters. */
#define GIDS_MAX 1024 /* @@ */
#define COUNTERS_MAX 512 /* @@ */

/* "fe80:0000:0000:0000:0ac0:ebff:fef0:28b2" -> "fe80::ac0:ebff:fef0:28b2",
 * as ibv_devinfo prints it; false for the zero GID or a malformed one. */
static bool gid_text(const char *raw, char *out, size_t size)
{
	unsigned char bytes[16] = { 0 };
	const char *p = raw;
	bool zero = true;

	for (int i = 0; i < 8; i++) {
		unsigned v = 0;
		int n = 0;

		while (n < 4 && isxdigit((unsigned char)*p)) {
			v = v * 16 +
			    (unsigned)(isdigit((unsigned char)*p) ?
					       *p - '0' :
					       tolower((unsigned char)*p) -
						       'a' + 10);
			p++;
			n++;
		}
		if (n != 4 || (i < 7 && *p++ != ':'))
			return false;
		bytes[2 * i] = (unsigned char)(v >> 8);
		bytes[2 * i + 1] = (unsigned char)v;
		zero &= !v;
	}
	return !zero && inet_ntop(AF_INET6, bytes, out, (socklen_t)size);
}

static int by_number(const void *a, const void *b)
{
	long x = strtol(*(char *const *)a, NULL, 10);
	long y = strtol(*(char *const *)b, NULL, 10);

	return (x > y) - (x < y);
}

void col_ib_gids(struct col_ctx *c, const char *dev, const char *portdir,
		 long port)
{
	char *dir = xasprintf("%s/gids", portdir), ll[32];
	char *llpath = xasprintf("%s/link_layer", portdir);
	bool roce =
		col_attr(c, llpath, ll, sizeof(ll)) && !strcmp(ll, "Ethernet");
	struct names ls;

	free(llpath);
	if (source_list(c->src, dir, &ls)) {
		names_release(&ls);
		free(dir);
		return;
	}
	if (ls.n)
		qsort(ls.v, ls.n, sizeof(*ls.v), by_number);
	for (size_t i = 0; i < ls.n && i < GIDS_MAX; i++) {
		char *path = xasprintf("%s/%s", dir, ls.v[i]), raw[64],
		     gid[INET6_ADDRSTRLEN], type[32], *where;
		char *tpath =
			xasprintf("%s/gid_attrs/types/%s", portdir, ls.v[i]);
		struct emit e;
		struct fact *f;
		struct line ln;

		/* Unused entries are zero; a RoCE port's types file of an
		 * unused entry cannot even be read. */
		if (!col_attr(c, path, raw, sizeof(raw)) ||
		    !gid_text(raw, gid, sizeof(gid))) {
			free(path);
			free(tpath);
			continue;
		}
		where = source_name_of(c->src, path);
		emit_init(&e, c->fb, where);
		ln = (struct line){ raw, strlen(raw), 1 };
		f = emit_begin(&e, "gid", &ln);
		emit_str(&e, f, "hca", dev, strlen(dev), NULL);
		emit_int(&e, f, "port", port, NULL);
		emit_int(&e, f, "index", strtol(ls.v[i], NULL, 10), NULL);
		emit_str(&e, f, "gid", gid, strlen(gid), &ln);
		if (roce && col_attr(c, tpath, type, sizeof(type)) && type[0]) {
			char *twhere = source_name_of(c->src, tpath);

			/* The kernel names RoCE v1 "IB/RoCE v1", the type it
			 * shares with InfiniBand, whose GIDs have no type. */
			fact_put_at(c->fb, f, sym_intern_cstr("type"),
				    value_cstr(strncmp(type, "IB/", 3) ?
						       type :
						       type + 3),
				    fact_base_source(c->fb, twhere), 1, type,
				    strlen(type));
			free(twhere);
		}
		emit_end(&e, f);
		free(where);
		free(path);
		free(tpath);
	}
	names_release(&ls);
	free(dir);
}

void col_ib_counters(struct col_ctx *c, const char *dev, const char *dir,
		     long port)
{
	struct names ls;

	if (source_list(c->src, dir, &ls)) {
		names_release(&ls);
		return;
	}
	for (size_t i = 0; i < ls.n && i < COUNTERS_MAX; i++) {
		char *path = xasprintf("%s/%s", dir, ls.v[i]), raw[32], *end,
		     *where;
		struct emit e;
		struct fact *f;
		struct line ln;
		long long v;

		/* hw_counters/lifespan is a setting, not a count. */
		if (!strcmp(ls.v[i], "lifespan") ||
		    !col_attr(c, path, raw, sizeof(raw))) {
			free(path);
			continue;
		}
		v = strtoll(raw, &end, 10);
		if (end == raw || *end) {
			free(path);
			continue;
		}
		where = source_name_of(c->src, path);
		emit_init(&e, c->fb, where);
		ln = (struct line){ raw, strlen(raw), 1 };
		f = emit_begin(&e, "counter", &ln);
		emit_str(&e, f, "hca", dev, strlen(dev), NULL);
		if (port > 0)
			emit_int(&e, f, "port", port, NULL);
		emit_str(&e, f, "name", ls.v[i], strlen(ls.v[i]), NULL);
		emit_int(&e, f, "value", v, &ln);
		if (c->reading > 0)
			emit_int(&e, f, "reading", c->reading, NULL);
		emit_end(&e, f);
		free(where);
		free(path);
	}
	names_release(&ls);
}

void col_ib_counters_all(struct col_ctx *c)
{
	static const char *const kinds[] = { "counters", "hw_counters" };
	struct names devs;

	if (source_list(c->src, "/sys/class/infiniband", &devs)) {
		names_release(&devs);
		return;
	}
	for (size_t i = 0; i < devs.n; i++) {
		char *dir = xasprintf("/sys/class/infiniband/%s", devs.v[i]),
		     *portdir = xasprintf("%s/ports", dir),
		     *own = xasprintf("%s/hw_counters", dir);
		struct names ports;

		col_ib_counters(c, devs.v[i], own, 0);
		if (!source_list(c->src, portdir, &ports))
			for (size_t p = 0; p < ports.n; p++) {
				long port = strtol(ports.v[p], NULL, 10);

				for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
					char *path = xasprintf("%s/%s/%s",
							       portdir,
							       ports.v[p],
							       kinds[k]);

					if (port > 0)
						col_ib_counters(c, devs.v[i],
								path, port);
					free(path);
				}
			}
		names_release(&ports);
		free(own);
		free(portdir);
		free(dir);
	}
	names_release(&devs);
}
