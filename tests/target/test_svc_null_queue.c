/* A NULL message queue must be diagnosed, naming the thread. */
#include <lokal/msgqueue.h>
#include "ktest.h"

int app_main(void)
{
	char msg[16] = "";

	return msgq_send((struct msgqueue *)0, msg, 0);
}
