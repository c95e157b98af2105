/* cli_fonts.c: the --font-dir option shared by render, stats and bbox. */
#include "cli.h"

#include <string.h>

int cli_font_dir_arg(const char *cmd, int argc, char **argv, int *i, cn_svg_options *opt) {
  static const char *dirs[CLI_MAX_FONT_DIRS];
  if (strcmp(argv[*i], "--font-dir") != 0) return -1;
  if (*i + 1 >= argc) return cli_usage_error(cmd, "--font-dir needs a directory");
  if (opt->font_dir_count == CLI_MAX_FONT_DIRS) return cli_usage_error(cmd, "at most %d --font-dir options", CLI_MAX_FONT_DIRS);
  dirs[opt->font_dir_count++] = argv[++*i];
  opt->font_dirs = dirs;
  return CLI_OK;
}
