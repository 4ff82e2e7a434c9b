/* Kernel logs in every form: dmesg (no timestamp, "[seconds]", -T), syslog
 * and /var/log/messages, journalctl short and short-iso, pdsh "host: "
 * prefixes, printk caller ids, and lines a mail client wrapped.  Lines the
 * signature scanner finds RDMA-related become log facts; signature hits
 * become log_event facts, aggregated per signature and device. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "collectors/parsers/parse_log.h"

#include "collectors/parsers/formats.h"
#include "collectors/parsers/logscan.h"
#include "engine/strbuf.h"
#include "engine/symbol.h"
#include "engine/xalloc.h"

/* Bounds: one record (a line and its wrapped continuations), RDMA lines
 * kept as log facts per file, signature hits per line, events per file. */
#define LOG_RECORD_MAX 4096 /* @@ */
#define LOG_FACTS_MAX 20000 /* @@ */
#define LOG_HITS_MAX 8 /* @@ */
#define LOG_EVENTS_MAX 10000 /* @@ */

/* The prefix of one line: where its message starts, and its time. */
struct stamp {
	size_t msg; /* offset of the message */
	char time[40];
	char host[64]; /* syslog's or pdsh's host name, when there is one */
	double ts; /* seconds, or -1 when the time does not parse */
	bool wall; /* ts counts from the epoch, not from boot */
	bool any; /* the line carries a timestamp */
	int level; /* the printk level the prefix gives (0 emerg .. 7
		    * debug), or -1 */
};

struct event {
	size_t sig;
	char device[64];
	char host[64];
	long count;
	char first[40], last[40];
	double first_ts, last_ts;
	bool wall;
	char detail[128];
	struct line where; /* where.p points into line */
	char *line;
};

struct scan {
	struct emit *e;
	struct logscan *ls;
	struct event *events;
	size_t nevents, capevents;
	unsigned log_facts;
	size_t limit_hits;
	bool stamped; /* the file's lines carry timestamps */
	char host[64]; /* the host every stamped line named so far */
	struct line host_at; /* its first line, host_line */
	char *host_line;
	bool hosts_differ;
	char kernel[65]; /* the release every line that names one named */
	struct line kernel_at; /* its first line, kernel_line */
	char *kernel_line;
	bool kernels_differ;
	struct banner *banners; /* the latest load banner of each module */
	size_t nbanners;
	bool modules_open; /* the last record was a module list that may go
			    * on in the next one */
};

/* A driver's load banner, kept until the scan ends: a log of several
 * boots (/var/log/messages before and after an MLNX_OFED install) prints
 * one per load, and the last is the driver that runs. */
struct banner {
	char name[32];
	char version[33];
	struct line at; /* its line, owned (line) */
	char *line;
};

#define MAX_BANNERS 32

static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
				      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

static bool digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* Two digits at p, or -1. */
static int two_digits(const char *p)
{
	if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
		return -1;
	return (p[0] - '0') * 10 + (p[1] - '0');
}

/* The common, fixed-width forms of the two stamps strptime reads below,
 * without its cost (it runs for every recorded line): "2026-08-07T09:24:35"
 * for "%Y-%m-%dT%H:%M:%S" and "Feb 20 23:49:53" or "Feb  3 23:49:53" for
 * "%b %d %H:%M:%S" (s starts with a month's abbreviation).  Every field
 * within the range glibc's strptime accepts (day 1-31, hour 0-23, minute
 * 0-59, second 0-61), which it reads whole as here: the same fields of tm
 * and the same end.  NULL when s is not in that form; then strptime
 * decides. */
static const char *fixed_time(const char *s, bool iso, struct tm *tm)
{
	int year = 0, mon, day, hour, min, sec;
	const char *t;

	if (iso) {
		if (!digits(s, 4) || s[4] != '-' || s[7] != '-' || s[10] != 'T')
			return NULL;
		year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 +
		       (s[2] - '0') * 10 + (s[3] - '0');
		mon = two_digits(s + 5);
		day = two_digits(s + 8);
		t = s + 11;
	} else {
		mon = 0;
		for (int i = 0; i < 12; i++)
			if (!memcmp(s, months[i], 3))
				mon = i + 1;
		if (s[3] != ' ' || s[6] != ' ')
			return NULL;
		/* "Feb  3": strptime's %d passes over the space */
		if (s[4] == ' ')
			day = isdigit((unsigned char)s[5]) ? s[5] - '0' : -1;
		else
			day = two_digits(s + 4);
		t = s + 7;
	}
	hour = two_digits(t);
	min = two_digits(t + 3);
	sec = two_digits(t + 6);
	if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour < 0 ||
	    hour > 23 || t[2] != ':' || min < 0 || min > 59 || t[5] != ':' ||
	    sec < 0 || sec > 61)
		return NULL;
	tm->tm_year = iso ? year - 1900 : tm->tm_year;
	tm->tm_mon = mon - 1;
	tm->tm_mday = day;
	tm->tm_hour = hour;
	tm->tm_min = min;
	tm->tm_sec = sec;
	return t + 8;
}

/* "[  136.059123]" at p: its length, and the seconds.  The fraction is
 * required: "[4260]" is a process id in tool messages. */
static size_t monotonic(const char *p, size_t n, double *ts)
{
	size_t i = 1;
	char *end;

	if (n < 3 || p[0] != '[')
		return 0;
	while (i < n && p[i] == ' ')
		i++;
	if (i >= n || !isdigit((unsigned char)p[i]))
		return 0;
	*ts = strtod(p + i, &end);
	if ((size_t)(end - p) >= n || *end != ']' ||
	    !memchr(p + i, '.', (size_t)(end - p - i)))
		return 0;
	return (size_t)(end - p) + 1;
}

/* "[Tue Feb 14 18:48:25 2023]" */
static size_t human(const char *p, size_t n, double *ts, char *out, size_t size)
{
	struct tm tm = { 0 };
	const char *close = memchr(p, ']', n < 40 ? n : 40), *end;
	char buf[40];

	if (n < 26 || p[0] != '[' || !close || !isalpha((unsigned char)p[1]))
		return 0;
	memcpy(buf, p + 1, (size_t)(close - p - 1));
	buf[close - p - 1] = '\0';
	end = strptime(buf, "%a %b %d %H:%M:%S %Y", &tm);
	if (!end || *end)
		return 0;
	snprintf(out, size, "%s", buf);
	*ts = (double)timegm(&tm);
	return (size_t)(close - p) + 1;
}

/* "Feb 20 23:49:53 host prog[pid]: " and "2026-08-07T09:24:35Z host prog: "
 * (syslog, journalctl short and short-iso). */
static size_t syslog_prefix(const char *p, size_t n, double *ts, char *out,
			    size_t size, char *host, size_t hsize)
{
	struct tm tm = { 0 };
	const char *colon, *end = NULL, *q;
	char buf[48];
	size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	int fields = 0;

	memcpy(buf, p, k);
	buf[k] = '\0';
	if (k >= 16 && digits(buf, 4) && buf[4] == '-' && buf[10] == 'T') {
		if (!(end = fixed_time(buf, true, &tm)))
			end = strptime(buf, "%Y-%m-%dT%H:%M:%S", &tm);
		while (end && (isdigit((unsigned char)*end) || *end == '.' ||
			       *end == 'Z' || *end == '+' || *end == '-' ||
			       *end == ':'))
			end++;
	} else if (k >= 15) {
		for (size_t i = 0; i < 12 && !end; i++)
			if (!strncmp(buf, months[i], 3) && buf[3] == ' ')
				if (!(end = fixed_time(buf, false, &tm)))
					end = strptime(buf, "%b %d %H:%M:%S",
						       &tm);
		/* journalctl -o short-precise: "Feb 20 23:49:53.123456" */
		if (end && *end == '.' && isdigit((unsigned char)end[1]))
			for (end++; isdigit((unsigned char)*end); end++)
				;
		/* No year: count from 1970, so that times stay positive. */
		tm.tm_year = 70;
	}
	if (!end || *end != ' ')
		return 0;
	snprintf(out, size, "%.*s", (int)(end - buf), buf);
	*ts = (double)timegm(&tm);
	/* host, then "prog[pid]:" */
	q = p + (end - buf);
	for (; q < p + n && fields < 2; fields++) {
		const char *h;

		while (q < p + n && *q == ' ')
			q++;
		h = q;
		if (fields == 0)
			while (q < p + n && *q != ' ')
				q++;
		if (fields == 0 && q > h && (size_t)(q - h) < hsize)
			snprintf(host, hsize, "%.*s", (int)(q - h), h);
	}
	colon = memchr(q, ':', (size_t)(p + n - q));
	if (!colon || memchr(q, ' ', (size_t)(colon - q)))
		return 0;
	q = colon + 1;
	while (q < p + n && *q == ' ')
		q++;
	return (size_t)(q - p);
}

static bool any_digit(const char *p, const char *end);

/* The syslog tag of a line whose date was cut off: "kernel: ", or a host
 * and then "kernel: " (journalctl's "HOST kernel: MSG" after its date).
 * Returns its length (host copied), or 0. */
static size_t kernel_tag(const char *p, size_t n, char *host, size_t hsize)
{
	size_t k = 0;

	if (n > 8 && !memcmp(p, "kernel: ", 8))
		return 8;
	while (k < n && k < 64 &&
	       (isalnum((unsigned char)p[k]) || strchr("._-", p[k])))
		k++;
	if (!k || n - k <= 9 || memcmp(p + k, " kernel: ", 9))
		return 0;
	/* a capitalised word is prose ("Running kernel: 5.15") unless it
	 * holds a digit or a dash, as host names do ("H100-2") */
	if (isupper((unsigned char)p[0]) && !memchr(p, '-', k) &&
	    !any_digit(p, p + k))
		return 0;
	if (!host[0] && k < hsize)
		snprintf(host, hsize, "%.*s", (int)k, p);
	return k + 9;
}

/* util-linux dmesg's names of the syslog levels and facilities
 * (sys-utils/dmesg.c level_names[], facility_names[]), as -x (--decode)
 * prints them before each record: "%-6s:%-6s: ". */
static const char *const level_names[] = { "emerg",  "alert", "crit",
					   "err",    "warn",  "notice",
					   "info",   "debug" };
static const char *const facility_names[] = {
	"kern",	  "user", "mail", "daemon", "auth",	"syslog",
	"lpr",	  "news", "uucp", "cron",   "authpriv", "ftp",
	"res0",	  "res1", "res2", "res3",   "local0",	"local1",
	"local2", "local3", "local4", "local5", "local6", "local7"
};

/* A word of names[] at p, padded with blanks to six columns and closed by
 * ':': its index, with *len past the colon, or -1. */
static int padded_name(const char *p, size_t n, const char *const *names,
		       size_t nnames, size_t *len)
{
	size_t w = 0, k;

	while (w < n && isalnum((unsigned char)p[w]))
		w++;
	for (k = w; k < n && p[k] == ' '; k++)
		;
	if (!w || k >= n || p[k] != ':')
		return -1;
	for (size_t i = 0; i < nnames; i++)
		if (strlen(names[i]) == w && !memcmp(p, names[i], w)) {
			*len = k + 1;
			return (int)i;
		}
	return -1;
}

/* dmesg -x: "kern  :err   : ".  Returns its length (level set), or 0. */
static size_t decoded_prefix(const char *p, size_t n, int *level)
{
	size_t a, b;
	int lev;

	if (padded_name(p, n, facility_names, ARRAY_SIZE(facility_names),
			&a) < 0)
		return 0;
	lev = padded_name(p + a, n - a, level_names, ARRAY_SIZE(level_names),
			  &b);
	if (lev < 0 || a + b >= n || p[a + b] != ' ')
		return 0;
	*level = lev;
	return a + b + 1;
}

/* The priority dmesg -r and the console print first, "<%d>" of facility
 * * 8 + level.  Returns its length (level set), or 0. */
static size_t raw_priority(const char *p, size_t n, int *level)
{
	size_t k = 1;
	long prio = 0;

	if (n < 3 || p[0] != '<')
		return 0;
	while (k < n && k < 5 && isdigit((unsigned char)p[k]))
		prio = prio * 10 + (p[k++] - '0');
	if (k == 1 || k >= n || p[k] != '>' || prio > 191)
		return 0;
	*level = (int)(prio & 7);
	return k + 1;
}

/* A /dev/kmsg record (Documentation/ABI/testing/dev-kmsg): "prio,seq,
 * usec,flag[,...];message", prio as in raw_priority, usec since boot.
 * Returns its length (level, time and seconds set), or 0. */
static size_t kmsg_prefix(const char *p, size_t n, int *level, double *ts,
			  char *out, size_t size)
{
	unsigned long long f[3] = { 0 };
	size_t k = 0;
	const char *semi;

	for (int i = 0; i < 3; i++) {
		size_t d = k;

		while (k < n && k - d < 20 && isdigit((unsigned char)p[k]))
			f[i] = f[i] * 10 + (unsigned long long)(p[k++] - '0');
		if (k == d || k >= n || p[k] != ',')
			return 0;
		k++;
	}
	if (f[0] > 191 || k + 1 >= n || !strchr("-c+", p[k]) ||
	    (p[k + 1] != ';' && p[k + 1] != ','))
		return 0;
	semi = memchr(p + k + 1, ';', n - k - 1 < 64 ? n - k - 1 : 64);
	if (!semi)
		return 0;
	*level = (int)(f[0] & 7);
	*ts = (double)f[2] / 1e6;
	snprintf(out, size, "[%5llu.%06llu]", f[2] / 1000000, f[2] % 1000000);
	return (size_t)(semi - p) + 1;
}

/* dmesg --time-format iso: "2023-02-14T18:48:25,123456+01:00 ", a comma
 * before the microseconds and no host after it.  Returns its length
 * (time and seconds set), or 0. */
static size_t iso_dmesg(const char *p, size_t n, double *ts, char *out,
			size_t size)
{
	struct tm tm = { 0 };
	char buf[40];
	const char *end;
	size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;

	memcpy(buf, p, k);
	buf[k] = '\0';
	if (k < 27 || !digits(buf, 4) || buf[4] != '-' || buf[10] != 'T' ||
	    buf[19] != ',')
		return 0;
	if (!(end = fixed_time(buf, true, &tm)))
		end = strptime(buf, "%Y-%m-%dT%H:%M:%S", &tm);
	if (end != buf + 19)
		return 0;
	for (end++; isdigit((unsigned char)*end) || *end == '+' ||
		    *end == '-' || *end == ':';
	     end++)
		;
	if (*end != ' ')
		return 0;
	snprintf(out, size, "%.*s", (int)(end - buf), buf);
	*ts = (double)timegm(&tm);
	return (size_t)(end - buf) + 1;
}

/* What is left of a "[ sec.usec]" stamp whose start a paste cut off:
 * "384] " at the start of the line.  Returns its length, or 0. */
static size_t cut_stamp(const char *p, size_t n)
{
	size_t k = 0;

	while (k < n && k < 14 && (isdigit((unsigned char)p[k]) || p[k] == '.'))
		k++;
	return k && k + 1 < n && p[k] == ']' && p[k + 1] == ' ' ? k + 2 : 0;
}

static int kernel_message(const struct line *ln, const struct stamp *st);
static bool source_at_start(const struct emit *e, const struct line *ln);
static bool pci_address(const char *p, size_t n);

/* pdsh's and clush's "host: " before a host's line: before a time
 * ("b1360: [14280.445220] ..."), another prefix of a kernel log, or,
 * when the log has no times, a driver's dev_printk or pr_fmt ("node7:
 * mlx5_core 0000:3b:00.0: ...", "node7: mlx5_core: probe of ...").  A host name has no '_' (RFC 1123), so that
 * pr_fmt's "mlx5_core: " is not taken for one.  Returns the prefix's
 * length (host copied), or 0. */
static size_t pdsh_host(const char *p, size_t n, char *host, size_t hsize)
{
	struct stamp st = { 0 };
	struct line rest;
	double ts;
	char buf[40];
	int level;
	size_t k;

	for (k = 0; k < n && k < 64 &&
		    (isalnum((unsigned char)p[k]) || strchr("._-", p[k]));
	     k++)
		;
	if (!k || k + 2 >= n || p[k] != ':' || p[k + 1] != ' ' || k >= hsize)
		return 0;
	rest = (struct line){ p + k + 2, n - k - 2, 0 };
	/* a capitalised word without a digit is prose ("Note: ...") */
	if (rest.p[0] != '[' &&
	    (memchr(p, '_', k) || (k == 6 && !memcmp(p, "kernel", 6)) ||
	     (isupper((unsigned char)p[0]) && !any_digit(p, p + k)) ||
	     !(kmsg_prefix(rest.p, rest.len, &level, &ts, buf, sizeof(buf)) ||
	       raw_priority(rest.p, rest.len, &level) ||
	       decoded_prefix(rest.p, rest.len, &level) ||
	       syslog_prefix(rest.p, rest.len, &ts, buf, sizeof(buf), buf,
			     sizeof(buf)) ||
	       kernel_message(&rest, &st))))
		return 0;
	snprintf(host, hsize, "%.*s", (int)k, p);
	return k + 2;
}

/* Parses the prefix of a line; s->any tells whether there was one (a
 * time, or the syslog tag that marks a kernel line as a time does). */
static void stamp(const char *p, size_t n, struct stamp *s)
{
	size_t at = 0, k, lead = 0;
	double ts;
	bool wall;

	memset(s, 0, sizeof(*s));
	s->ts = -1;
	s->level = -1;
	/* the indentation a paste gave the line (a tab, a markdown code
	 * block's spaces) is not part of it */
	while (lead < n && (p[lead] == ' ' || p[lead] == '\t'))
		lead++;
	p += lead;
	n -= lead;
	at = pdsh_host(p, n, s->host, sizeof(s->host));
	/* what dmesg and the kernel put before the time: kmsg's record
	 * header, dmesg -r's priority, dmesg -x's facility and level */
	if ((k = kmsg_prefix(p + at, n - at, &s->level, &s->ts, s->time,
			     sizeof(s->time)))) {
		at += k;
		s->any = true;
	}
	at += raw_priority(p + at, n - at, &s->level);
	at += decoded_prefix(p + at, n - at, &s->level);
	if ((k = syslog_prefix(p + at, n - at, &s->ts, s->time, sizeof(s->time),
			       s->host, sizeof(s->host))) ||
	    (k = iso_dmesg(p + at, n - at, &s->ts, s->time, sizeof(s->time)))) {
		at += k;
		s->any = true;
		s->wall = true;
	}
	if (!s->any)
		at += cut_stamp(p + at, n - at);
	k = monotonic(p + at, n - at, &ts);
	wall = !k;
	if (!k)
		k = human(p + at, n - at, &ts, s->time, sizeof(s->time));
	if (k) {
		if (!s->time[0])
			snprintf(s->time, sizeof(s->time), "%.*s", (int)k,
				 p + at);
		if (s->ts < 0) {
			s->ts = ts;
			s->wall = wall;
		}
		at += k;
		s->any = true;
		while (at < n && p[at] == ' ')
			at++;
		/* printk caller id: "[    T1] " */
		if (at < n && p[at] == '[') {
			size_t j = at + 1;

			while (j < n && p[j] == ' ')
				j++;
			if (j < n && (p[j] == 'T' || p[j] == 'C')) {
				size_t e = j + 1;

				while (e < n && isdigit((unsigned char)p[e]))
					e++;
				if (e < n && e > j + 1 && p[e] == ']')
					at = e + 1;
			}
		}
		/* journalctl -o short-monotonic: "[    2.345678] host
		 * kernel: ..." */
		while (at < n && p[at] == ' ')
			at++;
		for (k = at; k < n && k - at < 64 && p[k] != ' '; k++)
			;
		if (k > at && n - k >= 9 && !memcmp(p + k, " kernel: ", 9)) {
			snprintf(s->host, sizeof(s->host), "%.*s",
				 (int)(k - at), p + at);
			at = k + 9;
		}
	}
	while (at < n && p[at] == ' ')
		at++;
	k = kernel_tag(p + at, n - at, s->host, sizeof(s->host));
	if (k) {
		at += k;
		s->any = true;
	}
	s->msg = lead + at;
}

static bool any_digit(const char *p, const char *end)
{
	for (; p < end; p++)
		if (isdigit((unsigned char)*p))
			return true;
	return false;
}

/* The device a message is about: the PCI address of "mlx5_core
 * 0000:3b:00.0: ...", the RDMA device of "infiniband mlx5_0: ...", or the
 * interface of "ib0: ...". */
static void device(const char *m, size_t n, char *out, size_t size)
{
	const char *sp = memchr(m, ' ', n < 64 ? n : 64);
	const char *tok, *end;
	size_t len;

	out[0] = '\0';
	/* "mlx5_core: probe of 0000:01:00.0 failed with error -22", and
	 * auxiliary devices: "mlx5_ib.rdma: probe of mlx5_core.rdma.0 ..." */
	if (sp && (size_t)(m + n - sp) > 10 && !memcmp(sp, " probe of ", 10)) {
		const char *a = sp + 10, *b = a;

		while (b < m + n && *b != ' ' && (size_t)(b - a) < size - 1)
			b++;
		if (b < m + n && b - a >= 3 && isalnum((unsigned char)b[-1]))
			snprintf(out, size, "%.*s", (int)(b - a), a);
		return;
	}
	if (!sp)
		return;
	tok = sp + 1;
	end = tok;
	while (end < m + n && *end != ' ')
		end++;
	len = (size_t)(end - tok);
	if (len && tok[len - 1] == ':')
		len--;
	/* a PCI address: [dddd:]bb:dd.f */
	if (len >= 7 && len <= 12 && tok[len - 2] == '.' &&
	    tok[len - 5] == ':') {
		snprintf(out, size, "%.*s", (int)len, tok);
		return;
	}
	if (sp - m == 10 && !memcmp(m, "infiniband", 10) && len) {
		snprintf(out, size, "%.*s", (int)len, tok);
		return;
	}
	/* "mlx5_core enp1s0f0np0: Link down": a driver, then an
	 * interface.  Driver names are lowercase; "Internal error: Oops"
	 * (arm64 __die) names none. */
	if (len && len < (size_t)(end - tok) && sp[-1] != ':' &&
	    islower((unsigned char)m[0]) && isalpha((unsigned char)tok[0])) {
		snprintf(out, size, "%.*s", (int)len, tok);
		return;
	}
	/* "ib0: ...": an interface, which starts lowercase and numbers its
	 * port; "mlx5_core: ..." names only a driver, "BUG: ..." and
	 * "libibverbs: ..." no device. */
	if (sp > m + 1 && sp[-1] == ':' && (size_t)(sp - m) < 20 &&
	    islower((unsigned char)m[0]) && !memchr(m, '(', (size_t)(sp - m)) &&
	    !memchr(m, '_', (size_t)(sp - m)) && any_digit(m, sp - 1))
		snprintf(out, size, "%.*s", (int)(sp - m - 1), m);
}

static struct event *event_for(struct scan *sc, size_t sig, const char *dev,
			       const char *host)
{
	for (size_t i = 0; i < sc->nevents; i++)
		if (sc->events[i].sig == sig &&
		    !strcmp(sc->events[i].device, dev) &&
		    !strcmp(sc->events[i].host, host))
			return &sc->events[i];
	if (sc->nevents >= LOG_EVENTS_MAX)
		return NULL;
	xgrow(&sc->events, &sc->capevents, sc->nevents + 1,
	      sizeof(*sc->events));
	memset(&sc->events[sc->nevents], 0, sizeof(*sc->events));
	sc->events[sc->nevents].sig = sig;
	snprintf(sc->events[sc->nevents].device,
		 sizeof(sc->events[sc->nevents].device), "%s", dev);
	snprintf(sc->events[sc->nevents].host,
		 sizeof(sc->events[sc->nevents].host), "%s", host);
	sc->events[sc->nevents].first_ts = -1;
	return &sc->events[sc->nevents++];
}

static void count_hit(struct scan *sc, const struct logscan_hit *h,
		      const char *msg, const char *dev, const struct stamp *st,
		      const struct line *where)
{
	struct event *ev = event_for(sc, h->sig, dev, st->host);

	if (!ev)
		return;
	if (!ev->count++) {
		snprintf(ev->first, sizeof(ev->first), "%s", st->time);
		ev->first_ts = st->ts;
		ev->wall = st->wall;
		ev->line = xstrndup(where->p, where->len);
		ev->where = *where;
		ev->where.p = ev->line;
		/* the detail is the first group that took part, so that the
		 * branches of an alternation can each capture theirs (ripgrep
		 * and grep, B3's peers, have no branch-reset groups) */
		for (int g = 1; g < h->m.ngroups; g++) {
			if (h->m.start[g] < 0)
				continue;
			snprintf(ev->detail, sizeof(ev->detail), "%.*s",
				 (int)(h->m.end[g] - h->m.start[g]),
				 msg + h->m.start[g]);
			break;
		}
	}
	snprintf(ev->last, sizeof(ev->last), "%s", st->time);
	ev->last_ts = st->ts;
}

/* Field name of the kb signature id; NULL when it has none. */
static const char *signature_text(const struct fact_base *fb, const char *id,
				  const char *name)
{
	struct value v = value_str(id, strlen(id));
	const uint32_t *ids;
	size_t n;

	ids = fact_base_lookup(fb, sym_intern_cstr("signature"),
			       sym_intern_cstr("id"), &v, &n);
	return n ? fact_text(fact_base_get(fb, ids[0]), name) : NULL;
}

/* How general a signature is (its kb 'scope'): 0 specific, 1 family,
 * 2 driver, 3 generic. */
static int scope_of(const struct fact_base *fb, const char *id)
{
	static const char *const scopes[] = { "family", "driver", "generic" };
	const char *scope = signature_text(fb, id, "scope");

	for (int i = 0; scope && i < 3; i++)
		if (!strcmp(scope, scopes[i]))
			return i + 1;
	return 0;
}

/* Keeps the hits of the most specific scope present: a line that a
 * specific signature explains is not counted again by a family, a
 * driver-wide signature or the fallback.  Returns the hits kept, in their
 * order. */
static size_t most_specific(const struct scan *sc, struct logscan_hit *hits,
			    size_t n)
{
	int scope[LOG_HITS_MAX], best = 3;
	size_t kept = 0;

	if (n > LOG_HITS_MAX)
		n = LOG_HITS_MAX;
	for (size_t i = 0; i < n; i++) {
		scope[i] = scope_of(sc->e->fb, logscan_id(sc->ls, hits[i].sig));
		if (scope[i] < best)
			best = scope[i];
	}
	for (size_t i = 0; i < n; i++)
		if (scope[i] == best)
			hits[kept++] = hits[i];
	return kept;
}

/* What the kernel's own formats say about the host beside the message:
 * the modules a line shows loaded, and the running kernel.  A kernel
 * module name has at most MODULE_NAME_LEN - 1 (55) bytes of [A-Za-z0-9_]
 * (the build turns '-' into '_'). */
#define LOG_MODULE_NAME_MAX 55 /* @@ */
#define LOG_MODULES_LINKED_MAX 512 /* @@ names read from one list */
#define LOG_MODULE_FLAGS_MAX 16 /* @@ taint letters and +/- of a name */

static size_t module_name(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && n <= LOG_MODULE_NAME_MAX &&
	       (isalnum((unsigned char)p[n]) || p[n] == '_'))
		n++;
	return n <= LOG_MODULE_NAME_MAX ? n : 0;
}

static void emit_module_flags(struct scan *sc, const char *name, size_t n,
			      const char *flags, size_t nflags,
			      const struct line *where)
{
	struct fact *f = emit_begin(sc->e, "module", where);

	emit_str(sc->e, f, "name", name, n, where);
	if (nflags)
		emit_str(sc->e, f, "flags", flags, nflags, where);
	emit_end(sc->e, f);
}

static void emit_module(struct scan *sc, const char *name, size_t n,
			const struct line *where)
{
	emit_module_flags(sc, name, n, NULL, 0, where);
}

/* Whether a line may hold a frame for frame_module: its last byte but
 * blanks is the ']' that closes the module's name.  This is the first test
 * frame_module makes (on the message, which ends where the line does), so
 * that other lines skip the parsing of their prefix. */
static bool frame_candidate(const struct line *ln)
{
	size_t n = ln->len;

	while (n && isspace((unsigned char)ln->p[n - 1]))
		n--;
	return n && ln->p[n - 1] == ']';
}

/* A call-trace frame in a module: kallsyms prints a module's symbol as
 * "name+0xoff/0xsize [module]" (sprint_symbol, __sprint_symbol). */
static void frame_module(struct scan *sc, const char *m, size_t n,
			 const struct line *where)
{
	const char *end = m + n, *open, *plus;
	size_t len;

	while (end > m && isspace((unsigned char)end[-1]))
		end--;
	while (m < end && isspace((unsigned char)*m))
		m++;
	/* a "? name+0x.." word of the stack counts too: kallsyms names a
	 * module only for an address inside one that is loaded */
	if (end - m < 8 || end[-1] != ']')
		return;
	open = memrchr(m, '[', (size_t)(end - m));
	if (!open || open == m || open[-1] != ' ')
		return;
	/* the oops header's "Workqueue: %s %ps [module]"
	 * (print_worker_info) names the worker's module too */
	plus = memmem(m, (size_t)(open - m), "+0x", 3);
	if ((!plus || !memmem(plus, (size_t)(open - plus), "/0x", 3)) &&
	    (end - m < 11 || memcmp(m, "Workqueue: ", 11)))
		return;
	len = module_name(open + 1, end - 1);
	if (len && open + 1 + len == end - 1)
		emit_module(sc, open + 1, len, where);
}

/* Whether the message at offset msg of line p starts after one more blank
 * than its prefix puts there: the mark of a record that goes on from the
 * one before. */
static bool indented_message(const char *p, size_t msg)
{
	return msg >= 2 && p[msg - 1] == ' ' &&
	       (p[msg - 2] == ' ' || p[msg - 2] == '\t');
}

/* print_modules(): "Modules linked in: a(OE) b c [last unloaded: d]",
 * each name followed by its taint flags in parentheses.  A list longer
 * than one printk record (1024 bytes) goes on in the next record, which
 * starts with the blank before its first name ("[   12.3]  e f g"): that
 * record continues the list when the one before ended in a name. */
static void linked_modules(struct scan *sc, const char *m, size_t n,
			   bool indented, const struct line *where)
{
	static const char lead[] = "Modules linked in:";
	const char *p = memmem(m, n, lead, sizeof(lead) - 1), *end = m + n;
	bool open = sc->modules_open;

	sc->modules_open = false;
	if (p)
		p += sizeof(lead) - 1;
	else if (open && indented)
		p = m;
	else
		return;
	for (int names = 0; p < end && names < LOG_MODULES_LINKED_MAX;
	     names++) {
		const char *name, *flags;
		size_t len;

		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p == '[')
			return;
		len = module_name(p, end);
		if (!len || (p + len < end && p[len] != ' ' && p[len] != '('))
			return;
		name = p;
		flags = p + len;
		while (p < end && *p != ' ')
			p++;
		/* module_flags(): the taint letters and '+' (loading) or '-'
		 * (unloading) in parentheses */
		if (p - flags > 2 && *flags == '(' && p[-1] == ')' &&
		    p - flags <= LOG_MODULE_FLAGS_MAX + 2)
			emit_module_flags(sc, name, len, flags + 1,
					  (size_t)(p - flags - 2), where);
		else
			emit_module(sc, name, len, where);
		sc->modules_open = p >= end;
	}
}

/* A message under a module's own name: dev_printk's "<driver> <device>: "
 * or pr_fmt's "<module>: ", for the names kb/log_sources.yaml marks as
 * modules (a class name such as "infiniband" is not one). */
static bool logging_module(struct scan *sc, const char *name, size_t len)
{
	struct value v = value_str(name, len);
	size_t hits = 0;

	fact_base_lookup(sc->e->fb, sym_intern_cstr("log_source"),
			 sym_intern_cstr("module"), &v, &hits);
	return hits > 0;
}

/* The version a driver's load banner gives: "mlx4_en: Mellanox ConnectX
 * HCA Ethernet driver v2.1.6 (Jan 23 2014)" (mlx4_en_version[] and
 * mlx4_core's, mlx4_ib's and mlx5's "... driver v" DRV_VERSION " ("
 * DRV_RELDATE ")", printed at module init; Linux drivers/net/ethernet/
 * mellanox/mlx4/main.c, en_main.c, drivers/infiniband/hw/mlx4/main.c
 * through 5.x, and MLNX_OFED's).  A driver fact of the module, told by
 * the kernel log, from its latest banner (emit_banners). */
static void driver_banner(struct scan *sc, const char *m, size_t n,
			  size_t len, const struct line *where)
{
	const char *end = m + n, *v = NULL, *ve;
	struct banner *b;
	size_t i;

	if (len + 2 > n || m[len] != ':' || m[len + 1] != ' ')
		return;
	for (const char *p = m + len; p + 9 < end; p++)
		if (!strncasecmp(p, " driver v", 9) &&
		    isdigit((unsigned char)p[9])) {
			v = p + 9;
			break;
		}
	if (!v)
		return;
	for (ve = v; ve < end && ve - v < 32 &&
		     (isalnum((unsigned char)*ve) || strchr(".-_", *ve));
	     ve++)
		;
	if (ve < end && *ve != ' ' && *ve != ',')
		return;
	if (len >= sizeof(b->name) || (size_t)(ve - v) >= sizeof(b->version))
		return;
	for (i = 0; i < sc->nbanners; i++)
		if (strlen(sc->banners[i].name) == len &&
		    !memcmp(sc->banners[i].name, m, len))
			break;
	if (i == sc->nbanners) {
		if (sc->nbanners == MAX_BANNERS)
			return;
		if (!sc->banners)
			sc->banners = xcalloc(MAX_BANNERS, sizeof(*sc->banners));
		sc->nbanners++;
	}
	b = &sc->banners[i];
	memcpy(b->name, m, len);
	b->name[len] = '\0';
	memcpy(b->version, v, (size_t)(ve - v));
	b->version[ve - v] = '\0';
	free(b->line);
	b->line = xstrndup(where->p, where->len);
	b->at = *where;
	b->at.p = b->line;
}

/* The driver facts of the banners: the latest load of each module. */
static void emit_banners(struct scan *sc)
{
	for (size_t i = 0; i < sc->nbanners; i++) {
		const struct banner *b = &sc->banners[i];
		const char *origin =
			driver_origin_of(b->version, strlen(b->version));
		struct fact *f = emit_begin(sc->e, "driver", &b->at);

		emit_str(sc->e, f, "name", b->name, strlen(b->name), &b->at);
		emit_str(sc->e, f, "version", b->version, strlen(b->version),
			 &b->at);
		emit_str(sc->e, f, "origin", origin, strlen(origin), &b->at);
		emit_str(sc->e, f, "evidence", "kernel_log", 10, &b->at);
		emit_end(sc->e, f);
		free(b->line);
	}
	free(sc->banners);
	sc->banners = NULL;
	sc->nbanners = 0;
}

static void prefix_module(struct scan *sc, const char *m, size_t n,
			  const struct line *where)
{
	size_t len;

	/* pr_fmt "<" DRV_NAME "> %s: " (Linux drivers/infiniband/hw/mlx4/
	 * mlx4_ib.h, 3.5 to 4.x, and MLNX_OFED 2.x): "<mlx4_ib>
	 * mlx4_ib_add: ..." */
	if (n > 2 && m[0] == '<') {
		len = module_name(m + 1, m + n);
		if (len && len + 2 < n && m[len + 1] == '>' &&
		    m[len + 2] == ' ' && logging_module(sc, m + 1, len))
			emit_module(sc, m + 1, len, where);
		return;
	}
	len = module_name(m, m + n);
	if (!len || len >= n || (m[len] != ' ' && m[len] != ':'))
		return;
	if (!logging_module(sc, m, len))
		return;
	emit_module(sc, m, len, where);
	driver_banner(sc, m, n, len, where);
}

/* The release in dump_stack's "CPU: %d [UID: %u ]PID: %d Comm: %.20s
 * %s%s %s %.*s" (lib/dump_stack.c: kexec state, print_tainted() as "Not
 * tainted" or "Tainted: " and its flag letters, init_utsname()->release,
 * then the "#N" of the version), and in linux_banner's "Linux version
 * %s (" (init/version.c).  Returns its length, or 0. */
static size_t kernel_release(const char *m, size_t n, const char **rel)
{
	const char *end = m + n, *p, *r;

	while (n && isspace((unsigned char)*m)) {
		m++;
		n--;
	}
	if (n > 14 && !memcmp(m, "Linux version ", 14)) {
		p = m + 14;
	} else {
		if (n < 5 || memcmp(m, "CPU: ", 5) || !memmem(m, n, " Comm: ", 7))
			return 0;
		p = memmem(m, n, " Not tainted ", 13);
		if (p) {
			p += 13;
		} else if ((p = memmem(m, n, " Tainted: ", 10))) {
			p += 10;
			while (p < end && (isupper((unsigned char)*p) ||
					   *p == ' '))
				p++;
		} else {
			return 0;
		}
	}
	r = p;
	if (r >= end || !isdigit((unsigned char)*r))
		return 0;
	while (p < end && *p != ' ')
		p++;
	if (p + 1 >= end || (p[1] != '#' && p[1] != '('))
		return 0;
	*rel = r;
	return (size_t)(p - r);
}

/* Notes the release a line names; the file's is emitted at its end, when
 * all its lines name the same one (a log of several boots, before and
 * after an upgrade, names none: which one runs now it cannot tell). */
static void host_kernel(struct scan *sc, const char *m, size_t n,
			const struct line *where)
{
	const char *rel;
	size_t len = kernel_release(m, n, &rel);

	if (!len || len >= sizeof(sc->kernel) || sc->kernels_differ)
		return;
	if (!sc->kernel[0]) {
		snprintf(sc->kernel, sizeof(sc->kernel), "%.*s", (int)len,
			 rel);
		sc->kernel_line = xstrndup(where->p, where->len);
		sc->kernel_at = *where;
		sc->kernel_at.p = sc->kernel_line;
	} else if (strlen(sc->kernel) != len ||
		   memcmp(sc->kernel, rel, len)) {
		sc->kernels_differ = true;
	}
}

/* A PCI address as dev_name() prints it: dddd:bb:dd.f. */
static bool pci_address(const char *p, size_t n)
{
	return n == 12 && p[4] == ':' && p[7] == ':' && p[10] == '.';
}

static bool hex_digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* The classes of the functions an RDMA port sits on (PCI Code and ID
 * Assignment: base class 02h network controller, 0C06h InfiniBand). */
static bool rdma_class(const char *cls)
{
	return !strncmp(cls, "02", 2) || !strncasecmp(cls, "0c06", 4);
}

/* A function the PCI core found: pci_setup_device()'s "[%04x:%04x] type
 * %02x class %#08x" (drivers/pci/probe.c, 3.10 to 6.8; 6.x adds the
 * function's kind after it), after the "pci <address>: " prefix. */
static void pci_enumerated(struct scan *sc, const char *m, size_t n,
			   const struct line *where)
{
	static const char type[] = "] type ", cls[] = " class 0x";
	const char *p = m + 19; /* past "pci dddd:bb:dd.f: [" */
	struct fact *f;

	/* "pci " address ": [" vvvv:dddd "] type " tt " class 0x" cccccc */
	if (n < 19 + 9 + 7 + 2 + 9 + 6 || memcmp(m, "pci ", 4) ||
	    !pci_address(m + 4, 12) || memcmp(m + 16, ": [", 3))
		return;
	if (!hex_digits(p, 4) || p[4] != ':' || !hex_digits(p + 5, 4) ||
	    memcmp(p + 9, type, 7) || !hex_digits(p + 16, 2) ||
	    memcmp(p + 18, cls, 9) || !hex_digits(p + 27, 6) ||
	    ((size_t)(p + 33 - m) < n && p[33] != ' '))
		return;
	if (!rdma_class(p + 27))
		return;
	f = emit_begin(sc->e, "pcie", where);
	emit_str(sc->e, f, "pci", m + 4, 12, where);
	emit_str(sc->e, f, "vendor_id", p, 4, where);
	emit_str(sc->e, f, "device_id", p + 5, 4, where);
	/* lspci's class: base class and subclass, without the interface */
	emit_str(sc->e, f, "class", p + 27, 4, where);
	emit_end(sc->e, f);
}

/* The interface a rename names: netdev_printk's "<driver> <parent>
 * <ifname>: " before net/core/dev.c's "renamed from %s" (dev_change_name,
 * netdev_info in 4.18, 5.4 and 6.8), which udev's rename of every
 * interface prints. */
static void netdev_renamed(struct scan *sc, const char *m, size_t n,
			   const struct line *where)
{
	static const char said[] = ": renamed from ";
	const char *end = m + n, *colon = memmem(m, n, said, sizeof(said) - 1);
	const char *tok[3];
	size_t len[3], drv;
	const char *p = m;
	struct fact *f;

	if (!colon)
		return;
	for (int i = 0; i < 3; i++) {
		tok[i] = p;
		while (p < colon && *p != ' ')
			p++;
		len[i] = (size_t)(p - tok[i]);
		if (!len[i] || (i < 2 && p >= colon))
			return;
		p++;
	}
	if (p - 1 != colon || len[2] > 15) /* IFNAMSIZ - 1 */
		return;
	drv = module_name(tok[0], tok[0] + len[0]);
	if (drv != len[0] || end - colon <= (long)sizeof(said) - 1)
		return;
	f = emit_begin(sc->e, "netdev", where);
	emit_str(sc->e, f, "name", tok[2], len[2], where);
	emit_str(sc->e, f, "driver", tok[0], len[0], where);
	if (pci_address(tok[1], len[1]))
		emit_str(sc->e, f, "pci", tok[1], len[1], where);
	emit_end(sc->e, f);
}

/* The host of the syslog or journal prefix, kept while every stamped line
 * names the same one (a merged log of several hosts names none). */
static void note_host(struct scan *sc, const struct stamp *st,
		      const struct line *where)
{
	if (!st->host[0] || sc->hosts_differ)
		return;
	if (!sc->host[0]) {
		snprintf(sc->host, sizeof(sc->host), "%s", st->host);
		sc->host_line = xstrndup(where->p, where->len);
		sc->host_at = *where;
		sc->host_at.p = sc->host_line;
	} else if (strcmp(sc->host, st->host)) {
		sc->hosts_differ = true;
	}
}

static void inventory(struct scan *sc, const char *m, size_t n,
		      const struct stamp *st, const struct line *where)
{
	size_t at = (size_t)(m - where->p);

	linked_modules(sc, m, n, indented_message(where->p, at), where);
	prefix_module(sc, m, n, where);
	host_kernel(sc, m, n, where);
	netdev_renamed(sc, m, n, where);
	pci_enumerated(sc, m, n, where);
	note_host(sc, st, where);
}

/* One record: a line plus the continuations a mail client split off. */
static void record(struct scan *sc, const char *rec, size_t len,
		   const struct line *first)
{
	struct logscan_hit hits[LOG_HITS_MAX];
	struct stamp st;
	const char *msg;
	char dev[64];
	size_t mlen, n;
	struct line where = *first;

	stamp(rec, len, &st);
	msg = rec + st.msg;
	mlen = len - st.msg;
	device(msg, mlen, dev, sizeof(dev));
	/* "Hardware name: ...", "CPU: 1 PID: ...": an oops names no device
	 * in its prefix */
	if (log_oops_line(first))
		dev[0] = '\0';
	n = logscan_match(sc->ls, msg, mlen, hits, LOG_HITS_MAX,
			  &sc->limit_hits);
	n = most_specific(sc, hits, n);
	where.p = rec;
	where.len = len;
	for (size_t i = 0; i < n && i < LOG_HITS_MAX; i++)
		count_hit(sc, &hits[i], msg, dev, &st, &where);
	inventory(sc, msg, mlen, &st, &where);
	if (sc->log_facts < LOG_FACTS_MAX) {
		struct fact *f = emit_begin(sc->e, "log", &where);

		emit_str(sc->e, f, "text", msg, mlen, &where);
		if (st.time[0])
			emit_str(sc->e, f, "time", st.time, strlen(st.time),
				 &where);
		if (dev[0])
			emit_str(sc->e, f, "device", dev, strlen(dev), &where);
		if (st.host[0])
			emit_str(sc->e, f, "host", st.host, strlen(st.host),
				 &where);
		if (st.level >= 0)
			emit_str(sc->e, f, "level", level_names[st.level],
				 strlen(level_names[st.level]), &where);
		emit_end(sc->e, f);
		sc->log_facts++;
	}
}

/* span_s, first_s, last_s and clock of an event whose times parsed. */
static void emit_times(struct emit *e, struct fact *f, const struct event *ev)
{
	emit_num(e, f, "span_s",
		 round((ev->last_ts - ev->first_ts) * 1000) / 1000, NULL);
	emit_num(e, f, "first_s", round(ev->first_ts * 1000) / 1000, NULL);
	emit_num(e, f, "last_s", round(ev->last_ts * 1000) / 1000, NULL);
	const char *clock = ev->wall ? "wall" : "boot";

	emit_str(e, f, "clock", clock, strlen(clock), NULL);
}

static void emit_events(struct scan *sc)
{
	for (size_t i = 0; i < sc->nevents; i++) {
		struct event *ev = &sc->events[i];
		struct fact *f = emit_begin(sc->e, "log_event", &ev->where);
		const char *id = logscan_id(sc->ls, ev->sig);
		const char *layer = logscan_layer(sc->ls, ev->sig);

		emit_str(sc->e, f, "signature", id, strlen(id), &ev->where);
		emit_str(sc->e, f, "layer", layer, strlen(layer), NULL);
		/* Always present, so that rules can bind and join them. */
		emit_value(sc->e, f, "device",
			   value_str(ev->device, strlen(ev->device)),
			   &ev->where);
		emit_value(sc->e, f, "host",
			   value_str(ev->host, strlen(ev->host)), &ev->where);
		emit_int(sc->e, f, "count", ev->count, NULL);
		if (ev->first[0]) {
			emit_str(sc->e, f, "first", ev->first,
				 strlen(ev->first), NULL);
			emit_str(sc->e, f, "last", ev->last, strlen(ev->last),
				 NULL);
		}
		if (ev->first_ts >= 0 && ev->last_ts >= ev->first_ts)
			emit_times(sc->e, f, ev);
		if (ev->detail[0])
			emit_str(sc->e, f, "detail", ev->detail,
				 strlen(ev->detail), &ev->where);
		emit_end(sc->e, f);
		free(ev->line);
	}
	free(sc->events);
	if (sc->host[0] && !sc->hosts_differ) {
		struct fact *f = emit_begin(sc->e, "host", &sc->host_at);

		emit_str(sc->e, f, "hostname", sc->host, strlen(sc->host),
			 &sc->host_at);
		emit_end(sc->e, f);
	}
	free(sc->host_line);
	if (sc->kernel[0] && !sc->kernels_differ) {
		struct fact *f = emit_begin(sc->e, "host", &sc->kernel_at);

		emit_str(sc->e, f, "kernel", sc->kernel, strlen(sc->kernel),
			 &sc->kernel_at);
		emit_end(sc->e, f);
	}
	free(sc->kernel_line);
	emit_banners(sc);
}

/* Whether the first lines mostly carry timestamps (a third suffices, since
 * a mail client may have wrapped every other line): then an unstamped
 * line after an RDMA line is a continuation it split off. */
static bool stamped(const char *text, size_t len)
{
	struct lines it;
	struct line ln;
	int with = 0, lines = 0;

	lines_init(&it, text, len);
	while (lines_next(&it, &ln) && lines < 50) {
		struct stamp st;

		if (!line_trim(ln).len)
			continue;
		stamp(ln.p, ln.len, &st);
		with += st.any;
		lines++;
	}
	return lines && with * 3 >= lines;
}

/* Whether a line's message starts under the name of a module that
 * kb/log_sources.yaml knows, as the kernel prints it: pr_fmt's "<module>:
 * " or dev_printk's "<driver> <device>: " (MLNX_OFED's "<module>" too).
 * This is how a short name ("ice", "efa") marks a line as RDMA's, where
 * finding it anywhere would not ("device", "default"). */
static bool source_at_start(const struct emit *e, const struct line *ln)
{
	struct stamp st;
	const char *m;
	size_t n, len, hits = 0;
	struct value v;

	if (!e->fb)
		return false;
	stamp(ln->p, ln->len, &st);
	m = ln->p + st.msg;
	n = ln->len - st.msg;
	if (n && *m == '<') {
		m++;
		n--;
	}
	len = module_name(m, m + n);
	if (!len || len + 2 > n)
		return false;
	if (!(m[len] == ':' && m[len + 1] == ' ') &&
	    !(m[len] == '>' && m[len + 1] == ' ') &&
	    !(m[len] == ' ' && kernel_message(ln, &st) == 2))
		return false;
	v = value_str(m, len);
	fact_base_lookup(e->fb, sym_intern_cstr("log_source"),
			 sym_intern_cstr("module"), &v, &hits);
	return hits > 0;
}

/* Whether signature id is a user-space program's (the verbs layer:
 * libibverbs, perftest), whose lines are no kernel's. */
static bool user_space(const struct fact_base *fb, const char *id)
{
	const char *layer = signature_text(fb, id, "layer");

	return layer && !strcmp(layer, "verbs");
}

/* Whether a signature more specific than the generic fallbacks knows the
 * line's message: a driver's own words mark a kernel line wherever it is
 * found, even quoted without its prefix ("Only 0 MSI-X interrupts
 * available for SR-IOV. ..." as a ticket quotes ice's dev_err). */
static bool known_message(const struct emit *e, const struct line *ln)
{
	struct logscan_hit hits[LOG_HITS_MAX];
	struct stamp st;
	size_t n, limit = 0;

	if (!e->scan || !e->fb || !logscan_relevant(e->scan, ln->p, ln->len))
		return false;
	stamp(ln->p, ln->len, &st);
	n = logscan_match(e->scan, ln->p + st.msg, ln->len - st.msg, hits,
			  LOG_HITS_MAX, &limit);
	for (size_t i = 0; i < n && i < LOG_HITS_MAX; i++) {
		const char *id = logscan_id(e->scan, hits[i].sig);

		if (scope_of(e->fb, id) < 3 && !user_space(e->fb, id))
			return true;
	}
	return false;
}

/* A pasted line is a kernel line when a kernel signature knows its
 * words, or when it starts under a known module's name with the
 * kernel's own framing: a prefix (time, level, host) or dev_printk's
 * "<driver> <device>: ".  A bare "<module>: text" is how people write
 * "ib_uverbs: not loaded" or YAML's "siw: enabled" as often as it is
 * pr_fmt, so alone it is none. */
bool log_pasted_line(const struct emit *e, const struct line *ln)
{
	struct line t = line_trim(*ln);
	struct stamp st;

	if (!t.len)
		return false;
	if (known_message(e, &t))
		return true;
	stamp(t.p, t.len, &st);
	if (!st.any && !st.host[0] && st.level < 0 && !log_driver_line(&t))
		return false;
	return source_at_start(e, &t);
}

/* A line of the dictionary /dev/kmsg prints after a record (" KEY=value",
 * Documentation/ABI/testing/dev-kmsg): part of no message. */
static bool kmsg_dictionary(const struct line *ln)
{
	size_t k = 1;

	if (ln->len < 3 || ln->p[0] != ' ')
		return false;
	while (k < ln->len && (isupper((unsigned char)ln->p[k]) ||
			       isdigit((unsigned char)ln->p[k]) || ln->p[k] == '_'))
		k++;
	return k > 1 && k < ln->len && ln->p[k] == '=';
}

struct log_stream {
	struct scan sc;
	struct logscan_sieve sieve; /* the candidate lines of a piece */
	struct strbuf rec; /* the open record */
	struct line first; /* its first line */
	bool open, started;
	uint32_t lineno; /* lines read so far */
	unsigned before; /* e->nfacts at the start */
};

struct log_stream *log_stream_new(struct emit *e)
{
	struct log_stream *s = xcalloc(1, sizeof(*s));

	s->sc.e = e;
	s->sc.ls = e->scan;
	s->before = e->nfacts;
	return s;
}

/* A mail client wraps a line at about 72 to 80 columns: a line that
 * long may go on, unstamped, on the next. */
#define WRAP_COLUMNS 64 /* @@ */

/* Whether ln goes on the open record: the rest of a line a mail client
 * wrapped, or of a message cut after its "...:(pid N):" prefix. */
static bool continues(const struct log_stream *s, size_t prev_len,
		      const struct line *ln)
{
	const struct strbuf *rec = &s->rec;
	struct line t = line_trim(*ln);
	struct stamp st;

	if (!s->open || !rec->len || !t.len)
		return false;
	stamp(ln->p, ln->len, &st);
	/* a line with a prefix of its own, or under a known module's name,
	 * starts a message */
	if (st.any || st.host[0] || st.level >= 0 || log_driver_line(&t) ||
	    source_at_start(s->sc.e, &t))
		return false;
	if (rec->buf[rec->len - 1] == ':' &&
	    (ln->p[0] == ' ' || ln->p[0] == '\t'))
		return true;
	if (s->sc.stamped)
		return true;
	/* A wrapped line's rest is short and starts without indentation;
	 * the line before it was long. */
	return prev_len >= WRAP_COLUMNS && ln->p[0] != ' ' &&
	       ln->p[0] != '\t' && t.len < WRAP_COLUMNS &&
	       !memchr(t.p, '$', t.len < 2 ? t.len : 2) &&
	       !memchr(t.p, '#', t.len < 2 ? t.len : 2);
}

/* A kernel line of a pasted block (see log_stream_feed_at). */
static bool pasted_kernel_line(const struct line *ln, bool strict)
{
	struct line t = line_trim(*ln);

	if (!t.len)
		return false;
	if (strict)
		return log_kernel_line(&t) || log_driver_line(&t) ||
		       log_oops_line(&t);
	return log_stamped_line(&t) || log_driver_line(&t) ||
	       log_oops_line(&t);
}

/* A line that is not kept as a log fact may still name the running
 * kernel (the dump_stack line of an oops, the boot banner), an interface
 * (its rename) or an adapter's PCI function (its enumeration). */
const char *const log_marks[] = { " Comm: ", "Linux version ",
				  ": renamed from ", "] type " };
const size_t log_nmarks = ARRAY_SIZE(log_marks);

static bool marked(const struct line *ln)
{
	for (size_t i = 0; i < log_nmarks; i++)
		if (line_contains(ln, log_marks[i]))
			return true;
	return false;
}

static void unrecorded(struct scan *sc, const struct line *ln)
{
	struct stamp st;

	if (!marked(ln))
		return;
	stamp(ln->p, ln->len, &st);
	host_kernel(sc, ln->p + st.msg, ln->len - st.msg, ln);
	netdev_renamed(sc, ln->p + st.msg, ln->len - st.msg, ln);
	pci_enumerated(sc, ln->p + st.msg, ln->len - st.msg, ln);
}

static void feed(struct log_stream *s, const char *text, size_t len,
		 bool pasted, bool strict)
{
	struct scan *sc = &s->sc;
	struct strbuf *rec = &s->rec;
	struct lines it;
	struct line ln;
	size_t prev_len = 0;

	if (!strict)
		logscan_sieve(sc->ls, text, len, &s->sieve);
	lines_init(&it, text, len);
	it.no = s->lineno;
	while (lines_next(&it, &ln)) {
		size_t at = (size_t)(ln.p - text);

		/* each frame of a call trace on its own, before the lines
		 * are joined */
		if (frame_candidate(&ln)) {
			struct stamp st;

			stamp(ln.p, ln.len, &st);
			frame_module(sc, ln.p + st.msg, ln.len - st.msg, &ln);
		}
		if (kmsg_dictionary(&ln))
			continue;
		if (continues(s, prev_len, &ln)) {
			struct line t = line_trim(ln);

			if (rec->len + t.len + 1 < LOG_RECORD_MAX) {
				sb_putc(rec, ' ');
				sb_add(rec, t.p, t.len);
			}
			prev_len = ln.len;
			continue;
		}
		prev_len = ln.len;
		if (s->open)
			record(sc, rec->buf, rec->len, &s->first);
		sb_reset(rec);
		/* No kernel message starts with '#': a comment a person
		 * added to the paste. */
		s->open = !(ln.len && ln.p[0] == '#') &&
			  ((pasted && pasted_kernel_line(&ln, strict)) ||
			   (strict && log_pasted_line(sc->e, &ln)) ||
			   (!strict &&
			    logscan_sieve_any(&s->sieve, at, at + ln.len) &&
			    (logscan_sieve_relevant(sc->ls, &s->sieve, text, at,
						    at + ln.len) ||
			     source_at_start(sc->e, &ln))));
		/* the rest of a module list the record before began */
		if (!s->open && sc->modules_open) {
			struct stamp st;

			stamp(ln.p, ln.len, &st);
			s->open = indented_message(ln.p, st.msg);
		}
		if (!s->open)
			sc->modules_open = false;
		/* a line with no literal of the sieve holds no mark (without
		 * a scanner every line is looked at) */
		if (!s->open && (strict || !sc->ls ||
				 logscan_sieve_any(&s->sieve, at, at + ln.len)))
			unrecorded(sc, &ln);
		if (s->open) {
			s->first = ln;
			sb_add(rec, ln.p,
			       ln.len < LOG_RECORD_MAX ? ln.len :
							 LOG_RECORD_MAX);
		}
	}
	s->lineno = it.no;
}

void log_stream_feed(struct log_stream *s, const char *text, size_t len)
{
	if (!s->started) {
		s->sc.stamped = stamped(text, len);
		s->started = true;
	}
	feed(s, text, len, false, false);
}

void log_stream_feed_at(struct log_stream *s, const char *text, size_t len,
			uint32_t first_no, bool strict)
{
	if (s->open)
		record(&s->sc, s->rec.buf, s->rec.len, &s->first);
	s->open = false;
	sb_reset(&s->rec);
	s->sc.stamped = stamped(text, len);
	s->started = true;
	s->lineno = first_no ? first_no - 1 : 0;
	feed(s, text, len, true, strict);
	if (s->open)
		record(&s->sc, s->rec.buf, s->rec.len, &s->first);
	s->open = false;
	sb_reset(&s->rec);
}

int log_stream_end(struct log_stream *s)
{
	struct emit *e = s->sc.e;
	int facts;

	if (s->open)
		record(&s->sc, s->rec.buf, s->rec.len, &s->first);
	sb_release(&s->rec);
	logscan_sieve_release(&s->sieve);
	emit_events(&s->sc);
	facts = (int)(e->nfacts - s->before);
	free(s);
	return facts;
}

int parse_dmesg(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct log_stream *s = log_stream_new(e);

	(void)arg;
	log_stream_feed(s, text, len);
	return log_stream_end(s);
}

/* How much a message looks like a kernel driver's: 2 for "<driver>
 * <device>: " (dev_printk, ibdev_printk) or syslog's "kernel:", 1 for a
 * bare "<module>: " (pr_fmt, easily confused with "key: value" output),
 * else 0. */
static int kernel_message(const struct line *ln, const struct stamp *st)
{
	const char *m = ln->p + st->msg, *end = ln->p + ln->len, *p = m, *sp;
	bool underscore = false;

	if (line_contains(ln, " kernel: "))
		return 2;
	while (p < end && (islower((unsigned char)*p) ||
			   isdigit((unsigned char)*p) || *p == '_'))
		underscore |= *p++ == '_';
	if (p == m || p + 1 >= end)
		return 0;
	/* dev_printk of a PCI device names its driver, whatever it is
	 * called, then the function's address: "ice 0000:3b:00.0: ", and
	 * netdev_printk the interface after it */
	if (!underscore && *p == ' ' && (size_t)(end - p) > 14 &&
	    pci_address(p + 1, 12)) {
		if (p[13] == ':')
			return 2;
		sp = p[13] == ' ' ? memchr(p + 14, ' ',
					  (size_t)(end - p - 14)) :
				    NULL;
		return sp && sp > p + 15 && sp[-1] == ':' && sp - p - 14 <= 16 ?
			       2 :
			       0;
	}
	if (!underscore && !(p - m == 10 && !memcmp(m, "infiniband", 10)))
		return 0;
	if (p[0] == ':' && p[1] == ' ')
		return 1;
	/* "<driver> <device>: " or "<driver> <device> <interface>: " */
	for (int tokens = 0; tokens < 2 && p < end && *p == ' '; tokens++) {
		sp = memchr(p + 1, ' ', (size_t)(end - p - 1));
		if (!sp || sp - p < 3)
			return 0;
		if (sp[-1] == ':')
			return 2;
		p = sp;
	}
	return 0;
}

/* The lines the kernel prints when it reports an oops, a warning or a
 * hang, which carry no driver prefix: x86 show_fault_oops() and
 * __die_header(), lib/bug.c, kernel/panic.c __warn() and panic(),
 * lib/dump_stack.c dump_stack_print_info(), kernel/workqueue.c
 * print_worker_info(), x86 show_iret_regs() and __show_regs(),
 * show_trace_log_lvl(), kernel/module print_modules(), hung_task.c.
 * Each is a prefix, with a second text the line must hold, or NULL. */
static const struct {
	const char *prefix, *also;
} oops_lines[] = {
	{ "BUG: kernel NULL pointer dereference", NULL },
	{ "BUG: unable to handle ", NULL },
	{ "BUG: KASAN: ", NULL },
	{ "BUG: scheduling while atomic", NULL },
	{ "BUG: sleeping function called", NULL },
	{ "BUG: soft lockup", NULL },
	{ "watchdog: BUG: soft lockup", NULL },
	{ "kernel BUG at ", NULL },
	{ "general protection fault", NULL },
	{ "Oops: ", " [#" },
	{ "#PF: ", " mode" },
	{ "WARNING: CPU: ", " PID: " },
	{ "CPU: ", " Comm: " },
	{ "Hardware name: ", NULL },
	{ "Workqueue: ", NULL },
	{ "RIP: 00", NULL },
	{ "RSP: 00", NULL },
	{ "RAX: ", " RBX: " },
	{ "RDX: ", " RSI: " },
	{ "RBP: ", " R08: " },
	{ "R10: ", " R11: " },
	{ "R13: ", " R14: " },
	{ "FS:  ", " GS:" },
	{ "CS:  ", " CR0: " },
	{ "CR2: ", " CR3: " },
	{ "Call Trace:", NULL },
	{ "Modules linked in:", NULL },
	{ "---[ end trace ", NULL },
	{ "Kernel panic - not syncing: ", NULL },
	{ "INFO: task ", " blocked for more than " },
};

bool log_oops_line(const struct line *ln)
{
	struct stamp st;
	struct line m;

	stamp(ln->p, ln->len, &st);
	m = (struct line){ ln->p + st.msg, ln->len - st.msg, ln->no };
	for (size_t i = 0; i < ARRAY_SIZE(oops_lines); i++)
		if (line_starts(&m, oops_lines[i].prefix) &&
		    (!oops_lines[i].also || line_contains(&m, oops_lines[i].also)))
			return true;
	return false;
}

bool log_kernel_line(const struct line *ln)
{
	struct stamp st;

	stamp(ln->p, ln->len, &st);
	return st.any && kernel_message(ln, &st);
}

bool log_stamped_line(const struct line *ln)
{
	struct stamp st;

	stamp(ln->p, ln->len, &st);
	return st.any;
}

bool log_driver_line(const struct line *ln)
{
	struct stamp st;

	stamp(ln->p, ln->len, &st);
	return kernel_message(ln, &st) == 2;
}
