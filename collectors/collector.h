/* The collector interface, shared by collect.c and the collectors. */
#ifndef RD_COLLECTOR_H
#define RD_COLLECTOR_H

#include <stdbool.h>

#include "collectors/collect.h"
#include "collectors/parsers/parse.h"
#include "collectors/sources/source.h"

struct col_ctx {
	struct collect_run *run;
	struct source *src;
	struct fact_base *fb;
	struct diag *d;
	char release[128]; /* kernel release, once the host collector ran */
	unsigned unread; /* attribute files there but unreadable */
	char unread_first[256]; /* the first of them, and why */
	int reading; /* counters: 2 on the second reading, else 0 */
};

/* What a collector could read.  Its status is ok (or truncated) when it
 * read anything, else the most telling failure: timeout, error, missing.
 * The detail says what was read or why not. */
struct col_status {
	unsigned seen; /* bit per enum fetch_status */
	bool read_any;
	struct strbuf detail;
};

enum fetch_status col_final(const struct col_status *st);

void col_status(struct col_status *st, enum fetch_status s, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));
void col_progress(struct col_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Parses a fetched text with a format; returns the facts added. */
int col_parse(struct col_ctx *c, const char *format, const struct fetch *f,
	      const char *arg);
/* Reads a one-line sysfs-style file into buf; false when absent or
 * unreadable (a file there but unreadable is counted in c->unread, and
 * the collector's status names it). */
bool col_attr(struct col_ctx *c, const char *path, char *buf, size_t size);

/* The non-zero GIDs of a port (portdir: .../ports/<p>), and the counters
 * of a counters/ or hw_counters/ directory (port 0: the device's). */
void col_ib_gids(struct col_ctx *c, const char *dev, const char *portdir,
		 long port);
void col_ib_counters(struct col_ctx *c, const char *dev, const char *dir,
		     long port);
/* Every RDMA device's counters again (its own hw_counters/, and each
 * port's counters/ and hw_counters/), as c->reading says. */
void col_ib_counters_all(struct col_ctx *c);

typedef void (*col_fn)(struct col_ctx *c, struct col_status *st);

struct dparse;
/* Reads the output of the command a site parser names (col_site.c): run
 * on a live host, every file of it in a bundle.  False when the parser
 * names nothing this source can serve (a live host and no command). */
bool col_site_parser(struct col_ctx *c, const struct dparse *p,
		     struct col_status *st);

#define COL_LIVE 0x1u /* runs on live hosts */
#define COL_TREE 0x2u /* runs on directory and archive bundles */
#define COL_PERFTEST 0x4u /* only with check --perftest */

#define COLLECTORS(X)                                                          \
	X(host, "uname, hostname, /etc/os-release", "host",                    \
	  COL_LIVE | COL_TREE)                                                 \
	X(kernel_config, "/proc/config.gz or /boot/config-<release>",          \
	  "kconfig", COL_LIVE | COL_TREE)                                      \
	X(modules, "/proc/modules, lsmod, /sys/module", "module",              \
	  COL_LIVE | COL_TREE)                                                 \
	X(module_versions, "/sys/module/*/version and taint", "driver",        \
	  COL_LIVE | COL_TREE)                                                 \
	X(modinfo,                                                             \
	  "modinfo of the RDMA modules (sosreport modinfo_ALL_MODULES)",       \
	  "driver", COL_LIVE | COL_TREE)                                       \
	X(sysfs_infiniband, "/sys/class/infiniband", "hca port gid counter",   \
	  COL_LIVE | COL_TREE)                                                 \
	X(pci, "/sys/bus/pci/devices", "pcie", COL_LIVE | COL_TREE)            \
	X(ibstat, "ibstat", "hca port tool_error", COL_LIVE | COL_TREE)        \
	X(ethtool, "ethtool -i <interface>", "driver netdev",                  \
	  COL_LIVE | COL_TREE)                                                 \
	X(kernel_log, "the journal, /var/log/messages, kern.log or dmesg",     \
	  "log log_event app_error", COL_LIVE | COL_TREE)                      \
	X(environment,                                                         \
	  "container marks, /proc/1/cgroup, /proc/cpuinfo, /sys/class/dmi/id", \
	  "host", COL_LIVE | COL_TREE)                                         \
	X(dev_infiniband, "/dev/infiniband", "devnode", COL_LIVE | COL_TREE)   \
	X(loopback_bw,                                                         \
	  "ib_write_bw to localhost on the first active port (--perftest)",    \
	  "perftest", COL_LIVE | COL_TREE | COL_PERFTEST)                      \
	X(verbs, "libibverbs (device list and a smoke test)",                  \
	  "verbs hca port gid", COL_LIVE)                                      \
	X(limits, "getrlimit(RLIMIT_MEMLOCK)", "limits", COL_LIVE)             \
	X(limits_conf, "/etc/security/limits.conf and limits.d/*.conf",        \
	  "limits", COL_LIVE | COL_TREE)                                       \
	X(ibstatus, "ibstatus", "hca port tool_error", COL_LIVE | COL_TREE)    \
	X(ibv_devinfo, "ibv_devinfo -v", "hca port gid tool_error",            \
	  COL_LIVE | COL_TREE)                                                 \
	X(ibv_devices, "ibv_devices", "hca tool_error", COL_LIVE | COL_TREE)   \
	X(rdma, "rdma dev show, rdma link show", "hca port tool_error",        \
	  COL_LIVE | COL_TREE)                                                 \
	X(ibdev2netdev, "ibdev2netdev -v", "hca port netdev",                  \
	  COL_LIVE | COL_TREE)                                                 \
	X(ofed_info, "ofed_info -s", "ofed", COL_LIVE | COL_TREE)              \
	X(lspci, "lspci -nnvv", "pcie", COL_LIVE | COL_TREE)                   \
	X(flint_q, "mstflint or flint -d <PCI address> q",                     \
	  "fw_image tool_error", COL_LIVE | COL_TREE)                          \
	X(perfquery, "perfquery -C <device> [-P <port>]",                      \
	  "counter tool_error", COL_LIVE | COL_TREE)

#define X(name, inputs, kinds, where) \
	void col_##name(struct col_ctx *c, struct col_status *st);
COLLECTORS(X)
#undef X

#endif
