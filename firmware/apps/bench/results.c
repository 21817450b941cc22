/* Collected figures: printed as a table and as a JSON block for make bench. */
#include <stdio.h>
#include <string.h>
#include "bench.h"

#define MAX_RESULTS 160

struct result {
	const char *group;
	char name[64];
	uint64_t ns_x100;
	const char *unit;
};

static struct result results[MAX_RESULTS];
static unsigned int nr_results;

void bench_result_unit(const char *group, const char *name, uint64_t ns_x100, const char *unit)
{
	printf("  %-12s %-40s %10lu.%02lu %s\n", group, name,
	       (unsigned long)(ns_x100 / 100), (unsigned long)(ns_x100 % 100), unit);
	if (nr_results == MAX_RESULTS)          /* the shell's repeated runs: table full */
		return;
	results[nr_results].group = group;
	strncpy(results[nr_results].name, name, sizeof(results[0].name) - 1);
	results[nr_results].ns_x100 = ns_x100;
	results[nr_results].unit = unit;
	nr_results++;
}

void bench_report(void)
{
	printf("--- lokal-bench-json begin ---\n{\n  \"results\": [\n");
	for (unsigned int i = 0; i < nr_results; i++)
		printf("    {\"group\": \"%s\", \"name\": \"%s\", \"%s\": %lu.%02lu}%s\n",
		       results[i].group, results[i].name, results[i].unit,
		       (unsigned long)(results[i].ns_x100 / 100),
		       (unsigned long)(results[i].ns_x100 % 100),
		       i + 1 < nr_results ? "," : "");
	printf("  ]\n}\n--- lokal-bench-json end ---\n");
}
