/* Application and library error lines (NCCL, UCX, libfabric, Open MPI,
 * SPDK, Lustre, librdmacm, libibverbs, perftest), found anywhere in a text
 * behind whatever prefix a log or a launcher put before them.  The
 * patterns are the app_message entries of the knowledge base; their named
 * groups become the fields of app_error facts, and numbers printed as
 * text are read back: an errno from its strerror text through the C
 * library's own table, a completion status from the kb/wc_status.yaml
 * spellings.  Equal lines are counted in one fact.  A locked-memory limit
 * a line reports becomes the application's limits fact.  A line that no
 * specific entry matches is tried with the fallback entries, which know
 * classes of error line rather than one program's message (a failed verbs
 * call, a completion status, an errno on an RDMA object): the first of
 * them that reads what it requires gives the line's one fact, with the
 * program and device that kb/app_context.yaml reads from the line. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "collectors/parsers/parse_app.h"
#include "engine/regex.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define APP_LINE_MAX 4096 /* @@ bytes of a line looked at */
#define APP_HITS_MAX 16 /* @@ messages matched per line */
#define APP_EVENTS_MAX 2000 /* @@ distinct app_error facts per text */
#define APP_EVENT_SLOTS 4096 /* @@ hash slots of the events (a power of 2, > twice APP_EVENTS_MAX) */
#define APP_VALUE_MAX 128 /* @@ bytes of one captured value */
#define ERRNO_MAX 256 /* @@ errno values read back from their text */
#define APP_WITHIN_MAX 24 /* @@ lines after a hit its 'then' pattern reads */
#define APP_WITHIN_DEFAULT 8 /* @@ ... when the entry names no 'within' */
#define APP_DETAIL_MAX 512 /* @@ bytes of the lines 'then' matched */
#define APP_PORTS_MAX 64 /* @@ ports one line lists */
#define APP_CONTEXT_MAX 128 /* @@ app_context entries used */
#define APP_COMMAND_MAX 1024 /* @@ bytes of a block's command line read */

/* The named groups a pattern may use, in the order of struct values. */
enum capture {
	CAP_CALL,
	CAP_STATUS,
	CAP_ERRNO,
	CAP_ERRNO_TEXT,
	CAP_WC_STATUS,
	CAP_WC_STATUS_TEXT,
	CAP_VENDOR_ERR,
	CAP_DEVICE,
	CAP_PORT,
	CAP_GID_INDEX,
	CAP_PEER,
	CAP_TRANSPORT,
	CAP_MEMLOCK_KB,
	CAP_MEMLOCK_BYTES,
	CAP_APP,
	CAP_COUNT
};

static const char *const capture_names[CAP_COUNT] = {
	[CAP_CALL] = "call",
	[CAP_STATUS] = "status",
	[CAP_ERRNO] = "errno",
	[CAP_ERRNO_TEXT] = "errno_text",
	[CAP_WC_STATUS] = "wc_status",
	[CAP_WC_STATUS_TEXT] = "wc_status_text",
	[CAP_VENDOR_ERR] = "vendor_err",
	[CAP_DEVICE] = "device",
	[CAP_PORT] = "port",
	[CAP_GID_INDEX] = "gid_index",
	[CAP_PEER] = "peer",
	[CAP_TRANSPORT] = "transport",
	[CAP_MEMLOCK_KB] = "memlock_kb",
	[CAP_MEMLOCK_BYTES] = "memlock_bytes",
	[CAP_APP] = "app",
};

/* What a fallback entry must have read for its hit to stand
 * (app_message 'requires'). */
enum need {
	NEED_ERRNO = 1 << 0,
	NEED_WC_STATUS = 1 << 1,
	NEED_VENDOR_ERR = 1 << 2,
	NEED_CALL = 1 << 3,
};

static const struct {
	const char *name;
	unsigned bit;
} need_names[] = {
	{ "errno", NEED_ERRNO },
	{ "wc_status", NEED_WC_STATUS },
	{ "vendor_err", NEED_VENDOR_ERR },
	{ "call", NEED_CALL },
};

/* One distinct message with its values, and how often it occurred. */
struct event {
	size_t msg; /* scanner index */
	char cap[CAP_COUNT][APP_VALUE_MAX];
	char detail[APP_DETAIL_MAX];
	long count;
	char *line; /* the first line, owned */
	struct line where; /* where.p is line */
};

/* An entry's follow-up and port-list patterns, compiled on its first
 * hit. */
struct follow {
	bool tried;
	struct regex *re; /* owned; NULL when the entry has none */
	long within;
	struct regex *ports; /* owned; NULL when the entry has none */
	bool fallback; /* a fallback entry (and what it reads and needs) */
	struct regex *unless; /* owned; NULL when the entry has none */
	bool read_errno_text, read_wc_text;
	bool names_app; /* its app is a program, not 'unknown' */
	unsigned requires; /* enum need bits, any of which will do */
	bool hash_lines; /* also matches a line that starts with '#' */
};

/* One kb/app_context.yaml entry: what it fills and how. */
struct context {
	enum capture field;
	const char *value; /* borrowed from the kb; NULL: the group */
	struct regex *re; /* owned */
	bool on_command; /* matched against the block's command line */
};

struct app_scan {
	struct emit *e;
	struct logscan *ls;
	struct event *events;
	size_t nevents, capevents;
	uint32_t *slots; /* APP_EVENT_SLOTS of event index + 1, 0 free; owned */
	struct follow *follows; /* one per scanner entry, owned */
	const char *covered; /* lines before this one were read by a 'then' */
	const char *specific_end; /* end of the last line a specific entry hit */
	bool context_loaded;
	struct context *contexts; /* owned */
	size_t ncontexts;
	bool errno_loaded;
	bool errno_known[ERRNO_MAX]; /* errnos kb/errno_meanings.yaml lists */
};

/* The app_message entry of scanner entry msg; NULL when the kb has none. */
static const struct fact *entry_of(const struct app_scan *sc, size_t msg)
{
	struct value key = value_cstr(logscan_id(sc->ls, msg));
	size_t n;
	const uint32_t *hit =
		fact_base_lookup(sc->e->fb, sym_intern_cstr("app_message"),
				 sym_intern_cstr("id"), &key, &n);

	return n ? fact_base_get(sc->e->fb, hit[0]) : NULL;
}

/* Whether the list field of m names word. */
static bool lists(const struct fact *m, const char *field, const char *word)
{
	const struct value *v = fact_get(m, sym_intern_cstr(field));

	for (size_t i = 0; v && v->type == VALUE_LIST && i < v->list->n; i++) {
		const char *t = value_text(&v->list->items[i]);

		if (t && !strcmp(t, word))
			return true;
	}
	return false;
}

/* Reads what makes entry m a fallback into fw. */
static void fallback_of(struct follow *fw, const struct fact *m)
{
	const struct value *v = fact_get(m, sym_intern_cstr("fallback"));
	const char *unless, *app;
	char err[128];
	size_t off;

	fw->fallback = v && v->type == VALUE_BOOL && v->b;
	if (!fw->fallback)
		return;
	if ((unless = fact_text(m, "unless")))
		fw->unless = regex_compile(unless, 0, err, sizeof(err), &off);
	fw->read_errno_text = lists(m, "reads", "errno_text");
	fw->read_wc_text = lists(m, "reads", "wc_status_text");
	app = fact_text(m, "app");
	fw->names_app = app && strcmp(app, "unknown");
	for (size_t i = 0; i < sizeof(need_names) / sizeof(need_names[0]); i++)
		if (lists(m, "requires", need_names[i].name))
			fw->requires |= need_names[i].bit;
}

/* The follow-up pattern of entry msg, compiled once (the kb load has
 * already checked it, so a failure here only leaves it out). */
static const struct follow *follow_of(struct app_scan *sc, size_t msg)
{
	struct follow *fw = &sc->follows[msg];
	const struct fact *m;
	const char *then;
	const struct value *w;
	char err[128];
	size_t off;

	if (fw->tried)
		return fw;
	fw->tried = true;
	if (!(m = entry_of(sc, msg)))
		return fw;
	fallback_of(fw, m);
	w = fact_get(m, sym_intern_cstr("hash_lines"));
	fw->hash_lines = w && w->type == VALUE_BOOL && w->b;
	if ((then = fact_text(m, "ports")))
		fw->ports = regex_compile(then, 0, err, sizeof(err), &off);
	if (!(then = fact_text(m, "then")))
		return fw;
	fw->re = regex_compile(then, 0, err, sizeof(err), &off);
	w = fact_get(m, sym_intern_cstr("within"));
	fw->within = w && w->type == VALUE_INT ? w->i : APP_WITHIN_DEFAULT;
	if (fw->within < 1 || fw->within > APP_WITHIN_MAX)
		fw->within = APP_WITHIN_MAX;
	return fw;
}

/* Copies group g of m (subject s) into out, trimmed, when it took part
 * (a name a pattern uses twice, under (?J), names several groups). */
static void group_text(const struct regex_match *m, int g, const char *s,
		       char *out, size_t size)
{
	struct line t;

	if (g <= 0 || g >= m->ngroups || m->start[g] < 0)
		return;
	t = line_trim((struct line){ s + m->start[g],
				     (size_t)(m->end[g] - m->start[g]), 0 });
	line_copy(&t, out, size);
}

/* Fills the fields of cap still empty from the named groups of m. */
static void captures_of(const struct regex *re, const struct regex_match *m,
			const char *s, char cap[CAP_COUNT][APP_VALUE_MAX])
{
	int n = regex_name_count(re);

	for (int i = 0; i < n; i++) {
		int g;
		const char *name = regex_name_at(re, i, &g);

		for (size_t c = 0; name && c < CAP_COUNT; c++)
			if (!cap[c][0] && !strcmp(name, capture_names[c]))
				group_text(m, g, s, cap[c], APP_VALUE_MAX);
	}
}

/* Reads the lines after a hit (it is a copy of the scan's iterator) with
 * the entry's follow-up pattern: the groups of each line that matches fill
 * the fields still empty, and the line joins detail. */
static void follow_up(const struct follow *fw, struct lines it,
		      char cap[CAP_COUNT][APP_VALUE_MAX], char *detail,
		      size_t size, const char **covered)
{
	struct line ln;
	size_t used = 0;

	detail[0] = '\0';
	for (long i = 0; fw->re && i < fw->within && lines_next(&it, &ln);
	     i++) {
		struct regex_match m;
		struct line t;

		if (ln.len > APP_LINE_MAX)
			ln.len = APP_LINE_MAX;
		if (regex_match(fw->re, ln.p, ln.len, &m) != 1)
			continue;
		captures_of(fw->re, &m, ln.p, cap);
		if (ln.p + ln.len > *covered)
			*covered = ln.p + ln.len;
		t = line_trim(ln);
		if (used + t.len + 4 >= size)
			break;
		if (used) {
			memcpy(detail + used, " | ", 3);
			used += 3;
		}
		memcpy(detail + used, t.p, t.len);
		used += t.len;
		detail[used] = '\0';
	}
}

static bool same_event(const struct event *ev, size_t msg,
		       char cap[CAP_COUNT][APP_VALUE_MAX])
{
	if (ev->msg != msg)
		return false;
	for (size_t c = 0; c < CAP_COUNT; c++)
		if (strcmp(ev->cap[c], cap[c]))
			return false;
	return true;
}

/* FNV-1a over the entry and its values: equal events hash equal. */
static uint32_t event_hash(size_t msg, char cap[CAP_COUNT][APP_VALUE_MAX])
{
	uint32_t h = 2166136261u ^ (uint32_t)msg;

	h *= 16777619u;
	for (size_t c = 0; c < CAP_COUNT; c++) {
		for (const char *p = cap[c]; *p; p++)
			h = (h ^ (unsigned char)*p) * 16777619u;
		h = (h ^ 0xffu) * 16777619u; /* ends each value */
	}
	return h;
}

/* Counts the hit of entry msg on line ln with the values cap, as a new
 * event or one more of an equal one (found through the hash slots, so a
 * log of many distinct lines costs no search of every event). */
static void add_event(struct app_scan *sc, size_t msg,
		      char cap[CAP_COUNT][APP_VALUE_MAX], const char *detail,
		      const struct line *ln)
{
	uint32_t mask = APP_EVENT_SLOTS - 1, at;
	struct event *ev;

	if (!sc->slots)
		sc->slots = xcalloc(APP_EVENT_SLOTS, sizeof(*sc->slots));
	for (at = event_hash(msg, cap) & mask; sc->slots[at];
	     at = (at + 1) & mask) {
		ev = &sc->events[sc->slots[at] - 1];
		if (same_event(ev, msg, cap)) {
			ev->count++;
			return;
		}
	}
	if (sc->nevents >= APP_EVENTS_MAX)
		return;
	xgrow(&sc->events, &sc->capevents, sc->nevents + 1,
	      sizeof(*sc->events));
	ev = &sc->events[sc->nevents++];
	sc->slots[at] = (uint32_t)sc->nevents;
	ev->msg = msg;
	memcpy(ev->cap, cap, sizeof(ev->cap));
	snprintf(ev->detail, sizeof(ev->detail), "%s", detail);
	ev->count = 1;
	ev->line = xstrndup(ln->p, ln->len);
	ev->where = *ln;
	ev->where.p = ev->line;
}

static void context_pass(struct app_scan *sc, const char *t, size_t n,
			 bool on_command, bool keep_app,
			 char cap[CAP_COUNT][APP_VALUE_MAX]);
static const char *command_of(const struct app_scan *sc, size_t *n);

static void count_hit(struct app_scan *sc, size_t msg, const char *text,
		      const struct logscan_hit *h, const struct line *ln,
		      const struct lines *after)
{
	char cap[CAP_COUNT][APP_VALUE_MAX];
	char detail[APP_DETAIL_MAX];

	memset(cap, 0, sizeof(cap));
	captures_of(logscan_regex(sc->ls, msg), &h->m, text, cap);
	follow_up(follow_of(sc, msg), *after, cap, detail, sizeof(detail),
		  &sc->covered);
	/* the device the command was given, when the line names none */
	if (!cap[CAP_DEVICE][0]) {
		size_t n;
		const char *cmd = command_of(sc, &n);

		context_pass(sc, cmd, n, true, true, cap);
	}
	add_event(sc, msg, cap, detail, ln);
}

/* A number as the line prints it: decimal, or hex after 0x; false when
 * s is not one. */
static bool number_of(const char *s, long long *out)
{
	char *end;
	int base = 10;

	if (s[0] == '-' || s[0] == '+')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)s[base == 16 ? 2 : 0]))
		return false;
	errno = 0;
	*out = strtoll(s, &end, base);
	return !errno && !*end && *out >= 0;
}

/* The errno whose strerror text ("Cannot allocate memory", with a
 * trailing period or not) or symbolic name ("EINVAL") is s, from the C
 * library's tables; 0 when none. */
static int errno_of_text(const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '.' || s[n - 1] == ' '))
		n--;
	for (int e = 1; n && e < ERRNO_MAX; e++) {
		const char *d = strerrordesc_np(e), *name = strerrorname_np(e);

		if ((d && strlen(d) == n && !strncasecmp(d, s, n)) ||
		    (name && strlen(name) == n && !strncmp(name, s, n)))
			return e;
	}
	return 0;
}

/* The errno the captured number or text gives; 0 when none. */
static int errno_of(char cap[CAP_COUNT][APP_VALUE_MAX])
{
	long long num = 0;

	if (!cap[CAP_ERRNO][0] || !number_of(cap[CAP_ERRNO], &num))
		num = cap[CAP_ERRNO_TEXT][0] ? errno_of_text(cap[CAP_ERRNO_TEXT]) :
					       0;
	return num > 0 && num < ERRNO_MAX ? (int)num : 0;
}

static void emit_errno(struct emit *e, struct fact *f,
		       char cap[CAP_COUNT][APP_VALUE_MAX],
		       const struct line *ln)
{
	int num = errno_of(cap);
	const char *name;

	if (!num)
		return;
	emit_int(e, f, "errno", num, ln);
	if ((name = strerrorname_np(num)))
		emit_str(e, f, "errno_name", name, strlen(name), ln);
}

/* Whether s names the completion status w: its number, its enum name
 * (IBV_WC_ may be left out), its ibv_wc_status_str() text, or one of the
 * spellings other libraries print (kb aliases), in any case. */
static bool names_status(const struct fact *w, const char *s, bool by_text)
{
	const char *name = fact_text(w, "name"), *text = fact_text(w, "text");
	const struct value *aliases = fact_get(w, sym_intern_cstr("aliases"));
	long long num;

	if (!by_text && number_of(s, &num)) {
		const struct value *v = fact_get(w, sym_intern_cstr("number"));

		return v && v->type == VALUE_INT && v->i == num;
	}
	if (!strncasecmp(s, "IBV_WC_", 7))
		s += 7;
	if (name && !strncmp(name, "IBV_WC_", 7))
		name += 7;
	if ((name && !strcasecmp(name, s)) || (text && !strcasecmp(text, s)))
		return true;
	for (size_t i = 0;
	     aliases && aliases->type == VALUE_LIST && i < aliases->list->n;
	     i++) {
		const char *a = value_text(&aliases->list->items[i]);

		if (a && !strcasecmp(a, s))
			return true;
	}
	return false;
}

/* The kb/wc_status.yaml entry the captured status names (its number,
 * name or text); NULL when none does. */
static const struct fact *wc_status_of(const struct fact_base *fb,
				       char cap[CAP_COUNT][APP_VALUE_MAX])
{
	bool by_text = !cap[CAP_WC_STATUS][0];
	const char *s = by_text ? cap[CAP_WC_STATUS_TEXT] : cap[CAP_WC_STATUS];
	const uint32_t *ids;
	size_t n;

	if (!s[0])
		return NULL;
	ids = fact_base_of_kind(fb, sym_intern_cstr("wc_status"), &n);
	for (size_t i = 0; i < n; i++) {
		const struct fact *w = fact_base_get(fb, ids[i]);

		if (names_status(w, s, by_text) &&
		    fact_get(w, sym_intern_cstr("number")) &&
		    fact_text(w, "name"))
			return w;
	}
	return NULL;
}

static void emit_wc_status(struct emit *e, struct fact *f,
			   char cap[CAP_COUNT][APP_VALUE_MAX],
			   const struct line *ln)
{
	const struct fact *w = wc_status_of(e->fb, cap);
	const char *name;

	if (!w)
		return;
	name = fact_text(w, "name");
	emit_str(e, f, "wc_status", name, strlen(name), ln);
	emit_value(e, f, "wc_status_num",
		   *fact_get(w, sym_intern_cstr("number")), ln);
}

static void emit_number(struct emit *e, struct fact *f, const char *field,
			const char *s, const struct line *ln)
{
	long long v;

	if (s[0] && number_of(s, &v))
		emit_int(e, f, field, v, ln);
}

static void emit_text(struct emit *e, struct fact *f, const char *field,
		      const char *s, const struct line *ln)
{
	if (s[0])
		emit_str(e, f, field, s, strlen(s), ln);
}

/* The application's locked-memory limit, when the line reports one (in
 * KiB, or in bytes as libibverbs does). */
static void emit_limit(struct emit *e, const struct event *ev)
{
	const char *kib = ev->cap[CAP_MEMLOCK_KB],
		   *bytes = ev->cap[CAP_MEMLOCK_BYTES];
	long long kb;
	struct fact *f;

	if (!strcasecmp(kib, "unlimited") || !strcasecmp(bytes, "unlimited"))
		kb = -1;
	else if (kib[0] && number_of(kib, &kb))
		;
	else if (bytes[0] && number_of(bytes, &kb))
		kb /= 1024;
	else
		return;
	f = emit_begin(e, "limits", &ev->where);
	emit_str(e, f, "scope", "application", 11, &ev->where);
	emit_int(e, f, "memlock_kb", kb, &ev->where);
	emit_end(e, f);
}

/* The link layer the entry's link_layers list ("IB=InfiniBand") gives
 * the word w; NULL when it names none. */
static const char *link_layer_of(const struct fact *m, const char *w)
{
	const struct value *v = fact_get(m, sym_intern_cstr("link_layers"));
	size_t n = strlen(w);

	for (size_t i = 0; v && v->type == VALUE_LIST && i < v->list->n; i++) {
		const char *t = value_text(&v->list->items[i]);

		if (t && !strncmp(t, w, n) && t[n] == '=')
			return t + n + 1;
	}
	return NULL;
}

/* One port fact for every port the line lists (the entry's 'ports'
 * pattern, matched again after each match), with the link layer its
 * word maps to and the state the entry's port_state says the program
 * requires of the ports it lists. */
static void emit_ports(struct app_scan *sc, const struct event *ev)
{
	const struct follow *fw = &sc->follows[ev->msg];
	const struct fact *m = entry_of(sc, ev->msg);
	const char *state = m ? fact_text(m, "port_state") : NULL;
	const struct line *ln = &ev->where;
	size_t pos = 0, len = ln->len > APP_LINE_MAX ? APP_LINE_MAX : ln->len;
	struct regex_match rm;

	for (int k = 0; fw->ports && k < APP_PORTS_MAX && pos < len &&
			regex_match(fw->ports, ln->p + pos, len - pos, &rm) == 1 &&
			rm.end[0] > 0;
	     k++) {
		char cap[CAP_COUNT][APP_VALUE_MAX] = { { 0 } };
		char word[APP_VALUE_MAX] = "";
		const char *layer;
		long long port;
		struct fact *f;
		int n = regex_name_count(fw->ports);

		captures_of(fw->ports, &rm, ln->p + pos, cap);
		for (int i = 0; i < n; i++) {
			int g;
			const char *name = regex_name_at(fw->ports, i, &g);

			if (name && !strcmp(name, "link_layer"))
				group_text(&rm, g, ln->p + pos, word,
					   sizeof(word));
		}
		pos += (size_t)rm.end[0];
		if (!cap[CAP_DEVICE][0] || !number_of(cap[CAP_PORT], &port))
			continue;
		f = emit_begin(sc->e, "port", ln);
		emit_str(sc->e, f, "hca", cap[CAP_DEVICE],
			 strlen(cap[CAP_DEVICE]), ln);
		emit_int(sc->e, f, "port", port, ln);
		if ((layer = link_layer_of(m, word)))
			emit_str(sc->e, f, "link_layer", layer, strlen(layer),
				 ln);
		if (state)
			emit_str(sc->e, f, "state", state, strlen(state), ln);
		emit_end(sc->e, f);
	}
}

static void emit_event(struct app_scan *sc, struct event *ev)
{
	struct emit *e = sc->e;
	const char *id = logscan_id(sc->ls, ev->msg);
	const char *layer = logscan_layer(sc->ls, ev->msg);
	const struct fact *m = entry_of(sc, ev->msg);
	const char *app = m ? fact_text(m, "app") : NULL;
	const char *call = m ? fact_text(m, "call") : NULL;
	const struct line *ln = &ev->where;
	struct fact *f = emit_begin(e, "app_error", ln);
	char(*cap)[APP_VALUE_MAX] = ev->cap;
	struct line trimmed;

	emit_str(e, f, "message", id, strlen(id), ln);
	if (cap[CAP_APP][0])
		emit_str(e, f, "app", cap[CAP_APP], strlen(cap[CAP_APP]), ln);
	else if (app)
		emit_str(e, f, "app", app, strlen(app), NULL);
	emit_str(e, f, "layer", layer, strlen(layer), NULL);
	/* The entry's call, when the text names the step, not the call. */
	emit_text(e, f, "call", cap[CAP_CALL][0] || !call ? cap[CAP_CALL] : call,
		  ln);
	emit_text(e, f, "status", cap[CAP_STATUS], ln);
	emit_errno(e, f, cap, ln);
	emit_wc_status(e, f, cap, ln);
	emit_number(e, f, "vendor_err", cap[CAP_VENDOR_ERR], ln);
	/* Always present, so that rules can bind and join it. */
	emit_value(e, f, "device",
		   value_str(cap[CAP_DEVICE], strlen(cap[CAP_DEVICE])), ln);
	emit_number(e, f, "port", cap[CAP_PORT], ln);
	emit_number(e, f, "gid_index", cap[CAP_GID_INDEX], ln);
	emit_text(e, f, "peer", cap[CAP_PEER], ln);
	emit_text(e, f, "transport", cap[CAP_TRANSPORT], ln);
	trimmed = line_trim(*ln);
	emit_line(e, f, "text", &trimmed, ln);
	emit_text(e, f, "detail", ev->detail, ln);
	emit_int(e, f, "count", ev->count, NULL);
	emit_end(e, f);
	emit_limit(e, ev);
	emit_ports(sc, ev);
}

/* ---- fallback entries ---- */

/* The capture a kb/app_context.yaml field name fills; CAP_COUNT when it
 * names none. */
static enum capture capture_of(const char *name)
{
	for (size_t c = 0; name && c < CAP_COUNT; c++)
		if (!strcmp(name, capture_names[c]))
			return (enum capture)c;
	return CAP_COUNT;
}

/* Compiles the app_context entries of the kb, in their order, once. */
static void load_contexts(struct app_scan *sc)
{
	size_t n;
	const uint32_t *ids;

	if (sc->context_loaded)
		return;
	sc->context_loaded = true;
	ids = fact_base_of_kind(sc->e->fb, sym_intern_cstr("app_context"), &n);
	sc->contexts = xcalloc(n ? n : 1, sizeof(*sc->contexts));
	for (size_t i = 0; i < n && sc->ncontexts < APP_CONTEXT_MAX; i++) {
		const struct fact *f = fact_base_get(sc->e->fb, ids[i]);
		struct context *c = &sc->contexts[sc->ncontexts];
		const char *pattern = fact_text(f, "pattern");
		char err[128];
		size_t off;

		const char *on = fact_text(f, "on");

		c->field = capture_of(fact_text(f, "field"));
		c->value = fact_text(f, "value");
		c->on_command = on && !strcmp(on, "command");
		if (c->field == CAP_COUNT || !pattern ||
		    !(c->re = regex_compile(pattern, 0, err, sizeof(err), &off)))
			continue;
		sc->ncontexts++;
	}
}

/* Fills the fields of cap still empty with the app_context entries of
 * one kind (on the line, or on the command line): the first entry of a
 * field that matches t gives its value, and its named groups fill any
 * field still empty.  With keep_app, the program is left as it is (a
 * specific entry names it). */
static void context_pass(struct app_scan *sc, const char *t, size_t n,
			 bool on_command, bool keep_app,
			 char cap[CAP_COUNT][APP_VALUE_MAX])
{
	char app[APP_VALUE_MAX];

	snprintf(app, sizeof(app), "%s", cap[CAP_APP]);
	if (keep_app && !app[0])
		snprintf(cap[CAP_APP], APP_VALUE_MAX, "-");
	load_contexts(sc);
	for (size_t i = 0; t && i < sc->ncontexts; i++) {
		const struct context *c = &sc->contexts[i];
		struct regex_match m;

		if (c->on_command != on_command || cap[c->field][0] ||
		    regex_match(c->re, t, n, &m) != 1)
			continue;
		if (c->value)
			snprintf(cap[c->field], APP_VALUE_MAX, "%s", c->value);
		captures_of(c->re, &m, t, cap);
	}
	if (keep_app)
		snprintf(cap[CAP_APP], APP_VALUE_MAX, "%s", app);
}

/* The block's command line, bounded; NULL when there is none. */
static const char *command_of(const struct app_scan *sc, size_t *n)
{
	const char *cmd = sc->e->command_line;

	*n = cmd ? strnlen(cmd, APP_COMMAND_MAX) : 0;
	return cmd;
}

/* Fills the fields of cap still empty from what the line's prefix and
 * words show (kb/app_context.yaml), then, for a field no line entry
 * filled, from the command line the block ran; with keep_app, the
 * program is left as the entry names it. */
static void read_context(struct app_scan *sc, const char *s, size_t len,
			 bool keep_app, char cap[CAP_COUNT][APP_VALUE_MAX])
{
	size_t n;
	const char *cmd = command_of(sc, &n);

	context_pass(sc, s, len, false, keep_app, cap);
	context_pass(sc, cmd, n, true, keep_app, cap);
}

/* Whether the n bytes at p in s stand as words of their own. */
static bool whole_word(const char *s, const char *p, size_t n)
{
	return (p == s || !isalnum((unsigned char)p[-1])) &&
	       !isalnum((unsigned char)p[n]);
}

#define FOLD_TEXT_MAX 128 /* @@ bytes of a text looked for in a folded line */

/* A line in lower case and the pairs of adjacent bytes it holds, hashed
 * into a bitmap: a text with a pair the line lacks is not in it, and
 * need not be searched for. */
#define PAIR_BITS 4096

struct folded {
	char low[APP_LINE_MAX + 1];
	uint64_t pairs[PAIR_BITS / 64];
};

static unsigned pair_of(unsigned char a, unsigned char b)
{
	return ((unsigned)a << 5 ^ b) & (PAIR_BITS - 1);
}

/* s in lower case (the C locale's tolower, as strcasestr folds), at most
 * APP_LINE_MAX bytes, and its pairs: what longest_in searches. */
static void fold(const char *s, struct folded *f)
{
	size_t i = 0;

	memset(f->pairs, 0, sizeof(f->pairs));
	for (; s[i] && i < APP_LINE_MAX; i++) {
		f->low[i] = (char)tolower((unsigned char)s[i]);
		if (i) {
			unsigned h = pair_of((unsigned char)f->low[i - 1],
					     (unsigned char)f->low[i]);

			f->pairs[h / 64] |= (uint64_t)1 << (h % 64);
		}
	}
	f->low[i] = '\0';
}

/* Whether every pair of bytes of t (folded) is among f's. */
static bool pairs_in(const struct folded *f, const char *t, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		unsigned h = pair_of((unsigned char)t[i - 1],
				     (unsigned char)t[i]);

		if (!(f->pairs[h / 64] & (uint64_t)1 << (h % 64)))
			return false;
	}
	return true;
}

/* strcasestr(from, t) for from in s, t folded: its place in s. */
static const char *folded_find(const char *s, const char *low, const char *from,
			       const char *t)
{
	const char *q = strstr(low + (from - s), t);

	return q ? s + (q - low) : NULL;
}

/* Copies into out the longest of the texts that occurs in s as whole
 * words, in any case; false when none does.  low is fold(s): strstr of
 * the folded text in it finds what strcasestr finds in s, without
 * folding both for every byte. */
static bool longest_in(const char *s, const struct folded *f,
		       const char *text, size_t *best, char *out, size_t size)
{
	size_t n = text ? strlen(text) : 0;
	char t[FOLD_TEXT_MAX + 1];
	const char *low = f->low;

	if (n <= *best)
		return false;
	if (n > FOLD_TEXT_MAX || strlen(s) > APP_LINE_MAX)
		low = NULL;
	for (size_t i = 0; low && i <= n; i++)
		t[i] = (char)tolower((unsigned char)text[i]);
	if (low && !pairs_in(f, t, n))
		return false;
	for (const char *p = s;; p++) {
		p = low ? folded_find(s, low, p, t) : strcasestr(p, text);
		if (!p)
			return false;
		if (!whole_word(s, p, n))
			continue;
		*best = n;
		snprintf(out, size, "%s", text);
		return true;
	}
}

/* The errnos kb/errno_meanings.yaml lists, looked up once. */
static void load_errnos(struct app_scan *sc)
{
	size_t n;
	const uint32_t *ids;

	if (sc->errno_loaded)
		return;
	sc->errno_loaded = true;
	ids = fact_base_of_kind(sc->e->fb, sym_intern_cstr("errno_meaning"),
				&n);
	for (size_t i = 0; i < n; i++) {
		const char *name = fact_text(fact_base_get(sc->e->fb, ids[i]),
					     "name");
		int e = name ? errno_of_text(name) : 0;

		if (e > 0 && e < ERRNO_MAX)
			sc->errno_known[e] = true;
	}
}

/* Fills errno_text with the longest strerror text in s of an errno the
 * kb lists. */
static void read_errno_text(struct app_scan *sc, const char *s,
			    char cap[CAP_COUNT][APP_VALUE_MAX])
{
	size_t best = 0;
	struct folded f;

	load_errnos(sc);
	fold(s, &f);
	for (int e = 1; e < ERRNO_MAX; e++)
		if (sc->errno_known[e])
			longest_in(s, &f, strerrordesc_np(e), &best,
				   cap[CAP_ERRNO_TEXT], APP_VALUE_MAX);
}

/* Fills wc_status_text with the longest ibv_wc_status_str() text or
 * alias of kb/wc_status.yaml in s (success left out). */
static void read_wc_text(const struct fact_base *fb, const char *s,
			 char cap[CAP_COUNT][APP_VALUE_MAX])
{
	size_t n, best = 0;
	const uint32_t *ids =
		fact_base_of_kind(fb, sym_intern_cstr("wc_status"), &n);
	struct folded f;

	fold(s, &f);
	for (size_t i = 0; i < n; i++) {
		const struct fact *w = fact_base_get(fb, ids[i]);
		const struct value *num = fact_get(w, sym_intern_cstr("number"));
		const struct value *al = fact_get(w, sym_intern_cstr("aliases"));

		if (!num || num->type != VALUE_INT || num->i == 0)
			continue;
		longest_in(s, &f, fact_text(w, "text"), &best,
			   cap[CAP_WC_STATUS_TEXT], APP_VALUE_MAX);
		for (size_t k = 0; al && al->type == VALUE_LIST && k < al->list->n;
		     k++)
			longest_in(s, &f, value_text(&al->list->items[k]),
				   &best, cap[CAP_WC_STATUS_TEXT],
				   APP_VALUE_MAX);
	}
}

/* Which of the fields a fallback entry may require were read. */
static unsigned read_needs(const struct fact_base *fb,
			   char cap[CAP_COUNT][APP_VALUE_MAX])
{
	long long v;
	unsigned got = 0;

	if (errno_of(cap))
		got |= NEED_ERRNO;
	if (wc_status_of(fb, cap))
		got |= NEED_WC_STATUS;
	if (cap[CAP_VENDOR_ERR][0] && number_of(cap[CAP_VENDOR_ERR], &v) && v)
		got |= NEED_VENDOR_ERR;
	if (cap[CAP_CALL][0])
		got |= NEED_CALL;
	return got;
}

/* Whether ln starts right after the line a specific entry last hit. */
static bool continues(const struct app_scan *sc, const struct line *ln)
{
	const char *p = sc->specific_end;

	if (!p || p > ln->p)
		return false;
	if (p < ln->p && *p == '\r')
		p++;
	return p < ln->p && *p == '\n' && p + 1 == ln->p;
}

/* Tries the fallback hits of a line that no specific entry matched, in
 * the kb's order, and counts the first that reads what it requires: a
 * line gives one fallback fact at most.  s is the line, NUL-terminated. */
static void fallback_hits(struct app_scan *sc, const struct logscan_hit *hits,
			  size_t n, const char *s, const struct line *ln)
{
	const struct logscan_hit *best = NULL;
	char cap[CAP_COUNT][APP_VALUE_MAX];

	for (size_t i = 0; i < n; i++) {
		const struct follow *fw = follow_of(sc, hits[i].sig);
		struct regex_match m;
		char try[CAP_COUNT][APP_VALUE_MAX];

		if (best && hits[i].sig > best->sig)
			continue;
		if (fw->unless &&
		    regex_match(fw->unless, s, strlen(s), &m) == 1)
			continue;
		memset(try, 0, sizeof(try));
		captures_of(logscan_regex(sc->ls, hits[i].sig), &hits[i].m, s,
			    try);
		if (fw->read_errno_text && !try[CAP_ERRNO][0] &&
		    !try[CAP_ERRNO_TEXT][0])
			read_errno_text(sc, s, try);
		if (fw->read_wc_text && !try[CAP_WC_STATUS][0] &&
		    !try[CAP_WC_STATUS_TEXT][0])
			read_wc_text(sc->e->fb, s, try);
		if (fw->requires && !(read_needs(sc->e->fb, try) & fw->requires))
			continue;
		/* an IBV_WC_ word that is no status (an opcode) is no value */
		if (try[CAP_WC_STATUS][0] && !wc_status_of(sc->e->fb, try))
			try[CAP_WC_STATUS][0] = '\0';
		/* a fallback entry of one program (Open MPI's help texts)
		 * keeps it: the block's command may have run another */
		read_context(sc, s, strlen(s), fw->names_app, try);
		/* The line right after a specific entry's hit, with no program
		 * prefix of its own, is that message wrapped, not a new one. */
		if (!try[CAP_APP][0] && !fw->names_app && continues(sc, ln))
			continue;
		best = &hits[i];
		memcpy(cap, try, sizeof(cap));
	}
	if (best)
		add_event(sc, best->sig, cap, "", ln);
}

/* Keeps, in place, the hits of entries that match lines starting with
 * '#'; returns how many are left. */
static size_t hash_line_hits(struct app_scan *sc, struct logscan_hit *hits,
			     size_t n)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		if (follow_of(sc, hits[i].sig)->hash_lines)
			hits[kept++] = hits[i];
	return kept;
}

/* Counts the hits of one line: the specific entries' when there are
 * any, else at most one fallback's.  A line that a specific entry's
 * 'then' already read is no fallback's. */
static void line_hits(struct app_scan *sc, const struct logscan_hit *hits,
		      size_t n, const struct line *ln, const struct lines *after)
{
	bool specific = false;
	char s[APP_LINE_MAX + 1];

	for (size_t i = 0; i < n; i++)
		specific |= !follow_of(sc, hits[i].sig)->fallback;
	if (specific) {
		sc->specific_end = ln->p + ln->len;
		for (size_t i = 0; i < n; i++)
			if (!follow_of(sc, hits[i].sig)->fallback)
				count_hit(sc, hits[i].sig, ln->p, &hits[i], ln,
					  after);
		return;
	}
	if (ln->p < sc->covered)
		return;
	memcpy(s, ln->p, ln->len);
	s[ln->len] = '\0';
	/* The hits matched ln->p; their offsets hold in the copy. */
	fallback_hits(sc, hits, n, s, ln);
}

int app_scan(struct emit *e, const char *text, size_t len)
{
	struct app_scan sc = { .e = e, .ls = e->app_scan };
	unsigned before = e->nfacts;
	struct logscan_sieve sieve = { 0 };
	struct lines it;
	struct line ln;
	size_t limit = 0;

	if (!sc.ls || !logscan_count(sc.ls))
		return 0;
	sc.follows = xcalloc(logscan_count(sc.ls), sizeof(*sc.follows));
	logscan_sieve(sc.ls, text, len, &sieve);
	lines_init(&it, text, len);
	while (lines_next(&it, &ln)) {
		struct logscan_hit hits[APP_HITS_MAX];
		size_t n, at = (size_t)(ln.p - text);

		if (ln.len > APP_LINE_MAX)
			ln.len = APP_LINE_MAX;
		if (!logscan_sieve_relevant(sc.ls, &sieve, text, at,
					    at + ln.len))
			continue;
		n = logscan_match(sc.ls, ln.p, ln.len, hits, APP_HITS_MAX,
				  &limit);
		/* A line that starts with '#' is a comment or heading a
		 * person added to the paste, except for the entries of
		 * programs that print such lines (nccl-tests' summary). */
		if (ln.len && ln.p[0] == '#')
			n = hash_line_hits(&sc, hits,
					   n < APP_HITS_MAX ? n : APP_HITS_MAX);
		if (!n)
			continue;
		line_hits(&sc, hits, n < APP_HITS_MAX ? n : APP_HITS_MAX, &ln,
			  &it);
	}
	for (size_t i = 0; i < sc.nevents; i++) {
		emit_event(&sc, &sc.events[i]);
		free(sc.events[i].line);
	}
	free(sc.events);
	free(sc.slots);
	logscan_sieve_release(&sieve);
	for (size_t i = 0; i < logscan_count(sc.ls); i++) {
		regex_free(sc.follows[i].re);
		regex_free(sc.follows[i].ports);
		regex_free(sc.follows[i].unless);
	}
	free(sc.follows);
	for (size_t i = 0; i < sc.ncontexts; i++)
		regex_free(sc.contexts[i].re);
	free(sc.contexts);
	return (int)(e->nfacts - before);
}

int parse_app_log(struct emit *e, const char *text, size_t len,
		  const char *arg)
{
	(void)arg;
	return app_scan(e, text, len);
}

