/*
 * A virtual logic analyzer: wire changes against emulated time, written as
 * a VCD with a 1 ns timescale (what tools/latency reads from sigrok).
 * Up to 8 wires, named by the machine: output pins, and interrupt lines
 * tapped on their way to the controller (vcd_irq_tap).
 */
#include <stdlib.h>
#include "hw/devices.h"

struct vcd {
	FILE *f;
	unsigned n;
	int level[8];
	uint64_t last;
	bool any;
};

struct vcd *vcd_open(const char *path, const char *const *names, unsigned n)
{
	struct vcd *v = calloc(1, sizeof(*v));

	if (!v || n > 8)
		abort();
	v->f = fopen(path, "w");
	if (!v->f) {
		fprintf(stderr, "vivt-emu: cannot write %s\n", path);
		exit(1);
	}
	v->n = n;
	fprintf(v->f, "$comment vivt-emu: marker pins (PL061 on versatilepb, PIOA on the AT91) against emulated time (1 instruction = 1 ns) $end\n");
	fprintf(v->f, "$timescale 1 ns $end\n$scope module vivt_emu $end\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(v->f, "$var wire 1 %c %s $end\n", '!' + i, names[i]);
	fprintf(v->f, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(v->f, "0%c\n", '!' + i);
	fprintf(v->f, "$end\n");
	return v;
}

void vcd_change(struct vcd *v, unsigned wire, int level, uint64_t ns)
{
	if (wire >= v->n || v->level[wire] == level)
		return;
	if (!v->any || ns != v->last)
		fprintf(v->f, "#%llu\n", (unsigned long long)ns);
	v->any = true;
	v->last = ns;
	v->level[wire] = level;
	fprintf(v->f, "%d%c\n", level, '!' + wire);
}

void vcd_close(struct vcd *v)
{
	fclose(v->f);
	free(v);
}

struct vcd_tap {
	struct vemu *vm;
	struct vcd *vcd;
	unsigned wire;
	struct irq_line to;
};

static void tap_set(void *ctl, unsigned line, bool level)
{
	struct vcd_tap *t = ctl;

	(void)line;
	vcd_change(t->vcd, t->wire, level, t->vm->now);
	irq_set(&t->to, level);
}

struct irq_line vcd_irq_tap(struct vemu *vm, struct vcd *v, unsigned wire, struct irq_line to)
{
	struct vcd_tap *t;

	if (!v)
		return to;
	t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	*t = (struct vcd_tap){ .vm = vm, .vcd = v, .wire = wire, .to = to };
	return (struct irq_line){ .set = tap_set, .ctl = t, .line = to.line };
}
