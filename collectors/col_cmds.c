/* Collectors that read command outputs (ibstat, ethtool -i, modinfo,
 * ibstatus, ibv_devinfo, rdma, lspci, flint, perfquery, ...) and the
 * pam_limits configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/collector.h"
#include "collectors/sources/run.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* At most this many interfaces get an ethtool -i each. */
#define ETHTOOL_MAX_IFACES 64 /* @@ */
/* How long the perftest server gets to start listening; then the client
 * tries again, every LOOPBACK_RETRY_MS up to LOOPBACK_TRIES times, while
 * it finds nobody listening (a slow or loaded host starts the server
 * late). */
#define LOOPBACK_SERVER_WAIT_MS 500 /* @@ */
#define LOOPBACK_RETRY_MS 250 /* @@ */
#define LOOPBACK_TRIES 40 /* @@ */
/* At most this many adapters get a firmware query, perfquery, ... */
#define FW_QUERY_MAX 16 /* @@ */
#define PERFQUERY_MAX 32 /* @@ */
#define LIMITS_D_MAX 64 /* @@ files read from limits.d */

/* Records a command fetch: its facts, or why there are none. */
static void note(struct col_status *st, const struct fetch *f, int facts,
		 const char *what, const char *what_plural)
{
	if (f->status == FETCH_OK && f->exit_code > 0 && !facts)
		col_status(st, FETCH_ERROR, "%s: %s", f->where,
			   f->detail ? f->detail : "failed");
	else if (f->status == FETCH_OK || f->status == FETCH_TRUNCATED)
		col_status(st, f->status, "%s: %d %s%s%s", f->where, facts,
			   facts == 1 ? what : what_plural,
			   f->detail ? ", " : "", f->detail ? f->detail : "");
	else
		col_status(st, f->status, "%s: %s", f->where,
			   f->detail ? f->detail : "unavailable");
}

void col_ibstat(struct col_ctx *c, struct col_status *st)
{
	struct fetch f;

	col_progress(c, "running ibstat");
	source_command(c->src, catalog_find("ibstat"), NULL, &f);
	if (f.status == FETCH_OK || f.status == FETCH_TRUNCATED)
		note(st, &f, col_parse(c, "ibstat", &f, NULL), "fact", "facts");
	else
		note(st, &f, 0, "fact", "facts");
	fetch_release(&f);
}

void col_ethtool(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("ethtool_i");
	struct names items;
	int runs = 0;

	source_command_items(c->src, cmd, &items);
	for (size_t i = 0; i < items.n && runs < ETHTOOL_MAX_IFACES; i++) {
		struct fetch f;

		if (!strcmp(items.v[i], "lo") ||
		    !strcmp(items.v[i], "bonding_masters"))
			continue;
		col_progress(c, "running ethtool -i %s", items.v[i]);
		source_command(c->src, cmd, items.v[i], &f);
		if (f.status == FETCH_OK)
			note(st, &f, col_parse(c, "ethtool_i", &f, items.v[i]),
			     "fact", "facts");
		else
			note(st, &f, 0, "fact", "facts");
		fetch_release(&f);
		runs++;
	}
	if (!runs)
		col_status(st, FETCH_MISSING, "no ethtool -i output");
	names_release(&items);
}

static void add_unique(struct names *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	names_add(l, s);
}

static bool loaded(struct col_ctx *c, const char *name)
{
	struct value v = value_cstr(name);
	size_t n;

	fact_base_lookup(c->fb, sym_intern_cstr("module"),
			 sym_intern_cstr("name"), &v, &n);
	return n > 0;
}

/* Loaded modules of the RDMA stack, for modinfo on a live host: ib_core,
 * the modules that use it, and the adapters' core drivers that the
 * knowledge base names (mlx5_core under mlx5_ib). */
static void rdma_modules(struct col_ctx *c, struct names *out)
{
	struct value core = value_cstr("ib_core");
	const struct value *used;
	const uint32_t *ids;
	size_t n;

	ids = fact_base_lookup(c->fb, sym_intern_cstr("module"),
			       sym_intern_cstr("name"), &core, &n);
	if (!n)
		return;
	add_unique(out, "ib_core");
	used = fact_get(fact_base_get(c->fb, ids[0]),
			sym_intern_cstr("used_by"));
	for (size_t i = 0;
	     used && used->type == VALUE_LIST && i < used->list->n; i++)
		if (value_text(&used->list->items[i]))
			add_unique(out, value_text(&used->list->items[i]));
	ids = fact_base_of_kind(c->fb, sym_intern_cstr("adapter"), &n);
	for (size_t i = 0; i < n; i++) {
		const char *drv =
			value_text(fact_get(fact_base_get(c->fb, ids[i]),
					    sym_intern_cstr("kernel_driver")));

		if (drv && loaded(c, drv))
			add_unique(out, drv);
	}
	names_sort(out);
}

void col_modinfo(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("modinfo");
	struct names items = { 0 };
	struct fetch f;

	if (source_is_live(c->src)) {
		rdma_modules(c, &items);
		for (size_t i = 0; i < items.n; i++) {
			col_progress(c, "running modinfo %s", items.v[i]);
			source_command(c->src, cmd, items.v[i], &f);
			note(st, &f,
			     f.status == FETCH_OK ?
				     col_parse(c, "modinfo", &f, items.v[i]) :
				     0,
			     "module", "modules");
			fetch_release(&f);
		}
		if (!items.n)
			col_status(
				st, FETCH_MISSING,
				"ib_core is not loaded: no RDMA module to ask modinfo about");
		names_release(&items);
		return;
	}
	if (!source_command(c->src, cmd, NULL, &f))
		note(st, &f, col_parse(c, "modinfo", &f, NULL), "module",
		     "modules");
	else
		col_status(st, FETCH_MISSING,
			   "no modinfo output in the bundle");
	fetch_release(&f);
	source_command_items(c->src, cmd, &items);
	for (size_t i = 0; i < items.n; i++) {
		if (!source_command(c->src, cmd, items.v[i], &f))
			note(st, &f, col_parse(c, "modinfo", &f, items.v[i]),
			     "module", "modules");
		fetch_release(&f);
	}
	names_release(&items);
}

/* Fetches one catalog command (for item, or NULL) and parses it with
 * format; records what it found, or, unless quiet, that it found nothing.
 * Returns the facts added, or -1 when there was no output. */
static int fetch_parse(struct col_ctx *c, struct col_status *st,
		       const char *name, const char *item, const char *format,
		       const char *arg, bool quiet)
{
	const struct command *cmd = catalog_find(name);
	struct fetch f;
	int facts = -1;

	col_progress(c, "running %s%s%s", name, item ? " " : "",
		     item ? item : "");
	source_command(c->src, cmd, item, &f);
	if (f.status == FETCH_OK || f.status == FETCH_TRUNCATED)
		facts = col_parse(c, format, &f, arg);
	if (facts >= 0 || !quiet || f.status != FETCH_MISSING)
		note(st, &f, facts < 0 ? 0 : facts, "fact", "facts");
	fetch_release(&f);
	return facts;
}

static int command(struct col_ctx *c, struct col_status *st, const char *name,
		   const char *item, const char *format, const char *arg)
{
	return fetch_parse(c, st, name, item, format, arg, false);
}

void col_ibstatus(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "ibstatus", NULL, "ibstatus", NULL);
}

void col_ibv_devinfo(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "ibv_devinfo", NULL, "ibv_devinfo", NULL);
}

void col_ibv_devices(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "ibv_devices", NULL, "ibv_devices", NULL);
}

void col_rdma(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "rdma_dev", NULL, "rdma", NULL);
	command(c, st, "rdma_link", NULL, "rdma", NULL);
}

void col_ibdev2netdev(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "ibdev2netdev", NULL, "ibdev2netdev", NULL);
}

void col_ofed_info(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "ofed_info", NULL, "ofed_info", NULL);
}

void col_lspci(struct col_ctx *c, struct col_status *st)
{
	command(c, st, "lspci", NULL, "lspci", NULL);
}

/* A live host's PCI function worth a firmware query: a Mellanox
 * physical function 0, as sos's mellanox_firmware plugin picks them. */
static bool fw_query_target(struct col_ctx *c, const char *bdf)
{
	char *path = xasprintf("/sys/bus/pci/devices/%s/vendor", bdf);
	char *physfn = xasprintf("/sys/bus/pci/devices/%s/physfn", bdf);
	char vendor[16];
	bool ok = strlen(bdf) > 2 && !strcmp(bdf + strlen(bdf) - 2, ".0") &&
		  col_attr(c, path, vendor, sizeof(vendor)) &&
		  !strcmp(vendor, "0x15b3") && !source_lexists(c->src, physfn);

	free(path);
	free(physfn);
	return ok;
}

/* sos names the output after the mangled address ("0000_3b_00.0"). */
static char *bdf_of_item(const char *item)
{
	unsigned dom, bus, dev, fn;
	char tail;

	if (sscanf(item, "%4x_%2x_%2x.%1u%c", &dom, &bus, &dev, &fn, &tail) ==
		    4 &&
	    strlen(item) == 12)
		return xasprintf("%04x:%02x:%02x.%u", dom, bus, dev, fn);
	return NULL;
}

void col_flint_q(struct col_ctx *c, struct col_status *st)
{
	static const char *const tools[] = { "mstflint_q", "flint_q" };
	int runs = 0;

	for (size_t t = 0; t < ARRAY_SIZE(tools) && !runs; t++) {
		struct names items;

		source_command_items(c->src, catalog_find(tools[t]), &items);
		for (size_t i = 0; i < items.n && runs < FW_QUERY_MAX; i++) {
			char *bdf;

			if (source_is_live(c->src) &&
			    !fw_query_target(c, items.v[i]))
				continue;
			bdf = source_is_live(c->src) ? xstrdup(items.v[i]) :
						       bdf_of_item(items.v[i]);
			/* A tool that is not installed stops the live loop;
			 * the next tool gets its turn. */
			if (command(c, st, tools[t], items.v[i], "flint_q",
				    bdf) < 0 &&
			    source_is_live(c->src) && !runs) {
				free(bdf);
				break;
			}
			free(bdf);
			runs++;
		}
		names_release(&items);
	}
	if (!runs && !st->seen)
		col_status(st, FETCH_MISSING, "%s",
			   source_is_live(c->src) ?
				   "no Mellanox physical function to query" :
				   "no flint or mstflint query in the bundle");
}

/* Live: devices with an InfiniBand port (perfquery speaks MADs). */
static bool ib_device(struct col_ctx *c, const char *dev)
{
	char *path =
		xasprintf("/sys/class/infiniband/%s/ports/1/link_layer", dev);
	char ll[32];
	bool ok =
		col_attr(c, path, ll, sizeof(ll)) && !strcmp(ll, "InfiniBand");

	free(path);
	return ok;
}

void col_perfquery(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("perfquery");
	struct names items;
	int runs = 0;

	source_command_items(c->src, cmd, &items);
	for (size_t i = 0; i < items.n && runs < PERFQUERY_MAX; i++) {
		/* sos: "mlx5_0_-P_1" names device and port */
		const char *p = strstr(items.v[i], "_-P_");
		char *dev = p ? xstrndup(items.v[i], (size_t)(p - items.v[i])) :
				xstrdup(items.v[i]);

		if (!source_is_live(c->src) || ib_device(c, dev)) {
			command(c, st, "perfquery", items.v[i], "perfquery",
				dev);
			runs++;
		}
		free(dev);
	}
	names_release(&items);
	/* sysinfo-snapshot keeps every port's output in one file. */
	if (!runs && !source_is_live(c->src) &&
	    fetch_parse(c, st, "perfquery", NULL, "perfquery", NULL, true) >= 0)
		runs++;
	if (!runs && !st->seen)
		col_status(st, FETCH_MISSING,
			   "no perfquery output (it runs on InfiniBand ports)");
}

/* limits.conf, then limits.d/ in name order, as pam_limits reads them. */
void col_limits_conf(struct col_ctx *c, struct col_status *st)
{
	static const char dir[] = "/etc/security/limits.d";
	struct names ls;
	struct fetch f;

	if (!source_read(c->src, "/etc/security/limits.conf", 0, &f))
		note(st, &f, col_parse(c, "limits_conf", &f, "limits.conf"),
		     "fact", "facts");
	else
		col_status(st, FETCH_MISSING, "no /etc/security/limits.conf");
	fetch_release(&f);
	if (source_list(c->src, dir, &ls)) {
		names_release(&ls);
		return;
	}
	for (size_t i = 0; i < ls.n && i < LIMITS_D_MAX; i++) {
		size_t n = strlen(ls.v[i]);
		char *path, *name;

		if (n < 6 || strcmp(ls.v[i] + n - 5, ".conf"))
			continue;
		path = xasprintf("%s/%s", dir, ls.v[i]);
		name = xasprintf("limits.d/%s", ls.v[i]);
		if (!source_read(c->src, path, 0, &f))
			note(st, &f, col_parse(c, "limits_conf", &f, name),
			     "fact", "facts");
		fetch_release(&f);
		free(path);
		free(name);
	}
	names_release(&ls);
}

/* The first active port's device, or false. */
static bool active_device(struct col_ctx *c, char *dev, size_t size)
{
	struct value active = value_cstr("ACTIVE");
	size_t n;
	const uint32_t *ids =
		fact_base_lookup(c->fb, sym_intern_cstr("port"),
				 sym_intern_cstr("state"), &active, &n);
	const char *hca =
		n ? fact_text(fact_base_get(c->fb, ids[0]), "hca") : NULL;

	if (!hca)
		return false;
	snprintf(dev, size, "%s", hca);
	return true;
}

/* Whether perftest's client gave up for want of a listening server
 * (perftest src/perftest_communication.c: "Couldn't connect to %s:%d"). */
static bool client_found_no_server(const struct fetch *f)
{
	static const char msg[] = "Couldn't connect to ";

	return f->status == FETCH_OK && f->exit_code != 0 && f->data &&
	       memmem(f->data, f->len, msg, sizeof(msg) - 1);
}

/* Loopback bandwidth (check --perftest): an ib_write_bw server on the
 * first active port and a client to it through localhost.  Only the
 * client's output is kept; it is what a bundle replays. */
void col_loopback_bw(struct col_ctx *c, struct col_status *st)
{
	const struct command *cmd = catalog_find("ib_write_bw_loopback");
	struct run_proc server;
	struct run_result sr;
	struct fetch f;
	char dev[64];
	int facts;

	if (!source_is_live(c->src)) {
		struct names items;

		source_command_items(c->src, cmd, &items);
		for (size_t i = 0; i < items.n; i++) {
			source_command(c->src, cmd, items.v[i], &f);
			facts = f.status == FETCH_OK ?
					col_parse(c, "perftest", &f, NULL) :
					0;
			note(st, &f, facts, "fact", "facts");
			fetch_release(&f);
		}
		names_release(&items);
		return;
	}
	if (!active_device(c, dev, sizeof(dev))) {
		col_status(st, FETCH_MISSING,
			   "no active RDMA port to run ib_write_bw on");
		return;
	}
	col_progress(c, "running ib_write_bw on %s (loopback)", dev);
	{
		const char *argv[] = { "ib_write_bw", "-d",
				       dev,	      "--report_gbits",
				       "-D",	      "2",
				       NULL };

		if (run_start(argv, &server)) {
			col_status(st, FETCH_ERROR, "cannot start ib_write_bw");
			return;
		}
	}
	/* The server needs a moment to listen before the client connects. */
	usleep(LOOPBACK_SERVER_WAIT_MS * 1000);
	for (int i = 1;; i++) {
		source_command(c->src, cmd, dev, &f);
		if (i >= LOOPBACK_TRIES || !client_found_no_server(&f))
			break;
		fetch_release(&f);
		usleep(LOOPBACK_RETRY_MS * 1000);
	}
	run_finish(&server, source_timeout_ms(c->src), 65536, &sr);
	facts = f.status == FETCH_OK ? col_parse(c, "perftest", &f, dev) : 0;
	if (sr.status == RUN_NOT_FOUND)
		col_status(st, FETCH_MISSING,
			   "ib_write_bw is not installed (package perftest)");
	else
		note(st, &f, facts, "fact", "facts");
	run_result_release(&sr);
	fetch_release(&f);
}
