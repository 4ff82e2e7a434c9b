/* Network interfaces as iproute2 and ethtool print them: ip addr and ip
 * link ("2: ib0: <...> mtu 2044 ... state UP"), ethtool IFACE ("Speed:",
 * "Link detected:"), and devlink health's reporters. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

#define NETDEV_TOKENS 32 /* @@ words of an ip link line read */

/* iproute2 print_linkinfo(): "%d: %s: <FLAGS> mtu %u ..." */
bool ip_link_line(const struct line *ln)
{
	struct line tok[3];

	if (line_split(ln, tok, 3) < 3 || !tok[0].len ||
	    tok[0].p[tok[0].len - 1] != ':' || tok[1].len < 2 ||
	    tok[1].p[tok[1].len - 1] != ':' || tok[2].p[0] != '<')
		return false;
	for (size_t i = 0; i + 1 < tok[0].len; i++)
		if (!isdigit((unsigned char)tok[0].p[i]))
			return false;
	return true;
}

static const struct line *after(const struct line *tok, size_t n,
				const char *word)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (line_eq(&tok[i], word))
			return &tok[i + 1];
	return NULL;
}

/* Words iproute2's print_addrinfo() prints after "scope %s" for the
 * address's flags; the IPv4 address's label (its interface, or the
 * interface's alias "eth0:1") comes after them, last on the line. */
static const char *const addr_flags[] = {
	"secondary",  "temporary",     "nodad",	     "optimistic",
	"dadfailed",  "home",	       "deprecated", "tentative",
	"permanent",  "dynamic",       "noprefixroute", "mngtmpaddr",
	"autojoin",   "stable-privacy",
};

#define IP_LABELS 64 /* @@ interfaces of a grep'd ip addr read */

/* The interface an "inet ADDR/N ... scope global LABEL" line names, for
 * "ip addr | grep inet", which drops the interface's own line. */
static bool inet_label(const struct line *tok, size_t n, struct line *name)
{
	const struct line *scope = after(tok, n, "scope");
	const char *colon;

	if (!scope || scope == &tok[n - 1] || n < 5)
		return false;
	*name = tok[n - 1];
	for (size_t i = 0; i < ARRAY_SIZE(addr_flags); i++)
		if (line_eq(name, addr_flags[i]))
			return false;
	if ((colon = memchr(name->p, ':', name->len)))
		name->len = (size_t)(colon - name->p);
	return name->len > 0 && name->len <= 15; /* IFNAMSIZ - 1 */
}

int parse_ip(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct line labels[IP_LABELS];
	size_t nlabels = 0;
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	struct fact *f = NULL;
	bool addr = false;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[NETDEV_TOKENS], name;
		size_t n = line_split(&ln, tok, NETDEV_TOKENS);
		const struct line *v;

		if (ip_link_line(&ln)) {
			emit_end(e, f);
			name = tok[1];
			name.len--;
			/* "eth0.100@eth0": the link after '@' */
			if (memchr(name.p, '@', name.len))
				name.len = (size_t)((const char *)memchr(
							    name.p, '@',
							    name.len) -
						    name.p);
			f = emit_begin(e, "netdev", &ln);
			emit_line(e, f, "name", &name, &ln);
			if ((v = after(tok, n, "mtu")))
				emit_line(e, f, "mtu", v, &ln);
			if ((v = after(tok, n, "state")) &&
			    !line_eq(v, "UNKNOWN"))
				emit_str(e, f, "state",
					 line_eq(v, "UP") ? "Up" : "Down",
					 line_eq(v, "UP") ? 2 : 4, &ln);
			addr = false;
		} else if (f && line_starts(&ln, "link/") && n >= 1) {
			struct line type = tok[0];

			type.p += 5;
			type.len -= 5;
			emit_line(e, f, "link_type", &type, &ln);
		} else if (f && !addr && n >= 2 && line_eq(&tok[0], "inet")) {
			emit_line(e, f, "addr", &tok[1], &ln);
			addr = true;
		} else if (!f && n >= 2 && line_eq(&tok[0], "inet") &&
			   inet_label(tok, n, &name)) {
			struct fact *g;
			size_t i = 0;

			/* the first address of each interface, as above */
			while (i < nlabels &&
			       !(labels[i].len == name.len &&
				 !memcmp(labels[i].p, name.p, name.len)))
				i++;
			if (i < nlabels || nlabels == IP_LABELS)
				continue;
			labels[nlabels++] = name;
			g = emit_begin(e, "netdev", &ln);
			emit_line(e, g, "name", &name, &ln);
			emit_line(e, g, "addr", &tok[1], &ln);
			emit_end(e, g);
		}
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}

/* ethtool IFACE: "Settings for ens1f0:", "Speed: 100000Mb/s",
 * "Link detected: yes" (ethtool.c dump_link_usettings(), and the netlink
 * settings code). */
int parse_ethtool(struct emit *e, const char *text, size_t len,
		  const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	struct fact *f = NULL;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;
		double mbps;

		if (line_starts(&ln, "Settings for ") &&
		    ln.p[ln.len - 1] == ':') {
			struct line name = { ln.p + 13, ln.len - 14, ln.no };

			emit_end(e, f);
			f = emit_begin(e, "netdev", &ln);
			emit_line(e, f, "name", &name, &ln);
			continue;
		}
		if (!line_kv(&ln, ':', &key, &val))
			continue;
		if (!f && arg && (line_eq(&key, "Speed") ||
				  line_eq(&key, "Link detected"))) {
			f = emit_begin(e, "netdev", &ln);
			emit_str(e, f, "name", arg, strlen(arg), &ln);
		}
		if (!f)
			continue;
		if (line_eq(&key, "Speed") && line_number(&val, &mbps) &&
		    line_contains(&val, "Mb/s"))
			emit_int(e, f, "speed_mbps", (int64_t)mbps, &ln);
		else if (line_eq(&key, "Link detected"))
			emit_bool(e, f, "link_detected", line_eq(&val, "yes"),
				  &ln);
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}

/* "pci/0000:3b:00.0:" (devlink health show groups reporters under their
 * device) */
bool devlink_health_dev_line(const struct line *ln)
{
	char buf[32];
	struct line addr;

	if (!line_starts(ln, "pci/") || ln->p[ln->len - 1] != ':')
		return false;
	addr = (struct line){ ln->p + 4, ln->len - 5, ln->no };
	return line_pci_addr(&addr, buf, sizeof(buf));
}

/* devlink health show: "pci/0000:3b:00.0:" then "  reporter fw" and
 * "    state healthy error 0 recover 0"; the one-line form
 * "pci/0000:3b:00.0: name fw state healthy error 0 recover 0" too. */
int parse_devlink_health(struct emit *e, const char *text, size_t len,
			 const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	char pci[32] = "";
	struct fact *f = NULL;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[NETDEV_TOKENS];
		size_t n = line_split(&ln, tok, NETDEV_TOKENS), i = 0;
		const struct line *v;

		if (n && line_starts(&tok[0], "pci/") && tok[0].len > 5 &&
		    tok[0].p[tok[0].len - 1] == ':') {
			struct line addr = { tok[0].p + 4, tok[0].len - 5,
					     ln.no };

			if (!line_pci_addr(&addr, pci, sizeof(pci)))
				pci[0] = '\0';
			i = 1;
		}
		if (!pci[0])
			continue;
		if ((v = after(tok + i, n - i, "reporter")) ||
		    (v = after(tok + i, n - i, "name"))) {
			emit_end(e, f);
			f = emit_begin(e, "health", &ln);
			emit_str(e, f, "pci", pci, strlen(pci), &ln);
			emit_line(e, f, "reporter", v, &ln);
		}
		if (!f)
			continue;
		if ((v = after(tok, n, "state")))
			emit_line(e, f, "state", v, &ln);
		if ((v = after(tok, n, "error")))
			emit_line(e, f, "errors", v, &ln);
		if ((v = after(tok, n, "recover")))
			emit_line(e, f, "recovers", v, &ln);
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}

/* net-tools ifconfig (lib/interface.c ife_print_long()), in both its
 * layouts: 2.x "ib0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 2044"
 * and 1.60 "ib0       Link encap:UNSPEC  HWaddr 80-00-..." with "UP
 * BROADCAST RUNNING MULTICAST  MTU:2044  Metric:1" below. */
bool ifconfig_flags_line(const struct line *ln)
{
	struct line tok[3];

	return line_split(ln, tok, 3) >= 2 && tok[0].len > 1 &&
	       tok[0].p[tok[0].len - 1] == ':' &&
	       line_starts(&tok[1], "flags=") && line_contains(&tok[1], "<");
}

bool ifconfig_encap_line(const struct line *ln)
{
	struct line tok[3];

	return line_split(ln, tok, 3) >= 3 && line_eq(&tok[1], "Link") &&
	       line_starts(&tok[2], "encap:");
}

/* The prefix length of a dotted netmask, or -1. */
static int mask_bits(const struct line *mask)
{
	unsigned a, b, c, d;
	char buf[20];
	uint32_t m;
	int bits = 0;

	line_copy(mask, buf, sizeof(buf));
	if (sscanf(buf, "%u.%u.%u.%u", &a, &b, &c, &d) != 4 || a > 255 ||
	    b > 255 || c > 255 || d > 255)
		return -1;
	m = (uint32_t)a << 24 | b << 16 | c << 8 | d;
	while (m & 0x80000000u) {
		bits++;
		m <<= 1;
	}
	return m ? -1 : bits;
}

static void ifconfig_addr(struct emit *e, struct fact *f,
			  const struct line *addr, const struct line *mask,
			  const struct line *at)
{
	char buf[40];
	int bits = mask ? mask_bits(mask) : -1;
	int n;

	if (bits < 0 || addr->len > 16)
		return;
	n = snprintf(buf, sizeof(buf), "%.*s/%d", (int)addr->len, addr->p,
		     bits);
	emit_str(e, f, "addr", buf, (size_t)n, at);
}

/* "Up" when the flags hold RUNNING (IFF_RUNNING: the carrier is up),
 * else "Down". */
static void ifconfig_state(struct emit *e, struct fact *f,
			   const struct line *ln)
{
	bool running = line_contains(ln, "RUNNING");

	emit_str(e, f, "state", running ? "Up" : "Down", running ? 2 : 4, ln);
}

int parse_ifconfig(struct emit *e, const char *text, size_t len,
		   const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	struct fact *f = NULL;
	bool addr = false;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[NETDEV_TOKENS], name;
		size_t n = line_split(&ln, tok, NETDEV_TOKENS);
		const struct line *v;

		if (ifconfig_flags_line(&ln) || ifconfig_encap_line(&ln)) {
			emit_end(e, f);
			name = tok[0];
			if (name.p[name.len - 1] == ':')
				name.len--;
			f = emit_begin(e, "netdev", &ln);
			emit_line(e, f, "name", &name, &ln);
			addr = false;
			if (ifconfig_flags_line(&ln)) {
				if ((v = after(tok, n, "mtu")))
					emit_line(e, f, "mtu", v, &ln);
				ifconfig_state(e, f, &ln);
			} else if (line_contains(&tok[2], "InfiniBand")) {
				emit_str(e, f, "link_type", "infiniband", 10,
					 &ln);
			} else if (line_contains(&tok[2], "Ethernet")) {
				emit_str(e, f, "link_type", "ether", 5, &ln);
			}
			continue;
		}
		if (!f || !n)
			continue;
		if (line_eq(&tok[0], "infiniband") || line_eq(&tok[0], "ether")) {
			/* 2.x: "infiniband 20:00:...  txqueuelen 256" */
			emit_line(e, f, "link_type", &tok[0], &ln);
		} else if (!addr && line_eq(&tok[0], "inet") && n >= 2) {
			struct line a = tok[1];
			const struct line *mask = after(tok, n, "netmask");

			/* 1.60: "inet addr:10.0.0.1  Bcast:...  Mask:..." */
			if (line_starts(&a, "addr:")) {
				a.p += 5;
				a.len -= 5;
				mask = NULL;
				for (size_t i = 2; i < n; i++)
					if (line_starts(&tok[i], "Mask:")) {
						tok[i].p += 5;
						tok[i].len -= 5;
						mask = &tok[i];
					}
			}
			ifconfig_addr(e, f, &a, mask, &ln);
			addr = true;
		} else {
			/* 1.60: "UP BROADCAST RUNNING MULTICAST  MTU:2044" */
			for (size_t i = 0; i < n; i++)
				if (line_starts(&tok[i], "MTU:")) {
					struct line m = { tok[i].p + 4,
							  tok[i].len - 4,
							  tok[i].no };

					emit_line(e, f, "mtu", &m, &ln);
					ifconfig_state(e, f, &ln);
				}
		}
	}
	emit_end(e, f);
	return (int)(e->nfacts - before);
}
