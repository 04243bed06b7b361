/* scopa.engine.native._kernel: the engine's playout in C (see scopa/native/__init__.py).
 *
 * A Rules object holds one variant's flags; its methods deal, list legal plays, play deals out
 * and run batches of deals whose scorer's facts are counted in C. Generators are CPython's
 * random.Random, so every result equals the pure-Python engine's. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "game.h"

typedef struct {
    PyObject_HEAD Cfg cfg;
    Plays buf;
    Cached *batch_cache; /* the sums cache of run_deals and rollouts, warm from call to call */
    int batch_busy;      /* a batch (with the GIL released) is using it */
} RulesObject;

static PyObject *KernelError;

/* ---------- conversions ---------- */

/* `seq` as a fast sequence of at most `max` items (NULL, the error set, if it is not). */
static PyObject *read_sequence(PyObject *seq, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast && PySequence_Fast_GET_SIZE(fast) > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d values", what, max);
        return NULL;
    }
    return fast;
}

/* Reading a sequence of at most `max` ints into `out`: how many (-1, the error set, if not). */
static int read_int_tuple(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = read_sequence(seq, max, what);
    if (!fast) return -1;
    Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(fast);
    for (; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) break;
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return i < n ? -1 : (int)n;
}

/* The same for card masks (unsigned 64-bit). */
static int read_masks(PyObject *seq, mask_t *out, int max, const char *what) {
    PyObject *fast = read_sequence(seq, max, what);
    if (!fast) return -1;
    Py_ssize_t i = 0, n = PySequence_Fast_GET_SIZE(fast);
    for (; i < n; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == (mask_t)-1 && PyErr_Occurred()) break;
    }
    Py_DECREF(fast);
    return i < n ? -1 : (int)n;
}

/* A generator from `seed` (a tuple of 1 to 7 key words: the int's 32-bit words) or from
 * `state` (CPython's (624 words, index)). */
static int read_rng(PyObject *seed, PyObject *state, MT *g) {
    if (state && state != Py_None) {
        uint32_t words[MT_N];
        PyObject *mt;
        int index;
        if (!PyArg_ParseTuple(state, "Oi", &mt, &index)) return -1;
        mask_t tmp[MT_N];
        if (read_masks(mt, tmp, MT_N, "state") != MT_N) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "state: 624 words");
            return -1;
        }
        for (int i = 0; i < MT_N; i++) words[i] = (uint32_t)tmp[i];
        mt_import(g, words, index);
        return 0;
    }
    uint32_t key[8];
    mask_t words[8];
    int len = read_masks(seed, words, 7, "seed");
    if (len < 0) return -1;
    if (len == 0) {
        PyErr_SetString(PyExc_ValueError, "seed: at least one word");
        return -1;
    }
    for (int i = 0; i < len; i++) key[i] = (uint32_t)words[i];
    if (mt_seed(g, key, len) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *rng_state(MT *g) {
    uint32_t words[MT_N];
    int index = mt_export(g, words);
    PyObject *tuple = PyTuple_New(MT_N);
    if (!tuple) return NULL;
    for (int i = 0; i < MT_N; i++) PyTuple_SET_ITEM(tuple, i, PyLong_FromUnsignedLong(words[i]));
    return Py_BuildValue("(Ni)", tuple, index);
}

static PyObject *masks_tuple(const mask_t *masks, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLongLong(masks[i]));
    return t;
}

static PyObject *ints_tuple(const int *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(values[i]));
    return t;
}

static PyObject *plays_list(const Plays *p) {
    PyObject *list = PyList_New(p->len);
    if (!list) return NULL;
    for (int i = 0; i < p->len; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(iK)", p->items[i].card,
                                               (unsigned long long)p->items[i].capture));
    return list;
}

static PyObject *opt_int(int v) {
    if (v < 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static int read_strategies(PyObject *seq, int n, int8_t *out) {
    int values[MAX_SEATS];
    int len = read_int_tuple(seq, values, MAX_SEATS, "strategies");
    if (len < 0) return -1;
    if (len != n) {
        PyErr_Format(PyExc_ValueError, "strategies: %d for %d seats", len, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (values[i] < RANDOM || values[i] > MIXED) {
            PyErr_Format(PyExc_ValueError, "strategies: unknown code %d for seat %d", values[i], i);
            return -1;
        }
        out[i] = (int8_t)values[i];
    }
    return 0;
}

static int check_seats(int players, int dealer) {
    if (players < 2 || players > MAX_SEATS || dealer < 0 || dealer >= players) {
        PyErr_Format(PyExc_ValueError, "%d players with dealer %d", players, dealer);
        return -1;
    }
    return 0;
}

#include "methods.h"
