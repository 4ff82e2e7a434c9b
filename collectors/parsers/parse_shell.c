/* What a shell and the module tools print: uname (-r, -a), ulimit (-l,
 * -a), and modprobe's and insmod's errors. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"

/* A kernel release as uname -r prints it: "5.15.0-91-generic",
 * "3.10.0-1160.el7.x86_64", "6.15.0-rc2+": digits and dots first. */
static bool release_word(const struct line *t)
{
	size_t dots = 0, i = 0;

	if (!t->len || t->len > 96 || !isdigit((unsigned char)t->p[0]))
		return false;
	for (; i < t->len && (isdigit((unsigned char)t->p[i]) ||
			      t->p[i] == '.');
	     i++)
		dots += t->p[i] == '.';
	for (size_t j = i; j < t->len; j++)
		if (!isalnum((unsigned char)t->p[j]) &&
		    !strchr(".-_+~", t->p[j]))
			return false;
	return dots >= 1 && (i == t->len || strchr("-_+.~", t->p[i]));
}

bool uname_r_line(const struct line *ln)
{
	struct line tok[2];

	return line_split(ln, tok, 2) == 1 && release_word(&tok[0]) &&
	       memchr(tok[0].p, '-', tok[0].len);
}

/* Where the release stands in a uname line, or -1.  coreutils uname.c
 * prints the fields it is asked for in one fixed order (kernel-name,
 * nodename, kernel-release, kernel-version, machine, processor,
 * hardware-platform, operating-system), so -a gives "Linux node07
 * 5.15.0-91-generic #101-Ubuntu SMP ... x86_64 GNU/Linux", -srv "Linux
 * 5.15.0-91-generic #101-Ubuntu ..." and -rvm "5.15.0-91-generic
 * #101-Ubuntu SMP ... x86_64": the release is followed by the version,
 * which starts with its build number ("#1"). */
static int uname_release_at(const struct line *ln, const struct line *tok,
			    size_t n)
{
	for (size_t i = 0; i < 3 && i + 1 < n; i++) {
		if (i && !line_eq(&tok[0], "Linux"))
			return -1;
		if (!release_word(&tok[i]) || tok[i + 1].len < 2 ||
		    tok[i + 1].p[0] != '#' ||
		    !isdigit((unsigned char)tok[i + 1].p[1]))
			continue;
		/* without the node name, "5.4 #2 ..." could be prose: a
		 * distribution's release ("-generic") or the version's
		 * "SMP" or the operating system's "GNU/Linux" tells */
		if (i < 2 && !memchr(tok[i].p, '-', tok[i].len) &&
		    !line_contains(ln, " SMP ") &&
		    !line_contains(ln, "GNU/Linux"))
			return -1;
		return (int)i;
	}
	return -1;
}

bool uname_a_line(const struct line *ln)
{
	struct line tok[4];

	return uname_release_at(ln, tok, line_split(ln, tok, 4)) >= 0;
}

int parse_uname(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_unmark(raw), tok[24];
		size_t n;
		struct fact *f;
		int at;

		n = line_split(&ln, tok, 24);
		at = uname_release_at(&ln, tok, n);
		if (at >= 0) {
			f = emit_begin(e, "host", &ln);
			if (at == 2)
				emit_line(e, f, "hostname", &tok[1], &ln);
			emit_line(e, f, "kernel", &tok[at], &ln);
			/* the machine comes after the version's date:
			 * "... UTC 2023 x86_64 x86_64 x86_64 GNU/Linux" */
			for (size_t i = n; i-- > (size_t)at + 2;)
				if (line_eq(&tok[i], "x86_64") ||
				    line_eq(&tok[i], "aarch64") ||
				    line_eq(&tok[i], "ppc64le") ||
				    line_eq(&tok[i], "s390x")) {
					emit_line(e, f, "arch", &tok[i], &ln);
					break;
				}
			emit_end(e, f);
		} else if (uname_r_line(&ln)) {
			f = emit_begin(e, "host", &ln);
			emit_line(e, f, "kernel", &ln, &ln);
			emit_end(e, f);
		}
	}
	return (int)(e->nfacts - before);
}

/* "unlimited" or a number of KiB, alone on its line (ulimit -l). */
bool ulimit_value_line(const struct line *ln)
{
	if (line_eq(ln, "unlimited"))
		return true;
	if (!ln->len || ln->len > 20)
		return false;
	for (size_t i = 0; i < ln->len; i++)
		if (!isdigit((unsigned char)ln->p[i]))
			return false;
	return true;
}

static void memlock(struct emit *e, const struct line *v,
		    const struct line *ln)
{
	struct fact *f = emit_begin(e, "limits", ln);

	emit_str(e, f, "scope", "process", 7, ln);
	if (line_eq(v, "unlimited"))
		emit_int(e, f, "memlock_kb", -1, ln);
	else
		emit_line(e, f, "memlock_kb", v, ln);
	emit_end(e, f);
}

/* bash's ulimit -a: "max locked memory       (kbytes, -l) 64"; ulimit -l:
 * the value alone (a whole output of one line). */
/* csh and tcsh's limit (sh.func.c plim(), its limits[] table naming
 * RLIMIT_MEMLOCK "memorylocked" in "kbytes"): "memorylocked 3500000
 * kbytes" or "memorylocked unlimited". */
bool csh_memlock_line(const struct line *ln)
{
	struct line tok[4];
	size_t n = line_split(ln, tok, 4);

	return (n == 2 || (n == 3 && line_eq(&tok[2], "kbytes"))) &&
	       line_eq(&tok[0], "memorylocked") && ulimit_value_line(&tok[1]);
}

int parse_ulimit(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts, values = 0;
	struct line value = { NULL, 0, 0 };

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		const char *close;

		if (line_starts(&ln, "max locked memory") &&
		    (close = memmem(ln.p, ln.len, "-l)", 3))) {
			struct line v = line_trim((struct line){
				close + 3, (size_t)(ln.p + ln.len - close - 3),
				ln.no });

			if (ulimit_value_line(&v))
				memlock(e, &v, &ln);
		} else if (csh_memlock_line(&ln)) {
			struct line tok[3];

			line_split(&ln, tok, 3);
			memlock(e, &tok[1], &ln);
		} else if (ulimit_value_line(&ln)) {
			value = ln;
			values++;
		}
	}
	if (e->nfacts == before && values == 1)
		memlock(e, &value, &value);
	return (int)(e->nfacts - before);
}

/* kmod's messages (tools/modprobe.c, tools/insmod.c):
 *   modprobe: FATAL: Module mlx5_ib not found in directory /lib/modules/...
 *   modprobe: ERROR: could not insert 'mlx5_ib': Unknown symbol in module...
 *   insmod: ERROR: could not insert module x.ko: Invalid parameters */
/* strcspn that stops at end: a line is not terminated where it ends. */
static size_t span_to(const char *p, const char *end, const char *reject)
{
	size_t n = 0;

	while (p + n < end && !strchr(reject, p[n]))
		n++;
	return n;
}

void modprobe_module_named(const struct line *ln, struct line *mod)
{
	const char *at, *end = ln->p + ln->len;

	mod->p = ln->p;
	mod->len = 0;
	if ((at = memmem(ln->p, ln->len, "Module ", 7))) {
		mod->p = at + 7;
		mod->len = span_to(mod->p, end, " ");
	} else if ((at = memmem(ln->p, ln->len, "insert '", 8))) {
		mod->p = at + 8;
		mod->len = span_to(mod->p, end, "'");
	} else if ((at = memmem(ln->p, ln->len, "could not insert module ",
				24))) {
		const char *slash;

		mod->p = at + 24;
		mod->len = span_to(mod->p, end, ": ");
		slash = memrchr(mod->p, '/', mod->len);
		if (slash) {
			mod->len -= (size_t)(slash + 1 - mod->p);
			mod->p = slash + 1;
		}
		if (mod->len > 3 && !memcmp(mod->p + mod->len - 3, ".ko", 3))
			mod->len -= 3;
	}
	if (mod->p + mod->len > ln->p + ln->len)
		mod->len = (size_t)(ln->p + ln->len - mod->p);
}

int parse_modprobe(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), mod;
		const char *tool = line_starts(&ln, "insmod:") ? "insmod" :
								 "modprobe";
		struct fact *f;

		if (!line_starts(&ln, "modprobe: ") &&
		    !line_starts(&ln, "insmod: "))
			continue;
		f = emit_begin(e, "tool_error", &ln);
		emit_str(e, f, "tool", tool, strlen(tool), &ln);
		emit_line(e, f, "message", &ln, &ln);
		modprobe_module_named(&ln, &mod);
		if (mod.len)
			emit_line(e, f, "module", &mod, &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}
