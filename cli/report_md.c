/* --markdown: the report as Markdown that pastes into a GitHub issue or a
 * Jira ticket: headings, a table of the layers, each diagnosis with its
 * remediation and its evidence in a code block.  Built from the JSON of
 * report_json (and of the fleet summary), so that it says what --json
 * says.  Every string from a bundle is escaped, or fenced with a fence
 * longer than any run of backticks inside. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/report.h"

/* Characters Markdown (and GitHub's HTML passthrough) gives a meaning. */
#define MD_SPECIAL "\\`*_[]<>#|~&"

static const char *jt(const struct json *j, const char *key)
{
	const char *s = json_text(json_get(j, key));

	return s ? s : "";
}

/* Text on one line with Markdown's special characters escaped; control
 * characters (a newline too) become spaces, so a table row stays one. */
static void md_puts(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fputc(' ', out);
		else if (strchr(MD_SPECIAL, c))
			fprintf(out, "\\%c", c);
		else
			fputc(c, out);
	}
}

/* The longest run of backticks in s. */
static size_t backtick_run(const char *s)
{
	size_t best = 0, run = 0;

	for (; s && *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

static void fence(FILE *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc('`', out);
	fputc('\n', out);
}

/* Code text: control characters but tab shown as spaces. */
static void code_puts(FILE *out, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 && *s != '\t' ? ' ' : *s, out);
}

/* The evidence of a diagnosis as a fenced block of "file:line  text". */
static void evidence_block(FILE *out, const struct json *ev)
{
	size_t n = 3;

	if (!json_len(ev))
		return;
	for (size_t i = 0; i < json_len(ev); i++) {
		const struct json *e = json_at(ev, i);
		size_t a = backtick_run(jt(e, "source")),
		       b = backtick_run(jt(e, "text"));

		if (a >= n)
			n = a + 1;
		if (b >= n)
			n = b + 1;
	}
	fputs("\n**Evidence**\n\n", out);
	fence(out, n);
	for (size_t i = 0; i < json_len(ev); i++) {
		const struct json *e = json_at(ev, i);
		int64_t line = json_as_int(json_get(e, "line"));

		code_puts(out, jt(e, "source"));
		if (line > 0)
			fprintf(out, ":%lld", (long long)line);
		fputs("  ", out);
		code_puts(out, jt(e, "text"));
		fputc('\n', out);
	}
	fence(out, n);
}

static void remediation(FILE *out, const struct json *rem)
{
	if (!json_len(rem))
		return;
	fputs("\n**What to do**\n\n", out);
	for (size_t i = 0; i < json_len(rem); i++) {
		fputs("- ", out);
		md_puts(out, json_text(json_at(rem, i)));
		fputc('\n', out);
	}
}

static const char *severity_word(const char *sev)
{
	if (!strcmp(sev, "error"))
		return "FAULT";
	if (!strcmp(sev, "critical"))
		return "CRITICAL";
	return sev;
}

/* "2026-12-01 10:20 UTC", from SOURCE_DATE_EPOCH when it is set (a
 * reproducible report), else the clock. */
void report_date(char *buf, size_t size)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	time_t now = env && *env ? (time_t)strtoll(env, NULL, 10) : time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, size, "unknown date");
}

static void host_diagnosis(FILE *out, const struct json *d)
{
	const struct json *ex = json_get(d, "explains");

	fprintf(out, "\n#### %lld. %s: ", (long long)json_as_int(json_get(d, "rank")),
		severity_word(jt(d, "severity")));
	md_puts(out, jt(d, "title"));
	fputs("\n\n`", out);
	code_puts(out, jt(d, "id"));
	fprintf(out, "` · %s layer · confidence %.2f", jt(d, "layer"),
		json_as_double(json_get(d, "confidence")));
	for (size_t i = 0; i < json_len(ex); i++) {
		fputs(i ? ", `" : " · explains `", out);
		code_puts(out, json_text(json_at(ex, i)));
		fputc('`', out);
	}
	fputs("\n\n", out);
	md_puts(out, jt(d, "message"));
	fputc('\n', out);
	remediation(out, json_get(d, "remediation"));
	evidence_block(out, json_get(d, "evidence"));
}

void report_markdown(FILE *out, const struct json *report)
{
	const struct json *src = json_get(report, "source");
	const struct json *layers = json_get(report, "layers");
	const struct json *diags = json_get(report, "diagnoses");
	const struct json *cols = json_get(report, "collectors");
	char date[64];
	size_t missing = 0;

	report_date(date, sizeof(date));
	fputs("## rdmadoctor report: ", out);
	md_puts(out, *jt(src, "hostname") ? jt(src, "hostname") : "unnamed host");
	fprintf(out, "\n\n**Verdict: %s** · rdmadoctor %s · %s · ",
		jt(report, "verdict"), jt(report, "version"), date);
	md_puts(out, jt(src, "kind"));
	fputc(' ', out);
	md_puts(out, jt(src, "path"));
	fputs("\n\n| Layer | Status | Found |\n|---|---|---|\n", out);
	for (size_t i = 0; i < json_len(layers); i++) {
		const struct json *l = json_at(layers, i);
		const char *st = jt(l, "status");

		fprintf(out, "| %s | %s | ", jt(l, "name"),
			!strcmp(st, "fault")	 ? "**FAULT**" :
			!strcmp(st, "unknown") ? "not checked" :
						 st);
		md_puts(out, jt(l, "summary"));
		fputs(" |\n", out);
	}
	if (!json_len(diags))
		fputs("\n### No diagnosis\n", out);
	else
		fputs("\n### Diagnoses, most likely root cause first\n", out);
	for (size_t i = 0; i < json_len(diags); i++)
		host_diagnosis(out, json_at(diags, i));
	for (size_t i = 0; i < json_len(cols); i++)
		missing += strcmp(jt(json_at(cols, i), "status"), "ok") != 0;
	if (missing) {
		fputs("\n<details><summary>Evidence not read</summary>\n\n"
		      "| Source | Status | Detail |\n|---|---|---|\n",
		      out);
		for (size_t i = 0; i < json_len(cols); i++) {
			const struct json *c = json_at(cols, i);

			if (!strcmp(jt(c, "status"), "ok"))
				continue;
			fprintf(out, "| %s | %s | ", jt(c, "name"), jt(c, "status"));
			md_puts(out, jt(c, "detail"));
			fputs(" |\n", out);
		}
		fputs("\n</details>\n", out);
	}
}

void report_markdown_fleet(FILE *out, const struct json *summary)
{
	const struct json *f = json_get(summary, "fleet");
	const struct json *diags, *hosts, *fails;
	char date[64];

	if (!f)
		f = summary;
	diags = json_get(f, "diagnoses");
	hosts = json_get(f, "hosts");
	fails = json_get(f, "failures");
	report_date(date, sizeof(date));
	fprintf(out,
		"## rdmadoctor fleet report\n\n"
		"rdmadoctor %s · %s · %lld bundles, %lld analysed: %lld at fault, %lld warning, %lld ok, %lld not judged, %lld failed\n",
		RD_VERSION, date, (long long)json_as_int(json_get(f, "bundles")),
		(long long)json_as_int(json_get(f, "analysed")),
		(long long)json_as_int(json_get(f, "fault")),
		(long long)json_as_int(json_get(f, "warning")),
		(long long)json_as_int(json_get(f, "ok")),
		(long long)json_as_int(json_get(f, "unknown")),
		(long long)json_as_int(json_get(f, "failed")));
	if (json_len(diags))
		fputs("\n### Diagnoses\n\n| Diagnosis | Severity | Layer | Hosts | Host list |\n|---|---|---|---|---|\n",
		      out);
	for (size_t i = 0; i < json_len(diags); i++) {
		const struct json *d = json_at(diags, i);

		fputs("| ", out);
		md_puts(out, jt(d, "title"));
		fprintf(out, " (`%s`) | %s | %s | %lld | ", jt(d, "id"),
			severity_word(jt(d, "severity")), jt(d, "layer"),
			(long long)json_as_int(json_get(d, "count")));
		md_puts(out, jt(d, "hostlist"));
		fputs(" |\n", out);
	}
	for (size_t i = 0; i < json_len(diags); i++) {
		const struct json *d = json_at(diags, i);
		const struct json *ex = json_get(d, "example");

		fputs("\n#### ", out);
		md_puts(out, jt(d, "title"));
		fputs("\n\nOn ", out);
		md_puts(out, jt(ex, "host"));
		fputs(": ", out);
		md_puts(out, jt(ex, "message"));
		fputc('\n', out);
		remediation(out, json_get(d, "remediation"));
		evidence_block(out, json_get(ex, "evidence"));
	}
	if (json_len(hosts))
		fputs("\n### Hosts\n\n| Host | Status | Diagnoses |\n|---|---|---|\n",
		      out);
	for (size_t i = 0; i < json_len(hosts); i++) {
		const struct json *h = json_at(hosts, i);
		const struct json *hd = json_get(h, "diagnoses");

		fputs("| ", out);
		md_puts(out, jt(h, "name"));
		fprintf(out, " | %s | ", jt(h, "status"));
		for (size_t k = 0; k < json_len(hd); k++)
			fprintf(out, "%s`%s`", k ? ", " : "",
				json_text(json_at(hd, k)));
		fputs(" |\n", out);
	}
	if (json_len(fails))
		fputs("\n### Bundles that could not be read\n\n", out);
	for (size_t i = 0; i < json_len(fails); i++) {
		const struct json *x = json_at(fails, i);

		fputs("- ", out);
		md_puts(out, jt(x, "path"));
		fputs(": ", out);
		md_puts(out, jt(x, "reason"));
		fputc('\n', out);
	}
}
