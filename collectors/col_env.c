/* Where the evidence comes from: inside a container or a virtual machine,
 * and which RDMA device files (/dev/infiniband) it can reach. */
#include <stdlib.h>
#include <string.h>

#include "collectors/collector.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define CPUINFO_MAX (4u << 20) /* @@ */

/* The marks container runtimes leave, as systemd-detect-virt reads them
 * (systemd src/basic/virt.c, detect_container()). */
static const struct {
	const char *path, *runtime;
} marks[] = {
	{ "/run/systemd/container", NULL }, /* holds the runtime's name */
	{ "/run/.containerenv", "podman" },
	{ "/.dockerenv", "docker" },
	{ "/var/run/secrets/kubernetes.io/serviceaccount", "kubernetes" },
};

/* cgroup v1 paths of PID 1 that name a runtime. */
static const struct {
	const char *needle, *runtime;
} cgroups[] = {
	{ "kubepods", "kubernetes" },
	{ "/docker", "docker" },
	{ "libpod", "podman" },
	{ "/lxc", "lxc" },
};

/* Sets a field of the host fact, citing the file it was read from. */
static void put(struct col_ctx *c, struct fact *f, const char *field,
		struct value v, const char *path, const char *text)
{
	char *where = source_name_of(c->src, path);

	fact_put_at(c->fb, f, sym_intern_cstr(field), v,
		    fact_base_source(c->fb, where), 1, text, strlen(text));
	free(where);
}

static void put_runtime(struct col_ctx *c, struct fact *f, const char *path,
			const char *runtime, struct col_status *st)
{
	put(c, f, "container", value_bool(true), path, runtime);
	put(c, f, "virtual", value_cstr(runtime), path, runtime);
	col_status(st, FETCH_OK, "a %s container (%s)", runtime, path);
}

static bool container(struct col_ctx *c, struct fact *f, struct col_status *st)
{
	struct fetch cg;

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		char buf[64];

		if (!source_exists(c->src, marks[i].path))
			continue;
		if (!marks[i].runtime &&
		    !(col_attr(c, marks[i].path, buf, sizeof(buf)) && buf[0]))
			continue;
		put_runtime(c, f, marks[i].path,
			    marks[i].runtime ? marks[i].runtime : buf, st);
		return true;
	}
	if (source_read(c->src, "/proc/1/cgroup", 65536, &cg)) {
		fetch_release(&cg);
		return false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cgroups); i++) {
		if (!memmem(cg.data, cg.len, cgroups[i].needle,
			    strlen(cgroups[i].needle)))
			continue;
		put_runtime(c, f, "/proc/1/cgroup", cgroups[i].runtime, st);
		fetch_release(&cg);
		return true;
	}
	fetch_release(&cg);
	return false;
}

/* The CPU's "hypervisor" flag, and the DMI vendor and product that name
 * the hypervisor's virtual hardware. */
static void virtual_machine(struct col_ctx *c, struct fact *f,
			    struct col_status *st)
{
	static const char *const dmi[][2] = {
		{ "/sys/class/dmi/id/sys_vendor", "dmi_vendor" },
		{ "/sys/class/dmi/id/product_name", "dmi_product" },
	};
	struct fetch cpu;
	char buf[128];

	if (!source_read(c->src, "/proc/cpuinfo", CPUINFO_MAX, &cpu)) {
		struct lines it;
		struct line ln, key, val;

		lines_init(&it, cpu.data, cpu.len);
		while (lines_next(&it, &ln)) {
			char *flags;
			bool on;

			if (!line_kv(&ln, ':', &key, &val) ||
			    !line_eq(&key, "flags"))
				continue;
			flags = xasprintf(" %.*s ", (int)val.len, val.p);
			on = strstr(flags, " hypervisor ") != NULL;
			fact_put_at(c->fb, f, sym_intern_cstr("hypervisor"),
				    value_bool(on),
				    fact_base_source(c->fb, cpu.where), ln.no,
				    on ? "flags: ... hypervisor ..." :
					 "flags: (no hypervisor)",
				    on ? 26 : 22);
			free(flags);
			break;
		}
		col_status(st, FETCH_OK, "%s", cpu.where);
	}
	fetch_release(&cpu);
	for (size_t i = 0; i < ARRAY_SIZE(dmi); i++)
		if (col_attr(c, dmi[i][0], buf, sizeof(buf)) && buf[0])
			put(c, f, dmi[i][1], value_cstr(buf), dmi[i][0], buf);
}

/* The host fact the host collector made, or a new one. */
static struct fact *host_fact(struct col_ctx *c)
{
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(c->fb, sym_intern_cstr("host"), &n);
	struct fact *f;
	bool added;

	if (n)
		return (struct fact *)fact_base_get(c->fb, ids[0]);
	f = fact_base_begin(c->fb, sym_intern_cstr("host"),
			    fact_base_source(c->fb, source_path(c->src)), 0,
			    NULL, 0);
	return fact_base_commit(c->fb, f, &added);
}

void col_environment(struct col_ctx *c, struct col_status *st)
{
	enum source_kind k = source_kind(c->src);
	struct fact *f = host_fact(c);

	col_progress(c, "looking for containers and hypervisors");
	/* Only a live host and a snapshot from collect record where the
	 * marks were looked for; elsewhere their absence says nothing. */
	if (!container(c, f, st) &&
	    (k == SOURCE_LIVE || k == SOURCE_SNAPSHOT)) {
		fact_put(c->fb, f, sym_intern_cstr("container"),
			 value_bool(false), 0, NULL, 0);
		col_status(st, FETCH_OK, "no container runtime's marks");
	}
	virtual_machine(c, f, st);
	if (!st->seen)
		col_status(
			st, FETCH_MISSING,
			"no container marks, /proc/cpuinfo or DMI data in this bundle");
}

void col_dev_infiniband(struct col_ctx *c, struct col_status *st)
{
	struct names ls;
	struct emit e;

	col_progress(c, "listing /dev/infiniband");
	if (source_list(c->src, "/dev/infiniband", &ls)) {
		names_release(&ls);
		if (source_exists(c->src, "/dev"))
			col_status(st, FETCH_OK,
				   "no /dev/infiniband: no RDMA device file");
		else
			col_status(st, FETCH_MISSING, "no /dev in this bundle");
		return;
	}
	emit_init(&e, c->fb, "/dev/infiniband");
	for (size_t i = 0; i < ls.n; i++) {
		char *path = xasprintf("/dev/infiniband/%s", ls.v[i]);
		char *where = source_name_of(c->src, path);
		struct fact *f;

		emit_init(&e, c->fb, where);
		f = emit_begin(&e, "devnode", NULL);
		emit_str(&e, f, "name", ls.v[i], strlen(ls.v[i]), NULL);
		emit_str(&e, f, "path", path, strlen(path), NULL);
		emit_end(&e, f);
		free(where);
		free(path);
	}
	col_status(st, FETCH_OK, "/dev/infiniband: %zu device file%s", ls.n,
		   ls.n == 1 ? "" : "s");
	names_release(&ls);
}
