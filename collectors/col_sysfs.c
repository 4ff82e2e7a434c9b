/* Collectors that read files of the host: host identity, kernel config,
 * modules, and the sysfs trees of RDMA devices and PCI functions. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "collectors/collector.h"
#include "collectors/parsers/port_state.h"
#include "collectors/sources/archive.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define KCONFIG_MAX (16u << 20) /* @@ */

/* emit_attr, naming the file as the evidence should. */
static void put(struct col_ctx *c, struct emit *e, struct fact *f,
		const char *field, const char *path, const char *v)
{
	char *name = source_name_of(c->src, path);

	emit_attr(e, f, field, name, v, strlen(v));
	free(name);
}

/* put() for a number read from a file. */
static void put_num(struct col_ctx *c, struct emit *e, struct fact *f,
		    const char *field, const char *path, double v,
		    const char *text)
{
	char *name = source_name_of(c->src, path);

	fact_put_at(e->fb, f, sym_intern_cstr(field), value_num(v),
		    fact_base_source(e->fb, name), 1, text, strlen(text));
	free(name);
}

/* emit_init, naming the source as the evidence should. */
static void emit_at(struct col_ctx *c, struct emit *e, const char *path)
{
	char *name = source_name_of(c->src, path);

	emit_init(e, c->fb, name);
	free(name);
}

/* ---- host ---- */

/* "Linux host 4.18.0-... #1 SMP ... x86_64 GNU/Linux" */
static void uname_line(struct emit *e, struct fact *f, const struct fetch *u,
		       char *release, size_t size)
{
	struct lines it;
	struct line ln, tok[4];

	lines_init(&it, u->data, u->len);
	while (lines_next(&it, &ln)) {
		if (line_split(&ln, tok, 4) < 3 || !line_eq(&tok[0], "Linux"))
			continue;
		emit_line(e, f, "hostname", &tok[1], &ln);
		emit_line(e, f, "kernel", &tok[2], &ln);
		line_copy(&tok[2], release, size);
		return;
	}
}

static void os_release(struct col_ctx *c, struct fact *f)
{
	struct fetch os;
	struct emit e;

	if (!source_read(c->src, "/etc/os-release", 65536, &os)) {
		struct lines it;
		struct line ln, key, val;

		emit_init(&e, c->fb, os.where);
		lines_init(&it, os.data, os.len);
		while (lines_next(&it, &ln)) {
			if (!line_kv(&ln, '=', &key, &val) ||
			    !line_eq(&key, "PRETTY_NAME"))
				continue;
			if (val.len >= 2 && val.p[0] == '"') {
				val.p++;
				val.len -= 2;
			}
			emit_line(&e, f, "os", &val, &ln);
		}
	}
	fetch_release(&os);
}

/* /proc/sys/kernel/{hostname,osrelease,arch}: a live host's identity,
 * and a tree's when it has no uname output. */
static void proc_identity(struct col_ctx *c, struct emit *e, struct fact *f,
			  struct col_status *st)
{
	static const char *const files[][2] = {
		{ "/proc/sys/kernel/hostname", "hostname" },
		{ "/proc/sys/kernel/osrelease", "kernel" },
		{ "/proc/sys/kernel/arch", "arch" },
	};
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (fact_get(f, sym_intern_cstr(files[i][1])) ||
		    !col_attr(c, files[i][0], buf, sizeof(buf)) || !buf[0])
			continue;
		put(c, e, f, files[i][1], files[i][0], buf);
		if (i == 1)
			snprintf(c->release, sizeof(c->release), "%s", buf);
		col_status(st, FETCH_OK, "%s", files[i][0]);
	}
}

void col_host(struct col_ctx *c, struct col_status *st)
{
	struct emit e;
	struct fact *f;

	emit_init(&e, c->fb, source_path(c->src));
	f = emit_begin(&e, "host", NULL);
	if (source_is_live(c->src)) {
		struct utsname u;

		/* Read from /proc, so that a snapshot records them. */
		proc_identity(c, &e, f, st);
		if (!c->release[0] && !uname(&u)) {
			emit_str(&e, f, "hostname", u.nodename,
				 strlen(u.nodename), NULL);
			emit_str(&e, f, "kernel", u.release, strlen(u.release),
				 NULL);
			emit_str(&e, f, "arch", u.machine, strlen(u.machine),
				 NULL);
			snprintf(c->release, sizeof(c->release), "%s",
				 u.release);
			col_status(st, FETCH_OK, "uname: %s %s", u.nodename,
				   u.release);
		}
	} else {
		const struct command *cmds[] = { catalog_find("hostname"),
						 catalog_find("uname") };

		for (size_t i = 0; i < 2; i++) {
			struct fetch out;
			struct emit ce;

			if (source_command(c->src, cmds[i], NULL, &out)) {
				fetch_release(&out);
				continue;
			}
			emit_init(&ce, c->fb, out.where);
			if (i == 0) {
				struct lines it;
				struct line ln = { NULL, 0, 0 };
				bool got;

				lines_init(&it, out.data, out.len);
				got = lines_next(&it, &ln);
				/* sysinfo-snapshot heads each output with the
				 * command it ran. */
				if (got && ln.len >= 16 &&
				    !memcmp(ln.p, "Invoked Command:", 16))
					got = lines_next(&it, &ln);
				if (got && line_trim(ln).len) {
					struct line t = line_trim(ln);

					emit_line(&ce, f, "hostname", &t, &ln);
				}
			} else {
				uname_line(&ce, f, &out, c->release,
					   sizeof(c->release));
			}
			col_status(st, FETCH_OK, "%s", out.where);
			fetch_release(&out);
		}
		proc_identity(c, &e, f, st);
	}
	os_release(c, f);
	emit_end(&e, f);
}

/* ---- kernel config ---- */

static int read_config(struct col_ctx *c, const char *path, struct fetch *f)
{
	char err[160], *plain;
	size_t len;
	int rc = source_read(c->src, path, KCONFIG_MAX, f);

	if (rc || !strstr(path, ".gz"))
		return rc;
	rc = archive_decompress(f->data, f->len, KCONFIG_MAX, &plain, &len, err,
				sizeof(err));
	if (rc) {
		free(f->detail);
		f->detail = xstrdup(err);
		f->status = FETCH_ERROR;
		return rc;
	}
	fetch_replace(f, plain, len);
	return 0;
}

/* The one boot/config-* of a bundle when the release is unknown. */
static char *only_boot_config(struct col_ctx *c)
{
	struct names ls;
	char *path = NULL;
	size_t found = 0;

	if (source_list(c->src, "/boot", &ls) == 0)
		for (size_t i = 0; i < ls.n; i++)
			if (!strncmp(ls.v[i], "config-", 7) && !found++)
				path = xasprintf("/boot/%s", ls.v[i]);
	names_release(&ls);
	if (found != 1) {
		free(path);
		return NULL;
	}
	return path;
}

void col_kernel_config(struct col_ctx *c, struct col_status *st)
{
	char *paths[3] = { xstrdup("/proc/config.gz"), NULL, NULL };
	bool done = false;

	if (c->release[0])
		paths[1] = xasprintf("/boot/config-%s", c->release);
	else
		paths[1] = only_boot_config(c);
	for (size_t i = 0; i < 2 && !done; i++) {
		struct fetch f;

		if (!paths[i])
			continue;
		col_progress(c, "reading %s", paths[i]);
		if (read_config(c, paths[i], &f)) {
			if (f.status != FETCH_MISSING)
				col_status(st, f.status, "%s: %s", f.where,
					   f.detail ? f.detail : "unreadable");
			fetch_release(&f);
			continue;
		}
		col_status(st, f.status, "%s: %d options", f.where,
			   col_parse(c, "kconfig", &f, NULL));
		fetch_release(&f);
		done = true;
	}
	if (!done && !st->seen)
		col_status(st, FETCH_MISSING,
			   "no /proc/config.gz and no /boot/config-%s",
			   c->release[0] ? c->release : "<release>");
	free(paths[0]);
	free(paths[1]);
}

/* ---- modules ---- */

/* Modules in /sys/module without an initstate file are built in. */
static void builtin_modules(struct col_ctx *c, struct col_status *st)
{
	struct names ls;
	struct emit e;
	int n = 0;

	if (source_list(c->src, "/sys/module", &ls)) {
		names_release(&ls);
		return;
	}
	emit_at(c, &e, "/sys/module");
	for (size_t i = 0; i < ls.n; i++) {
		char *init = xasprintf("/sys/module/%s/initstate", ls.v[i]);
		struct fact *f;

		if (!source_exists(c->src, init)) {
			f = emit_begin(&e, "module", NULL);
			emit_str(&e, f, "name", ls.v[i], strlen(ls.v[i]), NULL);
			emit_bool(&e, f, "builtin", true, NULL);
			emit_end(&e, f);
			n++;
		}
		free(init);
	}
	names_release(&ls);
	col_status(st, FETCH_OK, "/sys/module: %d built in", n);
}

void col_modules(struct col_ctx *c, struct col_status *st)
{
	bool unreadable = false;
	struct fetch f;

	col_progress(c, "reading /proc/modules");
	if (!source_read(c->src, "/proc/modules", 0, &f)) {
		col_status(st, f.status, "%s: %d modules", f.where,
			   col_parse(c, "proc_modules", &f, NULL));
		fetch_release(&f);
		builtin_modules(c, st);
		return;
	}
	if (f.status == FETCH_ERROR) {
		/* There but unreadable (a directory, no permission): which
		 * modules are loaded is unknown, not "none". */
		unreadable = true;
		col_status(st, FETCH_ERROR, "%s: %s", f.where,
			   f.detail ? f.detail : "cannot be read");
	} else {
		col_status(
			st, FETCH_MISSING, "no /proc/modules%s",
			source_is_live(c->src) ?
				" (the kernel has no loadable module support)" :
				"");
	}
	fetch_release(&f);
	source_command(c->src, catalog_find("lsmod"), NULL, &f);
	if (f.status == FETCH_OK && f.exit_code <= 0)
		col_status(st, f.status, "%s: %d modules", f.where,
			   col_parse(c, "lsmod", &f, NULL));
	else if (f.status != FETCH_MISSING || source_is_live(c->src))
		col_status(st, f.status == FETCH_OK ? FETCH_ERROR : f.status,
			   "%s: %s", f.where, f.detail ? f.detail : "failed");
	fetch_release(&f);
	/* Built-in modules alone would read as "nothing else loaded". */
	if (!unreadable || st->read_any)
		builtin_modules(c, st);
}

/* "OE": O marks an out-of-tree module, the mark MLNX_OFED modules carry. */
static bool out_of_tree(struct col_ctx *c, const char *module)
{
	char path[512], taint[64];

	snprintf(path, sizeof(path), "/sys/module/%s/taint", module);
	return col_attr(c, path, taint, sizeof(taint)) && strchr(taint, 'O');
}

void col_module_versions(struct col_ctx *c, struct col_status *st)
{
	struct names ls;
	struct emit e;
	int n = 0;

	if (source_list(c->src, "/sys/module", &ls)) {
		col_status(st, FETCH_MISSING, "no /sys/module");
		names_release(&ls);
		return;
	}
	for (size_t i = 0; i < ls.n; i++) {
		char *path = xasprintf("/sys/module/%s/version", ls.v[i]);
		char ver[128], src[128], spath[512];
		const char *origin;
		struct fact *f;

		if (!col_attr(c, path, ver, sizeof(ver))) {
			free(path);
			continue;
		}
		emit_at(c, &e, path);
		f = emit_begin(&e, "driver", NULL);
		emit_str(&e, f, "name", ls.v[i], strlen(ls.v[i]), NULL);
		put(c, &e, f, "version", path, ver);
		emit_str(&e, f, "evidence", "sysfs", 5, NULL);
		origin = out_of_tree(c, ls.v[i]) ?
				 driver_origin_of(ver, strlen(ver)) :
				 "inbox";
		emit_str(&e, f, "origin", origin, strlen(origin), NULL);
		snprintf(spath, sizeof(spath), "/sys/module/%s/srcversion",
			 ls.v[i]);
		if (col_attr(c, spath, src, sizeof(src)))
			put(c, &e, f, "srcversion", spath, src);
		emit_end(&e, f);
		free(path);
		n++;
	}
	names_release(&ls);
	col_status(st, FETCH_OK, "/sys/module: %d modules with a version", n);
}

/* ---- /sys/class/infiniband ---- */

/* "0x15b3" -> "15b3" */
static void hex_id(char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		memmove(s, s + 2, strlen(s + 2) + 1);
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Sets field from the file dir/name when it exists. */
static bool attr(struct col_ctx *c, struct emit *e, struct fact *f,
		 const char *field, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), buf[256];
	bool ok = col_attr(c, path, buf, sizeof(buf));

	if (ok)
		put(c, e, f, field, path, buf);
	free(path);
	return ok;
}

/* Sets field to the last component of what a link names. */
static void link_name(struct col_ctx *c, struct emit *e, struct fact *f,
		      const char *field, const char *path)
{
	char *real = NULL;
	int err = source_realpath(c->src, path, &real);

	if ((!err || err == -ENOENT) && real) {
		const char *b = base_name(real);

		emit_str(e, f, field, b, strlen(b), NULL);
	}
	free(real);
}

static void pci_ids(struct col_ctx *c, struct emit *e, struct fact *f,
		    const char *dev, const char *vendor_field,
		    const char *device_field)
{
	const char *names[2] = { "vendor", "device" };
	const char *fields[2] = { vendor_field, device_field };

	for (int i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", dev, names[i]), buf[32];

		if (col_attr(c, path, buf, sizeof(buf))) {
			hex_id(buf);
			put(c, e, f, fields[i], path, buf);
		}
		free(path);
	}
}

/* "100 Gb/sec (4X EDR)" -> rate, width, speed */
static void rate(struct col_ctx *c, struct emit *e, struct fact *f,
		 const char *path, const char *text)
{
	char width[16] = "", speed[16] = "";
	double gbps;

	if (sscanf(text, "%lf", &gbps) != 1)
		return;
	put_num(c, e, f, "rate_gbps", path, gbps, text);
	if (sscanf(text, "%*f %*s (%15[0-9X] %15[^)])", width, speed) >= 1) {
		put(c, e, f, "width", path, width);
		if (speed[0])
			put(c, e, f, "speed", path, speed);
	}
}

static void state_attr(struct col_ctx *c, struct emit *e, struct fact *f,
		       const char *dir, const char *name, const char *field,
		       const char *(*norm)(const char *, size_t))
{
	char *path = xasprintf("%s/%s", dir, name), buf[64];
	const char *v;

	if (col_attr(c, path, buf, sizeof(buf)) &&
	    (v = norm(buf, strlen(buf)))) {
		char *where = source_name_of(c->src, path);

		fact_put_at(e->fb, f, sym_intern_cstr(field), value_cstr(v),
			    fact_base_source(e->fb, where), 1, buf,
			    strlen(buf));
		free(where);
	}
	free(path);
}

/* The interface a RoCE port's GIDs hang on (gid_attrs/ndevs/0), as a
 * netdev fact with its MTU and operstate from /sys/class/net: what a
 * host without ethtool or ibdev2netdev still shows. */
static void port_netdev(struct col_ctx *c, const char *dev, const char *dir,
			const char *port)
{
	char *path = xasprintf("%s/gid_attrs/ndevs/0", dir), nd[64], buf[64];
	struct emit e;
	struct fact *f;

	if (!col_attr(c, path, nd, sizeof(nd)) || !nd[0] || nd[0] == '.' ||
	    strchr(nd, '/')) {
		free(path);
		return;
	}
	free(path);
	path = xasprintf("/sys/class/net/%s", nd);
	emit_at(c, &e, path);
	f = emit_begin(&e, "netdev", NULL);
	emit_str(&e, f, "name", nd, strlen(nd), NULL);
	emit_str(&e, f, "hca", dev, strlen(dev), NULL);
	emit_str(&e, f, "port", port, strlen(port), NULL);
	attr(c, &e, f, "mtu", path, "mtu");
	{
		char *op = xasprintf("%s/operstate", path);

		/* operstate is "up", "down", "lowerlayerdown", ...; the
		 * vocabulary's state is Up or Down. */
		if (col_attr(c, op, buf, sizeof(buf)) && buf[0])
			put(c, &e, f, "state", op,
			    !strcmp(buf, "up") ? "Up" : "Down");
		free(op);
	}
	emit_end(&e, f);
	free(path);
}

static int ib_port(struct col_ctx *c, const char *dev, const char *portdir,
		   const char *port)
{
	char *dir = xasprintf("%s/%s", portdir, port), buf[64], *path;
	struct emit e;
	struct fact *f;

	emit_at(c, &e, dir);
	f = emit_begin(&e, "port", NULL);
	emit_str(&e, f, "hca", dev, strlen(dev), NULL);
	emit_str(&e, f, "port", port, strlen(port), NULL);
	state_attr(c, &e, f, dir, "state", "state", port_state_norm);
	state_attr(c, &e, f, dir, "phys_state", "phys_state", phys_state_norm);
	path = xasprintf("%s/rate", dir);
	if (col_attr(c, path, buf, sizeof(buf)))
		rate(c, &e, f, path, buf);
	free(path);
	attr(c, &e, f, "link_layer", dir, "link_layer");
	attr(c, &e, f, "lid", dir, "lid");
	attr(c, &e, f, "sm_lid", dir, "sm_lid");
	attr(c, &e, f, "netdev", dir, "gid_attrs/ndevs/0");
	emit_end(&e, f);
	port_netdev(c, dev, dir, port);
	col_ib_gids(c, dev, dir, strtol(port, NULL, 10));
	path = xasprintf("%s/counters", dir);
	col_ib_counters(c, dev, path, strtol(port, NULL, 10));
	free(path);
	path = xasprintf("%s/hw_counters", dir);
	col_ib_counters(c, dev, path, strtol(port, NULL, 10));
	free(path);
	free(dir);
	return 1;
}

/* "1: CA" -> "CA" */
static void node_type(struct col_ctx *c, struct emit *e, struct fact *f,
		      const char *dir)
{
	char *path = xasprintf("%s/node_type", dir), buf[64];

	if (col_attr(c, path, buf, sizeof(buf))) {
		const char *t = strchr(buf, ':') ? strchr(buf, ':') + 1 : buf;

		while (*t == ' ')
			t++;
		put(c, e, f, "node_type", path, t);
	}
	free(path);
}

/* A device no bus device stands behind: the driver core files it under
 * /sys/devices/virtual (drivers/base/core.c, get_device_parent()), as it
 * does rdma_rxe's and siw's.  Said only where the class link resolves into
 * /sys/devices, so a bundle that copied the tree without its links says
 * nothing. */
static void software_device(struct col_ctx *c, struct emit *e, struct fact *f,
			    const char *dir)
{
	char *real = NULL;

	if (!source_realpath(c->src, dir, &real) && real &&
	    strstr(real, "/sys/devices/"))
		emit_bool(e, f, "software",
			  strstr(real, "/sys/devices/virtual/") != NULL, NULL);
	free(real);
}

static void ib_device(struct col_ctx *c, const char *dev, int *ports)
{
	char *dir = xasprintf("/sys/class/infiniband/%s", dev);
	char *devdir = xasprintf("%s/device", dir);
	char *portdir = xasprintf("%s/ports", dir), *physfn;
	struct names ls;
	struct emit e;
	struct fact *f;

	emit_at(c, &e, dir);
	f = emit_begin(&e, "hca", NULL);
	emit_str(&e, f, "name", dev, strlen(dev), NULL);
	attr(c, &e, f, "fw_ver", dir, "fw_ver");
	attr(c, &e, f, "model", dir, "hca_type");
	attr(c, &e, f, "psid", dir, "board_id");
	attr(c, &e, f, "hw_ver", dir, "hw_rev");
	attr(c, &e, f, "node_guid", dir, "node_guid");
	node_type(c, &e, f, dir);
	software_device(c, &e, f, dir);
	if (source_exists(c->src, devdir)) {
		link_name(c, &e, f, "pci", devdir);
		pci_ids(c, &e, f, devdir, "vendor_id", "pci_device_id");
		physfn = xasprintf("%s/physfn", devdir);
		emit_bool(&e, f, "virtual_function",
			  source_exists(c->src, physfn), NULL);
		free(physfn);
		physfn = xasprintf("%s/driver", devdir);
		if (source_lexists(c->src, physfn))
			link_name(c, &e, f, "driver", physfn);
		free(physfn);
	}
	physfn = xasprintf("%s/hw_counters", dir);
	col_ib_counters(c, dev, physfn, 0);
	free(physfn);
	if (!source_list(c->src, portdir, &ls)) {
		emit_int(&e, f, "ports", (int64_t)ls.n, NULL);
		for (size_t i = 0; i < ls.n; i++)
			*ports += ib_port(c, dev, portdir, ls.v[i]);
	}
	names_release(&ls);
	emit_end(&e, f);
	free(dir);
	free(devdir);
	free(portdir);
}

void col_sysfs_infiniband(struct col_ctx *c, struct col_status *st)
{
	struct names ls;
	int ports = 0;

	col_progress(c, "reading /sys/class/infiniband");
	if (source_list(c->src, "/sys/class/infiniband", &ls)) {
		names_release(&ls);
		/* Absence is evidence where /sys/class itself was read. */
		if (source_kind(c->src) == SOURCE_LIVE ||
		    ((source_kind(c->src) == SOURCE_ROOT ||
		      source_kind(c->src) == SOURCE_SNAPSHOT) &&
		     source_exists(c->src, "/sys/class")))
			col_status(
				st, FETCH_OK,
				"no /sys/class/infiniband: no RDMA device is registered");
		else
			col_status(
				st, FETCH_MISSING,
				"/sys/class/infiniband is not in this bundle (stock sosreports do not collect it)");
		return;
	}
	for (size_t i = 0; i < ls.n; i++)
		ib_device(c, ls.v[i], &ports);
	col_status(st, FETCH_OK,
		   "/sys/class/infiniband: %zu device%s, %d port%s", ls.n,
		   ls.n == 1 ? "" : "s", ports, ports == 1 ? "" : "s");
	names_release(&ls);
}

/* ---- /sys/bus/pci/devices ---- */

/* "8.0 GT/s PCIe" -> 8.0; "Unknown" is skipped. */
static void link_attr(struct col_ctx *c, struct emit *e, struct fact *f,
		      const char *dir, const char *name, const char *field)
{
	char *path = xasprintf("%s/%s", dir, name), buf[64];
	double v;

	if (col_attr(c, path, buf, sizeof(buf)) &&
	    sscanf(buf, "%lf", &v) == 1 && v > 0)
		put_num(c, e, f, field, path, v, buf);
	free(path);
}

void col_pci(struct col_ctx *c, struct col_status *st)
{
	struct names ls;
	struct emit e;

	col_progress(c, "reading /sys/bus/pci/devices");
	if (source_list(c->src, "/sys/bus/pci/devices", &ls)) {
		names_release(&ls);
		col_status(st, FETCH_MISSING, "no /sys/bus/pci/devices");
		return;
	}
	for (size_t i = 0; i < ls.n; i++) {
		char *dir = xasprintf("/sys/bus/pci/devices/%s", ls.v[i]);
		char *drv = xasprintf("%s/driver", dir), buf[32];
		char *cls = xasprintf("%s/class", dir);
		struct fact *f;

		emit_at(c, &e, dir);
		f = emit_begin(&e, "pcie", NULL);
		emit_str(&e, f, "pci", ls.v[i], strlen(ls.v[i]), NULL);
		pci_ids(c, &e, f, dir, "vendor_id", "device_id");
		if (col_attr(c, cls, buf, sizeof(buf))) {
			hex_id(buf);
			buf[4] = '\0'; /* base class and subclass */
			put(c, &e, f, "class", cls, buf);
		}
		if (source_lexists(c->src, drv))
			link_name(c, &e, f, "driver", drv);
		link_attr(c, &e, f, dir, "max_link_speed", "cap_speed_gts");
		link_attr(c, &e, f, dir, "max_link_width", "cap_width");
		link_attr(c, &e, f, dir, "current_link_speed", "sta_speed_gts");
		link_attr(c, &e, f, dir, "current_link_width", "sta_width");
		emit_end(&e, f);
		free(dir);
		free(drv);
		free(cls);
	}
	col_status(st, FETCH_OK, "/sys/bus/pci/devices: %zu function%s", ls.n,
		   ls.n == 1 ? "" : "s");
	names_release(&ls);
}
