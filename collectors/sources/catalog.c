/* The command catalog (cf. domain-anchors: sos plugins infiniband,
 * kernel, networking, pci, mellanox_firmware; sysinfo-snapshot's
 * commands_txt_output, pcie_files and firmware directories, whose
 * commands_txt_output names follow add_txt_command_output and whose report
 * sysinfo.c lays over the bundle). */
#include "collectors/sources/catalog.h"

#include <fnmatch.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

static const struct command commands[] = {
	{ "ibstat",
	  { "ibstat" },
	  NULL,
	  { "sos_commands/infiniband/ibstat", "commands_txt_output/ibstat.txt",
	    "sos_commands/rdmadoctor/ibstat" } },
	{ "lsmod",
	  { "lsmod" },
	  NULL,
	  { "sos_commands/kernel/lsmod", "lsmod",
	    "commands_txt_output/lsmod.txt" } },
	{ "modinfo",
	  { "modinfo", CATALOG_ITEM },
	  NULL,
	  { "sos_commands/kernel/modinfo_ALL_MODULES",
	    "sos_commands/rdmadoctor/modinfo_*",
	    "commands_txt_output/modinfo_*.txt" } },
	{ "ethtool_i",
	  { "ethtool", "-i", CATALOG_ITEM },
	  "/sys/class/net",
	  { "sos_commands/networking/ethtool_-i_*",
	    /* sysinfo-snapshot: cut out of ethtool_all_interfaces.txt */
	    "commands_txt_output/ethtool_i_*.txt" } },
	{ "dmesg",
	  { "dmesg" },
	  NULL,
	  { "sos_commands/kernel/dmesg", "sos_commands/general/dmesg",
	    "sos_commands/kernel/dmesg_-T", "commands_txt_output/dmesg_T.txt",
	    "commands_txt_output/dmesg.txt", "sos_commands/rdmadoctor/dmesg",
	    "dmesg" /* sysinfo-snapshot: dmesg -T */ } },
	{ "journal",
	  { "journalctl", "--no-pager", "-k", "-b" },
	  NULL,
	  { "sos_commands/logs/journalctl_--no-pager_--catalog_--boot",
	    "sos_commands/logs/journalctl_--no-pager_--boot",
	    "sos_commands/logs/journalctl_--no-pager",
	    "sos_commands/logs/journalctl_--no-pager_--catalog_--boot_-1",
	    "sos_commands/logs/journalctl_--no-pager_--boot_-1",
	    "journal" /* sysinfo-snapshot: -k -o short-monotonic */ } },
	{ "ibstatus",
	  { "ibstatus" },
	  NULL,
	  { "sos_commands/infiniband/ibstatus",
	    "commands_txt_output/ibstatus.txt",
	    "sos_commands/rdmadoctor/ibstatus" } },
	{ "ibv_devinfo",
	  { "ibv_devinfo", "-v" },
	  NULL,
	  { "sos_commands/infiniband/ibv_devinfo_-v",
	    "commands_txt_output/ibv_devinfo_v.txt",
	    "sos_commands/rdmadoctor/ibv_devinfo_-v",
	    "sos_commands/infiniband/ibv_devinfo",
	    "commands_txt_output/ibv_devinfo.txt" } },
	{ "ibv_devices",
	  { "ibv_devices" },
	  NULL,
	  { "sos_commands/infiniband/ibv_devices",
	    "commands_txt_output/ibv_devices.txt",
	    "sos_commands/rdmadoctor/ibv_devices" } },
	{ "rdma_link",
	  { "rdma", "link", "show" },
	  NULL,
	  { "sos_commands/rdmadoctor/rdma_link_show",
	    "sos_commands/rdmadoctor/rdma_link" } },
	{ "rdma_dev",
	  { "rdma", "dev", "show" },
	  NULL,
	  { "sos_commands/rdmadoctor/rdma_dev_show",
	    "sos_commands/rdmadoctor/rdma_dev" } },
	{ "ibdev2netdev",
	  { "ibdev2netdev", "-v" },
	  NULL,
	  { "sos_commands/rdmadoctor/ibdev2netdev_-v",
	    "commands_txt_output/ibdev2netdev.txt",
	    "sos_commands/rdmadoctor/ibdev2netdev" } },
	{ "ofed_info",
	  { "ofed_info", "-s" },
	  NULL,
	  { "sos_commands/rdmadoctor/ofed_info_-s",
	    "commands_txt_output/ofed_info_s.txt",
	    "commands_txt_output/ofed_info.txt" } },
	{ "lspci",
	  { "lspci", "-nnvv" },
	  NULL,
	  { "sos_commands/pci/lspci_-nnvv", "sos_commands/pci/lspci_-nvv",
	    "lspci", "sos_commands/rdmadoctor/lspci_-nnvv",
	    "pcie_files/lspci_nnvvvxxx", "pcie_files/lspci_vvvxxxxx",
	    "pcie_files/lspci_vv" } },
	/* sos runs mstflint without MFT and flint with it; sysinfo-snapshot
	 * names the files after the address without ':' and '.'. */
	{ "mstflint_q",
	  { "mstflint", "-d", CATALOG_ITEM, "q" },
	  "/sys/bus/pci/devices",
	  { "sos_commands/mellanox_firmware/mstflint_-d_*_q",
	    "firmware/mstflint_*_q",
	    "sos_commands/rdmadoctor/mstflint_-d_*_q" } },
	{ "flint_q",
	  { "flint", "-d", CATALOG_ITEM, "q" },
	  "/sys/bus/pci/devices",
	  { "sos_commands/mellanox_firmware/flint_-d_*_q", "firmware/flint_*_q",
	    "sos_commands/rdmadoctor/flint_-d_*_q" } },
	/* sos: perfquery -C <dev> -P <port> for active InfiniBand ports;
	 * live runs it per device, on the port umad picks. */
	{ "perfquery",
	  { "perfquery", "-C", CATALOG_ITEM },
	  "/sys/class/infiniband",
	  { "sos_commands/infiniband/perfquery_-C_*",
	    "sos_commands/rdmadoctor/perfquery_-C_*",
	    "commands_txt_output/perfquery_cards_ports.txt" } },
	{ "uname",
	  { "uname", "-a" },
	  NULL,
	  { "sos_commands/kernel/uname_-a", "uname",
	    "commands_txt_output/uname.txt" } },
	{ "hostname",
	  { "hostname" },
	  NULL,
	  { "sos_commands/host/hostname", "hostname", "etc/hostname",
	    "commands_txt_output/hostname.txt" } },
	/* perftest's loopback bandwidth test (check --perftest); its server
	 * runs beside it. */
	{ "ib_write_bw_loopback",
	  { "ib_write_bw", "-d", CATALOG_ITEM, "--report_gbits", "-D", "2",
	    "localhost" },
	  NULL,
	  { "sos_commands/rdmadoctor/ib_write_bw_-d_*_--report_gbits_-D_2_localhost" } },
};

/* Files a source reads itself: sysinfo-snapshot's report and its /sys
 * entries (sysinfo.c). */
static const char *const bundle_files[] = {
	"*.html",
	"commands_txt_output/other_system_files",
};

/* Log files of /var/log; newest first within each family. */
static const char *const log_families[] = { "messages", "kern.log", "syslog" };

const struct command *catalog_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

size_t catalog_count(void)
{
	return ARRAY_SIZE(commands);
}

const struct command *catalog_at(size_t i)
{
	return i < ARRAY_SIZE(commands) ? &commands[i] : NULL;
}

const char *catalog_log_family(size_t i)
{
	return i < ARRAY_SIZE(log_families) ? log_families[i] : NULL;
}

bool catalog_wants(const char *path)
{
	const char *name;

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		for (size_t k = 0;
		     k < ARRAY_SIZE(commands[i].files) && commands[i].files[k];
		     k++)
			if (!fnmatch(commands[i].files[k], path, FNM_PATHNAME))
				return true;
	for (size_t i = 0; i < ARRAY_SIZE(bundle_files); i++)
		if (!fnmatch(bundle_files[i], path, FNM_PATHNAME))
			return true;
	if (strncmp(path, "var/log/", 8))
		return false;
	name = path + 8;
	for (size_t i = 0; i < ARRAY_SIZE(log_families); i++) {
		size_t len = strlen(log_families[i]);

		if (!strncmp(name, log_families[i], len) &&
		    (!name[len] || strchr(".-", name[len])))
			return true;
	}
	return false;
}

static int keep(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
	       c == '/';
}

char *catalog_mangle(const char *cmdline)
{
	static const char *const prefixes[] = { "/usr/bin/", "/usr/sbin/",
						"/bin/", "/sbin/" };
	struct strbuf sb = STRBUF_INIT;
	const char *p = cmdline;
	size_t start = 0, end;
	char *s;

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(p, prefixes[i], strlen(prefixes[i]))) {
			p += strlen(prefixes[i]);
			break;
		}
	while (*p) {
		if (keep(*p)) {
			sb_putc(&sb, *p == '/' ? '.' : *p);
			p++;
			continue;
		}
		sb_putc(&sb, '_');
		while (*p && !keep(*p))
			p++;
	}
	s = sb_detach(&sb);
	end = strlen(s);
	while (start < end && strchr(" ._-", s[start]))
		start++;
	while (end > start && strchr(" ._-", s[end - 1]))
		end--;
	if (end - start > 255)
		end = start + 255;
	memmove(s, s + start, end - start);
	s[end - start] = '\0';
	return s;
}
