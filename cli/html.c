/* HTML escaping. */
#include "cli/html.h"

#include <stdbool.h>
#include <string.h>

static void put_char(FILE *out, unsigned char c)
{
	switch (c) {
	case '&':
		fputs("&amp;", out);
		break;
	case '<':
		fputs("&lt;", out);
		break;
	case '>':
		fputs("&gt;", out);
		break;
	case '"':
		fputs("&quot;", out);
		break;
	case '\'':
		fputs("&#39;", out);
		break;
	default:
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

void html_puts_max(FILE *out, const char *s, size_t max)
{
	size_t chars = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool starts_char = (*p & 0xc0) != 0x80;

		if (starts_char && chars++ == max) {
			fputs("\xe2\x80\xa6", out); /* … */
			return;
		}
		put_char(out, *p);
	}
}

void html_puts(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		put_char(out, *p);
}

void html_id(FILE *out, const char *s)
{
	for (; *s; s++) {
		char c = *s;
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '-' || c == '_';

		fputc(keep ? c : '_', out);
	}
}

/* One style sheet for every report: status colours shared by the stack
 * picture, badges, charts and tables. */
static const char style[] =
	":root{--ok:#2e7d32;--ok-bg:#e2f3e4;--warning:#9a6200;"
	"--warning-bg:#fff1cc;--fault:#c62828;--fault-bg:#fde3e3;"
	"--unknown:#5f7380;--unknown-bg:#e9edf0;--info:#1f5fa8;"
	"--info-bg:#e3eefb;--line:#dde2e8}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:#f5f6f8;color:#1c2430;font:14px/1.45 "
	"system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}\n"
	"header{background:#1c2430;color:#fff;padding:18px 32px}\n"
	"header h1{margin:0;font-size:21px;font-weight:600}\n"
	"header p{margin:4px 0 0;color:#b8c2cc;font-size:13px}\n"
	"main{max-width:1120px;margin:0 auto;padding:22px 32px}\n"
	"section{background:#fff;border:1px solid var(--line);"
	"border-radius:8px;padding:16px 22px;margin:0 0 18px}\n"
	"h2{font-size:16px;margin:0 0 12px}\n"
	"h3{font-size:15px;margin:0 0 4px}\n"
	"table{border-collapse:collapse;width:100%}\n"
	"th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #edf0f3;"
	"vertical-align:top}\n"
	"th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;"
	"color:#5f7380}\n"
	"code,.mono{font:12px/1.45 ui-monospace,'DejaVu Sans Mono',monospace;"
	"white-space:pre-wrap;word-break:break-all}\n"
	".muted{color:#5f7380}\n"
	".badge{display:inline-block;padding:1px 9px;border-radius:10px;"
	"font-size:12px;font-weight:600;white-space:nowrap}\n"
	".ok{--c:var(--ok);--bg:var(--ok-bg)}\n"
	".warning{--c:var(--warning);--bg:var(--warning-bg)}\n"
	".fault,.error,.critical,.failed{--c:var(--fault);--bg:var(--fault-bg)}\n"
	".unknown{--c:var(--unknown);--bg:var(--unknown-bg)}\n"
	".info{--c:var(--info);--bg:var(--info-bg)}\n"
	".badge{color:var(--c);background:var(--bg)}\n"
	"svg{display:block;max-width:100%;height:auto}\n"
	"svg text{font-family:system-ui,'DejaVu Sans',sans-serif}\n"
	"svg .box{fill:var(--bg);stroke:var(--c);stroke-width:2}\n"
	"svg .seg{fill:var(--c)}\n"
	"svg .pill{fill:var(--c)}\n"
	"svg .name{font-size:15px;font-weight:700;fill:#1c2430}\n"
	"svg .doc{font-size:12px;fill:#5f7380}\n"
	"svg .sum{font-size:12.5px;fill:#1c2430}\n"
	"svg .st{font-size:11px;font-weight:700;fill:#fff}\n"
	"svg .side{font-size:12px;fill:#5f7380}\n"
	"svg .guide{stroke:#9aa7b2;stroke-width:2;fill:none}\n"
	".diag{border-left:5px solid var(--c);background:#fff;padding:10px 16px;"
	"margin:0 0 14px;border-radius:0 6px 6px 0;box-shadow:0 0 0 1px "
	"var(--line)}\n"
	".diag .msg{margin:6px 0}\n"
	".diag ul{margin:4px 0 8px;padding-left:22px}\n"
	".cards{display:flex;gap:12px;flex-wrap:wrap}\n"
	".card{flex:1 1 120px;border:1px solid var(--line);border-radius:8px;"
	"padding:10px 14px;border-top:4px solid var(--c,#5f7380)}\n"
	".card b{display:block;font-size:24px}\n"
	".cells{white-space:nowrap}\n"
	".cells i{display:inline-block;width:13px;height:13px;margin-right:2px;"
	"border-radius:2px;background:var(--c)}\n"
	"tr.mixed td{background:var(--warning-bg)}\n"
	"details summary{cursor:pointer;color:#1f5fa8}\n"
	"footer{color:#5f7380;font-size:12px;text-align:center;padding:0 0 24px}\n";

void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n<title>",
	      out);
	html_puts(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

void html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}
