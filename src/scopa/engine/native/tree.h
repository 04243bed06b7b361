/* One information-set search tree in C (included by methods.h): what the search player's
 * `+tree` grows, the same algorithm as scopa.engine.ai.ismcts.Search without Python's cost
 * per iteration.
 *
 * Every iteration deals the cards the seat cannot see out again (uniformly, or weighted by
 * what the others' plays of the round reveal: scopa.engine.ai.inference, whose tables Python
 * hands over), walks down the tree choosing plays by UCB among those legal in that deal
 * (counting how often each was available), adds one play (with `round_only`, none past the
 * end of the round being played: the next round's hands differ from one deal to the next),
 * finishes the deal with the seats' playout strategies (the last `endgame` plays, once the
 * stock is empty, solved by alpha-beta in that deal: two sides only) and scores it with the
 * scorer's own points (a Python callable, asked once per distinct packed key and remembered),
 * backing each side's margin up the path.
 *
 * The tree lives in a capsule that Python runs a batch of iterations at a time, so that the
 * thinking time stays on Python's clock. */
#ifndef SCOPA_TREE_H
#define SCOPA_TREE_H

#include <math.h>

typedef struct {
    int32_t card;
    int32_t child, sibling; /* the first play after this one, the next play beside it: -1 */
    int32_t side;           /* the side that made this play */
    mask_t capture;
    double total; /* the rewards backed up through it, from its side's view */
    int32_t visits, available;
} TreeNode;

typedef struct {
    int seat;
    mask_t later;    /* the cards it played from then on, this round */
    double fewest;   /* the least sum of odds a hand allowing the play can have */
    double odds[40]; /* each card's odds summed over its plays on that table (Inference.rows) */
} Decision;

typedef struct {
    Cfg cfg;
    Game start;
    int sides, team_of[MAX_SEATS];
    int8_t strategy[MAX_SEATS];
    int nothers, others[MAX_SEATS], hidden[MAX_SEATS];
    int8_t unknown[40];
    int nunknown;
    double c, scale;
    int tries, endgame;
    int round_only; /* no play added past the end of the round being played */
    Decision *decisions;
    int ndecisions;
    MT g;
    TreeNode *nodes;
    int used, cap;
    Plays buf;
    uint64_t *keys; /* the points cache: open addressing, `filled` marks a slot in use */
    double *points;
    uint8_t *filled;
    int kcap, kused;
    PyObject *scorer; /* key -> points, the scorer's */
    long long iterations;
} Tree;

static void tree_free(Tree *t) {
    if (!t) return;
    free(t->decisions);
    free(t->nodes);
    free(t->buf.items);
    free(t->buf.cache);
    free(t->keys);
    free(t->points);
    free(t->filled);
    Py_XDECREF(t->scorer);
    free(t);
}

static void tree_capsule_free(PyObject *capsule) {
    tree_free((Tree *)PyCapsule_GetPointer(capsule, "scopa.tree"));
}

static int tree_node(Tree *t, int card, mask_t capture, int side) {
    if (t->used == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        TreeNode *more = realloc(t->nodes, (size_t)cap * sizeof *more);
        if (!more) return -1;
        t->nodes = more;
        t->cap = cap;
    }
    TreeNode *node = &t->nodes[t->used];
    node->card = card;
    node->capture = capture;
    node->side = side;
    node->child = node->sibling = -1;
    node->total = 0.0;
    node->visits = 0;
    node->available = 1;
    return t->used++;
}

/* The scorer's points for one side's packed key (asked of Python once per key). NAN with
 * the Python error set when it fails. */
static double tree_points(Tree *t, uint64_t key) {
    if (2 * (t->kused + 1) > t->kcap) {
        int cap = t->kcap ? 2 * t->kcap : 256;
        uint64_t *keys = calloc((size_t)cap, sizeof *keys);
        double *points = calloc((size_t)cap, sizeof *points);
        uint8_t *filled = calloc((size_t)cap, 1);
        if (!keys || !points || !filled) {
            free(keys), free(points), free(filled);
            PyErr_NoMemory();
            return NAN;
        }
        for (int i = 0; i < t->kcap; i++) {
            if (!t->filled[i]) continue;
            size_t h = (size_t)(t->keys[i] * 0x9E3779B97F4A7C15ULL >> 20) & (size_t)(cap - 1);
            while (filled[h]) h = (h + 1) & (size_t)(cap - 1);
            keys[h] = t->keys[i], points[h] = t->points[i], filled[h] = 1;
        }
        free(t->keys), free(t->points), free(t->filled);
        t->keys = keys, t->points = points, t->filled = filled, t->kcap = cap;
    }
    size_t mask = (size_t)(t->kcap - 1);
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15ULL >> 20) & mask;
    while (t->filled[h]) {
        if (t->keys[h] == key) return t->points[h];
        h = (h + 1) & mask;
    }
    PyObject *value = PyObject_CallFunction(t->scorer, "K", (unsigned long long)key);
    double points = value ? PyFloat_AsDouble(value) : NAN;
    Py_XDECREF(value);
    if (PyErr_Occurred()) return NAN;
    t->keys[h] = key, t->points[h] = points, t->filled[h] = 1, t->kused++;
    return points;
}

/* A deal agreeing with what the seat knows: the unknown cards shuffled into the other
 * hands (their face-up cards stay) and the stock. */
static void tree_deal(Tree *t, Game *s) {
    *s = t->start;
    mt_shuffle(&t->g, t->unknown, t->nunknown);
    int pos = 0;
    for (int i = 0; i < t->nothers; i++) {
        int o = t->others[i];
        mask_t hand = s->hands[o] & s->shown;
        for (int c = 0; c < t->hidden[i]; c++) hand |= 1ULL << t->unknown[pos++];
        s->hands[o] = hand;
    }
    for (int i = 0; pos < t->nunknown; i++) s->stock[s->stock_pos + i] = t->unknown[pos++];
}

/* Inference.weight: how likely the others' plays of the round were, had they held `s`'s
 * hands, as a share of the likeliest any hands could make them. */
static double tree_weight(const Tree *t, const Game *s) {
    double weight = 1.0;
    for (int d = 0; d < t->ndecisions; d++) {
        const Decision *dec = &t->decisions[d];
        double total = 0.0;
        for (mask_t h = s->hands[dec->seat] | dec->later; h; h &= h - 1)
            total += dec->odds[__builtin_ctzll(h)];
        weight *= dec->fewest / total;
    }
    return weight;
}

/* Inference.sample: rejection sampling, `tries` deals at most, then one of them drawn by its
 * weight. */
static void tree_sample(Tree *t, Game *s) {
    if (!t->ndecisions) {
        tree_deal(t, s);
        return;
    }
    Game candidate;
    double total = 0.0;
    for (int k = 0; k < t->tries; k++) {
        tree_deal(t, &candidate);
        double w = tree_weight(t, &candidate);
        if (mt_random(&t->g) < w) {
            *s = candidate;
            return;
        }
        total += w;
        if (!k || mt_random(&t->g) * total < w) *s = candidate; /* the first kept whatever its weight */
    }
}

/* Each side's reward for a finished deal (its points less the others' mean, over the scale).
 * Returns -1 with the Python error set when the scorer fails. */
static int tree_rewards(Tree *t, const Game *s, double *rewards) {
    Tally facts;
    deal_facts(s, t->team_of, t->sides, &facts);
    double points[MAX_SEATS], total = 0.0;
    for (int i = 0; i < t->sides; i++) {
        points[i] = tree_points(t, facts.keys[i]);
        if (isnan(points[i])) return -1;
        total += points[i];
    }
    for (int i = 0; i < t->sides; i++)
        rewards[i] = (points[i] - (total - points[i]) / (t->sides - 1)) / t->scale;
    return 0;
}

#define SOLVE_PLAYS 512 /* as the tree's untried plays: more than any hand of three has */

/* The rest of a two-sided deal with the stock empty, played by both sides as well as can be
 * with every hand as `s` deals it (alpha-beta): side 0's reward. NAN with the Python error set
 * when the scorer fails or memory runs out. */
static double tree_solve(Tree *t, const Game *s, int remaining, double alpha, double beta) {
    if (!remaining) {
        Game end = *s;
        end_deal(&end);
        double rewards[MAX_SEATS];
        return tree_rewards(t, &end, rewards) < 0 ? NAN : rewards[0];
    }
    const Cfg *cfg = &t->cfg;
    if (legal_plays(cfg, s->hands[s->turn], s->table, &t->buf, s->matta_as) < 0) {
        PyErr_NoMemory();
        return NAN;
    }
    int n = t->buf.len < SOLVE_PLAYS ? t->buf.len : SOLVE_PLAYS;
    int cards[SOLVE_PLAYS];
    mask_t captures[SOLVE_PLAYS];
    for (int k = 0; k < n; k++) {
        cards[k] = t->buf.items[k].card;
        captures[k] = t->buf.items[k].capture;
    }
    int ours = t->team_of[s->turn] == 0;
    double best = ours ? -INFINITY : INFINITY;
    for (int k = 0; k < n; k++) {
        Game next = *s;
        make_play(cfg, &next, cards[k], captures[k], remaining == 1);
        double v = tree_solve(t, &next, remaining - 1, alpha, beta);
        if (isnan(v)) return NAN;
        if (ours) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* One iteration. Returns -1 with the Python error set (no memory, the scorer failed). */
static int tree_iterate(Tree *t) {
    Game s;
    tree_sample(t, &s);
    const Cfg *cfg = &t->cfg;
    int path[64], depth = 0;
    int node = 0; /* the root */
    int remaining = cards_left(&s);
    while (remaining) {
        int turn = s.turn;
        if (t->round_only && !s.hands[turn] && s.stock_pos < s.stock_len) break;
        hand_out_if_empty(cfg, &s);
        if (legal_plays(cfg, s.hands[turn], s.table, &t->buf, s.matta_as) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        int untried[512], nuntried = 0, best = -1;
        double best_value = -1e300;
        for (int k = 0; k < t->buf.len; k++) {
            int card = t->buf.items[k].card;
            mask_t capture = t->buf.items[k].capture;
            int child = t->nodes[node].child;
            while (child >= 0 && (t->nodes[child].card != card || t->nodes[child].capture != capture))
                child = t->nodes[child].sibling;
            if (child < 0) {
                if (nuntried < 512) untried[nuntried++] = k;
                continue;
            }
            TreeNode *c = &t->nodes[child];
            c->available++;
            if (nuntried) continue; /* an untried play comes first: no need for its value */
            double value = c->total / c->visits + t->c * sqrt(log(c->available) / c->visits);
            if (value > best_value) best_value = value, best = child;
        }
        int card;
        mask_t capture;
        if (nuntried) {
            int k = untried[(int)(mt_random(&t->g) * nuntried)];
            card = t->buf.items[k].card;
            capture = t->buf.items[k].capture;
            int child = tree_node(t, card, capture, t->team_of[turn]);
            if (child < 0) {
                PyErr_NoMemory();
                return -1;
            }
            t->nodes[child].sibling = t->nodes[node].child;
            t->nodes[node].child = child;
            node = child;
        } else {
            node = best;
            card = t->nodes[node].card;
            capture = t->nodes[node].capture;
        }
        if (depth < 64) path[depth++] = node;
        remaining--;
        make_play(cfg, &s, card, capture, !remaining);
        if (nuntried) break;
    }
    remaining = play_until(cfg, &s, &t->g, t->strategy, &t->buf, NULL, t->endgame);
    if (remaining < 0) {
        PyErr_NoMemory();
        return -1;
    }
    double rewards[MAX_SEATS];
    if (remaining) { /* the endgame: the last plays solved, both sides seeing every hand */
        double v = tree_solve(t, &s, remaining, -INFINITY, INFINITY);
        if (isnan(v)) return -1;
        rewards[0] = v, rewards[1] = -v;
    } else {
        end_deal(&s);
        if (tree_rewards(t, &s, rewards) < 0) return -1;
    }
    for (int d = 0; d < depth; d++) {
        TreeNode *n = &t->nodes[path[d]];
        n->visits++;
        n->total += rewards[n->side];
    }
    t->iterations++;
    return 0;
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
    Game *g = &t->start;
    for (int k = 1; k < players; k++) {
        int o = (seat + k) % players;
        t->others[t->nothers] = o;
        t->hidden[t->nothers++] = bits(g->hands[o] & ~g->shown);
    }
    mask_t unknown = g->table;
    for (int k = 0; k < players; k++) unknown |= g->piles[k] | (g->hands[k] & g->shown);
    unknown = FULL & ~(unknown | g->hands[seat]);
    for (mask_t u = unknown; u; u &= u - 1) t->unknown[t->nunknown++] = (int8_t)__builtin_ctzll(u);
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
    t->buf.cache = calloc(CACHE_SLOTS, sizeof(Cached));
    if (!t->buf.cache || tree_node(t, -1, 0, 0) < 0) {
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

#endif
