/*
 * --stats-file FILE: the run's figures as "key=value" lines, for scripts.
 * The same figures are printed for people at the end of the run; a script
 * reads this file instead of parsing those sentences, so rewording them
 * breaks no test.
 *
 *   exit= insns= wall_s= cpu_s= emulated_s= irqs= reports=
 *   pipe=                   the pipeline's cycles beyond one per instruction
 *   irqs_in.<symbol>=       IRQs that landed inside that function (those with any)
 *   loads= stores= fetches= dfills= dwritebacks= devictions= ifills=
 *   cp15= walks= tlbmisses= drains=      (with the memory-system model)
 *   report.<kind>=          reports of each kind (spaces become '_',
 *                           parentheses go)
 *   irqsoff.thread_max= irqsoff.handler_max= irqsoff.boot=
 *                           the longest interrupts-off windows (instructions):
 *                           thread context, any handler, reset to first unmask
 *   irqsoff.<window>.insns= .cycles= .count= .opened= .closed=
 *                           each window the report prints: <window> is
 *                           thread, thread.kernel, thread.app (who opened
 *                           it), thread.rank2..5 (per opening site),
 *                           handler.<vector> (svc, data_abort, ...),
 *                           handler.line<N> (IRQ line N), preempt.kernel,
 *                           preempt.app; .opened and .closed are
 *                           "function+0xoffset (file:line)" (.opened may be
 *                           "the vector"); .count only where the report
 *                           counts windows
 */
#include <stdio.h>
#include "vemu.h"
#include "memsys/memsys.h"

static void put(FILE *f, const char *key, unsigned long long v)
{
	fprintf(f, "%s=%llu\n", key, v);
}

int stats_file_write(struct vemu *vm, const char *path, int status, double secs, double cpu)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "exit=%d\n", status);
	put(f, "insns", vm->insns);
	put(f, "pipe", vm->pipe_cycles);
	fprintf(f, "wall_s=%.3f\ncpu_s=%.3f\nemulated_s=%.6f\n", secs, cpu, (double)vm->now / 1e9);
	put(f, "irqs", vm->irqs_taken);
	put(f, "reports", vm->reports);
	for (size_t i = 0; vm->irqs_in && i < symbols_count(vm->syms); i++)
		if (vm->irqs_in[i])
			fprintf(f, "irqs_in.%s=%llu\n", symbols_name(vm->syms, i), (unsigned long long)vm->irqs_in[i]);
	if (vm->ms) {
		struct ms_stats st;

		ms_get_stats(vm->ms, &st);
		put(f, "loads", st.loads);
		put(f, "stores", st.stores);
		put(f, "fetches", st.fetches);
		put(f, "dfills", st.dline_fills);
		put(f, "dwritebacks", st.dwritebacks);
		put(f, "devictions", st.devictions);
		put(f, "ifills", st.iline_fills);
		put(f, "cp15", st.cp15_ops);
		put(f, "walks", st.walks);
		put(f, "tlbmisses", st.tlb_misses);
		put(f, "drains", st.wb_drains);
		for (int k = 0; k < MS_REPORT_KINDS; k++) {
			fputs("report.", f);
			for (const char *c = ms_report_kind_name((enum ms_report_kind)k); *c; c++)
				if (*c != '(' && *c != ')')
					fputc(*c == ' ' ? '_' : *c, f);
			fprintf(f, "=%llu\n", (unsigned long long)st.reports[k]);
		}
	}
	irqsoff_cpu_stats(vm, f);
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}
