/*
 * Fatal exceptions: say what happened, where, and in which thread, then
 * end the run with FAULT_EXIT_STATUS.
 */
#include <stdio.h>
#include <lokal/sched.h>
#include <lokal/platform.h>
#include <asm/ptrace.h>
#include <asm/cp15.h>
#include <asm/setup.h>
#include <lokal/highmem-internal.h>

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

void arm_fatal_exception(struct pt_regs *regs, int kind)
{
	unsigned int i;

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
