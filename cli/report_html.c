/* The HTML reports: one self-contained page for a host (the five-layer
 * stack drawn in SVG, each layer coloured by its status, then the ranked
 * diagnoses with remediation and evidence) and one for a fleet (the stack
 * with each layer split by how many hosts stand where, a chart of the
 * diagnoses by host count, the firmware view and the host table).  Both
 * render the JSON the other reports print, so they say the same. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fleet.h"
#include "cli/html.h"
#include "cli/report.h"
#include "engine/rule.h"

/* The stack picture. */
#define SVG_W 900
#define BOX_X 100
#define BOX_W 640
#define BOX_H 62
#define BOX_GAP 10
#define TOP 14
#define SUMMARY_CHARS 88
#define BAR_X (BOX_X + 18)
#define BAR_W 300

/* The diagnoses chart. */
#define CHART_LABEL_W 330
#define CHART_BAR_W 470
#define CHART_ROW 28
#define CHART_LABEL_CHARS 44

/* Where each layer runs, for the brackets beside the stack: the first
 * and last layer of each region, bottom-up. */
static const struct {
	int from, to;
	const char *label;
} regions[] = {
	{ LAYER_HARDWARE, LAYER_FIRMWARE, "adapter" },
	{ LAYER_DRIVER, LAYER_KERNEL_MODULE, "kernel" },
	{ LAYER_VERBS, LAYER_VERBS, "user space" },
};

static const char *const statuses[] = { "fault", "warning", "ok", "unknown" };

static const char *jt(const struct json *j, const char *key)
{
	const char *s = json_text(json_get(j, key));

	return s ? s : "";
}

/* A status or severity as a class name: only the known words pass. */
static const char *klass(const char *word)
{
	static const char *const known[] = { "ok",	 "warning", "fault",
					     "unknown",	 "info",    "error",
					     "critical", "failed" };

	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(word, known[i]))
			return known[i];
	return "unknown";
}

static int box_y(int layer)
{
	return TOP + (LAYER_COUNT - 1 - layer) * (BOX_H + BOX_GAP);
}

static void svg_begin(FILE *out, const char *id, int height, const char *label)
{
	fprintf(out,
		"<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
		"aria-label=\"%s\">\n",
		id, SVG_W, height, SVG_W, height, label);
}

/* The arrow up the left side and the brackets on the right. */
static void stack_frame(FILE *out)
{
	int bottom = box_y(0) + BOX_H, top = box_y(LAYER_COUNT - 1);

	fprintf(out,
		"<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"5\" "
		"refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
		"orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" "
		"fill=\"#9aa7b2\"/></marker></defs>\n"
		"<line class=\"guide\" x1=\"62\" y1=\"%d\" x2=\"62\" y2=\"%d\" "
		"marker-end=\"url(#arrow)\"/>\n"
		"<text class=\"side\" transform=\"translate(48 %d) rotate(-90)\" "
		"text-anchor=\"middle\">diagnosed bottom-up</text>\n",
		bottom - 4, top + 6, (top + bottom) / 2);
	for (size_t i = 0; i < sizeof(regions) / sizeof(*regions); i++) {
		int y1 = box_y(regions[i].to) + 4;
		int y2 = box_y(regions[i].from) + BOX_H - 4;
		int x = BOX_X + BOX_W + 14;

		fprintf(out,
			"<path class=\"guide\" d=\"M%d %dh8v%dh-8\"/>\n"
			"<text class=\"side\" x=\"%d\" y=\"%d\">%s</text>\n",
			x, y1, y2 - y1, x + 16, (y1 + y2) / 2 + 4,
			regions[i].label);
	}
}

static void status_pill(FILE *out, int y, const char *status)
{
	char upper[16];
	size_t i = 0;

	for (; status[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (char)(status[i] - 'a' + 'A');
	upper[i] = '\0';
	fprintf(out,
		"<rect class=\"pill\" x=\"%d\" y=\"%d\" width=\"88\" height=\"20\" "
		"rx=\"10\"/><text class=\"st\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"middle\">%s</text>\n",
		BOX_X + BOX_W - 100, y + 11, BOX_X + BOX_W - 56, y + 25, upper);
}

/* A layer's box with its name and what lives there. */
static void layer_box(FILE *out, int l, const char *status)
{
	int y = box_y(l);

	fprintf(out,
		"<rect class=\"box\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"rx=\"8\"/>\n<text x=\"%d\" y=\"%d\"><tspan class=\"name\">%s"
		"</tspan><tspan class=\"doc\" dx=\"10\">",
		BOX_X, y, BOX_W, BOX_H, BOX_X + 18, y + 25,
		layer_to_str((enum layer)l));
	html_puts(out, layer_doc((enum layer)l));
	fputs("</tspan></text>\n", out);
	status_pill(out, y, status);
}

/* The stack of one host: each layer coloured by its status, with the
 * summary of what was checked there. */
static void host_stack(FILE *out, const struct json *layers)
{
	int height = box_y(0) + BOX_H + TOP;

	svg_begin(out, "stack", height,
		  "The five layers of the RDMA stack, coloured by status");
	stack_frame(out);
	for (int l = 0; l < LAYER_COUNT; l++) {
		const struct json *lj = json_at(layers, (size_t)l);
		const char *st = klass(jt(lj, "status"));

		fprintf(out,
			"<g class=\"layer %s\" id=\"layer-%s\" data-layer=\"%s\" "
			"data-status=\"%s\">\n<title>%s: %s. ",
			st, layer_to_str((enum layer)l),
			layer_to_str((enum layer)l), st,
			layer_to_str((enum layer)l), st);
		html_puts(out, jt(lj, "summary"));
		fputs("</title>\n", out);
		layer_box(out, l, st);
		fprintf(out, "<text class=\"sum\" x=\"%d\" y=\"%d\">",
			BOX_X + 18, box_y(l) + 48);
		html_puts_max(out, jt(lj, "summary"), SUMMARY_CHARS);
		fputs("</text>\n</g>\n", out);
	}
	fputs("</svg>\n", out);
}

static void badge(FILE *out, const char *word)
{
	fprintf(out, "<span class=\"badge %s\">", klass(word));
	html_puts(out, word);
	fputs("</span>", out);
}

static void diag_link(FILE *out, const struct json *d)
{
	fputs("<a href=\"#d-", out);
	html_id(out, jt(d, "id"));
	fprintf(out, "\">#%s ", jt(d, "rank"));
	html_puts(out, jt(d, "id"));
	fputs("</a>", out);
}

static void evidence_table(FILE *out, const struct json *ev)
{
	if (!json_len(ev))
		return;
	fputs("<table class=\"evidence\"><tr><th>Evidence: file and line</th><th>What it says</th>"
	      "</tr>\n",
	      out);
	for (size_t i = 0; i < json_len(ev); i++) {
		const struct json *e = json_at(ev, i);

		fputs("<tr><td class=\"mono\">", out);
		html_puts(out, jt(e, "source"));
		if (json_as_int(json_get(e, "line")) > 0)
			fprintf(out, ":%s", jt(e, "line"));
		fputs("</td><td><code>", out);
		html_puts(out, jt(e, "text"));
		fputs("</code></td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void remediation_list(FILE *out, const struct json *rem)
{
	if (!json_len(rem))
		return;
	fputs("<div><b>What to do</b><ul class=\"remediation\">\n", out);
	for (size_t i = 0; i < json_len(rem); i++) {
		fputs("<li>", out);
		html_puts(out, json_text(json_at(rem, i)));
		fputs("</li>\n", out);
	}
	fputs("</ul></div>\n", out);
}

/* The diagnoses whose explains list names id. */
static void explained_by(FILE *out, const struct json *all, const char *id)
{
	bool any = false;

	for (size_t i = 0; i < json_len(all); i++) {
		const struct json *other = json_at(all, i);
		const struct json *ex = json_get(other, "explains");

		for (size_t k = 0; k < json_len(ex); k++) {
			if (strcmp(json_text(json_at(ex, k)), id))
				continue;
			fputs(any ? ", " : "<p>Explained by ", out);
			diag_link(out, other);
			any = true;
		}
	}
	if (any)
		fputs(".</p>\n", out);
}

static void host_diagnosis(FILE *out, const struct json *all,
			   const struct json *d)
{
	const struct json *ex = json_get(d, "explains");

	fprintf(out, "<article class=\"diag %s\" id=\"d-",
		klass(jt(d, "severity")));
	html_id(out, jt(d, "id"));
	fputs("\" data-id=\"", out);
	html_puts(out, jt(d, "id"));
	fprintf(out, "\" data-rank=\"%s\">\n<h3>#%s ", jt(d, "rank"),
		jt(d, "rank"));
	html_puts(out, jt(d, "title"));
	fputs(" ", out);
	badge(out, jt(d, "severity"));
	fputs("</h3>\n<div class=\"muted\">", out);
	html_puts(out, jt(d, "id"));
	fputs(" &middot; ", out);
	html_puts(out, jt(d, "layer"));
	fprintf(out, " layer &middot; confidence %s &middot; score %s</div>\n",
		jt(d, "confidence"), jt(d, "score"));
	fputs("<p class=\"msg\">", out);
	html_puts(out, jt(d, "message"));
	fputs("</p>\n", out);
	remediation_list(out, json_get(d, "remediation"));
	evidence_table(out, json_get(d, "evidence"));
	for (size_t i = 0; i < json_len(ex); i++) {
		const char *id = json_text(json_at(ex, i));

		fputs(i ? ", " : "<p>Explains ", out);
		for (size_t k = 0; k < json_len(all); k++)
			if (!strcmp(jt(json_at(all, k), "id"), id))
				diag_link(out, json_at(all, k));
	}
	if (json_len(ex))
		fputs(".</p>\n", out);
	explained_by(out, all, jt(d, "id"));
	fputs("</article>\n", out);
}

static void skipped_section(FILE *out, const struct json *skipped)
{
	if (!json_len(skipped))
		return;
	fprintf(out,
		"<section id=\"skipped\"><details><summary>%zu rules could not "
		"be checked for lack of evidence or an answer</summary>\n"
		"<table><tr><th>Rule</th><th>Missing</th></tr>\n",
		json_len(skipped));
	for (size_t i = 0; i < json_len(skipped); i++) {
		const struct json *s = json_at(skipped, i);
		const struct json *m = json_get(s, "missing");

		fputs("<tr><td>", out);
		html_puts(out, jt(s, "id"));
		fputs("</td><td>", out);
		for (size_t k = 0; k < json_len(m); k++) {
			fputs(k ? "; " : "", out);
			html_puts(out, json_text(json_at(m, k)));
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</table></details></section>\n", out);
}

static void collectors_section(FILE *out, const struct json *cols)
{
	fputs("<section id=\"collectors\"><details><summary>Evidence read"
	      "</summary>\n<table><tr><th>Collector</th><th>Status</th>"
	      "<th>Detail</th></tr>\n",
	      out);
	for (size_t i = 0; i < json_len(cols); i++) {
		const struct json *c = json_at(cols, i);
		const char *st = jt(c, "status");

		fputs("<tr><td>", out);
		html_puts(out, jt(c, "name"));
		fputs("</td><td>", out);
		badge(out, !strcmp(st, "ok") ? "ok" : st);
		fputs("</td><td class=\"mono\">", out);
		html_puts(out, jt(c, "detail"));
		fputs("</td></tr>\n", out);
	}
	fputs("</table></details></section>\n", out);
}

void report_html(FILE *out, const struct json *report)
{
	const struct json *src = json_get(report, "source");
	const struct json *diags = json_get(report, "diagnoses");
	const char *host =
		*jt(src, "hostname") ? jt(src, "hostname") : "unnamed host";
	char *title = NULL;
	size_t len = 0;
	FILE *t = open_memstream(&title, &len);

	fprintf(t, "rdmadoctor: %s", host);
	fclose(t);
	html_begin(out, title);
	free(title);
	fputs("<header><h1>rdmadoctor report for <span id=\"host\">", out);
	html_puts(out, host);
	fputs("</span></h1>\n<p>", out);
	html_puts(out, jt(src, "kind"));
	fputs(" &middot; <span class=\"mono\">", out);
	html_puts(out, jt(src, "path"));
	fprintf(out, "</span> &middot; rdmadoctor %s</p></header>\n<main>\n",
		jt(report, "version"));
	fputs("<section><h2>The RDMA stack, layer by layer</h2>\n", out);
	host_stack(out, json_get(report, "layers"));
	fputs("</section>\n<section id=\"diagnoses\">", out);
	if (!json_len(diags))
		fputs("<h2>No diagnosis</h2><p>Every rule that could be checked "
		      "passed.</p>\n",
		      out);
	else
		fputs("<h2>Diagnoses, most likely root cause first</h2>\n",
		      out);
	for (size_t i = 0; i < json_len(diags); i++)
		host_diagnosis(out, diags, json_at(diags, i));
	fputs("</section>\n", out);
	skipped_section(out, json_get(report, "skipped"));
	collectors_section(out, json_get(report, "collectors"));
	fputs("</main>\n<footer>Made by rdmadoctor; self-contained, nothing "
	      "is loaded from elsewhere.</footer>\n",
	      out);
	html_end(out);
}

/* ---- the fleet page ---- */

/* How many analysed hosts stand at each status in layer l. */
static void layer_counts(const struct json *hosts, int l, size_t counts[4])
{
	memset(counts, 0, 4 * sizeof(*counts));
	for (size_t i = 0; i < json_len(hosts); i++) {
		const struct json *ls = json_get(json_at(hosts, i), "layers");
		const char *st;

		if (!ls)
			continue;
		st = klass(fleet_layer_status(ls, layer_to_str((enum layer)l)));
		for (size_t k = 0; k < 4; k++)
			counts[k] += !strcmp(st, statuses[k]);
	}
}

/* The fleet's stack: each layer split into how many hosts are at fault,
 * warned, fine or unknown there, coloured by the worst. */
static void fleet_stack(FILE *out, const struct json *hosts)
{
	int height = box_y(0) + BOX_H + TOP;

	svg_begin(out, "stack", height,
		  "The five layers of the RDMA stack across the fleet");
	stack_frame(out);
	for (int l = 0; l < LAYER_COUNT; l++) {
		size_t c[4], total = 0, k;
		const char *worst = statuses[3], *sep = "";
		int x = BAR_X, y = box_y(l);

		layer_counts(hosts, l, c);
		for (k = 0; k < 4; k++)
			total += c[k];
		for (k = 0; k < 3 && worst == statuses[3]; k++)
			if (c[k])
				worst = statuses[k];
		fprintf(out,
			"<g class=\"layer %s\" id=\"layer-%s\" data-layer=\"%s\" "
			"data-status=\"%s\" data-fault=\"%zu\" data-warning=\"%zu\" "
			"data-ok=\"%zu\" data-unknown=\"%zu\">\n<title>%s: %zu "
			"fault, %zu warning, %zu ok, %zu unknown</title>\n",
			worst, layer_to_str((enum layer)l),
			layer_to_str((enum layer)l), worst, c[0], c[1], c[2],
			c[3], layer_to_str((enum layer)l), c[0], c[1], c[2],
			c[3]);
		layer_box(out, l, worst);
		for (k = 0; k < 4 && total; k++) {
			int w = (int)((double)BAR_W * (double)c[k] /
					      (double)total +
				      0.5);

			if (!c[k])
				continue;
			fprintf(out,
				"<rect class=\"seg %s\" x=\"%d\" y=\"%d\" "
				"width=\"%d\" height=\"14\"/>\n",
				statuses[k], x, y + 36, w);
			x += w;
		}
		fprintf(out, "<text class=\"sum\" x=\"%d\" y=\"%d\">",
			BAR_X + BAR_W + 12, y + 48);
		for (k = 0; k < 4; k++) {
			if (!c[k])
				continue;
			fprintf(out, "%s%zu %s", sep, c[k], statuses[k]);
			sep = " \xc2\xb7 ";
		}
		fputs("</text>\n</g>\n", out);
	}
	fputs("</svg>\n", out);
}

/* Horizontal bars: each diagnosis by the number of hosts that have it. */
static void chart(FILE *out, const struct json *diags)
{
	size_t n = json_len(diags);
	int64_t max = 1;
	int height = 10 + (int)n * CHART_ROW;

	for (size_t i = 0; i < n; i++)
		if (json_as_int(json_get(json_at(diags, i), "count")) > max)
			max = json_as_int(json_get(json_at(diags, i), "count"));
	svg_begin(out, "chart", height, "Diagnoses by host count");
	for (size_t i = 0; i < n; i++) {
		const struct json *d = json_at(diags, i);
		int64_t count = json_as_int(json_get(d, "count"));
		int y = 6 + (int)i * CHART_ROW;
		int w = (int)((double)CHART_BAR_W * (double)count /
			      (double)max);

		fprintf(out, "<g class=\"bar %s\" data-id=\"",
			klass(jt(d, "severity")));
		html_puts(out, jt(d, "id"));
		fprintf(out, "\" data-count=\"%lld\"><title>",
			(long long)count);
		html_puts(out, jt(d, "title"));
		fprintf(out,
			"</title>\n<text class=\"sum\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"end\">",
			CHART_LABEL_W - 8, y + 15);
		html_puts_max(out, jt(d, "id"), CHART_LABEL_CHARS);
		fprintf(out,
			"</text>\n<rect class=\"seg\" x=\"%d\" y=\"%d\" "
			"width=\"%d\" height=\"18\" rx=\"3\"/>\n<text class=\"sum\" "
			"x=\"%d\" y=\"%d\">%lld</text></g>\n",
			CHART_LABEL_W, y + 2, w > 2 ? w : 2,
			CHART_LABEL_W + (w > 2 ? w : 2) + 8, y + 15,
			(long long)count);
	}
	fputs("</svg>\n", out);
}

static void card(FILE *out, const char *cls, const char *label,
		 const char *value)
{
	fprintf(out, "<div class=\"card %s\"><b>%s</b>%s</div>\n", cls, value,
		label);
}

static void cards(FILE *out, const struct json *s)
{
	fputs("<section id=\"counts\"><div class=\"cards\">\n", out);
	card(out, "", "bundles", jt(s, "bundles"));
	card(out, "", "analysed", jt(s, "analysed"));
	card(out, "fault", "with a fault", jt(s, "fault"));
	card(out, "warning", "with a warning", jt(s, "warning"));
	card(out, "ok", "ok", jt(s, "ok"));
	card(out, "failed", "could not be read", jt(s, "failed"));
	fputs("</div></section>\n", out);
}

static void fleet_diagnoses(FILE *out, const struct json *diags)
{
	fputs("<section id=\"diagnoses\"><h2>Diagnoses by host count</h2>\n",
	      out);
	if (!json_len(diags)) {
		fputs("<p>No diagnosis on any host.</p></section>\n", out);
		return;
	}
	chart(out, diags);
	for (size_t i = 0; i < json_len(diags); i++) {
		const struct json *d = json_at(diags, i);
		const struct json *ex = json_get(d, "example");

		fprintf(out, "<article class=\"diag %s\" id=\"d-",
			klass(jt(d, "severity")));
		html_id(out, jt(d, "id"));
		fputs("\" data-id=\"", out);
		html_puts(out, jt(d, "id"));
		fprintf(out, "\" data-count=\"%s\">\n<h3>", jt(d, "count"));
		html_puts(out, jt(d, "title"));
		fputs(" ", out);
		badge(out, jt(d, "severity"));
		fprintf(out, "</h3>\n<div class=\"muted\">");
		html_puts(out, jt(d, "id"));
		fputs(" &middot; ", out);
		html_puts(out, jt(d, "layer"));
		fprintf(out,
			" layer &middot; <b>%s hosts</b>: <span "
			"class=\"mono\">",
			jt(d, "count"));
		html_puts(out, jt(d, "hostlist"));
		fputs("</span></div>\n", out);
		remediation_list(out, json_get(d, "remediation"));
		fputs("<details><summary>Example: ", out);
		html_puts(out, jt(ex, "host"));
		fputs("</summary>\n<p class=\"msg\">", out);
		html_puts(out, jt(ex, "message"));
		fputs("</p>\n", out);
		evidence_table(out, json_get(ex, "evidence"));
		fputs("</details>\n</article>\n", out);
	}
	fputs("</section>\n", out);
}

static void firmware_table(FILE *out, const struct json *fams)
{
	if (!json_len(fams))
		return;
	fputs("<section id=\"firmware\"><h2>Firmware by adapter family</h2>\n"
	      "<table><tr><th>Family</th><th>Firmware</th><th>Hosts</th>"
	      "<th>Adapters</th><th>Host list</th></tr>\n",
	      out);
	for (size_t i = 0; i < json_len(fams); i++) {
		const struct json *fam = json_at(fams, i);
		const struct json *vs = json_get(fam, "versions");
		bool mixed = json_as_bool(json_get(fam, "mixed"));

		for (size_t k = 0; k < json_len(vs); k++) {
			const struct json *v = json_at(vs, k);

			fprintf(out, "<tr%s><td>",
				mixed ? " class=\"mixed\"" : "");
			html_puts(out, jt(fam, "family"));
			if (mixed && !k)
				fputs(" <span class=\"badge warning\">mixed"
				      "</span>",
				      out);
			fputs("</td><td class=\"mono\">", out);
			html_puts(out, jt(v, "fw_ver"));
			fprintf(out,
				"</td><td>%s</td><td>%s</td><td "
				"class=\"mono\">",
				jt(v, "count"), jt(v, "adapters"));
			html_puts(out, jt(v, "hostlist"));
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</table></section>\n", out);
}

static void failures_table(FILE *out, const struct json *fails)
{
	if (!json_len(fails))
		return;
	fputs("<section id=\"failures\"><h2>Bundles that could not be read"
	      "</h2>\n<table><tr><th>Bundle</th><th>Reason</th></tr>\n",
	      out);
	for (size_t i = 0; i < json_len(fails); i++) {
		fputs("<tr><td class=\"mono\">", out);
		html_puts(out, jt(json_at(fails, i), "path"));
		fputs("</td><td>", out);
		html_puts(out, jt(json_at(fails, i), "reason"));
		fputs("</td></tr>\n", out);
	}
	fputs("</table></section>\n", out);
}

static void hosts_table(FILE *out, const struct json *hosts)
{
	fputs("<section id=\"hosts\"><h2>Hosts</h2>\n<table><tr><th>Host</th>"
	      "<th title=\"hardware, firmware, driver, kernel_module, verbs\">Layers, bottom-up</th><th>Status</th><th>Diagnoses</th>"
	      "<th>Bundle</th></tr>\n",
	      out);
	for (size_t i = 0; i < json_len(hosts); i++) {
		const struct json *h = json_at(hosts, i);
		const struct json *ls = json_get(h, "layers");
		const struct json *ids = json_get(h, "diagnoses");

		fputs("<tr><td>", out);
		html_puts(out, jt(h, "name"));
		fputs("</td><td class=\"cells\">", out);
		for (int l = 0; ls && l < LAYER_COUNT; l++) {
			const char *st =
				klass(fleet_layer_status(
					ls, layer_to_str((enum layer)l)));

			fprintf(out, "<i class=\"%s\" title=\"%s: %s\"></i>",
				st, layer_to_str((enum layer)l), st);
		}
		fputs("</td><td>", out);
		badge(out, jt(h, "status"));
		fputs("</td><td>", out);
		for (size_t k = 0; k < json_len(ids); k++) {
			fputs(k ? ", <a href=\"#d-" : "<a href=\"#d-", out);
			html_id(out, json_text(json_at(ids, k)));
			fputs("\">", out);
			html_puts(out, json_text(json_at(ids, k)));
			fputs("</a>", out);
		}
		if (json_get(h, "reason"))
			html_puts(out, jt(h, "reason"));
		fputs("</td><td class=\"mono\">", out);
		html_puts(out, jt(h, "path"));
		fputs("</td></tr>\n", out);
	}
	fputs("</table></section>\n", out);
}

void report_html_fleet(FILE *out, const struct json *summary)
{
	html_begin(out, "rdmadoctor: fleet report");
	fprintf(out,
		"<header><h1>rdmadoctor fleet report</h1>\n<p>%s bundles, %s "
		"analysed, %s could not be read &middot; the layers are "
		"drawn bottom-up, hosts in each layer by status</p></header>\n"
		"<main>\n",
		jt(summary, "bundles"), jt(summary, "analysed"),
		jt(summary, "failed"));
	cards(out, summary);
	fputs("<section><h2>The RDMA stack across the fleet</h2>\n", out);
	fleet_stack(out, json_get(summary, "hosts"));
	fputs("</section>\n", out);
	fleet_diagnoses(out, json_get(summary, "diagnoses"));
	firmware_table(out, json_get(summary, "firmware"));
	failures_table(out, json_get(summary, "failures"));
	hosts_table(out, json_get(summary, "hosts"));
	fputs("</main>\n<footer>Made by rdmadoctor batch; self-contained, "
	      "nothing is loaded from elsewhere.</footer>\n",
	      out);
	html_end(out);
}
