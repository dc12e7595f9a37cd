/**
 * @file progress.h
 * How far a long call has come, for a caller that shows it (the `lanes`
 * command's progress line). The library only stores into it: a phase name
 * and a count of units done out of a total (0: not known). The caller may
 * read it from another thread at any time; the fields are atomic.
 */
#ifndef LANES_PROGRESS_H
#define LANES_PROGRESS_H

#include <stdatomic.h>
#include <stdint.h>

struct lanes_progress {
	_Atomic(const char *) phase; /**< a static string: "routing", "credit loops", ... */
	_Atomic uint64_t done;       /**< units of the phase done */
	_Atomic uint64_t total;      /**< units in the phase; 0 when not known */
};

/** A new phase of total units (0: unknown). p may be NULL. */
static inline void lanes_progress_phase(struct lanes_progress *p, const char *phase,
					uint64_t total)
{
	if (!p)
		return;
	atomic_store_explicit(&p->total, total, memory_order_relaxed);
	atomic_store_explicit(&p->done, 0, memory_order_relaxed);
	atomic_store_explicit(&p->phase, phase, memory_order_release);
}

/** n more units done. p may be NULL. */
static inline void lanes_progress_add(struct lanes_progress *p, uint64_t n)
{
	if (p)
		atomic_fetch_add_explicit(&p->done, n, memory_order_relaxed);
}

#endif
