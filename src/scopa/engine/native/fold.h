/* run_deals: a batch of deals played and scored, the statistics summed in C (included by
 * methods.h).
 *
 * The points stay the scorer's: each side's packed facts (scopa.scoring's key) are looked up
 * in the Python scorer's PointsTable, once per distinct key in a call. What
 * scopa.engine.simulate.Stats.add_deal adds per deal (points per category and side, sweeps,
 * the leader's and the others' points, the deal's winner or a tie) is then summed here, so
 * no Python object is made per deal or per distinct outcome.
 *
 * The deals are played in blocks with the GIL released; between blocks the keys first met in
 * the block are looked up (with the GIL), then the block's deals are folded in. */

#define FOLD_BLOCK 4096 /* deals per block (a multiple of MT_LANES) */
#define MAX_FIELDS 16   /* the Points fields read: total, sweeps and the sheet's keys */

/* One distinct key: its points as the scorer gives them, and in how many deals each side had
 * it. */
typedef struct {
    uint64_t key;
    long long total, sweeps, values[MAX_FIELDS];
    long long count[MAX_SEATS];
} Facts;

/* The distinct keys met, in the order met, with an open-addressing index by key. */
typedef struct {
    Facts *facts;
    int len, cap;
    int32_t *index; /* slot -> position in facts + 1 (0: empty) */
    size_t slots;   /* a power of two, over twice len */
} FactsTable;

static void facts_free(FactsTable *t) {
    free(t->facts);
    free(t->index);
}

static inline size_t facts_hash(uint64_t key, size_t slots) {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (slots - 1);
}

static int facts_rehash(FactsTable *t, size_t slots) {
    int32_t *index = calloc(slots, sizeof(int32_t));
    if (!index) return -1;
    for (int i = 0; i < t->len; i++) {
        size_t h = facts_hash(t->facts[i].key, slots);
        while (index[h]) h = (h + 1) & (slots - 1);
        index[h] = i + 1;
    }
    free(t->index);
    t->index = index;
    t->slots = slots;
    return 0;
}

/* The position of `key` in t->facts, added (its points not read yet) if new; -1: no memory. */
static inline int facts_find(FactsTable *t, uint64_t key) {
    size_t h = facts_hash(key, t->slots);
    for (;; h = (h + 1) & (t->slots - 1)) {
        int32_t at = t->index[h];
        if (!at) break;
        if (t->facts[at - 1].key == key) return at - 1;
    }
    if (t->len == t->cap) {
        int cap = t->cap * 2;
        Facts *facts = realloc(t->facts, (size_t)cap * sizeof(Facts));
        if (!facts) return -1;
        t->facts = facts;
        t->cap = cap;
    }
    Facts *f = &t->facts[t->len];
    memset(f, 0, sizeof *f);
    f->key = key;
    t->index[h] = ++t->len;
    if ((size_t)t->len * 2 > t->slots && facts_rehash(t, t->slots * 2) < 0) return -1;
    return t->len - 1;
}

/* Read the points of facts[from..len-1] from the scorer's table (a mapping of key -> Points,
 * a tuple): fields[0] is the index of `total`, fields[1] of `sweeps`, the rest the sheet's
 * keys. */
static int facts_read(FactsTable *t, int from, PyObject *table, const int *fields, int nfields) {
    for (int i = from; i < t->len; i++) {
        Facts *f = &t->facts[i];
        PyObject *key = PyLong_FromUnsignedLongLong(f->key);
        PyObject *points = key ? PyObject_GetItem(table, key) : NULL;
        Py_XDECREF(key);
        if (!points) return -1;
        long long got[MAX_FIELDS + 2];
        for (int j = 0; j < nfields; j++) {
            PyObject *item = PySequence_GetItem(points, fields[j]);
            got[j] = item ? PyLong_AsLongLong(item) : -1;
            Py_XDECREF(item);
            if (got[j] == -1 && PyErr_Occurred()) {
                Py_DECREF(points);
                return -1;
            }
        }
        Py_DECREF(points);
        f->total = got[0];
        f->sweeps = got[1];
        memcpy(f->values, got + 2, sizeof(long long) * (size_t)(nfields - 2));
    }
    return 0;
}

/* What Stats.add_deal sums, over the deals of a call. */
typedef struct {
    long long deals, redeals, sweeps, leader_points, other_points, ties;
    long long wins[MAX_SEATS];
} Sums;

/* Add one deal whose sides had the facts at positions at[0..sides-1]; `leader` is the side
 * of the player after the dealer. */
static inline void fold_deal(FactsTable *t, const int *at, int sides, int leader, Sums *sum) {
    long long totals[MAX_SEATS] = {0}, all = 0, top = 0;
    int tops = 0, first = 0;
    for (int i = 0; i < sides; i++) {
        Facts *f = &t->facts[at[i]];
        f->count[i]++;
        totals[i] = f->total;
        all += totals[i];
        if (i == 0 || totals[i] > top) top = totals[i], tops = 1, first = i;
        else if (totals[i] == top) tops++;
    }
    sum->deals++;
    sum->leader_points += totals[leader];
    sum->other_points += all - totals[leader];
    if (tops == 1) sum->wins[first]++;
    else sum->ties++;
}

/* run_deals(players, prefix, start, count, strategies, team_of, sides, table, fields):
 * deals start..start+count-1, deal k seeded by the key (k, *prefix) and dealt by seat
 * k % players, scored through `table` (see facts_read). Returns (deals, redeals, points,
 * sweeps, leader_points, other_points, wins, ties): points[i][j] is side i's sum of the
 * field fields[j + 2], wins one count per side. */
static PyObject *Rules_run_deals(RulesObject *self, PyObject *args) {
    int players, sides, team_of[MAX_SEATS], fields[MAX_FIELDS + 2];
    long long start, count;
    PyObject *prefix_seq, *strategies, *teams, *table, *field_seq;
    if (!PyArg_ParseTuple(args, "iOLLOOiOO", &players, &prefix_seq, &start, &count, &strategies,
                          &teams, &sides, &table, &field_seq))
        return NULL;
    mask_t prefix[7];
    int plen = read_masks(prefix_seq, prefix, 6, "prefix");
    int8_t strategy[MAX_SEATS];
    if (plen < 0 || check_seats(players, 0) < 0 ||
        read_strategies(strategies, players, strategy) < 0 ||
        read_teams(teams, players, sides, team_of) < 0)
        return NULL;
    int nfields = read_int_tuple(field_seq, fields, MAX_FIELDS + 2, "fields");
    if (nfields < 0) return NULL;
    if (nfields < 2) {
        PyErr_SetString(PyExc_ValueError, "fields: total's and sweeps' first");
        return NULL;
    }
    if (start < 0 || count < 0 || start + count > 0xFFFFFFFFLL) {
        PyErr_SetString(PyExc_ValueError, "deal numbers: 0 to 2**32 - 1");
        return NULL;
    }
    FactsTable facts = {malloc(256 * sizeof(Facts)), 0, 256, NULL, 0};
    Lanes *lanes = lanes_new();
    Plays buf = {NULL, 0, 0, batch_cache(self)};
    int *at = malloc(sizeof(int) * FOLD_BLOCK * MAX_SEATS); /* per deal of a block */
    int8_t *leaders = malloc(FOLD_BLOCK);
    int failed = !facts.facts || !lanes || !buf.cache || !at || !leaders ||
                 facts_rehash(&facts, 1024) < 0;
    Sums sum;
    memset(&sum, 0, sizeof sum);
    int dealer = (int)(start % players); /* of the next deal */
    for (long long b0 = start; b0 < start + count && !failed; b0 += FOLD_BLOCK) {
        long long b1 = b0 + FOLD_BLOCK < start + count ? b0 + FOLD_BLOCK : start + count;
        int known = facts.len; /* keys met before this block: their points are read */
        Py_BEGIN_ALLOW_THREADS;
        for (long long k0 = b0; k0 < b1 && !failed; k0 += MT_LANES) {
            int n = seed_deals(lanes, k0, b1, prefix, plen);
            for (int l = 0; l < n && !failed; l++) {
                int d = (int)(k0 + l - b0);
                Game s;
                deal_game(&self->cfg, players, dealer, &lanes->lane[l], &s);
                if (play_out(&self->cfg, &s, &lanes->lane[l], strategy, &buf, NULL) < 0) {
                    failed = 1;
                    break;
                }
                Tally t;
                deal_facts(&s, team_of, sides, &t);
                for (int i = 0; i < sides; i++) {
                    at[d * sides + i] = facts_find(&facts, t.keys[i]);
                    if (at[d * sides + i] < 0) failed = 1;
                }
                dealer = next_seat(dealer, players);
                leaders[d] = (int8_t)team_of[dealer]; /* the seat after the dealer leads */
                sum.redeals += s.redeals;
            }
        }
        Py_END_ALLOW_THREADS;
        if (failed) {
            PyErr_NoMemory();
            break;
        }
        if (facts_read(&facts, known, table, fields, nfields) < 0) {
            failed = 1;
            break;
        }
        for (int d = 0; d < (int)(b1 - b0); d++)
            fold_deal(&facts, &at[d * sides], sides, leaders[d], &sum);
    }
    free(buf.items);
    batch_cache_done(self, buf.cache);
    free(lanes);
    free(at);
    free(leaders);
    if (failed) {
        facts_free(&facts);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    /* points per side and field: each distinct key's points times its deals */
    long long points[MAX_SEATS][MAX_FIELDS];
    memset(points, 0, sizeof points);
    for (int i = 0; i < facts.len; i++) {
        Facts *f = &facts.facts[i];
        for (int side = 0; side < sides; side++) {
            sum.sweeps += f->sweeps * f->count[side];
            for (int j = 0; j < nfields - 2; j++) points[side][j] += f->values[j] * f->count[side];
        }
    }
    facts_free(&facts);
    PyObject *per_side = PyTuple_New(sides);
    PyObject *wins = PyTuple_New(sides);
    for (int side = 0; per_side && wins && side < sides; side++) {
        PyObject *row = PyTuple_New(nfields - 2);
        for (int j = 0; row && j < nfields - 2; j++)
            PyTuple_SET_ITEM(row, j, PyLong_FromLongLong(points[side][j]));
        PyTuple_SET_ITEM(per_side, side, row);
        PyTuple_SET_ITEM(wins, side, PyLong_FromLongLong(sum.wins[side]));
    }
    if (!per_side || !wins) {
        Py_XDECREF(per_side);
        Py_XDECREF(wins);
        return NULL;
    }
    return Py_BuildValue("(LLNLLLNL)", sum.deals, sum.redeals, per_side, sum.sweeps,
                         sum.leader_points, sum.other_points, wins, sum.ties);
}
