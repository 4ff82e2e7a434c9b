/* The fleet summary of a batch run: each host's verdict, each diagnosis
 * with the hosts that have it, the firmware versions each adapter family
 * runs across the fleet, and the bundles that could not be read.  It is
 * built as JSON (README "batch" lists the fields), which the text and
 * HTML reports then render. */
#ifndef RD_FLEET_H
#define RD_FLEET_H

#include "engine/json.h"

struct fleet;

struct fleet *fleet_new(void);
void fleet_free(struct fleet *f);

/* A host analysed.  report is its analyze --json object, adapters its
 * [{name, family, model, fw_ver}]; exit_code its analysis's exit code.
 * Both borrowed. */
void fleet_add_host(struct fleet *f, const char *path,
		    const struct json *report, const struct json *adapters,
		    int exit_code);
/* A bundle that could not be analysed, and why. */
void fleet_add_failure(struct fleet *f, const char *path, const char *reason);

/* Adds the hosts of a summary made by another run (batch --merge): the
 * shards of a job array become one fleet. */
void fleet_merge(struct fleet *f, const struct json *summary);

/* The entry of the last host added, as in the summary's hosts (owned). */
struct json *fleet_last_host(const struct fleet *f);

/* The summary object (owned). */
struct json *fleet_summary(struct fleet *f);

/* 3 when a host's rules failed at run time, else 2 when a bundle could
 * not be read, else 1 when a host has a diagnosis at warning or above,
 * else 0. */
int fleet_exit_code(const struct fleet *f);

/* The status of layer name in a "layers" array of a report or a summary's
 * host ([{name, status}, ...]); "" when it is not there.  Borrowed. */
const char *fleet_layer_status(const struct json *layers, const char *name);

/* The name a host goes by: its hostname, else its bundle's file name.
 * Owned result. */
char *fleet_host_name(const char *hostname, const char *path);

#endif
