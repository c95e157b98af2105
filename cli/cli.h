/* cli.h: what the subcommands of build/canopy share.
 *
 * Exit codes: 0 success, 1 failure of the work (bad input file, GPU error),
 * 2 usage error (unknown subcommand or option, missing argument). */
#ifndef CN_CLI_H
#define CN_CLI_H

#include <canopy/canopy.h>
#include <canopy/cn_scan.h>
#include <canopy/cn_parens.h>
#include <canopy/cn_scene.h>
#include <canopy/cn_scene_api.h>
#include <canopy/cn_svg.h>
#include <canopy/cn_pathbox.h>
#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_box.h>
#include <canopy/cn_render_shared.h>

/* Evaluates expr once; returns it from the enclosing function when it is an error. */
#define CLI_TRY(expr)                      \
  do {                                     \
    cn_result cli_try_ = (expr);           \
    if (cli_try_ != CN_OK) return cli_try_; \
  } while (0)

#include <stdbool.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
} cli_command;

/* ---- options (opts.c): one parser for every subcommand ----------------- */

typedef enum cli_opt_kind {
  CLI_OPT_FLAG,   /* bool *: set when present */
  CLI_OPT_STRING, /* const char **: the value as given */
  CLI_OPT_FLOAT,  /* float *: a finite number in [lo, hi] ((lo, hi] with open_lo) */
  CLI_OPT_INT,    /* int *: a whole number in lo..hi */
  CLI_OPT_COLOR,  /* float[4]: an SVG/CSS colour, straight-alpha RGBA in 0..1 */
  CLI_OPT_STRINGS, /* cli_strings *: repeatable, each value appended (at most CLI_MAX_REPEAT) */
} cli_opt_kind;

#define CLI_MAX_REPEAT 16
typedef struct cli_strings {
  const char *v[CLI_MAX_REPEAT];
  uint32_t n;
} cli_strings;

typedef struct cli_opt {
  const char *name;     /* long name without "--"; NULL ends a table */
  char short_name;      /* 0: none */
  cli_opt_kind kind;
  void *dst;
  double lo, hi;        /* FLOAT and INT ranges */
  bool open_lo;         /* FLOAT: lo itself is out */
  const char *metavar;  /* "a file name", for "needs ..." messages */
  bool *seen;           /* optional: set when given */
} cli_opt;

/* Parses argv[1..argc-1] against opts (a table ended by {0}): --name VALUE,
 * --name=VALUE, -x VALUE, -xVALUE, flags, "--" (the rest are operands), "-"
 * (an operand). Operands are moved to argv[1..*nops] in order. --help (and
 * -?) prints usage to stdout; --verbose (-v) sets cli_verbose unless the
 * command has its own. Returns CLI_OK, CLI_USAGE (message printed) or -1
 * after --help (the command then exits 0). */
int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *opts, void (*usage)(FILE *), int *nops);
#define CLI_PARSE(cmd, argc, argv, opts, usage, nops)                        \
  do {                                                                      \
    int cli_parse_ = cli_parse((cmd), (argc), (argv), (opts), (usage), (nops)); \
    if (cli_parse_) return cli_parse_ < 0 ? CLI_OK : cli_parse_;            \
  } while (0)

/* --verbose: error messages keep the library's source locations. */
extern bool cli_verbose;

/* ---- messages ------------------------------------------------------------ */

/* Prints "canopy NAME: message" and the hint to use --help; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints "canopy NAME: what: MESSAGE" with the library's message for people
 * (cn_last_error_message()); with --verbose, the result name and the message
 * with its source locations (cn_last_error()). Returns CLI_FAIL. */
int cli_fail(const char *cmd, const char *what, cn_result r);
/* For a failure about an input file: "canopy NAME: FILE: MESSAGE" (FILE left
 * out when the message names it already), so that the user reads which file
 * and, from the loader, which line and element. Returns CLI_FAIL. */
int cli_fail_file(const char *cmd, const char *file, cn_result r);
/* Prints "canopy NAME: message" (printf-style); returns CLI_FAIL. */
int cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Progress of a long command on stderr: "canopy NAME: [i/n] text". On a
 * terminal one line rewritten in place; otherwise (a pipe, a log file) one
 * line per item. cli_progress_end() finishes the terminal line. */
void cli_progress(const char *cmd, int i, int n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void cli_progress_end(void);

/* Creates a standalone context (with the user's pipeline cache), printing the
 * error on failure. */
int cli_context(const char *cmd, cn_context **out);
/* The same, also capturing each kernel's driver statistics where offered
 * (cn_context_desc.kernel_statistics): `bench`, `info --kernels`. */
int cli_context_stats(const char *cmd, bool kernel_statistics, cn_context **out);
/* The CANOPY_PARENS_* tuning (bench_parens.c's header lists the variables);
 * false with a message when one is malformed. */
bool cli_parens_tuning_env(cn_parens_tuning *t);
/* Prints the loader's warnings and one line per kind of skipped content (svg_report.c). */
void cli_report_skipped(const char *cmd, const char *file, const cn_svg_stats *st);

/* ---- output (output.c): nothing lost on failure --------------------------
 * A file is written to a temporary file in its directory and renamed over
 * the destination only once complete, so a failed or interrupted command
 * leaves an existing file untouched; standard output is flushed and checked.
 * path NULL or "-" is standard output. */
typedef struct cli_out {
  FILE *f;
  const char *path;  /* as given; NULL: standard output */
  char tmp[4096];    /* the temporary file, "" for standard output */
} cli_out;
int cli_out_open(const char *cmd, const char *path, cli_out *o);
/* Flushes, checks and renames into place; on any error removes the
 * temporary file, prints what failed and returns CLI_FAIL. */
int cli_out_commit(const char *cmd, cli_out *o);
/* Drops the output (the destination stays as it was). */
void cli_out_abort(cli_out *o);
/* The whole of data into path, atomically (open, write, commit). */
int cli_write_file(const char *cmd, const char *path, const void *data, size_t size);
/* A name for messages: the path, or "standard output". */
const char *cli_out_name(const char *path);

/* ---- data directories (paths.c) -----------------------------------------
 * Defaults are found from the binary's own location (/proc/self/exe), never
 * from the current directory: <exe dir>/share/canopy/NAME (a build tree),
 * <exe dir>/../share/canopy/NAME (installed), then the source tree the
 * binary was built in. Each writes into buf and returns it, or NULL (buf
 * then lists where it looked) when none exists. */
const char *cli_default_scenes_dir(char *buf, size_t cap); /* tests/data/scenes-real */
const char *cli_default_suite_dir(char *buf, size_t cap);  /* the resvg suite */
/* The user's pipeline cache file: $XDG_CACHE_HOME/canopy/pipelines.bin, else
 * $HOME/.cache/canopy/pipelines.bin (directories created); NULL when neither
 * is set or CANOPY_PIPELINE_CACHE=0. */
const char *cli_pipeline_cache_path(char *buf, size_t cap);
/* "x0 y0 x1 y1" with %.9g, or "empty", and a newline. */
int cli_write_box(FILE *f, cn_box b);
/* `canopy bbox FILE.svg` (cmd_bbox_svg.c). */
int cli_bbox_svg(const char *svg, const char *out_path, bool cpu, const cn_svg_options *opt);

/* --font-dir DIR (repeatable, cli_fonts.c): at argv[*i], adds DIR to opt's font
 * directories and steps *i past it. -1: argv[*i] is another option; else
 * CLI_OK or CLI_USAGE (message printed). */
#define CLI_MAX_FONT_DIRS 16
int cli_font_dir_arg(const char *cmd, int argc, char **argv, int *i, cn_svg_options *opt);
#define CLI_FONT_DIR_HELP \
  "--font-dir DIR (repeatable): text uses only the fonts in DIR, with sans-serif, serif, monospace,\n" \
  "cursive and fantasy as Noto Sans, Noto Serif, Noto Mono, Yellowtail and Sedgwick Ave Display;\n" \
  "without it, the system's fontconfig fonts.\n"

/* --aa NAME (opts.c): "area" (and NULL, not given) is CN_AA_AREA, "ss16"
 * CN_AA_SS16, into *aa; CLI_OK, or CLI_USAGE with the message printed. */
int cli_parse_aa(const char *cmd, const char *name, uint32_t *aa);
#define CLI_AA_HELP \
  "      --aa MODE          anti-aliasing: area (default), each pixel's exact covered area;\n" \
  "                         ss16, 4x4 samples per pixel rounded as Skia/tiny-skia (resvg) do\n"

/* Subcommands. */
int cli_info(int argc, char **argv);
int cli_parens(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_bbox(int argc, char **argv);
int cli_bins(int argc, char **argv);
int cli_render(int argc, char **argv);
int cli_conformance(int argc, char **argv);

#endif
