/* The Rules type's methods and the module (included by _kernel.c). */

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kwds) {
    PyObject *packets;
    Cfg *c = &self->cfg;
    if (!PyArg_ParseTuple(args, "iiiiiiiiiiiOiiiiii", &c->fifteen, &c->fewest,
                          &c->ace_takes_all, &c->ace_sweep, &c->optional, &c->dealer_sweeps,
                          &c->last_play_sweep, &c->last_apart, &c->kings_redeal, &c->hand_size,
                          &c->table_size, &packets, &c->cirulla, &c->low_table, &c->aces_redeal,
                          &c->matta_declared, &c->cirulla_points, &c->decino_points))
        return -1;
    c->npackets = read_int_tuple(packets, c->packets, 16, "packets");
    if (c->npackets < 0) return -1;
    if (!self->buf.cache && !(self->buf.cache = calloc(CACHE_SLOTS, sizeof(Cached)))) {
        PyErr_NoMemory();
        return -1;
    }
    memset(self->buf.cache, 0, CACHE_SLOTS * sizeof(Cached)); /* new rules, new sums */
    if (self->batch_cache && !self->batch_busy)
        memset(self->batch_cache, 0, CACHE_SLOTS * sizeof(Cached));
    return 0;
}

static void Rules_dealloc(RulesObject *self) {
    free(self->buf.items);
    free(self->buf.cache);
    free(self->batch_cache);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The sums cache for a batch of deals (with the GIL held): the object's own, kept warm from
 * one call to the next (a search player's many small batches, simulate's chunks), unless
 * another thread's batch is using it; then a new one. NULL: no memory. */
static Cached *batch_cache(RulesObject *self) {
    if (self->batch_busy) return calloc(CACHE_SLOTS, sizeof(Cached));
    if (!self->batch_cache && !(self->batch_cache = calloc(CACHE_SLOTS, sizeof(Cached))))
        return NULL;
    self->batch_busy = 1;
    return self->batch_cache;
}

/* Give back batch_cache's cache (with the GIL held). */
static void batch_cache_done(RulesObject *self, Cached *cache) {
    if (cache && cache == self->batch_cache) self->batch_busy = 0;
    else free(cache);
}

static PyObject *Rules_plays(RulesObject *self, PyObject *args) {
    unsigned long long hand, table;
    if (!PyArg_ParseTuple(args, "KK", &hand, &table)) return NULL;
    if ((hand | table) >> 40 || (hand & table)) {
        PyErr_SetString(PyExc_ValueError, "hand and table: disjoint 40-bit masks");
        return NULL;
    }
    if (legal_plays(&self->cfg, hand, table, &self->buf, -1) < 0) return PyErr_NoMemory();
    return plays_list(&self->buf);
}

/* The finished (or dealt) game as a tuple: see scopa.engine.native.Outcome. */
static PyObject *game_result(Game *s, Plays *history, MT *g, int keep_state) {
    PyObject *hist = history ? plays_list(history) : (Py_INCREF(Py_None), Py_None);
    PyObject *state = keep_state ? rng_state(g) : (Py_INCREF(Py_None), Py_None);
    PyObject *stock = PyTuple_New(s->stock_len - s->stock_pos);
    for (int i = s->stock_pos; stock && i < s->stock_len; i++)
        PyTuple_SET_ITEM(stock, i - s->stock_pos, PyLong_FromLong(s->stock[i]));
    PyObject *declared = PyTuple_New(s->n);
    for (int k = 0; declared && k < s->n; k++) {
        int kinds[14];
        for (int j = 0; j < s->ndeclared[k]; j++) kinds[j] = s->declared[k][j];
        PyTuple_SET_ITEM(declared, k, ints_tuple(kinds, s->ndeclared[k]));
    }
    return Py_BuildValue("(NKNNNNNiNiiNNNN)", masks_tuple(s->hands, s->n),
                         (unsigned long long)s->table, stock, masks_tuple(s->piles, s->n),
                         ints_tuple(s->sweeps, s->n), opt_int(s->last), opt_int(s->leftovers_to),
                         s->turn, hist, s->redeals, s->dealer, state,
                         ints_tuple(s->ace_sweeps, s->n), opt_int(s->last_cleared), declared);
}

static PyObject *Rules_deal(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "dealer", "seed", "state", "keep_state", NULL};
    int players, dealer, keep = 0;
    PyObject *seed = NULL, *state = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ii|OOp", names, &players, &dealer, &seed,
                                     &state, &keep))
        return NULL;
    if (check_seats(players, dealer) < 0) return NULL;
    MT g;
    if (read_rng(seed, state, &g) < 0) return NULL;
    Game s;
    deal_game(&self->cfg, players, dealer, &g, &s);
    return game_result(&s, NULL, &g, keep);
}

/* Play `s` to the end drawing from `g`: play() and playout()'s answer (with the plays if
 * `want_history`; with the generator's state if `keep`). */
static PyObject *play_to_end(RulesObject *self, Game *s, MT *g, const int8_t *strategy,
                             int want_history, int keep) {
    Plays history = {NULL, 0, 0};
    Plays *plays = want_history ? &history : NULL;
    if (play_out(&self->cfg, s, g, strategy, &self->buf, plays) < 0) {
        free(history.items);
        return PyErr_NoMemory();
    }
    PyObject *out = game_result(s, plays, g, keep);
    free(history.items);
    return out;
}

static PyObject *Rules_play(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"players", "dealer", "strategies", "seed", "state", "history",
                            "keep_state", NULL};
    int players, dealer, want_history = 1, keep = 0;
    PyObject *strategies, *seed = NULL, *state = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiO|OOpp", names, &players, &dealer,
                                     &strategies, &seed, &state, &want_history, &keep))
        return NULL;
    if (check_seats(players, dealer) < 0) return NULL;
    int8_t strategy[MAX_SEATS];
    if (read_strategies(strategies, players, strategy) < 0) return NULL;
    MT g;
    if (read_rng(seed, state, &g) < 0) return NULL;
    Game s;
    deal_game(&self->cfg, players, dealer, &g, &s);
    return play_to_end(self, &s, &g, strategy, want_history, keep);
}

/* A game in progress from the fields of a State (checked: each of the 40 cards once). */
static int read_game(Game *s, PyObject *hands, unsigned long long table, PyObject *stock,
                     PyObject *piles, PyObject *sweeps, int turn, PyObject *last, int dealer,
                     PyObject *aces, PyObject *cleared, unsigned long long shown, int matta_as) {
    memset(s, 0, sizeof *s);
    s->n = read_masks(hands, s->hands, MAX_SEATS, "hands");
    if (s->n < 0) return -1;
    int stock_cards[40];
    int len = read_int_tuple(stock, stock_cards, 40, "stock");
    if (len < 0 || read_masks(piles, s->piles, MAX_SEATS, "piles") != s->n ||
        read_int_tuple(sweeps, s->sweeps, MAX_SEATS, "sweeps") != s->n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one pile and sweep per seat");
        return -1;
    }
    if (check_seats(s->n, dealer) < 0 || check_seats(s->n, turn) < 0) return -1;
    mask_t seen = table;
    int cards = 0;
    for (int i = 0; i < s->n; i++) seen |= s->hands[i] | s->piles[i];
    for (int i = 0; i < len; i++) {
        if (stock_cards[i] < 0 || stock_cards[i] >= 40) seen = ~0ULL;
        else seen |= 1ULL << stock_cards[i], cards++;
        s->stock[i] = (int8_t)stock_cards[i];
    }
    cards += __builtin_popcountll(table);
    for (int i = 0; i < s->n; i++) cards += __builtin_popcountll(s->hands[i] | s->piles[i]);
    if (seen != FULL || cards != 40) {
        PyErr_SetString(PyExc_ValueError, "the state does not hold each of the 40 cards once");
        return -1;
    }
    s->table = table;
    s->stock_len = len;
    s->turn = turn;
    s->dealer = dealer;
    s->last = last == Py_None ? -1 : (int)PyLong_AsLong(last);
    s->last_cleared = cleared == Py_None ? -1 : (int)PyLong_AsLong(cleared);
    s->shown = shown;
    s->matta_as = matta_as;
    s->leftovers_to = -1;
    int naces = read_int_tuple(aces, s->ace_sweeps, MAX_SEATS, "ace_sweeps");
    if (naces < 0) return -1;
    if (naces != s->n && naces != 0) {
        PyErr_SetString(PyExc_ValueError, "ace_sweeps: one per seat (or none)");
        return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *Rules_playout(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"hands",  "table",      "stock",    "piles",      "sweeps",
                            "turn",   "last",       "dealer",   "strategies", "ace_sweeps",
                            "cleared", "seed",      "state",    "history",    "keep_state",
                            "shown",   "matta_as",  NULL};
    PyObject *hands, *stock, *piles, *sweeps, *last, *strategies, *aces, *cleared;
    PyObject *seed = NULL, *state = NULL;
    unsigned long long table, shown = 0;
    int turn, dealer, want_history = 0, keep = 0, matta_as = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKOOOiOiOOO|OOppKi", names, &hands, &table,
                                     &stock, &piles, &sweeps, &turn, &last, &dealer, &strategies,
                                     &aces, &cleared, &seed, &state, &want_history, &keep,
                                     &shown, &matta_as))
        return NULL;
    Game s;
    if (read_game(&s, hands, table, stock, piles, sweeps, turn, last, dealer, aces, cleared,
                  shown, matta_as) < 0)
        return NULL;
    int8_t strategy[MAX_SEATS];
    if (read_strategies(strategies, s.n, strategy) < 0) return NULL;
    MT g;
    if (read_rng(seed, state, &g) < 0) return NULL;
    return play_to_end(self, &s, &g, strategy, want_history, keep);
}

#include "facts.h"

static int read_teams(PyObject *seq, int players, int sides, int *team_of) {
    int len = read_int_tuple(seq, team_of, MAX_SEATS, "team_of");
    if (len < 0) return -1;
    if (!scoring.ready) {
        PyErr_SetString(KernelError, "the scoring tables are not set (set_scoring)");
        return -1;
    }
    int ok = len == players && sides >= 1 && sides <= players;
    for (int i = 0; ok && i < len; i++) ok = team_of[i] >= 0 && team_of[i] < sides;
    if (!ok) PyErr_SetString(PyExc_ValueError, "team_of: a side below `sides` for each seat");
    return ok ? 0 : -1;
}

#include "fold.h"

static PyObject *tallies_dict(Tallies *tab, int sides);

/* `count` playouts of one game, playout k seeded by the key (k, *prefix): counted by their
 * scorer's facts per side, as run_deals counts deals. */
static PyObject *Rules_rollouts(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"hands",  "table",   "stock",  "piles",      "sweeps",
                            "turn",   "last",    "dealer", "strategies", "ace_sweeps",
                            "cleared", "prefix", "count",  "team_of",    "sides",
                            "shown",  "matta_as", NULL};
    PyObject *hands, *stock, *piles, *sweeps, *last, *strategies, *aces, *cleared, *prefix_seq;
    PyObject *teams;
    unsigned long long table, shown = 0;
    long long count;
    int turn, dealer, sides, matta_as = -1, team_of[MAX_SEATS];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OKOOOiOiOOOOLOi|Ki", names, &hands, &table,
                                     &stock, &piles, &sweeps, &turn, &last, &dealer, &strategies,
                                     &aces, &cleared, &prefix_seq, &count, &teams, &sides, &shown,
                                     &matta_as))
        return NULL;
    Game start_game;
    if (read_game(&start_game, hands, table, stock, piles, sweeps, turn, last, dealer, aces,
                  cleared, shown, matta_as) < 0)
        return NULL;
    int players = start_game.n;
    mask_t prefix[7];
    int plen = read_masks(prefix_seq, prefix, 6, "prefix");
    int8_t strategy[MAX_SEATS];
    if (plen < 0 || read_strategies(strategies, players, strategy) < 0 ||
        read_teams(teams, players, sides, team_of) < 0)
        return NULL;
    if (count < 0 || count > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "count: 0 to 2**32 - 1");
        return NULL;
    }
    Tallies tab;
    Cached *cache = batch_cache(self);
    int failed;
    Py_BEGIN_ALLOW_THREADS;
    failed = rollout_tallies(&self->cfg, &start_game, strategy, prefix, plen, count, team_of,
                             sides, cache, &tab) < 0;
    Py_END_ALLOW_THREADS;
    batch_cache_done(self, cache);
    if (failed) {
        free(tab.slots);
        return PyErr_NoMemory();
    }
    PyObject *out = tallies_dict(&tab, sides);
    free(tab.slots);
    return out;
}

/* The tallies as {(keys per side, leader): count}. */
static PyObject *tallies_dict(Tallies *tab, int sides) {
    PyObject *out = PyDict_New();
    for (size_t i = 0; out && i < tab->cap; i++) {
        Tally *t = &tab->slots[i];
        if (!t->count) continue;
        PyObject *keys = PyTuple_New(sides);
        for (int j = 0; keys && j < sides; j++)
            PyTuple_SET_ITEM(keys, j, PyLong_FromUnsignedLongLong(t->keys[j]));
        PyObject *k = keys ? Py_BuildValue("(Ni)", keys, t->leader) : NULL;
        PyObject *v = PyLong_FromLongLong(t->count);
        if (!k || !v || PyDict_SetItem(out, k, v) < 0) Py_CLEAR(out);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return out;
}

#include "tree_methods.h"

static PyMethodDef Rules_methods[] = {
    {"plays", (PyCFunction)Rules_plays, METH_VARARGS, "plays(hand, table): the legal plays"},
    {"deal", (PyCFunction)(void (*)(void))Rules_deal, METH_VARARGS | METH_KEYWORDS,
     "deal(players, dealer, seed=, state=, keep_state=False): a dealt game"},
    {"play", (PyCFunction)(void (*)(void))Rules_play, METH_VARARGS | METH_KEYWORDS,
     "play(players, dealer, strategies, seed=, state=, history=True, keep_state=False)"},
    {"playout", (PyCFunction)(void (*)(void))Rules_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(hands, table, stock, piles, sweeps, turn, last, dealer, strategies, ...)"},
    {"rollouts", (PyCFunction)(void (*)(void))Rules_rollouts, METH_VARARGS | METH_KEYWORDS,
     "rollouts(hands, ..., strategies, ace_sweeps, cleared, prefix, count, team_of, sides)"},
    {"tree", (PyCFunction)(void (*)(void))Rules_tree, METH_VARARGS | METH_KEYWORDS,
     "tree(hands, ..., seat, strategies, prefix, team_of, sides, ...): a new search tree"},
    {"tree_run", (PyCFunction)Rules_tree_run, METH_VARARGS,
     "tree_run(tree, count): more iterations; the iterations so far"},
    {"tree_sample", (PyCFunction)Rules_tree_sample, METH_VARARGS,
     "tree_sample(tree): one deal as its iterations draw them, (hands, stock)"},
    {"tree_size", (PyCFunction)Rules_tree_size, METH_VARARGS,
     "tree_size(tree): the plays the tree holds"},
    {"tree_stats", (PyCFunction)Rules_tree_stats, METH_VARARGS,
     "tree_stats(tree): each root play tried with its visits and mean margin"},
    {"run_deals", (PyCFunction)Rules_run_deals, METH_VARARGS,
     "run_deals(players, prefix, start, count, strategies, team_of, sides, table, fields)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scopa.engine.native._kernel.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One variant's capture rules and deal, in C.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_methods = Rules_methods,
};

static PyObject *set_scoring(PyObject *module, PyObject *args) {
    PyObject *cb, *bp, *br, *pv, *consts;
    if (!PyArg_ParseTuple(args, "OOOOO", &cb, &bp, &br, &pv, &consts)) return NULL;
    mask_t coin_bits[1024], c[14];
    if (read_masks(cb, coin_bits, 1024, "coin_bits") != 1024 ||
        read_int_tuple(bp, scoring.best_primiera, 1024, "best_primiera") != 1024 ||
        read_int_tuple(br, scoring.best_rank, 1024, "best_rank") != 1024 ||
        read_int_tuple(pv, scoring.primiera_values, 10, "primiera_values") != 10 ||
        read_masks(consts, c, 14, "constants") != 14) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "set_scoring: table sizes");
        return NULL;
    }
    memcpy(scoring.coin_bits, coin_bits, sizeof coin_bits);
    scoring_constants(c);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_scoring", set_scoring, METH_VARARGS,
     "set_scoring(coin_bits, best_primiera, best_rank, primiera_values, constants)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The engine's playout in C.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    mt_prepare();
    prepare_combos();
    prepare_ranks();
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    KernelError = PyErr_NewException("scopa.engine.native._kernel.KernelError", PyExc_RuntimeError, NULL);
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0 ||
        PyModule_AddObject(m, "KernelError", KernelError) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
