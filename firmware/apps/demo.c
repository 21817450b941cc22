/* The main demo (`make run`). */
#include <stdio.h>
#include <lokal/app.h>
#include <lokal/thread.h>

int app_main(void)
{
	printf("demo: hello from thread '%s'\n", current->name);
	thread_ps();
	return 0;
}
