/*
 * Line editing on a dumb serial terminal: printable ASCII is kept and
 * echoed, backspace/DEL erase, Ctrl-U erases the line, Ctrl-C abandons it,
 * up/down arrows (ESC [ A / ESC [ B, or ESC O A/B) walk the last
 * SHELL_HISTORY lines. Every other byte (controls, NUL, 8-bit, unknown
 * escape sequences) is dropped. A line longer than the buffer is refused
 * whole at Enter; nothing is written past the buffer.
 */
#include <stdio.h>
#include <string.h>
#include "shell.h"

#define KEY_BS          0x08
#define KEY_CTRL_U      0x15
#define KEY_ESC         0x1b
#define KEY_DEL         0x7f

static char history[SHELL_HISTORY][SHELL_LINE_MAX];
static unsigned int hist_count;         /* lines ever stored; newest at (count-1) % N */

struct editor {
	char *buf;
	unsigned int len;
	bool too_long;
	unsigned int hist_back;         /* 0: the line being typed; n: n-th newest */
	char draft[SHELL_LINE_MAX];     /* the typed line while browsing history */
};

static void erase_chars(unsigned int n)
{
	while (n--)
		fputs("\b \b", stdout);
}

static void replace_line(struct editor *ed, const char *text)
{
	erase_chars(ed->len);
	ed->len = (unsigned int)strlen(text);
	memcpy(ed->buf, text, ed->len + 1);
	fputs(ed->buf, stdout);
	ed->too_long = false;
}

static void history_add(const char *line)
{
	if (!line[0])
		return;
	if (hist_count && !strcmp(history[(hist_count - 1) % SHELL_HISTORY], line))
		return;
	strcpy(history[hist_count % SHELL_HISTORY], line);
	hist_count++;
}

static void history_move(struct editor *ed, int dir)
{
	unsigned int avail = hist_count < SHELL_HISTORY ? hist_count : SHELL_HISTORY;
	unsigned int back = ed->hist_back;

	if (dir > 0 && back < avail)
		back++;
	else if (dir < 0 && back > 0)
		back--;
	else
		return;
	if (ed->hist_back == 0)
		memcpy(ed->draft, ed->buf, ed->len + 1);
	ed->hist_back = back;
	replace_line(ed, back ? history[(hist_count - back) % SHELL_HISTORY] : ed->draft);
}

/* After ESC: '[' or 'O', then parameters, then a final byte 0x40..0x7e. */
static void escape_sequence(struct editor *ed)
{
	int c = shell_getc();

	if (c != '[' && c != 'O')
		return;
	do
		c = shell_getc();
	while (c >= 0x20 && c < 0x40);          /* parameter and intermediate bytes */
	if (c == 'A')
		history_move(ed, +1);
	else if (c == 'B')
		history_move(ed, -1);
}

int shell_readline(char *buf)
{
	struct editor ed = { .buf = buf };
	static bool last_cr;
	int c;

	buf[0] = '\0';
	for (;;) {
		c = shell_getc();
		if (c == '\n' && last_cr) {     /* CR LF is one Enter */
			last_cr = false;
			continue;
		}
		last_cr = c == '\r';
		if (c == '\r' || c == '\n')
			break;
		if (c == KEY_CTRL_C) {
			fputs("^C\n", stdout);
			return -1;
		}
		if (c == KEY_BS || c == KEY_DEL) {
			if (ed.len) {
				buf[--ed.len] = '\0';
				erase_chars(1);
			}
		} else if (c == KEY_CTRL_U) {
			erase_chars(ed.len);
			ed.len = 0;
			buf[0] = '\0';
			ed.too_long = false;
		} else if (c == KEY_ESC) {
			escape_sequence(&ed);
		} else if (c >= 0x20 && c < 0x7f) {
			if (ed.len + 1 < SHELL_LINE_MAX) {
				buf[ed.len++] = (char)c;
				buf[ed.len] = '\0';
				putchar(c);
			} else {
				ed.too_long = true;     /* keep reading to the end of the line */
			}
		}
	}
	putchar('\n');
	if (ed.too_long) {
		printf("line too long (at most %d characters): ignored\n", SHELL_LINE_MAX - 1);
		return -1;
	}
	history_add(buf);
	return (int)ed.len;
}
