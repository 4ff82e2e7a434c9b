/* parsers of host-side tools (ofed_info, lspci, flint/mstflint,
 * mlxfwmanager/mlxup, perfquery, limits.conf) on real outputs people
 * posted, checked against the values a person reads off them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* cmocka needs the headers above first. */
#include <cmocka.h>

#include "parsed.h"

static void test_ofed_info(void **state)
{
	static const char full[] =
		"MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1):\n"
		"\n"
		"clusterkit:\n"
		"mlnx_ofed_clusterkit/clusterkit-1.8.428-1.58101.src.rpm\n";
	static const char bare[] = "$ ofed_info -n\n23.10-0.5.5.0\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* -s then -n of the same install: one fact, from the named line. */
	p = parse("ofed_info",
		  SAMPLES "ofed_info/cn-notes-mofed-5.4-ofed_info-s-and-n.txt",
		  NULL);
	assert_int_equal(count(&p, "ofed"), 1);
	f = nth(&p, "ofed", 0);
	assert_string_equal(text(f, "version"), "5.4-3.1.0.0");
	assert_string_equal(text(f, "distribution"), "MLNX_OFED");
	assert_int_equal(line_of(f, "version"), 5);
	fact_base_free(p.fb);

	p = parse("ofed_info",
		  SAMPLES
		  "ofed_info/openshift-docs-doca-ofed-internal-24.07.txt",
		  NULL);
	f = nth(&p, "ofed", 0);
	assert_string_equal(text(f, "version"), "24.07-0.6.1");
	assert_string_equal(text(f, "distribution"), "DOCA-OFED");
	fact_base_free(p.fb);

	p = parse_text("ofed_info", full, sizeof(full) - 1, "full", NULL);
	assert_int_equal(count(&p, "ofed"), 1);
	assert_string_equal(text(nth(&p, "ofed", 0), "version"), "5.8-1.0.1.1");
	fact_base_free(p.fb);

	p = parse_text("ofed_info", bare, sizeof(bare) - 1, "bare", NULL);
	f = nth(&p, "ofed", 0);
	assert_string_equal(text(f, "version"), "23.10-0.5.5.0");
	assert_null(fact_text(f, "distribution"));
	fact_base_free(p.fb);
}

/* The end of MLNX_OFED's installer: the firmware updater's verdict on an
 * OEM board and each function's link (check_pcie_link()).  Real output:
 * skyao's notes on an HP 544+ (MLNX_OFED 4.9, the paste of
 * tests/fixtures/corpus); the width warning is the script's own form
 * (" ( WARNING - device supports x16 )" when the widths differ). */
static void test_ofed_install(void **state)
{
	static const char hp[] =
		"Initializing...\n"
		"Attempting to perform Firmware update...\n"
		"\n"
		"The firmware for this device is not distributed inside "
		"Mellanox driver: b3:00.0 (PSID: HP_1380110017)\n"
		"To obtain firmware for this device, please contact your HW "
		"vendor.\n"
		"\n"
		"Failed to update Firmware.\n"
		"See /tmp/MLNX_OFED_LINUX.18504.logs/fw_update.log\n"
		"Device (b3:00.0):\n"
		"\tb3:00.0 Network controller: Mellanox Technologies MT27520 "
		"Family [ConnectX-3 Pro]\n"
		"\tLink Width: x8\n"
		"\tPCI Link Speed: 8GT/s\n"
		"\n"
		"Installation passed successfully\n";
	static const char narrow[] =
		"Device (d2:00.0):\n"
		"\td2:00.0 Ethernet controller: Mellanox Technologies MT2892 "
		"Family [ConnectX-6 Dx]\n"
		"\tLink Width: x8 ( WARNING - device supports x16 )\n"
		"\tPCI Link Speed: Unknown\n";
	static const char plain[] = "\tLink Width: x8\n"
				    "\tPCI Link Speed: 8GT/s\n";
	struct parsed p;
	const struct fact *f;
	int score;

	(void)state;
	assert_string_equal(format_detect(hp, strlen(hp), &score)->name,
			    "ofed_install");
	p = parse_text("ofed_install", hp, strlen(hp), "t.txt", NULL);
	f = nth(&p, "fw_image", 0);
	assert_string_equal(text(f, "pci"), "0000:b3:00.0");
	assert_string_equal(text(f, "psid"), "HP_1380110017");
	f = nth(&p, "pcie", 0);
	assert_string_equal(text(f, "pci"), "0000:b3:00.0");
	assert_string_equal(text(f, "description"),
			    "Mellanox Technologies MT27520 Family "
			    "[ConnectX-3 Pro]");
	assert_int_equal(num(f, "sta_width"), 8);
	assert_int_equal(num(f, "cap_width"), 8);
	assert_int_equal(num(f, "sta_speed_gts"), 8);
	fact_base_free(p.fb);

	p = parse_text("ofed_install", narrow, strlen(narrow), "t.txt", NULL);
	f = nth(&p, "pcie", 0);
	assert_int_equal(num(f, "sta_width"), 8);
	assert_int_equal(num(f, "cap_width"), 16);
	assert_null(fact_get(f, sym_intern_cstr("sta_speed_gts")));
	assert_int_equal(count(&p, "fw_image"), 0);
	fact_base_free(p.fb);

	/* the link lines without the function's lspci line above them
	 * name no function */
	p = parse_text("ofed_install", plain, strlen(plain), "t.txt", NULL);
	assert_int_equal(count(&p, "pcie"), 0);
	fact_base_free(p.fb);
}

static void test_lspci(void **state)
{
	static const char nn[] =
		"3b:00.0 Infiniband controller [0207]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]\n"
		"\tSubsystem: Mellanox Technologies Device [15b3:0008]\n"
		"\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x16, ASPM not supported, Exit Latency L0s unlimited, L1 unlimited\n"
		"\t\t\tClockPM- Surprise- LLActRep- BwNot- ASPMOptComp+\n"
		"\t\tLnkSta:\tSpeed 8GT/s, Width x8, TrErr- Train- SlotClk+ DLActive- BWMgmt- ABWMgmt-\n"
		"\t\tLnkCap2: Supported Link Speeds: 2.5-8GT/s, Crosslink- Retimer- 2Retimers- DRS-\n"
		"\t\tLnkSta2: Current De-emphasis Level: -6dB, EqualizationComplete+\n"
		"\tKernel driver in use: mlx5_core\n"
		"\n"
		"3b:00.1 Ethernet controller [0200]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017] (rev 01)\n"
		"\t\tLnkCap:\tPort #0, Speed 8GT/s,\n"
		"\t\t\tWidth x16, ASPM not supported\n"
		"\t\tLnkSta:\tSpeed 2.5GT/s (downgraded),\n"
		"\t\t\tWidth x16 (ok)\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* A healthy Gen5 x16 card; VPD text and LnkCap2 do not confuse. */
	p = parse("lspci",
		  SAMPLES "lspci/gpu-diag-readme-cx7-ndr-400g-gen5-x16-ok.txt",
		  NULL);
	assert_int_equal(count(&p, "pcie"), 1);
	f = find(&p, "pcie", "pci", "0000:19:00.0");
	assert_string_equal(text(f, "class"), "0207");
	assert_string_equal(text(f, "description"),
			    "Mellanox Technologies MT2910 Family [ConnectX-7]");
	assert_string_equal(text(f, "driver"), "mlx5_core");
	assert_true(num(f, "cap_speed_gts") == 32);
	assert_int_equal(num(f, "cap_width"), 16);
	assert_true(num(f, "sta_speed_gts") == 32);
	assert_int_equal(num(f, "sta_width"), 16);
	assert_int_equal(line_of(f, "sta_width"), 26);
	fact_base_free(p.fb);

	/* Two '| grep Width' snippets: x4 slot, then Gen4 card at Gen3. */
	p = parse("lspci",
		  SAMPLES
		  "lspci/cx6-ocp3-adapter-gen4-card-downgraded-grep-width.txt",
		  NULL);
	assert_int_equal(count(&p, "pcie"), 2);
	f = nth(&p, "pcie", 0);
	assert_true(num(f, "cap_speed_gts") == 8);
	assert_int_equal(num(f, "cap_width"), 4);
	assert_int_equal(num(f, "sta_width"), 4);
	f = nth(&p, "pcie", 1);
	assert_true(num(f, "cap_speed_gts") == 16);
	assert_int_equal(num(f, "cap_width"), 16);
	assert_true(num(f, "sta_speed_gts") == 8);
	assert_int_equal(num(f, "sta_width"), 16);
	assert_null(fact_text(f, "pci"));
	fact_base_free(p.fb);

	/* -x: the ids from the configuration space's first row */
	p = parse("lspci",
		  SAMPLES "lspci/lkml-2021-dexuan-cx5-maxcpus-lspci-v-x-"
			  "hexdump.txt",
		  NULL);
	f = find(&p, "pcie", "pci", "0000:d8:00.0");
	assert_string_equal(text(f, "vendor_id"), "15b3");
	assert_string_equal(text(f, "device_id"), "1017");
	assert_int_equal(line_of(f, "device_id"), 20);
	assert_string_equal(text(f, "driver"), "mlx5_core");
	fact_base_free(p.fb);

	/* -nn ids; flags on the next line; a mail-wrapped link line. */
	p = parse_text("lspci", nn, sizeof(nn) - 1, "nn", NULL);
	f = find(&p, "pcie", "pci", "0000:3b:00.0");
	assert_string_equal(text(f, "vendor_id"), "15b3");
	assert_string_equal(text(f, "device_id"), "1017");
	assert_string_equal(
		text(f, "description"),
		"Mellanox Technologies MT27800 Family [ConnectX-5]");
	assert_int_equal(num(f, "cap_width"), 16);
	assert_int_equal(num(f, "sta_width"), 8);
	assert_true(num(f, "sta_speed_gts") == 8);
	f = find(&p, "pcie", "pci", "0000:3b:00.1");
	assert_string_equal(text(f, "class"), "0200");
	assert_string_equal(text(f, "device_id"), "1017");
	assert_int_equal(num(f, "cap_width"), 16);
	assert_int_equal(line_of(f, "cap_width"), 12);
	assert_true(num(f, "sta_speed_gts") == 2.5);
	assert_int_equal(num(f, "sta_width"), 16);
	fact_base_free(p.fb);
}

/* A boolean field's value, failing when it is absent or not a boolean. */
static bool flag(const struct fact *f, const char *field)
{
	const struct value *v = fact_get(f, sym_intern_cstr(field));

	if (!v || v->type != VALUE_BOOL)
		fail_msg("no boolean field %s", field);
	return v->b;
}

/* Bridges and the path to an adapter: buses, port types, DevCtl sizes and
 * ACS controls, as pciutils prints them (lspci.c show_htype1(), ls-caps.c
 * cap_express() and cap_express_dev(), ls-ecaps.c cap_acs()). */
static void test_lspci_path(void **state)
{
	static const char vvv[] =
		"00:03.0 PCI bridge [0604]: Intel Corporation Xeon E5 v4 PCI Express Root Port 3 [8086:6f08] (rev 01) (prog-if 00 [Normal decode])\n"
		"\tBus: primary=00, secondary=03, subordinate=06, sec-latency=0\n"
		"\tCapabilities: [90] Express (v2) Root Port (Slot-), MSI 00\n"
		"\t\tDevCap:\tMaxPayload 256 bytes, PhantFunc 0\n"
		"\t\tDevCtl:\tCorrErr- NonFatalErr- FatalErr- UnsupReq-\n"
		"\t\t\tRlxdOrd- ExtTag+ PhantFunc- AuxPwr- NoSnoop-\n"
		"\t\t\tMaxPayload 128 bytes, MaxReadReq 128 bytes\n"
		"\t\tLnkCap:\tPort #3, Speed 8GT/s, Width x16, ASPM not supported\n"
		"\t\tLnkSta:\tSpeed 8GT/s (ok), Width x16 (ok)\n"
		"\n"
		"04:10.0 PCI bridge [0604]: PLX Technology, Inc. PEX 8747 48-Lane, 5-Port PCI Express Gen 3 (8.0 GT/s) Switch [10b5:8747] (rev ca) (prog-if 00 [Normal decode])\n"
		"\tBus: primary=04, secondary=06, subordinate=06, sec-latency=0\n"
		"\tCapabilities: [68] Express (v2) Downstream Port (Slot+), MSI 00\n"
		"\t\tDevCtl:\tCorrErr- NonFatalErr- FatalErr- UnsupReq-\n"
		"\t\t\tMaxPayload 256 bytes, MaxReadReq 512 bytes\n"
		"\tCapabilities: [f24 v1] Access Control Services\n"
		"\t\tACSCap:\tSrcValid+ TransBlk+ ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl+ DirectTrans+\n"
		/* the line of NVIDIA/nccl issue #304 */
		"\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
		"\n"
		"05:00.0 3D controller [0302]: NVIDIA Corporation GV100GL [Tesla V100 SXM2 32GB] [10de:1db5] (rev a1)\n"
		"\tCapabilities: [68] Express (v2) Endpoint, MSI 00\n"
		"\n"
		"06:00.0 Infiniband controller [0207]: Mellanox Technologies MT27800 Family [ConnectX-5] [15b3:1017]\n"
		"\tCapabilities: [60] Express (v2) Endpoint, MSI 00\n"
		"\t\tDevCap:\tMaxPayload 512 bytes, PhantFunc 0, Latency L0s unlimited, L1 unlimited\n"
		"\t\tDevCtl:\tCorrErr+ NonFatalErr+ FatalErr+ UnsupReq-\n"
		"\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+ FLReset-\n"
		"\t\t\tMaxPayload 256 bytes, MaxReadReq 4096 bytes\n"
		"\n"
		"0001:00:00.0 System peripheral [0880]: Intel Corporation Device [8086:09a2]\n"
		"\tCapabilities: [40] Express (v2) Root Complex Integrated Endpoint, MSI 00\n"
		"\t\tACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-\n"
		/* a '| grep ACSCtl' line has no function to belong to */
		"\n"
		"\t\tACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-\n"
		/* Intel VMD puts functions in domains of five digits */
		"\n"
		"10000:e1:00.0 Ethernet controller [0200]: Mellanox Technologies MT28800 Family [ConnectX-5 Ex] [15b3:1019]\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse_text("lspci", vvv, sizeof(vvv) - 1, "vvv", NULL);
	assert_int_equal(count(&p, "pcie"), 6);
	f = find(&p, "pcie", "pci", "10000:e1:00.0");
	assert_string_equal(text(f, "domain"), "10000");
	assert_int_equal(num(f, "bus"), 0xe1);
	f = find(&p, "pcie", "pci", "0000:00:03.0");
	assert_string_equal(text(f, "domain"), "0000");
	assert_int_equal(num(f, "bus"), 0);
	assert_int_equal(num(f, "secondary_bus"), 3);
	assert_int_equal(num(f, "subordinate_bus"), 6);
	assert_string_equal(text(f, "port_type"), "root_port");
	/* DevCtl's sizes, not DevCap's 256 */
	assert_int_equal(num(f, "max_payload"), 128);
	assert_int_equal(num(f, "max_read_req"), 128);
	assert_int_equal(line_of(f, "max_read_req"), 7);
	assert_null(fact_text(f, "acs_ctl"));

	f = find(&p, "pcie", "pci", "0000:04:10.0");
	assert_int_equal(num(f, "bus"), 4);
	assert_int_equal(num(f, "secondary_bus"), 6);
	assert_string_equal(text(f, "port_type"), "downstream_port");
	assert_int_equal(num(f, "max_read_req"), 512);
	assert_string_equal(text(f, "acs_ctl"),
			    "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ "
			    "UpstreamFwd+ EgressCtrl- DirectTrans-");
	assert_true(flag(f, "acs_p2p_redirect"));
	assert_int_equal(line_of(f, "acs_ctl"), 18);

	f = find(&p, "pcie", "pci", "0000:05:00.0");
	assert_string_equal(text(f, "class"), "0302");
	assert_string_equal(text(f, "vendor_id"), "10de");
	assert_string_equal(text(f, "port_type"), "endpoint");

	f = find(&p, "pcie", "pci", "0000:06:00.0");
	assert_int_equal(num(f, "bus"), 6);
	assert_int_equal(num(f, "max_payload"), 256);
	assert_int_equal(num(f, "max_read_req"), 4096);
	assert_null(fact_text(f, "secondary_bus"));

	/* "Endpoint" does not take "Root Complex Integrated Endpoint"; ACS
	 * all off is no redirect */
	f = find(&p, "pcie", "pci", "0001:00:00.0");
	assert_string_equal(text(f, "domain"), "0001");
	assert_string_equal(text(f, "port_type"), "rc_endpoint");
	assert_false(flag(f, "acs_p2p_redirect"));
	fact_base_free(p.fb);

	/* Real bridge blocks: a switch's upstream port without -nn, and a
	 * PLX switch port whose buses are above 0x7f after a block cut
	 * before its header (its ACS lines belong to no function). */
	p = parse("lspci",
		  "tests/fixtures/lspci-path/navi-switch-upstream-port-vvvv.txt",
		  NULL);
	assert_int_equal(count(&p, "pcie"), 1);
	f = find(&p, "pcie", "pci", "0000:01:00.0");
	assert_string_equal(text(f, "class"), "0604");
	assert_int_equal(num(f, "bus"), 1);
	assert_int_equal(num(f, "secondary_bus"), 2);
	assert_int_equal(num(f, "subordinate_bus"), 3);
	assert_int_equal(line_of(f, "subordinate_bus"), 10);
	assert_string_equal(text(f, "port_type"), "upstream_port");
	fact_base_free(p.fb);

	p = parse("lspci",
		  "tests/fixtures/lspci-path/plx-pex8725-switch-ports-acs-on.txt",
		  NULL);
	assert_int_equal(count(&p, "pcie"), 1);
	f = find(&p, "pcie", "pci", "0000:02:08.0");
	assert_int_equal(num(f, "bus"), 2);
	assert_int_equal(num(f, "secondary_bus"), 0x82);
	assert_int_equal(num(f, "subordinate_bus"), 0x82);
	assert_null(fact_text(f, "acs_ctl"));
	fact_base_free(p.fb);
}

static void test_flint(void **state)
{
	static const char pending[] =
		"root@h:~# mstflint -d 41:00.0 q\n"
		"Image type:            FS2\n"
		"FW Version:            2.42.5000\n"
		"FW Version(Running):   2.40.5032\n"
		"Part Number:           MCX354A-FCC_Ax\n"
		"Description:           ConnectX-3 Pro VPI adapter card; dual-port QSFP\n"
		"Device ID:             4103\n"
		"Description:           Node             Port1            Port2\n"
		"PSID:                  MT_1090111023\n"
		"-E- Failed to query device\n";
	struct parsed p;
	const struct fact *f;

	(void)state;
	/* The poster bolded the FW Version line. */
	p = parse("flint_q",
		  SAMPLES
		  "flint_q/innova2-7-cx5-fw-16.28.2006-markdown-bold.txt",
		  NULL);
	f = nth(&p, "fw_image", 0);
	assert_string_equal(text(f, "fw_ver"), "16.28.2006");
	assert_int_equal(line_of(f, "fw_ver"), 5);
	assert_string_equal(text(f, "psid"), "MT_0000000158");
	assert_string_equal(text(f, "image_type"), "FS4");
	assert_string_equal(text(f, "product_version"), "16.28.2006");
	assert_null(fact_text(f, "pci"));
	assert_null(fact_text(f, "description")); /* only the GUID table's */
	fact_base_free(p.fb);

	/* OEM board: product version differs; the device from -d. */
	p = parse("flint_q",
		  SAMPLES
		  "flint_q/netdev-2020-ibm-oem-cx4lx-mstflint-q-fs3.txt",
		  NULL);
	f = find(&p, "fw_image", "pci", "0001:19:00.0");
	assert_string_equal(text(f, "fw_ver"), "14.26.0226");
	assert_string_equal(text(f, "product_version"), "6.0226");
	assert_string_equal(text(f, "psid"), "IBM0000000034");
	assert_string_equal(text(f, "image_type"), "FS3");
	assert_string_equal(text(f, "release_date"), "4.8.2019");
	fact_base_free(p.fb);

	/* Burned but not yet running; the caller names the device. */
	p = parse_text("flint_q", pending, sizeof(pending) - 1, "pending",
		       "0000:41:00.0");
	f = find(&p, "fw_image", "pci", "0000:41:00.0");
	assert_string_equal(text(f, "fw_ver"), "2.42.5000");
	assert_string_equal(text(f, "fw_running"), "2.40.5032");
	assert_string_equal(text(f, "pci_device_id"), "1007");
	assert_string_equal(text(f, "part_number"), "MCX354A-FCC_Ax");
	assert_string_equal(text(f, "description"),
			    "ConnectX-3 Pro VPI adapter card; dual-port QSFP");
	assert_string_equal(text(nth(&p, "tool_error", 0), "tool"), "flint");
	fact_base_free(p.fb);
}

static void test_mlxfwmanager(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse("mlxfwmanager",
		  SAMPLES
		  "mlxfwmanager/cx6lx-mlxup-query-update-required-rhel94.txt",
		  NULL);
	f = find(&p, "fw_image", "pci", "0002:01:00.0");
	assert_string_equal(text(f, "device_type"), "ConnectX6LX");
	assert_string_equal(text(f, "part_number"), "MCX631102AS-ADA_Ax");
	assert_string_equal(text(f, "psid"), "MT_0000000575");
	assert_string_equal(text(f, "fw_ver"), "26.33.1048");
	assert_string_equal(text(f, "fw_available"), "26.43.1014");
	assert_string_equal(text(f, "status"), "Update required");
	assert_int_equal(line_of(f, "status"), 21);
	fact_base_free(p.fb);

	/* BlueField with an NVMe row; address without a domain. */
	p = parse(
		"mlxfwmanager",
		SAMPLES
		"mlxfwmanager/bluefield1-smartnic-mofed-install-up-to-date-nvme.txt",
		NULL);
	f = find(&p, "fw_image", "pci", "0000:02:00.0");
	assert_string_equal(text(f, "device_type"), "BlueField");
	assert_string_equal(text(f, "fw_ver"), "18.26.4012");
	assert_string_equal(text(f, "status"), "Up to date");
	fact_base_free(p.fb);

	/* An mst device name; no image for this PSID (Available N/A). */
	p = parse(
		"mlxfwmanager",
		SAMPLES
		"mlxfwmanager/cx4lx-mlxfwmanager-no-matching-image-oem-psid.txt",
		NULL);
	f = find(&p, "fw_image", "pci", "/dev/mst/mt4117_pciconf0");
	assert_string_equal(text(f, "fw_ver"), "14.20.1010");
	assert_null(fact_text(f, "fw_available"));
	assert_string_equal(text(f, "status"), "No matching image found");
	fact_base_free(p.fb);
	/* the same as a paste: the Status paragraph below a blank line is
	 * still the device's, and the prompts name the host */
	p = parse_file(
		"transcript",
		SAMPLES
		"mlxfwmanager/cx4lx-mlxfwmanager-no-matching-image-oem-psid.txt",
		NULL);
	f = find(&p, "fw_image", "pci", "/dev/mst/mt4117_pciconf0");
	assert_string_equal(text(f, "status"), "No matching image found");
	assert_non_null(find(&p, "host", "hostname", "a10cx4"));
	fact_base_free(p.fb);

	/* a fragment: the same query with its "Device #1:" header cut off,
	 * as a poster quotes the device's lines; its first field opens it */
	{
		size_t len;
		char *whole = slurp(SAMPLES "mlxfwmanager/cx6lx-mlxup-query-"
					    "update-required-rhel94.txt",
				    &len);
		const char *from = strstr(whole, "  Device Type:");

		assert_non_null(from);
		p = parse_text("mlxfwmanager", from,
			       len - (size_t)(from - whole), "t.txt", NULL);
		free(whole);
	}
	assert_int_equal(count(&p, "fw_image"), 1);
	f = find(&p, "fw_image", "pci", "0002:01:00.0");
	assert_string_equal(text(f, "psid"), "MT_0000000575");
	assert_string_equal(text(f, "fw_ver"), "26.33.1048");
	assert_string_equal(text(f, "status"), "Update required");
	fact_base_free(p.fb);

	/* The mail client joined Status onto the FW row and wrapped it. */
	p = parse(
		"mlxfwmanager",
		SAMPLES
		"mlxfwmanager/netdev-2020-ibm-oem-cx4lx-mlxup-no-image-mangled-by-mail.txt",
		NULL);
	assert_int_equal(count(&p, "fw_image"), 1);
	f = find(&p, "fw_image", "pci", "0001:19:00.0");
	assert_string_equal(text(f, "device_type"), "ConnectX4LX");
	assert_string_equal(text(f, "psid"), "IBM0000000034");
	assert_string_equal(text(f, "fw_ver"), "14.26.0226");
	assert_null(fact_text(f, "fw_available"));
	assert_string_equal(text(f, "status"), "No matching image found");
	fact_base_free(p.fb);
}

static void test_perfquery(void **state)
{
	struct parsed p;
	const struct fact *f;

	(void)state;
	p = parse(
		"perfquery",
		SAMPLES
		"perfquery/infiniband-exporter-fixture-switch-port-xmitdiscards-linkdowned.txt",
		"mlx5_0");
	/* 25 lines of counters, 3 of them selectors */
	assert_int_equal(count(&p, "counter"), 22);
	f = find(&p, "counter", "name", "PortXmitDiscards");
	assert_int_equal(num(f, "value"), 20046);
	assert_int_equal(num(f, "lid"), 2052);
	assert_int_equal(num(f, "port"), 1);
	assert_string_equal(text(f, "hca"), "mlx5_0");
	assert_int_equal(line_of(f, "lid"), 4);
	assert_int_equal(num(find(&p, "counter", "name", "LinkDownedCounter"),
			     "value"),
			 1);
	assert_true(num(find(&p, "counter", "name", "PortXmitData"), "value") ==
		    178791657177235.0);
	assert_int_equal(num(find(&p, "counter", "name", "PortXmitWait"),
			     "value"),
			 41864608);
	fact_base_free(p.fb);

	p = parse("perfquery",
		  SAMPLES
		  "perfquery/infiniband-diags-16-rhel75-extended-all-zero.txt",
		  NULL);
	f = find(&p, "counter", "name", "SymbolErrorCounter");
	assert_int_equal(num(f, "value"), 0);
	assert_int_equal(num(f, "lid"), 10);
	assert_null(fact_text(f, "hca"));
	fact_base_free(p.fb);
}

static void test_limits_conf(void **state)
{
	static const char conf[] =
		"# /etc/security/limits.conf\n"
		"#<domain>      <type>  <item>         <value>\n"
		"#*               soft    core            0\n"
		"*               soft    memlock         65536\n"
		"*               hard    memlock         unlimited # rdma\n"
		"@rdma           -       memlock         unlimited\n"
		"*               soft    nofile          4096\n"
		"*               soft    memlock         131072\n";
	struct parsed p;
	const struct fact *f;
	int score;

	(void)state;
	assert_ptr_equal(format_detect(conf, sizeof(conf) - 1, &score),
			 format_find("limits_conf"));
	p = parse_text("limits_conf", conf, sizeof(conf) - 1, "limits.conf",
		       "limits.conf");
	assert_int_equal(count(&p, "limits"), 4);
	/* The later line for '* soft' wins, as in pam_limits. */
	f = find(&p, "limits", "scope", "limits.conf * soft");
	assert_int_equal(num(f, "memlock_kb"), 131072);
	assert_int_equal(line_of(f, "memlock_kb"), 8);
	assert_string_equal(text(f, "domain"), "*");
	assert_string_equal(text(f, "type"), "soft");
	f = find(&p, "limits", "scope", "limits.conf * hard");
	assert_int_equal(num(f, "memlock_kb"), -1);
	f = find(&p, "limits", "scope", "limits.conf @rdma soft");
	assert_int_equal(num(f, "memlock_kb"), -1);
	f = find(&p, "limits", "scope", "limits.conf @rdma hard");
	assert_string_equal(text(f, "file"), "limits.conf");
	fact_base_free(p.fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ofed_info),
		cmocka_unit_test(test_ofed_install),
		cmocka_unit_test(test_lspci),
		cmocka_unit_test(test_lspci_path),
		cmocka_unit_test(test_flint),
		cmocka_unit_test(test_mlxfwmanager),
		cmocka_unit_test(test_perfquery),
		cmocka_unit_test(test_limits_conf),
	};

	return cmocka_run_group_tests_name("parsers (host tools)", tests, NULL,
					   NULL);
}
