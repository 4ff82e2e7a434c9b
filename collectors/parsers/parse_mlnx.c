/* MLNX_OFED's and MFT's listings: show_gids (the GID table of every port
 * with its RoCE version and interface), mst status [-v] (each adapter's
 * MST device, PCI address, RDMA device and interface) and openibd status
 * (the OFED modules loaded). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/parsers/formats.h"
#include "engine/xalloc.h"

/* "mlx5_0 1 3 0000:0000:0000:0000:0000:ffff:c0a8:0101 192.168.1.1 v2
 * ens1f0": device, port, index, GID, [IPv4], version, [interface] */
static size_t gid_row(const struct line *ln, struct line *tok)
{
	size_t n = line_split(ln, tok, 8);

	if (n < 5 || !line_digits(&tok[1], 9) || !line_digits(&tok[2], 9) ||
	    !memchr(tok[3].p, ':', tok[3].len) || tok[3].len < 10)
		return 0;
	return n;
}

bool show_gids_row_line(const struct line *ln)
{
	struct line tok[8];

	return gid_row(ln, tok) > 0;
}

#define GID_PORTS 64 /* @@ ports of one show_gids output counted */

/* A port show_gids lists: its rows, counted, and its interface. */
struct gid_port {
	struct line hca, port, netdev, first;
	unsigned rows;
};

static struct gid_port *gid_port_of(struct gid_port *t, size_t *n,
				    const struct line *hca,
				    const struct line *port,
				    const struct line *ln)
{
	for (size_t i = 0; i < *n; i++)
		if (t[i].hca.len == hca->len &&
		    !memcmp(t[i].hca.p, hca->p, hca->len) &&
		    t[i].port.len == port->len &&
		    !memcmp(t[i].port.p, port->p, port->len))
			return &t[i];
	if (*n == GID_PORTS)
		return NULL;
	t[*n] = (struct gid_port){ *hca, *port, { 0 }, *ln, 0 };
	return &t[(*n)++];
}

/* show_gids lists the entries of each port's GID table that are not
 * zero, so the rows of a port are its gid_count. */
static void gid_ports_emit(struct emit *e, const struct gid_port *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fact *f = emit_begin(e, "port", &t[i].first);

		emit_line(e, f, "hca", &t[i].hca, &t[i].first);
		emit_line(e, f, "port", &t[i].port, &t[i].first);
		emit_int(e, f, "gid_count", t[i].rows, &t[i].first);
		if (t[i].netdev.p)
			emit_line(e, f, "netdev", &t[i].netdev, &t[i].first);
		emit_end(e, f);
	}
}

int parse_show_gids(struct emit *e, const char *text, size_t len,
		    const char *arg)
{
	struct gid_port *ports = xcalloc(GID_PORTS, sizeof(*ports));
	size_t nports = 0;
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[8];
		size_t n = gid_row(&ln, tok), ver;
		struct gid_port *gp;
		struct fact *f;

		if (!n)
			continue;
		/* the version is the first v1/v2 word after the GID */
		for (ver = 4; ver < n; ver++)
			if (line_eq(&tok[ver], "v1") ||
			    line_eq(&tok[ver], "v2"))
				break;
		gp = gid_port_of(ports, &nports, &tok[0], &tok[1], &ln);
		if (gp) {
			gp->rows++;
			if (ver + 1 < n && !gp->netdev.p)
				gp->netdev = tok[ver + 1];
		}
		f = emit_begin(e, "gid", &ln);
		emit_line(e, f, "hca", &tok[0], &ln);
		emit_line(e, f, "port", &tok[1], &ln);
		emit_line(e, f, "index", &tok[2], &ln);
		emit_line(e, f, "gid", &tok[3], &ln);
		if (ver < n)
			emit_str(e, f, "type",
				 line_eq(&tok[ver], "v1") ? "RoCE v1" :
							    "RoCE v2",
				 7, &ln);
		emit_end(e, f);
		if (ver + 1 < n) {
			f = emit_begin(e, "netdev", &ln);
			emit_line(e, f, "name", &tok[ver + 1], &ln);
			emit_line(e, f, "hca", &tok[0], &ln);
			emit_line(e, f, "port", &tok[1], &ln);
			emit_end(e, f);
		}
	}
	gid_ports_emit(e, ports, nports);
	free(ports);
	return (int)(e->nfacts - before);
}

/* "ConnectX5(rev:0) /dev/mst/mt4119_pciconf0 3b:00.0 mlx5_0
 * net-enp59s0f0 0" (mst status -v, PCI devices) */
static size_t mst_row(const struct line *ln, struct line *tok, char *pci)
{
	size_t n = line_split(ln, tok, 6);

	if (n < 4 || !line_contains(&tok[0], "(rev:"))
		return 0;
	return line_pci_addr(&tok[2], pci, 32) ? n : 0;
}

bool mst_status_row_line(const struct line *ln)
{
	struct line tok[6];
	char pci[32];

	return mst_row(ln, tok, pci) > 0;
}

/* mst status without -v: "/dev/mst/mt4119_pciconf0 - PCI configuration
 * cycles access.", then "domain:bus:dev.fn=0000:3b:00.0 addr.reg=88 ...".
 * MST names a device mt<PCI device id in decimal> (mt4119: 0x1017,
 * ConnectX-5), and only the vendor's own devices (PCI vendor 15b3). */
#define MST_VENDOR_ID "15b3"
#define MST_DEVICE_ID_MAX 0xffff

static bool mst_device_id(const struct line *ln, char *hex, size_t size)
{
	static const char prefix[] = "/dev/mst/mt";
	const char *p = ln->p + sizeof(prefix) - 1, *end = ln->p + ln->len;
	long id = 0;

	if (!line_starts(ln, prefix))
		return false;
	for (; p < end && isdigit((unsigned char)*p) && id <= MST_DEVICE_ID_MAX;
	     p++)
		id = id * 10 + (*p - '0');
	if (p == ln->p + sizeof(prefix) - 1 || p >= end || *p != '_' ||
	    id > MST_DEVICE_ID_MAX)
		return false;
	snprintf(hex, size, "%04lx", id);
	return true;
}

static void mst_function(struct emit *e, const struct line *ln,
			 const char *device_id)
{
	static const char key[] = "domain:bus:dev.fn=";
	const char *at = memmem(ln->p, ln->len, key, sizeof(key) - 1);
	struct line addr;
	struct fact *f;
	char pci[32];

	if (!at)
		return;
	addr.p = at + sizeof(key) - 1;
	addr.no = ln->no;
	for (addr.len = 0; addr.p + addr.len < ln->p + ln->len &&
			   !isspace((unsigned char)addr.p[addr.len]);
	     addr.len++)
		;
	if (!line_pci_addr(&addr, pci, sizeof(pci)))
		return;
	f = emit_begin(e, "pcie", ln);
	emit_str(e, f, "pci", pci, strlen(pci), ln);
	if (device_id[0]) {
		emit_str(e, f, "vendor_id", MST_VENDOR_ID,
			 strlen(MST_VENDOR_ID), ln);
		emit_str(e, f, "device_id", device_id, strlen(device_id), ln);
	}
	emit_end(e, f);
}

int parse_mst_status(struct emit *e, const char *text, size_t len,
		     const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	char device_id[8] = "";

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), tok[6];
		char pci[32];
		size_t n = mst_row(&ln, tok, pci);
		bool rdma;
		struct fact *f;

		if (!n) {
			if (line_starts(&ln, "/dev/mst/")) {
				if (!mst_device_id(&ln, device_id,
						   sizeof(device_id)))
					device_id[0] = '\0';
			} else if (line_starts(&ln, "domain:bus:dev.fn=")) {
				mst_function(e, &ln, device_id);
				device_id[0] = '\0';
			}
			continue;
		}
		/* an empty RDMA column leaves the NUMA node ("-1") there */
		rdma = isalpha((unsigned char)tok[3].p[0]) &&
		       !line_eq(&tok[3], "NA");
		if (rdma) {
			f = emit_begin(e, "hca", &ln);
			emit_line(e, f, "name", &tok[3], &ln);
			emit_str(e, f, "pci", pci, strlen(pci), &ln);
			emit_end(e, f);
		}
		if (n > 4 && line_starts(&tok[4], "net-") && tok[4].len > 4 &&
		    tok[4].p[4] != ',') {
			/* "net-p1,net-pf1hpf,...": the first interface */
			struct line net = { tok[4].p + 4, tok[4].len - 4,
					    ln.no };

			const char *comma = memchr(net.p, ',', net.len);

			if (comma)
				net.len = (size_t)(comma - net.p);

			f = emit_begin(e, "netdev", &ln);
			emit_line(e, f, "name", &net, &ln);
			if (rdma)
				emit_line(e, f, "hca", &tok[3], &ln);
			emit_str(e, f, "pci", pci, strlen(pci), &ln);
			emit_end(e, f);
		}
	}
	return (int)(e->nfacts - before);
}

/* infiniband-diags sminfo.c: "sminfo: sm lid %d sm guid 0x%" PRIx64 ",
 * activity count %u priority %d state %d %s" */
int parse_sminfo(struct emit *e, const char *text, size_t len, const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw);
		char buf[256], guid[32], state[32];
		unsigned lid, activity, code;
		int prio;
		struct fact *f;

		if (line_starts(&ln, "sminfo: iberror:") ||
		    line_starts(&ln, "ibwarn:")) {
			emit_tool_error(e, "sminfo", &ln);
			continue;
		}
		line_copy(&ln, buf, sizeof(buf));
		if (sscanf(buf,
			   "sminfo: sm lid %u sm guid %31[0-9a-fA-Fx], activity count %u priority %d state %u %31s",
			   &lid, guid, &activity, &prio, &code, state) != 6)
			continue;
		f = emit_begin(e, "sm", &ln);
		emit_int(e, f, "lid", lid, &ln);
		emit_str(e, f, "guid", guid, strlen(guid), &ln);
		emit_int(e, f, "activity", activity, &ln);
		emit_int(e, f, "priority", prio, &ln);
		emit_str(e, f, "state", state, strlen(state), &ln);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}

/* openibd status: under "The following OFED modules are loaded:", one
 * module a line (blank lines between them where a page reflowed it),
 * up to the first line that is no module name.  The script lists the
 * modules of its own set that are loaded, so the list says nothing of
 * modules outside that set: no listing fact. */
int parse_openibd_status(struct emit *e, const char *text, size_t len,
			 const char *arg)
{
	struct lines it;
	struct line raw;
	unsigned before = e->nfacts;
	bool in = false;

	(void)arg;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line t = line_trim(raw);
		struct fact *f;

		if (line_starts(&t, "The following OFED modules are loaded:")) {
			in = true;
			continue;
		}
		if (!in || !t.len)
			continue;
		if (!line_is_module_name(&t)) {
			in = false;
			continue;
		}
		f = emit_begin(e, "module", &t);
		emit_line(e, f, "name", &t, &t);
		emit_end(e, f);
	}
	return (int)(e->nfacts - before);
}
