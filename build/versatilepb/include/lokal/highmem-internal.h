struct thread;
void __kmap_local_sched_out(void);
void __kmap_local_sched_in(void);
void kmap_local_fork(struct thread *t);
