/* The tree's methods on the Rules type (included by methods.h): tree.h's search from
 * Python. */

/* The tree's host (tree.h): the scorer is a Python callable, errors are Python's. */
static double host_points(void *scorer, uint64_t key) {
    PyObject *value = PyObject_CallFunction((PyObject *)scorer, "K", (unsigned long long)key);
    double points = value ? PyFloat_AsDouble(value) : NAN;
    Py_XDECREF(value);
    return PyErr_Occurred() ? NAN : points;
}

static void host_no_memory(void) { PyErr_NoMemory(); }

static void host_release(void *scorer) { Py_DECREF((PyObject *)scorer); }

#include "tree.h"

static void tree_capsule_free(PyObject *capsule) {
    tree_free((Tree *)PyCapsule_GetPointer(capsule, "scopa.tree"));
}

/* tree(hands, table, stock, piles, sweeps, turn, last, dealer, ace_sweeps, cleared, seat,
 *      strategies, seed, team_of, sides, exploration, scale, scorer, decisions,
 *      tries, shown=, matta_as=, endgame=, round_only=): a new tree for the seat to move
 * (`seat`), from one deal that agrees with what it knows (its hidden cards are dealt again
 * every iteration). `decisions`: Inference.rows (seat, later, fewest, odds per card). */
static PyObject *Rules_tree(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"hands",       "table",      "stock",    "piles",     "sweeps",
                            "turn",        "last",       "dealer",   "ace_sweeps", "cleared",
                            "seat",        "strategies", "seed",     "team_of",   "sides",
                            "exploration", "scale",      "scorer",   "decisions",
                            "tries",       "shown",      "matta_as", "endgame",
                            "round_only",  NULL};
    PyObject *hands, *stock, *piles, *sweeps, *last, *aces, *cleared, *strategies, *seed;
    PyObject *teams, *scorer, *decisions;
    unsigned long long table, shown = 0;
    int turn, dealer, seat, sides, tries, matta_as = -1, endgame = 0, round_only = 0;
    double exploration, scale;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "OKOOOiOiOOiOOOiddOOi|Kiip", names, &hands, &table, &stock, &piles,
            &sweeps, &turn, &last, &dealer, &aces, &cleared, &seat, &strategies, &seed,
            &teams, &sides, &exploration, &scale, &scorer, &decisions, &tries,
            &shown, &matta_as, &endgame, &round_only))
        return NULL;
    if (!PyCallable_Check(scorer)) {
        PyErr_SetString(PyExc_TypeError, "scorer: a callable from a packed key to points");
        return NULL;
    }
    if (!(scale > 0) || tries < 1 || exploration < 0) {
        PyErr_SetString(PyExc_ValueError, "scale above 0, tries at least 1");
        return NULL;
    }
    Tree *t = calloc(1, sizeof *t);
    if (!t) return PyErr_NoMemory();
    if (read_game(&t->start, hands, table, stock, piles, sweeps, turn, last, dealer, aces,
                  cleared, shown, matta_as) < 0)
        goto fail;
    int players = t->start.n;
    if (seat < 0 || seat >= players || seat != turn) {
        PyErr_SetString(PyExc_ValueError, "seat: the seat to move");
        goto fail;
    }
    if (read_strategies(strategies, players, t->strategy) < 0 ||
        read_teams(teams, players, sides, t->team_of) < 0)
        goto fail;
    if (sides < 2) {
        PyErr_SetString(PyExc_ValueError, "sides: at least two");
        goto fail;
    }
    if (read_rng(seed, NULL, &t->g) < 0) goto fail;
    t->cfg = self->cfg;
    t->sides = sides;
    t->c = exploration;
    t->scale = scale;
    t->tries = tries;
    t->endgame = sides == 2 && endgame > 0 ? endgame : 0;
    t->round_only = round_only;
    PyObject *rows = PySequence_Fast(decisions, "decisions: a sequence of rows");
    if (!rows) goto fail;
    Py_ssize_t nrows = PySequence_Fast_GET_SIZE(rows);
    t->decisions = calloc((size_t)nrows + 1, sizeof(Decision));
    if (!t->decisions) {
        Py_DECREF(rows);
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t r = 0; r < nrows; r++) {
        Decision *d = &t->decisions[r];
        PyObject *best;
        unsigned long long later;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(rows, r), "iKdO", &d->seat, &later,
                              &d->fewest, &best)) {
            Py_DECREF(rows);
            goto fail;
        }
        d->later = later;
        PyObject *values = PySequence_Fast(best, "decisions: 40 values per row");
        if (!values || PySequence_Fast_GET_SIZE(values) != 40 || d->seat < 0 ||
            d->seat >= players) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "decisions: (seat, later, fewest, 40 odds)");
            Py_XDECREF(values);
            Py_DECREF(rows);
            goto fail;
        }
        for (int c = 0; c < 40; c++) d->odds[c] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values, c));
        Py_DECREF(values);
        if (PyErr_Occurred()) {
            Py_DECREF(rows);
            goto fail;
        }
    }
    Py_DECREF(rows);
    t->ndecisions = (int)nrows;
    if (tree_prepare(t, seat) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    Py_INCREF(scorer);
    t->scorer = scorer;
    PyObject *capsule = PyCapsule_New(t, "scopa.tree", tree_capsule_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    tree_free(t);
    return NULL;
}

static Tree *tree_of(PyObject *capsule) {
    return (Tree *)PyCapsule_GetPointer(capsule, "scopa.tree");
}

/* tree_run(tree, count): `count` more iterations. */
static PyObject *Rules_tree_run(RulesObject *self, PyObject *args) {
    PyObject *capsule;
    long long count;
    if (!PyArg_ParseTuple(args, "OL", &capsule, &count)) return NULL;
    Tree *t = tree_of(capsule);
    if (!t) return NULL;
    for (long long k = 0; k < count; k++)
        if (tree_iterate(t) < 0) return NULL;
    return PyLong_FromLongLong(t->iterations);
}

/* tree_sample(tree): one deal as the iterations draw them: (hands, stock). */
static PyObject *Rules_tree_sample(RulesObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Tree *t = tree_of(capsule);
    if (!t) return NULL;
    Game s;
    tree_sample(t, &s);
    PyObject *hands = PyTuple_New(s.n);
    PyObject *stock = PyTuple_New(s.stock_len - s.stock_pos);
    for (int k = 0; hands && k < s.n; k++)
        PyTuple_SET_ITEM(hands, k, PyLong_FromUnsignedLongLong(s.hands[k]));
    for (int k = s.stock_pos; stock && k < s.stock_len; k++)
        PyTuple_SET_ITEM(stock, k - s.stock_pos, PyLong_FromLong(s.stock[k]));
    if (!hands || !stock) {
        Py_XDECREF(hands);
        Py_XDECREF(stock);
        return NULL;
    }
    return Py_BuildValue("(NN)", hands, stock);
}

/* tree_size(tree): the plays the tree holds (its nodes, the root left out). */
static PyObject *Rules_tree_size(RulesObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Tree *t = tree_of(capsule);
    if (!t) return NULL;
    return PyLong_FromLong(t->used - 1);
}

/* tree_stats(tree): [((card, capture), visits, mean reward)] for each root play tried. */
static PyObject *Rules_tree_stats(RulesObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Tree *t = tree_of(capsule);
    if (!t) return NULL;
    PyObject *out = PyList_New(0);
    for (int c = t->nodes[0].child; out && c >= 0; c = t->nodes[c].sibling) {
        TreeNode *n = &t->nodes[c];
        double mean = n->visits ? n->total / n->visits * t->scale : 0.0;
        PyObject *row = Py_BuildValue("((iK)id)", n->card, (unsigned long long)n->capture,
                                      n->visits, mean);
        if (!row || PyList_Append(out, row) < 0) Py_CLEAR(out);
        Py_XDECREF(row);
    }
    return out;
}

