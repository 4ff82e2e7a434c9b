/* IB link widths, speeds and rates (IBTA encodings, as libibverbs and
 * the kernel's sysfs print them). */
#include "collectors/parsers/ib_link.h"

#include <stdio.h>
#include <string.h>

#include "engine/xalloc.h"

static const struct {
	unsigned code;
	const char *name;
} speeds[] = {
	{ 1, "SDR" },	{ 2, "DDR" },	{ 4, "QDR" },
	{ 8, "FDR10" }, { 16, "FDR" },	{ 32, "EDR" },
	{ 64, "HDR" },	{ 128, "NDR" }, { 256, "XDR" },
};

const char *ib_link_speed_name(unsigned code)
{
	for (size_t i = 0; i < ARRAY_SIZE(speeds); i++)
		if (speeds[i].code == code)
			return speeds[i].name;
	return NULL;
}

unsigned ib_link_lanes(const char *s, size_t n)
{
	unsigned lanes = 0;
	size_t i = 0;

	for (; i < n && i < 3 && s[i] >= '0' && s[i] <= '9'; i++)
		lanes = lanes * 10 + (unsigned)(s[i] - '0');
	if (!i || i + 1 != n || (s[i] != 'X' && s[i] != 'x'))
		return 0;
	return lanes;
}

bool ib_link_rate_parse(const char *s, size_t n, struct ib_link_rate *out)
{
	char buf[64], unit[16];
	const char *open, *close;

	memset(out, 0, sizeof(*out));
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (sscanf(buf, "%lf", &out->gbps) != 1 ||
	    !(out->gbps >= 0 && out->gbps <= 1e6))
		return false;
	/* A unit other than Gb/sec ("Mb/sec") is not a rate we know. */
	if (sscanf(buf, "%*f %15s", unit) == 1 && unit[0] != '(' &&
	    strcmp(unit, "Gb/sec") && strcmp(unit, "Gb/s"))
		return false;
	open = strchr(buf, '(');
	close = open ? strchr(open, ')') : NULL;
	if (open && close) {
		char inner[32] = "";
		size_t len = (size_t)(close - open - 1);

		if (len >= sizeof(inner))
			len = sizeof(inner) - 1;
		memcpy(inner, open + 1, len);
		inner[len] = '\0';
		if (sscanf(inner, "%7s %15s", out->width, out->speed) < 1 ||
		    !ib_link_lanes(out->width, strlen(out->width)))
			out->width[0] = out->speed[0] = '\0';
	}
	return true;
}
