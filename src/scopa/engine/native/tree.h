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
 * scorer's own points (asked of the host once per distinct packed key and remembered),
 * backing each side's margin up the path.
 *
 * No Python here: the host that includes it (the C extension's tree_methods.h, the
 * WebAssembly build's wasm.c) defines first
 *   static double host_points(void *scorer, uint64_t key): the scorer's points, NAN on failure
 *       (the host's error kept);
 *   static void host_no_memory(void): memory ran out (the host's error kept);
 *   static void host_release(void *scorer): the tree is freed.
 * The host runs a batch of iterations at a time, so that the thinking time stays on its
 * clock. */
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
    void *scorer; /* key -> points, the scorer's: the host's (host_points) */
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
    if (t->scorer) host_release(t->scorer);
    free(t);
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

/* The scorer's points for one side's packed key (asked of the host once per key). NAN with
 * the host's error kept when it fails. */
static double tree_points(Tree *t, uint64_t key) {
    if (2 * (t->kused + 1) > t->kcap) {
        int cap = t->kcap ? 2 * t->kcap : 256;
        uint64_t *keys = calloc((size_t)cap, sizeof *keys);
        double *points = calloc((size_t)cap, sizeof *points);
        uint8_t *filled = calloc((size_t)cap, 1);
        if (!keys || !points || !filled) {
            free(keys), free(points), free(filled);
            host_no_memory();
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
    double points = host_points(t->scorer, key);
    if (isnan(points)) return NAN;
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
 * Returns -1 with the host's error kept when the scorer fails. */
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
 * with every hand as `s` deals it (alpha-beta): side 0's reward. NAN with the host's error kept
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
        host_no_memory();
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

/* One iteration. Returns -1 with the host's error kept (no memory, the scorer failed). */
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
            host_no_memory();
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
                host_no_memory();
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
        host_no_memory();
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

/* What the seat cannot see, from `t->start` (read) and `seat` (the seat to move): the other
 * seats and how many of their cards are hidden, and the unknown cards; then the root. -1: no
 * memory. */
static int tree_prepare(Tree *t, int seat) {
    Game *g = &t->start;
    int players = g->n;
    for (int k = 1; k < players; k++) {
        int o = (seat + k) % players;
        t->others[t->nothers] = o;
        t->hidden[t->nothers++] = bits(g->hands[o] & ~g->shown);
    }
    mask_t unknown = g->table;
    for (int k = 0; k < players; k++) unknown |= g->piles[k] | (g->hands[k] & g->shown);
    unknown = FULL & ~(unknown | g->hands[seat]);
    for (mask_t u = unknown; u; u &= u - 1) t->unknown[t->nunknown++] = (int8_t)__builtin_ctzll(u);
    if (!t->buf.cache) t->buf.cache = calloc(CACHE_SLOTS, sizeof(Cached));
    if (!t->buf.cache || tree_node(t, -1, 0, 0) < 0) return -1;
    return 0;
}

#endif
