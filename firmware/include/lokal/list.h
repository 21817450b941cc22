/* Intrusive doubly linked circular lists (the Linux shape, minimal). */
#ifndef LOKAL_LIST_H
#define LOKAL_LIST_H

#include <stddef.h>
#include <stdbool.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD_DECL(name) struct list_head name = LIST_HEAD_INIT(name)

/* An empty list: l points at itself both ways. */
static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l->prev = l;
}

static inline void __list_link(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Insert n at the tail of head (FIFO order). */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_link(n, head->prev, head);
}

/* Insert n right after head (at the front). */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_link(n, head, head->next);
}

/* Unlink n and leave its pointers as they were: for a node nobody reads until it is linked again. */
static inline void __list_del_entry(struct list_head *n)
{
	n->next->prev = n->prev;
	n->prev->next = n->next;
}

/*
 * Unlink head's first entry (head not empty) and return it, its pointers
 * left as they were. Its prev is head, so only its next is read: one load
 * fewer than __list_del_entry().
 */
static inline struct list_head *__list_del_first(struct list_head *head)
{
	struct list_head *first = head->next, *second = first->next;

	head->next = second;
	second->prev = head;
	return first;
}

/* Unlink n and leave it an empty list, so list_empty(n) says it is off. */
static inline void list_del_init(struct list_head *n)
{
	__list_del_entry(n);
	INIT_LIST_HEAD(n);
}

/* True when head has no entry. */
static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_safe(pos, n, head) \
	for (pos = (head)->next, n = pos->next; pos != (head); pos = n, n = pos->next)

#endif
