# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Native core of mq: RNG, pathing, the monster turn and the state hash, in C via Cython.

The semantics are those of the pure-Python twin ``mq/_core_py.py`` (its docstrings are the
specification; docs/core.md summarises the contract). This module must return the very same
values, and raise the same exception types, for every input; ``tests/test_core_twins.py`` checks
that on random boards, monsters and value trees.

Implementation notes (why it is fast, and why it stays identical):

* All arithmetic is on ``uint64_t`` / ``long long`` with explicit wrap-around where the twin
  reduces mod 2**64; no floats anywhere.
* A board is decoded once into C arrays (``_Board``: sides, arrows, the neighbour and "line
  room" tables, see the twin's module docstring). The last decoded board is kept with a
  reference to its tuple: a board made only of tuples of exact ints is immutable, so an identity
  check is a sound cache key (holding the reference keeps the id from being reused), and a
  caller that passes one board object to several calls decodes it once.
* Dijkstra uses a C binary heap; its result (the distance table) does not depend on the order in
  which equal keys are popped, so it equals the twin's ``heapq`` result.
* The monster turn walks monsters on a private copy of the terrain with a visit stamp array.
* The hash walks Python objects with C-level type checks that mirror the twin's dispatch order
  (exact builtin types first, which cannot be anything else), and caches node digests in
  ``_digest`` through ``PyObject_GenericSetAttr`` (what ``object.__setattr__`` does for every
  Python-level class, frozen dataclasses included).
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t
from libc.stdlib cimport qsort
from libc.string cimport memcpy
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
from cpython.long cimport (PyLong_Check, PyLong_CheckExact, PyLong_FromUnsignedLongLong,
                           PyLong_AsUnsignedLongLong, PyLong_AsLongLongAndOverflow)
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM, PyTuple_GET_ITEM, PyTuple_GET_SIZE
from cpython.tuple cimport PyTuple_Check, PyTuple_CheckExact
from cpython.list cimport PyList_Check, PyList_CheckExact, PyList_AsTuple
from cpython.unicode cimport PyUnicode_Check, PyUnicode_AsUTF8AndSize
from cpython.bytes cimport PyBytes_Check, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.bool cimport PyBool_Check
from cpython.dict cimport PyDict_Check, PyDict_CheckExact, PyDict_GetItem, PyDict_SetItem
from cpython.set cimport PyAnySet_Check
from cpython.object cimport PyObject_GenericSetAttr

cdef extern from "Python.h":
    tuple PyTuple_GetSlice(object p, Py_ssize_t low, Py_ssize_t high)
    ctypedef struct PyListObject:
        PyObject **ob_item
    Py_ssize_t PyList_GET_SIZE(object o)
    ctypedef struct PyTypeObject:
        unsigned long tp_flags
        unsigned int tp_version_tag
        void *tp_getattro
        void *tp_descr_set
        Py_ssize_t tp_dictoffset
    unsigned long Py_TPFLAGS_VALID_VERSION_TAG
    unsigned long Py_TPFLAGS_MANAGED_DICT
    PyObject *_PyType_Lookup(PyTypeObject *t, PyObject *name)  # borrowed, no error set
    PyObject *PyObject_GenericGetAttr(PyObject *o, PyObject *name)
    PyObject **_PyObject_GetDictPtr(PyObject *o)  # NULL (error cleared) if none
    PyTypeObject *Py_TYPE(PyObject *o)

import operator

__all__ = [
    "N", "E", "S", "W",
    "CORRIDOR", "DOOR", "LOCKED", "SECRET", "WALL", "MOVE_COST",
    "NORMAL", "FAST", "SLOW", "LURKING", "BACKWARDS", "PASS_NORMAL",
    "rng_u64", "rng_below", "rng_d6", "rng_d10", "rng_colour", "rng_shuffle",
    "reachable", "path_to", "neighbours",
    "monster_turn",
    "digest", "digest_full",
]

IMPLEMENTATION = "native"

N, E, S, W = 0, 1, 2, 3
CORRIDOR, DOOR, LOCKED, SECRET, WALL = 0, 1, 2, 3, 4
MOVE_COST = (1, 1, 2, 3, -1)
NORMAL, FAST, SLOW, LURKING, BACKWARDS = 0, 1, 2, 3, 4
PASS_NORMAL = (1 << CORRIDOR) | (1 << DOOR)

# C mirrors of the constants above.
cdef enum:
    C_CORRIDOR = 0
    C_WALL = 4
    C_FAST = 1
    C_SLOW = 2
    C_LURKING = 3
    C_BACKWARDS = 4
    C_SMASHABLE = 6          # (1 << DOOR) | (1 << LOCKED)
    MAX_DEPTH = 200          # the twin's _MAX_DEPTH

# Python ints beyond C ranges, for range checks done on Python objects.
cdef object _TWO31 = 2 ** 31

cdef int _COST[5]
_COST[:] = [1, 1, 2, 3, -1]

cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL
cdef long long COORD_MIN = -(1LL << 31)
cdef long long COORD_LIM = (1LL << 31)

_operator_index = operator.index


# ---------------------------------------------------------------------------------------------
# Argument checking (same rules and wording as the twin)
# ---------------------------------------------------------------------------------------------

cdef inline object _index(object v, str what):
    """``operator.index(v)`` with the twin's TypeError; ints (bool, subclasses) pass as they are."""
    if PyLong_Check(v):
        return v
    try:
        return _operator_index(v)
    except TypeError:
        raise TypeError(f"{what} must be an int") from None


cdef int _ll_in(object v, long long lo, long long hi, str what, long long *out) except -1:
    """Store int ``v`` in ``out`` if ``lo <= v < hi``, else ValueError("<what> out of range")."""
    cdef int ovf = 0
    cdef long long x
    v = _index(v, what)
    x = PyLong_AsLongLongAndOverflow(v, &ovf)
    if ovf != 0 or x < lo or x >= hi:
        raise ValueError(f"{what} out of range")
    out[0] = x
    return 0


cdef uint64_t _seed_arg(object v) except? 0:
    """A seed in [0, 2**64). Plain ints convert in C; a failed conversion is re-raised as the
    twin's ValueError (only the error path pays for the exception)."""
    v = _index(v, "seed")
    try:
        return PyLong_AsUnsignedLongLong(v)
    except OverflowError:
        raise ValueError("seed must be in [0, 2**64)") from None


cdef uint64_t _counter_arg(object v) except? 0xFFFFFFFFFFFFFFFFULL:
    """A counter in [0, 2**63)."""
    cdef int ovf = 0
    cdef long long x
    v = _index(v, "n")
    x = PyLong_AsLongLongAndOverflow(v, &ovf)
    if ovf != 0 or x < 0:
        raise ValueError("n must be in [0, 2**63)")
    return <uint64_t>x


cdef uint64_t _bound_arg(object v) except? 0:
    """A bound in [1, 2**64)."""
    cdef uint64_t b
    v = _index(v, "bound")
    try:
        b = PyLong_AsUnsignedLongLong(v)
    except OverflowError:
        raise ValueError("bound must be in [1, 2**64)") from None
    if b == 0:
        raise ValueError("bound must be in [1, 2**64)")
    return b


# ---------------------------------------------------------------------------------------------
# RNG
# ---------------------------------------------------------------------------------------------

cdef inline uint64_t _mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t _draw(uint64_t seed, uint64_t n) noexcept nogil:
    return _mix(seed + (n + 1) * GOLDEN)


cdef inline uint64_t _below(uint64_t seed, uint64_t *n, uint64_t bound) noexcept nogil:
    # The twin's rule "accept u < lim, lim = 2**64 - (2**64 % bound)" with one division:
    # lim and u - u % bound are multiples of bound, so u < lim <=> u - r + bound <= 2**64
    # <=> u - r <= 2**64 - bound, which is (0 - bound) in uint64 arithmetic.
    cdef uint64_t u, r
    while True:
        u = _draw(seed, n[0])
        n[0] += 1
        r = u % bound
        if u - r <= <uint64_t>0 - bound:
            return r


def rng_u64(seed, n):
    """Draw ``n`` of stream ``seed`` (see the twin): ``mix(seed + (n+1)*GOLDEN mod 2**64)``."""
    cdef uint64_t s = _seed_arg(seed)
    cdef uint64_t c = _counter_arg(n)
    return PyLong_FromUnsignedLongLong(_draw(s, c))


def rng_below(seed, n, bound):
    """Uniform ``(v in [0, bound), n2)`` by rejection (see the twin)."""
    cdef uint64_t s = _seed_arg(seed)
    cdef uint64_t c = _counter_arg(n)
    cdef uint64_t b = _bound_arg(bound)
    cdef uint64_t v = _below(s, &c, b)
    return PyLong_FromUnsignedLongLong(v), PyLong_FromUnsignedLongLong(c)


def rng_d6(seed, n):
    """A six-sided die: ``(1..6, n2)``."""
    cdef uint64_t s = _seed_arg(seed)
    cdef uint64_t c = _counter_arg(n)
    cdef uint64_t v = _below(s, &c, 6)
    return <int>v + 1, PyLong_FromUnsignedLongLong(c)


def rng_d10(seed, n):
    """The d10: ``(1..10, n2)``."""
    cdef uint64_t s = _seed_arg(seed)
    cdef uint64_t c = _counter_arg(n)
    cdef uint64_t v = _below(s, &c, 10)
    return <int>v + 1, PyLong_FromUnsignedLongLong(c)


def rng_colour(seed, n):
    """The monster die: ``(colour 0..5, n2)``."""
    cdef uint64_t s = _seed_arg(seed)
    cdef uint64_t c = _counter_arg(n)
    cdef uint64_t v = _below(s, &c, 6)
    return <int>v, PyLong_FromUnsignedLongLong(c)


def rng_shuffle(seed, n, items):
    """Fisher–Yates from the last index down (see the twin): ``(tuple, n2)``."""
    cdef uint64_t s = _seed_arg(seed)
    cdef uint64_t c = _counter_arg(n)
    cdef list lst = list(items)     # a fresh list nobody else holds, like the twin's
    cdef Py_ssize_t i, j
    cdef PyObject **p = (<PyListObject *>lst).ob_item
    cdef PyObject *tmp
    # Swapping item pointers of the private list keeps every refcount right; nothing in the
    # loop runs Python code, so the list cannot change size under us.
    for i in range(PyList_GET_SIZE(lst) - 1, 0, -1):
        j = <Py_ssize_t>_below(s, &c, <uint64_t>(i + 1))
        tmp = p[i]
        p[i] = p[j]
        p[j] = tmp
    return PyList_AsTuple(lst), PyLong_FromUnsignedLongLong(c)


# ---------------------------------------------------------------------------------------------
# Board decoding
# ---------------------------------------------------------------------------------------------

ctypedef struct _Cell:
    uint64_t key        # (major + 2**31) << 32 | (minor + 2**31): rows (y, x), columns (x, y)
    int32_t idx


cdef void _sort_cells(_Cell *a, _Cell *tmp, Py_ssize_t n) noexcept nogil:
    """Stable bottom-up merge sort by key (equal keys, i.e. a shared cell, keep index order)."""
    cdef Py_ssize_t width = 1, lo, mid, hi, i, j, k
    cdef _Cell *src = a
    cdef _Cell *dst = tmp
    cdef _Cell *swap
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width if lo + width < n else n
            hi = lo + 2 * width if lo + 2 * width < n else n
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if src[j].key < src[i].key:
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        swap = src
        src = dst
        dst = swap
        width *= 2
    if src != a:
        memcpy(a, src, n * sizeof(_Cell))


cdef class _Board:
    """A validated board in C arrays. ``nb``/``line``: see the twin's module docstring."""
    cdef int n
    cdef void *block        # one allocation holding the four arrays below
    cdef int32_t *nb        # 4n: neighbour through side d or -1
    cdef int32_t *line      # 4n: line room (wrapping across darkness) or -1
    cdef int8_t *sides      # 4n
    cdef int8_t *arrows     # 6n
    cdef bint cacheable     # made only of tuples of exact ints (immutable)

    def __dealloc__(self):
        PyMem_Free(self.block)


cdef int _fill_lines(_Board b, _Cell *cells, int fwd, int back) except -1:
    """Given cells sorted by (major, minor), fill line/nb for directions fwd (+minor)/back."""
    cdef int n = b.n
    cdef int start = 0, end, p, i, nxt, prv
    cdef uint64_t major
    while start < n:
        end = start
        major = cells[start].key >> 32
        while end + 1 < n and (cells[end + 1].key >> 32) == major:
            end += 1
        for p in range(start, end + 1):
            i = cells[p].idx
            if p < end and cells[p + 1].key == cells[p].key:
                raise ValueError("two rooms share a cell")
            if start == end:
                continue
            nxt = p + 1 if p < end else start
            prv = p - 1 if p > start else end
            b.line[4 * i + fwd] = cells[nxt].idx
            b.line[4 * i + back] = cells[prv].idx
            # Same major, so comparing whole keys compares the minor coordinates.
            if cells[nxt].key == cells[p].key + 1:
                b.nb[4 * i + fwd] = cells[nxt].idx
            if cells[prv].key + 1 == cells[p].key:
                b.nb[4 * i + back] = cells[prv].idx
        start = end + 1
    return 0


cdef int _read_ints(object seq, Py_ssize_t count, long long lo, long long hi, str what,
                    long long *out, bint *exact) except -1:
    """Validate ``count`` ints of ``seq`` in [lo, hi) into ``out`` (the twin's ``_int_seq``);
    clear ``exact`` unless ``seq`` is a tuple of exact ints."""
    cdef Py_ssize_t k
    cdef int ovf
    cdef long long x
    cdef bint fast = PyTuple_CheckExact(seq)
    if not fast:
        exact[0] = False
    k = 0
    for o in seq:
        if k >= count:
            raise ValueError("board part lengths must be n, n, 4n, 6n")
        if PyLong_CheckExact(o):
            ovf = 0
            x = PyLong_AsLongLongAndOverflow(o, &ovf)
            if ovf != 0 or x < lo or x >= hi:
                raise ValueError(f"{what} out of range")
            out[k] = x
        else:
            exact[0] = False
            _ll_in(o, lo, hi, what, &out[k])
        k += 1
    if k != count:
        raise ValueError("board part lengths must be n, n, 4n, 6n")
    return 0


cdef _Board _decode_board(object board):
    cdef Py_ssize_t n, k
    cdef _Board b = _Board.__new__(_Board)
    cdef long long *vals = NULL     # 12n: xs, ys, sides, arrows as read
    cdef _Cell *cells = NULL        # 2n: cells and the merge sort's buffer
    cdef bint exact
    if not (PyTuple_Check(board) or PyList_Check(board)):
        raise TypeError("board must be a tuple (xs, ys, sides, arrows)")
    if len(board) != 4:
        raise ValueError("board must have 4 parts (xs, ys, sides, arrows)")
    exact = PyTuple_CheckExact(board)
    for part in board:
        if not (PyTuple_Check(part) or PyList_Check(part)):
            raise TypeError("board parts must be tuples of ints")
    xs_in, ys_in, sides_in, arrows_in = board
    n = len(xs_in)
    if n < 1:
        raise ValueError("board needs at least one room")
    if len(ys_in) != n or len(sides_in) != 4 * n or len(arrows_in) != 6 * n:
        raise ValueError("board part lengths must be n, n, 4n, 6n")
    if n > 0x3FFFFFFF:
        raise ValueError("board has too many rooms")
    b.n = <int>n
    b.block = PyMem_Malloc(8 * n * sizeof(int32_t) + 10 * n * sizeof(int8_t))
    vals = <long long *>PyMem_Malloc(12 * n * sizeof(long long))
    cells = <_Cell *>PyMem_Malloc(2 * n * sizeof(_Cell))
    try:
        if not (b.block and vals and cells):
            raise MemoryError()
        b.nb = <int32_t *>b.block
        b.line = b.nb + 4 * n
        b.sides = <int8_t *>(b.line + 4 * n)
        b.arrows = b.sides + 4 * n
        # Same validation order as the twin: xs, ys, sides, arrows, then cells.
        _read_ints(xs_in, n, COORD_MIN, COORD_LIM, "xs", vals, &exact)
        _read_ints(ys_in, n, COORD_MIN, COORD_LIM, "ys", vals + n, &exact)
        _read_ints(sides_in, 4 * n, 0, 5, "sides", vals + 2 * n, &exact)
        _read_ints(arrows_in, 6 * n, -1, 4, "arrows", vals + 6 * n, &exact)
        for k in range(4 * n):
            b.sides[k] = <int8_t>vals[2 * n + k]
            b.nb[k] = -1
            b.line[k] = -1
        for k in range(6 * n):
            b.arrows[k] = <int8_t>vals[6 * n + k]
        # Rows sorted by (y, x): E is +x, W is -x.
        for k in range(n):
            cells[k].key = (<uint64_t>(vals[n + k] - COORD_MIN) << 32) | <uint64_t>(vals[k] - COORD_MIN)
            cells[k].idx = <int32_t>k
        _sort_cells(cells, cells + n, n)
        _fill_lines(b, cells, 1, 3)
        # Columns sorted by (x, y): S is +y, N is -y.
        for k in range(n):
            cells[k].key = (<uint64_t>(vals[k] - COORD_MIN) << 32) | <uint64_t>(vals[n + k] - COORD_MIN)
            cells[k].idx = <int32_t>k
        _sort_cells(cells, cells + n, n)
        _fill_lines(b, cells, 2, 0)
    finally:
        PyMem_Free(vals)
        PyMem_Free(cells)
    b.cacheable = exact
    return b


cdef object _last_board_obj = None
cdef _Board _last_board = None


cdef _Board _get_board(object board):
    """Decode ``board``, or reuse the last decoding if this is the very same immutable object."""
    global _last_board_obj, _last_board
    if board is _last_board_obj and _last_board is not None:
        return _last_board
    cdef _Board b = _decode_board(board)
    if b.cacheable:
        # Holding the reference keeps the object alive, so its id cannot be reused meanwhile.
        _last_board_obj = board
        _last_board = b
    return b


cdef int _room_arg(object v, int n, str what) except -1:
    v = _index(v, what)
    if v < 0 or v >= n:
        raise ValueError(f"{what} is not a room of the board")
    return <int>v


# ---------------------------------------------------------------------------------------------
# A small binary min-heap of (cost, steps, room) keys for Dijkstra
# ---------------------------------------------------------------------------------------------

ctypedef struct _Key:
    int64_t cost
    int64_t steps
    int32_t room


cdef inline bint _less(const _Key *a, const _Key *b) noexcept nogil:
    if a.cost != b.cost:
        return a.cost < b.cost
    if a.steps != b.steps:
        return a.steps < b.steps
    return a.room < b.room


cdef inline void _push(_Key *heap, Py_ssize_t *size, _Key k) noexcept nogil:
    cdef Py_ssize_t i = size[0], parent
    size[0] += 1
    while i > 0:
        parent = (i - 1) >> 1
        if not _less(&k, &heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = k


cdef inline _Key _pop(_Key *heap, Py_ssize_t *size) noexcept nogil:
    cdef _Key top = heap[0]
    cdef _Key last
    cdef Py_ssize_t i = 0, child, m
    size[0] -= 1
    m = size[0]
    if m > 0:
        last = heap[m]
        while True:
            child = 2 * i + 1
            if child >= m:
                break
            if child + 1 < m and _less(&heap[child + 1], &heap[child]):
                child += 1
            if not _less(&heap[child], &last):
                break
            heap[i] = heap[child]
            i = child
        heap[i] = last
    return top


# ---------------------------------------------------------------------------------------------
# Pathing
# ---------------------------------------------------------------------------------------------

cdef void _dijkstra_budget(_Board b, int start, int64_t budget, int64_t *dist, _Key *heap) noexcept nogil:
    """dist[r] = cheapest cost from start if <= budget, else -1 (the twin's reachable loop)."""
    cdef int n = b.n, u, v, d, k
    cdef Py_ssize_t size = 0
    cdef int64_t nc
    cdef _Key key, nk
    for u in range(n):
        dist[u] = -1
    dist[start] = 0
    key.cost = 0
    key.steps = 0
    key.room = start
    _push(heap, &size, key)
    while size > 0:
        key = _pop(heap, &size)
        u = key.room
        if key.cost != dist[u]:
            continue
        for d in range(4):
            k = b.sides[4 * u + d]
            v = b.nb[4 * u + d]
            if k == C_WALL or v < 0:
                continue
            nc = key.cost + _COST[k]
            if nc <= budget and (dist[v] < 0 or nc < dist[v]):
                dist[v] = nc
                nk.cost = nc
                nk.steps = 0
                nk.room = v
                _push(heap, &size, nk)


def reachable(board, start, budget, dash):
    """Rooms a munchkin in ``start`` can reach this turn, ``((room, cost), ...)`` (see the twin)."""
    cdef _Board b = _get_board(board)
    cdef int s = _room_arg(start, b.n, "start")
    cdef long long bud
    cdef int n = b.n, u, v, d, count
    cdef int64_t *dist
    cdef _Key *heap
    cdef Py_ssize_t idx
    budget = _index(budget, "budget")
    if budget < 0 or budget >= _TWO31:
        raise ValueError("budget must be in [0, 2**31)")
    bud = budget
    cdef bint do_dash = bool(dash)
    dist = <int64_t *>PyMem_Malloc(n * sizeof(int64_t))
    heap = <_Key *>PyMem_Malloc((4 * n + 1) * sizeof(_Key))
    if not dist or not heap:
        PyMem_Free(dist)
        PyMem_Free(heap)
        raise MemoryError()
    try:
        _dijkstra_budget(b, s, bud, dist, heap)
        if do_dash:
            # Dash targets come from the within-budget table only; mark them -2, then merge.
            for u in range(n):
                if dist[u] < 0:
                    continue
                for d in range(4):
                    v = b.nb[4 * u + d]
                    if v >= 0 and b.sides[4 * u + d] != C_WALL and dist[v] == -1:
                        dist[v] = -2
            for u in range(n):
                if dist[u] == -2:
                    dist[u] = bud
        count = 0
        for u in range(n):
            if dist[u] >= 0:
                count += 1
        out = PyTuple_New(count)
        idx = 0
        for u in range(n):
            if dist[u] >= 0:
                item = (u, dist[u])
                Py_INCREF(item)
                PyTuple_SET_ITEM(out, idx, item)
                idx += 1
        return out
    finally:
        PyMem_Free(dist)
        PyMem_Free(heap)


def path_to(board, start, goal):
    """A cheapest route as directions; ties: fewest steps, then smallest sequence (see the twin)."""
    cdef _Board b = _get_board(board)
    cdef int s = _room_arg(start, b.n, "start")
    cdef int g = _room_arg(goal, b.n, "goal")
    cdef int n = b.n, u, i, e, k, d, v, length
    cdef int64_t *cost
    cdef int64_t *steps
    cdef _Key *heap
    cdef Py_ssize_t size = 0
    cdef _Key key, nk
    cdef int64_t nc, ns
    if s == g:
        return ()
    cost = <int64_t *>PyMem_Malloc(n * sizeof(int64_t))
    steps = <int64_t *>PyMem_Malloc(n * sizeof(int64_t))
    heap = <_Key *>PyMem_Malloc((4 * n + 1) * sizeof(_Key))
    if not cost or not steps or not heap:
        PyMem_Free(cost)
        PyMem_Free(steps)
        PyMem_Free(heap)
        raise MemoryError()
    try:
        for u in range(n):
            cost[u] = -1
            steps[u] = -1
        cost[g] = 0
        steps[g] = 0
        key.cost = 0
        key.steps = 0
        key.room = g
        _push(heap, &size, key)
        while size > 0:
            key = _pop(heap, &size)
            u = key.room
            if key.cost != cost[u] or key.steps != steps[u]:
                continue
            for e in range(4):
                i = b.nb[4 * u + e]
                if i < 0:
                    continue
                k = b.sides[4 * i + ((e + 2) & 3)]
                if k == C_WALL:
                    continue
                nc = key.cost + _COST[k]
                ns = key.steps + 1
                if cost[i] < 0 or nc < cost[i] or (nc == cost[i] and ns < steps[i]):
                    cost[i] = nc
                    steps[i] = ns
                    nk.cost = nc
                    nk.steps = ns
                    nk.room = i
                    _push(heap, &size, nk)
        if cost[s] < 0:
            return None
        length = <int>steps[s]
        out = PyTuple_New(length)
        u = s
        for i in range(length):
            for d in range(4):
                v = b.nb[4 * u + d]
                k = b.sides[4 * u + d]
                if v >= 0 and k != C_WALL and cost[v] >= 0 \
                        and cost[v] + _COST[k] == cost[u] and steps[v] + 1 == steps[u]:
                    break
            item = d
            Py_INCREF(item)
            PyTuple_SET_ITEM(out, i, item)
            u = v
        return out
    finally:
        PyMem_Free(cost)
        PyMem_Free(steps)
        PyMem_Free(heap)


def neighbours(board, room):
    """Explored rooms adjacent through a non-wall connector, ``((dir, room), ...)`` N, E, S, W."""
    cdef _Board b = _get_board(board)
    cdef int r = _room_arg(room, b.n, "room")
    cdef int d
    out = []
    for d in range(4):
        if b.nb[4 * r + d] >= 0 and b.sides[4 * r + d] != C_WALL:
            out.append((d, b.nb[4 * r + d]))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# The monster turn
# ---------------------------------------------------------------------------------------------

ctypedef struct _Mon:
    int32_t room
    int32_t mt
    int32_t mask
    int32_t smash
    int32_t target


ctypedef struct _Walk:
    # Shared state of one walk of all monsters over one terrain.
    const int8_t *arrows
    const int32_t *nb
    const int32_t *line
    int8_t *terrain
    int32_t *visited        # visit stamps, one per room
    int32_t stamp
    int32_t *crossed        # smashable sides crossed, packed 4*room + dir
    Py_ssize_t ncrossed


cdef inline bint _passable(int k, int mask, int smash) noexcept nogil:
    return ((mask >> k) & 1) != 0 or (smash != 0 and ((C_SMASHABLE >> k) & 1) != 0)


cdef int _step(_Walk *w, int pos, int d, int mask, int smash) noexcept nogil:
    """One monster step (the twin's _step): the new room or -1."""
    cdef int k = w.terrain[4 * pos + d]
    cdef int dest, far
    if not _passable(k, mask, smash):
        return -1
    dest = w.line[4 * pos + d]
    if dest < 0:
        return -1
    if dest == 0:
        if w.visited[0] == w.stamp:
            return -1
        far = w.nb[d]
        if far < 0 or w.visited[far] == w.stamp:
            return -1
        if not _passable(w.terrain[d], mask, smash):
            return -1
        w.visited[0] = w.stamp
    elif w.visited[dest] == w.stamp:
        return -1
    else:
        far = dest
    if smash != 0 and ((C_SMASHABLE >> k) & 1) != 0 and pos != 0 and w.nb[4 * pos + d] != 0:
        w.crossed[w.ncrossed] = 4 * pos + d
        w.ncrossed += 1
    w.visited[far] = w.stamp
    return far


cdef int _walk(_Walk *w, const _Mon *m, int colour) noexcept nogil:
    """Where one monster ends on the walk's terrain (the twin's _walk)."""
    cdef int pos = m.room, a, nxt, last = -1
    cdef bint moved = False
    if m.mt == C_LURKING:
        return pos
    w.stamp += 1
    w.visited[pos] = w.stamp
    if m.mt == C_BACKWARDS:
        a = w.arrows[6 * pos + colour]
        if a < 0:
            return pos
        last = (a + 2) & 3
        nxt = _step(w, pos, last, m.mask, m.smash)
        if nxt < 0:
            return pos
        pos = nxt
        moved = True
        if pos == m.target:
            return pos
    while True:
        if m.mt == C_SLOW and moved:
            break
        a = w.arrows[6 * pos + colour]
        if a < 0:
            break
        nxt = _step(w, pos, a, m.mask, m.smash)
        if nxt < 0:
            break
        pos = nxt
        moved = True
        last = a
        if pos == m.target:
            return pos
    if m.mt == C_FAST and moved:
        nxt = _step(w, pos, last, m.mask, m.smash)
        if nxt >= 0:
            pos = nxt
    return pos


cdef int _cmp_int32(const void *a, const void *b) noexcept nogil:
    cdef int32_t x = (<const int32_t *>a)[0]
    cdef int32_t y = (<const int32_t *>b)[0]
    return -1 if x < y else (1 if x > y else 0)


def monster_turn(board, monsters, colour):
    """Move all monsters for the movement colour: ``(dests, smashed)`` (see the twin)."""
    cdef _Board b = _get_board(board)
    cdef int n = b.n
    cdef Py_ssize_t count, k, nsmashed = 0, cap
    cdef _Mon *ms = NULL
    cdef int32_t *dests = NULL
    cdef int32_t *smashed = NULL
    cdef _Walk w
    cdef long long v
    cdef int col, pos, d, j, od
    cdef bint opened
    if not (PyTuple_Check(monsters) or PyList_Check(monsters)):
        raise TypeError("monsters must be a tuple of (room, move_type, passes, smashes, target)")
    count = len(monsters)
    # Every step enters a room not yet visited, so a walk crosses at most n connectors per monster.
    cap = count * (n + 1) + 1
    ms = <_Mon *>PyMem_Malloc((count + 1) * sizeof(_Mon))
    dests = <int32_t *>PyMem_Malloc((count + 1) * sizeof(int32_t))
    smashed = <int32_t *>PyMem_Malloc(4 * n * sizeof(int32_t))
    w.terrain = <int8_t *>PyMem_Malloc(4 * n * sizeof(int8_t))
    w.visited = <int32_t *>PyMem_Malloc(n * sizeof(int32_t))
    w.crossed = <int32_t *>PyMem_Malloc(cap * sizeof(int32_t))
    try:
        if not (ms and dests and smashed and w.terrain and w.visited and w.crossed):
            raise MemoryError()
        k = 0
        for m in monsters:
            if not (PyTuple_Check(m) or PyList_Check(m)):
                raise TypeError("a monster must be a tuple (room, move_type, passes, smashes, target)")
            if len(m) != 5:
                raise ValueError("a monster must have 5 fields")
            ms[k].room = _room_arg(m[0], n, "monster room")
            mt = _index(m[1], "move_type")
            mask = _index(m[2], "passes_mask")
            smash = _index(m[3], "smashes")
            target = _index(m[4], "target_room")
            if not 0 <= mt <= 4:
                raise ValueError("move_type out of range")
            if not 0 <= mask < 32:
                raise ValueError("passes_mask out of range")
            if not (smash == 0 or smash == 1):
                raise ValueError("smashes must be 0 or 1")
            if not -1 <= target < n:
                raise ValueError("target_room out of range")
            ms[k].mt = mt
            ms[k].mask = mask
            ms[k].smash = smash
            ms[k].target = target
            k += 1
            if k > count:
                raise ValueError("monsters changed size while being read")
        if k != count:
            raise ValueError("monsters changed size while being read")
        colour = _index(colour, "colour")
        if not 0 <= colour < 6:
            raise ValueError("colour must be in 0..5")
        col = colour

        w.arrows = b.arrows
        w.nb = b.nb
        w.line = b.line
        memcpy(w.terrain, b.sides, 4 * n * sizeof(int8_t))
        for k in range(n):
            w.visited[k] = 0
        w.stamp = 0
        with nogil:
            while True:
                w.ncrossed = 0
                for k in range(count):
                    dests[k] = _walk(&w, &ms[k], col)
                opened = False
                for k in range(w.ncrossed):
                    pos = w.crossed[k] >> 2
                    d = w.crossed[k] & 3
                    if w.terrain[4 * pos + d] == C_CORRIDOR:
                        continue
                    w.terrain[4 * pos + d] = C_CORRIDOR
                    j = w.nb[4 * pos + d]
                    od = (d + 2) & 3
                    if j >= 0:
                        w.terrain[4 * j + od] = C_CORRIDOR
                    if 0 <= j < pos:
                        smashed[nsmashed] = 4 * j + od
                    else:
                        smashed[nsmashed] = 4 * pos + d
                    nsmashed += 1
                    opened = True
                if not opened:
                    break
            qsort(smashed, nsmashed, sizeof(int32_t), _cmp_int32)
        out_d = PyTuple_New(count)
        for k in range(count):
            item = dests[k]
            Py_INCREF(item)
            PyTuple_SET_ITEM(out_d, k, item)
        out_s = PyTuple_New(nsmashed)
        for k in range(nsmashed):
            item = (smashed[k] >> 2, smashed[k] & 3)
            Py_INCREF(item)
            PyTuple_SET_ITEM(out_s, k, item)
        return out_d, out_s
    finally:
        PyMem_Free(ms)
        PyMem_Free(dests)
        PyMem_Free(smashed)
        PyMem_Free(w.terrain)
        PyMem_Free(w.visited)
        PyMem_Free(w.crossed)


# ---------------------------------------------------------------------------------------------
# State hash (scheme: see the twin's comment block; bit-identical)
# ---------------------------------------------------------------------------------------------

cdef inline uint64_t _absorb(uint64_t h, uint64_t w) noexcept nogil:
    return _mix((h ^ w) + GOLDEN)


cdef uint64_t T_NONE = _mix(1 * GOLDEN)
cdef uint64_t T_BOOL = _mix(2 * GOLDEN)
cdef uint64_t T_INT = _mix(3 * GOLDEN)
cdef uint64_t T_NEG = _mix(4 * GOLDEN)
cdef uint64_t T_STR = _mix(5 * GOLDEN)
cdef uint64_t T_BYTES = _mix(6 * GOLDEN)
cdef uint64_t T_SEQ = _mix(7 * GOLDEN)
cdef uint64_t T_NODE = _mix(8 * GOLDEN)
cdef uint64_t H_NONE = _absorb(T_NONE, 0)
cdef uint64_t H_FALSE = _absorb(T_BOOL, 0)
cdef uint64_t H_TRUE = _absorb(T_BOOL, 1)
cdef uint64_t H_EMPTY = _absorb(T_SEQ, 0)  # the empty tuple (or list)


cdef inline uint64_t _le64(const unsigned char *p, Py_ssize_t k) noexcept nogil:
    """k (1..8) bytes at p as a little-endian word (compilers turn k == 8 into one load)."""
    cdef uint64_t w = 0
    cdef Py_ssize_t i
    for i in range(k - 1, -1, -1):
        w = (w << 8) | p[i]
    return w


cdef inline uint64_t _bytes_digest(uint64_t h, const unsigned char *p, Py_ssize_t size) noexcept nogil:
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t full = size - (size & 7)
    while i < full:
        h = _absorb(h, (<uint64_t>p[i]) | (<uint64_t>p[i + 1] << 8) | (<uint64_t>p[i + 2] << 16)
                    | (<uint64_t>p[i + 3] << 24) | (<uint64_t>p[i + 4] << 32)
                    | (<uint64_t>p[i + 5] << 40) | (<uint64_t>p[i + 6] << 48)
                    | (<uint64_t>p[i + 7] << 56))
        i += 8
    if full != size:
        h = _absorb(h, _le64(p + full, size - full))
    return _absorb(h, <uint64_t>size)


cdef inline uint64_t _str_digest(object o) except? 0:
    cdef Py_ssize_t size
    cdef const char *p = PyUnicode_AsUTF8AndSize(o, &size)
    return _bytes_digest(T_STR, <const unsigned char *>p, size)


# Identity caches (the twin's "Caches" note, same slots and sizes): direct-mapped tables from an
# object's address to its digest, holding a strong reference to the object, so the address cannot
# be reused while the entry stands.  Strings are immutable; a tuple is entered only when built of
# immutable values and nodes (which digest already trusts), so an entry can never be stale.
cdef enum:
    STR_SLOTS = 4096
    TUPLE_SLOTS = 1024
    MIN_CACHED_TUPLE = 4
ctypedef struct _Entry:  # key and digest side by side: a lookup reads one cache line
    PyObject *key
    uint64_t val
cdef _Entry _strs[STR_SLOTS]
cdef _Entry _tuples[TUPLE_SLOTS]


cdef inline Py_ssize_t _slot(PyObject *p, Py_ssize_t slots) noexcept nogil:
    """The twin's slot: bits 40.. of the address times the golden ratio (mod 2**64)."""
    return <Py_ssize_t>(((<uint64_t><size_t>p * GOLDEN) >> 40) & <uint64_t>(slots - 1))


cdef inline void _remember(_Entry *e, object o, uint64_t h):
    cdef PyObject *old = e.key
    Py_INCREF(o)
    e.key = <PyObject *>o
    e.val = h
    Py_XDECREF(old)  # last: freeing the old object cannot touch this entry any more


cdef uint64_t _cached_str_digest(object o) except? 0:
    """An exact str's digest through the string table."""
    cdef Py_ssize_t i = _slot(<PyObject *>o, STR_SLOTS)
    cdef uint64_t h
    if _strs[i].key == <PyObject *>o:
        return _strs[i].val
    h = _str_digest(o)
    _remember(&_strs[i], o, h)
    return h


# Ints read from CPython 3.11's 30-bit digits (Include/cpython/longintrepr.h: ``ob_size`` is the
# sign times the number of digits, the top digit non-zero) without a call; other versions or
# builds: the C API.
cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && PyLong_SHIFT == 30 \
        && !defined(Py_LIMITED_API) && !defined(PYPY_VERSION)
    /* 1 and the value in *out for an int of at most two digits (|v| < 2**60), else 0. */
    static inline int mq_small_int(PyObject *o, long long *out) {
        Py_ssize_t n = Py_SIZE(o);
        const digit *d = ((PyLongObject *)o)->ob_digit;
        switch (n) {
        case 0: *out = 0; return 1;
        case 1: *out = (long long)d[0]; return 1;
        case -1: *out = -(long long)d[0]; return 1;
        case 2: *out = (long long)(d[0] | ((uint64_t)d[1] << 30)); return 1;
        case -2: *out = -(long long)(d[0] | ((uint64_t)d[1] << 30)); return 1;
        }
        return 0;
    }
    /* 1 and the value in *out for an int in [0, 2**64), else 0. */
    static inline int mq_u64_int(PyObject *o, uint64_t *out) {
        Py_ssize_t n = Py_SIZE(o);
        const digit *d = ((PyLongObject *)o)->ob_digit;
        switch (n) {
        case 0: *out = 0; return 1;
        case 1: *out = d[0]; return 1;
        case 2: *out = d[0] | ((uint64_t)d[1] << 30); return 1;
        case 3:
            if (d[2] >> 4)
                return 0;
            *out = d[0] | ((uint64_t)d[1] << 30) | ((uint64_t)d[2] << 60);
            return 1;
        }
        return 0;
    }
    #else
    static inline int mq_small_int(PyObject *o, long long *out) { (void)o; (void)out; return 0; }
    static inline int mq_u64_int(PyObject *o, uint64_t *out) {
        unsigned long long v = PyLong_AsUnsignedLongLong(o);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();  /* an exact int: only OverflowError (negative or too large) */
            return 0;
        }
        *out = v;
        return 1;
    }
    #endif
    """
    bint mq_small_int(PyObject *o, long long *out) noexcept
    bint mq_u64_int(PyObject *o, uint64_t *out) noexcept


cdef uint64_t _int_digest(object o) except? 0:
    cdef int ovf = 0
    cdef long long x
    cdef uint64_t u
    if mq_small_int(<PyObject *>o, &x):
        return _absorb(T_INT, <uint64_t>x) if x >= 0 else _absorb(T_NEG, <uint64_t>x)
    if mq_u64_int(<PyObject *>o, &u):  # [0, 2**64), e.g. the state's RNG seed
        return _absorb(T_INT, u)
    x = PyLong_AsLongLongAndOverflow(o, &ovf)
    if ovf == 0:
        if x >= 0:
            return _absorb(T_INT, <uint64_t>x)
        return _absorb(T_NEG, <uint64_t>x)
    if ovf > 0:
        try:
            return _absorb(T_INT, PyLong_AsUnsignedLongLong(o))
        except OverflowError:
            pass
    raise ValueError("int out of the hashable range [-2**63, 2**64)")


cdef uint64_t _seq_digest(tuple t, bint cache, int depth, bint *pure, bint original) except? 0:
    """``original``: ``t`` is the caller's own tuple (not a snapshot), so it may be cached."""
    cdef Py_ssize_t i, slot = 0, size = PyTuple_GET_SIZE(t)
    cdef uint64_t w, h = T_SEQ
    cdef PyObject *p
    cdef bint mine = original
    cdef bint cacheable = cache and original and size >= MIN_CACHED_TUPLE
    if cacheable:
        slot = _slot(<PyObject *>t, TUPLE_SLOTS)
        if _tuples[slot].key == <PyObject *>t:
            return _tuples[slot].val
    if depth >= MAX_DEPTH:
        raise ValueError(f"structure nested deeper than {MAX_DEPTH} levels")
    for i in range(size):
        p = PyTuple_GET_ITEM(t, i)
        if not _leaf(p, cache, depth + 1, &w):
            w = _dg(<object>p, cache, depth + 1, &mine)
        h = _absorb(h, w)
    h = _absorb(h, <uint64_t>size)
    if cacheable and mine:
        _remember(&_tuples[slot], t, h)
    if not mine:
        pure[0] = False
    return h


# Node classes already checked (a per-class memo, not a cache of values): the class (a strong
# reference), its ``_hash_fields`` tuple, its tag's digest, whether it is *plain* (below) and its
# version tag.  CPython gives a class a new version tag whenever the class or one of its bases
# changes, so while the class's tag is valid and equal to the one recorded, every attribute of
# the class is as it was when checked: the same checks would pass, the same tag digest come out.
# Only classes whose metaclass is ``type`` (no metaclass descriptor can hide an attribute), with
# an exact str tag and an exact tuple of exact str fields, are recorded.
#
# A *plain* class also reads attributes the generic way (``object.__getattribute__``) and has no
# data descriptor named like a field or ``_digest``: then ``getattr(node, name)`` is the value the
# node itself holds under that name when it holds one.  Where that value is read from:
# * a class with a dict slot (``tp_dictoffset``): the node's ``__dict__``;
# * a class with CPython 3.11's managed dict (any Python class without ``__slots__``, e.g. a
#   frozen dataclass): the attribute values live in an array laid out by the class's *shared
#   keys* (``ht_cached_keys``), inline in the node until something asks for its ``__dict__``
#   (then in that dict, which keeps sharing the keys while it only holds such names).  The
#   record holds each field's index in the shared keys, so a field is one array read; a name
#   not (yet) in the keys, an empty entry or a dict that stopped sharing the keys falls back to
#   the dict or getattr.  Asking for the ``__dict__`` itself would build one per node (an
#   allocation and one more GC-tracked object, about a fifth of a fresh tree's digest).
# The array is found again before every field (reading a field may run code, e.g. a finalizer
# or a nested class's property, that rebuilds the node's dict or changes its class).
cdef extern from *:
    """
    /* CPython 3.11 layout of a class's shared keys (Include/internal/pycore_dict.h) and of an
       object with a managed dict (Include/internal/pycore_object.h: the values array pointer
       at word -4, the dict at word -3).  Other versions: no shared-keys reads (getattr). */
    #if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API) \
        && !defined(PYPY_VERSION)
    typedef struct {
        Py_ssize_t dk_refcnt;
        uint8_t dk_log2_size;
        uint8_t dk_log2_index_bytes;
        uint8_t dk_kind;
        uint32_t dk_version;
        Py_ssize_t dk_usable;
        Py_ssize_t dk_nentries;
        char dk_indices[];
    } mq_dictkeys;
    typedef struct { PyObject *me_key; PyObject *me_value; } mq_unicode_entry;
    #define MQ_DICT_KEYS_SPLIT 2

    /* The shared keys of a class with a managed dict, or NULL. */
    static void *mq_class_keys(PyTypeObject *tp) {
        mq_dictkeys *k;
        if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || !(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT))
            return NULL;
        k = (mq_dictkeys *)((PyHeapTypeObject *)tp)->ht_cached_keys;
        if (k == NULL || k->dk_kind != MQ_DICT_KEYS_SPLIT)
            return NULL;
        return k;
    }

    static Py_ssize_t mq_keys_count(void *keys) {
        return ((mq_dictkeys *)keys)->dk_nentries;
    }

    /* The index of the exact str `name` among the shared keys' entries, or -1. */
    static Py_ssize_t mq_keys_index(void *keys, PyObject *name) {
        mq_dictkeys *k = (mq_dictkeys *)keys;
        mq_unicode_entry *e = (mq_unicode_entry *)(k->dk_indices + ((size_t)1 << k->dk_log2_index_bytes));
        Py_ssize_t i;
        for (i = 0; i < k->dk_nentries; i++) {
            if (e[i].me_key == name)
                return i;
        }
        for (i = 0; i < k->dk_nentries; i++) {
            PyObject *key = e[i].me_key;
            if (key != NULL && PyUnicode_CheckExact(key) && PyUnicode_GET_LENGTH(key) == PyUnicode_GET_LENGTH(name)
                    && PyUnicode_Compare(key, name) == 0)
                return i;
        }
        return -1;
    }

    /* The attribute values of `o` laid out by `keys`, the shared keys of `o`'s class: its inline
       values, or its materialised __dict__'s when that dict still shares those keys; else NULL,
       with the managed __dict__ (borrowed, or NULL) in *dict. */
    static PyObject **mq_node_values(PyObject *o, void *keys, PyObject **dict) {
        PyObject **values = *((PyObject ***)o - 4);
        PyObject *d;
        *dict = NULL;
        if ((void *)((PyHeapTypeObject *)Py_TYPE(o))->ht_cached_keys != keys)
            return NULL;
        if (values != NULL)
            return values;
        d = *((PyObject **)o - 3);
        if (d != NULL && PyDict_CheckExact(d) && (void *)((PyDictObject *)d)->ma_keys == keys
                && ((PyDictObject *)d)->ma_values != NULL)
            return (PyObject **)((PyDictObject *)d)->ma_values;
        *dict = d;
        return NULL;
    }
    /* The built __dict__ of `o` (a class with a managed dict) when its values are not inline,
       else NULL (borrowed). */
    static PyObject *mq_managed_dict(PyObject *o) {
        if (*((PyObject ***)o - 4) != NULL)
            return NULL;
        return *((PyObject **)o - 3);
    }
    #else
    static PyObject *mq_managed_dict(PyObject *o) { (void)o; return NULL; }
    static void *mq_class_keys(PyTypeObject *tp) { (void)tp; return NULL; }
    static Py_ssize_t mq_keys_count(void *keys) { (void)keys; return 0; }
    static Py_ssize_t mq_keys_index(void *keys, PyObject *name) { (void)keys; (void)name; return -1; }
    static PyObject **mq_node_values(PyObject *o, void *keys, PyObject **dict) {
        (void)o; (void)keys; *dict = NULL; return NULL;
    }
    #endif
    """
    void *mq_class_keys(PyTypeObject *tp)
    Py_ssize_t mq_keys_count(void *keys)
    Py_ssize_t mq_keys_index(void *keys, PyObject *name)
    PyObject **mq_node_values(PyObject *o, void *keys, PyObject **dict)
    PyObject *mq_managed_dict(PyObject *o)


cdef enum:
    TYPE_SLOTS = 64
    TYPE_PROBES = 4   # a class's record is in one of 4 consecutive slots from its own
    MAX_INDEXED = 48  # fields found by index in the shared keys; any further one: getattr

ctypedef struct _NodeClass:
    PyObject *cls               # strong reference
    PyObject *fields            # strong reference: the exact tuple of exact str
    uint64_t tag_digest
    unsigned int version
    bint plain
    bint digest_default_none    # no class attribute _digest, or None: an absent one is None
    void *keys                  # plain with a managed dict (3.11): the shared keys, else NULL
    Py_ssize_t keys_seen        # the number of shared keys when the indices were computed
    Py_ssize_t ix_digest        # index of _digest in the shared keys, or -1
    int8_t ix[MAX_INDEXED]      # index of each field in the shared keys, or -1 (a small record)

cdef _NodeClass _classes[TYPE_SLOTS]
cdef PyObject *_class_keys[TYPE_SLOTS]  # each record's class again, probed in one cache line
cdef unsigned int _evictions = 0
cdef object _S_DIGEST = "_digest"


cdef inline void _swap_ref(PyObject **where, object o):
    cdef PyObject *old = where[0]
    Py_INCREF(o)
    where[0] = <PyObject *>o
    Py_XDECREF(old)


cdef inline bint _current(PyTypeObject *tp, unsigned int version) noexcept:
    return (tp.tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) != 0 and tp.tp_version_tag == version


cdef inline _NodeClass *_known(object t) noexcept:
    """The record of the class ``t`` if it is recorded and unchanged since, else NULL."""
    cdef Py_ssize_t s = _slot(<PyObject *>t, TYPE_SLOTS)
    cdef _NodeClass *c
    if _class_keys[s] == <PyObject *>t:  # the usual case: in its own slot
        c = &_classes[s]
        return c if _current(<PyTypeObject *>t, c.version) else NULL
    return _probed(t, s)


cdef _NodeClass *_probed(object t, Py_ssize_t s) noexcept:
    """``_known`` past the class's own slot.  (Records are only ever replaced, never removed,
    so probing stops at the first empty slot.)"""
    cdef Py_ssize_t k, i
    cdef _NodeClass *c
    if _class_keys[s] == NULL:
        return NULL
    for k in range(1, TYPE_PROBES):
        i = (s + k) & (TYPE_SLOTS - 1)
        if _class_keys[i] == <PyObject *>t:
            c = &_classes[i]
            return c if _current(<PyTypeObject *>t, c.version) else NULL
        if _class_keys[i] == NULL:
            return NULL
    return NULL


cdef _NodeClass *_record_for(object t) noexcept:
    """The slot to record the class ``t`` in: its own record, else an empty slot among its
    probes, else one of them in turn (two classes of a game sharing a slot would otherwise
    evict each other at every node: the slots come from addresses, so that varied by run)."""
    global _evictions
    cdef Py_ssize_t k, i, s = _slot(<PyObject *>t, TYPE_SLOTS)
    for k in range(TYPE_PROBES):
        i = (s + k) & (TYPE_SLOTS - 1)
        if _class_keys[i] == <PyObject *>t or _class_keys[i] == NULL:
            return &_classes[i]
    _evictions += 1
    return &_classes[(s + _evictions % TYPE_PROBES) & (TYPE_SLOTS - 1)]


cdef bint _no_data_descriptor(PyTypeObject *tp, object name):
    cdef PyObject *d = _PyType_Lookup(tp, <PyObject *>name)
    return d == NULL or Py_TYPE(d).tp_descr_set == NULL


cdef void _index_keys(_NodeClass *c) noexcept:
    """(Re)compute the fields' and _digest's indices in the class's shared keys (which only ever
    grow: an index, once there, stays)."""
    cdef Py_ssize_t i, k, nf = PyTuple_GET_SIZE(<tuple>c.fields)
    c.keys_seen = mq_keys_count(c.keys)
    c.ix_digest = mq_keys_index(c.keys, <PyObject *>_S_DIGEST)
    for i in range(MAX_INDEXED):
        k = mq_keys_index(c.keys, PyTuple_GET_ITEM(<tuple>c.fields, i)) if i < nf else -1
        c.ix[i] = <int8_t>k if k < 128 else -1  # (3.11 shares at most 30 keys)


cdef tuple _checked_fields(object t, uint64_t *tag_digest, _NodeClass **rec):
    """The node class's field names, its tag's digest in ``tag_digest``, its record in ``rec``
    (NULL when it cannot be recorded); TypeError as the twin."""
    cdef PyTypeObject *tp = <PyTypeObject *>t
    cdef _NodeClass *c
    cdef PyObject *attr
    cdef Py_ssize_t i
    cdef bint simple
    rec[0] = NULL
    tag = getattr(t, "_hash_tag", None)
    fields = getattr(t, "_hash_fields", None)
    if tag is None or fields is None:
        raise TypeError(f"cannot digest a {t.__name__}")
    if not PyUnicode_Check(tag) or not PyTuple_CheckExact(fields):
        raise TypeError(f"{t.__name__}: _hash_tag must be a str, _hash_fields a tuple of str")
    tag_digest[0] = _cached_str_digest(tag) if type(tag) is str else _str_digest(tag)
    if type(t) is not type or type(tag) is not str or not (tp.tp_flags & Py_TPFLAGS_VALID_VERSION_TAG):
        return <tuple>fields
    simple = (tp.tp_getattro == <void *>PyObject_GenericGetAttr
              and ((tp.tp_flags & Py_TPFLAGS_MANAGED_DICT) != 0 or tp.tp_dictoffset > 0)
              and _no_data_descriptor(tp, _S_DIGEST))
    for i in range(PyTuple_GET_SIZE(fields)):
        f = <object>PyTuple_GET_ITEM(fields, i)
        if type(f) is not str:
            return <tuple>fields
        simple = simple and _no_data_descriptor(tp, f)
    if not (tp.tp_flags & Py_TPFLAGS_VALID_VERSION_TAG):
        return <tuple>fields  # (the lookups above cannot change the class; belt and braces)
    c = _record_for(t)
    _class_keys[c - &_classes[0]] = NULL  # (an entry is either complete or absent)
    _swap_ref(&c.fields, fields)
    c.tag_digest = tag_digest[0]
    c.plain = simple
    attr = _PyType_Lookup(tp, <PyObject *>_S_DIGEST)
    c.digest_default_none = attr == NULL or attr == <PyObject *>None
    c.keys = mq_class_keys(tp) if simple and _layout_checked else NULL
    if c.keys != NULL:
        _index_keys(c)
    c.version = tp.tp_version_tag
    _swap_ref(&c.cls, t)
    _class_keys[c - &_classes[0]] = c.cls
    rec[0] = c
    return <tuple>fields


cdef bint _layout_agrees() except -1:
    """Whether the mirrored 3.11 layouts read what CPython itself reads, on a probe class: its
    shared keys and instances with inline values and with a built __dict__.  (A build whose
    layout differs then simply takes the getattr path.)"""
    cdef void *keys
    cdef PyObject **vals
    cdef PyObject *md
    probe = type("_LayoutProbe", (), {})
    first = probe()
    first.alpha, first.beta = object(), object()
    second = probe()
    second.beta, second.alpha = object(), object()
    second.__dict__  # builds it, sharing the keys
    keys = mq_class_keys(<PyTypeObject *>probe)
    if keys == NULL:
        return False
    a = mq_keys_index(keys, <PyObject *>"alpha")
    b = mq_keys_index(keys, <PyObject *>"beta")
    if a < 0 or b < 0 or a == b or mq_keys_count(keys) != 2:
        return False
    for node in (first, second):
        vals = mq_node_values(<PyObject *>node, keys, &md)
        if vals == NULL or vals[a] != <PyObject *>node.alpha or vals[b] != <PyObject *>node.beta:
            return False
    return (mq_managed_dict(<PyObject *>first) == NULL
            and mq_managed_dict(<PyObject *>second) == <PyObject *>second.__dict__)


cdef bint _layout_checked = _layout_agrees()
_SHARED_KEY_READS = bool(_layout_checked)  # for the tests: False means every field is a getattr


cdef inline PyObject **_values(object o, object t, tuple fields, PyObject **dict,
                               _NodeClass **rec) noexcept:
    """The node's values array if its class is still recorded as plain with these fields and
    shared keys, and that record (whose indices to use) in ``rec``; else NULL, with the node's
    managed __dict__ (borrowed) or NULL in ``dict``."""
    cdef _NodeClass *c = _known(t)
    dict[0] = NULL
    rec[0] = c
    if c == NULL or c.keys == NULL or c.fields != <PyObject *>fields or Py_TYPE(<PyObject *>o) != <PyTypeObject *>t:
        return NULL
    return mq_node_values(<PyObject *>o, c.keys, dict)


cdef inline object _read(object o, object d, object name):
    """``getattr(o, name)`` for a node of a plain class whose ``__dict__`` is ``d`` (or None)."""
    cdef PyObject *v
    if d is not None:
        v = PyDict_GetItem(d, name)
        if v != NULL:
            return <object>v
    return getattr(o, name)


cdef inline uint64_t _cached_digest(object c, object t) except? 0:
    """A node's cached ``_digest`` value (an exact int in [0, 2**64)), else TypeError."""
    cdef uint64_t h
    if PyLong_CheckExact(c) and mq_u64_int(<PyObject *>c, &h):
        return h
    raise TypeError(f"{t.__name__}._digest is not a 64-bit digest")


cdef inline bint _node_hit(PyObject *o, _NodeClass *c, uint64_t *out, bint *uncached) noexcept:
    """For a node whose class's current record is ``c``: True with its cached digest in ``out``
    when its values array (shared keys) holds one under ``_digest``; else False, with
    ``uncached`` set when it is known to hold none (None there, or nothing and the class's
    default is None).  Takes no reference and runs no code."""
    cdef PyObject *md
    cdef PyObject **vals
    cdef PyObject *v = NULL
    if c.keys == NULL:
        return False
    if mq_keys_count(c.keys) != c.keys_seen:
        _index_keys(c)
    vals = mq_node_values(o, c.keys, &md)
    if vals == NULL:
        return False
    if c.ix_digest >= 0:
        v = vals[c.ix_digest]
    if v == NULL or v == <PyObject *>None:
        uncached[0] = v != NULL or c.digest_default_none
        return False
    # Anything but an int in [0, 2**64) is left to the slow path (which raises TypeError).
    return Py_TYPE(v) == <PyTypeObject *>int and mq_u64_int(v, out)


cdef inline bint _flat_leaf(PyObject *o, bint cache, uint64_t *out) noexcept:
    """True with ``o``'s digest in ``out`` when it needs no walk and no call: None, a bool, a
    small exact int, an exact str or tuple found in its identity table, a node holding its
    cached digest (``cache``: as ``digest``); else False (``_dg`` then does the work).  Takes no
    reference and runs no code, so the caller's borrowed pointers stay valid; the same values
    as ``_dg``, which tries these in the same order among the exact types."""
    cdef PyTypeObject *tp = Py_TYPE(o)
    cdef long long x
    cdef Py_ssize_t i
    cdef _NodeClass *c
    cdef bint ignored = False
    if tp == <PyTypeObject *>int:
        if mq_small_int(o, &x):
            out[0] = _absorb(T_INT, <uint64_t>x) if x >= 0 else _absorb(T_NEG, <uint64_t>x)
            return True
        return False
    if tp == <PyTypeObject *>str:
        i = _slot(o, STR_SLOTS)
        if _strs[i].key == o:
            out[0] = _strs[i].val
            return True
        return False
    if o == <PyObject *>None:
        out[0] = H_NONE
        return True
    if o == <PyObject *>True:
        out[0] = H_TRUE
        return True
    if o == <PyObject *>False:
        out[0] = H_FALSE
        return True
    if not cache:
        return False
    if tp == <PyTypeObject *>tuple:
        if PyTuple_GET_SIZE(<tuple>o) >= MIN_CACHED_TUPLE:
            i = _slot(o, TUPLE_SLOTS)
            if _tuples[i].key == o:
                out[0] = _tuples[i].val
                return True
        return False
    c = _known(<object>tp)
    return c != NULL and _node_hit(o, c, out, &ignored)


cdef inline bint _leaf(PyObject *o, bint cache, int depth, uint64_t *out) noexcept:
    """``_flat_leaf``, and also an exact tuple too short for the tuple table (most are empty)
    whose items are all flat leaves, walked here: the same value as ``_seq_digest`` at
    ``depth`` (which refuses any walk at MAX_DEPTH), without a call.  Runs no code either."""
    cdef Py_ssize_t i, n
    cdef uint64_t w, h
    if _flat_leaf(o, cache, out):
        return True
    if Py_TYPE(o) != <PyTypeObject *>tuple or depth >= MAX_DEPTH:
        return False
    n = PyTuple_GET_SIZE(<tuple>o)
    if n == 0:
        out[0] = H_EMPTY
        return True
    if n >= MIN_CACHED_TUPLE:
        return False
    h = T_SEQ
    for i in range(n):
        if not _flat_leaf(PyTuple_GET_ITEM(<tuple>o, i), cache, &w):
            return False
        h = _absorb(h, w)
    out[0] = _absorb(h, <uint64_t>n)
    return True


cdef uint64_t _node_digest(object o, object t, _NodeClass *c, bint cache, int depth) except? 0:
    """``c``: the record of ``t`` when the caller found it current (else NULL: check ``t``)."""
    cdef uint64_t w, h, tag_digest = 0
    cdef Py_ssize_t i, k, nf
    cdef bint ignored = True  # a node's fields may be anything; the node itself is trusted
    cdef bint shared = False
    cdef PyObject **dp
    cdef PyObject **vals
    cdef PyObject *v
    cdef PyObject *md = NULL
    cdef object d = None
    cdef tuple fields
    cdef bint uncached = False
    cdef bint names_checked
    cdef PyObject *fp
    cdef _NodeClass *rc = NULL  # the record _values validated
    # The usual case first, without taking a reference: a node of a recorded class with shared
    # keys (``t`` is ``type(o)`` and ``c`` its current record) holding its cached digest, or
    # holding None or nothing under ``_digest`` (then not cached, as getattr would say).
    if c != NULL and cache and _node_hit(<PyObject *>o, c, &h, &uncached):
        return h
    if c == NULL:
        fields = _checked_fields(t, &tag_digest, &c)
    else:
        fields = <tuple>c.fields
        tag_digest = c.tag_digest
    if c != NULL and c.plain:
        if c.keys != NULL:
            shared = True
            if mq_keys_count(c.keys) != c.keys_seen:
                _index_keys(c)  # (reading the class may have added keys)
        elif not (Py_TYPE(<PyObject *>o).tp_flags & Py_TPFLAGS_MANAGED_DICT):
            dp = _PyObject_GetDictPtr(<PyObject *>o)
            if dp != NULL and dp[0] != NULL:
                d = <object>dp[0]
    if cache and not uncached:
        # For a plain class a value the node holds is what getattr would return, so getattr is
        # asked only when it holds none (a fresh node holds None or nothing there).
        v = NULL
        if shared:
            vals = _values(o, t, fields, &md, &rc)
            if vals != NULL:
                k = rc.ix_digest
                if k >= 0:
                    v = vals[k]
                if v == NULL and rc.digest_default_none:
                    v = <PyObject *>None
            elif md != NULL:
                v = PyDict_GetItem(<object>md, _S_DIGEST)
        elif d is not None:
            v = PyDict_GetItem(d, _S_DIGEST)
        if v != NULL:
            cached = <object>v
        else:
            cached = getattr(o, "_digest", None)
        if cached is not None:
            return _cached_digest(cached, t)
    if depth >= MAX_DEPTH:
        raise ValueError(f"structure nested deeper than {MAX_DEPTH} levels")
    h = _absorb(T_NODE, tag_digest)
    nf = PyTuple_GET_SIZE(fields)
    vals = NULL
    names_checked = c != NULL and c.fields == <PyObject *>fields  # a record's are exact strs
    for i in range(nf):
        fp = PyTuple_GET_ITEM(fields, i)
        if not names_checked and not PyUnicode_Check(<object>fp):
            raise TypeError(f"{t.__name__}: _hash_fields must be a tuple of str")
        v = NULL
        if shared:
            # The array found for the previous field is still the node's as long as no code
            # ran since: only _leaf (which runs none) was called.
            if vals == NULL:
                vals = _values(o, t, fields, &md, &rc)
            if vals != NULL:
                k = rc.ix[i] if i < MAX_INDEXED else -1
                if k >= 0:
                    v = vals[k]
                if v != NULL and _leaf(v, cache, depth + 1, &w):
                    h = _absorb(h, w)
                    continue
            elif md != NULL:
                v = PyDict_GetItem(<object>md, <object>fp)
        if v != NULL:
            value = <object>v  # a strong reference while it is walked
        else:
            value = _read(o, d, <object>fp)
        vals = NULL
        h = _absorb(h, _dg(value, cache, depth + 1, &ignored))
    h = _absorb(h, <uint64_t>nf)
    if cache:
        # = object.__setattr__(o, "_digest", h): bypasses the frozen dataclass's __setattr__.
        # While a class with a dict slot is still plain (reading the fields may have run code
        # that changed it) it has no data descriptor named _digest, so that is storing into the
        # node's current __dict__, done directly (no lookup of the class attribute).
        # Likewise for a plain class with shared keys whose node has its __dict__ built
        # (Node.replace builds it): the store is PyDict_SetItem into that dict.
        md = NULL
        if shared:
            c = _known(t)
            if c != NULL and c.keys != NULL and Py_TYPE(<PyObject *>o) == <PyTypeObject *>t:
                md = mq_managed_dict(<PyObject *>o)
        d = _plain_dict(o, t) if d is not None else None
        if d is not None:
            PyDict_SetItem(d, _S_DIGEST, PyLong_FromUnsignedLongLong(h))
        elif md != NULL and PyDict_CheckExact(<object>md):
            PyDict_SetItem(<object>md, _S_DIGEST, PyLong_FromUnsignedLongLong(h))
        else:
            PyObject_GenericSetAttr(o, _S_DIGEST, PyLong_FromUnsignedLongLong(h))
    return h


cdef inline object _plain_dict(object o, object t):
    """The node's ``__dict__`` if its class is recorded as plain and unchanged since, else None."""
    cdef _NodeClass *c = _known(t)
    cdef PyObject **dp
    if c == NULL or not c.plain:
        return None
    dp = _PyObject_GetDictPtr(<PyObject *>o)
    if dp == NULL or dp[0] == NULL:
        return None
    return <object>dp[0]


cdef uint64_t _dg(object o, bint cache, int depth, bint *pure) except? 0:
    """``pure`` is cleared when ``o`` holds something mutable (a list, a builtin subclass) outside
    any node: a tuple is cached only when all its items left it set."""
    cdef PyTypeObject *tp = Py_TYPE(<PyObject *>o)
    cdef _NodeClass *c
    cdef long long x
    # Exact builtin types first: they are what a state tree is made of, and none of them can be
    # anything else in the twin's dispatch order.
    if tp == <PyTypeObject *>tuple:
        return _seq_digest(<tuple>o, cache, depth, pure, True)
    if tp == <PyTypeObject *>int:
        if mq_small_int(<PyObject *>o, &x):
            return _absorb(T_INT, <uint64_t>x) if x >= 0 else _absorb(T_NEG, <uint64_t>x)
        return _int_digest(o)
    if tp == <PyTypeObject *>str:
        return _cached_str_digest(o)
    if o is None:
        return H_NONE
    # A recorded node class: it was recorded on reaching the last branch below, so it is none of
    # the builtin types nor a subclass of one (a class cannot gain such a base without changing).
    c = _known(<object>tp)
    if c != NULL:
        return _node_digest(o, <object>tp, c, cache, depth)
    t = <object>tp
    # The twin's dispatch order: bool, int, str, bytes, tuple/list, dict/set/frozenset, node.
    if PyBool_Check(o):
        return _absorb(T_BOOL, 1 if o is True else 0)
    if PyLong_Check(o):
        pure[0] = False
        return _int_digest(o)
    if PyUnicode_Check(o):
        pure[0] = False
        return _str_digest(o)
    if PyBytes_Check(o):
        if t is not bytes:
            pure[0] = False
        return _bytes_digest(T_BYTES, <const unsigned char *>PyBytes_AS_STRING(o),
                             PyBytes_GET_SIZE(o))
    if PyTuple_Check(o):
        # A tuple subclass: its items, not its (possibly overridden) iteration.
        pure[0] = False
        return _seq_digest(PyTuple_GetSlice(o, 0, PyTuple_GET_SIZE(o)), cache, depth, pure, False)
    if PyList_Check(o):
        # A snapshot, so a list mutated meanwhile cannot make us read past its end.
        pure[0] = False
        return _seq_digest(PyList_AsTuple(o), cache, depth, pure, False)
    if PyDict_Check(o) or PyAnySet_Check(o):
        raise TypeError(f"cannot digest a {t.__name__}: its order is not canonical")
    return _node_digest(o, t, NULL, cache, depth)


def digest(obj):
    """64-bit structural digest reusing and filling node ``_digest`` caches and the tuple table
    (see the twin)."""
    cdef bint pure = True
    return PyLong_FromUnsignedLongLong(_dg(obj, True, 0, &pure))


def digest_full(obj):
    """The same value as ``digest``, never reading nor writing ``_digest`` nor the tuple table
    (see the twin)."""
    cdef bint pure = True
    return PyLong_FromUnsignedLongLong(_dg(obj, False, 0, &pure))
