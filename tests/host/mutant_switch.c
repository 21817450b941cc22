/*
 * The run-time switch of check-mutants' mutant schemata: tests/host/mutants.sh
 * copies this file into its private tree, where every mutant of the tables is
 * planted at once as "if (!(lokal_mutant == ID)) CALL(...);". One build then
 * holds every mutant, and a run enables the one named by $LOKAL_MUTANT (none
 * when unset), so a mutant costs a test run, not a rebuild.
 */
#include <stdlib.h>

int lokal_mutant = -1;

__attribute__((constructor)) static void lokal_mutant_from_env(void)
{
	const char *id = getenv("LOKAL_MUTANT");

	if (id)
		lokal_mutant = atoi(id);
}
