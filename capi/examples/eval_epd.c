/* Evaluates every position of EPD files through the C API and prints, per position, the numbers
 * `minkowski eval` prints: every trace row (White mg eg, Black mg eg), the phase, the endgame
 * evaluator and the total. The row names and their number come from the library at run time.
 *
 *   cc -O2 -Icapi/include capi/examples/eval_epd.c target/release/libminkowski_capi.a \
 *      -lm -lpthread -ldl -o eval_epd
 *   ./eval_epd --weights engine.toml epd/wac.epd
 *
 * Output, one line per position, fields separated by tabs:
 *   FEN  total=CP  phase=P  endgame=CODE|none  NAME=WMG WEG BMG BEG ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minkowski.h"

/* The FEN part of an EPD line: its first four fields, or 0 if it has fewer. */
static int epd_fen(const char *line, char *fen, size_t size) {
    size_t len = 0;
    int fields = 0;
    const char *p = line;
    while (*p && fields < 4) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '\n' || *p == '\r') break;
        if (fields > 0 && len + 1 < size) fen[len++] = ' ';
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (len + 1 < size) fen[len++] = *p;
            p++;
        }
        fields++;
    }
    fen[len] = '\0';
    return fields == 4;
}

int main(int argc, char **argv) {
    if (mk_abi_version() != MK_ABI_VERSION) {
        fprintf(stderr, "eval_epd: library ABI %u, header %d\n", mk_abi_version(), MK_ABI_VERSION);
        return 2;
    }
    MkWeights *weights = NULL; /* NULL: the built-in weights */
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--weights") == 0) {
        int status = mk_weights_load(argv[2], &weights);
        if (status != MK_OK) {
            fprintf(stderr, "eval_epd: %s: %s\n", argv[2], mk_status_name(status));
            return 2;
        }
        first = 3;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: eval_epd [--weights engine.toml] FILE.epd...\n");
        return 2;
    }
    uint32_t count = mk_trace_row_count();
    MkTraceRow *rows = (MkTraceRow *)calloc(count ? count : 1, sizeof *rows); /* cast: also C++ */
    if (!rows) return 2;
    int failures = 0;
    for (int f = first; f < argc; f++) {
        FILE *in = fopen(argv[f], "r");
        if (!in) {
            perror(argv[f]);
            failures++;
            continue;
        }
        char line[4096], fen[256];
        while (fgets(line, sizeof line, in)) {
            if (!epd_fen(line, fen, sizeof fen)) continue;
            MkTraceSummary summary;
            int status = mk_trace_fen(weights, fen, rows, count, &summary);
            if (status != MK_OK) {
                printf("%s\terror=%s\n", fen, mk_status_name(status));
                failures++;
                continue;
            }
            printf("%s\ttotal=%d\tphase=%d\tendgame=%s", fen, summary.total, summary.phase,
                   summary.endgame[0] ? summary.endgame : "none");
            for (uint32_t i = 0; i < count; i++) {
                printf("\t%s=%d %d %d %d", mk_trace_row_name(i), rows[i].white_mg,
                       rows[i].white_eg, rows[i].black_mg, rows[i].black_eg);
            }
            printf("\n");
        }
        fclose(in);
    }
    free(rows);
    mk_weights_free(weights);
    return failures ? 1 : 0;
}
