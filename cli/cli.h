/* cli.h: what the subcommands of build/canopy share.
 *
 * Exit codes: 0 success, 1 failure of the work (bad input file, GPU error),
 * 2 usage error (unknown subcommand or option, missing argument). */
#ifndef CN_CLI_H
#define CN_CLI_H

#include "canopy.h"

#include <stdbool.h>

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

/* Subcommands. */
int cli_info(int argc, char **argv);
int cli_parens(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_render(int argc, char **argv);
int cli_conformance(int argc, char **argv);

#endif
