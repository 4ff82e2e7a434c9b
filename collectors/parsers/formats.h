/* The text formats rdmadoctor reads: one parser per tool output, each a
 * pure function from text to facts, plus content detection for loose
 * files. */
#ifndef RD_FORMATS_H
#define RD_FORMATS_H

#include <stddef.h>

#include "collectors/parsers/parse.h"

/* Parses text into facts through e.  arg carries context the text lacks
 * (the interface of an ethtool -i output, ...), or NULL.  Returns the
 * number of facts added. */
typedef int (*parse_fn)(struct emit *e, const char *text, size_t len,
			const char *arg);
/* How sure (0-100) the text is of this format. */
typedef int (*detect_fn)(const char *text, size_t len);

struct format {
	const char *name; /* "ibstat"; the KIND of KIND=FILE */
	const char *what; /* one line for --help and errors */
	parse_fn parse;
	detect_fn detect;
	const char *kinds; /* fact kinds it produces, space separated */
};

size_t format_count(void);
const struct format *format_at(size_t i);
const struct format *format_find(const char *name);
/* The format the text most likely is, or NULL when none scores 30 or
 * more; *score gets the winning score. */
const struct format *format_detect(const char *text, size_t len, int *score);

#define FORMAT_LIST(X)                                                         \
	X(transcript, "a pasted terminal session of several commands", "")     \
	X(ibstat, "ibstat output (CA blocks with ports)",                      \
	  "hca port tool_error")                                               \
	X(lsmod, "lsmod output", "module")                                     \
	X(proc_modules, "/proc/modules", "module")                             \
	X(modinfo, "modinfo output (one or more modules)", "driver")           \
	X(ethtool_i, "ethtool -i output", "driver netdev")                     \
	X(perftest, "perftest output (ib_write_bw, ib_read_lat, ...)",         \
	  "perftest")                                                          \
	X(kconfig, "kernel configuration (/boot/config-*, /proc/config.gz)",   \
	  "kconfig")                                                           \
	X(dmesg, "kernel log: dmesg, journalctl, /var/log/messages, kern.log", \
	  "log log_event")                                                     \
	X(ibstatus, "ibstatus output", "hca port tool_error")                  \
	X(ibv_devinfo, "ibv_devinfo output, with or without -v",               \
	  "hca port gid tool_error")                                           \
	X(ibv_devices, "ibv_devices output", "hca tool_error")                 \
	X(rdma, "rdma link show and rdma dev show (iproute2)",                 \
	  "hca port tool_error")                                               \
	X(ibdev2netdev, "ibdev2netdev output, with or without -v",             \
	  "hca port netdev")                                                   \
	X(ofed_info, "ofed_info -s, -n or the full listing", "ofed")           \
	X(lspci, "lspci -vv, -vvv or -nnvv, or '| grep Width' lines", "pcie")  \
	X(flint_q, "flint or mstflint query (q)", "fw_image tool_error")       \
	X(mlxfwmanager, "mlxfwmanager or mlxup --query",                       \
	  "fw_image tool_error")                                               \
	X(perfquery, "perfquery output (port counters)", "counter tool_error") \
	X(pingpong, "ibv_rc_pingpong (or another ibv_*_pingpong) output",      \
	  "perftest")                                                          \
	X(limits_conf, "/etc/security/limits.conf or limits.d/*.conf",         \
	  "limits")                                                            \
	X(app_log, "application error lines (NCCL, UCX, libfabric, Open MPI, " \
		   "SPDK, Lustre, librdmacm, libibverbs, perftest)",           \
	  "app_error limits")                                                  \
	X(facts, "a fact file, as 'facts --json' prints", "")

#define X(name, what, kinds)                                           \
	int parse_##name(struct emit *e, const char *text, size_t len, \
			 const char *arg);                             \
	int detect_##name(const char *text, size_t len);
FORMAT_LIST(X)
#undef X

#endif
