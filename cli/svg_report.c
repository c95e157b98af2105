/* svg_report.c: what the SVG loader did not draw, reported on stderr by the
 * commands that load SVG files (render, stats). */
#include "cli.h"

#include <stdio.h>

void cli_report_skipped(const char *cmd, const char *file, const cn_svg_stats *st) {
  for (uint32_t i = 0; i < st->warning_count && i < CN_SVG_MAX_WARNINGS; i++)
    fprintf(stderr, "canopy %s: warning: %s: %s\n", cmd, file, st->warnings[i]);
  if (st->warning_count > CN_SVG_MAX_WARNINGS)
    fprintf(stderr, "canopy %s: warning: %s: %u more warnings\n", cmd, file, st->warning_count - CN_SVG_MAX_WARNINGS);
  /* one line per kind of content left out, whether or not it had a warning */
  for (int k = 0; k < CN_SVG_SKIP_COUNT; k++)
    if (st->skipped[k])
      fprintf(stderr, "canopy %s: warning: %s: not drawn: %u x %s\n", cmd, file, st->skipped[k],
              cn_svg_skip_name((cn_svg_skip)k));
}
