/*
 * Fatal exceptions: say what happened, where, and in which thread, then
 * end the run with FAULT_EXIT_STATUS.
 */
#include <stdio.h>
#include <lokal/bug.h>
#include <lokal/sched.h>
#include <lokal/platform.h>
#include <asm/ptrace.h>
#include <asm/cp15.h>
#include <asm/setup.h>
#include <lokal/highmem-internal.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/list.h>
#include <asm/memory.h>

void arm_fatal_exception(struct pt_regs *regs, int kind);

/* mm names the kmap slot (or guard page) behind a faulting address; an
 * image without mm gets no description. */
__attribute__((weak)) const char *kmap_describe_fault(unsigned long addr, char *buf, unsigned long len)
{
	(void)addr; (void)buf; (void)len;
	return NULL;
}

static const char *const kind_name[] = {
	"undefined instruction", "prefetch abort", "data abort",
	"unexpected SWI", "unexpected FIQ", "jump to the reset vector",
};

static const char *mode_name(uint32_t cpsr)
{
	switch (cpsr & MODE_MASK) {
	case MODE_USR: return "USR";
	case MODE_FIQ: return "FIQ";
	case MODE_IRQ: return "IRQ";
	case MODE_SVC: return "SVC";
	case MODE_ABT: return "ABT";
	case MODE_UND: return "UND";
	case MODE_SYS: return "SYS";
	default: return "???";
	}
}

static void describe_address(const char *what, unsigned long addr)
{
	char buf[96];
	const char *why = kmap_describe_fault(addr, buf, sizeof(buf));

	printf("  %s 0x%08lx", what, addr);
	if (why)
		printf(" (%s)", why);
	else if (addr < PAGE_SIZE)
		printf(" (NULL page)");
	else if (addr >= LOWMEM_END && addr < HIGHMEM_VA_END)
		printf(" (highmem has no permanent mapping: use kmap_local_page())");
	printf("\n");
}

extern char __stack_und_guard[], __stack_abt_guard[], __stack_irq_guard[], __stack_fiq_guard[],
	__stack_svc_guard[], __stack_svc_top[];

static bool in_guard(unsigned long addr, const void *stack)
{
	return addr >= (unsigned long)stack - PAGE_SIZE && addr < (unsigned long)stack;
}

/* The boot thread runs on the boot stack; every other on its own. */
static struct thread *thread_of_stack(unsigned long addr)
{
	struct list_head *pos;

	list_for_each(pos, &all_threads) {
		struct thread *t = list_entry(pos, struct thread, all);

		if (t->stack ? in_guard(addr, t->stack) : in_guard(addr, __stack_svc_guard + PAGE_SIZE))
			return t;
	}
	return NULL;
}

/* A fault on a stack's guard page: say whose stack overflowed. */
static void report_stack_overflow(unsigned long addr)
{
	static const struct { const char *mode; char *guard; } modes[] = {
		{ "UND", __stack_und_guard }, { "ABT", __stack_abt_guard },
		{ "IRQ", __stack_irq_guard }, { "FIQ", __stack_fiq_guard },
	};
	struct thread *t = thread_of_stack(addr);
	unsigned int i;

	if (t) {
		char *base = t->stack ? t->stack : __stack_svc_guard + PAGE_SIZE;
		size_t size = t->stack ? t->stack_size : (size_t)(__stack_svc_top - base);

		printf("\n*** stack overflow in thread '%s': guard page below its %u-byte stack at 0x%08lx%s\n",
		       t->name, (unsigned)size, (unsigned long)base, in_irq() ? " (in an interrupt handler)" : "");
		return;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (in_guard(addr, modes[i].guard + PAGE_SIZE)) {
			char *next = i + 1 < sizeof(modes) / sizeof(modes[0]) ? modes[i + 1].guard : __stack_svc_guard;

			printf("\n*** stack overflow in %s mode: guard page below its %u-byte stack at 0x%08lx\n",
			       modes[i].mode, (unsigned)(next - modes[i].guard - PAGE_SIZE),
			       (unsigned long)(modes[i].guard + PAGE_SIZE));
		}
}

void arm_fatal_exception(struct pt_regs *regs, int kind)
{
	unsigned int i;

	oops_in_progress++;     /* the report may come from an interrupt handler; the machine stops */
	if (kind == 2)
		report_stack_overflow(read_far());

	printf("\n*** %s in %s mode, thread '%s'\n",
	       kind < 6 ? kind_name[kind] : "exception", mode_name(regs->cpsr),
	       current ? current->name : "?");
	if (kind == 2) {
		uint32_t fsr = read_dfsr();
		printf("  DFSR 0x%08lx (status 0x%lx, domain %lu)\n", (unsigned long)fsr,
		       (unsigned long)(fsr & 0xf), (unsigned long)((fsr >> 4) & 0xf));
		describe_address("FAR", read_far());
	} else if (kind == 1) {
		printf("  IFSR 0x%08lx\n", (unsigned long)read_ifsr());
		describe_address("PC", regs->pc);
	}
	for (i = 0; i < 13; i++)
		printf("  r%-2u 0x%08lx%s", i, (unsigned long)regs->r[i], i % 4 == 3 ? "\n" : "");
	printf("\n  sp  0x%08lx  lr  0x%08lx  pc  0x%08lx  cpsr 0x%08lx\n",
	       (unsigned long)regs->sp, (unsigned long)regs->lr,
	       (unsigned long)regs->pc, (unsigned long)regs->cpsr);
	machine_halt(FAULT_EXIT_STATUS);
}
