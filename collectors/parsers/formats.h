/* The text formats rdmadoctor reads: one parser per tool output, each a
 * pure function from text to facts, and content detection as data: each
 * format's markers and their weights, scored by one loop. */
#ifndef RD_FORMATS_H
#define RD_FORMATS_H

#include <stddef.h>

#include "collectors/parsers/parse.h"

/* Parses text into facts through e.  arg carries context the text lacks
 * (the interface of an ethtool -i output, the file a sysfs value came
 * from, ...), or NULL.  Returns the number of facts added. */
typedef int (*parse_fn)(struct emit *e, const char *text, size_t len,
			const char *arg);
/* A line test for a marker that a prefix or a substring cannot express
 * (a column shape, a header with a name in it).  ln is trimmed. */
typedef bool (*line_test_fn)(const struct line *ln);

enum marker_how {
	MARK_PREFIX, /* the line starts with text */
	MARK_CONTAINS, /* the line holds text */
	MARK_TEST, /* test(line) is true */
};

/* One thing a format's output shows.  A line scores the weight of the
 * first marker it matches (weights may be negative: a line that rules the
 * format out); a marker scores at most max lines (0: no limit). */
struct marker {
	enum marker_how how;
	const char *text;
	const char *also; /* a second text the line must hold, or NULL */
	line_test_fn test;
	int weight;
	unsigned max;
};

enum format_flags {
	/* Read wherever it appears: every block of a paste is also given
	 * to this format's parser (application error lines; the kernel
	 * log has its own pass). */
	FORMAT_ANYWHERE = 1u << 0,
	/* Only ever a whole file, never cut into blocks (JSON, a kernel
	 * configuration whose comments look like headings). */
	FORMAT_WHOLE = 1u << 1,
	/* Not a tool's output: chosen by name only, never detected. */
	FORMAT_NAMED = 1u << 2,
};

struct format {
	const char *name; /* "ibstat"; the KIND of KIND=FILE */
	const char *what; /* one line for --help and errors */
	parse_fn parse;
	const char *kinds; /* fact kinds it produces, space separated */
	const struct marker *markers;
	size_t nmarkers;
	unsigned lines; /* detection reads this many lines */
	/* Percent of the non-blank lines that must match a marker; below
	 * it the score halves (prose around a few matching lines). */
	unsigned share;
	unsigned flags;
	/* The fact kind a complete output lists (module for lsmod, hca for
	 * ibstat), so that what it does not list is absent; NULL. */
	const char *lists;
};

size_t format_count(void);
const struct format *format_at(size_t i);
const struct format *format_find(const char *name);
/* How sure (0-100) the text is of format f: its markers, scored over the
 * first f->lines lines. */
int format_score(const struct format *f, const char *text, size_t len);
/* The format the text most likely is, or NULL when none scores
 * FORMAT_MIN_SCORE or more; *score gets the winning score.  Formats
 * flagged FORMAT_NAMED are never detected. */
const struct format *format_detect(const char *text, size_t len, int *score);
#define FORMAT_MIN_SCORE 30 /* @@ */
/* "ibstat, lsmod, ..." : the formats detection knows, for messages. */
void format_list_names(struct strbuf *sb);

/* name, what (for --help and errors), the fact kinds it gives, its markers,
 * the lines detection reads, the share of lines that must match, flags,
 * and the kind a complete output lists. */
#define FORMAT_LIST(X) \
	X(transcript, "a pasted session or ticket, cut into blocks", \
	  "", m_none, 0, 0, FORMAT_NAMED, NULL) \
	X(ibstat, "ibstat output (CA blocks with ports)", \
	  "hca port tool_error", m_ibstat, 65536, 0, 0, "hca") \
	X(lsmod, "lsmod output", \
	  "module", m_lsmod, 400, 0, 0, "module") \
	X(proc_modules, "/proc/modules", \
	  "module", m_proc_modules, 400, 0, 0, "module") \
	X(modinfo, "modinfo output (one or more modules)", \
	  "driver", m_modinfo, 200, 0, 0, NULL) \
	X(ethtool_i, "ethtool -i output", \
	  "driver netdev", m_ethtool_i, 100, 0, 0, NULL) \
	X(ethtool, "ethtool IFACE output (speed, link detected)", \
	  "netdev", m_ethtool, 100, 0, 0, NULL) \
	X(perftest, "perftest output (ib_write_bw, ib_read_lat, ...)", \
	  "perftest perftest_row hca", m_perftest, 400, 0, 0, NULL) \
	X(kconfig, "kernel configuration (/boot/config-*, /proc/config.gz)", \
	  "kconfig", m_kconfig, 300, 80, FORMAT_WHOLE, NULL) \
	X(dmesg, "kernel log: dmesg, journalctl, /var/log/messages, kern.log", \
	  "log log_event", m_dmesg, 200, 50, 0, NULL) \
	X(ibstatus, "ibstatus output", \
	  "hca port gid tool_error", m_ibstatus, 65536, 0, 0, "hca") \
	X(ibv_devinfo, "ibv_devinfo output, with or without -v", \
	  "hca port gid tool_error", m_ibv_devinfo, 65536, 0, 0, "hca") \
	X(ibv_devices, "ibv_devices output", \
	  "hca tool_error", m_ibv_devices, 200, 0, 0, "hca") \
	X(rdma, "rdma link show and rdma dev show (iproute2)", \
	  "hca port tool_error", m_rdma, 65536, 0, 0, NULL) \
	X(rdma_statistic, "rdma statistic show (iproute2)", \
	  "counter", m_rdma_statistic, 200, 0, 0, NULL) \
	X(ibdev2netdev, "ibdev2netdev output, with or without -v", \
	  "hca port netdev", m_ibdev2netdev, 65536, 0, 0, NULL) \
	X(ofed_info, "ofed_info -s, -n or the full listing", \
	  "ofed", m_ofed_info, 50, 0, 0, NULL) \
	X(ofed_install, "mlnxofedinstall's report (firmware update, PCIe " \
			"links)", \
	  "fw_image pcie", m_ofed_install, 400, 0, 0, NULL) \
	X(lspci, "lspci -vv, -vvv or -nnvv, or '| grep Width' lines", \
	  "pcie", m_lspci, 65536, 0, 0, "pcie") \
	X(flint_q, "flint or mstflint query (q)", \
	  "fw_image tool_error", m_flint_q, 200, 0, 0, NULL) \
	X(mlxfwmanager, "mlxfwmanager or mlxup --query", \
	  "fw_image tool_error", m_mlxfwmanager, 400, 0, 0, NULL) \
	X(mst_status, "mst status, -v or not (MST devices, their PCI " \
		      "functions and RDMA names)", \
	  "hca netdev pcie", m_mst_status, 200, 0, 0, NULL) \
	X(perfquery, "perfquery output (port counters)", \
	  "counter tool_error", m_perfquery, 65536, 0, 0, NULL) \
	X(pingpong, "ibv_rc_pingpong (or another ibv_*_pingpong) output", \
	  "perftest hca", m_pingpong, 200, 0, 0, NULL) \
	X(limits_conf, "/etc/security/limits.conf or limits.d/*.conf", \
	  "limits", m_limits_conf, 400, 0, 0, NULL) \
	X(ulimit, "ulimit -l or ulimit -a", \
	  "limits", m_ulimit, 60, 0, 0, NULL) \
	X(uname, "uname -r or uname -a", \
	  "host", m_uname, 5, 0, 0, NULL) \
	X(modprobe, "modprobe errors (module not found, could not insert)", \
	  "tool_error", m_modprobe, 100, 0, 0, NULL) \
	X(ip, "ip addr or ip link (iproute2)", \
	  "netdev", m_ip, 400, 0, 0, NULL) \
	X(ifconfig, "ifconfig (net-tools), either layout", \
	  "netdev", m_ifconfig, 400, 0, 0, NULL) \
	X(devnodes, "ls of /dev/infiniband (-l, plain, or paths)", \
	  "devnode", m_devnodes, 200, 0, 0, "devnode") \
	X(devlink_health, "devlink health (show)", \
	  "health", m_devlink_health, 400, 0, 0, NULL) \
	X(show_gids, "show_gids (MLNX_OFED)", \
	  "gid", m_show_gids, 400, 0, 0, NULL) \
	X(sminfo, "sminfo (infiniband-diags)", \
	  "sm tool_error", m_sminfo, 20, 0, 0, NULL) \
	X(ibportstate, "ibportstate or smpquery portinfo (infiniband-diags)", \
	  "port tool_error", m_ibportstate, 65536, 0, 0, NULL) \
	X(ibnetdiscover, "ibnetdiscover -p, the ports report (infiniband-diags)", \
	  "port tool_error", m_ibnetdiscover, 65536, 0, 0, NULL) \
	X(mlxlink, "mlxlink (MFT): one port's link", \
	  "hca port tool_error", m_mlxlink, 200, 0, 0, NULL) \
	X(mlxconfig, "mlxconfig or mstconfig query or set (firmware " \
		     "configuration)", \
	  "fw_config tool_error", m_mlxconfig, 400, 0, 0, NULL) \
	X(ibswinfo, "ibswinfo: an unmanaged InfiniBand switch", \
	  "fw_image sensor", m_ibswinfo, 200, 0, 0, NULL) \
	X(ucx_info, "ucx_info -d (UCX memory domains, transports, devices)", \
	  "hca port netdev", m_ucx_info, 65536, 0, 0, NULL) \
	X(sysfs_attr, "a file of /sys/class/infiniband, as cat prints it", \
	  "hca port", m_sysfs_attr, 4, 0, FORMAT_NAMED, NULL) \
	X(openibd_status, "/etc/init.d/openibd status (OFED, MLNX_OFED)", \
	  "module", m_openibd_status, 200, 0, 0, NULL) \
	X(rxe_cfg, "rxe_cfg status (soft-RoCE interfaces and their rxe devices)", \
	  "netdev hca tool_error", m_rxe_cfg, 50, 0, 0, "hca") \
	X(rping, "rping (librdmacm), with -d or -v", \
	  "perftest", m_rping, 400, 0, 0, NULL) \
	X(fi_info, "fi_info (libfabric): its providers, or fi_getinfo's error", \
	  "fi_provider tool_error", m_fi_info, 400, 0, 0, NULL) \
	X(qperf, "qperf (linux-rdma/qperf): test results and errors", \
	  "perftest tool_error", m_qperf, 400, 0, 0, NULL) \
	X(fabtests, "fabtests' result tables (fi_pingpong, fi_rdm_tagged_bw, " \
		    "...; rstream, riostream)", \
	  "perftest perftest_row", m_fabtests, 400, 0, 0, NULL) \
	X(app_log, "application error lines (NCCL, UCX, libfabric, Open MPI, " \
		   "SPDK, Lustre, NVSHMEM, nvme-cli, librdmacm, libibverbs, " \
		   "perftest)", \
	  "app_error limits", m_app_log, 65536, 0, FORMAT_ANYWHERE, NULL) \
	X(install_log, "failures of installing or starting the driver " \
		       "stack (mlnxofedinstall, DKMS, rpm, dpkg, openibd)", \
	  "tool_error", m_install_log, 65536, 0, FORMAT_ANYWHERE, NULL) \
	X(tool_log, "command-line tool error lines (a shell's 'command not " \
		    "found', the loader's missing library, infiniband-diags, " \
		    "MFT, ...)", \
	  "tool_error", m_tool_log, 65536, 0, FORMAT_ANYWHERE, NULL) \
	X(facts, "a fact file, as 'facts --json' prints", \
	  "", m_facts, 50, 0, FORMAT_WHOLE, NULL)

#define X(name, what, kinds, markers, lines, share, flags, lists) \
	int parse_##name(struct emit *e, const char *text, size_t len, \
			 const char *arg);
FORMAT_LIST(X)
#undef X

/* The line tests markers use, each in its parser's file. */
bool ibstat_ca_line(const struct line *ln);
bool ibstatus_header_line(const struct line *ln);
bool ibdev2netdev_line(const struct line *ln);
bool lsmod_header_line(const struct line *ln);
bool lsmod_row_line(const struct line *ln);
bool proc_modules_line(const struct line *ln);
bool limits_memlock_line(const struct line *ln);
bool log_kernel_line(const struct line *ln);
bool log_stamped_line(const struct line *ln);
bool log_driver_line(const struct line *ln);
bool log_oops_line(const struct line *ln);
bool lspci_header_line(const struct line *ln);
bool lspci_rdma_header_line(const struct line *ln);
/* True when the pcie fact's class code (0207, 0c06) or description
 * (Mellanox, ConnectX, BlueField) names an RDMA adapter. */
bool lspci_rdma_function(const char *class_code, const char *description);
bool ofed_release_line(const struct line *ln);
bool ofed_version_line(const struct line *ln);
bool perfquery_header_line(const struct line *ln);
bool rdma_link_line(const struct line *ln);
bool rdma_dev_line(const struct line *ln);
bool rdma_statistic_line(const struct line *ln);
bool uname_a_line(const struct line *ln);
bool uname_r_line(const struct line *ln);
bool ulimit_value_line(const struct line *ln);
bool csh_memlock_line(const struct line *ln);
bool ip_link_line(const struct line *ln);
bool ifconfig_flags_line(const struct line *ln);
bool ifconfig_encap_line(const struct line *ln);
bool devnode_long_line(const struct line *ln);
bool devnode_names_line(const struct line *ln);
bool show_gids_row_line(const struct line *ln);
bool mst_status_row_line(const struct line *ln);
bool devlink_health_dev_line(const struct line *ln);
bool sysfs_value_line(const struct line *ln);
bool ibportstate_header_line(const struct line *ln);
bool ibnetdiscover_row_line(const struct line *ln);
bool mlxlink_section_line(const struct line *ln);
/* mlxconfig's "Configurations:" header and a parameter row, alone
 * unambiguous (parse_mlxconfig.c). */
bool mlxconfig_header_line(const struct line *ln);
bool mlxconfig_row_line(const struct line *ln);
bool ibswinfo_row_line(const struct line *ln);
bool ucx_info_md_line(const struct line *ln);
bool fi_getinfo_error_line(const struct line *ln);
bool qperf_test_line(const struct line *ln);
bool qperf_value_line(const struct line *ln);
bool fabtests_header_line(const struct line *ln);
/* A step of an rping run (parse_rping.c). */
bool rping_line(const struct line *ln);
/* rxe_cfg status's column header (parse_rxe_cfg.c). */
bool rxe_cfg_header_line(const struct line *ln);
/* mlxfwmanager's "Status: <one of its statuses>" (parse_mlxfw.c). */
bool mlxfw_status_line(const struct line *ln);
/* The module a modprobe or insmod error names ("Module mlx5_ib not
 * found", "could not insert 'mlx5_ib'", "... module /x/y.ko: ..."), into
 * mod (empty when none) (parse_shell.c). */
void modprobe_module_named(const struct line *ln, struct line *mod);
/* Two or more modinfo keys on one line: a paste a mail client re-flowed
 * (parse_modinfo.c). */
bool modinfo_pairs_line(const struct line *ln);

#endif
