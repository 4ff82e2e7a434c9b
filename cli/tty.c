/* The session terminal: wrapping, paging, input, progress and signals. */
#include "cli/tty.h"

#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "cli/term.h"
#include "collectors/sources/run.h"
#include "engine/xalloc.h"

/* Window assumed when the terminal does not say, and the smallest one the
 * layout works in. */
#define DEFAULT_COLS 80 /* @@ */
#define DEFAULT_ROWS 24 /* @@ */
#define MIN_COLS 40 /* @@ */
#define MIN_ROWS 8 /* @@ */
/* A step that runs this long gets a spinner and its seconds. */
#define SLOW_STEP_MS 1000 /* @@ */
#define SPIN_TICK_MS 100 /* @@ */

struct tty {
	FILE *in, *out;
	int fd;
	int width, height; /* usable columns (one spare), window rows */
	int rows; /* rows printed since the last input */
	bool skip; /* the pager was told to skip to the next prompt */
	bool no_input; /* input ended: stop paging */
	bool color; /* the pager's prompt dimmed */
	struct strbuf pending; /* text after the last newline */
	tty_mask_fn mask; /* what a line becomes before it is shown */
	void *mask_ctx;

	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t spinner;
	bool spinning, stop;
	char step[256];
	struct timespec since;
	unsigned tick;
};

/* What the signal handler needs, kept where it may read it. */
static volatile sig_atomic_t sig_fd = -1, sig_progress, sig_color;
static const int handled[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved[sizeof(handled) / sizeof(*handled)];

static void put_raw(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Leaves the terminal as the shell expects it: no half-drawn progress
 * line, colour off, the cursor at the start of a line.  Then the signal
 * does what it would have done. */
static void on_signal(int sig)
{
	run_kill_all(); /* no tool outlives the interrupt */
	if (sig_fd >= 0) {
		if (sig_progress)
			put_raw(sig_fd, "\r\033[K");
		if (sig_color)
			put_raw(sig_fd, "\033[0m");
		put_raw(sig_fd, "\n");
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void window_size(struct tty *t)
{
	struct winsize ws;
	int cols = DEFAULT_COLS, rows = DEFAULT_ROWS;

	if (!ioctl(t->fd, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		cols = ws.ws_col;
		rows = ws.ws_row;
	}
	/* One column spare: a row that fills the window would wrap early on
	 * some terminals. */
	t->width = (cols < MIN_COLS ? MIN_COLS : cols) - 1;
	t->height = rows < MIN_ROWS ? MIN_ROWS : rows;
}

struct tty *tty_open(FILE *in, FILE *out, bool color)
{
	struct tty *t = xcalloc(1, sizeof(*t));
	struct sigaction sa;

	t->in = in;
	t->out = out;
	t->fd = fileno(out);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	window_size(t);
	t->color = color;
	sig_color = color;
	sig_progress = 0;
	sig_fd = t->fd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(handled) / sizeof(*handled); i++)
		sigaction(handled[i], &sa, &saved[i]);
	return t;
}

void tty_close(struct tty *t)
{
	if (!t)
		return;
	tty_progress_end(t);
	if (t->pending.len)
		tty_puts(t, "\n");
	fflush(t->out);
	for (size_t i = 0; i < sizeof(handled) / sizeof(*handled); i++)
		sigaction(handled[i], &saved[i], NULL);
	sig_fd = -1;
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	sb_release(&t->pending);
	free(t);
}

/* ---- wrapping ---- */

/* Length of a CSI escape sequence at s (ESC [ ... final byte), or 0. */
static size_t escape_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n &&
	       !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e))
		i++;
	return i < n ? i + 1 : n;
}

/* The columns a terminal gives code point cp: wcwidth(3) in the C.UTF-8
 * locale, whatever the process's own locale (East Asian wide characters
 * take two columns, combining marks none); 1 when that locale is missing
 * or the character is unknown. */
static int code_point_width(uint32_t cp)
{
	static locale_t utf8;
	static bool tried;
	locale_t old;
	int w;

	if (cp < 0x80)
		return 1;
	if (!tried) {
		tried = true;
		utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	if (!utf8)
		return 1;
	old = uselocale(utf8);
	w = wcwidth((wchar_t)cp);
	uselocale(old);
	return w < 0 ? 1 : w;
}

/* Bytes of the character at s: an escape, or one UTF-8 sequence; *width
 * is the columns it takes. */
static size_t char_len(const char *s, size_t n, int *width)
{
	size_t e = escape_len(s, n), i = 1;
	unsigned char c = (unsigned char)s[0];
	uint32_t cp;

	if (e) {
		*width = 0;
		return e;
	}
	cp = c >= 0xf0 ? c & 0x07u : c >= 0xe0 ? c & 0x0fu : c & 0x1fu;
	while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80)
		cp = (cp << 6) | ((unsigned char)s[i++] & 0x3fu);
	*width = c < 0x80 ? 1 : code_point_width(cp);
	return i;
}

static int columns(const char *s, size_t n)
{
	int total = 0, w;

	for (size_t i = 0; i < n;) {
		i += char_len(s + i, n - i, &w);
		total += w;
	}
	return total;
}

static int hanging_indent(const char *s, size_t n, int width)
{
	size_t i = 0;
	int lead, indent;

	while (i < n && s[i] == ' ')
		i++;
	lead = (int)i;
	indent = lead ? lead + 2 : 0;
	if (i + 1 < n && (s[i] == '-' || s[i] == '*') && s[i + 1] == ' ') {
		indent = lead + 2;
	} else {
		for (size_t j = i + 1; j + 1 < n; j++) {
			size_t k = j;

			if (s[j] != ' ' || s[j + 1] != ' ')
				continue;
			/* two spaces after a sentence are prose, not a cell */
			if (strchr(".?!", s[j - 1]))
				break;
			while (k < n && s[k] == ' ')
				k++;
			if (k < n)
				indent = columns(s, k);
			break;
		}
	}
	if (indent > width / 2)
		indent = lead + 2 <= width / 2 ? lead + 2 : 0;
	return indent;
}

static void new_row(struct strbuf *out, int indent, int *col, int *rows)
{
	sb_putc(out, '\n');
	for (int i = 0; i < indent; i++)
		sb_putc(out, ' ');
	*col = indent;
	(*rows)++;
}

int tty_wrap(const char *line, size_t len, int width, struct strbuf *out)
{
	int indent = hanging_indent(line, len, width), col = 0, rows = 1, w;
	size_t i = 0;
	bool first = true;

	while (i < len && line[i] == ' ') {
		sb_putc(out, ' ');
		col++;
		i++;
	}
	while (i < len) {
		size_t gap_start = i, word;
		int gap, wc;

		while (i < len && line[i] == ' ')
			i++;
		gap = (int)(i - gap_start);
		if (i >= len)
			break;
		word = i;
		while (i < len && line[i] != ' ')
			i++;
		wc = columns(line + word, i - word);
		if (!first && col + gap + wc > width) {
			new_row(out, indent, &col, &rows);
			gap = 0;
		}
		for (int k = 0; k < gap; k++)
			sb_putc(out, ' ');
		col += gap;
		for (size_t k = word; k < i;) {
			size_t cl = char_len(line + k, i - k, &w);

			if (w && col >= width && col > indent)
				new_row(out, indent, &col, &rows);
			sb_add(out, line + k, cl);
			col += w;
			k += cl;
		}
		first = false;
	}
	return rows;
}

/* ---- paged output ---- */

static void more(struct tty *t)
{
	char buf[16];

	fprintf(t->out, "%s-- more: Enter for the next page, q to skip --%s",
		term_on(t->color, TERM_DIM), term_off(t->color));
	fflush(t->out);
	if (!fgets(buf, sizeof(buf), t->in)) {
		t->no_input = true;
		fputc('\n', t->out);
	} else {
		if (!strchr(buf, '\n'))
			for (int c = 0; c != '\n' && c != EOF;)
				c = fgetc(t->in);
		t->skip = buf[0] == 'q' || buf[0] == 'Q';
		/* the prompt is done with: take its row back */
		fputs("\033[A\r\033[K", t->out);
	}
	t->rows = 0;
	window_size(t);
}

static void emit_row(struct tty *t, const char *row, size_t n)
{
	if (t->skip)
		return;
	if (!t->no_input && t->rows >= t->height - 1) {
		more(t);
		if (t->skip)
			return;
	}
	fwrite(row, 1, n, t->out);
	fputc('\n', t->out);
	t->rows++;
}

static void emit_line(struct tty *t, const char *line, size_t n)
{
	struct strbuf rows = STRBUF_INIT;
	char *masked = t->mask ? t->mask(t->mask_ctx, line, n) : NULL;
	const char *p;

	if (masked) {
		line = masked;
		n = strlen(masked);
	}
	tty_wrap(line, n, t->width, &rows);
	free(masked);
	p = sb_str(&rows);
	for (;;) {
		const char *nl = strchr(p, '\n');

		emit_row(t, p, nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
		p = nl + 1;
	}
	sb_release(&rows);
}

/* Appends s to sb with what could drive the terminal shown as \xNN:
 * control characters other than newline, escapes other than colour and
 * bytes that are not UTF-8 (text from a bundle must not move the cursor
 * or retitle the window). */
static void add_safe(struct strbuf *sb, const char *s)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		size_t n = 2;

		if (c == '\033' && p[1] == '[') {
			while (p[n] && strchr("0123456789;", p[n]))
				n++;
			if (p[n] == 'm') {
				sb_add(sb, p, n + 1);
				p += n;
				continue;
			}
		}
		n = utf8_printable_len(p, strnlen(p, 4));
		if (c == '\t')
			sb_putc(sb, ' ');
		else if (c == '\n')
			sb_putc(sb, '\n');
		else if (!n)
			sb_printf(sb, "\\x%02x", c);
		else
			sb_add(sb, p, n);
		if (n > 1)
			p += n - 1;
	}
}

void tty_puts(struct tty *t, const char *s)
{
	const char *p, *nl;

	add_safe(&t->pending, s);
	p = sb_str(&t->pending);
	while ((nl = strchr(p, '\n'))) {
		emit_line(t, p, (size_t)(nl - p));
		p = nl + 1;
	}
	if (p != sb_str(&t->pending)) {
		char *rest = xstrdup(p);

		sb_reset(&t->pending);
		sb_puts(&t->pending, rest);
		free(rest);
	}
	fflush(t->out);
}

void tty_set_mask(struct tty *t, tty_mask_fn mask, void *ctx)
{
	t->mask = mask;
	t->mask_ctx = ctx;
}

void tty_printf(struct tty *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	tty_puts(t, sb_str(&sb));
	sb_release(&sb);
}

int tty_rows(const struct tty *t, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	int rows = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		rows += tty_wrap(p, n, t->width, &sb);
		sb_reset(&sb);
		p += n + (nl != NULL);
	}
	sb_release(&sb);
	return rows;
}

void tty_end_skip(struct tty *t)
{
	t->skip = false;
}

void tty_keep(struct tty *t, int rows)
{
	if (!t->skip && !t->no_input && t->rows &&
	    t->rows + rows > t->height - 1)
		more(t);
}

int tty_read(struct tty *t, const char *prompt, char *buf, size_t size)
{
	size_t n;

	if (t->pending.len)
		tty_puts(t, "\n");
	t->skip = false;
	tty_keep(t, 1);
	t->skip = false;
	if (t->mask) {
		char *masked = t->mask(t->mask_ctx, prompt, strlen(prompt));

		fputs(masked, t->out);
		free(masked);
	} else {
		fputs(prompt, t->out);
	}
	fflush(t->out);
	t->rows = 0;
	window_size(t);
	if (!fgets(buf, (int)size, t->in)) {
		fputc('\n', t->out);
		fflush(t->out);
		t->no_input = true;
		buf[0] = '\0';
		return -1;
	}
	n = strlen(buf);
	if (n && buf[n - 1] == '\n') {
		buf[--n] = '\0';
	} else {
		for (int c = 0; c != '\n' && c != EOF;)
			c = fgetc(t->in);
	}
	while (n &&
	       (buf[n - 1] == ' ' || buf[n - 1] == '\r' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	if (n && buf[0] == ' ') {
		size_t k = strspn(buf, " \t");

		memmove(buf, buf + k, n - k + 1);
		n -= k;
	}
	return (int)n;
}

/* ---- progress ---- */

static long elapsed_ms(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - since->tv_sec) * 1000 +
	       (now.tv_nsec - since->tv_nsec) / 1000000;
}

/* Draws the progress line; t->lock is held.  No allocation here: the
 * collectors fork while this runs on the spinner thread. */
static void draw(struct tty *t)
{
	static const char spin[] = "|/-\\";
	char line[sizeof(t->step) + 64];
	long ms = elapsed_ms(&t->since);
	int room = t->width - 14, col = 0, w;
	size_t len;

	len = (size_t)snprintf(line, sizeof(line), "\r\033[K  %c ",
			       ms >= SLOW_STEP_MS ? spin[t->tick % 4] : ' ');
	for (size_t i = 0, n = strlen(t->step); i < n && col < room;) {
		size_t cl = char_len(t->step + i, n - i, &w);

		if (len + cl < sizeof(line) - 32 &&
		    ((unsigned char)t->step[i] >= ' ' && t->step[i] != 0x7f)) {
			memcpy(line + len, t->step + i, cl);
			len += cl;
		}
		col += w;
		i += cl;
	}
	line[len] = '\0';
	if (ms >= SLOW_STEP_MS)
		snprintf(line + len, sizeof(line) - len, " (%ld s)", ms / 1000);
	put_raw(t->fd, line);
}

static void *spinner(void *arg)
{
	struct tty *t = arg;

	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SPIN_TICK_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&t->wake, &t->lock, &until);
		if (t->stop || !t->step[0])
			continue;
		t->tick++;
		if (elapsed_ms(&t->since) >= SLOW_STEP_MS)
			draw(t);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

void tty_progress_begin(struct tty *t)
{
	if (t->spinning)
		return;
	if (t->pending.len)
		tty_puts(t, "\n");
	fflush(t->out);
	t->stop = false;
	t->step[0] = '\0';
	sig_progress = 1;
	t->spinning = !pthread_create(&t->spinner, NULL, spinner, t);
}

void tty_progress(void *arg, const char *step)
{
	struct tty *t = arg;

	pthread_mutex_lock(&t->lock);
	snprintf(t->step, sizeof(t->step), "%s", step);
	clock_gettime(CLOCK_MONOTONIC, &t->since);
	draw(t);
	pthread_mutex_unlock(&t->lock);
}

void tty_progress_end(struct tty *t)
{
	if (!sig_progress)
		return;
	if (t->spinning) {
		pthread_mutex_lock(&t->lock);
		t->stop = true;
		pthread_cond_signal(&t->wake);
		pthread_mutex_unlock(&t->lock);
		pthread_join(t->spinner, NULL);
		t->spinning = false;
	}
	put_raw(t->fd, "\r\033[K");
	sig_progress = 0;
}
