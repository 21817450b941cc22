/*
 * The simulated machine around the cache model: physical RAM, the direct
 * map, the pkmap and fixmap windows and their page tables, and the ways
 * the machine stops (machine_halt, data aborts).
 *
 * RAM is a memfd: the model's view of physical memory as the chips hold
 * it. The direct map at PAGE_OFFSET is cached like every other mapping:
 * its lowmem pages are windows of the model (model.c), its highmem part is
 * PROT_NONE like the unmapped hole on target.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <lokal/platform.h>
#include <lokal/sched.h>
#include <lokal/preempt.h>
#include <lokal/highmem-internal.h>
#include <asm/sim.h>
#include <asm/irqflags.h>

_Static_assert(PAGE_SIZE == 4096, "the sim maps one host page per ARM small page");

uintptr_t sim_page_offset;
unsigned long sim_pkmap_base;
unsigned long sim_fixaddr_start;
unsigned long sim_fixaddr_top;
uint8_t *sim_ram;
bool sim_irqs_off;

/* Walker-visible layout is per 32-byte line, so keep the tables line aligned. */
pte_t sim_pkmap_pt[LAST_PKMAP] __attribute__((aligned(32)));
pte_t sim_fixmap_pt[SIM_FIXMAP_SLOTS] __attribute__((aligned(32)));
pte_t *pkmap_page_table = sim_pkmap_pt;

int sim_ram_fd = -1;

static void die(const char *what)
{
	perror(what);
	abort();
}

static void sim_setup_once(void)
{
	size_t win_pages = LAST_PKMAP + 1 + KM_MAX_IDX + 1;
	uint8_t *win, *direct;

	if (sim_ram)
		return;
	sim_ram_fd = memfd_create("lokal-ram", 0);
	if (sim_ram_fd < 0 || ftruncate(sim_ram_fd, (off_t)RAM_SIZE) < 0)
		die("sim: RAM memfd");
	sim_ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, sim_ram_fd, 0);
	/* Lowmem pages are cached windows of the model; highmem's range stays a hole. */
	direct = mmap(NULL, RAM_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sim_ram == MAP_FAILED || direct == MAP_FAILED)
		die("sim: RAM mmap");
	sim_page_offset = (uintptr_t)direct;

	/* [pkmap slots][gap][fixmap slot KM_MAX_IDX-1 .. slot 0][gap] */
	win = mmap(NULL, win_pages * PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (win == MAP_FAILED)
		die("sim: window mmap");
	sim_pkmap_base = (unsigned long)win;
	sim_fixaddr_start = (unsigned long)win + (LAST_PKMAP + 1) * PAGE_SIZE;
	sim_fixaddr_top = sim_fixaddr_start + (KM_MAX_IDX - 1) * PAGE_SIZE;
	sim_model_setup();
}

void sim_reset(void)
{
	sim_setup_once();
	/* Fresh, zeroed RAM without touching 128 MiB by hand. */
	if (fallocate(sim_ram_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)RAM_SIZE) < 0)
		die("sim: clearing RAM");
	memset(sim_pkmap_pt, 0, sizeof(sim_pkmap_pt));
	memset(sim_fixmap_pt, 0, sizeof(sim_fixmap_pt));
	sim_irqs_off = false;
	sim_model_reset();
	sim_install_fault_handler();
}

uint8_t *sim_phys(phys_addr_t pa)
{
	if (pa >= RAM_SIZE)
		panic("sim_phys(0x%08lx): beyond RAM", (unsigned long)pa);
	return sim_ram + pa;
}

pte_t *virt_to_kpte(unsigned long vaddr)
{
	if (vaddr >= PKMAP_BASE && vaddr < PKMAP_BASE + LAST_PKMAP * PAGE_SIZE)
		return &sim_pkmap_pt[(vaddr - PKMAP_BASE) >> PAGE_SHIFT];
	if (vaddr >= FIXADDR_START && vaddr < FIXADDR_TOP + PAGE_SIZE)
		return &sim_fixmap_pt[__virt_to_fix(vaddr)];
	panic("virt_to_kpte: 0x%08lx is neither a pkmap nor a fixmap address", vaddr);
}

/* ---- stopping the machine ------------------------------------------------- */

static sigjmp_buf halt_env;
static volatile bool halt_armed;
static volatile int halt_status;

void machine_halt(int status)
{
	fflush(stdout);
	if (halt_armed) {
		halt_armed = false;
		halt_status = status;
		siglongjmp(halt_env, 1);
	}
	fprintf(stderr, "sim: unexpected machine_halt(%d)\n", status);
	abort();
}

void sim_data_abort(unsigned long addr, bool write)
{
	char buf[96];
	const char *why = kmap_describe_fault(addr, buf, sizeof(buf));

	printf("\n*** data abort (%s) in SVC mode, thread '%s'\n  FAR 0x%08lx%s%s%s\n",
	       write ? "write" : "read", current ? current->name : "?", addr,
	       why ? " (" : "", why ? why : "", why ? ")" : "");
	machine_halt(SIM_FAULT_EXIT_STATUS);
}

#if defined(__SANITIZE_ADDRESS__)
# define SIM_ASAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define SIM_ASAN 1
# endif
#endif
#ifdef SIM_ASAN
# include <sanitizer/asan_interface.h>
#endif

/*
 * After a halt jumped out of fn on a thread's own (heap) stack, ASan still
 * has fn's frames poisoned below us and would report the next calls that
 * reuse them; it clears them itself only on the process stack.
 */
static void forget_abandoned_frames(void)
{
#ifdef SIM_ASAN
	char *lo = current ? (char *)current->stack : NULL, *here = __builtin_frame_address(0);

	if (lo && here > lo && here < lo + current->stack_size)
		__asan_unpoison_memory_region(lo, (size_t)(here - lo));
#endif
}

int sim_expect_halt(void (*fn)(void *), void *arg, char *out, size_t outlen)
{
	FILE *cap = tmpfile();
	int saved = dup(STDOUT_FILENO);
	volatile int status = -1;
	bool irqs_off = sim_irqs_off;
	unsigned int preempt = __preempt_count;
	size_t n;

	if (!cap || saved < 0)
		die("sim_expect_halt: capture");
	sim_install_fault_handler();
	fflush(stdout);
	dup2(fileno(cap), STDOUT_FILENO);
	if (sigsetjmp(halt_env, 1) == 0) {
		halt_armed = true;
		fn(arg);
		halt_armed = false;
	} else {
		/* The halt ended fn; the caller carries on with its own context. */
		status = halt_status;
		sim_irqs_off = irqs_off;
		__preempt_count = preempt;
		forget_abandoned_frames();
	}
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(cap);
	n = fread(out, 1, outlen ? outlen - 1 : 0, cap);
	if (outlen)
		out[n] = '\0';
	fclose(cap);
	/* Echo it so a failing test's log still shows the diagnostic. */
	printf("%s", out);
	return status;
}
