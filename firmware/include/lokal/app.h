/* The one function every image's application provides. */
#ifndef LOKAL_APP_H
#define LOKAL_APP_H

/*
 * Runs in the "main" thread once the kernel is up (MMU, caches, tick,
 * scheduler). Its return value becomes the exit status of the run.
 */
int app_main(void);

/* Priority of the main thread: room above for urgent threads, below for workers. */
#define PRIO_MAIN 16

#endif
