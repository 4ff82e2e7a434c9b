/* The kernel-log benchmark's input: a seeded generator that writes a large
 * kernel log, the signature patterns for the peer tools, and the counts
 * every tool must find, worked out here from the patterns themselves.
 *
 *   loggen [-r HITS] [-f FORMAT] KIB HEAD-KIB SEED KBDIR SAMPLEDIR OUTDIR
 *	  [SKIP-PREFIX...]
 *
 * OUTDIR/kern.log  about KIB KiB of lines, in segments of one host and one
 *	format each (dmesg "[seconds]", dmesg -T, syslog with and without
 *	the kernel's own timestamp, journalctl -o short-iso), as logs of
 *	several hosts put end to end.  Most lines are noise from other
 *	drivers and daemons; 1 in 200 is an RDMA driver line and HITS in
 *	100,000 (50 unless -r says otherwise) a message built to hit a
 *	signature.  -f writes one host's log in one format (dmesg, dmesg-T,
 *	syslog, syslog-mono, journal), as a bundle holds it.
 * OUTDIR/head.log  its first HEAD-KIB KiB (whole lines), for the slow peers.
 * OUTDIR/patterns.pcre  the specific signatures' patterns (no kb scope:
 *	families and fallbacks are left out, as too many and too large for
 *	the peers' single compiled pattern), one a line, in kb order.
 * OUTDIR/patterns.ere   the same in POSIX ERE for grep -E: "(?:" becomes
 *	"(", "\d" "[0-9]", and lazy "*?" "+?" plain "*" "+" (which match the
 *	same lines); GNU grep reads "\S", "\s" and "\b" itself.
 * OUTDIR/patterns.alt   one line, "(?:p1)|(?:p2)|...": grep -P takes a
 *	single pattern.
 * OUTDIR/expected.txt   "lines N" (lines any pattern matches, prefix and
 *	all: what rg -c and grep -c print), "written N" (all lines) and
 *	"sig ID N" for each signature (the lines whose message its pattern
 *	matches, among the signatures of the most specific scope that match
 *	the message: rdmadoctor's count).
 * OUTDIR/expected-head.txt  the same for head.log.
 *
 * Every line is a prefix (time, host, program) and a message body drawn
 * from a pool: noise from templates of other drivers and daemons, RDMA
 * lines from templates, the RDMA lines of the real logs in SAMPLEDIR (as
 * rdmadoctor's own parser reads them, continuations joined), and for each
 * signature the message of its kb example and a few built from its
 * pattern.  rdmadoctor matches a pattern against the body, which it reads
 * past the prefix, so a signature's count is the matches of each pool
 * entry times its uses.  rg and grep match the whole line, where "^" is
 * the prefix's start and a match may start in the prefix, so each line is
 * matched again as written for the count of matching lines.  Signatures
 * whose id starts with a SKIP-PREFIX (the tool-output ones) get no built
 * messages; every other one must get at least one.
 *
 * The generator is deterministic: the same arguments give the same files
 * on every machine. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/loggen_lines.h"
#include "bench/rng.h"
#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "engine/kb.h"
#include "engine/regex.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define RDMA_PER_100K 500 /* 1 in 200 is another RDMA driver line */
#define DAEMON_PER_100 55 /* share of daemon lines in syslog segments */
#define NOISE_POOL_MAX 16384
#define RDMA_POOL 512
#define VARIANTS 4 /* messages built from each pattern */
#define HOSTS 8
#define SEGMENT_MIN (64u << 10)
#define SEGMENT_SPAN (4u << 20)

enum pool { POOL_NOISE, POOL_DAEMON, POOL_RDMA, POOL_HIT, POOLS };

struct entry {
	char *tag; /* the program of a daemon line, else NULL (kernel) */
	char *body;
	uint64_t uses, head_uses; /* lines of kern.log, of head.log */
};

struct sig {
	const char *id;
	char *pattern;
	char *example; /* its example's message, as rdmadoctor reads it */
	struct regex *re;
	const struct value *literals;
	int scope; /* 0 specific, 1 family, 2 driver, 3 generic */
	uint64_t expected, expected_head;
};

static unsigned hits_per_100k = 50;
static int only_format = -1; /* -f */
static struct entry *pools[POOLS];
static size_t npool[POOLS], cappool[POOLS];
static struct sig *sigs;
static size_t nsigs;

static void fail(const char *what, const char *arg)
{
	fprintf(stderr, "loggen: %s '%s': %s\n", what, arg,
		errno ? strerror(errno) : "failed");
	exit(2);
}

static void pool_add(enum pool p, const char *tag, const char *body)
{
	xgrow(&pools[p], &cappool[p], npool[p] + 1, sizeof(*pools[p]));
	pools[p][npool[p]].tag = tag ? xstrdup(tag) : NULL;
	pools[p][npool[p]].body = xstrdup(body);
	pools[p][npool[p]].uses = 0;
	pools[p][npool[p]++].head_uses = 0;
}

/* ---- noise and RDMA lines from templates ---- */

#define PICK(a) (a)[rng_below(sizeof(a) / sizeof(*(a)))]

static void expand(struct strbuf *sb, const char *t)
{
	sb_reset(sb);
	for (; *t; t++) {
		const char *end = *t == '{' ? strchr(t, '}') : NULL;
		size_t n = end ? (size_t)(end - t - 1) : 0;

		if (!end) {
			sb_putc(sb, *t);
			continue;
		}
		if (n == 1 && t[1] == 'n')
			sb_printf(sb, "%u", rng_below(100000));
		else if (n == 1 && t[1] == 'd')
			sb_printf(sb, "%u", rng_below(8));
		else if (n == 1 && t[1] == 'x')
			sb_printf(sb, "%x", (unsigned)rng_next());
		else if (n == 3 && !memcmp(t + 1, "pci", 3))
			sb_printf(sb, "0000:%02x:00.%u", rng_below(256),
				  rng_below(2));
		else if (n == 4 && !memcmp(t + 1, "rpci", 4))
			sb_puts(sb, PICK(rdma_pcis));
		else if (n == 2 && !memcmp(t + 1, "if", 2))
			sb_puts(sb, PICK(ifaces));
		else if (n == 2 && !memcmp(t + 1, "ip", 2))
			sb_printf(sb, "10.%u.%u.%u", rng_below(256),
				  rng_below(256), rng_below(256));
		else if (n == 1 && t[1] == 'u')
			sb_puts(sb, PICK(users));
		else if (n == 1 && t[1] == 'p')
			sb_puts(sb, PICK(procs));
		else if (n == 1 && t[1] == 's')
			sb_puts(sb, PICK(services));
		else
			sb_add(sb, t, n + 2);
		t = end;
	}
}

/* ---- messages built from a pattern ---- */

/* Tokens for \S+: what the signatures' \S+ stand for in real lines. */
static const char *const tokens[] = {
	"0000:3b:00.0", "mlx5_0",	"ib0",
	"MANAGE_PAGES", "enp59s0f0np0", "mlx5_ib"
};

/* The end of the group or class that starts at p ('(' or '['). */
static const char *closing(const char *p)
{
	int depth = 0;

	if (*p == '[') {
		p++;
		if (*p == '^')
			p++;
		if (*p == ']')
			p++;
		for (; *p && *p != ']'; p++)
			if (*p == '\\' && p[1])
				p++;
		return p;
	}
	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {
			p = closing(p);
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')' && !--depth) {
			return p;
		}
	}
	return p;
}

/* One character of the class [..] at p..end (end at ']'); alphanumerics
 * first, as in real messages. */
static char from_class(const char *p, const char *end)
{
	bool in[256] = { false }, neg = false;
	char pick[256];
	int n = 0;

	if (*++p == '^') {
		neg = true;
		p++;
	}
	while (p < end) {
		unsigned char a = (unsigned char)*p, b;

		if (a == '\\' && p + 1 < end) {
			char e = *++p;

			if (e == 'd')
				for (int c = '0'; c <= '9'; c++)
					in[c] = true;
			else
				in[(unsigned char)e] = true;
			p++;
			continue;
		}
		if (p + 2 < end && p[1] == '-') {
			b = (unsigned char)p[2];
			for (int c = a; c <= b; c++)
				in[c] = true;
			p += 3;
			continue;
		}
		in[a] = true;
		p++;
	}
	for (int pass = 0; pass < 2 && !n; pass++)
		for (int c = 0x20; c < 0x7f; c++)
			if (in[c] != neg && (pass || isalnum(c)))
				pick[n++] = (char)c;
	return n ? pick[rng_below((unsigned)n)] : 'x';
}

static void gen_seq(struct strbuf *sb, const char *p, const char *end);

/* One branch of the alternation p..end, chosen at random. */
static void gen_alt(struct strbuf *sb, const char *p, const char *end)
{
	const char *branch[64], *q;
	size_t n = 0;

	branch[n++] = p;
	for (q = p; q < end; q++) {
		if (*q == '\\' && q + 1 < end)
			q++;
		else if (*q == '(' || *q == '[')
			q = closing(q);
		else if (*q == '|' && n < 64)
			branch[n++] = q + 1;
	}
	n = rng_below((unsigned)n);
	for (q = branch[n]; q < end; q++) {
		if (*q == '\\' && q + 1 < end)
			q++;
		else if (*q == '(' || *q == '[')
			q = closing(q);
		else if (*q == '|')
			break;
	}
	gen_seq(sb, branch[n], q);
}

/* Emits one instance of the atom p..end (end just past it, before any
 * quantifier). */
static void gen_atom(struct strbuf *sb, const char *p, const char *end,
		     bool many)
{
	if (*p == '(') {
		p += strncmp(p, "(?:", 3) ? 1 : 3;
		gen_alt(sb, p, end - 1);
	} else if (*p == '[') {
		sb_putc(sb, from_class(p, end - 1));
	} else if (*p == '.') {
		sb_putc(sb, 'x');
	} else if (*p == '\\' && p[1] == 'd') {
		sb_putc(sb, (char)('0' + rng_below(10)));
	} else if (*p == '\\' && p[1] == 'S') {
		if (many)
			sb_puts(sb, PICK(tokens));
		else
			sb_putc(sb, 'x');
	} else if (*p == '\\' && p[1] == 's') {
		sb_putc(sb, ' ');
	} else if (*p == '\\' && p[1] == 'b') {
		/* nothing */
	} else if (*p == '\\') {
		sb_putc(sb, p[1]);
	} else if (*p != '^' && *p != '$') {
		sb_putc(sb, *p);
	}
}

static void gen_seq(struct strbuf *sb, const char *p, const char *end)
{
	while (p < end) {
		const char *next = p + 1, *atom_end;
		unsigned lo = 1, hi = 1, reps;
		bool token = p[0] == '\\' && p[1] == 'S';

		if (*p == '(' || *p == '[')
			next = closing(p) + 1;
		else if (*p == '\\')
			next = p + 2;
		if (next > end)
			next = end;
		atom_end = next;
		if (next < end && *next == '?') {
			lo = 0;
			next++;
		} else if (next < end && (*next == '*' || *next == '+')) {
			lo = *next == '+';
			hi = 3;
			next++;
		} else if (next < end && *next == '{') {
			char *e;

			lo = hi = (unsigned)strtoul(next + 1, &e, 10);
			if (*e == ',') {
				char *f;

				hi = (unsigned)strtoul(e + 1, &f, 10);
				if (f == e + 1) /* {n,}: open above */
					hi = lo + 3;
				e = f;
			}
			next = *e == '}' ? e + 1 : e;
		}
		if (next < end && *next == '?') /* lazy */
			next++;
		reps = lo + rng_below(hi - lo + 1);
		if (token && hi > 1 && reps) /* \S+: one token */
			reps = 1;
		for (unsigned i = 0; i < reps; i++)
			gen_atom(sb, p, atom_end, hi > 1);
		p = next;
	}
}

static bool has_literal(const struct sig *s, const char *body)
{
	for (size_t i = 0; s->literals && s->literals->type == VALUE_LIST &&
			   i < s->literals->list->n;
	     i++) {
		const char *t = value_text(&s->literals->list->items[i]);

		if (t && strstr(body, t))
			return true;
	}
	return false;
}

/* Up to VARIANTS messages the signature's pattern matches: the message of
 * its kb example, a real line, then messages built from the pattern, every
 * other one with a driver prefix, as the kernel prints them.  Only those
 * the pattern matches are kept. */
static void build_hits(const struct sig *s)
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	unsigned made = 0;

	if (s->example &&
	    regex_match(s->re, s->example, strlen(s->example), NULL) == 1) {
		pool_add(POOL_HIT, NULL, s->example);
		made++;
	}
	for (int tries = 0; tries < 40 && made < VARIANTS; tries++) {
		sb_reset(&sb);
		gen_alt(&sb, s->pattern, s->pattern + strlen(s->pattern));
		sb_reset(&line);
		if (made % 2 && strncmp(sb.buf, "mlx5_core ", 10) &&
		    strncmp(sb.buf, "infiniband ", 11))
			sb_printf(&line, "mlx5_core %s: ", PICK(rdma_pcis));
		sb_add(&line, sb.buf, sb.len);
		if (regex_match(s->re, line.buf, line.len, NULL) == 1) {
			pool_add(POOL_HIT, NULL, line.buf);
			made++;
		}
	}
	if (!made) {
		fprintf(stderr,
			"loggen: no message built for '%s' (does its example match its pattern?)\n",
			s->id);
		exit(2);
	}
	sb_release(&sb);
	sb_release(&line);
}

/* ---- the pools ---- */

static struct logscan *scanner; /* the kb's, as rdmadoctor builds it */

/* The message of a log line as rdmadoctor's kernel-log parser reads it
 * (its time, host and program cut off), or NULL when the parser keeps no
 * log fact for it.  Adds the parser's facts to fb; the result is owned. */
static char *message_of(struct fact_base *fb, const char *line)
{
	uint32_t log = sym_intern_cstr("log");
	const uint32_t *ids;
	size_t before, after;
	struct emit e;

	fact_base_of_kind(fb, log, &before);
	emit_init(&e, fb, "kb example");
	e.scan = scanner;
	format_find("dmesg")->parse(&e, line, strlen(line), NULL);
	ids = fact_base_of_kind(fb, log, &after);
	if (after <= before)
		return NULL;
	return xstrdup(fact_text(fact_base_get(fb, ids[before]), "text"));
}

/* A signature's kb scope as rdmadoctor's log parser ranks the hits of one
 * line: only those of the most specific scope count. */
static int scope_of(const char *scope)
{
	static const char *const scopes[] = { "family", "driver", "generic" };

	for (int i = 0; scope && i < 3; i++)
		if (!strcmp(scope, scopes[i]))
			return i + 1;
	return 0;
}

static void load_signatures(struct fact_base *fb)
{
	size_t n;
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr("signature"), &n);

	sigs = xcalloc(n, sizeof(*sigs));
	for (size_t i = 0; i < n; i++) {
		const struct fact *f = fact_base_get(fb, ids[i]);
		const char *line;
		char err[128];
		size_t off;
		struct sig *s = &sigs[nsigs];

		s->id = fact_text(f, "id");
		s->scope = scope_of(fact_text(f, "scope"));
		s->pattern = xstrdup(fact_text(f, "pattern"));
		s->literals = fact_get(f, sym_intern_cstr("literals"));
		s->re = regex_compile(s->pattern, 0, err, sizeof(err), &off);
		if (!s->re) {
			fprintf(stderr, "loggen: %s: %s\n", s->id, err);
			exit(2);
		}
		line = fact_text(f, "example");
		s->example = line ? xstrdup(line) : NULL;
		nsigs++;
	}
	/* Not in the loop above: parsing adds facts, which may move ids. */
	for (size_t i = 0; i < nsigs; i++) {
		char *line = sigs[i].example;

		sigs[i].example = line ? message_of(fb, line) : NULL;
		free(line);
	}
}

/* The RDMA lines of the sample logs, as rdmadoctor reads them. */
static void load_samples(struct fact_base *fb, const char *dir)
{
	char cmd[4200];
	FILE *ls;
	char name[4096];
	size_t first, n;
	const uint32_t *ids;

	fact_base_of_kind(fb, sym_intern_cstr("log"), &first);
	snprintf(cmd, sizeof(cmd), "ls '%s'", dir);
	ls = popen(cmd, "r");
	if (!ls)
		fail("cannot list", dir);
	while (fgets(name, sizeof(name), ls)) {
		struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
		char buf[4096];
		size_t k;
		FILE *f;
		struct emit e;

		name[strcspn(name, "\n")] = '\0';
		sb_printf(&path, "%s/%s", dir, name);
		f = fopen(path.buf, "r");
		if (!f)
			fail("cannot read", path.buf);
		while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
			sb_add(&text, buf, k);
		fclose(f);
		emit_init(&e, fb, path.buf);
		e.scan = scanner;
		format_find("dmesg")->parse(&e, text.buf, text.len, NULL);
		sb_release(&path);
		sb_release(&text);
	}
	pclose(ls);
	ids = fact_base_of_kind(fb, sym_intern_cstr("log"), &n);
	for (size_t i = first; i < n; i++)
		pool_add(POOL_RDMA, NULL,
			 fact_text(fact_base_get(fb, ids[i]), "text"));
}

static void build_pools(size_t nlines, int nskip, char **skip)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nnoise =
		nlines / 8 < NOISE_POOL_MAX ? nlines / 8 + 64 : NOISE_POOL_MAX;

	for (size_t i = 0; i < nnoise; i++) {
		size_t d =
			rng_below(sizeof(daemon_noise) / sizeof(*daemon_noise));

		const char *t = PICK(kernel_noise);

		while (*t == '!' && rng_below(50))
			t = PICK(kernel_noise);
		expand(&sb, t + (*t == '!'));
		pool_add(POOL_NOISE, NULL, sb.buf);
		expand(&sb, daemon_noise[d][1]);
		pool_add(POOL_DAEMON, daemon_noise[d][0], sb.buf);
	}
	for (size_t i = 0; i < RDMA_POOL; i++) {
		expand(&sb, PICK(rdma_lines));
		pool_add(POOL_RDMA, NULL, sb.buf);
	}
	for (size_t i = 0; i < nsigs; i++) {
		bool skipped = false;

		for (int k = 0; k < nskip; k++)
			skipped |=
				!strncmp(sigs[i].id, skip[k], strlen(skip[k]));
		if (!skipped)
			build_hits(&sigs[i]);
	}
	sb_release(&sb);
}

/* ---- writing ---- */

enum log_format {
	F_DMESG,
	F_DMESG_T,
	F_SYSLOG,
	F_SYSLOG_MONO,
	F_JOURNAL,
	FMTS
};

static const char *const format_names[FMTS] = { "dmesg", "dmesg-T", "syslog",
						"syslog-mono", "journal" };

/* Of every 20 segments: dmesg 6, dmesg -T 2, syslog 5 + 2, journal 5. */
static const enum log_format format_weights[20] = {
	F_DMESG,   F_DMESG,   F_DMESG,	 F_DMESG,	F_DMESG,
	F_DMESG,   F_DMESG_T, F_DMESG_T, F_SYSLOG,	F_SYSLOG,
	F_SYSLOG,  F_SYSLOG,  F_SYSLOG,	 F_SYSLOG_MONO, F_SYSLOG_MONO,
	F_JOURNAL, F_JOURNAL, F_JOURNAL, F_JOURNAL,	F_JOURNAL,
};

struct clock {
	double mono; /* seconds since boot */
	time_t wall;
};

static void prefix(struct strbuf *out, enum log_format fmt, struct clock *c,
		   const char *host, const struct entry *e)
{
	struct tm tm;
	char when[64];

	c->mono += (double)rng_below(400000) / 1e6;
	c->wall = (time_t)(1709251200 + c->mono);
	gmtime_r(&c->wall, &tm);
	switch (fmt) {
	case F_DMESG:
		sb_printf(out, "[%12.6f] ", c->mono);
		return;
	case F_DMESG_T:
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
		sb_printf(out, "[%s] ", when);
		return;
	case F_SYSLOG:
	case F_SYSLOG_MONO:
		strftime(when, sizeof(when), "%b %e %H:%M:%S", &tm);
		break;
	default:
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S+0000", &tm);
		break;
	}
	if (e->tag)
		sb_printf(out, "%s %s %s[%u]: ", when, host, e->tag,
			  rng_below(60000) + 100);
	else if (fmt == F_SYSLOG_MONO)
		sb_printf(out, "%s %s kernel: [%12.6f] ", when, host, c->mono);
	else
		sb_printf(out, "%s %s kernel: ", when, host);
}

static struct entry *pick(enum log_format fmt)
{
	unsigned r = rng_below(100000);
	enum pool p = r < hits_per_100k			? POOL_HIT :
		      r < hits_per_100k + RDMA_PER_100K ? POOL_RDMA :
							  POOL_NOISE;

	if (p == POOL_NOISE &&
	    (fmt == F_SYSLOG || fmt == F_SYSLOG_MONO || fmt == F_JOURNAL) &&
	    rng_below(100) < DAEMON_PER_100)
		p = POOL_DAEMON;
	return &pools[p][rng_below((unsigned)npool[p])];
}

struct out {
	FILE *f;
	uint64_t bytes, lines;
	uint64_t matching; /* lines some pattern matches, prefix and all */
};

static void open_out(struct out *o, const char *dir, const char *name)
{
	static char bufs[2][1 << 20];
	static int nbuf;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	o->f = fopen(path, "w");
	if (!o->f)
		fail("cannot write", path);
	setvbuf(o->f, bufs[nbuf++ % 2], _IOFBF, sizeof(bufs[0]));
	o->bytes = o->lines = o->matching = 0;
}

static void close_out(struct out *o, const char *name)
{
	if (ferror(o->f) || fclose(o->f))
		fail("cannot write", name);
}

/* Whether any signature's pattern matches the line as written, its prefix
 * included: what rg -c and grep -c count.  rdmadoctor matches the message
 * after the prefix, which a pattern anchored with ^ (or one that can start
 * in the prefix, as "(?:^|: )" after "kernel: ") tells apart.  Every match
 * contains one of its signature's literals, so the scanner's literal test
 * spares most lines the regexes. */
static bool line_matches(const struct logscan *ls, const char *line, size_t len)
{
	if (!logscan_relevant(ls, line, len))
		return false;
	for (size_t k = 0; k < nsigs; k++)
		if (!sigs[k].scope &&
		    regex_match(sigs[k].re, line, len, NULL) == 1)
			return true;
	return false;
}

/* Writes kern.log, and its first head bytes again as head.log, counting
 * the lines the patterns match. */
static void write_log(const char *dir, uint64_t bytes, uint64_t head,
		      const struct logscan *ls, struct out *log, struct out *hd)
{
	struct strbuf line = STRBUF_INIT;

	open_out(log, dir, "kern.log");
	open_out(hd, dir, "head.log");
	while (log->bytes < bytes) {
		uint64_t stop =
			log->bytes + SEGMENT_MIN + rng_below(SEGMENT_SPAN);
		enum log_format fmt = only_format >= 0 ?
					      (enum log_format)only_format :
					      format_weights[rng_below(20)];
		struct clock c = { (double)rng_below(1000), 0 };
		char host[16];

		snprintf(host, sizeof(host), "node%02u",
			 only_format >= 0 ? 1 : rng_below(HOSTS) + 1);
		while (log->bytes < stop && log->bytes < bytes) {
			struct entry *e = pick(fmt);
			bool match;

			sb_reset(&line);
			prefix(&line, fmt, &c, host, e);
			sb_printf(&line, "%s", e->body);
			match = line_matches(ls, line.buf, line.len);
			sb_putc(&line, '\n');
			fwrite(line.buf, 1, line.len, log->f);
			log->bytes += line.len;
			log->lines++;
			log->matching += match;
			e->uses++;
			if (hd->bytes + line.len <= head) {
				fwrite(line.buf, 1, line.len, hd->f);
				hd->bytes += line.len;
				hd->lines++;
				hd->matching += match;
				e->head_uses++;
			} else {
				head = 0;
			}
		}
	}
	close_out(log, "kern.log");
	close_out(hd, "head.log");
	sb_release(&line);
}

/* ---- patterns and expectations ---- */

static void write_patterns(const char *dir)
{
	char path[4096];
	FILE *pcre, *ere, *alt;

	snprintf(path, sizeof(path), "%s/patterns.pcre", dir);
	if (!(pcre = fopen(path, "w")))
		fail("cannot write", path);
	snprintf(path, sizeof(path), "%s/patterns.ere", dir);
	if (!(ere = fopen(path, "w")))
		fail("cannot write", path);
	snprintf(path, sizeof(path), "%s/patterns.alt", dir);
	if (!(alt = fopen(path, "w")))
		fail("cannot write", path);
	for (size_t i = 0, n = 0; i < nsigs; i++) {
		const char *p = sigs[i].pattern;

		if (sigs[i].scope)
			continue;
		fprintf(pcre, "%s\n", p);
		fprintf(alt, "%s(?:%s)", n++ ? "|" : "", p);
		for (; *p; p++) {
			if (!strncmp(p, "(?:", 3)) {
				fputc('(', ere);
				p += 2;
			} else if (p[0] == '\\' && p[1] == 'd') {
				fputs("[0-9]", ere);
				p++;
			} else if (p[0] == '\\' && p[1]) {
				fputc(*p++, ere);
				fputc(*p, ere);
			} else if ((p[0] == '*' || p[0] == '+') &&
				   p[1] == '?') {
				fputc(*p++, ere);
			} else {
				fputc(*p, ere);
			}
		}
		fputc('\n', ere);
	}
	fputc('\n', alt);
	if (fclose(pcre) || fclose(ere) || fclose(alt))
		fail("cannot write", dir);
}

static void write_counts(const char *dir, const char *name, uint64_t lines,
			 uint64_t matching, bool head)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		fail("cannot write", path);
	fprintf(f, "lines %llu\nwritten %llu\n", (unsigned long long)matching,
		(unsigned long long)lines);
	for (size_t k = 0; k < nsigs; k++) {
		uint64_t n = head ? sigs[k].expected_head : sigs[k].expected;

		if (n)
			fprintf(f, "sig %s %llu\n", sigs[k].id,
				(unsigned long long)n);
	}
	if (fclose(f))
		fail("cannot write", path);
}

/* The signatures' counts, from the messages (as rdmadoctor matches them),
 * and the counts of matching lines from write_log. */
static void write_expected(const char *dir, const struct out *log,
			   const struct out *hd)
{
	for (int p = 0; p < POOLS; p++) {
		for (size_t i = 0; i < npool[p]; i++) {
			const struct entry *e = &pools[p][i];
			int best = 4;

			for (size_t k = 0; k < nsigs; k++)
				if (sigs[k].scope < best &&
				    regex_match(sigs[k].re, e->body,
						strlen(e->body), NULL) == 1)
					best = sigs[k].scope;
			for (size_t k = 0; k < nsigs; k++) {
				if (sigs[k].scope != best ||
				    regex_match(sigs[k].re, e->body,
						strlen(e->body), NULL) != 1)
					continue;
				sigs[k].expected += e->uses;
				sigs[k].expected_head += e->head_uses;
				if (!has_literal(&sigs[k], e->body))
					fprintf(stderr,
						"loggen: %s matches a line without its literals: %s\n",
						sigs[k].id, e->body);
			}
		}
	}
	write_counts(dir, "expected.txt", log->lines, log->matching, false);
	write_counts(dir, "expected-head.txt", hd->lines, hd->matching, true);
}

int main(int argc, char **argv)
{
	struct fact_base *fb;
	struct diag *d;
	uint64_t bytes, head;
	struct out log, hd;

	while (argc > 2 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-r"))
			hits_per_100k = (unsigned)strtoul(argv[2], NULL, 10);
		for (int i = 0; i < FMTS && !strcmp(argv[1], "-f"); i++)
			if (!strcmp(argv[2], format_names[i]))
				only_format = i;
		argc -= 2;
		argv += 2;
	}
	if (argc < 7 || hits_per_100k + RDMA_PER_100K > 100000) {
		fprintf(stderr,
			"usage: loggen [-r HITS] [-f FORMAT] KIB HEAD-KIB SEED KBDIR SAMPLEDIR OUTDIR [SKIP-PREFIX...]\n");
		return 2;
	}
	bytes = strtoull(argv[1], NULL, 10) << 10;
	head = strtoull(argv[2], NULL, 10) << 10;
	rng_state = strtoull(argv[3], NULL, 10);
	if (mkdir(argv[6], 0755) && errno != EEXIST)
		fail("cannot create", argv[6]);
	fb = fact_base_new();
	d = diag_new();
	if (kb_load_dir(fb, argv[4], "kb", d) < 0) {
		diag_print(d, stderr, "loggen");
		return 2;
	}
	scanner = logscan_new(fb, d);
	load_signatures(fb);
	load_samples(fb, argv[5]);
	build_pools(bytes / 100, argc - 7, argv + 7);
	write_log(argv[6], bytes, head, scanner, &log, &hd);
	write_patterns(argv[6]);
	write_expected(argv[6], &log, &hd);
	logscan_free(scanner);
	diag_free(d);
	fact_base_free(fb);
	return 0;
}
