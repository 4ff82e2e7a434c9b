/* A pasted terminal session: several commands, each after its shell
 * prompt ("[root@node ~]# rdma link", "user@host:~$ ibv_devinfo",
 * "$ ibstatus").  Each command's output goes to the parser the command
 * names (or, for a command rdmadoctor does not know, to the format its
 * output looks like), and the facts cite the lines of the whole paste.
 * A ticket that shows "rdma link" ACTIVE and ibv_devinfo "No IB devices
 * found" side by side needs both. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define SESSION_WORDS 24 /* @@ words of a prompt line looked at */

enum arg_rule {
	ARG_NONE,
	ARG_TOOL, /* the command's name (perftest's test) */
	ARG_AFTER, /* the word after option (-i eth0, -d 3b:00.0) */
	ARG_LAST, /* the last word (modinfo mlx5_core) */
};

/* Commands and the format of their output.  A name ending in '*' is a
 * prefix; option is the one whose value ARG_AFTER takes. */
static const struct {
	const char *command;
	const char *format;
	enum arg_rule arg;
	const char *option;
} commands[] = {
	{ "ibstat", "ibstat", ARG_NONE, NULL },
	{ "ibstatus", "ibstatus", ARG_NONE, NULL },
	{ "ibv_devinfo", "ibv_devinfo", ARG_NONE, NULL },
	{ "ibv_devices", "ibv_devices", ARG_NONE, NULL },
	{ "rdma", "rdma", ARG_NONE, NULL },
	{ "ibdev2netdev", "ibdev2netdev", ARG_NONE, NULL },
	{ "ofed_info", "ofed_info", ARG_NONE, NULL },
	{ "lspci", "lspci", ARG_NONE, NULL },
	{ "flint", "flint_q", ARG_AFTER, "-d" },
	{ "mstflint", "flint_q", ARG_AFTER, "-d" },
	{ "mlxfwmanager", "mlxfwmanager", ARG_NONE, NULL },
	{ "mlxup", "mlxfwmanager", ARG_NONE, NULL },
	{ "perfquery", "perfquery", ARG_AFTER, "-C" },
	{ "lsmod", "lsmod", ARG_NONE, NULL },
	{ "modinfo", "modinfo", ARG_LAST, NULL },
	{ "ethtool", "ethtool_i", ARG_AFTER, "-i" },
	{ "ib_*", "perftest", ARG_TOOL, NULL },
	{ "ibv_*", "pingpong", ARG_TOOL, NULL },
};

/* Words that may precede the command itself. */
static const char *const wrappers[] = { "sudo", "time", "exec", "command" };

struct prompt {
	struct line words[SESSION_WORDS];
	size_t n, cmd; /* words[cmd] is the command */
};

/* Whether w ends as a prompt does: '$', '#' or zsh's '%'. */
static bool prompt_word(const struct line *w)
{
	char last = w->len ? w->p[w->len - 1] : 0;

	return last == '$' || last == '#' || last == '%';
}

/* The prompt's end: the index of the first word after it, or 0 when ln
 * does not start with a prompt.  A bare "$" or "#" prompt counts only
 * before a command in the table, since "# Port counters:" is output. */
static size_t prompt_end(const struct prompt *p, bool *bare)
{
	const struct line *w = &p->words[0];

	*bare = false;
	if (!p->n || !w->len)
		return 0;
	if (w->len == 1 && prompt_word(w)) {
		*bare = true;
		return 1;
	}
	if (line_eq(w, "\xe2\x9e\x9c")) /* zsh's arrow, then the directory */
		return p->n > 2 ? 2 : 0;
	/* "[root@node" "~]#": the bracket spans two words */
	if (w->p[0] == '[' && p->n > 1 && prompt_word(&p->words[1]) &&
	    p->words[1].len >= 2 && p->words[1].p[p->words[1].len - 2] == ']')
		return 2;
	/* [root@node]#, user@host:~$, root@node2$, sh-5.1# */
	if (prompt_word(w) &&
	    (memchr(w->p, '@', w->len) || line_starts(w, "sh-") ||
	     line_starts(w, "bash-")))
		return 1;
	return 0;
}

/* The command's base name ("/usr/sbin/ibstat" -> "ibstat"). */
static struct line base_name(struct line w)
{
	const char *slash = memrchr(w.p, '/', w.len);

	if (slash) {
		w.len -= (size_t)(slash + 1 - w.p);
		w.p = slash + 1;
	}
	return w;
}

static bool command_is(const struct line *w, const char *name)
{
	size_t n = strlen(name);

	if (name[n - 1] == '*')
		return w->len >= n && !memcmp(w->p, name, n - 1);
	return line_eq(w, name);
}

/* Whether ln is a prompt with a command; *which gets the command's table
 * entry, or -1 for a command the table lacks. */
static bool prompt_line(const struct line *ln, struct prompt *p, int *which)
{
	size_t at;
	bool bare;

	p->n = line_split(ln, p->words, SESSION_WORDS);
	at = prompt_end(p, &bare);
	if (!at)
		return false;
	for (; at < p->n; at++) {
		bool wrapper = memchr(p->words[at].p, '=', p->words[at].len) ||
			       p->words[at].p[0] == '-';

		for (size_t i = 0; i < ARRAY_SIZE(wrappers); i++)
			wrapper =
				wrapper || line_eq(&p->words[at], wrappers[i]);
		if (!wrapper)
			break;
	}
	if (at >= p->n)
		return false;
	p->cmd = at;
	*which = -1;
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		struct line name = base_name(p->words[at]);

		if (command_is(&name, commands[i].command)) {
			*which = (int)i;
			break;
		}
	}
	return *which >= 0 || !bare;
}

static bool shell_operator(char c)
{
	return c == '|' || c == '>' || c == ';' || c == '&';
}

/* The end of the command's own words: the index after the last word
 * before a pipe or redirection ("modinfo mlx5_core|grep version:" ends
 * at "mlx5_core|grep", which the caller cuts at the '|'). */
static size_t pipeline_end(const struct prompt *p)
{
	size_t end = p->cmd + 1;

	while (end < p->n && !shell_operator(p->words[end].p[0])) {
		const struct line *w = &p->words[end++];

		for (size_t i = 0; i < w->len; i++)
			if (shell_operator(w->p[i]))
				return end;
	}
	return end;
}

/* The argument a command line gives its format, into buf ("" if none). */
static void command_arg(const struct prompt *p, int which, char *buf,
			size_t size)
{
	const struct line *w = NULL;
	size_t end;

	buf[0] = '\0';
	if (which < 0)
		return;
	switch (commands[which].arg) {
	case ARG_TOOL:
		w = &p->words[p->cmd];
		break;
	case ARG_LAST:
		end = pipeline_end(p);
		if (end > p->cmd + 1 && p->words[end - 1].p[0] != '-')
			w = &p->words[end - 1];
		break;
	case ARG_AFTER:
		for (size_t i = p->cmd + 1; i + 1 < p->n; i++)
			if (line_eq(&p->words[i], commands[which].option))
				w = &p->words[i + 1];
		break;
	case ARG_NONE:
		break;
	}
	if (w) {
		struct line name =
			commands[which].arg == ARG_TOOL ? base_name(*w) : *w;

		/* up to a pipe or redirection glued to the word */
		name.len = strcspn(line_copy(&name, buf, size), "|>;&");
		buf[name.len] = '\0';
	}
}

/* The format text looks most like (not this one), or NULL. */
static const struct format *looks_like(const char *text, size_t len)
{
	const struct format *best = NULL;
	int top = 29;

	if (len > 65536)
		len = 65536;
	for (size_t i = 0; i < format_count(); i++) {
		const struct format *f = format_at(i);
		int s;

		if (f->parse == parse_transcript || f->parse == parse_facts)
			continue;
		s = f->detect(text, len);
		if (s > top) {
			top = s;
			best = f;
		}
	}
	return best;
}

struct segment {
	const char *start; /* first output line */
	uint32_t first_no; /* its line number in the paste */
	int which; /* command table entry, -1 */
	char arg[128];
};

static void parse_segment(struct emit *e, const struct segment *s,
			  const char *end)
{
	size_t len = (size_t)(end - s->start);
	const struct format *f =
		s->which >= 0 ? format_find(commands[s->which].format) :
				looks_like(s->start, len);
	uint32_t base = e->line_base;

	if (!f || !len)
		return;
	e->line_base = base + s->first_no - 1;
	f->parse(e, s->start, len, s->arg[0] ? s->arg : NULL);
	e->line_base = base;
}

int parse_transcript(struct emit *e, const char *text, size_t len,
		     const char *arg)
{
	struct segment seg = { text, 1, -1, "" };
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		struct prompt p;
		int which;

		if (!prompt_line(&ln, &p, &which))
			continue;
		parse_segment(e, &seg, raw.p);
		seg.start = it.text + it.pos;
		seg.first_no = raw.no + 1;
		seg.which = which;
		command_arg(&p, which, seg.arg, sizeof(seg.arg));
	}
	parse_segment(e, &seg, text + len);
	return (int)(e->nfacts - before);
}

/* Certain when the paste holds commands of two different formats; else
 * the one format's own detection should decide. */
int detect_transcript(const char *text, size_t len)
{
	const char *first = NULL;
	struct lines it;
	struct line raw;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		struct prompt p;
		int which;

		if (!prompt_line(&ln, &p, &which) || which < 0)
			continue;
		if (!first)
			first = commands[which].format;
		else if (strcmp(first, commands[which].format))
			return 100;
	}
	return 0;
}
