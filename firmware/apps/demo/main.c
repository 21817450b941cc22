/* The demo image (`make run`): the demo, then the exit status. */
#include <lokal/app.h>
#include "demo.h"

int app_main(void)
{
	return demo_run();
}
