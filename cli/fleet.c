/* Aggregating host reports into the fleet summary. */
#include "cli/fleet.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cli/hostlist.h"
#include "engine/rule.h"
#include "engine/version.h"
#include "engine/xalloc.h"

struct adapter {
	char *name, *family, *model, *fw_ver;
};

struct host {
	char *name;
	char *path;
	const char *status; /* ok, warning, fault, failed */
	char *layers[LAYER_COUNT];
	char **diagnoses;
	size_t ndiagnoses;
	struct adapter *adapters;
	size_t nadapters;
	char *reason; /* failed */
};

struct evidence {
	char *source, *text;
	int64_t line;
};

/* A diagnosis across hosts, with the first host's wording as example. */
struct fdiag {
	char *id, *title, *layer, *severity;
	int rank; /* severity order, higher is worse */
	char **remediation;
	size_t nremediation;
	char *example_host, *example_message;
	struct evidence *evidence;
	size_t nevidence;
	size_t *hosts;
	size_t nhosts, cap;
};

struct fw_version {
	char *fw_ver;
	size_t *hosts;
	size_t nhosts, cap;
	size_t adapters;
};

struct family {
	char *name;
	struct fw_version *v;
	size_t nv, cap;
};

struct fleet {
	struct host *hosts;
	size_t nhosts, cap;
	struct fdiag *diags;
	size_t ndiags, capdiags;
	struct family *families;
	size_t nfamilies, capfamilies;
	size_t failed, fault, warning, ok, unchecked, rules_failed;
};

static const char *text(const struct json *j, const char *key)
{
	const char *s = json_text(json_get(j, key));

	return s ? s : "";
}

static char *dup_text(const struct json *j, const char *key)
{
	return xstrdup(text(j, key));
}

char *fleet_host_name(const char *hostname, const char *path)
{
	size_t n = strlen(path);
	const char *base;

	if (hostname && *hostname)
		return xstrdup(hostname);
	while (n > 1 && path[n - 1] == '/')
		n--;
	base = memrchr(path, '/', n);
	base = base ? base + 1 : path;
	return xstrndup(base, n - (size_t)(base - path));
}

struct fleet *fleet_new(void)
{
	return xcalloc(1, sizeof(struct fleet));
}

static void push_index(size_t **v, size_t *n, size_t *cap, size_t i)
{
	if (*n && (*v)[*n - 1] == i)
		return; /* the same host twice (two adapters) */
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = i;
}

static struct host *new_host(struct fleet *f, const char *path)
{
	struct host *h;

	xgrow(&f->hosts, &f->cap, f->nhosts + 1, sizeof(*f->hosts));
	h = &f->hosts[f->nhosts++];
	memset(h, 0, sizeof(*h));
	h->path = xstrdup(path);
	return h;
}

static struct fdiag *lookup_diag(struct fleet *f, const char *id)
{
	for (size_t i = 0; i < f->ndiags; i++)
		if (!strcmp(f->diags[i].id, id))
			return &f->diags[i];
	return NULL;
}

/* A diagnosis seen for the first time: dj has its id, title, layer,
 * severity and remediation; example its message and evidence (in a host
 * report, the diagnosis itself). */
static struct fdiag *new_diag(struct fleet *f, const struct json *dj,
			      const struct json *example, const char *host)
{
	const struct json *arr;
	struct fdiag *g;

	xgrow(&f->diags, &f->capdiags, f->ndiags + 1, sizeof(*f->diags));
	g = &f->diags[f->ndiags++];
	memset(g, 0, sizeof(*g));
	g->id = dup_text(dj, "id");
	g->title = dup_text(dj, "title");
	g->layer = dup_text(dj, "layer");
	g->severity = dup_text(dj, "severity");
	g->rank = severity_from_str(g->severity);
	g->example_host = xstrdup(host);
	g->example_message = dup_text(example, "message");
	arr = json_get(dj, "remediation");
	g->nremediation = json_len(arr);
	g->remediation = xcalloc(g->nremediation + 1, sizeof(char *));
	for (size_t i = 0; i < g->nremediation; i++) {
		const char *r = json_text(json_at(arr, i));

		g->remediation[i] = xstrdup(r ? r : "");
	}
	arr = json_get(example, "evidence");
	g->nevidence = json_len(arr);
	g->evidence = xcalloc(g->nevidence + 1, sizeof(*g->evidence));
	for (size_t i = 0; i < g->nevidence; i++) {
		const struct json *e = json_at(arr, i);

		g->evidence[i].source = dup_text(e, "source");
		g->evidence[i].text = dup_text(e, "text");
		g->evidence[i].line = json_as_int(json_get(e, "line"));
	}
	return g;
}

/* Counts diagnosis g for host hi (once per host) and in its list. */
static void host_has(struct host *h, size_t hi, struct fdiag *g)
{
	bool listed = false;

	for (size_t k = 0; k < h->ndiagnoses && !listed; k++)
		listed = !strcmp(h->diagnoses[k], g->id);
	if (!listed)
		h->diagnoses[h->ndiagnoses++] = xstrdup(g->id);
	push_index(&g->hosts, &g->nhosts, &g->cap, hi);
}

static void count_status(struct fleet *f, const struct host *h)
{
	if (!strcmp(h->status, "fault"))
		f->fault++;
	else if (!strcmp(h->status, "warning"))
		f->warning++;
	else if (!strcmp(h->status, "unknown"))
		f->unchecked++;
	else
		f->ok++;
}

static void add_diagnoses(struct fleet *f, struct host *h, size_t hi,
			  const struct json *report)
{
	const struct json *arr = json_get(report, "diagnoses");
	int worst = -1;

	h->diagnoses = xcalloc(json_len(arr) + 1, sizeof(char *));
	for (size_t i = 0; i < json_len(arr); i++) {
		const struct json *dj = json_at(arr, i);
		struct fdiag *g = lookup_diag(f, text(dj, "id"));
		int sev = severity_from_str(text(dj, "severity"));

		if (!g)
			g = new_diag(f, dj, dj, h->name);
		host_has(h, hi, g);
		if (sev > g->rank) {
			g->rank = sev;
			free(g->severity);
			g->severity = dup_text(dj, "severity");
		}
		if (sev > worst)
			worst = sev;
	}
	h->status = worst >= SEVERITY_ERROR   ? "fault" :
		    worst == SEVERITY_WARNING ? "warning" :
		    !strcmp(text(report, "verdict"), "insufficient_evidence") ?
						"unknown" :
						"ok";
}

static struct fw_version *find_version(struct fleet *f, const char *family,
				       const char *fw_ver)
{
	struct family *fam = NULL;
	struct fw_version *v;

	for (size_t i = 0; i < f->nfamilies && !fam; i++)
		if (!strcmp(f->families[i].name, family))
			fam = &f->families[i];
	if (!fam) {
		xgrow(&f->families, &f->capfamilies, f->nfamilies + 1,
		      sizeof(*f->families));
		fam = &f->families[f->nfamilies++];
		memset(fam, 0, sizeof(*fam));
		fam->name = xstrdup(family);
	}
	for (size_t i = 0; i < fam->nv; i++)
		if (!strcmp(fam->v[i].fw_ver, fw_ver))
			return &fam->v[i];
	xgrow(&fam->v, &fam->cap, fam->nv + 1, sizeof(*fam->v));
	v = &fam->v[fam->nv++];
	memset(v, 0, sizeof(*v));
	v->fw_ver = xstrdup(fw_ver);
	return v;
}

static void add_adapters(struct fleet *f, struct host *h, size_t hi,
			 const struct json *arr)
{
	h->adapters = xcalloc(json_len(arr) + 1, sizeof(*h->adapters));
	for (size_t i = 0; i < json_len(arr); i++) {
		const struct json *a = json_at(arr, i);
		struct adapter *ad = &h->adapters[h->nadapters++];
		const char *family;
		struct fw_version *v;

		ad->name = dup_text(a, "name");
		ad->family = dup_text(a, "family");
		ad->model = dup_text(a, "model");
		ad->fw_ver = dup_text(a, "fw_ver");
		if (!*ad->fw_ver)
			continue;
		family = *ad->family ? ad->family :
			 *ad->model  ? ad->model :
				       "unknown family";
		v = find_version(f, family, ad->fw_ver);
		push_index(&v->hosts, &v->nhosts, &v->cap, hi);
		v->adapters++;
	}
}

void fleet_add_host(struct fleet *f, const char *path,
		    const struct json *report, const struct json *adapters,
		    int exit_code)
{
	struct host *h = new_host(f, path);
	size_t hi = f->nhosts - 1;
	const struct json *layers = json_get(report, "layers");

	h->name = fleet_host_name(text(json_get(report, "source"), "hostname"),
				  path);
	for (size_t l = 0; l < LAYER_COUNT; l++)
		h->layers[l] = dup_text(json_at(layers, l), "status");
	add_diagnoses(f, h, hi, report);
	add_adapters(f, h, hi, adapters);
	if (exit_code == EXIT_RULES)
		f->rules_failed++;
	count_status(f, h);
}

const char *fleet_layer_status(const struct json *layers, const char *name)
{
	for (size_t i = 0; i < json_len(layers); i++) {
		const struct json *lj = json_at(layers, i);

		if (!strcmp(text(lj, "name"), name))
			return text(lj, "status");
	}
	return "";
}

/* A host entry of a summary: its verdict, diagnoses and adapters. */
static void merge_host(struct fleet *f, const struct json *hj)
{
	const struct json *ids = json_get(hj, "diagnoses");
	const struct json *layers = json_get(hj, "layers");
	struct host *h = new_host(f, text(hj, "path"));
	size_t hi = f->nhosts - 1;
	static const char *const known[] = { "fault", "warning", "ok",
					     "unknown" };

	h->name = dup_text(hj, "name");
	h->status = "ok";
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(text(hj, "status"), known[i]))
			h->status = known[i];
	for (int l = 0; l < LAYER_COUNT; l++)
		h->layers[l] = xstrdup(fleet_layer_status(
			layers, layer_to_str((enum layer)l)));
	h->diagnoses = xcalloc(json_len(ids) + 1, sizeof(char *));
	for (size_t i = 0; i < json_len(ids); i++) {
		const char *id = json_text(json_at(ids, i));
		struct fdiag *g = id ? lookup_diag(f, id) : NULL;

		if (g)
			host_has(h, hi, g);
	}
	add_adapters(f, h, hi, json_get(hj, "adapters"));
	count_status(f, h);
}

void fleet_merge(struct fleet *f, const struct json *summary)
{
	const struct json *diags = json_get(summary, "diagnoses");
	const struct json *hosts = json_get(summary, "hosts");

	for (size_t i = 0; i < json_len(diags); i++) {
		const struct json *dj = json_at(diags, i);
		const struct json *ex = json_get(dj, "example");
		struct fdiag *g = lookup_diag(f, text(dj, "id"));

		if (!g)
			new_diag(f, dj, ex, text(ex, "host"));
		else if (severity_from_str(text(dj, "severity")) > g->rank) {
			g->rank = severity_from_str(text(dj, "severity"));
			free(g->severity);
			g->severity = dup_text(dj, "severity");
		}
	}
	for (size_t i = 0; i < json_len(hosts); i++) {
		const struct json *hj = json_at(hosts, i);

		if (json_get(hj, "reason"))
			fleet_add_failure(f, text(hj, "path"),
					  text(hj, "reason"));
		else
			merge_host(f, hj);
	}
	f->rules_failed +=
		(size_t)json_as_int(json_get(summary, "rules_failed"));
}

void fleet_add_failure(struct fleet *f, const char *path, const char *reason)
{
	struct host *h = new_host(f, path);

	h->name = fleet_host_name(NULL, path);
	h->status = "failed";
	h->reason = xstrdup(reason);
	f->failed++;
}

int fleet_exit_code(const struct fleet *f)
{
	if (f->rules_failed)
		return EXIT_RULES;
	if (f->failed)
		return EXIT_USAGE;
	if (f->fault || f->warning)
		return EXIT_DIAGNOSED;
	return f->unchecked && !f->ok ? EXIT_NO_EVIDENCE : EXIT_HEALTHY;
}

/* hosts [names] and hostlist "a[1-3]" of the hosts at idx. */
static void set_hosts(struct json *o, const struct fleet *f, const size_t *idx,
		      size_t n)
{
	struct json *arr = json_new_array();
	const char **names = xcalloc(n + 1, sizeof(*names));
	char *folded;

	for (size_t i = 0; i < n; i++) {
		names[i] = f->hosts[idx[i]].name;
		json_push(arr, json_new_string(names[i]));
	}
	folded = hostlist_fold(names, n);
	json_set(o, "count", json_new_int((int64_t)n));
	json_set(o, "hostlist", json_new_string(folded));
	json_set(o, "hosts", arr);
	free(folded);
	free(names);
}

static int by_count(const void *pa, const void *pb)
{
	const struct fdiag *a = pa, *b = pb;

	if (a->nhosts != b->nhosts)
		return a->nhosts > b->nhosts ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	return strcmp(a->id, b->id);
}

static struct json *diagnoses_json(const struct fleet *f)
{
	struct json *arr = json_new_array();
	struct fdiag *sorted = xcalloc(f->ndiags + 1, sizeof(*sorted));

	if (f->ndiags) {
		memcpy(sorted, f->diags, f->ndiags * sizeof(*sorted));
		qsort(sorted, f->ndiags, sizeof(*sorted), by_count);
	}
	for (size_t i = 0; i < f->ndiags; i++) {
		const struct fdiag *g = &sorted[i];
		struct json *o = json_new_object(), *rem = json_new_array(),
			    *ex = json_new_object(), *ev = json_new_array();

		json_set(o, "id", json_new_string(g->id));
		json_set(o, "title", json_new_string(g->title));
		json_set(o, "layer", json_new_string(g->layer));
		json_set(o, "severity", json_new_string(g->severity));
		set_hosts(o, f, g->hosts, g->nhosts);
		for (size_t k = 0; k < g->nremediation; k++)
			json_push(rem, json_new_string(g->remediation[k]));
		json_set(o, "remediation", rem);
		json_set(ex, "host", json_new_string(g->example_host));
		json_set(ex, "message", json_new_string(g->example_message));
		for (size_t k = 0; k < g->nevidence; k++) {
			struct json *e = json_new_object();

			json_set(e, "source",
				 json_new_string(g->evidence[k].source));
			json_set(e, "line", json_new_int(g->evidence[k].line));
			json_set(e, "text",
				 json_new_string(g->evidence[k].text));
			json_push(ev, e);
		}
		json_set(ex, "evidence", ev);
		json_set(o, "example", ex);
		json_push(arr, o);
	}
	free(sorted);
	return arr;
}

static int by_family(const void *pa, const void *pb)
{
	return strcmp(((const struct family *)pa)->name,
		      ((const struct family *)pb)->name);
}

static int newest_first(const void *pa, const void *pb)
{
	const struct fw_version *a = pa, *b = pb;
	int c = version_compare(b->fw_ver, a->fw_ver, VERSION_FW);

	return c ? c : strcmp(a->fw_ver, b->fw_ver);
}

static struct json *firmware_json(struct fleet *f)
{
	struct json *arr = json_new_array();

	if (f->nfamilies)
		qsort(f->families, f->nfamilies, sizeof(*f->families),
		      by_family);
	for (size_t i = 0; i < f->nfamilies; i++) {
		struct family *fam = &f->families[i];
		struct json *o = json_new_object(), *vs = json_new_array();

		qsort(fam->v, fam->nv, sizeof(*fam->v), newest_first);
		json_set(o, "family", json_new_string(fam->name));
		json_set(o, "mixed", json_new_bool(fam->nv > 1));
		for (size_t k = 0; k < fam->nv; k++) {
			struct json *v = json_new_object();

			json_set(v, "fw_ver",
				 json_new_string(fam->v[k].fw_ver));
			json_set(v, "adapters",
				 json_new_int((int64_t)fam->v[k].adapters));
			set_hosts(v, f, fam->v[k].hosts, fam->v[k].nhosts);
			json_push(vs, v);
		}
		json_set(o, "versions", vs);
		json_push(arr, o);
	}
	return arr;
}

static struct json *host_json(const struct host *h)
{
	struct json *o = json_new_object(), *arr;

	json_set(o, "name", json_new_string(h->name));
	json_set(o, "path", json_new_string(h->path));
	json_set(o, "status", json_new_string(h->status));
	if (h->reason) {
		json_set(o, "reason", json_new_string(h->reason));
		return o;
	}
	arr = json_new_array();
	for (int l = 0; l < LAYER_COUNT; l++) {
		struct json *lj = json_new_object();

		json_set(lj, "name", json_new_string(layer_to_str((enum layer)l)));
		json_set(lj, "status", json_new_string(h->layers[l]));
		json_push(arr, lj);
	}
	json_set(o, "layers", arr);
	arr = json_new_array();
	for (size_t i = 0; i < h->ndiagnoses; i++)
		json_push(arr, json_new_string(h->diagnoses[i]));
	json_set(o, "diagnoses", arr);
	arr = json_new_array();
	for (size_t i = 0; i < h->nadapters; i++) {
		const struct adapter *ad = &h->adapters[i];
		struct json *a = json_new_object();

		json_set(a, "name", json_new_string(ad->name));
		json_set(a, "family", json_new_string(ad->family));
		json_set(a, "model", json_new_string(ad->model));
		json_set(a, "fw_ver", json_new_string(ad->fw_ver));
		json_push(arr, a);
	}
	json_set(o, "adapters", arr);
	return o;
}

static const struct fleet *sorting;

static int by_name(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(sorting->hosts[a].name, sorting->hosts[b].name);

	return c ? c : (a > b) - (a < b);
}

struct json *fleet_last_host(const struct fleet *f)
{
	return f->nhosts ? host_json(&f->hosts[f->nhosts - 1]) : NULL;
}

/* Host names that more than one bundle carries, with those bundles. */
static struct json *duplicates_json(const struct fleet *f)
{
	struct json *arr = json_new_array();
	size_t *idx = xcalloc(f->nhosts + 1, sizeof(*idx));

	for (size_t i = 0; i < f->nhosts; i++)
		idx[i] = i;
	sorting = f;
	if (f->nhosts)
		qsort(idx, f->nhosts, sizeof(*idx), by_name);
	for (size_t i = 0; i < f->nhosts;) {
		const char *name = f->hosts[idx[i]].name;
		size_t k = i + 1;

		while (k < f->nhosts && !strcmp(f->hosts[idx[k]].name, name))
			k++;
		if (k - i > 1) {
			struct json *o = json_new_object(),
				    *paths = json_new_array();

			for (size_t j = i; j < k; j++)
				json_push(
					paths,
					json_new_string(f->hosts[idx[j]].path));
			json_set(o, "name", json_new_string(name));
			json_set(o, "paths", paths);
			json_push(arr, o);
		}
		i = k;
	}
	free(idx);
	return arr;
}

struct json *fleet_summary(struct fleet *f)
{
	struct json *o = json_new_object(), *arr;

	json_set(o, "bundles", json_new_int((int64_t)f->nhosts));
	json_set(o, "analysed", json_new_int((int64_t)(f->nhosts - f->failed)));
	json_set(o, "failed", json_new_int((int64_t)f->failed));
	json_set(o, "fault", json_new_int((int64_t)f->fault));
	json_set(o, "warning", json_new_int((int64_t)f->warning));
	json_set(o, "ok", json_new_int((int64_t)f->ok));
	json_set(o, "unknown", json_new_int((int64_t)f->unchecked));
	json_set(o, "rules_failed", json_new_int((int64_t)f->rules_failed));
	json_set(o, "exit", json_new_int(fleet_exit_code(f)));
	json_set(o, "diagnoses", diagnoses_json(f));
	json_set(o, "firmware", firmware_json(f));
	arr = json_new_array();
	for (size_t i = 0; i < f->nhosts; i++) {
		struct json *e;

		if (!f->hosts[i].reason)
			continue;
		e = json_new_object();
		json_set(e, "path", json_new_string(f->hosts[i].path));
		json_set(e, "reason", json_new_string(f->hosts[i].reason));
		json_push(arr, e);
	}
	json_set(o, "failures", arr);
	json_set(o, "duplicates", duplicates_json(f));
	arr = json_new_array();
	for (size_t i = 0; i < f->nhosts; i++)
		json_push(arr, host_json(&f->hosts[i]));
	json_set(o, "hosts", arr);
	return o;
}

void fleet_free(struct fleet *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nhosts; i++) {
		struct host *h = &f->hosts[i];

		free(h->name);
		free(h->path);
		free(h->reason);
		for (int l = 0; l < LAYER_COUNT; l++)
			free(h->layers[l]);
		for (size_t k = 0; k < h->ndiagnoses; k++)
			free(h->diagnoses[k]);
		free(h->diagnoses);
		for (size_t k = 0; k < h->nadapters; k++) {
			free(h->adapters[k].name);
			free(h->adapters[k].family);
			free(h->adapters[k].model);
			free(h->adapters[k].fw_ver);
		}
		free(h->adapters);
	}
	for (size_t i = 0; i < f->ndiags; i++) {
		struct fdiag *g = &f->diags[i];

		free(g->id);
		free(g->title);
		free(g->layer);
		free(g->severity);
		for (size_t k = 0; k < g->nremediation; k++)
			free(g->remediation[k]);
		free(g->remediation);
		free(g->example_host);
		free(g->example_message);
		for (size_t k = 0; k < g->nevidence; k++) {
			free(g->evidence[k].source);
			free(g->evidence[k].text);
		}
		free(g->evidence);
		free(g->hosts);
	}
	for (size_t i = 0; i < f->nfamilies; i++) {
		for (size_t k = 0; k < f->families[i].nv; k++) {
			free(f->families[i].v[k].fw_ver);
			free(f->families[i].v[k].hosts);
		}
		free(f->families[i].v);
		free(f->families[i].name);
	}
	free(f->families);
	free(f->diags);
	free(f->hosts);
	free(f);
}
