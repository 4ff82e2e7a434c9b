/* The text of a batch run: a line per host as it is analysed, then the
 * fleet summary (cli/fleet.c builds it). */
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"
#include "cli/term.h"
#include "engine/xalloc.h"

#define WIDTH 78 /* host lists wrap here */

static const char *text(const struct json *j, const char *key)
{
	const char *s = json_text(json_get(j, key));

	return s ? s : "";
}

static enum term_color status_color(const char *status)
{
	if (!strcmp(status, "fault") || !strcmp(status, "failed"))
		return TERM_RED;
	if (!strcmp(status, "warning"))
		return TERM_YELLOW;
	return !strcmp(status, "ok") ? TERM_GREEN : TERM_NONE;
}

/* The status as the text report shows it: FAULT in capitals. */
static const char *status_word(const char *status)
{
	return !strcmp(status, "fault") ? "FAULT" : status;
}

void report_fleet_host_text(FILE *out, const struct json *host, bool color)
{
	const char *status = text(host, "status");
	const struct json *ids = json_get(host, "diagnoses");

	fprintf(out, "%s%-8s%s ", term_on(color, status_color(status)),
		status_word(status), term_off(color));
	term_puts(out, text(host, "name"));
	if (json_get(host, "reason")) {
		fputs("  ", out);
		term_puts(out, text(host, "path"));
		fputs(": ", out);
		term_puts(out, text(host, "reason"));
	}
	for (size_t i = 0; i < json_len(ids); i++) {
		fputs(i ? ", " : "  ", out);
		term_puts(out, json_text(json_at(ids, i)));
	}
	fputc('\n', out);
}

/* Prints a host list after indent columns, wrapped after its commas. */
static void put_wrapped(FILE *out, const char *list, int indent)
{
	int col = indent;

	fprintf(out, "%*s", indent, "");
	while (*list) {
		const char *comma = strchr(list, ',');
		size_t n = comma ? (size_t)(comma - list) + 1 : strlen(list);
		char *piece = xstrndup(list, n);

		if (col > indent && col + (int)n > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		}
		term_puts(out, piece);
		free(piece);
		col += (int)n;
		list += n;
	}
	fputc('\n', out);
}

static void counts(FILE *out, const struct json *s, bool color)
{
	fprintf(out, "Fleet: %s bundles; %s analysed (%s%s FAULT%s, ",
		text(s, "bundles"), text(s, "analysed"), term_on(color, TERM_RED),
		text(s, "fault"), term_off(color));
	fprintf(out, "%s%s warning%s, %s ok", term_on(color, TERM_YELLOW),
		text(s, "warning"), term_off(color), text(s, "ok"));
	if (json_as_int(json_get(s, "unknown")))
		fprintf(out, ", %s with too little evidence to judge",
			text(s, "unknown"));
	fputc(')', out);
	fprintf(out, ", %s could not be read.\n", text(s, "failed"));
	if (json_as_int(json_get(s, "rules_failed")))
		fprintf(out,
			"%s hosts stopped with a rule error (rdmadoctor analyze shows it).\n",
			text(s, "rules_failed"));
}

static void diagnoses(FILE *out, const struct json *arr, bool color)
{
	if (!json_len(arr)) {
		fputs("\nNo diagnosis on any host.\n", out);
		return;
	}
	fputs("\nDiagnoses by host count:\n", out);
	for (size_t i = 0; i < json_len(arr); i++) {
		const struct json *d = json_at(arr, i);
		const char *sev = text(d, "severity");
		enum term_color c = !strcmp(sev, "warning") ? TERM_YELLOW :
				    !strcmp(sev, "info")    ? TERM_NONE :
							      TERM_RED;

		fprintf(out, "  %5s  %s%-8s%s %s  [%s]  ", text(d, "count"),
			term_on(color, c), sev, term_off(color), text(d, "id"),
			text(d, "layer"));
		term_puts(out, text(d, "title"));
		fputc('\n', out);
		put_wrapped(out, text(d, "hostlist"), 9);
	}
}

static void firmware(FILE *out, const struct json *arr, bool color)
{
	if (!json_len(arr))
		return;
	fputs("\nFirmware by adapter family:\n", out);
	for (size_t i = 0; i < json_len(arr); i++) {
		const struct json *fam = json_at(arr, i);
		const struct json *vs = json_get(fam, "versions");

		fputs("  ", out);
		term_puts(out, text(fam, "family"));
		if (json_as_bool(json_get(fam, "mixed")))
			fprintf(out, ": %s%zu versions (mixed)%s\n",
				term_on(color, TERM_YELLOW), json_len(vs), term_off(color));
		else
			fputs(": one version\n", out);
		for (size_t k = 0; k < json_len(vs); k++) {
			const struct json *v = json_at(vs, k);

			fputs("    ", out);
			term_puts(out, text(v, "fw_ver"));
			fprintf(out, "  %s host%s, %s adapter%s\n",
				text(v, "count"),
				json_as_int(json_get(v, "count")) == 1 ? "" :
									 "s",
				text(v, "adapters"),
				json_as_int(json_get(v, "adapters")) == 1 ?
					"" :
					"s");
			put_wrapped(out, text(v, "hostlist"), 6);
		}
	}
}

static void failures(FILE *out, const struct json *arr, bool color)
{
	if (!json_len(arr))
		return;
	fprintf(out, "\n%sCould not be read (%zu):%s\n", term_on(color, TERM_RED),
		json_len(arr), term_off(color));
	for (size_t i = 0; i < json_len(arr); i++) {
		fputs("  ", out);
		term_puts(out, text(json_at(arr, i), "path"));
		fputs(": ", out);
		term_puts(out, text(json_at(arr, i), "reason"));
		fputc('\n', out);
	}
}

static void duplicates(FILE *out, const struct json *arr)
{
	if (!json_len(arr))
		return;
	fputs("\nHost names found in more than one bundle:\n", out);
	for (size_t i = 0; i < json_len(arr); i++) {
		const struct json *paths = json_get(json_at(arr, i), "paths");

		fputs("  ", out);
		term_puts(out, text(json_at(arr, i), "name"));
		fputc(':', out);
		for (size_t k = 0; k < json_len(paths); k++) {
			fputc(' ', out);
			term_puts(out, json_text(json_at(paths, k)));
		}
		fputc('\n', out);
	}
}

void report_fleet_text(FILE *out, const struct json *summary, bool color)
{
	fputc('\n', out);
	counts(out, summary, color);
	diagnoses(out, json_get(summary, "diagnoses"), color);
	firmware(out, json_get(summary, "firmware"), color);
	failures(out, json_get(summary, "failures"), color);
	duplicates(out, json_get(summary, "duplicates"));
}
