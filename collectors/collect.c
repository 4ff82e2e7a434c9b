/* Collection runs: the collector table, loose files, collector statuses
 * and the knowledge-base enrichment of collected facts. */
#include "collectors/collect.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/collector.h"
#include "collectors/parsers/factfile.h"
#include "collectors/parsers/blocks.h"
#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_app.h"
#include "collectors/parsers/parse_install.h"
#include "collectors/parsers/parse_tool.h"
#include "collectors/parsers/dparse.h"
#include "collectors/parsers/parse_log.h"
#include "collectors/sources/snapshot.h"
#include "engine/json.h"
#include "engine/symbol.h"
#include "engine/vocab.h"
#include "engine/xalloc.h"

#define LOOSE_FILE_MAX (256u << 20) /* @@ largest loose file read whole */
#define LOOSE_PIECE (1u << 20) /* @@ a kernel log is read in pieces */

static const struct {
	const char *name;
	const char *inputs;
	const char *kinds;
	col_fn fn;
	unsigned where;
} collectors[] = {
#define X(name, inputs, kinds, where) \
	{ #name, inputs, kinds, col_##name, where },
	COLLECTORS(X)
#undef X
};

/* A collector's outcome so far, across the sources of one host. */
struct outcome {
	char *name;
	enum fetch_status status;
	bool read_any;
	char *detail;
};

struct collect_run {
	struct fact_base *fb;
	struct logscan *scan;
	struct logscan *app_scan; /* built on first use, owned */
	struct diag *d;
	collect_progress_fn progress;
	void *arg;
	unsigned opt_in; /* COLLECT_* */
	unsigned again_ms; /* collect_run_sample_again's; 0: read once */
	const struct dparse_set *parsers; /* the site's, borrowed */
	struct outcome *outcomes;
	size_t n, cap;
};

/* Whether a outranks b: anything read beats nothing read, then the
 * milder problem wins. */
static bool better(enum fetch_status a, bool read_a, enum fetch_status b,
		   bool read_b)
{
	static const int rank[] = {
		[FETCH_OK] = 4,	   [FETCH_TRUNCATED] = 3, [FETCH_TIMEOUT] = 2,
		[FETCH_ERROR] = 1, [FETCH_MISSING] = 0,
	};

	if (read_a != read_b)
		return read_a;
	return rank[a] > rank[b];
}

static void record(struct collect_run *run, const char *name,
		   enum fetch_status status, bool read_any, const char *detail)
{
	struct outcome *o = NULL;

	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->outcomes[i].name, name))
			o = &run->outcomes[i];
	if (!o) {
		xgrow(&run->outcomes, &run->cap, run->n + 1,
		      sizeof(*run->outcomes));
		o = &run->outcomes[run->n++];
		o->name = xstrdup(name);
		o->status = status;
		o->read_any = read_any;
		o->detail = xstrdup(detail);
		return;
	}
	if (better(status, read_any, o->status, o->read_any)) {
		o->status = status;
		o->read_any = read_any;
		free(o->detail);
		o->detail = xstrdup(detail);
	}
}

struct collect_run *collect_run_new(struct fact_base *fb, struct logscan *scan,
				    struct diag *d,
				    collect_progress_fn progress, void *arg)
{
	struct collect_run *run = xcalloc(1, sizeof(*run));

	run->fb = fb;
	run->scan = scan;
	run->d = d;
	run->progress = progress;
	run->arg = arg;
	return run;
}

/* The scanner for the application messages of the run's kb, built when
 * the first text is read (the kb is loaded by then) and freed with the
 * run. */
static struct logscan *app_scanner(struct collect_run *run)
{
	if (!run->app_scan)
		run->app_scan =
			logscan_new_for(run->fb, "app_message", run->d);
	return run->app_scan;
}

void collect_run_parsers(struct collect_run *run,
			 const struct dparse_set *parsers)
{
	run->parsers = parsers;
}

/* The site parsers' pass over a source: one collector status each,
 * named "site:NAME". */
static void collect_site(struct collect_run *run, struct col_ctx *c)
{
	for (size_t i = 0; i < dparse_count(run->parsers); i++) {
		const struct dparse *p = dparse_at(run->parsers, i);
		struct col_status st = { 0, false, STRBUF_INIT };
		char *name = xasprintf("site:%s", dparse_name(p));

		if (col_site_parser(c, p, &st)) {
			if (!st.seen)
				col_status(&st, FETCH_MISSING, "nothing found");
			record(run, name, col_final(&st), st.read_any,
			       sb_str(&st.detail));
		}
		sb_release(&st.detail);
		free(name);
	}
}

void collect_run_allow(struct collect_run *run, unsigned opt_in)
{
	run->opt_in |= opt_in;
}

void collect_run_sample_again(struct collect_run *run, unsigned ms)
{
	run->again_ms = ms;
}

void col_status(struct col_status *st, enum fetch_status s, const char *fmt,
		...)
{
	va_list ap;

	if (s == FETCH_OK || s == FETCH_TRUNCATED)
		st->read_any = true;
	st->seen |= 1u << s;
	if (st->detail.len)
		sb_puts(&st->detail, "; ");
	va_start(ap, fmt);
	sb_vprintf(&st->detail, fmt, ap);
	va_end(ap);
}

enum fetch_status col_final(const struct col_status *st)
{
	if (st->read_any)
		return st->seen & (1u << FETCH_TRUNCATED) ? FETCH_TRUNCATED :
							    FETCH_OK;
	if (st->seen & (1u << FETCH_TIMEOUT))
		return FETCH_TIMEOUT;
	if (st->seen & (1u << FETCH_ERROR))
		return FETCH_ERROR;
	return FETCH_MISSING;
}

void col_progress(struct col_ctx *c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!c->run->progress)
		return;
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	c->run->progress(c->run->arg, sb_str(&sb));
	sb_release(&sb);
}

int col_parse(struct col_ctx *c, const char *format, const struct fetch *f,
	      const char *arg)
{
	const struct format *fmt = format_find(format);
	struct emit e;
	int n;

	if (!fmt)
		return 0;
	emit_init(&e, c->fb, f->where);
	e.scan = c->run->scan;
	e.app_scan = app_scanner(c->run);
	if (fmt->lists)
		e.watch_kind = sym_intern_cstr(fmt->lists);
	n = fmt->parse(&e, f->data, f->len, arg);
	/* a whole output of a listing tool: what it lacks is absent */
	if (fmt->lists && !arg)
		blocks_listing(&e, format, e.watched);
	return n;
}

bool col_attr(struct col_ctx *c, const char *path, char *buf, size_t size)
{
	struct fetch f;
	size_t n;

	if (source_read(c->src, path, 4096, &f) || !f.len) {
		if (f.status == FETCH_ERROR && !c->unread++)
			snprintf(c->unread_first, sizeof(c->unread_first),
				 "%s: %s", f.where ? f.where : path,
				 f.detail ? f.detail : "unreadable");
		fetch_release(&f);
		return false;
	}
	n = strcspn(f.data, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(buf, f.data, n);
	buf[n] = '\0';
	fetch_release(&f);
	return true;
}

/* Facts a live-only collector found, kept in a snapshot as a fact file
 * (sos_commands/rdmadoctor/facts_<name>.json) so that analysing the
 * snapshot sees them too. */
#define FACTS_FILE_FMT "facts_%s.json"
#define FACTS_FILE_DIR "/sos_commands/rdmadoctor/"

static void parse_fact_text(struct col_ctx *c, const char *where,
			    const char *text, size_t len)
{
	struct fetch f = { .status = FETCH_OK,
			   .data = (char *)text,
			   .len = len,
			   .where = (char *)where,
			   .exit_code = -1 };

	col_parse(c, "facts", &f, NULL);
}

/* Runs a live-only collector into a fact base of its own, records its
 * facts into the snapshot and adds them to the run's. */
static void run_recorded(struct col_ctx *c, col_fn fn, const char *name,
			 struct snapshot *rec, struct col_status *st)
{
	struct fact_base *own = fact_base_new();
	struct col_ctx sub = *c;
	char *file = xasprintf(FACTS_FILE_FMT, name);
	char *where = xasprintf(FACTS_FILE_DIR "%s", file);
	struct json *j;
	char *text;

	sub.fb = own;
	fn(&sub, st);
	j = factfile_json(own, NULL);
	text = json_dump(j, true);
	snapshot_add(rec, file, text, strlen(text));
	parse_fact_text(c, where, text, strlen(text));
	json_free(j);
	free(text);
	free(where);
	free(file);
	fact_base_free(own);
}

/* In a snapshot, a live-only collector's facts are read back from the
 * fact file collect wrote. */
static void replay_recorded(struct col_ctx *c, const char *name,
			    struct col_status *st)
{
	char *path = xasprintf(FACTS_FILE_DIR FACTS_FILE_FMT, name);
	struct fetch f;

	if (!source_read(c->src, path, 0, &f)) {
		int n = col_parse(c, "facts", &f, NULL);

		col_status(st, n ? f.status : FETCH_ERROR,
			   "%s: %d fact%s recorded by rdmadoctor collect",
			   f.where, n, n == 1 ? "" : "s");
	} else {
		col_status(
			st, FETCH_MISSING,
			"needs the live host (or a snapshot from rdmadoctor collect)");
	}
	fetch_release(&f);
	free(path);
}

/* Sleeps ms milliseconds, through signals that interrupt the sleep. */
static void wait_ms(unsigned ms)
{
	struct timespec left = { (time_t)(ms / 1000),
				 (long)(ms % 1000) * 1000000L };

	while (nanosleep(&left, &left) && errno == EINTR)
		;
}

/* The second reading of the counters, ms after the first. */
static void counters_again(struct collect_run *run, struct source *src,
			   unsigned ms)
{
	struct col_ctx c = { run, src, run->fb, run->d, "", 0, "", 2 };
	struct names devs;
	bool none = source_list(src, "/sys/class/infiniband", &devs) ||
		    !devs.n;

	names_release(&devs);
	/* Nothing to read twice: no wait. */
	if (none)
		return;
	col_progress(&c, "reading the RDMA counters again in %u.%u s", ms / 1000,
		     ms % 1000 / 100);
	wait_ms(ms);
	col_progress(&c, "reading the RDMA counters again");
	col_ib_counters_all(&c);
}

void collect_source(struct collect_run *run, struct source *src)
{
	struct col_ctx c = { run, src, run->fb, run->d, "", 0, "", 0 };
	bool live = source_is_live(src);
	struct snapshot *rec = source_recorder(src);
	unsigned again = run->again_ms;

	run->again_ms = 0;

	for (size_t i = 0; i < ARRAY_SIZE(collectors); i++) {
		struct col_status st = { 0, false, STRBUF_INIT };
		unsigned where = collectors[i].where & ~COL_PERFTEST;
		bool opt_in = collectors[i].where & COL_PERFTEST;

		/* A bundle holds the test only when collect ran it. */
		if (opt_in && live && !(run->opt_in & COLLECT_PERFTEST))
			continue;
		/* the test's traffic stays out of the two readings */
		if (opt_in && again) {
			counters_again(run, src, again);
			again = 0;
		}
		if (live && rec && where == COL_LIVE)
			run_recorded(&c, collectors[i].fn, collectors[i].name,
				     rec, &st);
		else if (live ? where & COL_LIVE : where & COL_TREE)
			collectors[i].fn(&c, &st);
		else if (!live && where == COL_LIVE &&
			 source_kind(src) == SOURCE_SNAPSHOT)
			replay_recorded(&c, collectors[i].name, &st);
		else
			continue;
		if (!st.seen && opt_in && !live) {
			sb_release(&st.detail);
			continue;
		}
		if (c.unread)
			col_status(&st, FETCH_ERROR,
				   "%u file%s unreadable (the first: %s)",
				   c.unread, c.unread == 1 ? "" : "s",
				   c.unread_first);
		c.unread = 0;
		if (!st.seen)
			col_status(&st, FETCH_MISSING, "nothing found");
		record(run, collectors[i].name, col_final(&st), st.read_any,
		       sb_str(&st.detail));
		sb_release(&st.detail);
	}
	if (again)
		counters_again(run, src, again);
	collect_site(run, &c);
}

/* Reads into buf until it holds size bytes or the file ends; the bytes
 * read, or a negative errno. */
static ssize_t read_full(int fd, char *buf, size_t size)
{
	size_t have = 0;

	while (have < size) {
		ssize_t n = read(fd, buf + have, size - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		have += (size_t)n;
	}
	return (ssize_t)have;
}

/* Opens a loose file, refusing what is not a regular file, and reads its
 * first piece into f (the whole file when it is that small).  *fd stays
 * open for the rest. */
static int open_loose(struct collect_run *run, const char *path, int *fd,
		      struct fetch *f)
{
	struct stat st;
	ssize_t n;

	memset(f, 0, sizeof(*f));
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0) {
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL, "cannot read: %s",
			strerror(errno));
		return -errno;
	}
	if (fstat(*fd, &st) || !S_ISREG(st.st_mode)) {
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			S_ISDIR(st.st_mode) ?
				"is a directory, but not a sosreport, snapshot or --root tree" :
				"is not a regular file");
		close(*fd);
		return -EINVAL;
	}
	f->data = xmalloc(LOOSE_PIECE + 1);
	n = read_full(*fd, f->data, LOOSE_PIECE);
	if (n < 0) {
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL, "cannot read: %s",
			strerror((int)-n));
		close(*fd);
		fetch_release(f);
		return (int)n;
	}
	f->len = (size_t)n;
	f->data[f->len] = '\0';
	f->where = xstrdup(path);
	return 0;
}

/* Reads the rest of a loose file into f, up to the cap, and closes fd. */
static void read_rest(int fd, struct fetch *f)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;

	sb_add(&sb, f->data, f->len);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (sb.len + (size_t)n > LOOSE_FILE_MAX) {
			f->status = FETCH_TRUNCATED;
			f->detail = xasprintf("only the first %u MiB were read",
					      LOOSE_FILE_MAX >> 20);
			break;
		}
		sb_add(&sb, buf, (size_t)n);
	}
	close(fd);
	free(f->data);
	f->len = sb.len;
	f->data = sb_detach(&sb);
}

/* The hook for application and tool errors: whatever a loose text was
 * read as, the NCCL, UCX, MPI, ... lines in it become app_error facts, and
 * the error lines of RDMA tools ("-bash: ibstat: command not found")
 * tool_error facts, as a person reading the paste would take them.  A
 * text read as such lines already is not scanned twice, and a fact file is rdmadoctor's own
 * output, whose knowledge-base examples are no evidence.  first_line is
 * the line number of text's first line in the file.  Returns the facts
 * added. */
static int loose_app_errors(struct emit *e, const struct format *fmt,
			    const char *text, size_t len, uint32_t first_line)
{
	uint32_t base = e->line_base;
	int facts = 0;

	if (fmt && fmt->parse == parse_facts)
		return 0;
	e->line_base = base + first_line - 1;
	if (!fmt || fmt->parse != parse_install_log)
		facts += install_scan(e, text, len, NULL);
	if (!fmt || fmt->parse != parse_app_log)
		facts += app_scan(e, text, len);
	if (!fmt || fmt->parse != parse_tool_log)
		facts += tool_scan(e, text, len, NULL);
	e->line_base = base;
	return facts;
}

static uint32_t count_lines(const char *p, size_t n)
{
	uint32_t lines = 0;

	for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + n - q)));
	     q++)
		lines++;
	return lines;
}

/* Scans a kernel log piece by piece, from the first piece in f on, cutting
 * at newlines, and closes fd: a log of any size in constant memory.
 * Returns the facts added. */
static int scan_log(int fd, struct fetch *f, struct emit *e,
		    const struct format *fmt)
{
	struct log_stream *s = log_stream_new(e);
	char *buf = f->data;
	size_t have = f->len;
	bool end = have < LOOSE_PIECE;
	uint32_t line = 1;
	int app = 0;

	for (;;) {
		const char *nl = end ? NULL : memrchr(buf, '\n', have);
		size_t cut = nl ? (size_t)(nl - buf) + 1 : have;
		ssize_t n;

		app += loose_app_errors(e, fmt, buf, cut, line);
		line += count_lines(buf, cut);
		log_stream_feed(s, buf, cut);
		memmove(buf, buf + cut, have - cut);
		have -= cut;
		if (end)
			break;
		n = read_full(fd, buf + have, LOOSE_PIECE - have);
		if (n < 0) {
			f->status = FETCH_ERROR;
			f->detail =
				xasprintf("read error: %s", strerror((int)-n));
			n = 0;
		}
		have += (size_t)n;
		end = have < LOOSE_PIECE;
	}
	close(fd);
	return log_stream_end(s) + app;
}

/* Whether the file is gzip, xz or bzip2 data (a rotated log, a pasted
 * config.gz): then it is read through its decompression. */
static bool compressed(const struct fetch *f)
{
	const unsigned char *p = (const unsigned char *)f->data;

	return (f->len >= 2 && p[0] == 0x1f && p[1] == 0x8b) ||
	       (f->len >= 6 && !memcmp(p,
				       "\xfd"
				       "7zXZ\0",
				       6)) ||
	       (f->len >= 3 && !memcmp(p, "BZh", 3)) ||
	       (f->len >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4)) || /* zstd */
	       (f->len >= 4 && !memcmp(p, "\x04\x22\x4d\x18", 4)); /* lz4 */
}

/* Appends code point c as UTF-8. */
static void put_utf8(struct strbuf *sb, unsigned c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | c >> 6);
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | c >> 12);
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | c >> 18);
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	sb_add(sb, b, n);
}

/* UTF-16 (after its byte order mark) to UTF-8; a lone surrogate becomes
 * U+FFFD. */
static char *utf16_to_utf8(const unsigned char *p, size_t len, bool big,
			   size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i + 1 < len; i += 2) {
		unsigned u = big ? (unsigned)p[i] << 8 | p[i + 1] :
				   (unsigned)p[i + 1] << 8 | p[i];

		if (u >= 0xd800 && u < 0xdc00 && i + 3 < len) {
			unsigned lo = big ? (unsigned)p[i + 2] << 8 | p[i + 3] :
					    (unsigned)p[i + 3] << 8 | p[i + 2];

			if (lo >= 0xdc00 && lo < 0xe000) {
				put_utf8(&sb, 0x10000 + ((u - 0xd800) << 10) +
						      (lo - 0xdc00));
				i += 2;
				continue;
			}
		}
		put_utf8(&sb, u >= 0xd800 && u < 0xe000 ? 0xfffd : u);
	}
	*outlen = sb.len;
	return sb_detach(&sb);
}

/* Text as Windows tools and editors save it, where it enters: a UTF-8
 * byte order mark is dropped, UTF-16 with its mark becomes UTF-8 (the
 * whole file is read for it), UTF-32 is refused by that name.  Returns 0,
 * or -EINVAL after reporting to run->d. */
static int text_to_utf8(struct collect_run *run, const char *path, int *fd,
			struct fetch *f)
{
	const unsigned char *p = (const unsigned char *)f->data;
	char *text;
	size_t len;

	if (f->len >= 4 && (!memcmp(p, "\xff\xfe\0\0", 4) ||
			    !memcmp(p, "\0\0\xfe\xff", 4))) {
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			"UTF-32 text, which rdmadoctor does not read; convert it with: iconv -f UTF-32 -t UTF-8");
		return -EINVAL;
	}
	if (f->len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) {
		fetch_replace(f, xstrndup(f->data + 3, f->len - 3), f->len - 3);
		return 0;
	}
	if (f->len < 2 || !((p[0] == 0xff && p[1] == 0xfe) ||
			    (p[0] == 0xfe && p[1] == 0xff)))
		return 0;
	if (*fd >= 0) {
		read_rest(*fd, f);
		*fd = -1;
		p = (const unsigned char *)f->data;
	}
	text = utf16_to_utf8(p + 2, f->len - 2, p[0] == 0xfe, &len);
	fetch_replace(f, text, len);
	return 0;
}

static int decompress_loose(struct collect_run *run, const char *path,
			    struct fetch *f)
{
	char err[160], *plain;
	size_t len;

	if (archive_decompress(f->data, f->len, LOOSE_FILE_MAX, &plain, &len,
			       err, sizeof(err))) {
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			"cannot decompress (cut short or damaged?): %s", err);
		fetch_release(f);
		return -EINVAL;
	}
	fetch_replace(f, plain, len);
	return 0;
}

static void what_was_seen(struct strbuf *sb, const struct fetch *f);

/* What a loose file that gave nothing looks like, for its message. */
static void say_nothing_read(struct collect_run *run, const char *path,
			     const struct fetch *f,
			     const struct blocks_summary *sum)
{
	struct strbuf kinds = STRBUF_INIT, seen = STRBUF_INIT;
	struct lines it;
	struct line ln;
	unsigned lines = 0, blank = 0;

	format_list_names(&kinds);
	what_was_seen(&seen, f);
	lines_init(&it, f->data, f->len);
	while (lines_next(&it, &ln) && lines < 100000) {
		lines++;
		blank += !line_trim(ln).len;
	}
	if (lines == blank)
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			"cannot tell what this file holds; name its kind as KIND=%s, where KIND is one of: %s (%s)",
			path, sb_str(&kinds), sb_str(&seen));
	else if (sum->looks_like)
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			"cannot tell what this file holds; name its kind as KIND=%s, where KIND is one of: %s (%s); nothing was read from its %u lines in %u blocks: the closest is %s, but no line of it gave a value",
			path, sb_str(&kinds), sb_str(&seen), lines, sum->blocks,
			sum->looks_like);
	else
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			"cannot tell what this file holds; name its kind as KIND=%s, where KIND is one of: %s (%s); nothing was read from its %u lines in %u blocks: they look like prose or the output of a tool rdmadoctor does not read, with no kernel-log or application error line",
			path, sb_str(&kinds), sb_str(&seen), lines, sum->blocks);
	sb_release(&kinds);
	sb_release(&seen);
}

/* The format a whole file is, when it is one that is never cut into
 * blocks (a fact file, a kernel configuration) or a kernel log too big
 * to hold (then scanned piece by piece); else NULL. */
static const struct format *whole_format(const struct fetch *f, bool big)
{
	for (size_t i = 0; i < format_count(); i++) {
		const struct format *fmt = format_at(i);

		if (fmt->flags & FORMAT_WHOLE &&
		    format_score(fmt, f->data, f->len) >= 80)
			return fmt;
	}
	if (big) {
		const struct format *log = format_find("dmesg");

		if (format_score(log, f->data, f->len) >= 80)
			return log;
	}
	return NULL;
}

/* What the start of a file that no format claims looks like, for the
 * message: empty, binary, or its first line. */
static void what_was_seen(struct strbuf *sb, const struct fetch *f)
{
	size_t head = f->len < 4096 ? f->len : 4096, line = 0;

	if (!f->len) {
		sb_puts(sb, "the file is empty");
		return;
	}
	if (memchr(f->data, '\0', head)) {
		sb_puts(sb, "the file holds binary data, not text");
		return;
	}
	while (line < head && line < 60 && f->data[line] != '\n')
		line++;
	sb_puts(sb, "it begins '");
	text_sanitize(sb, f->data, line, 60);
	sb_puts(sb, "'");
}

/* A loose file read by a site parser; the file is released. */
static int site_file(struct collect_run *run, const struct dparse *p,
		     const char *path, int fd, struct fetch *f)
{
	struct emit e;
	char *name = xasprintf("site:%s", dparse_name(p)), *detail;
	int facts;

	if (fd >= 0)
		read_rest(fd, f);
	emit_init(&e, run->fb, path);
	facts = dparse_run(p, &e, f->data, f->len);
	detail = xasprintf("%s: %d fact%s (parser %s)%s", path, facts,
			   facts == 1 ? "" : "s", dparse_origin(p),
			   f->status == FETCH_TRUNCATED ?
				   " (file cut at the size cap)" :
				   "");
	record(run, name, facts ? f->status : FETCH_ERROR, facts > 0,
	       facts ? detail : "no facts found in the file");
	if (!facts)
		diag_at(run->d, DIAG_WARNING, path, 0, 0, NULL,
			"read as %s (%s), but it holds nothing that parser reads",
			dparse_name(p), dparse_origin(p));
	free(detail);
	free(name);
	fetch_release(f);
	return 0;
}

/* Runs every site parser whose markers match f on it, but for those named
 * as a shipped format (the paste's blocks of that format were read by it);
 * the facts added. */
static int site_detected(struct collect_run *run, const char *path,
			 const struct fetch *f)
{
	int facts = 0;

	for (size_t i = 0; i < dparse_count(run->parsers); i++) {
		const struct dparse *p = dparse_at(run->parsers, i);
		char *name, *detail;
		struct emit e;
		int n;

		/* a paste's blocks of a shipped format are read by it */
		if (format_find(dparse_name(p)) ||
		    !dparse_markers_match(p, f->data, f->len))
			continue;
		emit_init(&e, run->fb, path);
		n = dparse_run(p, &e, f->data, f->len);
		name = xasprintf("site:%s", dparse_name(p));
		detail = xasprintf("%s: %d fact%s (parser %s)", path, n,
				   n == 1 ? "" : "s", dparse_origin(p));
		record(run, name, n ? f->status : FETCH_ERROR, n > 0, detail);
		free(detail);
		free(name);
		facts += n;
	}
	return facts;
}

int collect_file(struct collect_run *run, const char *path, const char *format)
{
	const struct format *fmt = NULL;
	struct blocks_summary sum = { 0 };
	struct fetch f;
	struct emit e;
	int facts, fd;
	char *detail;

	const struct dparse *site = format ? dparse_find(run->parsers, format) :
					     NULL;

	if (format && !site && !(fmt = format_find(format))) {
		struct strbuf sb = STRBUF_INIT;

		format_list_names(&sb);
		for (size_t i = 0; i < dparse_count(run->parsers); i++)
			sb_printf(&sb, ", %s",
				  dparse_name(dparse_at(run->parsers, i)));
		diag_error(run->d,
			   "unknown kind '%s' in '%s=%s'; known kinds: %s",
			   format, format, path, sb_str(&sb));
		sb_release(&sb);
		return -EINVAL;
	}
	if (run->progress) {
		char *step = xasprintf("reading %s", path);

		run->progress(run->arg, step);
		free(step);
	}
	if (open_loose(run, path, &fd, &f))
		return -EINVAL;
	if (compressed(&f)) {
		read_rest(fd, &f);
		fd = -1;
		if (decompress_loose(run, path, &f))
			return -EINVAL;
	}
	if (text_to_utf8(run, path, &fd, &f)) {
		if (fd >= 0)
			close(fd);
		fetch_release(&f);
		return -EINVAL;
	}
	if (site)
		return site_file(run, site, path, fd, &f);
	if (!fmt)
		fmt = whole_format(&f, fd >= 0 && f.len >= LOOSE_PIECE);
	emit_init(&e, run->fb, path);
	e.scan = run->scan;
	e.app_scan = app_scanner(run);
	if (fd >= 0 && fmt && !strcmp(fmt->name, "dmesg")) {
		facts = scan_log(fd, &f, &e, fmt);
	} else {
		if (fd >= 0)
			read_rest(fd, &f);
		/* blocks run the application-line scan (app_log is read in
		 * every block); a whole output read as one kind gets it here */
		if (!fmt || !strcmp(fmt->name, "transcript")) {
			facts = blocks_parse(&e, f.data, f.len, &sum);
		} else {
			facts = fmt->parse(&e, f.data, f.len, NULL);
			facts += loose_app_errors(&e, fmt, f.data, f.len, 1);
		}
	}
	/* a paste is also offered to the site parsers its lines match */
	if (!format)
		facts += site_detected(run, path, &f);
	if (!fmt && !sum.understood && !sum.recognised && !facts) {
		say_nothing_read(run, path, &f, &sum);
		blocks_summary_release(&sum);
		fetch_release(&f);
		return -EINVAL;
	}
	detail = xasprintf(
		"%s: %d fact%s%s%s%s", path, facts, facts == 1 ? "" : "s",
		f.status == FETCH_TRUNCATED ? " (file cut at the size cap)" : "",
		sum.detail.len ? "; " : "",
		sum.detail.len ? sb_str(&sum.detail) : "");
	record(run, fmt ? fmt->name : sum.format ? sum.format : "paste", facts ? f.status : FETCH_ERROR,
	       facts > 0, facts ? detail : "no facts found in the file");
	if (!facts)
		diag_at(run->d, DIAG_WARNING, path, 0, 0, NULL,
			"read as %s, but it holds nothing rdmadoctor understands",
			fmt ? fmt->name : "a paste");
	free(detail);
	blocks_summary_release(&sum);
	fetch_release(&f);
	return 0;
}

/* The adapter entry of the knowledge base for an hca: by PCI device id,
 * else by model (what ibstat prints as CA type); 0 when none. */
static uint32_t adapter_of(const struct fact_base *fb, const struct fact *h)
{
	static const char *const keys[][2] = {
		{ "pci_device_id", "pci_device_id" },
		{ "model", "model" },
	};
	uint32_t adapter = sym_intern_cstr("adapter");

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct value *key =
			fact_get(h, sym_intern_cstr(keys[i][0]));
		const uint32_t *hit;
		size_t k = 0;

		if (!key)
			continue;
		hit = fact_base_lookup(fb, adapter,
				       sym_intern_cstr(keys[i][1]), key, &k);
		if (k)
			return hit[0];
	}
	return 0;
}

/* The family an hca's running firmware names when nothing else tells
 * the adapter: the first field of the version is the device's
 * (kb/adapters.yaml fw_major, from the mlxup/MFT firmware tables), and
 * it is taken only when every entry with that major is of one family
 * (16 is ConnectX-5 and ConnectX-5 Ex, 2 ConnectX-3 and ConnectX-3 Pro:
 * no family then).  Those majors are NVIDIA's numbering: another
 * vendor's firmware may count the same (Broadcom's 20.x, 22.x), so the
 * hca must be NVIDIA's, by its PCI vendor id or, when none is known, by
 * an mlx4_/mlx5_ device name.  Returns an interned family name, or 0. */
static uint32_t family_of_fw_major(const struct fact_base *fb,
				   const struct fact *h)
{
	const struct value *fw = fact_get(h, sym_intern_cstr("fw_ver"));
	const struct value *vid = fact_get(h, sym_intern_cstr("vendor_id"));
	const struct value *nm = fact_get(h, sym_intern_cstr("name"));
	const char *v = vid ? value_text(vid) : NULL;
	const char *dev = nm ? value_text(nm) : NULL;
	const char *t = fw ? value_text(fw) : NULL, *dot;
	char *end;
	long major;
	const uint32_t *hit;
	size_t k = 0;
	uint32_t family = 0, fam = sym_intern_cstr("family");
	struct value key;

	if (v ? strcasecmp(v, "15b3") && strcasecmp(v, "0x15b3") :
		!dev || (strncmp(dev, "mlx4_", 5) && strncmp(dev, "mlx5_", 5)))
		return 0;
	if (!t || !(dot = strchr(t, '.')) || dot == t)
		return 0;
	errno = 0;
	major = strtol(t, &end, 10);
	if (errno || end != dot || major <= 0 || major > 0xffff)
		return 0;
	key = value_int(major);
	hit = fact_base_lookup(fb, sym_intern_cstr("adapter"),
			       sym_intern_cstr("fw_major"), &key, &k);
	for (size_t i = 0; i < k; i++) {
		const struct value *f = fact_get(fact_base_get(fb, hit[i]), fam);
		uint32_t name = f && value_text(f) ?
					sym_intern_cstr(value_text(f)) : 0;

		if (!name || (family && name != family))
			return 0;
		family = name;
	}
	return family;
}

/* The family an hca's board id names when no source showed its PCI
 * device id or model: the board entry of kb/boards.yaml with that PSID
 * (an MT_ PSID is one NVIDIA board, so it fixes the family, where a
 * firmware major may not: 16 is ConnectX-5 and ConnectX-5 Ex).  OEM PSIDs
 * have no board entry.  Returns an interned family name, or 0. */
static uint32_t family_of_psid(const struct fact_base *fb,
			       const struct fact *h)
{
	const struct value *psid = fact_get(h, sym_intern_cstr("psid"));
	const uint32_t *hit;
	const struct value *f;
	size_t k = 0;

	if (!psid || !value_text(psid))
		return 0;
	hit = fact_base_lookup(fb, sym_intern_cstr("board"),
			       sym_intern_cstr("psid"), psid, &k);
	if (!k)
		return 0;
	f = fact_get(fact_base_get(fb, hit[0]), sym_intern_cstr("family"));
	return f && value_text(f) ? sym_intern_cstr(value_text(f)) : 0;
}

/* Fields an hca takes from its adapter entry when no source showed them:
 * knowledge, not host evidence, so they carry no provenance. */
static const char *const from_adapter[] = { "family", "virtual_function" };

/* Fields an hca takes from another fact of the same adapter, with that
 * fact's provenance: ethtool -i's netdev (tied by PCI address) and a
 * firmware query (fw_image, by PCI address).  fw_image's fw_ver is the
 * flash, which runs unless flint printed a separate running version. */
static const struct borrow {
	const char *kind, *hca_field, *field;
	const char *unless; /* skip when the other fact has this field */
} borrows[] = {
	{ "netdev", "fw_ver", "fw_ver", NULL },
	{ "netdev", "psid", "psid", NULL },
	{ "fw_image", "fw_ver", "fw_running", NULL },
	{ "fw_image", "fw_ver", "fw_ver", "fw_running" },
	{ "fw_image", "psid", "psid", NULL },
	{ "fw_image", "pci_device_id", "pci_device_id", NULL },
};

/* Records that fact id's field holds kept while another source (a fact
 * of kind other_kind, whose field is fl) gives a different value: both
 * values stay, and rules can judge the disagreement. */
static void note_disagreement(struct fact_base *fb, uint32_t id,
			      const char *field, const char *other_kind,
			      const struct field *fl)
{
	const struct fact *h = fact_base_get(fb, id);
	const struct value *kept = fact_get(h, sym_intern_cstr(field));
	const char *name = fact_text(h, "name");
	const char *a = kept ? value_text(kept) : NULL,
		   *b = value_text(&fl->v);
	struct fact *d;
	bool added;

	if (!a || !b || !name || !strcmp(a, b))
		return;
	d = fact_base_begin(fb, sym_intern_cstr("disagreement"), fl->prov.src,
			    fl->prov.line, fl->prov.text,
			    fl->prov.text ? strlen(fl->prov.text) : 0);
	fact_put(fb, d, sym_intern_cstr("kind"),
		 value_cstr(sym_str(h->kind)), 0, NULL, 0);
	fact_put(fb, d, sym_intern_cstr("entity"), value_cstr(name), 0, NULL,
		 0);
	fact_put(fb, d, sym_intern_cstr("field"), value_cstr(field), 0, NULL,
		 0);
	fact_put_at(fb, d, sym_intern_cstr("value"), value_cstr(a),
		    fact_field(h, sym_intern_cstr(field))->prov.src,
		    fact_field(h, sym_intern_cstr(field))->prov.line,
		    fact_field(h, sym_intern_cstr(field))->prov.text,
		    fact_field(h, sym_intern_cstr(field))->prov.text ?
			    strlen(fact_field(h, sym_intern_cstr(field))
					   ->prov.text) :
			    0);
	fact_put(fb, d, sym_intern_cstr("other"), value_cstr(b), 0, NULL, 0);
	fact_put(fb, d, sym_intern_cstr("other_kind"),
		 value_cstr(other_kind), 0, NULL, 0);
	fact_base_commit(fb, d, &added);
}

static void borrow_fields(struct fact_base *fb, uint32_t id)
{
	uint32_t pci = sym_intern_cstr("pci");

	for (size_t b = 0; b < ARRAY_SIZE(borrows); b++) {
		const struct fact *h = fact_base_get(fb, id);
		const struct value *addr = fact_get(h, pci);
		const uint32_t *ids;
		size_t n;

		if (!addr)
			return;
		ids = fact_base_lookup(fb, sym_intern_cstr(borrows[b].kind),
				       pci, addr, &n);
		for (size_t i = 0; i < n; i++) {
			const struct fact *o = fact_base_get(fb, ids[i]);
			const struct field *fl =
				fact_field(o, sym_intern_cstr(borrows[b].field));

			if (!fl || (borrows[b].unless &&
				    fact_get(o, sym_intern_cstr(
							borrows[b].unless))))
				continue;
			if (fact_base_enrich(fb, id,
					     sym_intern_cstr(borrows[b].hca_field),
					     fl->v, &fl->prov) == -EEXIST)
				note_disagreement(fb, id, borrows[b].hca_field,
						  borrows[b].kind, fl);
			break;
		}
	}
}

/* Logical port states that need a physical link: the InfiniBand port
 * state machine leaves DOWN only once the physical link is up, so a port
 * in one of these has phys_state LINKUP even when the output was cut
 * before that line. */
static const char *const linked_states[] = { "INIT", "ARMED", "ACTIVE" };

/* Fields a port implies when no source showed them: a physical link
 * from its logical state (cited from the state line), and an Ethernet
 * link layer on a family without InfiniBand (max_rate_ib_gbps 0 in
 * kb/adapters.yaml: ConnectX-4 Lx, ConnectX-6 Dx, ...). */
static void imply_port_fields(struct fact_base *fb, uint32_t id)
{
	uint32_t state = sym_intern_cstr("state"),
		 phys = sym_intern_cstr("phys_state");
	uint32_t ll = sym_intern_cstr("link_layer"),
		 name = sym_intern_cstr("name");
	const struct fact *p = fact_base_get(fb, id);
	const struct field *st = fact_field(p, state);
	const struct value *dev = fact_get(p, sym_intern_cstr("hca"));
	bool linked = false, ethernet = false;
	struct prov st_prov = { 0, 0, NULL };

	/* Everything is read before the fact grows: enriching it may move
	 * its fields, and p, st and dev with them. */
	for (size_t i = 0; st && i < ARRAY_SIZE(linked_states); i++) {
		const char *t = value_text(&st->v);

		if (t && !strcmp(t, linked_states[i])) {
			linked = true;
			st_prov = st->prov;
			break;
		}
	}
	if (dev && !fact_get(p, ll)) {
		const uint32_t *hcas;
		size_t n;
		uint32_t a;
		const struct value *ib;

		hcas = fact_base_lookup(fb, sym_intern_cstr("hca"), name, dev,
					&n);
		a = n ? adapter_of(fb, fact_base_get(fb, hcas[0])) : 0;
		ib = a ? fact_get(fact_base_get(fb, a),
				  sym_intern_cstr("max_rate_ib_gbps")) :
			 NULL;
		ethernet = ib && ((ib->type == VALUE_NUMBER && ib->n == 0) ||
				  (ib->type == VALUE_INT && ib->i == 0));
	}
	if (linked)
		fact_base_enrich(fb, id, phys, value_cstr("LINKUP"), &st_prov);
	if (ethernet)
		fact_base_enrich(fb, id, ll, value_cstr("Ethernet"), NULL);
}

/* How the kernel prefixes a message about an RDMA device itself:
 * dev_printk() names a device without driver or bus by its class, and
 * ib_core registers its devices in the class "infiniband"
 * (drivers/infiniband/core/device.c, ib_class), so "infiniband mlx5_0:
 * ..." names a registered device (ibdev_printk() falls back to it too). */
static const char ib_class_prefix[] = "infiniband ";

/* The RDMA device a driver's own line about its PCI function names:
 * hfi1's and qib's dd_dev_info() and kin print dev_info(pci, "%s: " fmt,
 * unit name), the unit named as the driver names its devices ("hfi1_0",
 * "qib0" of driver ib_qib: DRIVER_NAME "_%d", rvt_get_ibdev_name(),
 * get_unit_name(); linux drivers/infiniband/hw/hfi1/hfi.h, qib/qib.h),
 * so "hfi1 0000:d8:00.0:
 * hfi1_0: ..." is device hfi1_0 of driver hfi1 at 0000:d8:00.0.  True
 * with the name and the driver's length set. */
static bool unit_of_driver_line(const char *text, const char *pci,
				size_t *name_at, size_t *name_len,
				size_t *driver_len)
{
	const char *sp = strchr(text, ' ');
	size_t d, pl = strlen(pci), i;

	if (!sp || sp == text || (size_t)(sp - text) > 32)
		return false;
	d = (size_t)(sp - text);
	if (strncmp(sp + 1, pci, pl) || strncmp(sp + 1 + pl, ": ", 2))
		return false;
	i = d + 1 + pl + 2;
	*name_at = i;
	if (!strncmp(text + i, text, d))
		i += d;
	else if (d > 3 && !strncmp(text, "ib_", 3) &&
		 !strncmp(text + i, text + 3, d - 3))
		i += d - 3; /* ib_qib names its units qib0 */
	else
		return false;
	if (text[i] == '_')
		i++;
	if (!isdigit((unsigned char)text[i]))
		return false;
	while (isdigit((unsigned char)text[i]) && i - *name_at < 40)
		i++;
	if (text[i] != ':')
		return false;
	*name_len = i - *name_at;
	*driver_len = d;
	return true;
}

/* The devices the kernel log names by that prefix, as hca facts cited
 * from their first line, when no other source showed an adapter: the log
 * is history, and a device it names may since have gone or been renamed,
 * so a present listing (sysfs, ibv_devices, ibstat) is the picture when
 * there is one. */
static void hcas_of_kernel_log(struct fact_base *fb)
{
	const size_t plen = sizeof(ib_class_prefix) - 1;
	uint32_t hca = sym_intern_cstr("hca"), name = sym_intern_cstr("name");
	const uint32_t *ids;
	uint32_t *logs;
	size_t n, k;

	fact_base_of_kind(fb, hca, &k);
	if (k)
		return;
	ids = fact_base_of_kind(fb, sym_intern_cstr("log"), &n);
	/* the base grows below: its index may move */
	logs = xmalloc((n ? n : 1) * sizeof(*logs));
	if (n)
		memcpy(logs, ids, n * sizeof(*logs));
	for (size_t i = 0; i < n; i++) {
		const struct fact *l = fact_base_get(fb, logs[i]);
		const char *text = fact_text(l, "text"),
			   *dev = fact_text(l, "device");
		uint32_t src = l->prov.src, line = l->prov.line;
		char *at, *cited;
		struct fact *f;
		size_t dl;
		bool added;

		size_t name_at, name_len, driver_len;
		char *pci = NULL, *driver = NULL;

		if (!text || !dev)
			continue;
		dl = strlen(dev);
		if (!dl || dl >= 64)
			continue;
		if (!strncmp(text, ib_class_prefix, plen) &&
		    !strncmp(text + plen, dev, dl) && text[plen + dl] == ':') {
			at = xstrdup(dev);
		} else if (unit_of_driver_line(text, dev, &name_at, &name_len,
					       &driver_len)) {
			at = xstrndup(text + name_at, name_len);
			pci = xstrdup(dev);
			driver = xstrndup(text, driver_len);
		} else {
			continue;
		}
		cited = l->prov.text ? xstrdup(l->prov.text) : NULL;
		f = fact_base_begin(fb, hca, src, line, cited,
				    cited ? strlen(cited) : 0);
		fact_put(fb, f, name, value_cstr(at), line, cited,
			 cited ? strlen(cited) : 0);
		if (pci)
			fact_put(fb, f, sym_intern_cstr("pci"), value_cstr(pci),
				 line, cited, cited ? strlen(cited) : 0);
		if (driver)
			fact_put(fb, f, sym_intern_cstr("driver"),
				 value_cstr(driver), line, cited,
				 cited ? strlen(cited) : 0);
		fact_base_commit(fb, f, &added);
		free(cited);
		free(at);
		free(pci);
		free(driver);
	}
	free(logs);
}

/* Completes each hca from the knowledge base (family, virtual function,
 * by PCI id or model, else the family alone by board id (PSID), else by
 * firmware major) and from
 * other sources' facts of the same adapter
 * (firmware and PSID from ethtool -i or a firmware query), then each
 * port with the fields its evidence implies, through fact_base_enrich: a
 * field a source already set is never replaced. */
void collect_enrich(struct fact_base *fb)
{
	uint32_t hca = sym_intern_cstr("hca");
	size_t n;
	const uint32_t *ids;

	hcas_of_kernel_log(fb);
	ids = fact_base_of_kind(fb, hca, &n);
	for (size_t i = 0; i < n; i++) {
		uint32_t id = ids[i], a;

		borrow_fields(fb, id);
		a = adapter_of(fb, fact_base_get(fb, id));
		if (!a) {
			uint32_t f = family_of_psid(fb, fact_base_get(fb, id));

			if (!f)
				f = family_of_fw_major(fb,
						       fact_base_get(fb, id));

			if (f)
				fact_base_enrich(fb, id, sym_intern_cstr("family"),
						 value_cstr(sym_str(f)), NULL);
		}
		for (size_t k = 0; a && k < ARRAY_SIZE(from_adapter); k++) {
			const struct field *fl =
				fact_field(fact_base_get(fb, a),
					   sym_intern_cstr(from_adapter[k]));

			if (fl)
				fact_base_enrich(fb, id, fl->name, fl->v, NULL);
		}
	}
	ids = fact_base_of_kind(fb, sym_intern_cstr("port"), &n);
	for (size_t i = 0; i < n; i++)
		imply_port_fields(fb, ids[i]);
}

void collect_finish(struct collect_run *run)
{
	uint32_t kind = sym_intern_cstr("collector");
	uint32_t src = fact_base_source(run->fb, "collectors");

	for (size_t i = 0; i < run->n; i++) {
		struct outcome *o = &run->outcomes[i];
		const char *st = fetch_status_to_str(o->status);
		char *line = xasprintf("%s: %s, %s", o->name, st, o->detail);
		struct fact *f =
			fact_base_begin(run->fb, kind, src, (uint32_t)i + 1,
					line, strlen(line));
		bool added;

		free(line);
		fact_put(run->fb, f, sym_intern_cstr("name"),
			 value_cstr(o->name), 0, NULL, 0);
		fact_put(run->fb, f, sym_intern_cstr("status"), value_cstr(st),
			 0, NULL, 0);
		fact_put(run->fb, f, sym_intern_cstr("detail"),
			 value_cstr(o->detail), 0, NULL, 0);
		fact_base_commit(run->fb, f, &added);
		free(o->name);
		free(o->detail);
	}
	free(run->outcomes);
	logscan_free(run->app_scan);
	free(run);
}

static bool produces(const char *kinds, const char *kind)
{
	size_t n = strlen(kind);

	for (const char *p = kinds; (p = strstr(p, kind)); p += n)
		if ((p == kinds || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

bool collect_kind_missing(const struct fact_base *fb, const char *kind,
			  struct strbuf *inputs)
{
	uint32_t ksym = sym_intern_cstr("collector"),
		 name = sym_intern_cstr("name");
	uint32_t status = sym_intern_cstr("status");
	bool any = false, all_missing = true;

	for (size_t i = 0; i < ARRAY_SIZE(collectors) + format_count(); i++) {
		const char *cname, *kinds, *in;
		const uint32_t *ids;
		struct value v;
		size_t n;

		if (i < ARRAY_SIZE(collectors)) {
			cname = collectors[i].name;
			kinds = collectors[i].kinds;
			in = collectors[i].inputs;
		} else {
			cname = format_at(i - ARRAY_SIZE(collectors))->name;
			kinds = format_at(i - ARRAY_SIZE(collectors))->kinds;
			in = format_at(i - ARRAY_SIZE(collectors))->what;
		}
		if (!produces(kinds, kind))
			continue;
		any = true;
		v = value_cstr(cname);
		ids = fact_base_lookup(fb, ksym, name, &v, &n);
		if (n) {
			const char *st = value_text(
				fact_get(fact_base_get(fb, ids[0]), status));

			if (st &&
			    (!strcmp(st, "ok") || !strcmp(st, "truncated")))
				all_missing = false;
		}
		if (inputs && !strstr(sb_str(inputs), in))
			sb_printf(inputs, "%s%s", inputs->len ? ", " : "", in);
	}
	return any && all_missing;
}

size_t collect_collector_count(void)
{
	return ARRAY_SIZE(collectors);
}

const char *collect_collector_at(size_t i, const char **inputs,
				 const char **kinds)
{
	if (i >= ARRAY_SIZE(collectors))
		return NULL;
	*inputs = collectors[i].inputs;
	*kinds = collectors[i].kinds;
	return collectors[i].name;
}
