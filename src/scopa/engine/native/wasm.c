/* The kernel built to WebAssembly (scripts/build-wasm.py): the same headers as _kernel.c, with a
 * plain C interface in place of CPython's, for the phone's worker (Pyodide) where no C
 * extension can be loaded. scopa.engine.native.wasm wraps it in the C extension's interface.
 *
 * Every call reads its arguments from one buffer of 64-bit words (k_in) and writes its answer
 * to another (k_out), returning the count of words written, or -1 with k_error saying why.
 * Signed values travel as two's complement, doubles as their bits. A tree asks its scorer's
 * points of the host through the import env.points(scorer, key). */
#include <math.h>

#include "facts.h"

#define EXPORT(name) __attribute__((export_name(#name)))

__attribute__((import_module("env"), import_name("points"))) extern double
env_points(int32_t scorer, uint64_t key);

static const char *error_text = "";
static uint64_t *in_words, *out_words;
static int in_cap, in_pos, in_len, out_cap, out_len;

EXPORT(k_error) const char *k_error(void) { return error_text; }

static int fail(const char *why) {
    error_text = why;
    return -1;
}

/* The input buffer, with room for `words` (NULL: no memory); the call that follows reads it. */
EXPORT(k_in) uint64_t *k_in(int32_t words) {
    if (words > in_cap) {
        uint64_t *more = realloc(in_words, (size_t)words * sizeof *more);
        if (!more) return NULL;
        in_words = more;
        in_cap = words;
    }
    in_pos = 0;
    in_len = words;
    return in_words;
}

EXPORT(k_out) uint64_t *k_out(void) { return out_words; }

static int bad_input;

static uint64_t take(void) {
    if (in_pos >= in_len) {
        bad_input = 1;
        return 0;
    }
    return in_words[in_pos++];
}

static int64_t take_int(void) { return (int64_t)take(); }

static double take_double(void) {
    uint64_t bits = take();
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static int out_of_memory;

static void put(uint64_t word) {
    if (out_len == out_cap) {
        int cap = out_cap ? 2 * out_cap : 1024;
        uint64_t *more = realloc(out_words, (size_t)cap * sizeof *more);
        if (!more) {
            out_of_memory = 1;
            return;
        }
        out_words = more;
        out_cap = cap;
    }
    out_words[out_len++] = word;
}

static void put_double(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    put(bits);
}

static void start(void) {
    out_len = 0;
    bad_input = out_of_memory = 0;
    error_text = "";
}

/* The call's answer: the words written, or -1 (k_error). */
static int finish(void) {
    if (bad_input) return fail("too few values");
    if (out_of_memory) return fail("no memory");
    return out_len;
}

/* ---------- the tree's host ---------- */

static double host_points(void *scorer, uint64_t key) {
    double points = env_points((int32_t)(intptr_t)scorer, key);
    if (isnan(points)) error_text = "the scorer failed";
    return points;
}

static void host_no_memory(void) { error_text = "no memory"; }

static void host_release(void *scorer) { (void)scorer; /* the host forgets it (k_tree_free) */ }

#include "tree.h"

/* ---------- rules ---------- */

typedef struct {
    Cfg cfg;
    Plays buf;
} Rules;

EXPORT(k_init) void k_init(void) {
    mt_prepare();
    prepare_combos();
    prepare_ranks();
}

/* in: the 17 flags and sizes of _kernel.Rules (packets left out), the packets' count, the
 * packets. */
EXPORT(k_rules_new) Rules *k_rules_new(void) {
    start();
    Rules *r = calloc(1, sizeof *r);
    if (!r || !(r->buf.cache = calloc(CACHE_SLOTS, sizeof(Cached)))) {
        free(r);
        fail("no memory");
        return NULL;
    }
    Cfg *c = &r->cfg;
    int *fields[] = {&c->fifteen,      &c->fewest,     &c->ace_takes_all,  &c->ace_sweep,
                     &c->optional,     &c->dealer_sweeps, &c->last_play_sweep, &c->last_apart,
                     &c->kings_redeal, &c->hand_size,  &c->table_size,     &c->cirulla,
                     &c->low_table,    &c->aces_redeal, &c->matta_declared, &c->cirulla_points,
                     &c->decino_points};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) *fields[i] = (int)take_int();
    c->npackets = (int)take_int();
    if (c->npackets < 0 || c->npackets > 16) bad_input = 1;
    for (int i = 0; i < c->npackets && !bad_input; i++) c->packets[i] = (int)take_int();
    if (bad_input) {
        free(r->buf.cache);
        free(r);
        fail("packets: at most 16 values");
        return NULL;
    }
    return r;
}

EXPORT(k_rules_free) void k_rules_free(Rules *r) {
    if (!r) return;
    free(r->buf.items);
    free(r->buf.cache);
    free(r);
}

/* in: 1024 coin bits, 1024 best primiera, 1024 best rank, 10 primiera values, 14 constants. */
EXPORT(k_set_scoring) int k_set_scoring(void) {
    start();
    if (in_len != 1024 * 3 + 10 + 14) return fail("set_scoring: table sizes");
    for (int i = 0; i < 1024; i++) scoring.coin_bits[i] = take();
    for (int i = 0; i < 1024; i++) scoring.best_primiera[i] = (int)take_int();
    for (int i = 0; i < 1024; i++) scoring.best_rank[i] = (int)take_int();
    for (int i = 0; i < 10; i++) scoring.primiera_values[i] = (int)take_int();
    uint64_t c[14];
    for (int i = 0; i < 14; i++) c[i] = take();
    scoring_constants(c);
    return 0;
}

/* in: hand, table. out: the plays as (card, capture) pairs. */
EXPORT(k_plays) int k_plays(Rules *r) {
    start();
    mask_t hand = take(), table = take();
    if ((hand | table) >> 40 || (hand & table)) return fail("hand and table: disjoint 40-bit masks");
    if (legal_plays(&r->cfg, hand, table, &r->buf, -1) < 0) return fail("no memory");
    for (int i = 0; i < r->buf.len; i++) {
        put((uint64_t)r->buf.items[i].card);
        put(r->buf.items[i].capture);
    }
    return finish();
}

/* ---------- games in and out ---------- */

static int check_seats(int players, int dealer) {
    return players >= 2 && players <= MAX_SEATS && dealer >= 0 && dealer < players ? 0
           : fail("players or dealer out of range");
}

/* A generator: kind 0, a seed (count, words); kind 1, CPython's state (624 words, index). */
static int take_rng(MT *g) {
    int64_t kind = take_int();
    if (kind == 1) {
        uint32_t words[MT_N];
        for (int i = 0; i < MT_N; i++) words[i] = (uint32_t)take();
        int index = (int)take_int();
        if (bad_input) return fail("state: 624 words");
        mt_import(g, words, index);
        return 0;
    }
    int64_t len = take_int();
    if (len < 1 || len > 7) return fail("seed: 1 to 7 words");
    uint32_t key[8];
    for (int i = 0; i < len; i++) key[i] = (uint32_t)take();
    if (bad_input) return fail("too few values");
    return mt_seed(g, key, (int)len) < 0 ? fail("no memory") : 0;
}

/* A game in progress (the fields of a State, as _kernel.c's read_game) and the seats'
 * strategies: n, hands, table, stock (count, cards), piles, sweeps, turn, last, dealer,
 * ace_sweeps (count, values), cleared, shown, matta_as, strategies. */
static int take_game(Game *s, int8_t *strategy) {
    memset(s, 0, sizeof *s);
    int64_t n = take_int();
    if (n < 2 || n > MAX_SEATS) return fail("players out of range");
    s->n = (int)n;
    for (int i = 0; i < s->n; i++) s->hands[i] = take();
    mask_t table = take();
    int64_t len = take_int();
    if (len < 0 || len > 40) return fail("stock: at most 40 values");
    mask_t seen = table;
    int cards = __builtin_popcountll(table);
    for (int i = 0; i < len; i++) {
        int64_t card = take_int();
        if (card < 0 || card >= 40) seen = ~0ULL;
        else seen |= 1ULL << card, cards++;
        s->stock[i] = (int8_t)card;
    }
    for (int i = 0; i < s->n; i++) s->piles[i] = take();
    for (int i = 0; i < s->n; i++) s->sweeps[i] = (int)take_int();
    s->turn = (int)take_int();
    s->last = (int)take_int();
    s->dealer = (int)take_int();
    int64_t naces = take_int();
    if (naces != s->n && naces != 0) return fail("ace_sweeps: one per seat (or none)");
    for (int i = 0; i < naces; i++) s->ace_sweeps[i] = (int)take_int();
    s->last_cleared = (int)take_int();
    s->shown = take();
    s->matta_as = (int)take_int();
    for (int i = 0; i < s->n; i++) {
        int64_t code = take_int();
        if (code < RANDOM || code > MIXED) return fail("strategies: unknown code");
        strategy[i] = (int8_t)code;
    }
    if (bad_input) return fail("too few values");
    if (check_seats(s->n, s->dealer) < 0 || check_seats(s->n, s->turn) < 0) return -1;
    for (int i = 0; i < s->n; i++) {
        seen |= s->hands[i] | s->piles[i];
        cards += __builtin_popcountll(s->hands[i] | s->piles[i]);
    }
    if (seen != FULL || cards != 40) return fail("the state does not hold each of the 40 cards once");
    s->table = table;
    s->stock_len = (int)len;
    s->leftovers_to = -1;
    return 0;
}

/* The finished (or dealt) game: n, hands, table, stock (count, cards), piles, sweeps, last,
 * leftovers_to, turn, history (count, then card and capture each), redeals, dealer, the
 * generator's state (0, or 1 then 624 words and the index), ace_sweeps, cleared, and per seat
 * its declarations (count, kinds). */
static int put_game(const Game *s, const Plays *history, MT *g, int keep) {
    put((uint64_t)s->n);
    for (int i = 0; i < s->n; i++) put(s->hands[i]);
    put(s->table);
    put((uint64_t)(s->stock_len - s->stock_pos));
    for (int i = s->stock_pos; i < s->stock_len; i++) put((uint64_t)s->stock[i]);
    for (int i = 0; i < s->n; i++) put(s->piles[i]);
    for (int i = 0; i < s->n; i++) put((uint64_t)(int64_t)s->sweeps[i]);
    put((uint64_t)(int64_t)s->last);
    put((uint64_t)(int64_t)s->leftovers_to);
    put((uint64_t)s->turn);
    put(history ? (uint64_t)history->len : 0);
    for (int i = 0; history && i < history->len; i++) {
        put((uint64_t)history->items[i].card);
        put(history->items[i].capture);
    }
    put((uint64_t)s->redeals);
    put((uint64_t)s->dealer);
    put((uint64_t)keep);
    if (keep) {
        uint32_t words[MT_N];
        int index = mt_export(g, words);
        for (int i = 0; i < MT_N; i++) put(words[i]);
        put((uint64_t)index);
    }
    for (int i = 0; i < s->n; i++) put((uint64_t)(int64_t)s->ace_sweeps[i]);
    put((uint64_t)(int64_t)s->last_cleared);
    for (int k = 0; k < s->n; k++) {
        put((uint64_t)s->ndeclared[k]);
        for (int j = 0; j < s->ndeclared[k]; j++) put((uint64_t)s->declared[k][j]);
    }
    return finish();
}

static int play_to_end(Rules *r, Game *s, MT *g, const int8_t *strategy, int want_history,
                       int keep) {
    Plays history = {NULL, 0, 0, NULL};
    Plays *plays = want_history ? &history : NULL;
    if (play_out(&r->cfg, s, g, strategy, &r->buf, plays) < 0) {
        free(history.items);
        return fail("no memory");
    }
    int words = put_game(s, plays, g, keep);
    free(history.items);
    return words;
}

/* in: players, dealer, generator, keep_state. out: the dealt game. */
EXPORT(k_deal) int k_deal(Rules *r) {
    start();
    int players = (int)take_int(), dealer = (int)take_int();
    if (check_seats(players, dealer) < 0) return -1;
    MT g;
    if (take_rng(&g) < 0) return -1;
    int keep = (int)take_int();
    if (bad_input) return fail("too few values");
    Game s;
    deal_game(&r->cfg, players, dealer, &g, &s);
    return put_game(&s, NULL, &g, keep);
}

/* in: players, dealer, strategies (one per seat), generator, history, keep_state. out: the
 * finished game. */
EXPORT(k_play) int k_play(Rules *r) {
    start();
    int players = (int)take_int(), dealer = (int)take_int();
    if (check_seats(players, dealer) < 0) return -1;
    int8_t strategy[MAX_SEATS];
    for (int i = 0; i < players; i++) {
        int64_t code = take_int();
        if (code < RANDOM || code > MIXED) return fail("strategies: unknown code");
        strategy[i] = (int8_t)code;
    }
    MT g;
    if (take_rng(&g) < 0) return -1;
    int want_history = (int)take_int(), keep = (int)take_int();
    if (bad_input) return fail("too few values");
    Game s;
    deal_game(&r->cfg, players, dealer, &g, &s);
    return play_to_end(r, &s, &g, strategy, want_history, keep);
}

/* in: the game, generator, history, keep_state. out: the finished game. */
EXPORT(k_playout) int k_playout(Rules *r) {
    start();
    Game s;
    int8_t strategy[MAX_SEATS];
    if (take_game(&s, strategy) < 0) return -1;
    MT g;
    if (take_rng(&g) < 0) return -1;
    int want_history = (int)take_int(), keep = (int)take_int();
    if (bad_input) return fail("too few values");
    return play_to_end(r, &s, &g, strategy, want_history, keep);
}

static int take_teams(int players, int *sides, int *team_of) {
    for (int i = 0; i < players; i++) team_of[i] = (int)take_int();
    *sides = (int)take_int();
    if (bad_input) return fail("too few values");
    if (!scoring.ready) return fail("the scoring tables are not set (set_scoring)");
    int ok = *sides >= 1 && *sides <= players;
    for (int i = 0; ok && i < players; i++) ok = team_of[i] >= 0 && team_of[i] < *sides;
    return ok ? 0 : fail("team_of: a side below `sides` for each seat");
}

/* in: the game, the seed's prefix (count, words), count, team_of (one per seat), sides. out:
 * per distinct outcome its keys per side, leader and count. */
EXPORT(k_rollouts) int k_rollouts(Rules *r) {
    start();
    Game start_game;
    int8_t strategy[MAX_SEATS];
    if (take_game(&start_game, strategy) < 0) return -1;
    int64_t plen = take_int();
    if (plen < 0 || plen > 6) return fail("prefix: at most 6 values");
    mask_t prefix[7];
    for (int i = 0; i < plen; i++) prefix[i] = take();
    int64_t count = take_int();
    int sides, team_of[MAX_SEATS];
    if (take_teams(start_game.n, &sides, team_of) < 0) return -1;
    if (count < 0 || count > 0xFFFFFFFFLL) return fail("count: 0 to 2**32 - 1");
    Tallies tab;
    int failed = rollout_tallies(&r->cfg, &start_game, strategy, prefix, (int)plen, count, team_of,
                                 sides, r->buf.cache, &tab) < 0;
    for (size_t i = 0; !failed && i < tab.cap; i++) {
        Tally *t = &tab.slots[i];
        if (!t->count) continue;
        for (int j = 0; j < sides; j++) put(t->keys[j]);
        put((uint64_t)(int64_t)t->leader);
        put((uint64_t)t->count);
    }
    free(tab.slots);
    return failed ? fail("no memory") : finish();
}

/* ---------- the search tree ---------- */

/* in: the game (with the seats' playout strategies), seat, seed (count, words), team_of, sides,
 * exploration, scale, tries, endgame, round_only, then the decisions (count; each seat, later,
 * fewest, 40 odds). `scorer`: the host's number for the scorer (env.points). NULL: k_error. */
EXPORT(k_tree_new) Tree *k_tree_new(Rules *r, int32_t scorer) {
    start();
    Tree *t = calloc(1, sizeof *t);
    if (!t) {
        fail("no memory");
        return NULL;
    }
    int seat, failed = take_game(&t->start, t->strategy) < 0;
    if (!failed) {
        seat = (int)take_int();
        if (seat < 0 || seat >= t->start.n || seat != t->start.turn)
            failed = fail("seat: the seat to move");
    }
    failed = failed || take_rng(&t->g) < 0 || take_teams(t->start.n, &t->sides, t->team_of) < 0;
    if (!failed && t->sides < 2) failed = fail("sides: at least two");
    if (!failed) {
        t->c = take_double();
        t->scale = take_double();
        t->tries = (int)take_int();
        int endgame = (int)take_int();
        t->endgame = t->sides == 2 && endgame > 0 ? endgame : 0;
        t->round_only = (int)take_int();
        if (!(t->scale > 0) || t->tries < 1 || t->c < 0)
            failed = fail("scale above 0, tries at least 1");
    }
    int64_t rows = failed ? 0 : take_int();
    if (!failed && (rows < 0 || rows > 1000)) failed = fail("decisions: too many rows");
    if (!failed && !(t->decisions = calloc((size_t)rows + 1, sizeof(Decision))))
        failed = fail("no memory");
    for (int64_t k = 0; !failed && k < rows; k++) {
        Decision *d = &t->decisions[k];
        d->seat = (int)take_int();
        d->later = take();
        d->fewest = take_double();
        for (int c = 0; c < 40; c++) d->odds[c] = take_double();
        if (d->seat < 0 || d->seat >= t->start.n) failed = fail("decisions: (seat, later, fewest, 40 odds)");
    }
    if (!failed && bad_input) failed = fail("too few values");
    t->ndecisions = (int)rows;
    t->cfg = r->cfg;
    if (!failed && tree_prepare(t, seat) < 0) failed = fail("no memory");
    if (failed) {
        tree_free(t);
        return NULL;
    }
    t->scorer = (void *)(intptr_t)scorer;
    return t;
}

EXPORT(k_tree_free) void k_tree_free(Tree *t) { tree_free(t); }

/* `count` more iterations. out: the iterations so far. */
EXPORT(k_tree_run) int k_tree_run(Tree *t, int32_t count) {
    start();
    for (int k = 0; k < count; k++)
        if (tree_iterate(t) < 0) return -1;
    put((uint64_t)t->iterations);
    return finish();
}

/* out: one deal as the iterations draw them: n, hands, stock (count, cards). */
EXPORT(k_tree_sample) int k_tree_sample(Tree *t) {
    start();
    Game s;
    tree_sample(t, &s);
    put((uint64_t)s.n);
    for (int k = 0; k < s.n; k++) put(s.hands[k]);
    put((uint64_t)(s.stock_len - s.stock_pos));
    for (int k = s.stock_pos; k < s.stock_len; k++) put((uint64_t)s.stock[k]);
    return finish();
}

/* The plays the tree holds (its nodes, the root left out). */
EXPORT(k_tree_size) int k_tree_size(Tree *t) { return t->used - 1; }

/* out: per root play tried, its card, capture, visits and mean reward. */
EXPORT(k_tree_stats) int k_tree_stats(Tree *t) {
    start();
    for (int c = t->nodes[0].child; c >= 0; c = t->nodes[c].sibling) {
        TreeNode *n = &t->nodes[c];
        put((uint64_t)n->card);
        put(n->capture);
        put((uint64_t)n->visits);
        put_double(n->visits ? n->total / n->visits * t->scale : 0.0);
    }
    return finish();
}
