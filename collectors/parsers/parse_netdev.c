/* Network interfaces as iproute2 and ethtool print them: ip addr and ip
 * link ("2: ib0: <...> mtu 2044 ... state UP"), ethtool IFACE ("Speed:",
 * "Link detected:"), and devlink health's reporters. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "collectors/parsers/formats.h"

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

int parse_ip(struct emit *e, const char *text, size_t len, const char *arg)
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
		} else if (f && !addr && line_eq(&tok[0], "inet") && n >= 2) {
			emit_line(e, f, "addr", &tok[1], &ln);
			addr = true;
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
