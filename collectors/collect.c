/* Collection runs: the collector table, loose files, collector statuses
 * and the knowledge-base enrichment of collected facts. */
#include "collectors/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/sources/archive.h"
#include "collectors/collector.h"
#include "collectors/parsers/factfile.h"
#include "collectors/parsers/formats.h"
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
	struct diag *d;
	collect_progress_fn progress;
	void *arg;
	unsigned opt_in; /* COLLECT_* */
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

void collect_run_allow(struct collect_run *run, unsigned opt_in)
{
	run->opt_in |= opt_in;
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

	if (!fmt)
		return 0;
	emit_init(&e, c->fb, f->where);
	e.scan = c->run->scan;
	return fmt->parse(&e, f->data, f->len, arg);
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

void collect_source(struct collect_run *run, struct source *src)
{
	struct col_ctx c = { run, src, run->fb, run->d, "", 0, "" };
	bool live = source_is_live(src);
	struct snapshot *rec = source_recorder(src);

	for (size_t i = 0; i < ARRAY_SIZE(collectors); i++) {
		struct col_status st = { 0, false, STRBUF_INIT };
		unsigned where = collectors[i].where & ~COL_PERFTEST;
		bool opt_in = collectors[i].where & COL_PERFTEST;

		/* A bundle holds the test only when collect ran it. */
		if (opt_in && live && !(run->opt_in & COLLECT_PERFTEST))
			continue;
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

/* Scans a kernel log piece by piece, from the first piece in f on, cutting
 * at newlines, and closes fd: a log of any size in constant memory.
 * Returns the facts added. */
static int scan_log(int fd, struct fetch *f, struct emit *e)
{
	struct log_stream *s = log_stream_new(e);
	char *buf = f->data;
	size_t have = f->len;
	bool end = have < LOOSE_PIECE;

	for (;;) {
		const char *nl = end ? NULL : memrchr(buf, '\n', have);
		size_t cut = nl ? (size_t)(nl - buf) + 1 : have;
		ssize_t n;

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
	return log_stream_end(s);
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
	       (f->len >= 3 && !memcmp(p, "BZh", 3));
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

static void known_kinds(struct strbuf *sb)
{
	for (size_t i = 0; i < format_count(); i++)
		sb_printf(sb, "%s%s", i ? ", " : "", format_at(i)->name);
}

int collect_file(struct collect_run *run, const char *path, const char *format)
{
	const struct format *fmt = NULL;
	struct fetch f;
	struct emit e;
	int score = 100, facts, fd;
	char *detail;

	if (format && !(fmt = format_find(format))) {
		struct strbuf sb = STRBUF_INIT;

		known_kinds(&sb);
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
	if (!fmt && !(fmt = format_detect(f.data, f.len, &score))) {
		struct strbuf sb = STRBUF_INIT;

		known_kinds(&sb);
		diag_at(run->d, DIAG_ERROR, path, 0, 0, NULL,
			"cannot tell what this file holds; name its kind as KIND=%s, where KIND is one of: %s",
			path, sb_str(&sb));
		sb_release(&sb);
		if (fd >= 0)
			close(fd);
		fetch_release(&f);
		return -EINVAL;
	}
	emit_init(&e, run->fb, path);
	e.scan = run->scan;
	if (fd >= 0 && !strcmp(fmt->name, "dmesg")) {
		facts = scan_log(fd, &f, &e);
	} else {
		if (fd >= 0)
			read_rest(fd, &f);
		facts = fmt->parse(&e, f.data, f.len, NULL);
	}
	detail =
		xasprintf("%s: %d fact%s%s", path, facts, facts == 1 ? "" : "s",
			  f.status == FETCH_TRUNCATED ?
				  " (file cut at the size cap)" :
				  "");
	record(run, fmt->name, facts ? f.status : FETCH_ERROR, facts > 0,
	       facts ? detail : "no facts found in the file");
	if (!facts)
		diag_at(run->d, DIAG_WARNING, path, 0, 0, NULL,
			"read as %s, but it holds nothing rdmadoctor understands",
			fmt->name);
	free(detail);
	fetch_release(&f);
	return 0;
}

/* hca.family from the adapter entries of the knowledge base, by PCI id,
 * else by model. */
void collect_enrich(struct fact_base *fb)
{
	uint32_t hca = sym_intern_cstr("hca"),
		 adapter = sym_intern_cstr("adapter");
	uint32_t model = sym_intern_cstr("model"),
		 family = sym_intern_cstr("family");
	uint32_t devid = sym_intern_cstr("pci_device_id");
	size_t n;
	const uint32_t *ids = fact_base_of_kind(fb, hca, &n);

	for (size_t i = 0; i < n; i++) {
		struct fact *h = (struct fact *)fact_base_get(fb, ids[i]);
		const struct value *key = fact_get(h, devid);
		const uint32_t *hit;
		size_t k = 0;

		if (fact_get(h, family))
			continue;
		hit = key ? fact_base_lookup(fb, adapter, devid, key, &k) :
			    NULL;
		if (!k && (key = fact_get(h, model)))
			hit = fact_base_lookup(fb, adapter, model, key, &k);
		if (k) {
			const struct fact *a = fact_base_get(fb, hit[0]);
			const struct field *fam = fact_field(a, family);

			/* No provenance: the family is knowledge, not host
			 * evidence. */
			if (fam)
				fact_put_at(fb, h, family, fam->v, 0, 0, NULL,
					    0);
		}
	}
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
