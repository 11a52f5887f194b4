# The C bit generator behind a numpy Generator, for drawing from it without the GIL,
# included by _fc_game.pyx and _kc_engine.pyx (each carried its own copy until session
# 23).  Needs no numpy headers: numpy's bitgen_t is declared here.

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    """
    /* numpy's bitgen_t (numpy/random/bitgen.h), declared here so that building needs no
       numpy headers; the layout is part of numpy's stable C API since 1.17. */
    #include <stdint.h>
    typedef struct crowns_bitgen {
        void *state;
        uint64_t (*next_uint64)(void *st);
        uint32_t (*next_uint32)(void *st);
        double (*next_double)(void *st);
        uint64_t (*next_raw)(void *st);
    } crowns_bitgen_t;
    """
    ctypedef struct crowns_bitgen_t:
        void* state
        uint64_t (*next_uint64)(void*) noexcept nogil
        uint32_t (*next_uint32)(void*) noexcept nogil
        double (*next_double)(void*) noexcept nogil
        uint64_t (*next_raw)(void*) noexcept nogil


cdef crowns_bitgen_t* get_bitgen(object gen, str what) except NULL:
    """The C bit generator of numpy Generator `gen`; a TypeError naming `what` (the
    argument, e.g. ``gen`` or ``generators[2]``) and what was given instead, for anything
    without a bit generator (it was an AttributeError).  The pointer lives as long as
    `gen`.  A caller drawing from it while other threads may use the same Generator holds
    :func:`bitgen_lock` meanwhile, as numpy's own methods do (without it, an MT19937's
    position can run past its key array)."""
    try:
        capsule = gen.bit_generator.capsule
    except AttributeError:
        raise TypeError(f"{what} must be a numpy.random.Generator, got {type(gen).__name__}") from None
    return <crowns_bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef object bitgen_lock(object gen, str what):
    """The lock of numpy Generator `gen`'s bit generator (``gen.bit_generator.lock``),
    held while drawing from it without the GIL; a TypeError naming `what` for anything
    without one."""
    try:
        return gen.bit_generator.lock
    except AttributeError:
        raise TypeError(f"{what} must be a numpy.random.Generator, got {type(gen).__name__}") from None
