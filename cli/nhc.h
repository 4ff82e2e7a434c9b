/* check --nhc: the conventions of NHC, the LBNL Node Health Check run by
 * Slurm, PBS and other resource managers.  A healthy node prints nothing
 * and exits 0; a failure prints one line in the form NHC's die() writes,
 * "ERROR:  nhc:  Health check failed:  <check>:  <message>", and exits
 * non-zero, so that rdmadoctor serves as an NHC check or as a Slurm
 * HealthCheckProgram (contrib/nhc/ has both set-ups). */
#ifndef RD_NHC_H
#define RD_NHC_H

#include <stdio.h>

#include "analysis/analysis.h"

/* For a fault on the host (a diagnosis of severity error or worse), the
 * failure line naming the highest-ranked one and how many more there
 * are; returns EXIT_DIAGNOSED.  Otherwise (warnings included) prints
 * nothing and returns EXIT_HEALTHY. */
int nhc_report(FILE *out, const struct analysis *a);

/* For a check that could not run: the failure line with the first error
 * in d.  Returns rc. */
int nhc_report_error(FILE *out, const struct diag *d, int rc);

#endif
