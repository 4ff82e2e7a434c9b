/* ethtool -i: "driver:", "version:", "firmware-version:", "bus-info:". */
#include <string.h>

#include "collectors/parsers/formats.h"

int parse_ethtool_i(struct emit *e, const char *text, size_t len,
		    const char *arg)
{
	struct fact *drv = NULL, *nd = NULL;
	struct lines it;
	struct line raw, drvname = { 0 };
	unsigned before = e->nfacts;

	lines_init(&it, text, len);
	while (lines_next(&it, &raw)) {
		struct line ln = line_trim(raw), key, val;

		if (!line_kv(&ln, ':', &key, &val))
			continue;
		if (line_eq(&key, "driver")) {
			const char *br = memchr(val.p, '[', val.len);

			drvname = val;
			if (br)
				drvname.len = (size_t)(br - val.p);
			emit_end(e, drv);
			drv = emit_begin(e, "driver", &ln);
			emit_line(e, drv, "name", &drvname, &ln);
			emit_str(e, drv, "evidence", "ethtool", 7, &ln);
			/* without the command line the interface is unnamed,
			 * but its firmware and PCI address are still the
			 * adapter's (tied to it by the address) */
			emit_end(e, nd);
			nd = emit_begin(e, "netdev", &ln);
			if (arg)
				emit_str(e, nd, "name", arg, strlen(arg), &ln);
			emit_line(e, nd, "driver", &drvname, &ln);
		} else if (line_eq(&key, "version") && drv) {
			const char *o = driver_origin_of(val.p, val.len);

			emit_line(e, drv, "version", &val, &ln);
			emit_str(e, drv, "origin", o, strlen(o), &ln);
		} else if (line_eq(&key, "firmware-version") && nd) {
			const char *sp = memchr(val.p, ' ', val.len);
			struct line fw = val;

			if (sp)
				fw.len = (size_t)(sp - val.p);
			emit_line(e, nd, "fw_ver", &fw, &ln);
			if (sp && val.p[val.len - 1] == ')') {
				const char *open = memchr(val.p, '(', val.len);
				struct line psid;

				if (open) {
					psid.p = open + 1;
					psid.len = (size_t)(val.p + val.len -
							    1 - psid.p);
					psid.no = ln.no;
					emit_line(e, nd, "psid", &psid, &ln);
				}
			}
		} else if (line_eq(&key, "bus-info") && nd) {
			emit_line(e, nd, "pci", &val, &ln);
		}
	}
	emit_end(e, drv);
	emit_end(e, nd);
	return (int)(e->nfacts - before);
}

