/*
 * Minimal on-target test harness: one TAP line per case over the UART,
 * and the number of failures as the image's exit status.
 */
#ifndef KTEST_H
#define KTEST_H

#include <stdbool.h>

struct ktest {
	const char *name;
	void (*fn)(void);
};

/* Record a failed check in the running case (with file, line, text). */
void ktest_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define KT_ASSERT(cond)                                                     \
	do {                                                                \
		if (!(cond)) {                                              \
			ktest_fail(__FILE__, __LINE__, "%s", #cond);        \
			return;                                             \
		}                                                           \
	} while (0)

#define KT_ASSERT_EQ(a, b)                                                  \
	do {                                                                \
		unsigned long __a = (unsigned long)(a), __b = (unsigned long)(b); \
		if (__a != __b) {                                           \
			ktest_fail(__FILE__, __LINE__, "%s == %s (0x%lx != 0x%lx)", \
				   #a, #b, __a, __b);                       \
			return;                                             \
		}                                                           \
	} while (0)

/*
 * For an image whose case is typed on the console (tests.list's stdin
 * column): the first of the characters in cases that arrives within about
 * ten seconds, or -1.
 */
int ktest_pick_case(const char *cases);

/* Run every case, print "1..N" and "ok/not ok K - name"; returns failures. */
int ktest_run(const struct ktest *tests, int n);

#define KTEST_MAIN(...)                                                     \
	int app_main(void)                                                  \
	{                                                                   \
		static const struct ktest __t[] = { __VA_ARGS__ };         \
		return ktest_run(__t, (int)(sizeof(__t) / sizeof(__t[0]))); \
	}
#define KTEST(fn) { #fn, fn }

#endif
