/* The format table and content detection: each format lists the markers
 * its output shows and their weights (as libblkid's idinfos[] list the
 * magic of each filesystem), and one loop scores a text against them. */
#include "collectors/parsers/formats.h"

#include <string.h>

#include "engine/xalloc.h"

/* Detection looks at this much of a text. */
#define DETECT_BYTES 65536 /* @@ */

#define PRE(t, w) { MARK_PREFIX, t, NULL, NULL, w, 0 }
#define PRE2(t, a, w) { MARK_PREFIX, t, a, NULL, w, 0 }
#define HAS(t, w) { MARK_CONTAINS, t, NULL, NULL, w, 0 }
#define HAS2(t, a, w) { MARK_CONTAINS, t, a, NULL, w, 0 }
#define TEST(fn, w) { MARK_TEST, NULL, NULL, fn, w, 0 }
#define TESTN(fn, w, n) { MARK_TEST, NULL, NULL, fn, w, n }
#define PREN(t, w, n) { MARK_PREFIX, t, NULL, NULL, w, n }

/* transcript is chosen by name: a paste is always cut into blocks. */
static const struct marker m_none[] = {
	PRE2("", "\x01\x02", 0),
};
static const struct marker m_ibstat[] = {
	TEST(ibstat_ca_line, 60),
	PRE("CA type:", 15),
	PRE("Firmware version:", 15),
	PRE("Physical state:", 15),
	PRE2("ibpanic:", "main:", 40),
};
static const struct marker m_lsmod[] = {
	TEST(proc_modules_line, -30),
	TESTN(lsmod_header_line, 50, 1),
	TESTN(lsmod_row_line, 15, 3),
};
static const struct marker m_proc_modules[] = {
	TESTN(proc_modules_line, 35, 3),
};
static const struct marker m_modinfo[] = {
	PRE2("filename:", ".ko", 40),
	PRE("vermagic:", 20),
	PRE("srcversion:", 20),
	PRE("depends:", 20),
	PRE("version:", 10),
	TESTN(modinfo_pairs_line, 20, 3),
};
static const struct marker m_ethtool_i[] = {
	PRE("driver:", 30),
	PRE("bus-info:", 20),
	PRE("firmware-version:", 20),
	PRE("expansion-rom-version:", 20),
	PRE("supports-statistics:", 20),
};
/* ethtool.c dump_link_usettings() and "Link detected:" (netlink/ethtool
 * settings) */
static const struct marker m_ethtool[] = {
	PRE2("Settings for ", ":", 50),
	PRE("Supported link modes:", 20),
	PRE("Speed:", 20),
	PRE("Link detected:", 30),
	PRE("Duplex:", 10),
	PRE("Auto-negotiation:", 10),
};
static const struct marker m_perftest[] = {
	PRE2("#bytes", "BW average", 70),
	PRE2("#bytes", "t_typical", 70),
	PRE2("#bytes", "#iterations", 70),
	HAS("BW Test", 40),
	HAS("Latency Test", 40),
	HAS("Bidirectional BW", 40),
	PRE("Unable to Connect the HCA", 50),
	PRE("Did not detect devices", 50),
	PRE2("Failed to modify QP", "to RTR", 50),
	HAS("ib_write_bw", 20),
	HAS("ib_read_bw", 20),
	HAS("ib_send_bw", 20),
	HAS("_lat ", 20),
};
static const struct marker m_kconfig[] = {
	PRE("CONFIG_", 30),
	PRE2("# CONFIG_", " is not set", 30),
};
static const struct marker m_dmesg[] = {
	TEST(log_kernel_line, 80),
	TESTN(log_stamped_line, 45, 1),
	TEST(log_driver_line, 40),
	TEST(log_oops_line, 30),
};
static const struct marker m_ibstatus[] = {
	TEST(ibstatus_header_line, 60),
	PRE("phys state:", 15),
	PRE("default gid:", 15),
};
static const struct marker m_ibv_devinfo[] = {
	PRE("hca_id:", 60),
	PRE("phys_port_cnt:", 15),
	PRE("vendor_part_id:", 15),
	PRE("active_mtu:", 15),
	/* a port's -v lines (libibverbs/examples/devinfo.c print_hca_cap():
	 * "\t\t\tphys_state:\t\t%s (%d)\n", "\t\t\tGID[%3d]:\t\t%s") */
	PRE("phys_state:", 15),
	PREN("GID[", 10, 3),
	PRE("No IB devices found", 40),
	PRE("Failed to open device", 40),
	PRE("libibverbs: Warning:", 25),
	HAS("ibv_devinfo", 20),
};
static const struct marker m_ibv_devices[] = {
	/* ibswinfo draws its table with the same dashed rules */
	TEST(ibswinfo_row_line, -30),
	PRE2("device", "node GUID", 70),
	PRE2("------", "--------", 20),
};
static const struct marker m_rdma[] = {
	TEST(rdma_link_line, 50),
	TEST(rdma_dev_line, 50),
	PRE("Failed to open NETLINK_RDMA socket", 50),
};
static const struct marker m_rdma_statistic[] = {
	TEST(rdma_statistic_line, 60),
};
static const struct marker m_ibdev2netdev[] = {
	TEST(ibdev2netdev_line, 40),
};
static const struct marker m_ofed_info[] = {
	TEST(ofed_release_line, 90),
	TEST(ofed_version_line, 35),
	HAS("ofed_info", 10),
};
/* mlnxofedinstall check_pcie_link() and mlnx_fw_updater.pl */
static const struct marker m_ofed_install[] = {
	PRE("PCI Link Speed: ", 40),
	PRE("Link Width: x", 20),
	PRE2("Device (", "):", 20),
	PRE("The firmware for this device is not distributed inside Mellanox driver: ",
	    60),
	PRE("Installation passed successfully", 20),
	PRE("Failed to update Firmware.", 20),
	/* its steps and its failures (mlnxofedinstall, install.pl,
	 * mlnx_add_kernel_support.sh; parse_install.c reads the failures) */
	PRE("Checking SW Requirements...", 30),
	PRE("Removing old packages...", 20),
	PRE("Installing new packages", 20),
	PRE("Checking if all needed packages are installed...", 30),
	PRE2("Building MLNX_OFED_LINUX ", "Please wait", 40),
	HAS("Failed to build MLNX_OFED_LINUX for ", 60),
	HAS("Failed to install MLNX_OFED_LINUX", 60),
	HAS("The current MLNX_OFED_LINUX is intended for ", 60),
	HAS2("Error: ", " installation failed!", 40),
};
static const struct marker m_lspci[] = {
	PRE("LnkCap:", 30),
	PRE("LnkSta:", 30),
	PRE("Kernel driver in use:", 5),
	PRE("Capabilities: [", 5),
	TEST(lspci_rdma_header_line, 30),
	TESTN(lspci_header_line, 20, 2),
};
static const struct marker m_flint_q[] = {
	PRE("Image type:", 30),
	PRE("FW Version:", 30),
	PRE("FW Version(Running):", 30),
	PRE("Current FW version on flash:", 30),
	PRE("FW Release Date:", 15),
	PRE("Product Version:", 15),
	PRE("Rom Info:", 15),
	/* flint/err_msgs.h FLINT_OPEN_FWOPS_DEVICE_ERROR, alone the whole
	 * output of a query that could not open the device */
	PRE("-E- Cannot open Device:", 40),
};
static const struct marker m_mlxfwmanager[] = {
	PRE("Querying Mellanox devices firmware", 60),
	PRE("PCI Device Name:", 30),
	PRE2("Versions:", "Available", 30),
	PRE("Device #", 10),
	PRE("Device Type:", 10),
	PRE("Part Number:", 10),
	/* its device's last line, a blank line above it */
	TEST(mlxfw_status_line, 20),
};
/* mstflint/mft mst status -v: "DEVICE_TYPE MST PCI RDMA NET NUMA" */
static const struct marker m_mst_status[] = {
	PRE2("DEVICE_TYPE", "RDMA", 70),
	PRE("MST devices:", 30),
	TEST(mst_status_row_line, 30),
};
static const struct marker m_perfquery[] = {
	TEST(perfquery_header_line, 60),
	PRE("PortSelect:..", 20),
	PRE("SymbolErrorCounter:..", 20),
	PRE("PortXmitData:..", 20),
};
static const struct marker m_pingpong[] = {
	PRE2("local address:", ", QPN ", 30),
	PRE2("remote address:", ", QPN ", 30),
	HAS2(" bytes in ", "Mbit/sec", 30),
	HAS2(" iters in ", "usec/iter", 30),
	HAS("_pingpong", 20),
};
static const struct marker m_limits_conf[] = {
	TEST(limits_memlock_line, 50),
	PRE2("#<domain>", "<item>", 40),
	HAS("pam_limits", 10),
	HAS("limits.conf", 10),
};
/* bash's builtins/ulimit.def: "max locked memory       (kbytes, -l) 64" */
static const struct marker m_ulimit[] = {
	PRE2("max locked memory", "-l)", 90),
	PRE2("core file size", "-c)", 20),
	PRE2("open files", "-n)", 20),
	TEST(csh_memlock_line, 90),
};
static const struct marker m_uname[] = {
	TEST(uname_a_line, 60),
};
/* kmod tools/modprobe.c: "modprobe: FATAL: Module %s not found in
 * directory %s", "modprobe: ERROR: could not insert '%s': %s" */
static const struct marker m_modprobe[] = {
	PRE("modprobe: FATAL:", 80),
	PRE("modprobe: ERROR:", 80),
	PRE("modprobe: WARNING:", 40),
	PRE("insmod: ERROR:", 80),
};
/* iproute2 ip/ipaddress.c print_linkinfo(): "2: eth0: <...> mtu 1500 ..." */
static const struct marker m_ip[] = {
	TEST(ip_link_line, 50),
	PRE("link/ether ", 20),
	PRE("link/infiniband ", 30),
	PRE("inet ", 10),
	PRE("inet6 ", 10),
};
/* net-tools lib/interface.c ife_print_long(): 2.x "%s: flags=%d<%s>  mtu
 * %d", 1.60 "%-9.9s Link encap:%s  HWaddr %s" */
static const struct marker m_ifconfig[] = {
	TEST(ifconfig_flags_line, 60),
	TEST(ifconfig_encap_line, 60),
	PRE("inet addr:", 20),
	PRE2("inet ", "netmask ", 20),
	PRE2("RX packets", "bytes", 10),
	PRE2("RX packets:", "errors:", 10),
};
/* ls of /dev/infiniband: character devices uverbsN, umadN, issmN,
 * rdma_cm */
static const struct marker m_devnodes[] = {
	TEST(devnode_long_line, 40),
	TEST(devnode_names_line, 40),
	PRE("total ", 0),
};
/* iproute2 devlink/devlink.c health show: "pci/0000:3b:00.0:" then
 * "  reporter fw" and "    state healthy error 0 recover 0" */
static const struct marker m_devlink_health[] = {
	TEST(devlink_health_dev_line, 30),
	PRE("reporter ", 30),
	PRE2("state ", " recover ", 30),
	PRE2("name ", " state ", 20),
};
/* MLNX_OFED show_gids: "DEV	PORT	INDEX	GID	IPv4	VER	DEV" */
static const struct marker m_show_gids[] = {
	PRE2("DEV", "INDEX", 70),
	PRE2("---", "-----", 10),
	TEST(show_gids_row_line, 30),
	PRE2("n_gids_found=", "", 30),
};
/* infiniband-diags sminfo.c: "sminfo: sm lid %d sm guid 0x%" PRIx64
 * ", activity count %u priority %d state %d %s" */
static const struct marker m_sminfo[] = {
	PRE2("sminfo: sm lid ", " state ", 100),
	PRE("sminfo: iberror:", 60),
};
/* infiniband-diags ibportstate.c and smpquery.c: "# Port info: %s port
 * %d", then libibmad's dot-padded PortInfo fields */
static const struct marker m_ibportstate[] = {
	TEST(ibportstate_header_line, 60),
	PRE2("LinkState:", "..", 20),
	PRE2("PhysLinkState:", "..", 20),
	PRE2("LinkWidthActive:", "..", 15),
	PRE2("LinkSpeedActive:", "..", 15),
};
/* ibnetdiscover.c dump_ports_report(): "%2s %5d %2d 0x%016" PRIx64 ..." */
static const struct marker m_ibnetdiscover[] = {
	TEST(ibnetdiscover_row_line, 35),
};
/* mlxlink's sections: "Operational Info", then "State : Active", ... */
static const struct marker m_mlxlink[] = {
	TEST(mlxlink_section_line, 30),
	PRE2("Physical state", " : ", 15),
	PRE2("Status Opcode", " : ", 20),
	PRE2("Auto Negotiation", " : ", 10),
	PRE2("FEC", " : ", 10),
};
/* mlxconfig/mstconfig query (mstflint mlxconfig/mlxcfg_ui.cpp
 * printOpening(), printConfHeader(), printSingleParam()) */
static const struct marker m_mlxconfig[] = {
	TEST(mlxconfig_header_line, 60),
	TESTN(mlxconfig_row_line, 20, 5),
	PRE("Device type:", 10),
	PRE("-I- Please reboot machine to load new configurations.", 30),
	PRE2("Apply new Configuration?", "(y/n)", 30),
	/* its errors (mlxconfig/mlxcfg_commander.cpp, mlxcfg_ui.h
	 * NO_DEV_ERR), alone the whole output of a failed query */
	PRE("-E- Failed to open the device", 40),
	PRE("-E- Failed to identify the device", 40),
	PRE("-E- No devices found, mst might be stopped", 40),
};
/* ibswinfo.sh: printf "%-18s | %s" rows */
static const struct marker m_ibswinfo[] = {
	TEST(ibswinfo_row_line, 30),
	PRE2("uptime (d-h:m:s)", "|", 20),
	PRE2("PSU0 status", "|", 20),
};
/* UCX tools/info: "# Memory domain: ...", "#   Transport: ...", ... */
static const struct marker m_ucx_info[] = {
	TEST(ucx_info_md_line, 50),
	PRE2("#", "Transport: ", 15),
	PRE2("#", "Device: ", 10),
};
/* openibd's status: its headings, as OFED 1.x to MLNX_OFED 5.x print
 * them (tests/fixtures/samples/openibd_status/) */
static const struct marker m_openibd_status[] = {
	PRE("The following OFED modules are loaded:", 60),
	PRE("HCA driver loaded", 30),
	PRE("HCA driver is not loaded", 30),
	PRE("Configured IPoIB devices:", 20),
	PRE("Currently active IPoIB devices:", 20),
	PRE("Configured Mellanox EN devices:", 15),
	PRE("Currently active Mellanox devices:", 15),
	PRE("Configured devices:", 10),
	PRE("Currently active devices:", 10),
	/* its module lines, a page's blank line between them: enough to
	 * continue a status, never to detect one */
	TESTN(line_is_module_name, 1, 20),
};
static const struct marker m_sysfs_attr[] = {
	TEST(sysfs_value_line, 10),
};
/* Application lines are found by the kb's patterns in every block
 * (FORMAT_ANYWHERE), never by markers. */
static const struct marker m_app_log[] = {
	PRE2("", "\x01\x02", 0),
};
/* Installer, DKMS and package-manager failure lines are found by their
 * forms in every block (FORMAT_ANYWHERE, parse_install.c); DKMS's own
 * steps (dkms 2.x: "DKMS: build completed.", "Running module version
 * sanity check."; report_build_problem()) and openibd's steps make a
 * block of them its output, read even when nothing failed. */
static const struct marker m_install_log[] = {
	PRE("DKMS: build completed.", 40),
	PRE("DKMS: install completed.", 40),
	PRE("DKMS: add completed.", 30),
	PRE("Running module version sanity check.", 30),
	PRE("Kernel preparation unnecessary for this kernel.", 30),
	PRE("Error! Bad return status for module build on kernel:", 60),
	PRE("Consult /var/lib/dkms/", 30),
	PRE("Error! One or more modules failed to install", 40),
	/* openibd's (and MLNX_EN's mlnx-en.d's) start and stop steps,
	 * echo_success()/echo_failure() of ofed_scripts/openibd */
	PRE("Unloading HCA driver:", 40),
	PRE("Loading HCA driver and Access Layer:", 50),
};
/* Tool error lines are found by kb/tools.yaml's names in every block
 * (FORMAT_ANYWHERE), never by markers. */
static const struct marker m_tool_log[] = {
	PRE2("", "\x01\x02", 0),
};
static const struct marker m_facts[] = {
	HAS("\"facts\"", 90),
	PREN("{", 10, 1),
};

static const struct marker m_rxe_cfg[] = {
	TEST(rxe_cfg_header_line, 80),
	PRE("rdma_rxe module not loaded", 40),
};

/* libfabric util/info.c print_short_info(): "provider: %s", then the
 * endpoint's indented "type: FI_EP_*" and "protocol: FI_PROTO_*"; run():
 * "fi_getinfo: %d" when no provider matches */
static const struct marker m_fi_info[] = {
	TEST(fi_getinfo_error_line, 60),
	PRE("provider: ", 20),
	PRE2("type: ", "FI_EP_", 25),
	PRE2("protocol: ", "FI_PROTO_", 25),
	PRE("fabric: ", 10),
	PRE("domain: ", 10),
	HAS("fi_info", 10),
};

/* linux-rdma/qperf src/qperf.c: "%s:\n" (the test), then "    %s  =  %s
 * %s" (view_show()); error(): "%s: bad test; try: qperf --help tests",
 * "%s: failed to connect" */
static const struct marker m_qperf[] = {
	TESTN(qperf_test_line, 30, 3),
	TESTN(qperf_value_line, 25, 4),
	HAS(": bad test; try: qperf --help tests", 80),
	HAS("qperf", 10),
};

/* libfabric util/pingpong.c and fabtests/common/shared.c show_perf(),
 * librdmacm/examples rstream.c and riostream.c: a header row with
 * "usec/xfer" above the results */
static const struct marker m_fabtests[] = {
	TESTN(fabtests_header_line, 70, 2),
	/* fi_pingpong -v: PP_DEBUG()'s "[debug] %s:%-4d: " trace */
	PREN("[debug] util/pingpong.c:", 10, 4),
	HAS("fi_pingpong", 10),
	HAS("_pingpong", 10),
};

static const struct marker m_rping[] = {
	TESTN(rping_line, 20, 3),
	PRE2("cma event RDMA_CM_EVENT_", ", error ", 40),
	HAS("rping", 10),
};

static const struct format formats[] = {
#define X(name, what, kinds, markers, lines, share, flags, lists)          \
	{ #name,  what,	 parse_##name, kinds, markers, ARRAY_SIZE(markers), lines, \
	  share, flags, lists },
	FORMAT_LIST(X)
#undef X
};

size_t format_count(void)
{
	return ARRAY_SIZE(formats);
}

const struct format *format_at(size_t i)
{
	return i < ARRAY_SIZE(formats) ? &formats[i] : NULL;
}

const struct format *format_find(const char *name)
{
	const struct format *t = formats;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

static bool marker_hit(const struct marker *m, const struct line *ln)
{
	switch (m->how) {
	case MARK_PREFIX:
		if (!line_starts(ln, m->text))
			return false;
		break;
	case MARK_CONTAINS:
		if (!line_contains(ln, m->text))
			return false;
		break;
	case MARK_TEST:
		if (!m->test(ln))
			return false;
		break;
	}
	return !m->also || line_contains(ln, m->also);
}

#define MARKERS_MAX 16 /* @@ markers of one format */

int format_score(const struct format *f, const char *text, size_t len)
{
	unsigned hits[MARKERS_MAX] = { 0 }, lines = 0, matched = 0;
	struct lines it;
	struct line raw;
	int score = 0;

	if (!f->nmarkers)
		return 0;
	if (len > DETECT_BYTES)
		len = DETECT_BYTES;
	lines_init(&it, text, len);
	while (lines_next(&it, &raw) && it.no <= f->lines) {
		struct line ln = line_unmark(raw);
		bool comment;

		if (!ln.len)
			continue;
		comment = ln.p[0] == '#';
		/* a comment a poster added counts only when it is output */
		lines += !comment;
		for (size_t i = 0; i < f->nmarkers && i < MARKERS_MAX; i++) {
			const struct marker *m = &f->markers[i];

			if (!marker_hit(m, &ln))
				continue;
			if (!m->max || hits[i] < m->max) {
				hits[i]++;
				score += m->weight;
			}
			matched += !comment;
			break;
		}
		if (score >= 100 && !f->share)
			break;
	}
	if (f->share && matched * 100 < f->share * lines)
		score /= 2;
	return score < 0 ? 0 : score > 100 ? 100 : score;
}

const struct format *format_detect(const char *text, size_t len, int *score)
{
	const struct format *t = formats, *best = NULL;
	int top = 0;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		int s;

		if (t[i].flags & FORMAT_NAMED)
			continue;
		s = format_score(&t[i], text, len);
		if (s > top) {
			top = s;
			best = &t[i];
		}
	}
	*score = top;
	return top >= FORMAT_MIN_SCORE ? best : NULL;
}

void format_list_names(struct strbuf *sb)
{
	const struct format *t = formats;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		sb_printf(sb, "%s%s", i ? ", " : "", t[i].name);
}
