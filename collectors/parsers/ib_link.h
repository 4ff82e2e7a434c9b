/* InfiniBand link attributes as the tools print them: rates such as
 * "100 Gb/sec (4X EDR)", widths such as "4X", and the IBTA speed codes
 * that ibv_devinfo -v prints next to "25.0 Gbps (32)". */
#ifndef RD_IB_LINK_H
#define RD_IB_LINK_H

#include <stdbool.h>
#include <stddef.h>

struct ib_link_rate {
	double gbps;
	char width[8]; /* "4X", or "" when the text has none */
	char speed[16]; /* "EDR", or "" (old "10 Gb/sec (4X)") */
};

/* Reads "100 Gb/sec (4X EDR)" (ibstatus, sysfs rate); the parenthesis is
 * optional.  False when the text does not start with a number. */
bool ib_link_rate_parse(const char *s, size_t n, struct ib_link_rate *out);
/* Lanes of a width name: "4X" -> 4, "12X" -> 12; 0 when s is not one. */
unsigned ib_link_lanes(const char *s, size_t n);
/* The name of an IBTA active_speed code (32 -> "EDR"), or NULL. */
const char *ib_link_speed_name(unsigned code);

#endif
