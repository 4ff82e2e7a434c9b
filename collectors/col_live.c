/* Live-only collectors: libibverbs (the only user of <infiniband/verbs.h>)
 * and resource limits. */
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "collectors/collector.h"
#include "engine/dynlib.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* Size of the memory region the smoke test registers: big enough that a
 * low memlock limit shows, small enough to be harmless. */
#define SMOKE_MR_BYTES (4u << 20) /* @@ */
/* Devices whose smoke test the collector's status line names. */
#define SMOKE_SHOWN 4 /* @@ */
/* Most GID entries queried per port. */
#define GIDS_MAX 1024 /* @@ */

/* libibverbs' functions, looked up when a live run first needs them
 * (dynlib.h), at the symbol version the linker binds.  verbs.h wraps
 * ibv_query_port, ibv_reg_mr and ibv_get_device_list in inline functions
 * and macros; these are the exported functions under them. */
#define LIBIBVERBS_CALLS(X) \
	X(get_device_list)  \
	X(free_device_list) \
	X(get_device_name)  \
	X(open_device)      \
	X(close_device)     \
	X(query_device)     \
	X(query_port)       \
	X(query_gid)        \
	X(alloc_pd)         \
	X(dealloc_pd)       \
	X(reg_mr)           \
	X(dereg_mr)         \
	X(create_cq)        \
	X(destroy_cq)       \
	X(create_qp)        \
	X(destroy_qp)       \
	X(modify_qp)

#define VB_POINTER(f) __typeof__(ibv_##f) *f;
static struct {
	LIBIBVERBS_CALLS(VB_POINTER)
} vb;

#define VB_SYM(f) { "ibv_" #f, (void **)&vb.f },
static const struct dynlib_sym vb_syms[] = { LIBIBVERBS_CALLS(VB_SYM) };

static struct dynlib libibverbs =
	DYNLIB_INIT("libibverbs.so.1", "IBVERBS_1.1",
		    "libibverbs1 (rdma-core's libibverbs on RPM systems)",
		    vb_syms);

static void step(struct col_ctx *c, const char *name, const char *dev, int err,
		 int devices)
{
	struct emit e;
	struct fact *f;
	char *text = err ? xasprintf("%s%s%s: %s", name, dev ? " " : "",
				     dev ? dev : "", strerror(err)) :
			   xasprintf("%s%s%s: ok", name, dev ? " " : "",
				     dev ? dev : "");
	struct line ln = { text, strlen(text), 0 };

	emit_init(&e, c->fb, "live: libibverbs");
	f = emit_begin(&e, "verbs", &ln);
	free(text);
	emit_str(&e, f, "step", name, strlen(name), NULL);
	if (dev)
		emit_str(&e, f, "hca", dev, strlen(dev), NULL);
	emit_bool(&e, f, "ok", !err, NULL);
	if (err) {
		const char *msg = strerror(err);

		emit_int(&e, f, "errnum", err, NULL);
		emit_str(&e, f, "error", msg, strlen(msg), NULL);
	}
	if (devices >= 0)
		emit_int(&e, f, "devices", devices, NULL);
	emit_end(&e, f);
}

/* A step that failed before libibverbs could be asked anything: its
 * error is the loader's text, not an errno's. */
static void step_text(struct col_ctx *c, const char *name, const char *why)
{
	struct line ln = { why, strlen(why), 0 };
	struct emit e;
	struct fact *f;

	emit_init(&e, c->fb, "live: libibverbs");
	f = emit_begin(&e, "verbs", &ln);
	emit_str(&e, f, "step", name, strlen(name), NULL);
	emit_bool(&e, f, "ok", false, NULL);
	emit_str(&e, f, "error", why, strlen(why), NULL);
	emit_end(&e, f);
}

static const char *state_name(enum ibv_port_state s)
{
	switch (s) {
	case IBV_PORT_DOWN:
		return "DOWN";
	case IBV_PORT_INIT:
		return "INIT";
	case IBV_PORT_ARMED:
		return "ARMED";
	case IBV_PORT_ACTIVE:
	case IBV_PORT_ACTIVE_DEFER:
		return "ACTIVE";
	default:
		return NULL;
	}
}

/* The port's non-zero GIDs (sysfs gives the same entries, and their
 * types). */
static void gid_facts(struct col_ctx *c, struct ibv_context *ctx,
		      const char *dev, uint8_t port, int len)
{
	static const unsigned char zero[16];
	struct emit e;

	emit_init(&e, c->fb, "live: libibverbs");
	for (int i = 0; i < len && i < GIDS_MAX; i++) {
		char text[INET6_ADDRSTRLEN];
		union ibv_gid gid;
		struct fact *f;

		if (vb.query_gid(ctx, port, i, &gid) ||
		    !memcmp(gid.raw, zero, sizeof(zero)) ||
		    !inet_ntop(AF_INET6, gid.raw, text, sizeof(text)))
			continue;
		f = emit_begin(&e, "gid", NULL);
		emit_str(&e, f, "hca", dev, strlen(dev), NULL);
		emit_int(&e, f, "port", port, NULL);
		emit_int(&e, f, "index", i, NULL);
		emit_str(&e, f, "gid", text, strlen(text), NULL);
		emit_end(&e, f);
	}
}

static void port_facts(struct col_ctx *c, struct ibv_context *ctx,
		       const char *dev, uint8_t nports)
{
	struct emit e;

	emit_init(&e, c->fb, "live: libibverbs");
	for (uint8_t p = 1; p <= nports; p++) {
		struct ibv_port_attr pa;
		struct fact *f;
		const char *s;

		/* What verbs.h's inline ibv_query_port does for a provider
		 * without the extended call: the exported function hands the
		 * struct to the provider; every field read below is in the
		 * part the compat struct shares with this one. */
		memset(&pa, 0, sizeof(pa));
		if (vb.query_port(ctx, p,
				  (struct _compat_ibv_port_attr *)&pa)) {
			step(c, "query_port", dev, errno, -1);
			continue;
		}
		f = emit_begin(&e, "port", NULL);
		emit_str(&e, f, "hca", dev, strlen(dev), NULL);
		emit_int(&e, f, "port", p, NULL);
		if ((s = state_name(pa.state)))
			emit_str(&e, f, "state", s, strlen(s), NULL);
		s = pa.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" :
							       "InfiniBand";
		emit_str(&e, f, "link_layer", s, strlen(s), NULL);
		emit_int(&e, f, "lid", pa.lid, NULL);
		emit_int(&e, f, "sm_lid", pa.sm_lid, NULL);
		emit_int(&e, f, "active_mtu", 128 << pa.active_mtu, NULL);
		emit_int(&e, f, "max_mtu", 128 << pa.max_mtu, NULL);
		emit_end(&e, f);
		gid_facts(c, ctx, dev, p, pa.gid_tbl_len);
	}
}

/* The first step of a device's smoke test that failed, if any. */
struct smoke_result {
	const char *step;
	int err;
};

/* step(), remembering the first failure in r. */
static void smoke_step(struct col_ctx *c, struct smoke_result *r,
		       const char *name, const char *dev, int err)
{
	step(c, name, dev, err, -1);
	if (err && !r->step) {
		r->step = name;
		r->err = err;
	}
}

/* Open, PD, MR, CQ, QP to INIT: each step's errno becomes a fact, so a
 * memlock limit, permissions or a missing provider show; the first failure
 * goes to r. */
static void smoke(struct col_ctx *c, struct ibv_device *dev,
		  struct smoke_result *r)
{
	const char *name = vb.get_device_name(dev);
	struct ibv_context *ctx = vb.open_device(dev);
	struct ibv_device_attr da;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp = NULL;
	void *buf = NULL;

	smoke_step(c, r, "open_device", name, ctx ? 0 : errno ? errno : ENODEV);
	if (!ctx)
		return;
	if (!vb.query_device(ctx, &da))
		port_facts(c, ctx, name, da.phys_port_cnt);
	pd = vb.alloc_pd(ctx);
	smoke_step(c, r, "alloc_pd", name, pd ? 0 : errno ? errno : ENOMEM);
	if (!pd)
		goto out;
	buf = calloc(1, SMOKE_MR_BYTES);
	mr = buf ? vb.reg_mr(pd, buf, SMOKE_MR_BYTES, IBV_ACCESS_LOCAL_WRITE) :
		   NULL;
	smoke_step(c, r, "reg_mr", name, mr ? 0 : errno ? errno : ENOMEM);
	cq = vb.create_cq(ctx, 16, NULL, NULL, 0);
	smoke_step(c, r, "create_cq", name, cq ? 0 : errno ? errno : ENOMEM);
	if (cq) {
		struct ibv_qp_init_attr qa = { 0 };
		struct ibv_qp_attr attr = { 0 };

		qa.send_cq = qa.recv_cq = cq;
		qa.qp_type = IBV_QPT_RC;
		qa.cap.max_send_wr = qa.cap.max_recv_wr = 1;
		qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
		qp = vb.create_qp(pd, &qa);
		smoke_step(c, r, "create_qp", name,
			   qp	 ? 0 :
			   errno ? errno :
				   ENOMEM);
		if (qp) {
			attr.qp_state = IBV_QPS_INIT;
			attr.port_num = 1;
			smoke_step(c, r, "modify_qp_init", name,
				   vb.modify_qp(qp, &attr,
						IBV_QP_STATE |
							IBV_QP_PKEY_INDEX |
							IBV_QP_PORT |
							IBV_QP_ACCESS_FLAGS));
		}
	}
	if (qp)
		vb.destroy_qp(qp);
	if (cq)
		vb.destroy_cq(cq);
	if (mr)
		vb.dereg_mr(mr);
	free(buf);
	vb.dealloc_pd(pd);
out:
	vb.close_device(ctx);
}

void col_verbs(struct col_ctx *c, struct col_status *st)
{
	const char *why = dynlib_open(&libibverbs);
	struct strbuf detail = { 0 };
	struct ibv_device **list;
	int n = 0;

	if (why) {
		step_text(c, "load_library", why);
		col_status(st, FETCH_ERROR, "%s", why);
		return;
	}
	col_progress(c, "asking libibverbs for devices");
	errno = 0;
	list = vb.get_device_list(&n);
	if (!list) {
		int err = errno ? errno : ENODEV;

		step(c, "get_device_list", NULL, err, 0);
		col_status(st, FETCH_OK, "ibv_get_device_list failed: %s",
			   strerror(err));
		return;
	}
	step(c, "get_device_list", NULL, 0, n);
	sb_printf(&detail, "libibverbs: %d devices", n);
	for (int i = 0; i < n; i++) {
		struct smoke_result r = { NULL, 0 };
		const char *name = vb.get_device_name(list[i]);

		col_progress(c, "verbs smoke test on %s", name);
		smoke(c, list[i], &r);
		if (i >= SMOKE_SHOWN)
			continue;
		if (r.step)
			sb_printf(&detail,
				  "; smoke test failed on %s at %s: %s", name,
				  r.step, strerror(r.err));
		else
			sb_printf(
				&detail,
				"; smoke test passed on %s (open, PD, MR, CQ, QP to INIT)",
				name);
	}
	if (n > SMOKE_SHOWN)
		sb_printf(&detail, "; %d more devices", n - SMOKE_SHOWN);
	vb.free_device_list(list);
	col_status(st, FETCH_OK, "%s", sb_str(&detail));
	sb_release(&detail);
}

void col_limits(struct col_ctx *c, struct col_status *st)
{
	struct rlimit rl;
	struct emit e;
	struct fact *f;
	int64_t kb;

	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		col_status(st, FETCH_ERROR, "getrlimit: %s", strerror(errno));
		return;
	}
	kb = rl.rlim_cur == RLIM_INFINITY ? -1 : (int64_t)(rl.rlim_cur / 1024);
	emit_init(&e, c->fb, "live: getrlimit(RLIMIT_MEMLOCK)");
	f = emit_begin(&e, "limits", NULL);
	emit_str(&e, f, "scope", "process", 7, NULL);
	emit_int(&e, f, "memlock_kb", kb, NULL);
	emit_end(&e, f);
	col_status(st, FETCH_OK, "memlock %s",
		   kb < 0 ? "unlimited" : "limited");
}
