/* Port states as the tools spell them ("Active", "4: ACTIVE",
 * "PORT_ACTIVE (4)", "LinkUp", "LINK_UP"), mapped to the vocabulary's
 * names. */
#ifndef RD_PORT_STATE_H
#define RD_PORT_STATE_H

#include <stddef.h>

/* DOWN, INIT, ARMED or ACTIVE; NULL when the text is not a port state. */
const char *port_state_norm(const char *s, size_t n);
/* SLEEP, POLLING, DISABLED, TRAINING, LINKUP, ERROR_RECOVERY or PHY_TEST;
 * NULL when unknown. */
const char *phys_state_norm(const char *s, size_t n);

#endif
