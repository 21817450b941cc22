/* Unlocking a mutex one does not own must be diagnosed. */
#include <stdio.h>
#include <lokal/mutex.h>
#include "ktest.h"

static struct mutex m = MUTEX_INIT(m);

int app_main(void)
{
	mutex_unlock(&m);
	printf("unlocked a free mutex without a diagnostic!\n");
	return 0;
}
