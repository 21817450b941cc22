/* A semaphore never initialised must be diagnosed at its first use, naming thread and address. */
#include <lokal/mutex.h>
#include "ktest.h"

static struct semaphore never;

int app_main(void)
{
	up(&never);
	return 0;
}
