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

/* Prints "canopy NAME: message" and the hint to use --help; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints "canopy NAME: what: cn_last_error()"; returns CLI_FAIL. */
int cli_fail(const char *cmd, const char *what, cn_result r);

/* Creates a standalone context, printing the error on failure. */
int cli_context(const char *cmd, cn_context **out);
/* The same, also capturing each kernel's driver statistics where offered
 * (cn_context_desc.kernel_statistics): `bench`, `info --kernels`. */
int cli_context_stats(const char *cmd, bool kernel_statistics, cn_context **out);
/* Prints the loader's warnings and one line per kind of skipped content (svg_report.c). */
void cli_report_skipped(const char *cmd, const char *file, const cn_svg_stats *st);

/* Output files of the scene-stage commands (cmd_bbox.c): path NULL is stdout. */
int cli_open_out(const char *cmd, const char *path, FILE **out);
int cli_close_out(const char *cmd, const char *path, FILE *f);
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
