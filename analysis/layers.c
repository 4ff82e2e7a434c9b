/* Layer verdicts.  A layer is a fault when a diagnosis of severity error
 * or worse sits there, a warning for a warning, ok when its evidence was
 * checked and nothing fired, and unknown ("not checked") when there was
 * nothing to check.
 * The summary follows the guide's checklist: port state and rate for the
 * hardware, firmware version and PSID, driver modules and versions,
 * registered devices and LIDs, and verbs tests. */
#include "analysis/layers.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectors/parsers/formats.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* Items listed before "and N more". */
#define SUMMARY_ITEMS 3 /* @@ */

struct lister {
	struct strbuf sb;
	size_t n;
};

static void item(struct lister *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void item(struct lister *l, const char *fmt, ...)
{
	va_list ap;

	if (l->n++ >= SUMMARY_ITEMS)
		return;
	if (l->sb.len)
		sb_puts(&l->sb, ", ");
	va_start(ap, fmt);
	sb_vprintf(&l->sb, fmt, ap);
	va_end(ap);
}

/* The summary, or NULL when nothing was listed. */
static char *done(struct lister *l)
{
	if (!l->n) {
		sb_release(&l->sb);
		return NULL;
	}
	if (l->n > SUMMARY_ITEMS)
		sb_printf(&l->sb, " and %zu more", l->n - SUMMARY_ITEMS);
	return sb_detach(&l->sb);
}

static const uint32_t *facts_of(const struct analysis *a, const char *kind,
				size_t *n)
{
	return fact_base_of_kind(a->fb, sym_intern_cstr(kind), n);
}

static const char *text(const struct fact *f, const char *field)
{
	const char *t = fact_text(f, field);

	return t ? t : "";
}

static bool number(const struct fact *f, const char *field, double *out)
{
	const struct value *v = fact_get(f, sym_intern_cstr(field));

	if (!v || (v->type != VALUE_INT && v->type != VALUE_NUMBER))
		return false;
	*out = v->type == VALUE_INT ? (double)v->i : v->n;
	return true;
}

/* Without RDMA devices: the PCI functions the kb knows as adapters. */
static void pci_adapters(const struct analysis *a, struct lister *l)
{
	uint32_t adapter = sym_intern_cstr("adapter");
	uint32_t devid = sym_intern_cstr("pci_device_id");
	size_t n, found = 0;
	const uint32_t *ids = facts_of(a, "pcie", &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *p = fact_base_get(a->fb, ids[i]);
		const struct value *d =
			fact_get(p, sym_intern_cstr("device_id"));
		const uint32_t *hit;
		size_t k;

		if (!d) {
			/* a listing without -nn names the class and the
			 * device's name, not the id */
			if (lspci_rdma_function(fact_text(p, "class"),
						fact_text(p, "description"))) {
				item(l, "%s RDMA adapter on PCI",
				     text(p, "pci"));
				found++;
			}
			continue;
		}
		hit = fact_base_lookup(a->fb, adapter, devid, d, &k);
		for (size_t j = 0; j < k; j++) {
			const struct fact *ad = fact_base_get(a->fb, hit[j]);

			if (strcmp(text(ad, "vendor_id"), text(p, "vendor_id")))
				continue;
			item(l, "%s %s on PCI", text(p, "pci"),
			     text(ad, "family"));
			found++;
		}
	}
	if (n && !found)
		item(l, "no RDMA adapter among %zu PCI functions", n);
}

static char *hardware(const struct analysis *a, bool *checked)
{
	struct lister l = { STRBUF_INIT, 0 };
	size_t n;
	const uint32_t *ids = facts_of(a, "port", &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *p = fact_base_get(a->fb, ids[i]);
		double rate, port = 0;

		number(p, "port", &port);
		if (!strcmp(text(p, "state"), "ACTIVE") &&
		    number(p, "rate_gbps", &rate))
			item(&l, "%s/%g %s %g Gb/s %s", text(p, "hca"), port,
			     text(p, "state"), rate, text(p, "link_layer"));
		else
			item(&l, "%s/%g %s %s", text(p, "hca"), port,
			     text(p, "state"), text(p, "phys_state"));
	}
	*checked = n > 0;
	if (!n) {
		facts_of(a, "hca", &n);
		*checked = n > 0;
		if (n)
			item(&l, "%zu adapters, no port information", n);
		else
			pci_adapters(a, &l);
	}
	return done(&l);
}

/* A switch's firmware query: ibswinfo names the switch by its node GUID
 * (0x...); mlxfwmanager names a switch ASIC (mstflint's device names
 * Spectrum*, Quantum*, SwitchIB*, SwitchX*) or its part number is a
 * switch's (MSN, MQM, MSB, MSX). */
static bool switch_image(const struct fact *f)
{
	static const char *const types[] = { "Spectrum", "Quantum",
					     "SwitchIB", "SwitchX" };
	static const char *const parts[] = { "MSN", "MQM", "MSB", "MSX" };
	const char *pci = fact_text(f, "pci"), *type = fact_text(f, "device_type"),
		   *part = fact_text(f, "part_number");

	if (pci && !strncmp(pci, "0x", 2))
		return true;
	for (size_t i = 0; type && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strncasecmp(type, types[i], strlen(types[i])))
			return true;
	for (size_t i = 0; part && i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!strncmp(part, parts[i], strlen(parts[i])))
			return true;
	return false;
}

static char *firmware(const struct analysis *a, bool *checked)
{
	struct lister l = { STRBUF_INIT, 0 };
	size_t n;
	const uint32_t *ids = facts_of(a, "hca", &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *h = fact_base_get(a->fb, ids[i]);
		const char *fw = fact_text(h, "fw_ver"),
			   *psid = fact_text(h, "psid");

		if (!fw)
			continue;
		if (psid)
			item(&l, "%s FW %s (%s)", text(h, "name"), fw, psid);
		else
			item(&l, "%s FW %s", text(h, "name"), fw);
	}
	/* a firmware tool's query (flint, mlxfwmanager) when no adapter
	 * fact gives the version */
	if (!l.n) {
		ids = facts_of(a, "fw_image", &n);
		for (size_t i = 0; i < n; i++) {
			const struct fact *f = fact_base_get(a->fb, ids[i]);
			const char *fw = fact_text(f, "fw_ver"),
				   *pci = fact_text(f, "pci"),
				   *psid = fact_text(f, "psid");

			if (!fw || switch_image(f))
				continue;
			if (pci && *pci)
				item(&l, "%s FW %s (firmware query)", pci, fw);
			else
				item(&l, "%s FW %s (firmware query)",
				     psid && *psid ? psid : "adapter", fw);
		}
	}
	*checked = l.n > 0;
	return done(&l);
}

/* "mlx5_core 5.7-1.0.2 (mlnx_ofed)" */
static void driver_item(struct lister *l, const struct fact *df)
{
	const char *origin = text(df, "origin");

	item(l, "%s %s%s%s%s", text(df, "name"),
	     fact_text(df, "version") ? text(df, "version") : "(no version)",
	     *origin && strcmp(origin, "unknown") ? " (" : "",
	     *origin && strcmp(origin, "unknown") ? origin : "",
	     *origin && strcmp(origin, "unknown") ? ")" : "");
}

/* Whether the knowledge base knows name as an adapter's kernel driver. */
static bool adapter_driver(const struct analysis *a, const char *name)
{
	struct value v = value_cstr(name);
	size_t n;

	fact_base_lookup(a->fb, sym_intern_cstr("adapter"),
			 sym_intern_cstr("kernel_driver"), &v, &n);
	return n > 0;
}

/* Whether the knowledge base knows name as an adapter's RDMA driver
 * (mlx5_ib, bnxt_re). */
static bool rdma_driver(const struct analysis *a, const char *name)
{
	struct value v = value_cstr(name);
	size_t n;

	fact_base_lookup(a->fb, sym_intern_cstr("adapter"),
			 sym_intern_cstr("rdma_driver"), &v, &n);
	return n > 0;
}

/* The drivers of the adapters (hca.driver, and the drivers of interfaces
 * that the knowledge base knows as adapter drivers), with versions. */
static char *driver(const struct analysis *a, bool *checked)
{
	struct lister l = { STRBUF_INIT, 0 };
	const char *kinds[2] = { "hca", "netdev" };
	const char *seen[64];
	size_t nseen = 0, n, nh;

	facts_of(a, "hca", &nh);
	*checked = nh > 0;
	for (int k = 0; k < 2 && nh; k++) {
		const uint32_t *ids = facts_of(a, kinds[k], &n);

		for (size_t i = 0; i < n && nseen < 64; i++) {
			const char *name = fact_text(
				fact_base_get(a->fb, ids[i]), "driver");
			struct value v;
			const uint32_t *d;
			size_t nd;
			bool dup = false;

			if (!name || !adapter_driver(a, name))
				continue;
			for (size_t j = 0; j < nseen; j++)
				dup |= !strcmp(seen[j], name);
			if (dup)
				continue;
			seen[nseen++] = name;
			v = value_cstr(name);
			d = fact_base_lookup(a->fb, sym_intern_cstr("driver"),
					     sym_intern_cstr("name"), &v, &nd);
			if (nd)
				driver_item(&l, fact_base_get(a->fb, d[0]));
			else
				item(&l, "%s", name);
		}
	}
	if (!l.n) {
		size_t nd;
		const uint32_t *ids = facts_of(a, "driver", &nd);

		for (size_t i = 0; i < nd; i++) {
			const struct fact *df = fact_base_get(a->fb, ids[i]);

			if (!strcmp(text(df, "origin"), "mlnx_ofed"))
				driver_item(&l, df);
		}
		ids = facts_of(a, "module", &n);
		for (size_t i = 0; i < n && l.n < 8; i++) {
			const char *name = fact_text(
				fact_base_get(a->fb, ids[i]), "name");

			if (name && (adapter_driver(a, name) ||
				     rdma_driver(a, name)))
				item(&l, "%s loaded", name);
		}
		if (!l.n && n)
			item(&l, "no RDMA driver in use; %zu modules loaded",
			     n);
	}
	return done(&l);
}

/* Whether the kernel configuration names option. */
static bool has_kconfig(const struct analysis *a, const char *option)
{
	struct value v = value_cstr(option);
	size_t n;

	fact_base_lookup(a->fb, sym_intern_cstr("kconfig"),
			 sym_intern_cstr("name"), &v, &n);
	return n > 0;
}

/* Registered devices and their LIDs, modules, kernel config. */
static char *kernel_module(const struct analysis *a, bool *checked)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nh, nm, nk, np;
	const uint32_t *ids = facts_of(a, "hca", &nh);
	const uint32_t *ports = facts_of(a, "port", &np);

	facts_of(a, "module", &nm);
	facts_of(a, "kconfig", &nk);
	/* Modules without a registered device judge nothing: a bundle
	 * without ibstat or sysfs shows no device either way. */
	*checked = nh || has_kconfig(a, "CONFIG_INFINIBAND");
	if (!nm && !nk && !nh)
		return NULL;
	if (!nh)
		sb_puts(&sb, "no RDMA device registered");
	for (size_t i = 0; i < nh && i < SUMMARY_ITEMS; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "",
			  text(fact_base_get(a->fb, ids[i]), "name"));
	if (nh > SUMMARY_ITEMS)
		sb_printf(&sb, " and %zu more", nh - SUMMARY_ITEMS);
	if (nh)
		sb_puts(&sb, " registered");
	for (size_t i = 0; i < np; i++) {
		const struct fact *p = fact_base_get(a->fb, ports[i]);
		double lid;

		if (!strcmp(text(p, "link_layer"), "InfiniBand") &&
		    number(p, "lid", &lid)) {
			sb_printf(&sb, " (%s LID %g)", text(p, "hca"), lid);
			break;
		}
	}
	if (nm)
		sb_printf(&sb, "; %zu modules", nm);
	if (nk)
		sb_puts(&sb, "; kernel config read");
	return sb_detach(&sb);
}

static char *verbs(const struct analysis *a, bool *checked)
{
	struct lister l = { STRBUF_INIT, 0 };
	size_t n;
	const uint32_t *ids = facts_of(a, "perftest", &n);

	for (size_t i = 0; i < n; i++) {
		const struct fact *p = fact_base_get(a->fb, ids[i]);
		double bw, lat;

		if (fact_text(p, "error"))
			item(&l, "%s failed: %s", text(p, "test"),
			     text(p, "error"));
		else if (number(p, "bw_avg_gbps", &bw))
			item(&l, "%s %.2f Gb/s%s%s", text(p, "test"), bw,
			     fact_text(p, "hca") ? " on " : "", text(p, "hca"));
		else if (number(p, "lat_typical_us", &lat))
			item(&l, "%s %.2f us", text(p, "test"), lat);
	}
	ids = facts_of(a, "verbs", &n);
	for (size_t i = 0; i < n; i++) {
		const struct fact *v = fact_base_get(a->fb, ids[i]);
		double devs;

		if (!strcmp(text(v, "step"), "get_device_list")) {
			if (number(v, "devices", &devs) &&
			    !fact_text(v, "error"))
				item(&l, "libibverbs sees %g devices", devs);
			else
				item(&l, "libibverbs: %s", text(v, "error"));
		}
	}
	*checked = l.n > 0;
	ids = facts_of(a, "limits", &n);
	for (size_t i = 0; i < n; i++) {
		double kb;

		if (!number(fact_base_get(a->fb, ids[i]), "memlock_kb", &kb))
			continue;
		if (kb < 0)
			item(&l, "memlock unlimited");
		else
			item(&l, "memlock %g KiB", kb);
	}
	return done(&l);
}

static char *(*const summarize[LAYER_COUNT])(const struct analysis *,
					     bool *checked) = {
	[LAYER_HARDWARE] = hardware, [LAYER_FIRMWARE] = firmware,
	[LAYER_DRIVER] = driver,     [LAYER_KERNEL_MODULE] = kernel_module,
	[LAYER_VERBS] = verbs,
};

char *layers_evidence(const struct analysis *a, enum layer l)
{
	bool judged;

	return summarize[l](a, &judged);
}

void layers_judge(struct analysis *a)
{
	for (int l = 0; l < LAYER_COUNT; l++) {
		struct layer_view *v = &a->layers[l];
		const struct diagnosis *top = NULL;
		size_t count = 0;
		bool judged = false;
		char *checked = summarize[l](a, &judged);

		for (size_t i = 0; a->dl && i < a->dl->n; i++) {
			const struct diagnosis *dg = a->dl->items[i];

			if (dg->layer != (enum layer)l ||
			    dg->severity < SEVERITY_WARNING)
				continue;
			if (!top)
				top = dg;
			count++;
		}
		if (top) {
			v->status = top->severity >= SEVERITY_ERROR ?
					    LAYER_FAULT :
					    LAYER_WARNING;
			for (size_t i = 0; i < a->dl->n; i++)
				if (a->dl->items[i]->layer == (enum layer)l &&
				    a->dl->items[i]->severity >= SEVERITY_ERROR)
					v->status = LAYER_FAULT;
			v->summary = count > 1 ? xasprintf("%s (and %zu more)",
							   top->rule->title,
							   count - 1) :
						 xstrdup(top->rule->title);
			free(checked);
		} else if (checked) {
			v->status = judged ? LAYER_OK : LAYER_UNKNOWN;
			v->summary = checked;
		} else {
			v->status = LAYER_UNKNOWN;
			v->summary = xstrdup(
				"not checked: no evidence for this layer");
		}
	}
}
