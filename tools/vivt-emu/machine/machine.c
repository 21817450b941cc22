/*
 * The machine core: the boards linked in, emulated time and its events,
 * the device window, the CPU's interrupt input, and the run loop that stops
 * Unicorn only to take an interrupt or end the run.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vemu.h"

/* Devices' events firing this long with no IRQ raised: the CPU sleeps for good. */
#define SLEEP_MAX_NS	3600000000000ull
/* A wait for host input looks at signals this often (a signal also ends it at once). */
#define INPUT_WAIT_MS	100

/* The linker's bounds of the section MACHINE_REGISTER fills. */
extern const struct machine_desc *const __start_vemu_machines[];
extern const struct machine_desc *const __stop_vemu_machines[];

const struct machine_desc *machine_find(const char *name)
{
	for (const struct machine_desc *const *m = __start_vemu_machines; m < __stop_vemu_machines; m++)
		if (!strcmp((*m)->name, name))
			return *m;
	return NULL;
}

void machine_print_names(FILE *f)
{
	for (const struct machine_desc *const *m = __start_vemu_machines; m < __stop_vemu_machines; m++)
		fprintf(f, "%s%s", m == __start_vemu_machines ? "" : ", ", (*m)->name);
}

void vemu_add_device(struct vemu *vm, struct device *d)
{
	if (vm->ndevs == VEMU_MAX_DEVS) {
		fprintf(stderr, "vivt-emu: too many devices\n");
		exit(1);
	}
	d->vm = vm;
	vm->devs[vm->ndevs++] = d;
}

void *device_new(struct vemu *vm, size_t size, size_t dev_offset, const struct device *fields)
{
	char *state = calloc(1, size);
	struct device *d;

	if (!state)
		abort();
	d = (struct device *)(state + dev_offset);
	*d = *fields;
	d->priv = state;
	vemu_add_device(vm, d);
	return state;
}

static void recompute_next(struct vemu *vm)
{
	uint64_t next = UINT64_MAX;

	for (unsigned i = 0; i < vm->nevents; i++)
		if (vm->events[i]->armed && vm->events[i]->when < next)
			next = vm->events[i]->when;
	vm->next_event = next;
}

void vemu_event_add(struct vemu *vm, struct event *e)
{
	if (vm->nevents == VEMU_MAX_EVENTS) {
		fprintf(stderr, "vivt-emu: too many timed events\n");
		exit(1);
	}
	e->armed = false;
	vm->events[vm->nevents++] = e;
}

void vemu_event_arm(struct vemu *vm, struct event *e, uint64_t when)
{
	e->when = when;
	e->armed = true;
	if (when < vm->next_event)
		vm->next_event = when;
}

void vemu_event_cancel(struct vemu *vm, struct event *e)
{
	e->armed = false;
	recompute_next(vm);
}

/* Fires every event that is due, in time order. */
void vemu_run_events(struct vemu *vm)
{
	for (;;) {
		struct event *first = NULL;

		for (unsigned i = 0; i < vm->nevents; i++) {
			struct event *e = vm->events[i];

			if (e->armed && e->when <= vm->now && (!first || e->when < first->when))
				first = e;
		}
		if (!first)
			break;
		first->armed = false;
		first->fire(first);
	}
	recompute_next(vm);
}

static uint64_t wall_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

enum sleep_end vemu_sleep(struct vemu *vm, uint32_t pc)
{
	uint64_t start = vm->now;

	for (;;) {
		struct pollfd fds[VEMU_MAX_EVENTS];
		unsigned nfds = 0;
		bool device = false;

		if (vm->stop != STOP_NONE || runctl_signalled(vm))
			return SLEEP_STOPPED;
		if (vm->irq_level)
			return SLEEP_WOKEN;
		if (vm->opt.max_insns && vm->now > vm->opt.max_insns) {
			vemu_fail(vm, "no exit after %llu ns of emulated time (pc 0x%08x, in WFI)",
				  (unsigned long long)vm->now, pc);
			return SLEEP_STOPPED;
		}
		for (unsigned i = 0; i < vm->nevents; i++) {
			struct event *e = vm->events[i];
			int fd;

			if (!e->armed)
				continue;
			if (!e->input_fd)
				device = true;
			else if ((fd = e->input_fd(e)) >= 0)
				fds[nfds++] = (struct pollfd){ .fd = fd, .events = POLLIN };
		}
		if (!device && !nfds)
			return SLEEP_FOREVER;
		if (device) {
			/* A timer whose interrupt is off fires for ever; input could still come. */
			if (!nfds && vm->now - start > SLEEP_MAX_NS)
				return SLEEP_UNWOKEN;
			if (vm->next_event > vm->now)
				vm->now = vm->next_event;
		} else {
			/* Only a byte of input can wake the CPU: wait for one in real
			 * time (a signal ends the wait early), the board's clock with it. */
			uint64_t t0 = wall_ns();

			poll(fds, nfds, INPUT_WAIT_MS);
			vm->now += wall_ns() - t0;
			if (vm->next_event > vm->now)
				vm->now = vm->next_event;
		}
		vemu_run_events(vm);
	}
}

static void console_flush(struct event *e)
{
	(void)e;
	fflush(stdout);
}

void vemu_console_putc(struct vemu *vm, int c)
{
	fputc(c, stdout);
	stats_lines_putc(vm, c);
	/* stdout is line-buffered: whoever waits for a prompt (a person at a
	 * pipe, a script) would otherwise see it only at exit. */
	if (c == '\n' || vm->console_flush.armed)
		return;
	if (!vm->console_flush.fire) {
		vm->console_flush.fire = console_flush;
		vemu_event_add(vm, &vm->console_flush);
	}
	vemu_event_arm(vm, &vm->console_flush, vm->now + 1000000);
}

int vemu_console_input(const char *input)
{
	int fd = input ? open(input, O_RDONLY) : STDIN_FILENO;

	if (fd < 0) {
		fprintf(stderr, "vivt-emu: cannot open UART input %s\n", input);
		exit(1);
	}
	return fd;
}

void vemu_set_irq(struct vemu *vm, bool level)
{
	vm->irq_level = level;
}

/* xorshift32: reproducible from --seed. */
uint32_t vemu_random(struct vemu *vm)
{
	uint32_t x = vm->rng ? vm->rng : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	vm->rng = x;
	return x;
}

void vemu_fail(struct vemu *vm, const char *fmt, ...)
{
	va_list ap;

	if (vm->stop == STOP_ERROR)
		return;
	fflush(stdout);
	fprintf(vm->out, "vivt-emu: error: ");
	va_start(ap, fmt);
	vfprintf(vm->out, fmt, ap);
	va_end(ap);
	fprintf(vm->out, "\n");
	vm->stop = STOP_ERROR;
	vm->exit_status = 1;
	uc_emu_stop(vm->uc);
}

void vemu_exit(struct vemu *vm, int status)
{
	vm->stop = STOP_EXIT;
	vm->exit_status = status;
	uc_emu_stop(vm->uc);
}

static struct device *find_device(struct vemu *vm, uint32_t pa)
{
	for (unsigned i = 0; i < vm->ndevs; i++) {
		struct device *d = vm->devs[i];

		if (pa >= d->base && pa - d->base < d->size)
			return d;
	}
	return NULL;
}

static uint32_t dev_read(struct vemu *vm, uint32_t pa, unsigned size)
{
	struct device *d = find_device(vm, pa);
	uint32_t val = 0;

	if (!d)
		vemu_fail(vm, "read of %u bytes at 0x%08x: no device there (pc near 0x%08x)",
			  size, pa, vm->block_pc);
	else if (!d->read(d, pa - d->base, size, &val))
		vemu_fail(vm, "read of %u bytes at 0x%08x: %s register +0x%x is not modelled (pc near 0x%08x)",
			  size, pa, d->name, pa - d->base, vm->block_pc);
	return val;
}

static void dev_write(struct vemu *vm, uint32_t pa, unsigned size, uint32_t value)
{
	struct device *d = find_device(vm, pa);

	if (!d)
		vemu_fail(vm, "write of 0x%x (%u bytes) at 0x%08x: no device there (pc near 0x%08x)",
			  value, size, pa, vm->block_pc);
	else if (!d->write(d, pa - d->base, size, value))
		vemu_fail(vm, "write of 0x%x (%u bytes) at 0x%08x: %s register +0x%x is not modelled (pc near 0x%08x)",
			  value, size, pa, d->name, pa - d->base, vm->block_pc);
}

/* One device window as Unicorn calls back into it. */
struct mmio_window {
	struct vemu *vm;
	uint32_t base;
};

static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *user)
{
	struct mmio_window *w = user;

	(void)uc;
	return dev_read(w->vm, w->base + (uint32_t)offset, size);
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *user)
{
	struct mmio_window *w = user;

	(void)uc;
	dev_write(w->vm, w->base + (uint32_t)offset, size, (uint32_t)value);
}

static uc_err map_window(struct vemu *vm, uint32_t base, uint32_t size)
{
	struct mmio_window *w = calloc(1, sizeof(*w));

	if (!w)
		abort();
	*w = (struct mmio_window){ vm, base };
	return uc_mmio_map(vm->uc, base, size, mmio_read, w, mmio_write, w);
}

void vemu_mmio_init(struct vemu *vm)
{
	uc_err err = map_window(vm, vm->mach->mmio_base, vm->mach->mmio_size);

	if (err == UC_ERR_OK && vm->mach->mmio2_size)
		err = map_window(vm, vm->mach->mmio2_base, vm->mach->mmio2_size);
	if (err != UC_ERR_OK) {
		fprintf(stderr, "vivt-emu: cannot map the device window: %s\n", uc_strerror(err));
		exit(1);
	}
}

/*
 * Unicorn runs until a hook asks it to stop: an interrupt to take (the
 * block hook saw nIRQ with I clear), an exit, an error.  Stopping and
 * starting again at the block hook's own address is what keeps the
 * registers right (a PC read after uc_emu_stop can be stale).
 */
int vemu_run(struct vemu *vm)
{
	uint32_t pc = vm->resume_pc;
	uint64_t count = 0;

	for (;;) {
		uint32_t cpsr = cpu_reg(vm, UC_ARM_REG_CPSR);
		uint64_t insns0 = vm->insns, now0 = vm->now;
		uc_err err;

		vm->stop = STOP_NONE;
		vm->counting = count != 0;
		err = uc_emu_start(vm->uc, pc | ((cpsr >> 5) & 1), 0xffffffffu, 0, count);
		vm->counting = false;
		if (vm->stop == STOP_EXIT || vm->stop == STOP_ERROR)
			return vm->exit_status;
		if (err != UC_ERR_OK) {
			fflush(stdout);
			fprintf(vm->out, "vivt-emu: error: the CPU stopped: %s (pc 0x%08x, block 0x%08x)\n",
				uc_strerror(err), cpu_reg(vm, UC_ARM_REG_PC), vm->block_pc);
			return 1;
		}
		if (count && vm->stop == STOP_NONE) {
			/* Unicorn ran the count out: the limit, to the instruction (the
			 * block hook had counted the whole block). */
			vm->insns = insns0 + count;
			vm->now = now0 + count;
			cpu_insn_limit_stop(vm, cpu_reg(vm, UC_ARM_REG_PC));
			return vm->exit_status;
		}
		count = 0;
		switch (vm->stop) {
		case STOP_COUNT:
			pc = vm->resume_pc;
			count = vm->count_left;
			/* The block as translated before has no call to Unicorn's
			 * counting hook: translate it again (flushing all code would
			 * take seconds). */
			uc_ctl_remove_cache(vm->uc, pc, (uint64_t)pc + vm->block_size);
			break;
		case STOP_IRQ:
			cpu_take_irq(vm, vm->resume_pc);
			pc = cpu_reg(vm, UC_ARM_REG_PC);
			break;
		case STOP_RESUME:
			pc = vm->resume_pc;
			break;
		case STOP_SWEEP_ARRIVAL:
			pc = sweep_cpu_arrive(vm);
			if (vm->stop == STOP_ERROR)
				return vm->exit_status;
			break;
		case STOP_SWEEP_POINT:
			pc = sweep_cpu_land(vm);
			if (vm->stop == STOP_ERROR)
				return vm->exit_status;
			break;
		default:
			fflush(stdout);
			fprintf(vm->out, "vivt-emu: error: the CPU stopped without a reason at pc 0x%08x (block 0x%08x)\n",
				cpu_reg(vm, UC_ARM_REG_PC), vm->block_pc);
			return 1;
		}
	}
}
