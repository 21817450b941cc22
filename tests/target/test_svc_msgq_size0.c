/* A message queue with messages of size 0 must be refused at creation. */
#include <lokal/msgqueue.h>
#include "ktest.h"

static struct msgqueue q;
static char ring[64];

int app_main(void)
{
	msgq_init(&q, ring, 64, 0);
	return 0;
}
