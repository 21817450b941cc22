/*
 * Built only while the memory-system model (memsys.c and friends) is not in
 * the tree: the machine then runs with --no-model, and asking for the
 * model fails loudly instead of checking nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include "memsys.h"

struct memsys *ms_new(const struct ms_config *cfg)
{
	(void)cfg;
	fprintf(stderr, "vivt-emu: built without the memory-system model (tools/vivt-emu/memsys.c is missing); use --no-model\n");
	return NULL;
}

static void absent(void)
{
	fprintf(stderr, "vivt-emu: memory-system model called but not built\n");
	abort();
}

void ms_free(struct memsys *ms) { (void)ms; }
void ms_load(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc) { (void)ms; (void)va; (void)size; (void)pc; absent(); }
void ms_store(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc) { (void)ms; (void)va; (void)size; (void)pc; absent(); }
void ms_fetch(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc) { (void)ms; (void)va; (void)size; (void)pc; absent(); }
void ms_cp15_write(struct memsys *ms, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2, uint32_t val, uint32_t pc)
{
	(void)ms; (void)crn; (void)opc1; (void)crm; (void)opc2; (void)val; (void)pc;
	absent();
}
bool ms_cp15_read(struct memsys *ms, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2, uint32_t pc, uint32_t *val)
{
	(void)ms; (void)crn; (void)opc1; (void)crm; (void)opc2; (void)pc; (void)val;
	absent();
	return false;
}
void ms_get_stats(const struct memsys *ms, struct ms_stats *out) { (void)ms; (void)out; absent(); }
void ms_stats_reset(struct memsys *ms) { (void)ms; absent(); }
const char *ms_report_kind_name(enum ms_report_kind kind) { (void)kind; return "?"; }
