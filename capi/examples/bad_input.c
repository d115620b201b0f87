/* Every kind of bad input the C API documents, each tried once: prints the case, the code it
 * got and the code the header documents, and exits 1 if any differs.
 *   cc -Icapi/include capi/examples/bad_input.c target/release/libminkowski_capi.a \
 *      -lm -lpthread -ldl -o bad_input && ./bad_input
 */
#include <stdio.h>
#include <string.h>

#include "minkowski.h"

static int failures = 0;

static void expect(const char *what, int got, int want) {
    printf("%-52s %-16s (%d)%s\n", what, mk_status_name(got), got, got == want ? "" : "  <-- WRONG");
    if (got != want) failures++;
}

static int eval(MkPosition p) {
    int32_t cp;
    return mk_evaluate(NULL, &p, &cp);
}

static int trusted(MkEvaluator *ev, MkPosition p) {
    int32_t cp;
    return mk_evaluator_evaluate_trusted(ev, &p, &cp);
}

int main(void) {
    MkPosition start, p;
    int32_t cp;
    if (mk_position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &start))
        return 2;
    p = start; p.black |= 1ull << 4;
    expect("white and black overlap (e1 in both)", eval(p), MK_ERR_BITBOARDS);
    p = start; p.queens |= 1ull << 4;
    expect("two piece kinds on one square (e1)", eval(p), MK_ERR_BITBOARDS);
    p = start; p.white |= 1ull << 30;
    expect("a coloured square with no piece", eval(p), MK_ERR_BITBOARDS);
    p = start; p.kings &= ~(1ull << 60); p.black &= ~(1ull << 60); p.castling = 3;
    expect("missing black king", eval(p), MK_ERR_POSITION);
    p = start; p.knights &= ~2ull; p.pawns |= 2ull;
    expect("white pawn on b1 (back rank)", eval(p), MK_ERR_POSITION);
    p = start; p.castling = 16;
    expect("castling flags out of range", eval(p), MK_ERR_POSITION);
    p = start; p.ep = 64;
    expect("en passant square 64", eval(p), MK_ERR_SQUARE);
    memset(&p, 0, sizeof p);
    expect("empty board", eval(p), MK_ERR_POSITION);
    expect("invalid FEN \"not a fen\"", mk_evaluate_fen(NULL, "not a fen", &cp), MK_ERR_FEN);
    expect("FEN that is not UTF-8", mk_evaluate_fen(NULL, "\xff\xfe", &cp), MK_ERR_FEN);
    expect("FEN of a position without kings", mk_evaluate_fen(NULL, "8/8/8/8/8/8/8/8 w - - 0 1", &cp), MK_ERR_POSITION);
    expect("NULL position", mk_evaluate(NULL, NULL, &cp), MK_ERR_NULL);
    expect("NULL output", mk_evaluate(NULL, &start, NULL), MK_ERR_NULL);
    expect("NULL FEN", mk_evaluate_fen(NULL, NULL, &cp), MK_ERR_NULL);
    MkTraceSummary summary;
    expect("trace buffer too small (0 rows)", mk_trace(NULL, &start, NULL, 0, &summary), MK_ERR_BUFFER);
    MkWeights *w = NULL;
    expect("weights file missing", mk_weights_load("/no/such/engine.toml", &w), MK_ERR_WEIGHTS);
    expect("weights: not TOML", mk_weights_from_toml("[eval", &w), MK_ERR_WEIGHTS);
    expect("weights: unknown weight", mk_weights_from_toml("[eval]\nknight = [1, 2]\n", &w), MK_ERR_WEIGHTS);
    expect("weights: value out of range", mk_weights_from_toml("[eval]\ntempo = [101, 0]\n", &w), MK_ERR_WEIGHTS);
    expect("weights: NULL path", mk_weights_load(NULL, &w), MK_ERR_NULL);
    mk_weights_free(NULL); /* allowed */
    expect("king distance from square 64", mk_king_distance(64, 0), MK_ERR_SQUARE);
    expect("KPK with king and pawn on one square", mk_kpk(4, 4, 60, 1, 1), MK_ERR_POSITION);
    expect("KPK with the pawn on its first rank", mk_kpk(4, 2, 60, 1, 1), MK_ERR_POSITION);
    expect("knights vs passer, pawn on the last rank", mk_knights_catch_passer(60, 1, 1, 0), MK_ERR_POSITION);
    expect("passer race, pawn on the first rank", mk_passer_unstoppable(3, 1, 1, 64, 0), MK_ERR_POSITION);
    expect("knights vs passer, square 64", mk_knights_catch_passer(64, 1, 1, 0), MK_ERR_SQUARE);
    MkTraceRow *no_rows = NULL;
    expect("trace: NULL rows, capacity 5", mk_trace(NULL, &start, no_rows, 5, &summary), MK_ERR_NULL);
    MkScore score;
    expect("mop-up with kings in contact", mk_mop_up(NULL, 0, 1, &score), MK_ERR_POSITION);
    /* The trusted call builds no position: it refuses only what it documents. */
    MkEvaluator *ev = mk_evaluator_new(NULL);
    p = start; p.black |= 1ull << 4;
    expect("trusted: white and black overlap", trusted(ev, p), MK_ERR_BITBOARDS);
    p = start; p.kings |= 1ull << 28; p.white |= 1ull << 28;
    expect("trusted: two white kings", trusted(ev, p), MK_ERR_POSITION);
    p = start; p.knights &= ~2ull; p.pawns |= 2ull;
    expect("trusted: white pawn on b1 (back rank)", trusted(ev, p), MK_ERR_POSITION);
    memset(&p, 0, sizeof p);
    expect("trusted: empty board", trusted(ev, p), MK_ERR_POSITION);
    p = start; p.queens &= ~(1ull << 59); p.black &= ~(1ull << 59); /* White to move, e8 in check */
    p.queens |= 1ull << 20; p.white |= 1ull << 20; p.pawns &= ~(1ull << 12); p.white &= ~(1ull << 12);
    p.pawns &= ~(1ull << 52); p.black &= ~(1ull << 52);
    expect("checked: the side not to move in check", eval(p), MK_ERR_POSITION);
    expect("trusted: the side not to move in check (a value)", trusted(ev, p), MK_OK);
    /* The calls for a search: the trusted call's checks, and their own arguments. */
    p = start; p.black |= 1ull << 4;
    expect("cached: white and black overlap", mk_evaluator_evaluate_cached(ev, &p, &cp), MK_ERR_BITBOARDS);
    memset(&p, 0, sizeof p);
    expect("keyed: empty board", mk_evaluator_evaluate_keyed(ev, &p, 42, &cp), MK_ERR_POSITION);
    expect("keyed: NULL evaluator", mk_evaluator_evaluate_keyed(NULL, &start, 42, &cp), MK_ERR_NULL);
    expect("bounded: alpha = beta", mk_evaluator_evaluate_bounded(ev, &start, 5, 5, &cp), MK_ERR_ARGUMENT);
    expect("bounded: NULL output", mk_evaluator_evaluate_bounded(ev, &start, -5, 5, NULL), MK_ERR_NULL);
    expect("cache size above MK_EVAL_CACHE_MAX_KIB", mk_evaluator_set_cache_size(ev, MK_EVAL_CACHE_MAX_KIB + 1), MK_ERR_ARGUMENT);
    expect("cache stats: NULL output", mk_evaluator_cache_stats(ev, NULL), MK_ERR_NULL);
    mk_evaluator_free(ev);
    char name[8];
    expect("weight name: index past the last", mk_weights_name(mk_weights_count(), name, sizeof name), MK_ERR_ARGUMENT);
    expect("weight name: buffer of 1 byte", mk_weights_name(0, name, 1), MK_ERR_BUFFER);
    expect("weight name: NULL buffer, capacity 8", mk_weights_name(0, NULL, 8), MK_ERR_NULL);
    char header[32];
    snprintf(header, sizeof header, "%d.%d.%d", MK_VERSION_MAJOR, MK_VERSION_MINOR, MK_VERSION_PATCH);
    expect("library version = the header's MK_VERSION_*",
           strcmp(mk_version(), header) == 0 && mk_abi_version() == MK_ABI_VERSION ? MK_OK : MK_ERR_ARGUMENT, MK_OK);
    printf("%s\n", failures ? "SOME CODES DIFFER" : "all codes as documented");
    return failures ? 1 : 0;
}
