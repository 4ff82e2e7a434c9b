/* Blocks of a pasted text.  A ticket mixes commands after their shell
 * prompts ("[root@node ~]# rdma link", "user@host:~$ ibv_devinfo",
 * "$ ibstatus"), markdown fences and headings, "==> file <==" banners,
 * prose, and outputs pasted without their command; each piece goes to the
 * parser its command names, or to the format its content shows.  The
 * facts cite the lines of the whole paste.  A command line also says
 * which device was asked about (ibstat mlx5_0) and through which filter
 * the output was seen (lsmod | grep mlx), so that what such a listing
 * does not show is evidence too. */
#include "collectors/parsers/blocks.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "collectors/parsers/parse_log.h"
#include "engine/regex.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

#define BLOCKS_MAX 2048 /* @@ blocks of one text; the rest is one block */
#define PROMPT_WORDS 24 /* @@ words of a prompt line looked at */
#define CMD_WORDS 48 /* @@ shell words of a command line */
#define CMD_BYTES 1024 /* @@ bytes of a command line read */
#define BARE_LOOKAHEAD 60 /* @@ lines read to confirm a bare command */
#define DETAIL_BLOCKS 24 /* @@ blocks named in a collector's detail */
#define STRONG_SCORE 60 /* @@ a content score that overrides a label */
#define HOST_BYTES 254 /* @@ a host name's length, its NUL included */

/* How a command line gives its format the argument the output lacks. */
enum arg_rule {
	ARG_NONE,
	ARG_TOOL, /* the command's name (perftest's test) */
	ARG_AFTER, /* the word after option (-i eth0, -d 3b:00.0) */
	ARG_LAST, /* the last word that is no option (modinfo mlx5_core) */
	ARG_FIRST, /* the first word that is no option (ibstat mlx5_0) */
	ARG_PATH, /* a file: its path picks the format (cat FILE) */
	ARG_DIR, /* a directory: its path picks the format (ls DIR) */
};

/* Commands and the format of their output.  A name ending in '*' is a
 * prefix; sub, when set, is the word, or the space-separated words, the
 * command line must hold (ethtool -i, rdma statistic, service openibd
 * status); option is the one whose value ARG_AFTER takes (a
 * second spelling after '|').  The first entry that fits wins. */
static const struct command {
	const char *command, *sub, *format;
	enum arg_rule arg;
	const char *option;
} commands[] = {
	{ "ibstat", NULL, "ibstat", ARG_FIRST, NULL },
	{ "ibstatus", NULL, "ibstatus", ARG_FIRST, NULL },
	{ "ibv_devinfo", NULL, "ibv_devinfo", ARG_AFTER, "-d|--ib-dev" },
	{ "ibv_devices", NULL, "ibv_devices", ARG_NONE, NULL },
	{ "rdma", "statistic", "rdma_statistic", ARG_NONE, NULL },
	{ "rdma", "stat", "rdma_statistic", ARG_NONE, NULL },
	{ "rdma", NULL, "rdma", ARG_NONE, NULL },
	{ "ibdev2netdev", NULL, "ibdev2netdev", ARG_NONE, NULL },
	{ "ofed_info", NULL, "ofed_info", ARG_NONE, NULL },
	/* -s [[[[<domain>]:]<bus>]:][<slot>][.[<func>]] selects the
	 * functions shown (pciutils lspci.c help_msg) */
	{ "lspci", NULL, "lspci", ARG_AFTER, "-s" },
	{ "flint", NULL, "flint_q", ARG_AFTER, "-d|--device" },
	{ "mstflint", NULL, "flint_q", ARG_AFTER, "-d|--device" },
	{ "mlxfwmanager", NULL, "mlxfwmanager", ARG_NONE, NULL },
	{ "mlxup", NULL, "mlxfwmanager", ARG_NONE, NULL },
	{ "mst", "status", "mst_status", ARG_NONE, NULL },
	{ "perfquery", NULL, "perfquery", ARG_AFTER, "-C" },
	{ "lsmod", NULL, "lsmod", ARG_NONE, NULL },
	{ "modinfo", NULL, "modinfo", ARG_LAST, NULL },
	{ "ethtool", "-i", "ethtool_i", ARG_AFTER, "-i" },
	{ "ethtool", NULL, "ethtool", ARG_LAST, NULL },
	{ "dmesg", NULL, "dmesg", ARG_NONE, NULL },
	{ "journalctl", NULL, "dmesg", ARG_NONE, NULL },
	{ "uname", NULL, "uname", ARG_NONE, NULL },
	{ "ulimit", NULL, "ulimit", ARG_NONE, NULL },
	{ "limit", NULL, "ulimit", ARG_NONE, NULL },
	{ "modprobe", NULL, "modprobe", ARG_NONE, NULL },
	{ "insmod", NULL, "modprobe", ARG_NONE, NULL },
	{ "ip", NULL, "ip", ARG_NONE, NULL },
	{ "devlink", "health", "devlink_health", ARG_NONE, NULL },
	{ "show_gids", NULL, "show_gids", ARG_FIRST, NULL },
	{ "sminfo", NULL, "sminfo", ARG_NONE, NULL },
	{ "ibportstate", NULL, "ibportstate", ARG_NONE, NULL },
	{ "smpquery", NULL, "ibportstate", ARG_NONE, NULL },
	{ "ibnetdiscover", NULL, "ibnetdiscover", ARG_NONE, NULL },
	{ "mlxlink", NULL, "mlxlink", ARG_AFTER, "-d|--device" },
	/* mstflint's names for MFT's tools (mstflint's Makefile.am
	 * SUBDIRS: mlxconfig builds mstconfig, mlxlink mstlink,
	 * mlxfwupdate mstfwmanager, mlxfwreset mstfwreset) */
	{ "mstlink", NULL, "mlxlink", ARG_AFTER, "-d|--device" },
	{ "mlxconfig", NULL, "mlxconfig", ARG_AFTER, "-d|--dev" },
	{ "mstconfig", NULL, "mlxconfig", ARG_AFTER, "-d|--dev" },
	{ "mstfwmanager", NULL, "mlxfwmanager", ARG_NONE, NULL },
	/* its query table is no format read; its -E- lines are errors */
	{ "mlxfwreset", NULL, NULL, ARG_NONE, NULL },
	{ "mstfwreset", NULL, NULL, ARG_NONE, NULL },
	{ "ibswinfo*", NULL, "ibswinfo", ARG_NONE, NULL },
	{ "ucx_info", NULL, "ucx_info", ARG_NONE, NULL },
	{ "rxe_cfg", NULL, "rxe_cfg", ARG_NONE, NULL },
	{ "rping", NULL, "rping", ARG_NONE, NULL },
	/* -p names the provider asked for (libfabric util/info.c) */
	{ "fi_info", NULL, "fi_info", ARG_AFTER, "-p|--provider" },
	{ "qperf", NULL, "qperf", ARG_NONE, NULL },
	/* fabtests' programs (fi_pingpong, fi_rdm_tagged_bw, ...) and
	 * librdmacm's stream examples print one result table */
	{ "fi_*", NULL, "fabtests", ARG_AFTER, "-d" },
	{ "rstream", NULL, "fabtests", ARG_NONE, NULL },
	{ "riostream", NULL, "fabtests", ARG_NONE, NULL },
	{ "cat", NULL, NULL, ARG_PATH, NULL },
	{ "tail", NULL, NULL, ARG_PATH, NULL },
	{ "head", NULL, NULL, ARG_PATH, NULL },
	{ "less", NULL, NULL, ARG_PATH, NULL },
	{ "more", NULL, NULL, ARG_PATH, NULL },
	{ "grep", NULL, NULL, ARG_PATH, NULL },
	{ "ls", NULL, NULL, ARG_DIR, NULL },
	{ "ifconfig", NULL, "ifconfig", ARG_NONE, NULL },
	{ "openibd", "status", "openibd_status", ARG_NONE, NULL },
	{ "service", "openibd status", "openibd_status", ARG_NONE, NULL },
	/* the vendor stacks' init scripts: their steps' [FAILED] lines are
	 * read as the script's errors (parse_tool.c) */
	{ "openibd", NULL, NULL, ARG_NONE, NULL },
	{ "mlnx-en.d", NULL, NULL, ARG_NONE, NULL },
	/* nvme-cli's fabrics commands: their errors are nvme-cli's, and the
	 * command line names the transport (kb/app_context.yaml) */
	{ "nvme", "connect", NULL, ARG_NONE, NULL },
	{ "nvme", "connect-all", NULL, ARG_NONE, NULL },
	{ "nvme", "discover", NULL, ARG_NONE, NULL },
	{ "ib_*", NULL, "perftest", ARG_TOOL, NULL },
	/* the pingpong's program is the block's command; its -d the device */
	{ "ibv_*", NULL, "pingpong", ARG_AFTER, "-d|--ib-dev" },
};

/* Files whose path says what they hold (cat FILE, ==> FILE <==). */
static const struct {
	const char *part, *format;
} files[] = {
	{ "/sys/class/infiniband/", "sysfs_attr" },
	{ "/proc/modules", "proc_modules" },
	{ "/var/log/messages", "dmesg" },
	{ "/var/log/syslog", "dmesg" },
	{ "/var/log/kern.log", "dmesg" },
	{ "limits.conf", "limits_conf" },
	{ "/etc/security/limits.d/", "limits_conf" },
	{ "/boot/config-", "kconfig" },
};

/* Directories whose listing (ls DIR) has a format. */
static const struct {
	const char *part, *format;
} dirs[] = {
	{ "/dev/infiniband", "devnodes" },
};

/* Pipeline stages that show every line they are given. */
static const char *const passing[] = { "less", "more", "cat", "sort",
				       "column", "tee", "uniq" };
/* Words that may precede the command itself. */
static const char *const wrappers[] = { "sudo", "time", "exec", "command",
					"env", "nohup" };

/* Commands that run what follows on other hosts (or in a container): the
 * output is theirs, so the prompt's host names none of it. */
static const char *const remote_runners[] = { "ssh", "pdsh", "clush",
					      "srun", "mpirun", "pssh",
					      "kubectl", "docker", "podman",
					      "oc", "salt", "ansible" };

/* Formats whose output, shown with its header and no command line, is
 * taken as complete: the header line and the format.  A "header" is a
 * line the tool prints only once it has read its list: ibv_devinfo's
 * "No IB devices found" (rdma-core libibverbs/examples/devinfo.c, when
 * ibv_get_device_list() gave an empty list) says the list is empty. */
static bool devices_header(const struct line *ln)
{
	return line_starts(ln, "device") && line_contains(ln, "node GUID");
}

static bool no_devices_line(const struct line *ln)
{
	return line_eq(ln, "No IB devices found");
}

static const struct {
	const char *format;
	line_test_fn header;
} headed[] = {
	{ "lsmod", lsmod_header_line },
	{ "ibv_devices", devices_header },
	{ "ibv_devinfo", no_devices_line },
};

/* A command line read as the shell would split it. */
struct cmdline {
	char buf[CMD_BYTES];
	struct line w[CMD_WORDS];
	bool op[CMD_WORDS]; /* an unquoted |, ;, &&, >, ... */
	size_t n;
	struct line text; /* as pasted, prompt excluded */
};

static bool op_char(char c)
{
	return c == '|' || c == ';' || c == '&' || c == '>' || c == '<';
}

/* Splits t into words, honouring quotes and backslashes, with operators
 * as words of their own. */
static void shell_split(struct line t, struct cmdline *c)
{
	size_t i = 0, out = 0;

	c->n = 0;
	c->text = t;
	while (i < t.len && c->n < CMD_WORDS && out < CMD_BYTES - 2) {
		char q = 0;
		size_t start = out;

		while (i < t.len && (t.p[i] == ' ' || t.p[i] == '\t'))
			i++;
		if (i >= t.len)
			break;
		if (op_char(t.p[i])) {
			while (i < t.len && op_char(t.p[i]) &&
			       out < CMD_BYTES - 2)
				c->buf[out++] = t.p[i++];
			c->w[c->n] = (struct line){ c->buf + start,
						    out - start, t.no };
			c->op[c->n++] = true;
			continue;
		}
		for (; i < t.len && out < CMD_BYTES - 2; i++) {
			char ch = t.p[i];

			if (q) {
				if (ch == q)
					q = 0;
				else if (ch == '\\' && q == '"' &&
					 i + 1 < t.len)
					c->buf[out++] = t.p[++i];
				else
					c->buf[out++] = ch;
				continue;
			}
			if (ch == '\'' || ch == '"') {
				q = ch;
			} else if (ch == '\\' && i + 1 < t.len) {
				c->buf[out++] = t.p[++i];
			} else if (ch == ' ' || ch == '\t' || op_char(ch)) {
				break;
			} else {
				c->buf[out++] = ch;
			}
		}
		c->w[c->n] = (struct line){ c->buf + start, out - start, t.no };
		c->op[c->n++] = false;
	}
}

/* Whether w ends as a prompt does: '$', '#', zsh's '%' or PowerShell's
 * '>'. */
static bool prompt_word(const struct line *w)
{
	char last = w->len ? w->p[w->len - 1] : 0;

	return last == '$' || last == '#' || last == '%';
}

/* The index of the first word after the prompt, 0 when the line starts
 * with none.  *bare is set for a lone "$" or "#", which counts only before
 * a known command ("# Port counters:" is output). */
static size_t prompt_end(const struct line *w, size_t n, bool *bare)
{
	size_t at = 0;

	*bare = false;
	if (!n)
		return 0;
	/* a virtualenv or conda prefix: "(base) user@host:~$" */
	if (w[0].len > 2 && w[0].p[0] == '(' && w[0].p[w[0].len - 1] == ')' &&
	    n > 1)
		at = 1;
	if (line_eq(&w[at], "PS") && at + 1 < n && w[at + 1].len &&
	    w[at + 1].p[w[at + 1].len - 1] == '>')
		return at + 2;
	if (w[at].len == 1 && prompt_word(&w[at])) {
		*bare = !at;
		return at + 1;
	}
	if (line_eq(&w[at], "\xe2\x9e\x9c")) /* zsh's arrow, then the dir */
		return n > at + 2 ? at + 2 : 0;
	/* "[root@node" "~]#": the bracket spans two words */
	if (w[at].p[0] == '[' && at + 1 < n && prompt_word(&w[at + 1]) &&
	    w[at + 1].len >= 2 && w[at + 1].p[w[at + 1].len - 2] == ']')
		return at + 2;
	/* [root@node]#, user@host:~$, root@node2$, sh-5.1# */
	if (prompt_word(&w[at]) &&
	    (memchr(w[at].p, '@', w[at].len) || line_starts(&w[at], "sh-") ||
	     line_starts(&w[at], "bash-") ||
	     (w[at].len > 2 && w[at].p[w[at].len - 2] == ']')))
		return at + 1;
	/* "node01:~ #", "root@host ~ #": a lone '#' or '$' after a word
	 * with '@' or ':' */
	for (size_t i = at + 1; i < n && i <= at + 2; i++)
		if (w[i].len == 1 && prompt_word(&w[i]) &&
		    (memchr(w[at].p, '@', w[at].len) ||
		     memchr(w[at].p, ':', w[at].len)))
			return i + 1;
	return 0;
}

static bool command_is(const struct line *w, const char *name)
{
	size_t n = strlen(name);

	if (name[n - 1] == '*')
		return w->len >= n && !memcmp(w->p, name, n - 1);
	return line_eq(w, name);
}

static bool is_wrapper(const struct line *w)
{
	if (memchr(w->p, '=', w->len))
		return true; /* VAR=value */
	for (size_t i = 0; i < ARRAY_SIZE(wrappers); i++)
		if (line_eq(w, wrappers[i]))
			return true;
	return false;
}

static bool runs_elsewhere(const struct line *rest)
{
	struct line w[4];
	size_t n = line_split(rest, w, 4), at = 0;

	while (at < n && is_wrapper(&w[at]))
		at++;
	for (size_t i = 0; at < n && i < ARRAY_SIZE(remote_runners); i++)
		if (line_eq(&w[at], remote_runners[i]))
			return true;
	return false;
}

/* A parsed command: its table entry, arguments and filter. */
struct command_use {
	int which; /* commands[] entry, -1 for an unknown command */
	const char *format; /* its format, NULL when unknown */
	char arg[256];
	char filter[512]; /* PCRE2; "" when the output is unfiltered */
	bool complete; /* every line the command printed is shown */
	char text[256]; /* the command line, for the facts */
	char tool[64]; /* the program it runs (its basename), "" when none */
};

/* The end (exclusive) of the command's own words: the first operator. */
static size_t own_end(const struct cmdline *c, size_t cmd)
{
	size_t end = cmd + 1;

	while (end < c->n && !c->op[end])
		end++;
	return end;
}

static bool option_is(const struct line *w, const char *spellings)
{
	const char *p = spellings;

	while (*p) {
		size_t n = strcspn(p, "|");

		if (w->len == n && !memcmp(w->p, p, n))
			return true;
		/* --ib-dev=mlx5_0 */
		if (w->len > n + 1 && !memcmp(w->p, p, n) && w->p[n] == '=' &&
		    p[0] == '-' && p[1] == '-')
			return true;
		p += n + (p[n] == '|');
	}
	return false;
}

static void copy_word(const struct line *w, char *buf, size_t size)
{
	line_copy(w, buf, size);
}

static const char *format_of_path(const struct line *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (memmem(path->p, path->len, files[i].part,
			   strlen(files[i].part)))
			return files[i].format;
	return NULL;
}

static const char *format_of_dir(const struct line *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (memmem(path->p, path->len, dirs[i].part,
			   strlen(dirs[i].part)))
			return dirs[i].format;
	return NULL;
}

static void command_arg(const struct cmdline *c, size_t cmd, size_t end,
			const struct command *k, struct command_use *u)
{
	const struct line *w = NULL;

	switch (k->arg) {
	case ARG_TOOL:
		w = &c->w[cmd];
		break;
	case ARG_LAST:
	case ARG_PATH:
	case ARG_DIR:
		for (size_t i = end; i > cmd + 1; i--)
			if (c->w[i - 1].len && c->w[i - 1].p[0] != '-') {
				w = &c->w[i - 1];
				break;
			}
		break;
	case ARG_FIRST:
		for (size_t i = cmd + 1; i < end; i++)
			if (c->w[i].len && c->w[i].p[0] != '-') {
				w = &c->w[i];
				break;
			}
		break;
	case ARG_AFTER:
		for (size_t i = cmd + 1; i < end; i++) {
			if (!option_is(&c->w[i], k->option))
				continue;
			if (memchr(c->w[i].p, '=', c->w[i].len)) {
				const char *eq =
					memchr(c->w[i].p, '=', c->w[i].len);
				struct line v = { eq + 1,
						  (size_t)(c->w[i].p +
							   c->w[i].len - eq -
							   1),
						  c->w[i].no };

				copy_word(&v, u->arg, sizeof(u->arg));
				return;
			}
			if (i + 1 < end)
				w = &c->w[i + 1];
		}
		break;
	case ARG_NONE:
		break;
	}
	if (!w)
		return;
	if (k->arg == ARG_TOOL) {
		struct line b = line_basename(*w);

		copy_word(&b, u->arg, sizeof(u->arg));
	} else {
		copy_word(w, u->arg, sizeof(u->arg));
	}
	if (k->arg == ARG_PATH || k->arg == ARG_DIR) {
		u->format = k->arg == ARG_PATH ? format_of_path(w) :
						 format_of_dir(w);
		if (!u->format)
			u->arg[0] = '\0';
	}
}

/* Appends one grep pattern to sb as PCRE2: fixed strings quoted, a basic
 * regex's \| \( \) \{ \} \+ \? turned into their extended forms and its
 * bare | ( ) { } + ? made literal. */
static void grep_pattern(struct strbuf *sb, const struct line *p, char syntax)
{
	for (size_t i = 0; i < p->len; i++) {
		char ch = p->p[i];

		if (syntax == 'F') {
			if (strchr("\\^$.[]|()*+?{}", ch))
				sb_putc(sb, '\\');
			sb_putc(sb, ch);
		} else if (syntax == 'G' && ch == '\\' && i + 1 < p->len &&
			   strchr("|(){}+?", p->p[i + 1])) {
			sb_putc(sb, p->p[++i]);
		} else if (syntax == 'G' && strchr("|(){}+?", ch)) {
			sb_putc(sb, '\\');
			sb_putc(sb, ch);
		} else {
			sb_putc(sb, ch);
		}
	}
}

/* Reads one grep stage c->w[from..to) into sb as a lookahead; false when
 * the stage hides lines it matches (-v, -c, -l, -q) or reads a file. */
static bool grep_stage(const struct cmdline *c, size_t from, size_t to,
		       struct strbuf *sb)
{
	struct line pats[8];
	size_t npats = 0, operands = 0;
	char syntax = line_eq(&c->w[from], "egrep") ? 'E' :
		      line_eq(&c->w[from], "fgrep") ? 'F' :
						      'G';
	bool caseless = false, word = false;

	for (size_t i = from + 1; i < to; i++) {
		const struct line *w = &c->w[i];

		if (w->len > 1 && w->p[0] == '-' && w->p[1] != '-') {
			for (size_t j = 1; j < w->len; j++) {
				char o = w->p[j];

				if (o == 'v' || o == 'c' || o == 'l' ||
				    o == 'q' || o == 'L' || o == 'f')
					return false;
				if (o == 'i')
					caseless = true;
				else if (o == 'w')
					word = true;
				else if (o == 'E' || o == 'F' || o == 'G' ||
					 o == 'P')
					syntax = o == 'P' ? 'E' : o;
				else if (o == 'e' && npats < ARRAY_SIZE(pats)) {
					if (j + 1 < w->len)
						pats[npats++] = (struct line){
							w->p + j + 1,
							w->len - j - 1, w->no
						};
					else if (i + 1 < to)
						pats[npats++] = c->w[++i];
					break;
				} else if (o == 'A' || o == 'B' || o == 'C' ||
					   o == 'm') {
					if (j + 1 == w->len)
						i++;
					break;
				}
			}
		} else if (w->len > 2 && w->p[0] == '-') {
			if (line_eq(w, "--invert-match") ||
			    line_eq(w, "--count"))
				return false;
			if (line_eq(w, "--ignore-case"))
				caseless = true;
		} else if (!npats && !operands) {
			pats[npats++] = *w;
			operands++;
		} else {
			return false; /* a file operand: not this output */
		}
	}
	if (!npats)
		return false;
	sb_puts(sb, caseless ? "(?=.*(?i:" : "(?=.*(?:");
	for (size_t i = 0; i < npats; i++) {
		if (i)
			sb_putc(sb, '|');
		sb_puts(sb, word ? "\\b(?:" : "(?:");
		grep_pattern(sb, &pats[i], syntax);
		sb_puts(sb, word ? ")\\b" : ")");
	}
	sb_puts(sb, "))");
	return true;
}

/* The stages after the command: grep filters become u->filter; a stage
 * that drops or rewrites lines makes the output incomplete. */
static void pipeline(const struct cmdline *c, size_t end,
		     struct command_use *u)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = end;

	u->complete = true;
	while (i < c->n) {
		size_t from, to;
		struct line name;

		if (!c->op[i] || !line_eq(&c->w[i], "|")) {
			/* 2>&1 keeps the output; > FILE hides it */
			if (c->op[i] && line_contains(&c->w[i], ">") &&
			    !(i + 1 < c->n && line_eq(&c->w[i + 1], "1")) &&
			    !line_contains(&c->w[i], "&"))
				u->complete = false;
			i++;
			continue;
		}
		from = i + 1;
		to = from;
		while (to < c->n && !c->op[to])
			to++;
		if (from >= to) {
			i = to;
			continue;
		}
		name = line_basename(c->w[from]);
		if (line_eq(&name, "grep") || line_eq(&name, "egrep") ||
		    line_eq(&name, "fgrep")) {
			if (!grep_stage(c, from, to, &sb))
				u->complete = false;
		} else {
			bool pass = false;

			for (size_t k = 0; k < ARRAY_SIZE(passing); k++)
				pass = pass || line_eq(&name, passing[k]);
			if (!pass)
				u->complete = false;
		}
		i = to;
	}
	if (sb.len && sb.len < sizeof(u->filter) - 1)
		snprintf(u->filter, sizeof(u->filter), "^%s", sb_str(&sb));
	else if (sb.len)
		u->complete = false;
	sb_release(&sb);
}

/* Whether words w[from..end) hold each space-separated word of subs
 * (NULL: nothing asked). */
static bool holds_words(const struct cmdline *c, size_t from, size_t end,
			const char *subs)
{
	for (const char *p = subs; p && *p;) {
		size_t n = strcspn(p, " ");
		char word[32];
		bool found = false;

		if (n >= sizeof(word))
			return false;
		memcpy(word, p, n);
		word[n] = '\0';
		for (size_t j = from; j < end && !found; j++)
			found = line_eq(&c->w[j], word);
		if (!found)
			return false;
		p += n + (p[n] == ' ');
	}
	return true;
}

/* Reads the command in words[at..]; false when there is none. */
static bool read_command(const struct line *rest, struct command_use *u)
{
	struct cmdline *c = xmalloc(sizeof(*c));
	size_t at = 0, end;
	bool found = false;

	memset(u, 0, sizeof(*u));
	u->which = -1;
	shell_split(*rest, c);
	while (at < c->n && !c->op[at] && is_wrapper(&c->w[at]))
		at++;
	if (at >= c->n || c->op[at])
		goto done;
	found = true;
	line_copy(rest, u->text, sizeof(u->text));
	{
		struct line prog = line_basename(c->w[at]);

		line_copy(&prog, u->tool, sizeof(u->tool));
	}
	end = own_end(c, at);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		struct line name = line_basename(c->w[at]);
		if (!command_is(&name, commands[i].command) ||
		    !holds_words(c, at + 1, end, commands[i].sub))
			continue;
		u->which = (int)i;
		u->format = commands[i].format;
		command_arg(c, at, end, &commands[i], u);
		break;
	}
	pipeline(c, end, u);
	/* ls DIR/umad*: a glob shows only what it matches */
	if (u->which >= 0 && commands[u->which].arg == ARG_DIR &&
	    strpbrk(u->arg, "*?["))
		u->complete = false;
done:
	free(c);
	return found;
}

/* Whether [p, p+len) is a host name as RFC 1123 spells one: labels of
 * letters, digits and '-', joined by dots, with a letter somewhere (so
 * that "15" of a "[15:21]" clock is not taken). */
static bool host_name(const char *p, size_t len)
{
	bool letter = false;

	if (!len || len > HOST_BYTES - 1 || !isalnum((unsigned char)p[0]) ||
	    p[len - 1] == '-' || p[len - 1] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (!isalnum(c) && c != '-' && c != '.')
			return false;
		if (c == '.' && p[i + 1] == '.')
			return false;
		letter |= isalpha(c) != 0;
	}
	return letter;
}

/* The host a prompt's words w[0..at) name, as the shells' default prompts
 * print it: bash's "\u@\h:\w\$" and "[\u@\h \W]\$", zsh's "%n@%m",
 * tcsh's "%m:%~ %" and SUSE's "\h:\w #".  Copied into out (HOST_BYTES);
 * false when no word names one ("$", "sh-5.1#", "PS C:\>"). */
static bool prompt_host(const struct line *w, size_t at, char *out)
{
	for (size_t i = 0; i < at; i++) {
		const char *p = w[i].p, *end = w[i].p + w[i].len;
		const char *at_sign = memrchr(p, '@', w[i].len), *stop;

		if (at_sign) {
			p = at_sign + 1;
			for (stop = p; stop < end && *stop != ':' &&
				       *stop != ']' && *stop != '$' &&
				       *stop != '#' && *stop != '%';
			     stop++)
				;
		} else {
			stop = memchr(p, ':', w[i].len);
			/* host:path, the path from ~ or / */
			if (!stop || stop + 1 >= end ||
			    (stop[1] != '~' && stop[1] != '/'))
				continue;
		}
		if (host_name(p, (size_t)(stop - p))) {
			memcpy(out, p, (size_t)(stop - p));
			out[stop - p] = '\0';
			return true;
		}
	}
	return false;
}

/* Whether ln is a prompt with a command; u gets the command, and host the
 * host the prompt names ("" when none; "*" when the command runs on other
 * hosts, ssh or pdsh, so that the prompt names none of the output). */
static bool prompt_line(const struct line *ln, struct command_use *u,
			char *host)
{
	struct line w[PROMPT_WORDS], rest;
	size_t n = line_split(ln, w, PROMPT_WORDS), at;
	bool bare;

	host[0] = '\0';
	at = prompt_end(w, n, &bare);
	if (!at || at >= n)
		return false;
	rest = *ln;
	rest.len = (size_t)(ln->p + ln->len - w[at].p);
	rest.p = w[at].p;
	if (!read_command(&rest, u))
		return false;
	if (!(u->which >= 0 || !bare))
		return false;
	if (!prompt_host(w, at, host))
		host[0] = '\0';
	else if (runs_elsewhere(&rest))
		snprintf(host, HOST_BYTES, "*");
	return true;
}

/* A command written without its prompt ("rdma link show" above its
 * output, as scripts echo them): a known tool's name first, a few words,
 * none of them prose punctuation. */
static bool bare_command_line(const struct line *ln, struct command_use *u)
{
	struct line w[10];
	size_t n = line_split(ln, w, 10);

	if (!n || n > 8 || line_contains(ln, ": ") || ln->p[ln->len - 1] == '.' ||
	    ln->p[ln->len - 1] == ':')
		return false;
	/* a command's words are ASCII: anything else is prose about it */
	for (size_t i = 0; i < ln->len; i++)
		if ((unsigned char)ln->p[i] >= 0x80)
			return false;
	if (!read_command(ln, u) || u->which < 0 || !u->format)
		return false;
	/* ib_* and ibv_* name words of prose too often */
	return commands[u->which].command[strlen(commands[u->which].command) -
					  1] != '*';
}

static bool fence_line(const struct line *t)
{
	return line_starts(t, "```") || line_starts(t, "~~~");
}

/* "==> /sys/class/infiniband/mlx5_0/fw_ver <==" (head and tail) */
static bool banner_line(const struct line *t, struct line *path)
{
	if (t->len < 9 || !line_starts(t, "==> ") ||
	    memcmp(t->p + t->len - 4, " <==", 4))
		return false;
	*path = line_trim((struct line){ t->p + 4, t->len - 8, t->no });
	return path->len > 0;
}

/* A markdown heading: "# Title" .. "###### Title" */
static bool heading_line(const struct line *t)
{
	size_t i = 0;

	while (i < t->len && i < 7 && t->p[i] == '#')
		i++;
	return i >= 1 && i <= 6 && i + 1 < t->len && t->p[i] == ' ' &&
	       t->p[i + 1] != ' ';
}

/* A region between two hard boundaries, and its parts. */
struct block {
	const char *start, *end; /* text */
	uint32_t first, last; /* lines; last < first when empty */
	const struct format *fmt;
	struct command_use *use; /* shared by the parts of one region */
	/* the command the block is under, whether or not its output is
	 * this block's format: its program names the tool of error lines
	 * that name none */
	const struct command_use *under;
	bool listed; /* the command's own output (its first part) */
	unsigned facts;
};

struct cutter {
	const char *text;
	size_t len;
	struct block *b;
	size_t n, cap;
	struct command_use **uses;
	size_t nuses, capuses;
	char host[HOST_BYTES]; /* the host the prompts name */
	struct line host_at; /* the first prompt naming it */
	bool hosts_differ;
};

/* Notes the host a prompt named: one host for the paste only when every
 * prompt naming one names the same (a client and a server differ). */
static void note_host(struct cutter *k, const char *host,
		      const struct line *at)
{
	if (!host[0] || k->hosts_differ)
		return;
	if (!strcmp(host, "*")) {
		k->hosts_differ = true; /* the output is other hosts' */
		return;
	}
	if (!k->host[0]) {
		snprintf(k->host, sizeof(k->host), "%s", host);
		k->host_at = *at;
	} else if (strcmp(k->host, host)) {
		k->hosts_differ = true;
	}
}

static struct block *add_block(struct cutter *k, const char *start,
			       uint32_t first, struct command_use *use)
{
	struct block *b;

	if (k->n >= BLOCKS_MAX)
		return &k->b[k->n - 1];
	xgrow(&k->b, &k->cap, k->n + 1, sizeof(*k->b));
	b = &k->b[k->n++];
	memset(b, 0, sizeof(*b));
	b->start = b->end = start;
	b->first = first;
	b->last = first - 1;
	b->use = use;
	b->listed = use != NULL;
	return b;
}

static struct command_use *keep_use(struct cutter *k,
				    const struct command_use *u)
{
	struct command_use *c = xmalloc(sizeof(*c));

	*c = *u;
	xgrow(&k->uses, &k->capuses, k->nuses + 1, sizeof(*k->uses));
	k->uses[k->nuses++] = c;
	return c;
}

static bool has_text(const struct block *b)
{
	for (const char *p = b->start; p < b->end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			return true;
	return false;
}

/* The next line of the output that follows from: after blank lines and
 * the fence that opens it (between a command and its output), to the next
 * blank line or fence, at most BARE_LOOKAHEAD lines.  started is false
 * before the first. */
static bool output_line(struct lines *it, const struct lines *from,
			bool *started, struct line *ln)
{
	while (lines_next(it, ln) && it->no - from->no < BARE_LOOKAHEAD) {
		struct line t = line_trim(*ln);

		if (t.len && !fence_line(&t)) {
			*started = true;
			return true;
		}
		if (*started)
			return false;
	}
	return false;
}

/* Whether the output that follows from (output_line) reads as format. */
static bool followed_by(const struct lines *from, const char *format)
{
	const struct format *f = format_find(format);
	struct lines it = *from;
	struct line ln;
	const char *start = it.text + it.pos, *end = start;
	bool started = false;

	if (!f)
		return false;
	while (output_line(&it, from, &started, &ln))
		end = ln.p + ln.len;
	return format_score(f, start, (size_t)(end - start)) >=
	       FORMAT_MIN_SCORE;
}

/* Whether every line of the output that follows (output_line) passes the
 * grep filter of command u: a closing fence under "$ lsmod | grep
 * rdma_rxe" with nothing between may not take the next fence's
 * unfiltered lsmod as its output. */
static bool filter_passes(const struct lines *from,
			  const struct command_use *u)
{
	struct lines it = *from;
	struct line ln;
	struct regex *re;
	bool started = false, pass = true;
	char err[128];
	size_t off;

	if (!u->filter[0])
		return true;
	re = regex_compile(u->filter, 0, err, sizeof(err), &off);
	if (!re)
		return false;
	while (pass && output_line(&it, from, &started, &ln))
		pass = regex_match(re, ln.p, ln.len, NULL) == 1;
	regex_free(re);
	return pass;
}

/* Cuts the text at hard boundaries into regions (a block each). */
static void cut_regions(struct cutter *k)
{
	struct lines it;
	struct line raw;
	struct block *cur = add_block(k, k->text, 1, NULL);
	bool fenced = false; /* between an opening fence and its close */

	lines_init(&it, k->text, k->len);
	while (lines_next(&it, &raw)) {
		struct line t = line_trim(raw), path, cmd = t;
		struct command_use u;
		char host[HOST_BYTES];
		const char *next = it.text + it.pos;

		/* a command in a markdown code span on its own line
		 * ("`uname -a`", "`$ ibstat`") is the command */
		if (t.len > 2 && t.p[0] == '`' && t.p[t.len - 1] == '`' &&
		    t.p[1] != '`')
			cmd = line_trim((struct line){ t.p + 1, t.len - 2,
						       t.no });
		if (fence_line(&t)) {
			/* a command above the fence its output is in ("`$ cmd`"
			 * and then the fenced output): the output is the
			 * command's, and the empty block between lists nothing.
			 * Only a fence that opens, outside the command's own
			 * fence, and only when what it holds reads as the
			 * command's output: a grep that found nothing keeps
			 * its empty listing, and the next fence its own. */
			bool output = cur->use && !has_text(cur) &&
				      cur->use->format &&
				      followed_by(&it, cur->use->format);
			/* a paste cut inside a fence leaves its close to
			 * read as an opening: a fence right under a command,
			 * before what reads as its output, opens all the
			 * same */
			bool opens, takes;
			struct command_use *carry;

			/* ...and, for a fence that may be a close, only when
			 * what follows passes the command's grep */
			takes = output &&
				(!fenced || filter_passes(&it, cur->use));
			opens = !fenced || takes;
			carry = takes ? cur->use : NULL;

			fenced = opens;

			if (carry) {
				cur->use = NULL;
				cur->listed = false;
			}
			cur = add_block(k, next, raw.no + 1, carry);
			continue;
		}
		if (banner_line(&t, &path)) {
			memset(&u, 0, sizeof(u));
			u.which = -1;
			u.complete = true;
			u.format = format_of_path(&path);
			line_copy(&path, u.arg, sizeof(u.arg));
			snprintf(u.text, sizeof(u.text), "==> %.*s <==",
				 (int)(sizeof(u.text) - 9), u.arg);
			cur = add_block(k, next, raw.no + 1,
					u.format ? keep_use(k, &u) : NULL);
			continue;
		}
		if (prompt_line(&cmd, &u, host)) {
			note_host(k, host, &cmd);
			cur = add_block(k, next, raw.no + 1, keep_use(k, &u));
			continue;
		}
		if (bare_command_line(&cmd, &u) &&
		    followed_by(&it, u.format)) {
			cur = add_block(k, next, raw.no + 1, keep_use(k, &u));
			continue;
		}
		if (heading_line(&t) &&
		    !(cur->use && cur->use->format &&
		      format_score(format_find(cur->use->format), t.p, t.len) >
			      0)) {
			/* the heading is the block's first line: some
			 * outputs start so ("# Port counters: Lid 1") */
			cur = add_block(k, raw.p, raw.no, NULL);
			cur->end = raw.p + raw.len;
			cur->last = raw.no;
			continue;
		}
		cur->end = raw.p + raw.len;
		cur->last = raw.no;
	}
}

/* The paragraph from *pos: to the next blank line (blank lines before it
 * skipped).  False at the end. */
static bool paragraph(const char *end, const char **pos, uint32_t *no,
		      struct block *para)
{
	struct lines it;
	struct line ln;
	bool in = false;

	lines_init(&it, *pos, (size_t)(end - *pos));
	it.no = *no - 1;
	memset(para, 0, sizeof(*para));
	while (lines_next(&it, &ln)) {
		if (!line_trim(ln).len) {
			if (in)
				break;
			continue;
		}
		if (!in) {
			para->start = ln.p;
			para->first = ln.no;
			in = true;
		}
		para->end = ln.p + ln.len;
		para->last = ln.no;
	}
	*pos = it.text + it.pos;
	*no = it.no + 1;
	return in;
}

/* Splits one region into parts by content: paragraphs of one format stay
 * together, a paragraph of another format starts a part of its own. */
static void split_region(const struct block *region, struct block **out,
			 size_t *nout, size_t *cap)
{
	const struct format *named =
		region->use && region->use->format ?
			format_find(region->use->format) :
			NULL;
	const char *pos = region->start;
	uint32_t no = region->first;
	struct block para, *cur = NULL;

	if (region->last < region->first || !has_text(region)) {
		/* a command without output: an empty part of its format */
		if (named) {
			xgrow(out, cap, *nout + 1, sizeof(**out));
			(*out)[*nout] = *region;
			(*out)[*nout].under = region->use;
			(*out)[(*nout)++].fmt = named;
		}
		return;
	}
	while (pos < region->end &&
	       paragraph(region->end, &pos, &no, &para)) {
		size_t len = (size_t)(para.end - para.start);

		para.under = region->use;
		int score = 0;
		const struct format *det =
			format_detect(para.start, len, &score);

		if (!cur && named) {
			/* the command's own output, unless it plainly is
			 * another tool's (ibv_devinfo pasted under ibstat) */
			int own = format_score(named, para.start, len);

			para.fmt = named;
			if (det && det != named && !own &&
			    named->nmarkers > 1 && score >= STRONG_SCORE)
				para.fmt = det;
			para.use = region->use;
			para.listed = para.fmt == named;
			para.first = region->first;
			para.start = region->start;
		} else if (cur &&
			   ((det && det == cur->fmt) ||
			    (cur->fmt && format_score(cur->fmt, para.start,
						      len) > 0 &&
			     (!det || score < STRONG_SCORE ||
			      cur->fmt == named)) ||
			    (!det && !cur->fmt))) {
			cur->end = para.end;
			cur->last = para.last;
			continue;
		} else {
			para.fmt = det;
			para.use = det && det == named ? region->use : NULL;
		}
		xgrow(out, cap, *nout + 1, sizeof(**out));
		(*out)[(*nout)++] = para;
		cur = &(*out)[*nout - 1];
	}
}

static void emit_listing(struct emit *e, const struct format *f,
			 const struct command_use *u, unsigned count,
			 const struct line *at)
{
	struct fact *l = emit_begin(e, "listing", at);
	const char *filter = u && u->filter[0] ? u->filter : "";

	emit_str(e, l, "tool", f->name, strlen(f->name), at);
	emit_str(e, l, "of", f->lists, strlen(f->lists), at);
	emit_value(e, l, "filter", value_str(filter, strlen(filter)), at);
	if (u && u->arg[0] && !strcmp(f->lists, "hca"))
		emit_str(e, l, "hca", u->arg, strcspn(u->arg, ":"), at);
	emit_int(e, l, "count", count, at);
	if (u && u->text[0])
		emit_str(e, l, "command", u->text, strlen(u->text), at);
	emit_end(e, l);
}

void blocks_listing(struct emit *e, const char *format, unsigned count)
{
	const struct format *f = format_find(format);

	if (f && f->lists)
		emit_listing(e, f, NULL, count, NULL);
}

/* Whether the block shows the header its format prints before its
 * entries (a complete output pasted without its command). */
static bool shows_header(const struct block *b)
{
	struct lines it;
	struct line ln;

	for (size_t i = 0; i < ARRAY_SIZE(headed); i++) {
		if (strcmp(headed[i].format, b->fmt->name))
			continue;
		lines_init(&it, b->start, (size_t)(b->end - b->start));
		while (lines_next(&it, &ln)) {
			struct line t = line_trim(ln);

			if (headed[i].header(&t))
				return true;
		}
	}
	return false;
}

static size_t tool_errors(const struct emit *e)
{
	size_t n = 0;

	fact_base_of_kind(e->fb, sym_intern_cstr("tool_error"), &n);
	return n;
}

/* Parses one block with its format; the facts it gave. */
static unsigned parse_block(struct emit *e, struct block *b)
{
	const struct command_use *u = b->listed ? b->use : NULL;
	uint32_t base = e->line_base, kind = 0;
	unsigned before = e->nfacts, watched;
	size_t errors;
	struct line cmd = { NULL, 0, 0 };

	if (!b->fmt)
		return 0;
	if (b->fmt->lists) {
		kind = sym_intern_cstr(b->fmt->lists);
		e->watch_kind = kind;
		e->watched = 0;
	}
	errors = tool_errors(e);
	e->line_base = base + b->first - 1;
	/* the tool errors of the command's own output are its program's */
	e->command = b->use && b->use->tool[0] ? b->use->tool : NULL;
	/* a format read anywhere gets the program of the command above,
	 * as in every other block */
	if (b->fmt->flags & FORMAT_ANYWHERE)
		b->fmt->parse(e, b->start, (size_t)(b->end - b->start),
			      b->under && b->under->tool[0] ? b->under->tool :
							       NULL);
	else
		b->fmt->parse(e, b->start, (size_t)(b->end - b->start),
			      u && u->arg[0] ? u->arg : NULL);
	e->command = NULL;
	e->line_base = base;
	watched = e->watched;
	e->watch_kind = 0;
	/* a tool that printed an error instead of its listing lists
	 * nothing: what it does not show is not evidence.  A header
	 * shown is printed only once the list was read (rdma-core
	 * libibverbs/examples/devices.c prints it after
	 * ibv_get_device_list() succeeded, kmod's lsmod after reading
	 * /proc/modules), so the warnings above it (libibverbs' provider
	 * warnings) leave the listing complete */
	if (b->fmt->lists && (tool_errors(e) == errors || shows_header(b)) &&
	    ((u && u->complete && u->text[0] && strncmp(u->text, "==>", 3)) ||
	     (!u && shows_header(b)))) {
		if (u)
			cmd = (struct line){ u->text, strlen(u->text),
					     b->first > 1 ? b->first - 1 : 1 };
		emit_listing(e, b->fmt, u, watched, u ? &cmd : NULL);
	}
	return e->nfacts - before;
}

/* Whether a block not read as a kernel log holds kernel lines. */
static bool holds_kernel_lines(const struct emit *e, const struct block *b)
{
	struct lines it;
	struct line ln;

	lines_init(&it, b->start, (size_t)(b->end - b->start));
	while (lines_next(&it, &ln)) {
		struct line t = line_trim(ln);

		if (t.len && (log_kernel_line(&t) || log_driver_line(&t) ||
			      log_oops_line(&t) || log_pasted_line(e, &t)))
			return true;
	}
	return false;
}

#define QUOTE_INDENT 8 /* @@ columns of indentation before a quote mark */

/* The line without the quote marks a mail client put before it, at any
 * depth and however spelled: "> ", ">> ", ">>> ", "> > ", each after up
 * to QUOTE_INDENT columns of indentation (a quoted reply indented once
 * more by the next reply). */
static struct line unquote(struct line t)
{
	size_t i = 0;

	while (i < t.len && i < QUOTE_INDENT && (t.p[i] == ' ' || t.p[i] == '\t'))
		i++;
	if (i >= t.len || t.p[i] != '>')
		return t;
	while (i < t.len && t.p[i] == '>') {
		i++;
		/* "> > text": the next level after one space */
		if (i + 1 < t.len && t.p[i] == ' ' && t.p[i + 1] == '>')
			i++;
	}
	if (i < t.len && t.p[i] == ' ')
		i++;
	t.p += i;
	t.len -= i;
	return t;
}

/* The bytes of an arrow shaft: '-' and the dashes of UTF-8 text
 * ("\xe2\x80\x94" EM DASH, "\xe2\x80\x95" HORIZONTAL BAR, "\xe2\x94\x80"
 * BOX DRAWINGS LIGHT HORIZONTAL); the length of the one at p, or 0. */
static size_t shaft(const char *p, size_t n)
{
	if (n >= 1 && p[0] == '-')
		return 1;
	if (n >= 3 && (unsigned char)p[0] == 0xe2 &&
	    (((unsigned char)p[1] == 0x80 &&
	      ((unsigned char)p[2] == 0x94 || (unsigned char)p[2] == 0x95)) ||
	     ((unsigned char)p[1] == 0x94 && (unsigned char)p[2] == 0x80)))
		return 3;
	return 0;
}

/* Whether a note starts at p: after the arrow, a word (a letter, or any
 * non-ASCII text), not a number (iblinkinfo's "==( 4X ...)==>   3  1"). */
static bool note_follows(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '>' || *p == '\t'))
		p++;
	return p < end && (isalpha((unsigned char)*p) || (unsigned char)*p >= 0x80);
}

/* The line without an annotation a person added after its value: from an
 * arrow pointing at the note ("---->", "\xe2\x80\x94\xe2\x80\x94>>>") or back at the
 * value ("<--", "<=="), when a word follows it, to the end.  "==>" is no
 * note's arrow: ibdev2netdev prints "mlx5_0 port 1 ==> ib0 (Up)". */
static struct line strip_note(struct line t)
{
	const char *end = t.p + t.len, *value = t.p;

	/* an arrow that starts the line points at no value: Open MPI's help
	 * texts indent their own ("  --> Returned \"Unreachable\" (-12)") */
	while (value < end && (*value == ' ' || *value == '\t' || *value == '>'))
		value++;
	{
		/* ...whatever its length ("  ---> ...") */
		const char *q = value;
		size_t k, shafts = 0;

		while ((k = shaft(q, (size_t)(end - q))))
			q += k, shafts++;
		if (shafts && q < end && *q == '>')
			value = q;
	}
	for (const char *p = value + 1; p < end; p++) {
		const char *q = p;
		size_t shafts = 0, k;

		if (*p == '<' && p + 2 < end && (p[1] == '-' || p[1] == '=') &&
		    p[2] == p[1] && p[-1] != '<') {
			/* "<--", "<==", "<---", "<=====": the whole shaft */
			const char *r = p + 1;

			while (r < end && *r == p[1])
				r++;
			if (note_follows(r, end)) {
				t.len = (size_t)(p - t.p);
				break;
			}
		}
		while ((k = shaft(q, (size_t)(end - q))))
			q += k, shafts++;
		if (shafts >= 2 && q < end && *q == '>' &&
		    note_follows(q, end)) {
			t.len = (size_t)(p - t.p);
			break;
		}
		if (shafts)
			p = q - 1;
	}
	while (t.len && (t.p[t.len - 1] == ' ' || t.p[t.len - 1] == '\t'))
		t.len--;
	return t;
}

/* The line without markdown emphasis or code marks around all of it
 * ("_cmd -v_", "*text*", "**text**", "__text__", "`cmd`"): the same run of
 * one to three '*' or '_' (or one '`') at both ends, with no space just
 * inside either, as CommonMark's flanking rule requires of a delimiter run
 * that opens and closes (a "* item" bullet or "** note" is left alone). */
static struct line unemphasize(struct line t)
{
	struct line m = line_trim(t);
	char c;
	size_t run = 0;

	if (m.len < 3)
		return t;
	c = m.p[0];
	if (c != '*' && c != '_' && c != '`')
		return t;
	while (run < m.len && run < 4 && m.p[run] == c)
		run++;
	if (run > (c == '`' ? 1u : 3u) || m.len <= 2 * run)
		return t;
	for (size_t i = 0; i < run; i++)
		if (m.p[m.len - 1 - i] != c)
			return t;
	if (m.p[m.len - 1 - run] == c || isspace((unsigned char)m.p[run]) ||
	    isspace((unsigned char)m.p[m.len - 1 - run]))
		return t;
	m.p += run;
	m.len -= 2 * run;
	return m;
}

/* Drops what mail clients and markdown add around pasted lines, keeping
 * one line per line: quote markers, emphasis around a whole line,
 * non-breaking spaces, and notes a person wrote after a value. */
static char *normalize(const char *text, size_t len, size_t *outlen)
{
	struct strbuf sb = STRBUF_INIT;
	struct lines it;
	struct line ln;

	lines_init(&it, text, len);
	while (lines_next(&it, &ln)) {
		struct line t = strip_note(unquote(ln));

		/* nested marks: "**_`cmd`_**" */
		for (int i = 0; i < 3; i++)
			t = unemphasize(t);
		for (size_t i = 0; i < t.len; i++) {
			if ((unsigned char)t.p[i] == 0xc2 && i + 1 < t.len &&
			    (unsigned char)t.p[i + 1] == 0xa0) {
				sb_putc(&sb, ' ');
				i++;
			} else {
				sb_putc(&sb, t.p[i]);
			}
		}
		sb_putc(&sb, '\n');
	}
	*outlen = sb.len;
	if (!sb.len)
		sb_putc(&sb, '\0');
	return sb_detach(&sb);
}

static void summarize(struct blocks_summary *sum, const struct block *b,
		      size_t i)
{
	if (i < DETAIL_BLOCKS) {
		if (b->last < b->first)
			sb_printf(&sum->detail, "%safter line %u ", i ? ", " : "",
				  b->first - 1);
		else if (b->last == b->first)
			sb_printf(&sum->detail, "%sline %u ", i ? ", " : "",
				  b->first);
		else
			sb_printf(&sum->detail, "%slines %u-%u ",
				  i ? ", " : "", b->first, b->last);
		if (b->facts)
			sb_printf(&sum->detail, "%s (%u)",
				  b->fmt ? b->fmt->name : "kernel log",
				  b->facts);
		else if (b->fmt)
			sb_printf(&sum->detail, "%s ignored", b->fmt->name);
		else
			sb_puts(&sum->detail, "ignored");
	} else if (i == DETAIL_BLOCKS) {
		sb_puts(&sum->detail, ", ...");
	}
}

static void emit_block(struct emit *e, const struct block *b)
{
	struct line at = { b->start, (size_t)(b->end - b->start), b->first };
	struct fact *f;
	const char *status = b->facts ? "understood" : "ignored";

	{
		const char *nl = memchr(at.p, '\n', at.len);

		if (nl)
			at.len = (size_t)(nl - at.p);
	}
	f = emit_begin(e, "block", &at);
	emit_int(e, f, "first", b->first, &at);
	emit_int(e, f, "last", b->last, &at);
	if (b->fmt)
		emit_str(e, f, "format", b->fmt->name, strlen(b->fmt->name),
			 &at);
	emit_str(e, f, "status", status, strlen(status), &at);
	if (b->use && b->use->text[0])
		emit_str(e, f, "command", b->use->text, strlen(b->use->text),
			 &at);
	emit_int(e, f, "facts", b->facts, &at);
	emit_end(e, f);
}

/* The best guess of what a text that gave nothing is. */
static const char *guess(const char *text, size_t len)
{
	int best = 0;
	const char *name = NULL;

	for (size_t i = 0; i < format_count(); i++) {
		const struct format *f = format_at(i);
		int s = f->flags & FORMAT_NAMED ? 0 :
						  format_score(f, text, len);

		if (s > best) {
			best = s;
			name = f->name;
		}
	}
	return name;
}

/* Joins fragments of one output that prose or fences split ("it has:
 * LnkCap ... and: LnkSta ..."): parts of one format without a command of
 * their own, with only unread parts between them.  An output under a
 * command line of its own stays apart: it is another snapshot. */
static size_t join_fragments(struct block *parts, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		size_t prev = out;

		while (prev > 0 && !parts[prev - 1].fmt &&
		       !parts[prev - 1].use)
			prev--;
		if (prev > 0 && parts[i].fmt && !parts[i].use &&
		    parts[prev - 1].fmt == parts[i].fmt &&
		    !parts[prev - 1].use && prev < out) {
			parts[prev - 1].end = parts[i].end;
			parts[prev - 1].last = parts[i].last;
			out = prev;
			continue;
		}
		parts[out++] = parts[i];
	}
	return out;
}

int blocks_parse(struct emit *e, const char *raw, size_t rawlen,
		 struct blocks_summary *sum)
{
	struct cutter k = { 0 };
	struct block *parts = NULL;
	size_t nparts = 0, cap = 0, len;
	char *text = normalize(raw, rawlen, &len);
	unsigned before = e->nfacts, read;
	struct emit le = *e;
	struct log_stream *log;
	bool own_host;

	k.text = text;
	k.len = len;
	cut_regions(&k);
	own_host = !e->host && k.host[0] && !k.hosts_differ;
	if (own_host) {
		e->host = k.host;
		e->host_at = k.host_at;
		e->host_line = k.host_at.no + e->line_base;
		e->hosts_named = 0;
	}
	for (size_t i = 0; i < k.n; i++)
		split_region(&k.b[i], &parts, &nparts, &cap);
	nparts = join_fragments(parts, nparts);
	le.line_base = e->line_base;
	le.nfacts = 0;
	le.host = e->host;
	le.host_at = e->host_at;
	le.host_line = e->host_line;
	le.hosts_named = 0;
	log = log_stream_new(&le);
	for (size_t i = 0; i < nparts; i++) {
		struct block *b = &parts[i];
		bool kernel;
		unsigned lf = le.nfacts;

		/* a block reaches no byte outside the text it was cut from */
		if (b->start < text || b->end > text + len || b->end < b->start)
			b->fmt = NULL, b->start = b->end = text;
		kernel = b->fmt && !strcmp(b->fmt->name, "dmesg");
		if (!kernel) {
			/* the outputs of this tool before this one */
			e->snapshot = 0;
			for (size_t j = 0; j < i; j++)
				e->snapshot += parts[j].fmt == b->fmt;
			b->facts = parse_block(e, b);
			e->snapshot = 0;
		}
		if (kernel || holds_kernel_lines(e, b)) {
			log_stream_feed_at(log, b->start,
					   (size_t)(b->end - b->start),
					   b->first, !kernel);
			b->facts += le.nfacts - lf;
		}
		for (size_t j = 0; j < format_count(); j++) {
			const struct format *f = format_at(j);
			uint32_t base = e->line_base;
			unsigned n0 = e->nfacts;

			if (!(f->flags & FORMAT_ANYWHERE) || f == b->fmt)
				continue;
			e->line_base = base + b->first - 1;
			/* the program the block's command ran names the
			 * tool of error lines that name none, and the
			 * program of application lines that name none */
			e->command_line = b->under && b->under->text[0] ?
						  b->under->text :
						  NULL;
			f->parse(e, b->start, (size_t)(b->end - b->start),
				 b->under && b->under->tool[0] ?
					 b->under->tool :
					 NULL);
			e->command_line = NULL;
			e->line_base = base;
			b->facts += e->nfacts - n0;
		}
	}
	log_stream_end(log);
	e->nfacts += le.nfacts;
	/* the prompts' host describes what was read, and alone is no
	 * reading; its own fact only when no host fact of the paste took
	 * its name */
	if (e->nfacts > before && own_host && !e->hosts_named &&
	    !le.hosts_named) {
		struct fact *f = emit_begin(e, "host", &k.host_at);

		e->host = NULL;
		emit_str(e, f, "hostname", k.host, strlen(k.host), &k.host_at);
		emit_end(e, f);
	}
	if (own_host)
		e->host = NULL;
	read = e->nfacts - before;
	if (sum) {
		memset(sum, 0, sizeof(*sum));
		sum->detail = (struct strbuf)STRBUF_INIT;
	}
	for (size_t i = 0; i < nparts; i++) {
		if (sum) {
			sum->blocks++;
			if (parts[i].facts > 0 && parts[i].fmt &&
			    !sum->understood)
				sum->format = parts[i].fmt->name;
			else if (parts[i].facts > 0 &&
				 (!parts[i].fmt || !sum->format ||
				  strcmp(sum->format, parts[i].fmt->name)))
				sum->format = NULL;
			sum->understood += parts[i].facts > 0;
			sum->recognised += parts[i].fmt != NULL;
			summarize(sum, &parts[i], i);
		}
		emit_block(e, &parts[i]);
	}
	if (sum) {
		sum->facts = (int)read;
		if (!sum->understood)
			sum->looks_like = guess(text, len);
		if (!sum->understood && sum->recognised)
			for (size_t i = 0; i < nparts; i++)
				if (parts[i].fmt)
					sum->format = parts[i].fmt->name;
	}
	for (size_t i = 0; i < k.nuses; i++)
		free(k.uses[i]);
	free(k.uses);
	free(k.b);
	free(parts);
	free(text);
	return (int)read;
}

void blocks_summary_release(struct blocks_summary *sum)
{
	if (sum)
		sb_release(&sum->detail);
}

int parse_transcript(struct emit *e, const char *text, size_t len,
		     const char *arg)
{
	(void)arg;
	return blocks_parse(e, text, len, NULL);
}
