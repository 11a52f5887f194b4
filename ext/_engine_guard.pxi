# One thread at a time in a compiled engine (session 22), included by _ck_search.pyx and
# _kc_engine.pyx: each defines BUSY_MESSAGE (its own wording) and imports EngineBusyError
# before including this file.  docs/decisions.md, "Threads".

from cpython.pythread cimport PyThread_get_thread_ident


cdef class _OneThread:
    """Base of a compiled engine: a call from a second thread while one is inside raises
    EngineBusyError; the same thread may call back in (a signal handler during a search)."""

    # calls in progress and their thread
    cdef int busy_depth
    cdef long busy_thread

    cdef int _enter(self) except -1:
        """Take the engine for the calling thread, or raise EngineBusyError if another
        thread is inside.  Called with the GIL held and nothing between the check and the
        set that could release it, so two threads cannot both pass."""
        cdef long me = PyThread_get_thread_ident()
        if self.busy_depth > 0 and self.busy_thread != me:
            raise EngineBusyError(BUSY_MESSAGE)
        self.busy_thread = me
        self.busy_depth += 1
        return 0

    cdef inline void _leave(self) noexcept:
        self.busy_depth -= 1

    @property
    def busy(self):
        """Whether a call is running in this engine now (in any thread)."""
        return self.busy_depth > 0
