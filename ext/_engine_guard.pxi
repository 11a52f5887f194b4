# One thread at a time in a compiled engine (session 22), included by _ck_search.pyx and
# _kc_engine.pyx: each defines BUSY_MESSAGE (its own wording) and imports EngineBusyError
# before including this file.  docs/decisions.md, "Threads".

from cpython.pythread cimport PyThread_get_thread_ident

cdef extern from *:
    """
    /* The thread inside an engine (0: none), taken with one compare-and-swap and dropped
       with one store (GCC/Clang atomic builtins, as _ck_search's table words): the check
       and the take are one step with or without a GIL, so on a free-threaded
       (no-GIL) Python two threads still cannot both pass.  A thread ident is never 0
       (pthread_self()). */
    static inline int crowns_owner_take(unsigned long* owner, unsigned long me) {
        unsigned long expected = 0;
        return __atomic_compare_exchange_n(owner, &expected, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    }
    static inline unsigned long crowns_owner_load(unsigned long* owner) {
        return __atomic_load_n(owner, __ATOMIC_ACQUIRE);
    }
    static inline void crowns_owner_drop(unsigned long* owner) {
        __atomic_store_n(owner, 0UL, __ATOMIC_RELEASE);
    }
    """
    int crowns_owner_take(unsigned long* owner, unsigned long me) nogil
    unsigned long crowns_owner_load(unsigned long* owner) nogil
    void crowns_owner_drop(unsigned long* owner) nogil


cdef class _OneThread:
    """Base of a compiled engine: a call from a second thread while one is inside raises
    EngineBusyError; the same thread may call back in (a signal handler during a search)."""

    # the thread inside (0: none; read and written atomically) and its calls in progress
    # (changed only by that thread, while it holds the engine)
    cdef unsigned long busy_owner
    cdef int busy_depth

    cdef int _enter(self) except -1:
        """Take the engine for the calling thread, or raise EngineBusyError if another
        thread is inside.  The take is an atomic compare-and-swap, so two threads cannot
        both pass, with the GIL or without one (a free-threaded build)."""
        cdef unsigned long me = PyThread_get_thread_ident()
        if crowns_owner_load(&self.busy_owner) == me:   # (only this thread sets it to me)
            self.busy_depth += 1
            return 0
        if not crowns_owner_take(&self.busy_owner, me):
            raise EngineBusyError(BUSY_MESSAGE)
        self.busy_depth = 1
        return 0

    cdef inline void _leave(self) noexcept:
        self.busy_depth -= 1
        if self.busy_depth == 0:
            crowns_owner_drop(&self.busy_owner)

    @property
    def busy(self):
        """Whether a call is running in this engine now (in any thread)."""
        return crowns_owner_load(&self.busy_owner) != 0
